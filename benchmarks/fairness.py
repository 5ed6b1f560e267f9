"""Fairness benchmark: races must be judged by reaction time, not by who has the shorter
network path (docs/PROTOCOL.md "Clock sync and reaction windows"). A script, not a test.

    .venv/bin/python benchmarks/fairness.py            # full run (~10-15 min on 2 cores)
    .venv/bin/python benchmarks/fairness.py --quick    # the same keys in under a minute

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
``t_shown`` 10, 50 or 200 ms late). A race's truth is which reaction was really smaller: the drawn one plus how late the
harness managed to post the key (the thread that plays the hand is late by up to a few
ms on a busy machine; the client stamps what really happened, so must the truth).
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
reflexes: ``phone_share_equal``. The last line is one JSON object.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
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
from fairness_player import GAPS, LIES  # noqa: E402
from shared.config import merge  # noqa: E402
from tools.relay import DelayRelay  # noqa: E402

PLAYER = ROOT / "benchmarks" / "fairness_player.py"
CONFIGS = {"sym": {"down": 80.0, "up": 80.0}, "asym": {"down": 70.0, "up": 90.0}}
NEAR_MS, JITTER_MS = 1.0, 10.0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    rank = max(1, min(len(ordered), -(-len(ordered) * p // 100)))
    return ordered[int(rank) - 1]


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
        self.windows: dict[int, dict[str, Any]] = {}  # wid -> {eligible, applied: [seats]}
        self.started = defer.Deferred()
        self.over = False
        self.passed: set[int] = set()

    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind in ("match_started", "update") and msg.get("table") == self.table:
            if kind == "match_started":
                self.seat = msg["seat"]
                if not self.started.called:
                    self.started.callback(msg)
            for e in msg.get("events", []):
                if e.get("type") == "window_opened" and e.get("kind") == "snap":
                    self.windows[e["window"]] = {"eligible": list(e.get("eligible", [])), "applied": []}
                elif e.get("type") == "snap" and e.get("window") in self.windows:
                    self.windows[e["window"]]["applied"].append(e.get("seat"))
            self.play(msg)
        elif kind == "match_over" and msg.get("table") == self.table:
            self.over = True

    def on_disconnect(self, reason: Any) -> None:
        pass

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
        if w and "snap_pass" in legal and w["window"] not in self.passed:
            self.passed.add(w["window"])
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
    record of its races."""

    def __init__(self, bench: "Bench", conf: str):
        self.bench = bench
        self.conf = conf
        self.dealer = Dealer(bench, conf)
        self.presses: dict[tuple[str, int], dict[str, Any]] = {}  # (role, wid) -> press record
        self.arrivals: dict[tuple[str, float], float] = {}  # (role, t_press) -> arrival ms
        self.bufs: dict[str, bytes] = {"near": b"", "far": b""}
        self.players: dict[str, PlayerProcess] = {}
        self.ports: dict[str, Any] = {}

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
        if ev.get("ev") == "press" and ev.get("table") == self.dealer.table:
            self.presses[(ev["role"], ev["window"])] = ev

    def finished(self) -> list[dict[str, Any]]:
        """Every race with both claims judged, as one record."""
        out = []
        for wid, w in self.dealer.windows.items():
            near, far = self.presses.get(("near", wid)), self.presses.get(("far", wid))
            if near is None or far is None or not w["applied"]:
                continue
            out.append({"conf": self.conf, "window": wid, "near": near, "far": far,
                        "applied": w["applied"]})
        return out


