"""Fault injection against a real ``mafia-server``: nothing of a match may be lost,
whatever fails (disk, process, connections). Loopback only; every loop is bounded in
count and in time.

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

* ``kills``: ``mafia-server`` (own data directory, generous claim bounds, fast bots:
  :data:`KILL_CONFIG`) and ``mafia-bot --create omerta --players 4 --seed S`` (and
  Family Business, 6 players). One undisturbed run per seed gives the reference result;
  then the server is SIGKILLed at each named instant (log created -- a wrapper that kills
  itself as the log appears --, first action, a window open, a claim pending -- a window
  open with a pass already logged in it --, ``over`` on disk and not ``closed``) and at
  random step counts (20, 3 with ``--quick``) read from the log's growth, restarted on
  the same port and data directory, and the bots come back by themselves. One line per
  kill; ``kills``, ``kills_same`` (result equal to the undisturbed one), ``results_lost``
  (the bots exited without a result), ``kills_all_seats`` (every seat came back to the
  restarted server, so every seat was sent ``match_over``), ``kills_frozen``. The files of
  a kill whose result differs are kept in ``/tmp/mafia-faults-evidence-kill-N``.
* ``storage``: a real match's log damaged while the server is down (torn tail,
  duplicated last record, garbled middle line, torn header), then the server restarted:
  what was restored, what the players were told, whether it finished; a read-only data
  directory at start (a read-only tmpfs when root); the disk full mid-match (a 2 MB tmpfs
  filled up when root, else ``OSError`` from ``fsync`` in-process): the table pauses,
  says why, and finishes once space returns. ``storage_cases``, ``storage_frozen`` (a
  match with neither a result nor a message within 120 s), ``storage_restored_steps``,
  ``readonly_dir_clear``, ``disk_full_paused``, ``disk_full_finished``, ``disk_full_same``.

* ``kills`` also kills the server as a match starts, in all four games (:data:`START_GAMES`;
  10 per game, 3 with ``--quick``): as its log is written, right after the last
  ``join`` (0-20 ms after; that seat's ``joined`` is lost, the bot asks again with its
  key), and right after the join before it (the table still waits: it comes back from
  its record, the seated bots reconnect with their tokens), and restarts with every
  client frozen for 6 s (the restored table must wait for them): ``kills_at_start``,
  ``kills_at_start_same``, ``restart_results_changed`` (a result that came back
  different).
* ``drops``: one seat's connection cut through a relay (Mafiosi and Famiglia, no reaction
  windows), the bot back within about a second: ``drops``, ``drop_results_changed``.
* ``setup``: the disk full as a table starts (root: a filled tmpfs): the table pauses
  before the deal and starts when space returns: ``unlogged_tables`` (a result without
  its log, or a deal sent without one), ``disk_full_at_start_paused``; ``mafia-bot``
  started before its server: ``setup_retries_ok``.

A section is a function ``(ctx) -> dict`` of JSON keys, listed in :data:`SECTIONS`.
Every process started is killed on exit (and every tmpfs unmounted). The run exits 1
when a section measured nothing (:data:`MEASURED`).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import tools.sandbox  # noqa: F401,E402  (a private data dir: never the player's replays)
from tools.relay import CutRelay  # noqa: E402
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def readable(fileobj: Any, timeout: float) -> bool:
    """``fileobj`` has something to read within ``timeout`` s (epoll: select() fails on
    descriptors past 1024, and the flood holds a thousand sockets)."""
    with selectors.DefaultSelector() as sel:
        sel.register(fileobj, selectors.EVENT_READ)
        return bool(sel.select(max(0.0, timeout)))


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
        if not readable(self.sock, timeout):
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
            # epoll, not select(): a thousand sockets take file descriptors past select's 1024
            with selectors.DefaultSelector() as sel:
                for s in pending:
                    sel.register(s, selectors.EVENT_WRITE)
                writable = [key.fileobj for key, _ in sel.select(1.0)]
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


# -- kills and storage: a real mafia-server restarted on its port and data directory ----
#: Generous claim bounds (a busy machine must not turn a late claim into another match)
#: and fast bots, as in tests/test_family_business_tcp.py: the seed alone decides.
KILL_CONFIG = ("server:\n  reconnect_grace_s: 40\n"
               "timing:\n  rtt_bound_floor_ms: 1000\n  rtt_bound_cap_ms: 1000\n"
               "bots:\n  think_ms: 0\n  reaction_median_ms: 120\n  reaction_floor_ms: 100\n"
               "  reaction_cap_ms: 200\n")
MATCH_S = 120.0  # a match (with a restart in it) that has not ended by then is frozen

#: every process and mount started here, cleaned up whatever happens
_LIVE: list[subprocess.Popen] = []
_MOUNTS: list[Path] = []

#: ``mafia-server`` that kills itself (SIGKILL) as the match log appears: the first
#: ``match_started`` and every later push are swallowed (tests/test_join_drop.py).
DYING_AS_THE_LOG_APPEARS = """
import os, signal, sys
from twisted.internet import reactor
from server import protocol as sp
original = sp.ServerProtocol.push
dying = []
def push(self, msg_type, **fields):
    if msg_type == "match_started" and not dying:
        dying.append(reactor.callLater(0.3, os.kill, os.getpid(), signal.SIGKILL))
    if dying:
        return
    return original(self, msg_type, **fields)
