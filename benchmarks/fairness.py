"""Fairness benchmark: races must be judged by reaction time, not by who has the shorter
network path (docs/PROTOCOL.md "Clock sync and reaction windows"). A script, not a test.

    .venv/bin/python benchmarks/fairness.py                  # full run (~30 min on 2 cores)
    .venv/bin/python benchmarks/fairness.py --quick          # 2 x 100 races (~4 min)
    .venv/bin/python benchmarks/fairness.py --quick --contention 2   # beside 2 CPU hogs

A real ``mafia-server`` (``--testing``, bots playing at once) runs in its own process;
everything goes over real TCP. Two Omerta tables race at the same time, one per
configuration: **sym** (the far path 80 ms one-way, ±10 ms jitter each way) and
**asym** (70 ms down, 90 ms up, ±10 ms: the same round trip, so a clock offset
estimated from round trips is 10 ms off). At each table:

* *near* (1 ms one-way) and *far* play through latency relays (``tools/relay.py``).
  Each is a subprocess running the **real client** (``benchmarks/fairness_player.py``:
  the pygame app headless, its 2 ms input sampler, its frame loop and ``flip()``, the
  Omerta table and the kit's claim path) with its own clock origin. Its key press is a
  pygame event posted at its own ``t_shown`` (the kit's stamp) + a reaction time from
  N(250, 40) ms, and the real sampler stamps ``t_press``.
* the *dealer* (a plain connection in this process) plays its turns and passes in
  every snap window after a human delay (350-700 ms).

Each snap window where near and far may both claim is a race, planned by
``fairness_player.plan`` from the window id: a *gap* race (the two reactions 1, 2, 5, 10
or 20 ms apart, the quicker one at random), an *equal* race (both drawn from the same
distribution; windows 2k and 2k+1 swap the same two draws) or a *lie* (one client sends
``t_shown`` 10, 50 or 200 ms late). A race's truth is which reaction was really smaller:
the instant each player's key actually went into its client's queue (``t_injected``,
noted by the harness at the injection) minus its ``t_shown`` -- on a busy machine the
harness's thread wakes late, and the press is when it happened, not when it was meant
to (the harness's lateness is printed: ``harness_press_late_p50_ms``/``_p99_ms``).
On the same races it prints the share won by the quicker reactor with the server's
reaction-time order (the first claim it applied), with the previous absolute-press
order (``t_press`` + the connection's clock offset, as the server converts it) and with
arrival order (which claim the relay handed to the server first); the far player's share
of the equal races; the decision latency after the first claim (``claim_result``); what
each lie gained against its connection's slack (``rtt_bound + frame_allowance``).

Besides, honest presses (no lie) that must never be refused: a host on its own embedded
server (the real client with ``server.start_embedded``, two bots, 1280x720, the table
animating) and a client whose frames take 30 ms (1 ms path, two bots);
plus every honest press of the races. CPU time of every process is printed (2 cores).
Then the phone (``benchmarks/fairness_phone.py``, ``--phone-races``): the phone page in
headless Chromium on a 30 ms ± 15 ms asymmetric path against a near client, equal
reflexes: ``phone_share_equal`` beside ``phone_share_equal_truth``.

A race match is 20 rounds (``--rounds``), a few hundred races; when it ends before the
races asked, the dealer opens a new table and both players join it.

``--contention N`` runs N CPU hogs (busy loops at normal priority) from before the server
starts until the end. Each race is written to the race log (``--log``, JSON lines) as it
ends, and the figures are computed from that log (``benchmarks/fairness_report.py``):
keys as above plus ``races`` (judged, both tables), ``far_share_equal_truth`` and, where
a race went against the truth, where (``wrong_by_client_stamp``, ``_server_bounds``,
``_server_collection``). The set-up has its own cap (``--setup-max-s``); the race budget
(``--max-s``) starts when the tables race. The run exits 2 with a ``MEASURED TOO
LITTLE`` line when fewer races than asked were judged (per table, or by the phone), 1
with a ``MISSED`` line when a figure misses its target (the quicker reactor >= 99 % at a
5 ms gap; equal races' shares within 0.03 of their truth, which lies within its 95 %
interval of one half; no honest press refused). The last line is one JSON object.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
import tools.sandbox  # noqa: F401,E402  (a private data dir: never the player's replays)

from twisted.internet import defer, protocol, task  # noqa: E402

from client.net import ClientProtocol  # noqa: E402
from fairness_report import failures, percentile, read_log, summarize  # noqa: E402
from shared.config import merge  # noqa: E402
from tools.relay import DelayRelay  # noqa: E402

PLAYER = ROOT / "benchmarks" / "fairness_player.py"
CONFIGS = {"sym": {"down": 80.0, "up": 80.0}, "asym": {"down": 70.0, "up": 90.0}}
NEAR_MS, JITTER_MS = 1.0, 10.0


def proc_cpu_s(pid: int) -> float | None:
    """User + system CPU seconds of a running process (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


class PlayerProcess(protocol.ProcessProtocol):
    """A ``fairness_player.py`` subprocess: its stdout JSON lines go to ``on_event``."""

    def __init__(self, name: str, on_event: Any):
        self.name = name
        self.on_event = on_event
        self.buf = b""
        self.ready: defer.Deferred = defer.Deferred()
        self.ended: defer.Deferred = defer.Deferred()
        self.done: dict[str, Any] | None = None

    def outReceived(self, data: bytes) -> None:
        self.buf += data
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            if ev.get("ev") == "ready" and not self.ready.called:
                self.ready.callback(self)
            elif ev.get("ev") == "done":
                self.done = ev
            self.on_event(self, ev)

    def errReceived(self, data: bytes) -> None:
        for line in data.decode(errors="replace").splitlines():
            if line.strip():
                print(f"  [{self.name}] {line}", file=sys.stderr, flush=True)

    def processEnded(self, reason: Any) -> None:
        if not self.ready.called:
            self.ready.errback(RuntimeError(f"{self.name} ended before it was ready"))
        self.ended.callback(None)

    def tell(self, **msg: Any) -> None:
        self.transport.write((json.dumps(msg) + "\n").encode())

    def stop(self) -> None:
        try:
            self.tell(cmd="stop")
        except Exception:
            pass


class Dealer:
    """The third player, a plain connection: plays its turns at once, passes in snap
    windows after a human delay, and records what happens at the table (windows, which
    claim the server applied first)."""

    def __init__(self, bench: "Bench", conf: str):
        self.bench = bench
        self.conf = conf
        self.proto: ClientProtocol | None = None
        self.table: int | None = None
        self.seat: int | None = None
        self.busy = False
        self.wait_step = 0
        self.last: dict[str, Any] | None = None
        self.windows: dict[tuple[int, int], dict[str, Any]] = {}  # (table, wid) -> {eligible, applied: [seats]}
        self.started = defer.Deferred()
        self.over = False
        self.passed: set[tuple[int, int]] = set()
        self.on_applied: Any = lambda table, wid: None  # a claim of window ``wid`` of ``table`` was applied
        self.seen_kinds: set[Any] = set()

    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind not in self.seen_kinds:  # what happened to a table that stops racing
            self.seen_kinds.add(kind)
            if kind not in ("match_started", "update", "clock", "ping", "race", "tables", "table"):
                print(f"  dealer of {self.conf} got {str(msg)[:200]}", file=sys.stderr, flush=True)
        if kind in ("match_started", "update") and msg.get("table") == self.table:
            if kind == "match_started":
                self.seat = msg["seat"]
                if not self.started.called:
                    self.started.callback(msg)
            for e in msg.get("events", []):
                key = (self.table, e.get("window"))
                if e.get("type") == "window_opened" and e.get("kind") == "snap":
                    self.windows[key] = {"eligible": list(e.get("eligible", [])), "applied": []}
                elif e.get("type") == "snap" and key in self.windows:
                    self.windows[key]["applied"].append(e.get("seat"))
                    self.on_applied(*key)
            self.play(msg)
        elif kind == "match_over" and msg.get("table") == self.table:
            self.over = True

    def new_table(self, table: int) -> None:
        """The next match is at ``table``: play there from its start."""
        self.table, self.seat, self.over, self.busy, self.wait_step, self.last = table, None, False, False, 0, None
        self.started = defer.Deferred()

    def on_disconnect(self, reason: Any) -> None:
        print(f"  dealer of {self.conf} disconnected: {getattr(reason, 'value', reason)}", file=sys.stderr, flush=True)

    def play(self, msg: dict[str, Any]) -> None:
        self.last = msg
        if self.busy or msg.get("step", 0) < self.wait_step:
            return
        legal = {a["type"]: a for a in msg.get("legal", [])}
        for kind in ("peek", "discard_drawn", "decline", "draw_deck", "end_turn", "hitwoman_pass"):
            if kind in legal:
                self.send(legal[kind])
                return
        w = msg["view"].get("window")
        if w and "snap_pass" in legal and (self.table, w["window"]) not in self.passed:
            self.passed.add((self.table, w["window"]))
            delay = self.bench.rng.uniform(0.35, 0.70)  # a person deciding not to snap
            self.bench.reactor.callLater(delay, self._pass, w["window"], legal["snap_pass"])

    def _pass(self, wid: int, action: dict[str, Any]) -> None:
        w = (self.last or {}).get("view", {}).get("window") or {}
        if w.get("window") == wid and not self.busy:
            self.send(action)

    def send(self, action: dict[str, Any]) -> None:
        self.busy = True
        based_on = self.last.get("step", 0) if self.last else 0
        d = self.proto.send_action(self.table, action)

        def done(result: Any) -> None:
            self.busy = False
            if isinstance(result, dict):
                self.wait_step = int(result.get("step", 0))
            else:
                self.wait_step = based_on + 1
            if self.last is not None:
                self.play(self.last)

        d.addBoth(done)


class Table:
    """One configuration's table: relays, two player processes, the dealer, and every
    record of its races; each race goes to the log as soon as it is decided."""

    def __init__(self, bench: "Bench", conf: str):
        self.bench = bench
        self.conf = conf
        self.dealer = Dealer(bench, conf)
        self.dealer.on_applied = self.check
        self.presses: dict[tuple[str, int, int], dict[str, Any]] = {}  # (role, table, wid) -> press record
        self.arrivals: dict[tuple[str, float], float] = {}  # (role, t_press) -> arrival ms
        self.bufs: dict[str, bytes] = {"near": b"", "far": b""}
        self.players: dict[str, PlayerProcess] = {}
        self.ports: dict[str, Any] = {}
        self.written: set[tuple[int, int]] = set()  # (table, wid) logged as races
        self.renewing = False  # a next match is being set up
        self.matches = 0

    def on_up(self, role: str, data: bytes) -> None:
        """A chunk the relay handed to the server: note when each claim arrived."""
        t = time.perf_counter_ns() / 1e6
        self.bufs[role] += data
        while b"\n" in self.bufs[role]:
            line, self.bufs[role] = self.bufs[role].split(b"\n", 1)
            if b'"snap"' in line and b'"action"' in line:
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                if msg.get("t_press") is not None:
                    self.arrivals[(role, round(float(msg["t_press"]), 3))] = t

    def on_event(self, proc: PlayerProcess, ev: dict[str, Any]) -> None:
        if ev.get("ev") == "press" and ev.get("table") is not None:
            self.presses[(ev["role"], ev["table"], ev["window"])] = ev
            self.check(ev["table"], ev["window"])

    def arrival(self, role: str, press: dict[str, Any]) -> float | None:
        t = press.get("t_press")
        return None if t is None else self.arrivals.get((role, round(float(t), 3)))

    def check(self, table: int, wid: int) -> None:
        """Log window ``wid`` of ``table`` as a race once both claims are judged and the
        server has applied one."""
        key = (table, wid)
        w = self.dealer.windows.get(key)
        near, far = self.presses.get(("near", *key)), self.presses.get(("far", *key))
        if key in self.written or w is None or near is None or far is None or not w["applied"]:
            return
        self.written.add(key)
        self.bench.log.write({"rec": "race", "conf": self.conf, "table": table, "window": wid, "near": near,
                              "far": far,
                              "applied": list(w["applied"]), "arrival_near": self.arrival("near", near),
                              "arrival_far": self.arrival("far", far)})

    def log_loose_presses(self) -> None:
        """The presses in no race (a refused lie, a window the other missed)."""
        for (role, table, wid), p in sorted(self.presses.items(), key=lambda kv: kv[0][1:]):
            if (table, wid) not in self.written:
                self.bench.log.write({"rec": "press", "conf": self.conf, **p})

    def judged(self) -> int:
        return len(self.written)


class RaceLog:
    """The race log: one JSON object per line, flushed as each is written, so a run
    that dies keeps every race it finished (:mod:`fairness_report` reads it back)."""

    def __init__(self, path: str):
        self.path = path
        self.f = open(path, "w", encoding="utf-8")

    def write(self, rec: dict[str, Any]) -> None:
        self.f.write(json.dumps(rec, default=str) + "\n")
        self.f.flush()

    def close(self) -> None:
        self.f.close()


class Bench:
    def __init__(self, reactor: Any, args: argparse.Namespace, port: int, log: RaceLog):
        self.reactor = reactor
        self.args = args
        self.port = port
        self.log = log
        self.rng = random.Random(args.seed)
        self.tables = {conf: Table(self, conf) for conf in CONFIGS}
        self.honest: dict[str, PlayerProcess] = {}
        self.honest_presses: dict[str, int] = {}
        self.listening: list[Any] = []
        self.relays: list[DelayRelay] = []
        self.setup_s: float | None = None  # how long until both tables raced (s)
        self.race_s = 0.0  # how long they raced (s)

    def delay(self, base: float, jitter: float):
        return lambda: max(0.0, base + self.rng.uniform(-jitter, jitter))

    def relay(self, down: float, up: float, jitter: float, observe: Any = None) -> int:
        f = DelayRelay(self.reactor, "127.0.0.1", self.port, self.delay(up, jitter), self.delay(down, jitter),
                       observe_up=observe, keep_late=True)
        self.relays.append(f)
        lp = self.reactor.listenTCP(0, f, interface="127.0.0.1")
        self.listening.append(lp)
        return lp.getHost().port

    def spawn(self, name: str, on_event: Any, *extra: str) -> PlayerProcess:
        pp = PlayerProcess(name, on_event)
        argv = [sys.executable, str(PLAYER), "--name", name, "--seed", str(self.args.seed),
                "--skew", str(self.rng.uniform(-5e6, 5e6)), *extra]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        self.reactor.spawnProcess(pp, sys.executable, argv, env=env, path=str(ROOT))
        return pp

    @defer.inlineCallbacks
    def start_table(self, conf: str):
        t = self.tables[conf]
        c = CONFIGS[conf]
        ports = {"near": self.relay(NEAR_MS, NEAR_MS, 0.0, lambda d, t=t: t.on_up("near", d)),
                 "far": self.relay(c["down"], c["up"], JITTER_MS, lambda d, t=t: t.on_up("far", d))}
        for role in ("near", "far"):
            t.players[role] = self.spawn(f"{role}-{conf}", t.on_event, "--mode", "race", "--role", role,
                                         "--connect", f"127.0.0.1:{ports[role]}", "--lie-share",
                                         str(self.args.lie_share), "--equal-share", str(self.args.equal_share))
        from client.net import connect

        t.dealer.proto = yield connect(self.reactor, "127.0.0.1", self.port, f"dealer-{conf}", listener=t.dealer)
        yield defer.DeferredList([p.ready for p in t.players.values()], fireOnOneErrback=True)
        yield task.deferLater(self.reactor, 1.0, lambda: None)  # clock sync bursts settle
        yield self.new_match(conf)

    @defer.inlineCallbacks
    def new_match(self, conf: str):
        """A new match of ``conf`` (``--rounds``, 20) at a new table: the dealer creates it and sits,
        then near and far join it (a match holds a few hundred races; a run may want more)."""
        t = self.tables[conf]
        reply = yield t.dealer.proto.request("create_table", game="omerta", seats=3, options={
            "rounds": self.args.rounds, "seed": self.rng.randrange(1, 2**31)})
        t.dealer.new_table(reply["table"]["id"])
        t.matches += 1
        yield t.dealer.proto.request("join", table=t.dealer.table, seat=2)
        t.players["near"].tell(cmd="join", table=t.dealer.table)
        yield task.deferLater(self.reactor, 0.3, lambda: None)
        t.players["far"].tell(cmd="join", table=t.dealer.table)
        yield t.dealer.started

    def start_honest(self, name: str, *extra: str) -> None:
        def on_event(proc: PlayerProcess, ev: dict[str, Any]) -> None:
            if ev.get("ev") == "press":
                self.honest_presses[name] = self.honest_presses.get(name, 0) + 1
                self.log.write({"rec": "honest", **ev, "name": name})

        self.honest[name] = self.spawn(name, on_event, "--mode", "honest", "--presses",
                                       str(self.args.presses), *extra)

    @defer.inlineCallbacks
    def run(self):
        t0 = time.monotonic()
        # the honest presses: a host on its own embedded server, and 30 ms frames per path
        self.start_honest("host-embedded", "--size", "1280x720")
        port = self.relay(NEAR_MS, NEAR_MS, 0.0)
        self.start_honest("slow-frames", "--connect", f"127.0.0.1:{port}", "--frame-ms", "30")
        setup = defer.DeferredList([self.start_table(conf) for conf in CONFIGS], fireOnOneErrback=True,
                                   consumeErrors=True)
        setup.addTimeout(self.args.setup_max_s, self.reactor)
        try:
            yield setup
        except Exception as e:
            print(f"  set-up failed after {time.monotonic() - t0:.1f} s (cap {self.args.setup_max_s:g} s): "
                  f"{type(e).__name__}: {e}", file=sys.stderr, flush=True)
        else:
            self.setup_s = time.monotonic() - t0
            print(f"  tables racing after {self.setup_s:.1f} s of set-up; the race budget "
                  f"({self.args.max_s:g} s) starts now", file=sys.stderr, flush=True)
            yield self.race()
        procs = [p for t in self.tables.values() for p in t.players.values()] + list(self.honest.values())
        for p in procs:
            if p.done is None:
                p.stop()
        yield task.deferLater(self.reactor, 1.5, lambda: None)
        for p in procs:
            if p.done is None and p.transport is not None:
                try:
                    p.transport.signalProcess("TERM")
                except Exception:
                    pass
        for t in self.tables.values():
            t.log_loose_presses()
            if t.dealer.proto is not None:
                t.dealer.proto.transport.loseConnection()
        for lp in self.listening:
            yield lp.stopListening()
        return procs

    @defer.inlineCallbacks
    def race(self):
        """Race until every table judged the races asked and the honest players are done,
        a match ends, or the race budget (``--max-s``, after the set-up) is spent."""
        t0 = time.monotonic()
        want = self.args.races
        last_report = 0.0
        stopped = False
        while True:
            done = {conf: t.judged() for conf, t in self.tables.items()}
            honest_done = all(p.done is not None for p in self.honest.values())
            elapsed = time.monotonic() - t0
            self.race_s = elapsed
            if elapsed - last_report > 20:
                last_report = elapsed
                print(f"  {elapsed:.0f} s racing: races {done}, honest presses {self.honest_presses}",
                      file=sys.stderr, flush=True)
            races_done = all(n >= want for n in done.values())
            for conf, t in self.tables.items():
                if t.dealer.over and not races_done and not t.renewing:  # the next match
                    t.renewing = True
                    print(f"  {conf}: match {t.matches} over after {done[conf]} races: another one",
                          file=sys.stderr, flush=True)
                    d = self.new_match(conf).addTimeout(self.args.setup_max_s, self.reactor)
                    d.addErrback(lambda f, conf=conf: print(f"  {conf}: no next match: {f.value}", file=sys.stderr))
                    d.addBoth(lambda _r, t=t: setattr(t, "renewing", False))
            if races_done and not stopped:
                stopped = True
                for t in self.tables.values():
                    for p in t.players.values():
                        if p.done is None:
                            p.stop()
            if (races_done and honest_done) or elapsed > self.args.max_s:
                if elapsed > self.args.max_s:
                    print(f"  race budget of {self.args.max_s:g} s spent: reporting what is done", file=sys.stderr)
                break
            yield task.deferLater(self.reactor, 0.5, lambda: None)


def phone_races(args: argparse.Namespace) -> tuple[dict[str, Any], int]:
    """The phone's share of equal races (``phone_share_equal``...), from
    ``benchmarks/fairness_phone.py`` in its own process, and its exit status; ``({}, 2)``
    when it printed no figures (Chromium missing)."""
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fairness_phone.py"), "--races",
                           str(args.phone_races), "--seed", str(args.seed), "--max-s", str(args.phone_max_s)],
                          cwd=ROOT, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    for line in lines[:-1]:
        print(line)
    try:
        return (json.loads(lines[-1]) if lines else {}), proc.returncode
    except ValueError:
        return {}, proc.returncode or 2