class Bench:
    def __init__(self, reactor: Any, args: argparse.Namespace, port: int):
        self.reactor = reactor
        self.args = args
        self.port = port
        self.rng = random.Random(args.seed)
        self.tables = {conf: Table(self, conf) for conf in CONFIGS}
        self.honest: dict[str, PlayerProcess] = {}
        self.honest_presses: dict[str, list[dict[str, Any]]] = {}
        self.listening: list[Any] = []

    def delay(self, base: float, jitter: float):
        return lambda: max(0.0, base + self.rng.uniform(-jitter, jitter))

    def relay(self, down: float, up: float, jitter: float, observe: Any = None) -> int:
        f = DelayRelay(self.reactor, "127.0.0.1", self.port, self.delay(up, jitter), self.delay(down, jitter),
                       observe_up=observe)
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
                                         str(self.args.lie_share))
        from client.net import connect

        t.dealer.proto = yield connect(self.reactor, "127.0.0.1", self.port, f"dealer-{conf}", listener=t.dealer)
        yield defer.DeferredList([p.ready for p in t.players.values()], fireOnOneErrback=True)
        yield task.deferLater(self.reactor, 1.0, lambda: None)  # clock sync bursts settle
        reply = yield t.dealer.proto.request("create_table", game="omerta", seats=3, options={
            "rounds": 20, "seed": self.rng.randrange(1, 2**31)})
        t.dealer.table = reply["table"]["id"]
        yield t.dealer.proto.request("join", table=t.dealer.table, seat=2)
        t.players["near"].tell(cmd="join", table=t.dealer.table)
        yield task.deferLater(self.reactor, 0.3, lambda: None)
        t.players["far"].tell(cmd="join", table=t.dealer.table)
        yield t.dealer.started

    def start_honest(self, name: str, *extra: str) -> None:
        def on_event(proc: PlayerProcess, ev: dict[str, Any]) -> None:
            if ev.get("ev") == "press":
                self.honest_presses.setdefault(name, []).append(ev)

        self.honest[name] = self.spawn(name, on_event, "--mode", "honest", "--presses",
                                       str(self.args.presses), *extra)

    def races(self) -> list[dict[str, Any]]:
        return [r for t in self.tables.values() for r in t.finished()]

    @defer.inlineCallbacks
    def run(self):
        t0 = time.monotonic()
        # the honest presses: a host on its own embedded server, and 30 ms frames per path
        self.start_honest("host-embedded", "--size", "1280x720")
        port = self.relay(NEAR_MS, NEAR_MS, 0.0)
        self.start_honest("slow-frames", "--connect", f"127.0.0.1:{port}", "--frame-ms", "30")
        yield defer.DeferredList([self.start_table(conf) for conf in CONFIGS], fireOnOneErrback=True)
        print(f"  tables racing after {time.monotonic() - t0:.1f} s", file=sys.stderr, flush=True)
        want = self.args.races
        last_report = 0.0
        while True:
            done = {conf: len(t.finished()) for conf, t in self.tables.items()}
            honest = {n: len(v) for n, v in self.honest_presses.items()}
            honest_done = all(p.done is not None for p in self.honest.values())
            elapsed = time.monotonic() - t0
            if elapsed - last_report > 20:
                last_report = elapsed
                print(f"  {elapsed:.0f} s: races {done}, honest presses {honest}", file=sys.stderr, flush=True)
            races_done = all(n >= want for n in done.values()) or any(t.dealer.over for t in self.tables.values())
            if races_done:
                for t in self.tables.values():
                    for p in t.players.values():
                        if p.done is None:
                            p.stop()
            if (races_done and honest_done) or elapsed > self.args.max_s:
                if elapsed > self.args.max_s:
                    print(f"  time cap {self.args.max_s} s: reporting what is done", file=sys.stderr)
                break
            yield task.deferLater(self.reactor, 0.5, lambda: None)
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
            if t.dealer.proto is not None:
                t.dealer.proto.transport.loseConnection()
        for lp in self.listening:
            yield lp.stopListening()
        return procs


def slack_of(rec: dict[str, Any], timing: dict[str, Any]) -> float | None:
    """The connection's slack at the press: rtt_bound + frame allowance (ms)."""
    p99 = rec.get("rtt_p99_ms")
    if p99 is None:
        return None
    bound = min(max(float(p99), float(timing["rtt_bound_floor_ms"])), float(timing["rtt_bound_cap_ms"]))
    return bound + float(timing["frame_allowance_ms"])