sp.ServerProtocol.push = push
from server.main import main
main(sys.argv[1:])
"""


#: ``mafia-server`` that SIGKILLs itself as a match starts (``MAFIA_DIE``): ``log written``
#: -- the instant its log exists (created whole), before anything else of the start;
#: ``after last join`` -- ``MAFIA_DIE_DELAY_MS`` after the last seat's join started the
#: match (0: before that seat's ``joined`` can leave, which waits for the log's sync);
#: ``before last join`` -- ``MAFIA_DIE_DELAY_MS`` after the join that leaves one seat
#: free (the table is still waiting: it must come back from its record on disk).
DYING_AT_START = """
import os, signal, sys
from twisted.internet import reactor
from server import persist
from server.match import table
mode, delay = os.environ["MAFIA_DIE"], float(os.environ.get("MAFIA_DIE_DELAY_MS", "0")) / 1000.0
def die():
    os.kill(os.getpid(), signal.SIGKILL)
if mode == "log written":
    create = persist.MatchFile.create.__func__
    def dying_create(cls, *args, **kwargs):
        made = create(cls, *args, **kwargs)
        die()
        return made
    persist.MatchFile.create = classmethod(dying_create)
elif mode == "before last join":
    from server.match import seats
    join = seats.SeatRoster.join
    def dying_join(self, *args, **kwargs):
        out = join(self, *args, **kwargs)
        t = self.table
        if t.status == "waiting" and sum(1 for s in t.seats if s.free) == 1:
            reactor.callLater(delay, die)
        return out
    seats.SeatRoster.join = dying_join
else:
    start = table.Table.start_match
    def start_match(self):
        start(self)
        reactor.callLater(delay, die)
    table.Table.start_match = start_match
