"""Reconnection storm benchmark: when many clients come back at once, the server must do
work only for whom it matters. A script, not a test.

    .venv/bin/python benchmarks/reconnect_storm.py            # 200 tables (a few minutes)
    .venv/bin/python benchmarks/reconnect_storm.py --quick    # 30 tables, < 1 min
    .venv/bin/python benchmarks/reconnect_storm.py --root DIR # the server of another checkout

A real ``mafia-server`` runs in its own process (own temporary data directory on the real
disk, loopback only, no discovery, no phone page). This process is the load generator:
N Omerta tables of 4 TCP seats each (plain JSON-lines connections that answer pings) play
random legal moves until every table has played ``--actions`` actions (default 60), then
stop. Then every connection is dropped at once (``abortConnection``: the server sees them
all go in the same instant) and, in two variants, each with its own server:

* ``reconnect`` -- tables with ``bot_takeover: "never"``: each seat reconnects after
  0.5 s (a client's first retry, docs/PROTOCOL.md: new connection, ``hello``,
  ``reconnect {token, step}``);
* ``bots`` -- tables with ``bot_takeover: "after_miss"``: the server's bots stand in for
  the held seats the matches wait for (each first learns the match so far); after
  ``--away`` seconds (default 3) every seat reconnects.

For each variant it prints the server's **worst reactor stall** in ms (the server process
runs a :class:`server.pacing.ReactorLag` ticking every 10 ms that notes every tick later
than 1 ms, with the time, in a file this script reads; the worst over the variant's storm,
from the drop until every seat is resumed plus half a second; also apart: from the drop
until the first reconnection, ``drop_stall_ms``, and after, ``resume_stall_ms``), the
server's **CPU** seconds
(user + system from ``/proc/<pid>/stat``) over the same span, the time from the first
``reconnect`` until every seat has its resumed ``match_started`` (``resume_s``), how many
seats were resumed, how many resumed with ``missed_truncated``, the missed events in all,
and (``bots``) the steps the stand-ins played meanwhile. The lateness of a timer also counts
the time the operating system gave the server's core to other processes (the load
generator runs on the same 2 cores): ``worst_turn_cpu_ms`` is the longest reactor turn in
the server's own CPU time, which does not. The last line is one JSON object.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import tools.sandbox  # noqa: F401,E402  (a private data dir: never the player's replays)

TICK = os.sysconf("SC_CLK_TCK")
SEATS = 4


# -- the server process -------------------------------------------------------------------
def serve_main(root: str, config: str, stalls: str) -> None:
    """Run ``mafia-server`` of ``root`` in this process with a reactor-lag probe that
    appends ``<monotonic s> <late ms>`` to ``stalls`` for every tick more than 1 ms late."""
    sys.path.insert(0, root)
    os.chdir(root)
    from twisted.internet import reactor

    from server.pacing import ReactorLag
    from server.main import main

    out = open(stalls, "a", buffering=1)

    class Probe(ReactorLag):
        def _tick(self) -> None:
            late = (self.clock.seconds() - self._due) * 1000.0
            if late > 1.0:
                out.write(f"{time.monotonic():.4f} {late:.2f}\n")
            super()._tick()

    Probe(reactor, period_s=0.01, keep=1)
    # the CPU time of each reactor turn (runUntilCurrent + doIteration, the wait in epoll
    # costs none): what the server itself spent, whatever else the machine was running
    run_until_current, do_iteration = reactor.runUntilCurrent, reactor.doIteration
    turn = [0.0]

    def timed_run() -> None:
        turn[0] = time.thread_time()
        run_until_current()

    def timed_iteration(delay: Any) -> None:
        do_iteration(delay)
        cpu = (time.thread_time() - turn[0]) * 1000.0
        if cpu > 1.0:
            out.write(f"{time.monotonic():.4f} {cpu:.2f} cpu\n")

    reactor.runUntilCurrent, reactor.doIteration = timed_run, timed_iteration
    if os.environ.get("STORM_PROFILE"):  # cProfile the server during the storm (SIGUSR1)
        import cProfile
        import signal

        prof = cProfile.Profile()

        def toggle(*_: Any) -> None:
            if getattr(prof, "on", False):
                prof.disable()
                prof.dump_stats(os.environ["STORM_PROFILE"])
            else:
                prof.enable()
            prof.on = not getattr(prof, "on", False)

        signal.signal(signal.SIGUSR1, toggle)
    main(["--config", config, "--no-discovery", "--web-port", "-1", "--port", "0",
          "--host", "127.0.0.1"])


def proc_cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def start_server(root: Path, workdir: Path, name: str) -> tuple[subprocess.Popen, int, Path]:
    import yaml

    config = {"server": {"max_tables": 1000, "max_connections": 4000,
                         "max_unauthenticated_per_address": 0, "reconnect_grace_s": 600,
                         "data_dir": str(workdir / f"data-{name}")}}
    path = workdir / f"config-{name}.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    stalls = workdir / f"stalls-{name}.txt"
    stalls.write_text("")
    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--serve", str(root),
                             str(path), str(stalls)], stdout=subprocess.PIPE,
                            stderr=open(workdir / f"server-{name}.log", "wb"), cwd=root, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if "listening on" in line:
            return proc, int(line.rsplit(":", 1)[1]), stalls
    proc.kill()
    raise SystemExit(f"the server did not start: see {workdir / f'server-{name}.log'}")


def worst_stall_ms(stalls: Path, since: float, until: float, kind: str = "lag") -> float:
    """The largest ``kind`` sample (``lag``: a 10 ms tick's lateness; ``cpu``: a reactor
    turn's CPU time) noted between ``since`` and ``until`` (monotonic s), in ms."""
    worst = 0.0
    for line in stalls.read_text().splitlines():
        t, ms, *tag = line.split()
        if (tag[0] if tag else "lag") == kind and since <= float(t) <= until:
            worst = max(worst, float(ms))
    return worst


# -- the load generator ---------------------------------------------------------------------
def run_load(port: int, tables: int, actions: int, takeover: str, away_s: float,
             pid: int, stalls: Path) -> dict[str, Any]:
    """One variant against the server on ``port`` (see the module docstring)."""
    import msgspec
    from twisted.internet import defer, endpoints, reactor, task
    from twisted.protocols.basic import LineReceiver

    dec, enc = msgspec.json.Decoder(), msgspec.json.Encoder()
    rng = random.Random(7)

    class Seat(LineReceiver):
        delimiter = b"\n"
        MAX_LENGTH = 1 << 22

        def __init__(self, game: "Game", index: int):
            self.game = game
            self.index = index
            self.seq = 0
            self.replies: dict[int, defer.Deferred] = {}
            self.ready: defer.Deferred = defer.Deferred()
            self.resumed: defer.Deferred = defer.Deferred()
            self.legal: list[dict[str, Any]] = []
            self.view: dict[str, Any] = {}
            self.step = 0
            self.wait_step = 0
            self.inflight = False
            self.playing = True

        def connectionMade(self) -> None:
            self.transport.setTcpNoDelay(True)
            self.ready.callback(self)

        def request(self, kind: str, **fields: Any) -> defer.Deferred:
            self.seq += 1
            d: defer.Deferred = defer.Deferred()
            self.replies[self.seq] = d
            self.sendLine(enc.encode({"v": 1, "type": kind, "seq": self.seq, **fields}))
            return d

        def lineReceived(self, line: bytes) -> None:
            msg = dec.decode(line)
            kind = msg["type"]
            if kind == "ping":
                self.sendLine(b'{"v":1,"type":"pong","id":%d,"tc":%r}' % (msg["id"], time.monotonic() * 1000))
                return
            if "re" in msg and msg["re"] in self.replies:
                d = self.replies.pop(msg["re"])
                if kind == "ack":
                    self.wait_step = msg.get("step", 0)
                d.callback(msg)
                return
            if kind not in ("update", "match_started"):
                return
            self.step = msg.get("step", 0)
            if "view_set" in msg:
                self.view.update(msg["view_set"])
                for key in msg.get("view_unset", ()):
                    self.view.pop(key, None)
                self.legal = msg.get("legal", self.legal)
            else:
                self.view, self.legal = dict(msg["view"]), msg["legal"]
            if kind == "match_started" and msg.get("resumed") and not self.resumed.called:
                self.resumed.callback(msg)
            self.game.step = max(self.game.step, self.step)
            self.decide()

        def decide(self) -> None:
            if not self.playing or self.inflight or not self.legal or self.step < self.wait_step:
                return
            if self.game.step >= actions:
                self.game.reached()
                return
            w = self.view.get("window")
            if w is not None and any(a["type"] == w.get("pass_type") for a in self.legal):
                action = next(a for a in self.legal if a["type"] == w.get("pass_type"))
            else:
                choices = [a for a in self.legal if w is None or (
                    a["type"] not in w.get("claim_types", ()) and a["type"] != w.get("pass_type"))]
                if not choices:
                    return
                action = rng.choice(choices)
            self.inflight = True

            def done(reply: dict[str, Any]) -> None:
                self.inflight = False
                self.decide()

            self.request("action", table=self.game.id, action=action).addCallback(done)

    class Game:
        def __init__(self, n: int):
            self.n = n
            self.id: int | None = None
            self.seats: list[Seat] = []
            self.tokens: list[str] = []
            self.step = 0
            self.done: defer.Deferred = defer.Deferred()

        def reached(self) -> None:
            if not self.done.called:
                for s in self.seats:
                    s.playing = False
                self.done.callback(self)

        @defer.inlineCallbacks
        def connect(self, index: int) -> Any:
            seat = Seat(self, index)
            endpoints.connectProtocol(endpoints.TCP4ClientEndpoint(reactor, "127.0.0.1", port), seat)
            yield seat.ready
            yield seat.request("hello", name=f"t{self.n}s{index}", features=["delta", "steps"])
            return seat

        @defer.inlineCallbacks
        def start(self) -> Any:
            for i in range(SEATS):
                self.seats.append((yield self.connect(i)))
            reply = yield self.seats[0].request(
                "create_table", game="omerta", seats=SEATS, name=f"storm {self.n}",
                options={"seed": 1000 + self.n, "rounds": 20, "bot_takeover": takeover, "bot_think_ms": 300})
            self.id = reply["table"]["id"]
            for s in self.seats:
                joined = yield s.request("join", table=self.id)
                self.tokens.append(joined["token"])

    results: dict[str, Any] = {}

    @defer.inlineCallbacks
    def scenario() -> Any:
        games = [Game(n) for n in range(tables)]
        for i in range(0, tables, 20):
            yield defer.gatherResults([g.start() for g in games[i:i + 20]])
        yield defer.gatherResults([g.done for g in games])
        yield task.deferLater(reactor, 1.0, lambda: None)  # the last updates and windows settle
        steps = {g.n: [s.step for s in g.seats] for g in games}
        cpu0, t0 = proc_cpu_s(pid), time.monotonic()
        for g in games:
            for s in g.seats:
                s.playing = False
                s.transport.abortConnection()
        if away_s:
            yield task.deferLater(reactor, away_s, lambda: None)
        t_back = time.monotonic()
        if os.environ.get("STORM_PROFILE"):  # the reconnections only
            os.kill(pid, __import__("signal").SIGUSR1)
        resumed: list[dict[str, Any]] = []

        @defer.inlineCallbacks
        def back(g: Game, i: int) -> Any:
            seat = yield g.connect(i)
            g.seats[i] = seat
            seat.playing = False
            reply = yield seat.request("reconnect", token=g.tokens[i], step=steps[g.n][i])
            assert reply["type"] == "joined", reply
            msg = yield seat.resumed
            resumed.append({"missed": len(msg.get("missed", ())), "truncated": bool(msg.get("missed_truncated")),
                            "played": msg["step"] - steps[g.n][i]})

        yield defer.gatherResults([back(g, i) for g in games for i in range(SEATS)])
        t_done = time.monotonic()
        yield task.deferLater(reactor, 0.5, lambda: None)
        cpu = proc_cpu_s(pid) - cpu0
        if os.environ.get("STORM_PROFILE"):
            os.kill(pid, __import__("signal").SIGUSR1)
            yield task.deferLater(reactor, 0.5, lambda: None)
        results.update(
            tables=tables, seats=tables * SEATS, actions_before=min(min(v) for v in steps.values()),
            worst_stall_ms=round(worst_stall_ms(stalls, t0, t_done + 0.5), 1),
            drop_stall_ms=round(worst_stall_ms(stalls, t0, t_back), 1),
            resume_stall_ms=round(worst_stall_ms(stalls, t_back, t_done + 0.5), 1),
            worst_turn_cpu_ms=round(worst_stall_ms(stalls, t0, t_done + 0.5, "cpu"), 1),
            cpu_s=round(cpu, 3), resume_s=round(t_done - t_back, 3), resumed=len(resumed),
            truncated=sum(r["truncated"] for r in resumed),
            missed_events=sum(r["missed"] for r in resumed),
            stand_in_steps=sum(r["played"] for r in resumed) // SEATS)
        for g in games:
            for s in g.seats:
                s.transport.abortConnection()

    def stop(result: Any) -> Any:
        reactor.stop()
        return result

    scenario().addErrback(lambda f: (results.update(error=f.getErrorMessage()), f.printTraceback())).addBoth(stop)
    reactor.run()
    return results


def variant(root: Path, workdir: Path, name: str, tables: int, actions: int, takeover: str,
            away_s: float) -> dict[str, Any]:
    proc, port, stalls = start_server(root, workdir, name)
    try:
        out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--load", str(port),
                              str(proc.pid), str(stalls), str(tables), str(actions), takeover,
                              str(away_s)], capture_output=True, text=True, timeout=900)
        if out.returncode != 0:
            raise SystemExit(f"load {name} failed:\n{out.stderr[-3000:]}")
        return json.loads(out.stdout.strip().splitlines()[-1])
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve_main(*sys.argv[2:5])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--load":
        port, pid, stalls, tables, actions, takeover, away = sys.argv[2:9]
        r = run_load(int(port), int(tables), int(actions), takeover, float(away), int(pid), Path(stalls))
        print(json.dumps(r))
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="30 tables (< 1 min)")
    p.add_argument("--tables", type=int, help="tables of 4 seats (default 200; --quick 30)")
    p.add_argument("--actions", type=int, default=60, help="actions every table plays before the storm")
    p.add_argument("--away", type=float, default=3.0, help="seconds the seats stay away (variant bots)")
    p.add_argument("--root", default=str(ROOT), help="the checkout whose server runs (default: this one)")
    args = p.parse_args()
    tables = args.tables or (30 if args.quick else 200)
    workdir = Path(tempfile.mkdtemp(prefix="reconnect-storm-", dir=os.environ.get("STORM_TMP")))
    try:
        out: dict[str, Any] = {"tables": tables, "actions": args.actions}
        for name, takeover, away in (("reconnect", "never", 0.5), ("bots", "after_miss", args.away)):
            r = variant(Path(args.root), workdir, name, tables, args.actions, takeover, away)
            print(f"{name:>9}: {r}", flush=True)
            for key, value in r.items():
                if key not in ("tables",):
                    out[f"{name}_{key}"] = value
        print(json.dumps(out))
        empty = [name for name in ("reconnect", "bots") if not out.get(f"{name}_resumed")]
        if empty:  # a storm nobody came back from measured nothing
            print(f"MEASURED NOTHING: no seat resumed in {', '.join(empty)}", file=sys.stderr)
            raise SystemExit(2)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