#: A CPU hog: a busy loop that ends when the benchmark is gone (killed without cleaning up).
HOG = ("import os\nparent = os.getppid()\nwhile os.getppid() == parent:\n"
       "    for _ in range(1_000_000):\n        pass\n")


def start_hogs(n: int) -> list[subprocess.Popen]:
    """``n`` plain busy loops at normal priority: a machine whose cores other programs
    want too (the host's laptop runs the server, its own client and whatever else)."""
    return [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(n)]


def stop_hogs(hogs: list[subprocess.Popen]) -> float:
    """Kill the hogs; returns the CPU seconds they got (what they took from the run)."""
    cpu = sum(proc_cpu_s(h.pid) or 0.0 for h in hogs)
    for h in hogs:
        h.kill()
    for h in hogs:
        h.wait(10)
    return cpu


def loadavg() -> str:
    try:
        return Path("/proc/loadavg").read_text().strip()
    except OSError:
        return "?"


def print_cpu(records: list[dict[str, Any]], server_cpu: float | None, wall: float, hogs_cpu: float,
              contention: int) -> None:
    print("\nCPU (2 cores):")
    for rec in records:
        if rec.get("rec") == "proc" and rec.get("cpu_s") is not None:
            print(f"  {rec['name']:>20}: {rec['cpu_s']:.1f} s CPU in {rec['wall_s']:.0f} s "
                  f"({100 * rec['cpu_s'] / max(1e-9, rec['wall_s']):.0f} %), frame p50 "
                  f"{rec.get('frame_ms_p50') or 0:.1f} ms")
    if server_cpu is not None:
        print(f"  {'server':>20}: {server_cpu:.1f} s CPU in {wall:.0f} s ({100 * server_cpu / wall:.0f} %)")
    import resource

    me = resource.getrusage(resource.RUSAGE_SELF)
    print(f"  {'benchmark+relays':>20}: {me.ru_utime + me.ru_stime:.1f} s CPU in {wall:.0f} s")
    if contention:
        print(f"  {f'{contention} hogs':>20}: {hogs_cpu:.1f} s CPU in {wall:.0f} s "
              f"({100 * hogs_cpu / max(1e-9, wall):.0f} % of one core)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer races and presses (a few minutes)")
    p.add_argument("--races", type=int, default=None,
                   help="races to judge per configuration (default 1100; quick 100)")
    p.add_argument("--presses", type=int, default=None, help="honest presses per run (default 1000; quick 40)")
    p.add_argument("--lie-share", type=float, default=0.08, help="share of races where a player lies")
    p.add_argument("--equal-share", type=float, default=None,
                   help="share of the other races with equal reflexes (default 0.5; quick 0.3)")
    p.add_argument("--contention", type=int, default=0, metavar="N",
                   help="run N CPU hogs (busy loops, normal priority) beside the whole run")
    p.add_argument("--max-s", type=float, default=None,
                   help="race budget in s, counted once the tables race (default 2400; quick 400)")
    p.add_argument("--setup-max-s", type=float, default=300.0, help="the set-up may take this long (s)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=20, help="rounds of each race match (a new match follows)")
    p.add_argument("--config", help="server config file (default: config.yaml)")
    p.add_argument("--server-log", default=os.devnull)
    p.add_argument("--log", "--dump", dest="log",
                   help="the race log (JSON lines, written as races end; default: a temporary file)")
    p.add_argument("--phone-races", type=int, default=None,
                   help="equal races of the phone page against a near client (fairness_phone.py; "
                        "default 400, quick 60; 0 = none)")
    p.add_argument("--phone-max-s", type=float, default=None, help="the phone's race budget (s)")
    p.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                   help="override a server config value (an experiment), e.g. timing.rtt_bound_cap_ms=200")
    args = p.parse_args()
    args.races = args.races or (100 if args.quick else 1100)
    args.presses = args.presses or (40 if args.quick else 1000)
    if args.equal_share is None:
        args.equal_share = 0.3 if args.quick else 0.5
    if args.phone_races is None:
        args.phone_races = 60 if args.quick else 400
    args.max_s = args.max_s or (400.0 if args.quick else 2400.0)
    args.phone_max_s = args.phone_max_s or (240.0 if args.quick else 900.0)

    import yaml

    with open(args.config or ROOT / "config.yaml", encoding="utf-8") as f:
        raw = yaml.safe_load(f)
    raw.setdefault("bots", {})["think_ms"] = 0  # the honest hosts' bots play at once
    for item in args.set:
        key, value = item.split("=", 1)
        section, name = key.split(".", 1)
        raw.setdefault(section, {})[name] = yaml.safe_load(value)
        print(f"server config: {section}.{name} = {value}")
    config = merge(raw)
    tmp = tempfile.mkdtemp(prefix="fairness-")
    cfg_path = os.path.join(tmp, "config.yaml")
    with open(cfg_path, "w", encoding="utf-8") as f:
        yaml.safe_dump(raw, f)
    log_path = args.log or os.path.join(tmp, "races.jsonl")
    log = RaceLog(log_path)
    load_before = loadavg()
    print(f"load before: {load_before}; {args.contention} CPU hogs; race log {log_path}", flush=True)
    log.write({"rec": "meta", "args": vars(args), "loadavg_before": load_before})
    hogs = start_hogs(args.contention)
    exe = Path(sys.executable).parent / "mafia-server"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "server.main"]
    server = subprocess.Popen(cmd + ["--host", "127.0.0.1", "--port", "0", "--no-discovery", "--testing",
                                     "--web-port", "-1",
                                     "--config", cfg_path, "--data-dir", os.path.join(tmp, "data")],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=open(args.server_log, "wb"),
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    t0 = time.monotonic()
    try:
        line = server.stdout.readline().decode()
        port = int(line.rsplit(":", 1)[1])

        @defer.inlineCallbacks
        def run(reactor):
            bench = Bench(reactor, args, port, log)
            procs = yield bench.run()
            wall = time.monotonic() - t0
            for proc in procs:
                if proc.done is not None:
                    log.write({"rec": "proc", **proc.done, "name": proc.name})
            server_cpu = proc_cpu_s(server.pid)
            relay_late = [x for f in bench.relays for x in (f.late_ms or [])]
            log.write({"rec": "end", "wall_s": wall, "setup_s": bench.setup_s, "race_s": bench.race_s,
                       "server_cpu_s": server_cpu, "loadavg_after": loadavg()})
            log.close()
            records = read_log(log_path)
            lines: list[str] = []
            result = summarize(records, config["timing"], lines)
            print("\n".join(lines))
            print_cpu(records, server_cpu, wall, sum(proc_cpu_s(h.pid) or 0.0 for h in hogs), args.contention)
            if relay_late:  # the harness's latency relays run late on a busy machine too
                result["relay_late_p50_ms"] = round(percentile(relay_late, 50), 2)
                result["relay_late_p99_ms"] = round(percentile(relay_late, 99), 2)
                print(f"harness: the latency relays delivered chunks late by p50 {result['relay_late_p50_ms']} ms, "
                      f"p99 {result['relay_late_p99_ms']} ms ({len(relay_late)} chunks)")
            result.update(wall_s=round(wall, 1), race_s=round(bench.race_s, 1), contention=args.contention,
                          setup_s=round(bench.setup_s, 1) if bench.setup_s is not None else None)
            phone_status = 0
            if args.phone_races > 0:  # the phone page in headless Chromium (fairness_phone.py)
                phone, phone_status = phone_races(args)
                result.update(phone)
            result["loadavg_before"], result["loadavg_after"] = load_before, loadavg()
            little, missed = failures(result, args.races, args.phone_races)
            if phone_status and args.phone_races > 0 and not any(m.startswith("phone") for m in little):
                little.append(f"phone: fairness_phone.py failed (exit {phone_status})")
            print(f"\nload before {load_before}, after {result['loadavg_after']}; set-up {result['setup_s']} s, "
                  f"racing {result['race_s']} s; race log {log_path}")
            for m in little:
                print(f"MEASURED TOO LITTLE: {m}")
            for m in missed:
                print(f"MISSED: {m}")
            result["measured_too_little"] = little
            result["missed"] = missed
            print(json.dumps(result, sort_keys=True), flush=True)
            if little or missed:
                raise SystemExit(2 if little else 1)

        task.react(run)
    finally:
        server.terminate()
        server.wait(10)
        stop_hogs(hogs)


if __name__ == "__main__":
    main()
