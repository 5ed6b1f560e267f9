"""Fault injection against a real ``mafia-server`` (issue 16, "Nothing lost, whatever
fails"). Loopback only; every loop is bounded in count and in time.

    python benchmarks/faults.py [--quick] [--only SECTION ...]

Sections (each prints its own lines; the last line of the run is one JSON object with
the keys of every section that ran):

* ``liveness``
  - *flood*: 1,000 sockets that never say hello are opened on the server; then a new
    player (a ``mafia-bot`` process, one seat, against the server's bot) connects and
    plays a whole match: ``flood_player_in`` (true/false), ``flood_player_s``.
  - *frozen*: a ``mafia-bot`` process plays one seat of an Omerta match; it is
    SIGSTOPped mid-match and a spectator times how long until the table marks that seat
    away: ``frozen_detect_s``.
  - *slow readers*: 50 spectators that never read watch bot matches; the server's RSS
    before they come, at its peak and once they are all dropped:
    ``rss_after_slow_readers_ratio`` (after / before), ``slow_readers_dropped``.

More sections (kills at named instants, damaged storage) are added to :data:`SECTIONS`:
a section is a function ``(ctx) -> dict`` of JSON keys.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def say(text: str) -> None:
    print(text, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid: int) -> int:
    """The resident set size of process ``pid`` (kB, from /proc)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class ServerProc:
    """``mafia-server`` on 127.0.0.1 in its own process, its log in ``workdir``."""

    def __init__(self, workdir: Path, name: str, config: str = ""):
        self.port = free_port()
        self.log = workdir / f"{name}.log"
        cfg = workdir / f"{name}.yaml"
        cfg.write_text(config or "server:\n  name: faults\n")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server.main", "--host", "127.0.0.1", "--port", str(self.port),
             "--no-discovery", "--config", str(cfg), "--data-dir", str(workdir / f"{name}-data")],
            cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=open(self.log, "wb"))
        line = self.proc.stdout.readline().decode()
        if "listening on" not in line:
            raise RuntimeError(f"mafia-server did not start: {line!r} {self.log.read_text()[-2000:]}")

    def rss_kb(self) -> int:
        return rss_kb(self.proc.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class Conn:
    """A small blocking protocol client: JSON lines, pings answered while it reads."""

    def __init__(self, port: int, name: str | None = "observer", timeout: float = 5.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""
        self.seq = 0
        self.inbox: list[dict[str, Any]] = []
        if name is not None:
            self.request("hello", name=name)

    def send(self, msg_type: str, **fields: Any) -> int:
        self.seq += 1
        self.sock.sendall(json.dumps({"type": msg_type, "seq": self.seq, **fields}).encode() + b"\n")
        return self.seq

    def poll(self, timeout: float) -> list[dict[str, Any]]:
        """Messages that arrive within ``timeout`` s (pings answered, not returned)."""
        out: list[dict[str, Any]] = []
        ready, _, _ = select.select([self.sock], [], [], max(0.0, timeout))
        if not ready:
            return out
        data = self.sock.recv(1 << 20)
        if not data:
            raise ConnectionError("closed by the server")
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        for line in lines:
            if not line.strip():
                continue
            msg = json.loads(line)
            if msg.get("type") == "ping":
                self.sock.sendall(json.dumps({"type": "pong", "id": msg["id"],
                                              "tc": time.monotonic() * 1000}).encode() + b"\n")
                continue
            out.append(msg)
        self.inbox += out
        return out

    def request(self, msg_type: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        seq = self.send(msg_type, **fields)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for msg in self.poll(deadline - time.monotonic()):
                if msg.get("re") == seq:
                    return msg
        raise TimeoutError(f"no reply to {msg_type}")

    def close(self) -> None:
        self.sock.close()


def mafia_bot(port: int, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "botclient.main", "--connect", f"127.0.0.1:{port}", *args],
                            cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


# -- liveness ----------------------------------------------------------------------------
def closed_by_server(socks: list[socket.socket]) -> int:
    """How many of these (non-blocking) sockets the server closed or wrote to."""
    closed = 0
    for s in socks:
        try:
            s.recv(4096, socket.MSG_PEEK)  # EOF, or the error line sent before closing
            closed += 1
        except BlockingIOError:
            pass  # still open, waiting for its hello
        except OSError:
            closed += 1
    return closed


def flood(ctx: dict[str, Any]) -> dict[str, Any]:
    """1,000 idle sockets, then a player who must get in and play: from the player's own
    address (127.0.0.1), then spread over 63 other loopback addresses (16 each: more than
    ``max_connections`` in all)."""
    out = flood_from(ctx, ["127.0.0.1"], "flood")
    many = flood_from(ctx, [f"127.0.0.{i}" for i in range(2, 65)], "flood-many")
    out.update({"flood_many_player_in": many["flood_player_in"],
                "flood_many_player_s": many["flood_player_s"]})
    out["flood_player_in"] = out["flood_player_in"] and many["flood_player_in"]
    return out


def flood_from(ctx: dict[str, Any], sources: list[str], name: str) -> dict[str, Any]:
    n = 1000
    server = ServerProc(ctx["workdir"], name)
    say(f"{name}: 1000 idle sockets from {sources[0]}" + (f" .. {sources[-1]}" if len(sources) > 1 else ""))
    socks: list[socket.socket] = []
    try:
        started = time.monotonic()
        pending: list[socket.socket] = []
        while (len(socks) + len(pending) < n or pending) and time.monotonic() - started < 30:
            for _ in range(max(0, min(50, n - len(socks) - len(pending)))):
                s = socket.socket()
                s.bind((sources[(len(socks) + len(pending)) % len(sources)], 0))
                s.setblocking(False)
                s.connect_ex(("127.0.0.1", server.port))
                pending.append(s)
            _, writable, _ = select.select([], pending, [], 1.0)
            for s in writable:
                pending.remove(s)
                if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                    socks.append(s)
                else:  # refused or timed out: try that one again
                    s.close()
        for s in pending:
            s.close()
        opened = len(socks)
        say(f"{name}: {opened} idle sockets that never say hello opened in {time.monotonic() - started:.1f} s")
        waited = time.monotonic()
        keep = min(512, 16 * len(sources))  # max_connections, and 16 per address
        while closed_by_server(socks) < opened - keep and time.monotonic() - waited < 15:
            time.sleep(0.1)  # until the server has accepted (and mostly closed) every one of them
        time.sleep(1.1)  # old enough to make room for a newcomer
        say(f"{name}: the server holds {opened - closed_by_server(socks)} of them open "
            f"(the newest, waiting for their hello), {time.monotonic() - waited:.1f} s later")
        t0 = time.monotonic()
        player = mafia_bot(server.port, "--create", "famiglia", "--players", "2", "--server-bots", "1",
                           "--seed", "5", "--name", "Newcomer", "--timeout", "60")
        try:
            out, err = player.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            player.kill()
            out, err = player.communicate()
        took = time.monotonic() - t0
        played = player.returncode == 0 and bool(out.strip())
        result = json.loads(out.decode().splitlines()[-1]) if played else None
        closed = closed_by_server(socks)
        say(f"{name}: a new player connects and plays: {'in' if played else 'OUT'} "
            f"({took:.1f} s, result {result['scores'] if result else err.decode()[-300:]!r}); "
            f"{closed} of the idle sockets closed by the server so far")
        return {"flood_sockets": opened, "flood_player_in": played, "flood_player_s": round(took, 2)}
    finally:
        for s in socks:
            s.close()
        server.stop()


def frozen(ctx: dict[str, Any]) -> dict[str, Any]:
    """A mafia-bot process SIGSTOPped mid-match: seconds until its seat is away."""
    server = ServerProc(ctx["workdir"], "frozen")
    bot = None
    watcher = None
    try:
        bot = mafia_bot(server.port, "--create", "omerta", "--players", "3", "--server-bots", "2",
                        "--seed", "9", "--think-ms", "400", "--name", "Frozen", "--timeout", "120")
        watcher = Conn(server.port, "watcher")
        deadline = time.monotonic() + 20
        table = None
        while table is None and time.monotonic() < deadline:
            tables = watcher.request("list_tables")["tables"]
            table = next((t for t in tables if t["status"] == "playing"), None)
            if table is None:
                time.sleep(0.05)
        if table is None:
            raise RuntimeError("the match did not start")
        watcher.request("join", table=table["id"], spectate=True)
        seat = next(s["seat"] for s in table["seats"] if not s["bot"])
        steps = 0
        deadline = time.monotonic() + 20
        while steps < 10 and time.monotonic() < deadline:  # mid-match
            for msg in watcher.poll(0.2):
                if msg.get("type") == "update":
                    steps = msg["step"]
        os.kill(bot.pid, signal.SIGSTOP)
        frozen_at = time.monotonic()
        detected = None
        while detected is None and time.monotonic() - frozen_at < 30:
            for msg in watcher.poll(0.05):
                if msg.get("type") == "table" and msg["table"]["seats"][seat].get("away"):
                    detected = time.monotonic() - frozen_at
        say(f"frozen: mafia-bot SIGSTOPped at step {steps}; its seat marked away after "
            + (f"{detected:.2f} s" if detected is not None else "more than 30 s (never)"))
        os.kill(bot.pid, signal.SIGCONT)
        return {"frozen_detect_s": round(detected, 2) if detected is not None else None}
    finally:
        if bot is not None:
            try:
                os.kill(bot.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
            bot.kill()
            bot.wait(10)
        if watcher is not None:
            watcher.close()
        server.stop()


def slow_readers(ctx: dict[str, Any]) -> dict[str, Any]:
    """50 spectators that never read, watching bot matches until dropped."""
    n = 50
    server = ServerProc(ctx["workdir"], "slow")
    host = Conn(server.port, "host")
    sloths: list[socket.socket] = []
    try:
        def bot_table(seed: int) -> int:
            tid = host.request("create_table", game="omerta", seats=4,
                               options={"seed": seed, "bot_think_ms": 0})["table"]["id"]
            return tid

        def fill(tid: int) -> None:
            for _ in range(4):
                host.request("add_bot", table=tid)

        warm = bot_table(1)  # warm up: one whole match, nobody watching
        fill(warm)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            tables = {t["id"]: t for t in host.request("list_tables")["tables"]}
            if warm not in tables or tables[warm]["status"] == "over":
                break
            time.sleep(0.2)
        time.sleep(0.5)
        before = server.rss_kb()
        say(f"slow readers: server RSS before {before / 1024:.1f} MB")
        for i in range(n):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
            s.sendall(json.dumps({"type": "hello", "seq": 1, "name": f"sloth {i}"}).encode() + b"\n")
            sloths.append(s)
        peak = before
        rounds = 0
        started = time.monotonic()
        limit = 60 if ctx["quick"] else 120
        watched = 0
        while time.monotonic() - started < limit and rounds < 200:
            rounds += 1
            tid = bot_table(100 + rounds)
            for k, s in enumerate(sloths):  # they write (join) but never read
                try:
                    s.sendall(json.dumps({"type": "join", "seq": 2 + rounds, "table": tid,
                                          "spectate": True}).encode() + b"\n")
                except OSError:
                    pass
            time.sleep(0.2)
            summary = host.request("list_tables")["tables"]
            watched = next((t["spectators"] for t in summary if t["id"] == tid), 0)
            fill(tid)
            for _ in range(10):
                time.sleep(0.1)
                peak = max(peak, server.rss_kb())
            if watched == 0 and rounds > 1:
                break
        # every sloth dropped: the table's spectator count is 0 and joins find no one
        time.sleep(1.0)
        dropped = 0
        for s in sloths:
            try:
                s.setblocking(False)
                while s.recv(1 << 20):
                    pass
                dropped += 1  # EOF: closed by the server
            except BlockingIOError:
                pass  # still open
            except OSError:
                dropped += 1  # reset: aborted by the server
        for _ in range(20):
            time.sleep(0.1)
        after = server.rss_kb()
        ratio = after / before
        say(f"slow readers: {n} never-reading spectators over {rounds} tables; {dropped} dropped by the "
            f"server; RSS before {before / 1024:.1f} MB, peak {peak / 1024:.1f} MB, after "
            f"{after / 1024:.1f} MB (ratio {ratio:.3f})")
        return {"slow_readers_dropped": dropped, "rss_after_slow_readers_ratio": round(ratio, 3)}
    finally:
        for s in sloths:
            s.close()
        host.close()
        server.stop()


def liveness(ctx: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in ctx.get("parts") or (flood, frozen, slow_readers):
        t0 = time.monotonic()
        out.update(part(ctx))
        say(f"  ({part.__name__}: {time.monotonic() - t0:.1f} s)")
    return out


#: name -> section; each returns the JSON keys it measured.
SECTIONS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "liveness": liveness,
}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer and shorter runs (under two minutes)")
    p.add_argument("--only", nargs="*", choices=sorted(SECTIONS), help="run only these sections")
    args = p.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="mafia-faults-") as tmp:
        ctx = {"quick": args.quick, "workdir": Path(tmp)}
        for name in args.only or list(SECTIONS):
            t0 = time.monotonic()
            say(f"== {name}")
            results.update(SECTIONS[name](ctx))
            say(f"== {name}: {time.monotonic() - t0:.1f} s")
    print(json.dumps(results), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