from server.main import main
main(sys.argv[1:])
"""


def cleanup() -> None:
    for proc in _LIVE:
        if proc.poll() is None:
            try:
                os.kill(proc.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
            proc.kill()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
    _LIVE.clear()
    for mount in _MOUNTS:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)
    _MOUNTS.clear()


def tracked(proc: subprocess.Popen) -> subprocess.Popen:
    _LIVE.append(proc)
    return proc


class Restartable:
    """``mafia-server`` on a fixed port and data directory, started again after a kill.
    Its stderr goes to ``<workdir>/<name>-<n>.log`` (n counts the starts)."""

    def __init__(self, workdir: Path, name: str, data: Path, config: str = KILL_CONFIG):
        self.workdir, self.name, self.data = workdir, name, data
        self.port = free_port()
        self.config = workdir / f"{name}.yaml"
        self.config.write_text(config)
        self.starts = 0
        self.proc: subprocess.Popen | None = None
        self.log = workdir / f"{name}-0.log"

    def start(self, dying: bool = False, timeout: float = 20.0, die_at: str | None = None,
              die_delay_ms: float = 0.0) -> None:
        """Start ``mafia-server``; ``dying``: it kills itself as the log appears
        (:data:`DYING_AS_THE_LOG_APPEARS`); ``die_at``: as the match starts
        (:data:`DYING_AT_START`, ``die_delay_ms`` after the last join)."""
        self.starts += 1
        self.log = self.workdir / f"{self.name}-{self.starts}.log"
        env = ENV
        if die_at is not None:
            head = [sys.executable, "-c", DYING_AT_START]
            env = {**ENV, "MAFIA_DIE": die_at, "MAFIA_DIE_DELAY_MS": str(die_delay_ms)}
        elif dying:
            head = [sys.executable, "-c", DYING_AS_THE_LOG_APPEARS]
        else:
            head = [sys.executable, "-m", "server.main"]
        self.proc = tracked(subprocess.Popen(
            head + ["--host", "127.0.0.1", "--port", str(self.port), "--no-discovery",
                    "--config", str(self.config), "--data-dir", str(self.data)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=open(self.log, "wb")))
        line = self.proc.stdout.readline().decode() if readable(self.proc.stdout, timeout) else ""
        if "listening on" not in line:
            self.proc.kill()
            raise RuntimeError(f"mafia-server did not start: {line!r} {self.log.read_text()[-2000:]}")

    def kill9(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def bots(self, game: str, players: int, seed: int, name: str = "Bot") -> subprocess.Popen:
        return tracked(mafia_bot(self.port, "--config", str(self.config), "--create", game, "--players",
                                 str(players), "--seed", str(seed), "--name", name,
                                 "--timeout", str(int(MATCH_S))))


def bot_outcome(proc: subprocess.Popen, timeout: float) -> tuple[dict[str, Any] | None, str, bool]:
    """(result or None, stderr, frozen): frozen when the bots had no result nor gave up
    within ``timeout`` s (they are killed then)."""
    frozen = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        frozen = True
        proc.kill()
        out, err = proc.communicate()
    lines = out.decode().strip().splitlines()
    result = json.loads(lines[-1]) if proc.returncode == 0 and lines else None
    return result, err.decode(errors="replace"), frozen


class LogWatch:
    """What a match log holds so far, replayed with the engine."""

    def __init__(self, path: Path, game: str):
        from shared.games import get_game

        self.path = path
        self.rules = get_game(game)

    def read(self) -> bytes:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return b""

    def actions(self) -> int:
        return self.read().count(b'"kind":"action"')

    def state(self) -> dict[str, Any]:
        """``exists``, ``actions``, ``over``, ``closed``, ``window`` (open after the last
        action), ``in_window`` (actions applied since it opened, while still open)."""
        from shared import matchlog

        data = self.read()
        out = {"exists": bool(data), "actions": data.count(b'"kind":"action"'),
               "over": b'"kind":"over"' in data, "closed": b'"kind":"closed"' in data,
               "window": False, "in_window": 0}
        try:
            log = matchlog.parse(data)
            for state, _, action, _ in matchlog.replay(self.rules, log):
                if self.rules.reaction_window(state) is None:
                    out["window"], out["in_window"] = False, 0
                elif out["window"]:
                    out["in_window"] += 1
                else:
                    out["window"] = True
        except (matchlog.LogError, ValueError):
            pass
        return out


def reference(ctx: dict[str, Any], game: str, players: int, seed: int) -> tuple[dict[str, Any], int]:
    """The undisturbed result of a seed (and its number of actions), cached per run."""
    key = (game, players, seed)
    refs = ctx.setdefault("references", {})
    if key not in refs:
        server = Restartable(ctx["workdir"], f"ref-{game}-{seed}", ctx["workdir"] / f"ref-{game}-{seed}-data")
        try:
            server.start()
            t0 = time.monotonic()
            result, err, frozen = bot_outcome(server.bots(game, players, seed), MATCH_S)
            if result is None:
                raise RuntimeError(f"the undisturbed {game} seed {seed} did not finish: {err[-1000:]}")
            steps = LogWatch(server.data / "matches" / f"table-1-{seed}.jsonl", game).actions()
            say(f"kills: undisturbed {game} seed {seed}: {steps} actions in {time.monotonic() - t0:.1f} s, "
                f"scores {result['scores']}")
            refs[key] = (result, steps)
        finally:
            server.stop()
    return refs[key]


#: Instants at which the server kills itself as a match starts (DYING_AT_START).
AT_START = ("log written", "after last join", "before last join")


def one_kill(ctx: dict[str, Any], n: int, game: str, players: int, seed: int, instant: str,
             at_step: int | None = None, delay_ms: float = 0.0, slow_s: float = 0.0) -> dict[str, Any] | None:
    """Play ``seed``, SIGKILL the server at ``instant`` (or when the log holds
    ``at_step`` actions), start it again; the bots must finish with the undisturbed
    result. None when the instant never came (the match ended first). ``delay_ms``:
    for ``after last join``, how long after it; ``slow_s``: every client is frozen
    (SIGSTOP) that long after the restart, so the restored table must wait for them."""
    clean, _ = reference(ctx, game, players, seed)
    server = Restartable(ctx["workdir"], f"kill-{n}", ctx["workdir"] / f"kill-{n}-data")
    watch = LogWatch(server.data / "matches" / f"table-1-{seed}.jsonl", game)
    bots = None
    try:
        server.start(dying=instant == "log created", die_at=instant if instant in AT_START else None,
                     die_delay_ms=delay_ms)
        bots = server.bots(game, players, seed)
        deadline = time.monotonic() + 60
        hit = False
        while time.monotonic() < deadline and bots.poll() is None and not hit:
            if instant == "log created" or instant in AT_START:
                hit = server.proc.poll() is not None  # it killed itself as the log appeared
                if not hit:
                    time.sleep(0.01)
                continue
            if instant in ("window open", "claim pending"):
                s = watch.state()
                hit = s["window"] and (instant == "window open" or s["in_window"] >= 1)
            elif instant == "over on disk":
                data = watch.read()
                hit = b'"kind":"over"' in data and b'"kind":"closed"' not in data
            elif instant == "first action":
                hit = watch.actions() >= 1
            else:
                hit = watch.actions() >= (at_step or 1)
            if hit:
                break
            time.sleep(0.002)
        if not hit:
            say(f"kill {n:2d}: {game} seed {seed}, {instant}: the instant never came; skipped")
            return None
        server.kill9()
        s = watch.state()
        where = (f"step {s['actions']}" + (", window open" if s["window"] else "")
                 + (f" ({s['in_window']} pass(es) in it)" if s["in_window"] else "")
                 + (", over on disk" if s["over"] else "") + (", closed" if s["closed"] else ""))
        time.sleep(0.2)  # the bots notice and start trying again
        if slow_s:
            os.kill(bots.pid, signal.SIGSTOP)  # every client slow to come back
        server.start()
        if slow_s:
            time.sleep(slow_s)
            os.kill(bots.pid, signal.SIGCONT)
        restored = server.text()
        result, err, frozen = bot_outcome(bots, MATCH_S)
        same = result == clean
        # seats the restarted server saw come back (each is sent match_over: at the end of
        # the match, or at once when it was over already); mafia-bot itself exits with
        # the first seat's result, so its own "back at step" lines may be fewer
        back = len(set(re.findall(r"is back at seat (\d+)", server.text())))
        back_bots = err.count("back at step")
        closed = False
        deadline = time.monotonic() + 5
        while result is not None and time.monotonic() < deadline and not closed:
            closed = b'"kind":"closed"' in watch.read()
            time.sleep(0.05)
        gave_up = [ln for ln in err.splitlines() if "giving up" in ln or "no longer holds" in ln
                   or "no result" in ln or "table is gone" in ln]
        # killed before the last join: that seat joins the restored waiting table anew
        all_seats = result is not None and back >= players - (instant == "before last join")
        m = re.search(r"restored at step (\d+)|(waiting) \w+ table restored", server.text() or restored)
        detail = (f" (step {at_step})" if at_step else "") + (f" +{delay_ms:.0f} ms" if delay_ms else "") \
            + (f", clients back after {slow_s:.0f} s" if slow_s else "")
        say(f"kill {n:2d}: {game} seed {seed}, {instant}{detail}: killed at "
            f"{where}; restored {('at step ' + m.group(1)) if m and m.group(1) else ('waiting' if m else '?')}; "
            f"result {'SAME' if same else ('DIFFERENT ' + str(result['scores']) if result else 'LOST')}; "
            f"{back}/{players} seats back at the server ({back_bots} before mafia-bot exited); "
            f"log closed {'yes' if closed else 'NO (a seat still held)'}"
            + ("; FROZEN" if frozen else "") + (f"; gave up: {gave_up[0]}" if gave_up else ""))
        if not same or not all_seats:
            keep = ctx["workdir"].parent / f"mafia-faults-evidence-kill-{n}"
            keep.mkdir(exist_ok=True)
            (keep / "bots.err").write_text(err)
            for f in ctx["workdir"].glob(f"kill-{n}-*.log"):
                (keep / f.name).write_bytes(f.read_bytes())
            if watch.path.exists():
                (keep / watch.path.name).write_bytes(watch.read())
            say(f"         evidence kept in {keep}")
        return {"same": same, "lost": result is None, "all_seats": all_seats, "frozen": frozen,
                "changed": result is not None and not same}
    finally:
        if bots is not None and bots.poll() is None:
            try:
                os.kill(bots.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
            bots.kill()
            bots.communicate()
        server.stop()


#: (game, players, seed) of the kills as a match starts and the slow restarts: all four games.
START_GAMES = [("omerta", 4, 11), ("famiglia", 2, 5), ("family_business", 3, 4), ("mafiosi", 4, 2)]


def kills(ctx: dict[str, Any]) -> dict[str, Any]:
    import random

    rng = random.Random(16)
    omerta_seeds = [11, 23, 37, 5]
    named = ["log created", "first action", "window open", "claim pending", "over on disk"]
    plan: list[tuple[str, int, int, str, int | None, float, float]] = []
    # kills as the match starts, every game: the log just written, the last join just made
    per_game = 3 if ctx["quick"] else 10
    for game, players, seed in START_GAMES:
        for k in range(per_game):
            delay = (0.0, 0.0, 5.0, 10.0, 20.0)[(k // 3) % 5]
            plan.append((game, players, seed, AT_START[k % 3], None, delay if k % 3 == 1 else 0.0, 0.0))
    # a restart with every client slow to come back: the restored table must wait for them
    for game, players, seed in (START_GAMES[:1] if ctx["quick"] else START_GAMES):
        _, steps = reference(ctx, game, players, seed)
        plan.append((game, players, seed, "random", max(1, steps // 2), 0.0, 6.0))
    for instant in named:
        plan.append(("omerta", 4, 11, instant, None, 0.0, 0.0))
    if not ctx["quick"]:
        plan.append(("family_business", 6, 4, "window open", None, 0.0, 0.0))
        plan.append(("family_business", 6, 4, "claim pending", None, 0.0, 0.0))
    n_random = 3 if ctx["quick"] else 20
    for i in range(n_random):
        if ctx["quick"]:  # one seed: one undisturbed run to compare with
            game, players, seed = "omerta", 4, 11
        else:
            game, players, seed = (("family_business", 6, 4) if i % 5 == 4
                                   else ("omerta", 4, omerta_seeds[i % len(omerta_seeds)]))
        _, steps = reference(ctx, game, players, seed)
        plan.append((game, players, seed, "random", rng.randrange(1, steps), 0.0, 0.0))
    done = same = lost = all_seats = frozen = changed = at_start = at_start_same = 0
    started = time.monotonic()
    budget = 420 if ctx["quick"] else 1800
    for n, (game, players, seed, instant, at, delay_ms, slow_s) in enumerate(plan, 1):
        if time.monotonic() - started > budget:
            say(f"kills: time budget ({budget} s) spent; {len(plan) - n + 1} kill(s) not run")
            break
        out = None
        for _ in range(3):  # a short instant (over on disk, not yet closed) may be missed
            out = one_kill(ctx, n, game, players, seed, instant, at, delay_ms, slow_s)
            if out is not None:
                break
        if out is None:
            continue
        done += 1
        same += out["same"]
        lost += out["lost"]
        all_seats += out["all_seats"]
        frozen += out["frozen"]
        changed += out["changed"]
        if instant in AT_START:
            at_start += 1
            at_start_same += out["same"]
    say(f"kills: {done} kills ({at_start} as the match starts, {at_start_same} of them the same), "
        f"{same} with the undisturbed result, {lost} results lost, {changed} results changed, "
        f"{all_seats} with every seat back and the table closed, {frozen} frozen")
    return {"kills": done, "kills_same": same, "results_lost": lost, "kills_all_seats": all_seats,
            "kills_frozen": frozen, "kills_at_start": at_start, "kills_at_start_same": at_start_same,
            "restart_results_changed": changed}


# -- storage -----------------------------------------------------------------------------
def _torn_tail(path: Path) -> str:
    data = path.read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[: last + (len(data) - last) // 2])
    return f"last line cut at half ({(len(data) - last) // 2} of {len(data) - last} bytes kept)"


def _duplicated_last(path: Path) -> str:
    data = path.read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data + data[last:])
    return "last record written twice"


def _garbled_middle(path: Path) -> str:
    lines = path.read_bytes().split(b"\n")
    i = len(lines) // 2
    raw = bytearray(lines[i])
    for k in range(5, min(len(raw), 25), 3):
        raw[k] = ord("#")
    lines[i] = bytes(raw)
    path.write_bytes(b"\n".join(lines))
    return f"line {i + 1} of {len(lines) - 1} garbled"


def _torn_header(path: Path) -> str:
    data = path.read_bytes()
    end = data.find(b"\n")
    path.write_bytes(data[: end // 2])
    return f"only the first {end // 2} of the header's {end} bytes"


def told(err: str) -> str:
    """What the bots said on stderr, one line per kind, without the seat prefixes."""
    seen: dict[str, int] = {}
    for ln in err.splitlines():
        text = re.sub(r"^mafia-bot: (seat \d+|Bot \d+): ", "", ln)
        text = re.sub(r"\d+ missed events", "n missed events", text)
        seen[text] = seen.get(text, 0) + 1
    return "; ".join(f"{k}" + (f" (x{v})" if v > 1 else "") for k, v in seen.items()) or "nothing"


def damaged_log_case(ctx: dict[str, Any], name: str, damage: Callable[[Path], str]) -> dict[str, Any]:
    game, players, seed = "omerta", 4, 11
    clean, steps = reference(ctx, game, players, seed)
    server = Restartable(ctx["workdir"], f"storage-{name.replace(' ', '-')}",
                         ctx["workdir"] / f"storage-{name.replace(' ', '-')}-data")
    watch = LogWatch(server.data / "matches" / f"table-1-{seed}.jsonl", game)
    bots = None
    try:
        server.start()
        bots = server.bots(game, players, seed)
        deadline = time.monotonic() + 60
        while watch.actions() < steps // 2 and time.monotonic() < deadline and bots.poll() is None:
            time.sleep(0.002)
        server.kill9()  # stopped first ...
        before = watch.actions()
        what = damage(watch.path)  # ... the file damaged ...
        server.start()  # ... and started again: the bots reconnect by themselves
        result, err, frozen = bot_outcome(bots, MATCH_S)
        log = server.text()
        m = re.search(r"restored at step (\d+)", log)
        warnings = [re.sub(r"^.*?match log \S+(:| is) ", "", ln) for ln in log.splitlines()
                    if "match log" in ln and ("dropped" in ln or "unusable" in ln or "damaged" in ln)]
        rewound = re.findall(r"had seen step (\d+), the log restored step (\d+)", log)
        outcome = ("same result" if result == clean else
                   f"a different result {result['scores']}" if result else "no result")
        say(f"storage: {name}: {what}, killed at step {before}; restored: "
            f"{'step ' + m.group(1) if m else 'NOTHING'}"
            f"{' (' + '; '.join(warnings) + ')' if warnings else ''}"
            f"{f'; {len(rewound)} seat(s) told rewound_from {rewound[0][0]}' if rewound else ''}; "
            f"players told: {told(err)}; {outcome}{'; FROZEN' if frozen else ''}")
        return {"frozen": frozen, "restored": int(m.group(1)) if m else None, "result": result is not None,
                "same": result == clean}
    finally:
        if bots is not None and bots.poll() is None:
            bots.kill()
            bots.communicate()
        server.stop()


def _mount_tmpfs(where: Path, options: str) -> bool:
    """A tmpfs at ``where`` (root only); False when mounting is not possible here."""
    where.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        return False
    _MOUNTS.append(where)
    return True


def _umount(where: Path) -> None:
    subprocess.run(["umount", "-l", str(where)], capture_output=True)
    if where in _MOUNTS:
        _MOUNTS.remove(where)


def read_only_case(ctx: dict[str, Any]) -> dict[str, Any]:
    """``mafia-server`` on a data directory it cannot write: it must stop and say what to do."""
    data = ctx["workdir"] / "storage-readonly-data"
    if _mount_tmpfs(data, "size=64k,ro"):
        how = "a read-only tmpfs"
    elif os.geteuid() != 0:
        data.mkdir(parents=True, exist_ok=True)
        data.chmod(0o555)
        how = "a folder without write permission"
    else:
        blocker = ctx["workdir"] / "storage-readonly-file"
        blocker.write_text("a file, not a folder")
        data = blocker / "data"
        how = "a path under a regular file"
    cfg = ctx["workdir"] / "storage-readonly.yaml"
    cfg.write_text(KILL_CONFIG)
    proc = tracked(subprocess.Popen(
        [sys.executable, "-m", "server.main", "--host", "127.0.0.1", "--port", str(free_port()),
         "--no-discovery", "--config", str(cfg), "--data-dir", str(data)],
        cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    try:
        out, err = proc.communicate(timeout=20)
        running = False
    except subprocess.TimeoutExpired:
        running = True
        proc.kill()
        out, err = proc.communicate()
    finally:
        _umount(data) if how == "a read-only tmpfs" else None
    lines = err.decode(errors="replace").strip().splitlines()
    message = next((ln for ln in lines if ln.startswith("mafia-server:")), lines[-1] if lines else "")
    clear = not running and proc.returncode == 2 and "--data-dir" in message
    say(f"storage: read-only data directory at start ({how}): "
        + (f"mafia-server exits with status {proc.returncode}: {message!r}" if not running else
           f"mafia-server STARTS and runs without a usable log (stdout {out.decode()[:80]!r})")
        + ("" if clear else " -- NOT CLEAR"))
    return {"frozen": False, "clear": clear}


def disk_full_case(ctx: dict[str, Any]) -> dict[str, Any]:
    """The disk fills mid-match (a small tmpfs when root, else ``OSError`` at the file layer
    in-process): the table pauses and says why, then finishes once space returns."""
    game, players, seed = "omerta", 4, 11
    clean, steps = reference(ctx, game, players, seed)
    data = ctx["workdir"] / "storage-diskfull-data"
    if not _mount_tmpfs(data, "size=2m"):
        return disk_full_in_process(ctx)
    server = Restartable(ctx["workdir"], "storage-diskfull", data)
    watch = LogWatch(data / "matches" / f"table-1-{seed}.jsonl", game)
    bots = spectator = None
    filler = data / "filler"
    try:
        server.start()
        bots = server.bots(game, players, seed)
        deadline = time.monotonic() + 60
        while watch.actions() < 10 and time.monotonic() < deadline and bots.poll() is None:
            time.sleep(0.002)
        spectator = Conn(server.port, "spectator")
        spectator.request("join", table=1, spectate=True)
        while watch.actions() < steps // 2 and time.monotonic() < deadline and bots.poll() is None:
            spectator.poll(0.002)
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)  # every byte left
        try:
            block = b"\0" * 4096
            for _ in range(100_000):  # bounded: 400 MB at most
                if os.write(fd, block) < len(block):
                    break
        except OSError:
            pass
        finally:
            os.close(fd)
        full_at = watch.actions()
        paused = None
        t0 = time.monotonic()
        while paused is None and time.monotonic() - t0 < 10:
            for msg in spectator.poll(0.05):
                if msg.get("type") == "table_paused":
                    paused = msg
        stuck = watch.actions()
        hold = 1.5 if ctx["quick"] else 3.0
        t1 = time.monotonic()
        while time.monotonic() - t1 < hold:
            spectator.poll(0.05)
        still = watch.actions()
        filler.unlink()  # space returns
        t2 = time.monotonic()
        resumed = None
        while resumed is None and time.monotonic() - t2 < 20:
            for msg in spectator.poll(0.05):
                if msg.get("type") == "table_resumed":
                    resumed = time.monotonic() - t2
        result, err, frozen = bot_outcome(bots, MATCH_S)
        finished = result is not None
        say(f"storage: disk full mid-match (2 MB tmpfs filled at step {full_at}): "
            + (f"table paused (log at step {stuck}), everyone told {paused['message']!r}; "
               if paused else "NO table_paused within 10 s; ")
            + f"log at step {stuck} then {still} after {hold:.0f} s full; space returned: "
            + (f"table_resumed after {resumed:.1f} s; " if resumed is not None else "NO table_resumed; ")
            + ("the match finishes with the " + ("same result" if result == clean else f"result {result['scores']}")
               if finished else f"NO result ({told(err)})") + ("; FROZEN" if frozen else ""))
        return {"frozen": frozen, "finished": finished, "same": result == clean, "paused": paused is not None}
    finally:
        if spectator is not None:
            spectator.close()
        if bots is not None and bots.poll() is None:
            bots.kill()
            bots.communicate()
        server.stop()
        _umount(data)


def disk_full_in_process(ctx: dict[str, Any]) -> dict[str, Any]:
    """Without root: ``os.fsync`` of the match log fails with ENOSPC in an in-process lobby
    (as tests/test_persist_faults.py does), then works again."""
    import errno

    sys.path.insert(0, str(ROOT))
    from server import persist
    from tests.test_persist import lobby_at, players_table, run

    clean_lobby = lobby_at(ctx["workdir"] / "inproc-clean")
    clean, _ = players_table(clean_lobby, seed=9, rounds=1)
    run(clean_lobby, clean)
    real = persist.os.fsync
    full = [False]

    def fsync(fd: int) -> None:
        if full[0]:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    persist.os.fsync = fsync
    try:
        lobby = lobby_at(ctx["workdir"] / "inproc-full")
        table, players = players_table(lobby, seed=9, rounds=1)
        run(lobby, table, until=lambda: len(table.log) >= 15)
        full[0] = True
        run(lobby, table, until=lambda: table.paused, limit_s=30)
        paused = table.paused
        message = players[0].of("table_paused")[-1]["message"] if players[0].of("table_paused") else None
        for _ in range(100):
            lobby.clock.advance(0.1)
        full[0] = False
        run(lobby, table, limit_s=300)
    finally:
        persist.os.fsync = real
    finished = table.status == "over"
    same = "same" if table.result == clean.result else "a DIFFERENT"
    say(f"storage: disk full mid-match (in-process, ENOSPC from fsync): paused {paused}, told {message!r}; "
        f"{f'finishes with the {same} result' if finished else 'NOT FINISHED'}")
    return {"frozen": not finished, "finished": finished, "same": table.result == clean.result, "paused": paused}


def storage(ctx: dict[str, Any]) -> dict[str, Any]:
    cases = 0
    frozen = 0
    restored: dict[str, Any] = {}
    for name, damage in (("torn tail", _torn_tail), ("duplicated last record", _duplicated_last),
                         ("garbled middle line", _garbled_middle), ("torn header", _torn_header)):
        t0 = time.monotonic()
        out = damaged_log_case(ctx, name, damage)
        cases += 1
        frozen += out["frozen"]
        restored[name.replace(" ", "_")] = out["restored"]
        say(f"  ({name}: {time.monotonic() - t0:.1f} s)")
    ro = read_only_case(ctx)
    cases += 1
    full = disk_full_case(ctx)
    cases += 1
    frozen += full["frozen"]
    return {"storage_cases": cases, "storage_frozen": frozen, "storage_restored_steps": restored,
            "readonly_dir_clear": ro["clear"], "disk_full_paused": full["paused"],
            "disk_full_finished": full["finished"], "disk_full_same": full["same"]}


# -- drops: one seat's connection cut for a moment, then back -------------------------------
def one_drop(ctx: dict[str, Any], n: int, game: str, players: int, seed: int, seat: int,
             at_step: int) -> dict[str, Any]:
    """Play ``seed`` through a relay; when the log holds ``at_step`` actions, cut the
    connection of seat ``seat`` (mafia-bot opens them in seat order) once; the bot comes
    back by itself within moments. The result must be the undisturbed one."""
    clean, _ = reference(ctx, game, players, seed)
    server = Restartable(ctx["workdir"], f"drop-{n}", ctx["workdir"] / f"drop-{n}-data")
    watch = LogWatch(server.data / "matches" / f"table-1-{seed}.jsonl", game)
    proxy = bots = None
    try:
        server.start()
        proxy = CutRelay(server.port)
        bots = tracked(mafia_bot(proxy.port, "--config", str(server.config), "--create", game, "--players",
                                 str(players), "--seed", str(seed), "--timeout", str(int(MATCH_S))))
        deadline = time.monotonic() + 60
        while watch.actions() < at_step and time.monotonic() < deadline and bots.poll() is None:
            time.sleep(0.002)
        proxy.cut_one(seat)
        result, err, frozen = bot_outcome(bots, MATCH_S)
        back = re.search(r"is back at seat (\d+)", server.text())
        same = result == clean
        say(f"drop {n:2d}: {game} seed {seed}: seat {seat}'s connection cut at step {at_step}; "
            f"{'back' if back else 'NOT back'}; result "
            f"{'SAME' if same else ('DIFFERENT ' + str(result['scores']) if result else 'LOST')}"
            + ("; FROZEN" if frozen else ""))
        return {"same": same, "lost": result is None, "changed": result is not None and not same}
    finally:
        if bots is not None and bots.poll() is None:
            bots.kill()
            bots.communicate()
        if proxy is not None:
            proxy.close()
        server.stop()


def drops(ctx: dict[str, Any]) -> dict[str, Any]:
    """Short drops (the bot is back within about a second, well under 3 s) of one seat
    in games without reaction windows, where only a stand-in could change the result."""
    plan = [("mafiosi", 4, 2), ("famiglia", 2, 5)]
    runs = 2 if ctx["quick"] else 6
    done = changed = lost = 0
    n = 0
    for game, players, seed in plan:
        _, steps = reference(ctx, game, players, seed)
        for k in range(runs):
            n += 1
            out = one_drop(ctx, n, game, players, seed, seat=k % players,
                           at_step=max(1, steps * (k + 1) // (runs + 1)))
            done += 1
            changed += out["changed"]
            lost += out["lost"]
    say(f"drops: {done} short drops of one seat, {changed} results changed, {lost} lost")
    return {"drops": done, "drop_results_changed": changed, "drop_results_lost": lost}


# -- setup: a disk full before the table starts, clients before the server -------------------
def disk_full_at_start(ctx: dict[str, Any]) -> dict[str, Any]:
    """The disk is full as a table starts (a 2 MB tmpfs filled after the server started,
    when root): the table must pause before the deal (``table_paused``), start once space
    returns, and end with its log holding the result. ``unlogged_tables``: tables whose
    result exists without its log (or whose deal went out with no log)."""
    game, players, seed = "mafiosi", 4, 2
    clean, _ = reference(ctx, game, players, seed)
    data = ctx["workdir"] / "setup-diskfull-data"
    if not _mount_tmpfs(data, "size=2m"):
        say("setup: disk full before a table starts: needs root (a tmpfs); see tests/test_join_key.py")
        return {"unlogged_tables": None}
    server = Restartable(ctx["workdir"], "setup-diskfull", data)
    filler = data / "filler"
    spectator = bots = None
    try:
        server.start()
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            for _ in range(100_000):
                if os.write(fd, b"\0" * 4096) < 4096:
                    break
        except OSError:
            pass
        finally:
            os.close(fd)
        bots = server.bots(game, players, seed)
        spectator = Conn(server.port, "spectator")
        deadline = time.monotonic() + 20
        table = None
        while table is None and time.monotonic() < deadline:
            table = next((t for t in spectator.request("list_tables")["tables"] if t["status"] == "playing"), None)
            time.sleep(0.05)
        paused = dealt_unlogged = False
        if table is not None:
            spectator.request("join", table=table["id"], spectate=True)
            t0 = time.monotonic()
            while time.monotonic() - t0 < 2.0:
                for msg in spectator.poll(0.05):
                    paused = paused or msg.get("type") == "table_paused"
                    if msg.get("type") == "update" and not list((data / "matches").glob("*.jsonl")):
                        dealt_unlogged = True
        logs_while_full = list((data / "matches").glob("*.jsonl")) if (data / "matches").is_dir() else []
        paused = paused or "the table pauses" in server.text()  # before the spectator came
        filler.unlink()
        result, err, frozen = bot_outcome(bots, MATCH_S)
        logs = list((data / "matches").glob("*.jsonl"))
        logged = any(b'"kind":"over"' in p.read_bytes() for p in logs)
        unlogged = int(result is not None and not logged) + int(dealt_unlogged)
        say(f"setup: disk full as a {game} table starts: "
            + ("table_paused before the deal" if paused else "NO table_paused")
            + f", {len(logs_while_full)} log(s) while full; space returned: "
            + (f"result {'SAME' if result == clean else result['scores']}" if result else f"NO result ({told(err)})")
            + f", log with the result: {'yes' if logged else 'NO'}" + ("; FROZEN" if frozen else ""))
        return {"unlogged_tables": unlogged, "disk_full_at_start_paused": paused,
                "disk_full_at_start_same": result == clean}
    finally:
        if spectator is not None:
            spectator.close()
        if bots is not None and bots.poll() is None:
            bots.kill()
            bots.communicate()
        server.stop()
        _umount(data)


def clients_first(ctx: dict[str, Any]) -> dict[str, Any]:
    """``mafia-bot`` started 1.5 s before its server: it must keep trying and play."""
    game, players, seed = "famiglia", 2, 5
    clean, _ = reference(ctx, game, players, seed)
    server = Restartable(ctx["workdir"], "setup-early", ctx["workdir"] / "setup-early-data")
    bots = server.bots(game, players, seed)
    try:
        time.sleep(1.5)
        server.start()
        result, err, frozen = bot_outcome(bots, MATCH_S)
        ok = result == clean
        say(f"setup: mafia-bot before its server: {'plays, same result' if ok else 'FAILED: ' + told(err)}")
        return {"setup_retries_ok": ok}
    finally:
        if bots.poll() is None:
            bots.kill()
            bots.communicate()
        server.stop()


def setup(ctx: dict[str, Any]) -> dict[str, Any]:
    out = disk_full_at_start(ctx)
    out.update(clients_first(ctx))
    return out


#: name -> section; each returns the JSON keys it measured.
SECTIONS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "liveness": liveness,
    "kills": kills,
    "drops": drops,
    "setup": setup,
    "storage": storage,
}

#: Keys that must be above 0 when their section ran: a section that measured nothing fails.
MEASURED = {"kills": "kills", "drops": "drops", "storage": "storage_cases"}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer and shorter runs (under two minutes)")
    p.add_argument("--only", nargs="*", choices=sorted(SECTIONS), help="run only these sections")
    args = p.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
    results: dict[str, Any] = {}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the finally clauses still run
    with tempfile.TemporaryDirectory(prefix="mafia-faults-") as tmp:
        ctx = {"quick": args.quick, "workdir": Path(tmp)}
        try:
            for name in args.only or list(SECTIONS):
                t0 = time.monotonic()
                say(f"== {name}")
                results.update(SECTIONS[name](ctx))
                say(f"== {name}: {time.monotonic() - t0:.1f} s")
        finally:
            cleanup()
    print(json.dumps(results), flush=True)
    empty = [name for name, key in MEASURED.items() if name in (args.only or SECTIONS) and not results.get(key)]
    if not results or empty:
        print(f"faults: nothing measured by {', '.join(empty) or 'any section'}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