def refused(rec: dict[str, Any]) -> bool:
    return rec.get("outcome") == "refused" or rec.get("error") == "claim_refused"


def report(bench: Bench, procs: list[PlayerProcess], timing: dict[str, Any], server_cpu: float | None,
           wall: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    races = bench.races()
    for conf in CONFIGS:
        sfx = "" if conf == "sym" else "_asym"
        c = CONFIGS[conf]
        rs = [r for r in races if r["conf"] == conf]
        tbl = bench.tables[conf]
        print(f"\n== {conf}: near {NEAR_MS:g} ms; far {c['down']:g} ms down / {c['up']:g} ms up, "
              f"±{JITTER_MS:g} ms each way; {len(rs)} races with both claims judged")
        seat_role = {p["seat"]: p["role"] for p in tbl.presses.values()}  # as each player saw its seat
        judged = []
        for r in rs:
            n, f = r["near"], r["far"]
            if refused(n) or refused(f) or n["kind"] not in ("gap", "equal"):
                continue
            # the truth is the reaction each player really had: the planned one plus how
            # late the harness thread managed to post the key (a busy 2-core machine)
            rn = n["r"] + float(n.get("post_late_ms") or 0.0)
            rf = f["r"] + float(f.get("post_late_ms") or 0.0)
            truth = "near" if rn < rf else "far"
            ours = seat_role.get(r["applied"][0])
            absolute = "near" if (n["t_press"] + n["offset_ms"]) < (f["t_press"] + f["offset_ms"]) else "far"
            an = tbl.arrivals.get(("near", round(float(n["t_press"]), 3)))
            af = tbl.arrivals.get(("far", round(float(f["t_press"]), 3)))
            arrival = None if an is None or af is None else ("near" if an < af else "far")
            judged.append({**r, "truth": truth, "ours": ours, "absolute": absolute, "arrival": arrival,
                           "gap": abs(n["r"] - f["r"]), "kind": n["kind"],
                           "latency": max(float(n.get("latency_ms") or 0), float(f.get("latency_ms") or 0))})
        print(f"{'gap ms':>7} {'races':>6} {'reaction %':>11} {'absolute %':>11} {'arrival %':>10}")
        for gap in GAPS:
            g = [x for x in judged if x["kind"] == "gap" and abs(x["gap"] - gap) < 0.01]
            if not g:
                continue
            share = {k: sum(x[k] == x["truth"] for x in g) / len(g) for k in ("ours", "absolute", "arrival")}
            key = f"{gap:g}ms{sfx}"
            out[f"correct_reaction_{key}"] = round(share["ours"], 4)
            out[f"correct_absolute_{key}"] = round(share["absolute"], 4)
            out[f"correct_arrival_{key}"] = round(share["arrival"], 4)
            out[f"races_{key}"] = len(g)
            calm = [x for x in g
                    if max(abs(x["near"].get("post_late_ms") or 0), abs(x["far"].get("post_late_ms") or 0)) <= 2.0]
            calm_share = sum(x["ours"] == x["truth"] for x in calm) / len(calm) if calm else float("nan")
            out[f"correct_reaction_calm_{key}"] = round(calm_share, 4) if calm else None
            print(f"{gap:>7g} {len(g):>6} {100 * share['ours']:>11.1f} {100 * share['absolute']:>11.1f} "
                  f"{100 * share['arrival']:>10.1f}   (reaction, presses posted on time: {100 * calm_share:.1f} % "
                  f"of {len(calm)})")
        eq = [x for x in judged if x["kind"] == "equal"]
        if eq:
            far = sum(x["ours"] == "far" for x in eq) / len(eq)
            far_truth = sum(x["truth"] == "far" for x in eq) / len(eq)
            far_abs = sum(x["absolute"] == "far" for x in eq) / len(eq)
            far_arr = sum(x["arrival"] == "far" for x in eq) / len(eq)
            out[f"far_share_equal{sfx}"] = round(far, 4)
            out[f"far_share_equal_truth{sfx}"] = round(far_truth, 4)
            out[f"far_share_equal_absolute{sfx}"] = round(far_abs, 4)
            out[f"far_share_equal_arrival{sfx}"] = round(far_arr, 4)
            out[f"races_equal{sfx}"] = len(eq)
            print(f"equal reflexes ({len(eq)} races): the far player wins {100 * far:.1f} % with reaction-time "
                  f"order (truth {100 * far_truth:.1f} %), {100 * far_abs:.1f} % with absolute order, "
                  f"{100 * far_arr:.1f} % with arrival order")
        lat = [x["latency"] for x in judged]
        if lat:
            out[f"decision_latency_p50_ms{sfx}"] = round(statistics.median(lat), 1)
            out[f"decision_latency_p99_ms{sfx}"] = round(percentile(lat, 99), 1)
            print(f"decision latency after the first claim: p50 {out[f'decision_latency_p50_ms{sfx}']} ms, "
                  f"p99 {out[f'decision_latency_p99_ms{sfx}']} ms")
        # lies
        lies = [r[role] for r in rs for role in ("near", "far") if r[role]["kind"] == "lie" and r[role]["lie"] > 0]
        lies += [p for (role, wid), p in tbl.presses.items() if p["kind"] == "lie" and p["lie"] > 0
                 and not any(r["window"] == wid for r in rs)]
        best: tuple[float, float, str] | None = None
        over_slack = None
        for role in ("near", "far"):
            for lie in LIES:
                ls = [p for p in lies if p["role"] == role and p["lie"] == lie]
                if not ls:
                    continue
                acc = [p for p in ls if not refused(p) and p.get("reaction_ms") is not None]
                gains = [(p["t_press"] - p["t_shown"]) - float(p["reaction_ms"]) for p in acc]
                slacks = [s for s in (slack_of(p, timing) for p in ls) if s is not None]
                nref = sum(refused(p) for p in ls)
                slack = statistics.median(slacks) if slacks else float("nan")
                print(f"{role} lies {lie:g} ms about t_shown ({len(ls)} claims): refused {nref}; gain "
                      + (f"mean {statistics.mean(gains):.1f} ms, max {max(gains):.1f} ms" if gains else "-")
                      + f"; its slack {slack:.1f} ms")
                out[f"lie_{role}_{lie:g}ms_refused{sfx}"] = f"{nref}/{len(ls)}"
                for p, g in zip(acc, gains):
                    s = slack_of(p, timing)
                    if best is None or g > best[0]:
                        best = (g, s if s is not None else float("nan"), role)
                    if s is not None:
                        over_slack = g - s if over_slack is None else max(over_slack, g - s)
        if best is not None:
            out[f"lie_gain_max_ms{sfx}"] = round(best[0], 1)
            out[f"slack_ms{sfx}"] = round(best[1], 1)
            out[f"lie_gain_over_slack_max_ms{sfx}"] = round(over_slack, 1) if over_slack is not None else None
            print(f"largest gain of a lie: {best[0]:.1f} ms ({best[2]}, slack {best[1]:.1f} ms); "
                  f"gain - slack at most {over_slack:.1f} ms")
        # honest presses of this configuration
        honest_races = [r[role] for r in rs for role in ("near", "far") if r[role]["lie"] == 0]
        honest_races += [p for (role, wid), p in tbl.presses.items() if p["lie"] == 0
                         and not any(r["window"] == wid for r in rs)]
        ref_races = sum(refused(p) for p in honest_races)
        host = bench.honest_presses.get("host-embedded", [])
        slow = bench.honest_presses.get("slow-frames", [])
        ref_host, ref_slow = sum(refused(p) for p in host), sum(refused(p) for p in slow)
        for label, ps, n in (("host on its own embedded server, table animating", host, ref_host),
                             ("client with 30 ms frames (1 ms path)", slow, ref_slow),
                             ("honest race presses", honest_races, ref_races)):
            print(f"refused honest presses, {label}: {n} / {len(ps)}")
            for p in ps:
                if refused(p):
                    print(f"    refused: {p.get('message')}", file=sys.stderr)
        out[f"refused_honest_host{sfx}"] = f"{ref_host}/{len(host)}"
        out[f"refused_honest_slow_frames{sfx}"] = f"{ref_slow}/{len(slow)}"
        out[f"refused_honest_races{sfx}"] = f"{ref_races}/{len(honest_races)}"
        out[f"refused_honest{sfx}"] = ref_host + ref_slow + ref_races
        late = [p["post_late_ms"] for p in honest_races if p.get("post_late_ms") is not None]
        if late:
            out[f"harness_press_late_p99_ms{sfx}"] = round(percentile(late, 99), 2)
            print(f"harness: key events posted late by p50 {statistics.median(late):.2f} ms, "
                  f"p99 {percentile(late, 99):.2f} ms")
    # CPU
    print("\nCPU (2 cores):")
    for p in procs:
        d = p.done or {}
        if d.get("cpu_s") is not None:
            print(f"  {p.name:>20}: {d['cpu_s']:.1f} s CPU in {d['wall_s']:.0f} s "
                  f"({100 * d['cpu_s'] / max(1e-9, d['wall_s']):.0f} %), frame p50 "
                  f"{d.get('frame_ms_p50') or 0:.1f} ms")
    if server_cpu is not None:
        print(f"  {'server':>20}: {server_cpu:.1f} s CPU in {wall:.0f} s ({100 * server_cpu / wall:.0f} %)")
    import resource

    me = resource.getrusage(resource.RUSAGE_SELF)
    print(f"  {'benchmark+relays':>20}: {me.ru_utime + me.ru_stime:.1f} s CPU in {wall:.0f} s")
    out["wall_s"] = round(wall, 1)
    return out


def phone_races(args: argparse.Namespace) -> dict[str, Any]:
    """The phone's share of equal races (``phone_share_equal``...), from
    ``benchmarks/fairness_phone.py`` in its own process; ``{}`` when Chromium is missing."""
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fairness_phone.py"), "--races",
                           str(args.phone_races), "--seed", str(args.seed)], cwd=ROOT, stdout=subprocess.PIPE,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    for line in lines[:-1]:
        print(line)
    try:
        return json.loads(lines[-1]) if proc.returncode == 0 and lines else {}
    except ValueError:
        return {}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer races and presses (under a minute)")
    p.add_argument("--races", type=int, default=None, help="races per configuration (default 900; quick 40)")
    p.add_argument("--presses", type=int, default=None, help="honest presses per run (default 1000; quick 40)")
    p.add_argument("--lie-share", type=float, default=0.08)
    p.add_argument("--max-s", type=float, default=None, help="stop after this many seconds anyway")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--config", help="server config file (default: config.yaml)")
    p.add_argument("--server-log", default=os.devnull)
    p.add_argument("--dump", help="write every race as JSON lines to this file")
    p.add_argument("--phone-races", type=int, default=None,
                   help="equal races of the phone page against a near client (fairness_phone.py; "
                        "default 400, quick 60; 0 = none)")
    p.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                   help="override a server config value (an experiment), e.g. timing.rtt_bound_cap_ms=200")
    args = p.parse_args()
    args.races = args.races or (40 if args.quick else 700)
    args.presses = args.presses or (40 if args.quick else 1000)
    if args.phone_races is None:
        args.phone_races = 60 if args.quick else 400
    args.max_s = args.max_s or (50.0 if args.quick else 840.0)
    if args.quick:
        args.lie_share = max(args.lie_share, 0.2)

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
            bench = Bench(reactor, args, port)
            procs = yield bench.run()
            wall = time.monotonic() - t0
            if args.dump:
                with open(args.dump, "w", encoding="utf-8") as f:
                    for race in bench.races():
                        f.write(json.dumps(race, default=str) + "\n")
            result = report(bench, procs, config["timing"], proc_cpu_s(server.pid), wall)
            if args.phone_races > 0:  # the phone page in headless Chromium (fairness_phone.py)
                result.update(phone_races(args))
            print(json.dumps(result, sort_keys=True), flush=True)

        task.react(run)
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
