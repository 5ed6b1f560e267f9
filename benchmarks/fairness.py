"""Fairness benchmark of the claim arbiter (ARCHITECTURE §3, issue 3). A script, not a test.

    .venv/bin/python benchmarks/fairness.py [--races 100] [--tables 3] [--near-ms 1]
        [--far-ms 80] [--jitter-ms 10] [--gaps 1,2,5,10,20,50]

A real ``mafia-server`` runs in its own process. At each of ``--tables`` Omerta tables
three real TCP clients play: *near* and *far* reach the server through latency relays
(one-way ``near-ms`` and ``far-ms``, each chunk ± ``jitter-ms``, both directions), the
*dealer* directly. Each client's clock has its own arbitrary origin (a skew of seconds),
so the server must really estimate every offset. Every turn draws and discards; each snap
window is one race: near and far press at server times chosen by the benchmark (known
true order, gap from ``--gaps``, first presser at random), each claim stamped with the
client's own clock, the dealer passes at once.

For every gap it prints the share of races won by the truly-first presser with our
arbiter (the first claim the server applied) and with arrival-order resolution on the
same races (which claim the relay handed to the server first); the same share without
the races where this process sent a press more than ``LATE_MS`` late, and among the races
where no claim was refused as too old (a stalled process on a busy machine makes a claim
look older than its connection allows: that is availability, not ordering); then the
decision latency (first claim's arrival -> decision, from ``claim_result.latency_ms``)
and the server's clock-offset error at the presses. The last line is one JSON object.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from twisted.internet import defer, endpoints, protocol, task  # noqa: E402
from twisted.python import failure  # noqa: E402

from client.net import ClientProtocol, now_ms  # noqa: E402
from tools.relay import DelayRelay  # noqa: E402
from shared.config import merge  # noqa: E402
from shared.protocol import encode  # noqa: E402

PRESS_AFTER_MS = 250.0  # presses happen this long after the window's update (far has it by then)
LATE_MS = 20.0  # a press that leaves this process later than this is "disturbed" (busy machine)


class SkewedClient(ClientProtocol):
    """A client whose monotonic clock reads ``now_ms() + skew`` (its own origin)."""

    skew = 0.0

    def lineReceived(self, line: bytes) -> None:
        if line.startswith(b'{"v":1,"type":"ping"'):
            msg = json.loads(line)
            self.transport.write(encode("pong", id=msg["id"], tc=now_ms() + self.skew))
            return
        super().lineReceived(line)


class Player:
    """One connection at one table: plays its turns (draw, discard, decline) and passes
    or claims in windows as the race tells it."""

    def __init__(self, race: "TableRace", role: str):
        self.race = race
        self.role = role
        self.proto: SkewedClient | None = None
        self.seat: int | None = None
        self.busy = False
        self.wait_step = 0
        self.last: dict[str, Any] | None = None

    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind in ("match_started", "update") and msg.get("table") == self.race.table:
            if kind == "match_started":
                self.seat = msg["seat"]
            self.race.on_update(self, msg)
            self.play(msg)
        elif kind == "claim_result":
            self.race.on_claim_result(self, msg)
        elif kind == "match_over":
            self.race.over = True

    def on_disconnect(self, reason: Any) -> None:
        if not self.race.bench.stopping:
            print(f"  {self.role} of table {self.race.index} lost its connection: "
                  f"{reason.getErrorMessage()}", file=sys.stderr)

    def play(self, msg: dict[str, Any]) -> None:
        self.last = msg
        if self.busy or msg.get("step", 0) < self.wait_step:
            return  # an action is in flight, or this update predates its effect
        legal = {a["type"]: a for a in msg["legal"]}
        for kind in ("peek", "discard_drawn", "decline", "draw_deck", "end_turn"):
            if kind in legal:
                self.send(legal[kind])
                return
        window = msg["view"].get("window")
        if "snap_pass" in legal and (self.role == "dealer" or window["window"] not in self.race.races):
            self.send(legal["snap_pass"])  # near and far pass only in windows that are no race
        elif "hitwoman_pass" in legal:
            self.send(legal["hitwoman_pass"])

    def send(self, action: dict[str, Any], t_press: float | None = None) -> None:
        assert self.proto is not None
        self.busy = True
        based_on = self.last.get("step", 0) if self.last else 0
        d = self.proto.send_action(self.race.table, action, t_press=t_press)

        def done(result: Any) -> None:
            # act again only on an update that reflects this action (ack.step), or after
            # an error on one newer than the update the action was based on
            self.busy = False
            if isinstance(result, failure.Failure):
                self.wait_step = based_on + 1
            else:
                self.wait_step = int(result.get("step", 0))
            if self.last is not None:
                self.play(self.last)
            return None

        d.addBoth(done)


class TableRace:
    """Runs races at one table until every gap has its count."""

    def __init__(self, bench: "Bench", index: int):
        self.bench = bench
        self.index = index
        self.table: int | None = None
        self.players = {role: Player(self, role) for role in ("near", "far", "dealer")}
        self.seen_windows: set[int] = set()
        self.races: dict[int, dict[str, Any]] = {}
        self.over = False

    def on_update(self, player: Player, msg: dict[str, Any]) -> None:
        view = msg["view"]
        for e in msg.get("events", []):
            if e["type"] == "snap" and e["window"] in self.races:
                race = self.races[e["window"]]
                race.setdefault("applied", [])
                if e["seat"] not in race["applied"]:
                    race["applied"].append(e["seat"])
        window = view.get("window")
        if not window or window["kind"] != "snap" or window["window"] in self.seen_windows:
            return
        wid = window["window"]
        self.seen_windows.add(wid)
        near, far = self.players["near"], self.players["far"]
        if near.seat not in window["pending"] or far.seat not in window["pending"]:
            return  # one of them cannot snap (no card): not a race
        gap = self.bench.next_gap()
        if gap is None:
            return
        first = random.choice(("near", "far"))
        base = msg["t_server"] + PRESS_AFTER_MS
        presses = {first: base, ("far" if first == "near" else "near"): base + gap}
        self.races[wid] = {"gap": gap, "first": first, "presses": presses, "arrivals": {},
                           "results": {}, "seats": {near.seat: "near", far.seat: "far"}}
        for role, p in presses.items():
            pl = self.players[role]
            slot = view["players"][pl.seat]["slots"][0]["slot"]
            self.bench.reactor.callLater(max(0.0, p - now_ms()) / 1000.0, self._press, pl, wid, slot, p)

    def _press(self, player: Player, wid: int, slot: int, press: float) -> None:
        race = self.races[wid]
        race.setdefault("late", {})[player.role] = now_ms() - press
        race.setdefault("offset_error", {})[player.role] = (
            player.proto.offset_ms + player.proto.skew if player.proto.offset_ms is not None else None)
        self.bench.pending_arrival[(self.index, player.role)] = wid
        player.send({"type": "snap", "slot": slot}, t_press=press + player.proto.skew)

    def on_claim_result(self, player: Player, msg: dict[str, Any]) -> None:
        race = self.races.get(msg["window"])
        if race is not None:
            race["results"][player.role] = msg

    def on_arrival(self, role: str, data: bytes) -> None:
        if b'"snap"' not in data:
            return
        wid = self.bench.pending_arrival.pop((self.index, role), None)
        if wid in self.races:
            self.races[wid]["arrivals"].setdefault(role, time.perf_counter_ns() / 1e6)

    def finished(self) -> list[dict[str, Any]]:
        """Races with both claims resolved."""
        out = []
        for race in self.races.values():
            if len(race["results"]) == 2 and len(race["arrivals"]) == 2:
                applied = race.get("applied", [])
                race["ours"] = race["seats"][applied[0]] if applied else None
                race["arrival"] = min(race["arrivals"], key=race["arrivals"].get)
                race["latency"] = max(r["latency_ms"] for r in race["results"].values())
                out.append(race)
        return out


class Bench:
    def __init__(self, reactor: Any, args: argparse.Namespace):
        self.reactor = reactor
        self.args = args
        self.gaps = [float(g) for g in args.gaps.split(",")]
        self.started = {g: 0 for g in self.gaps}
        self.pending_arrival: dict[tuple[int, str], int] = {}
        self.tables = [TableRace(self, i) for i in range(args.tables)]
        self.rng = random.Random(args.seed)
        self.stopping = False

    def next_gap(self) -> float | None:
        open_gaps = [g for g in self.gaps if self.started[g] < self.args.races]
        if not open_gaps:
            return None
        gap = min(open_gaps, key=lambda g: self.started[g])
        self.started[gap] += 1
        return gap

    def delay(self, base: float):
        jitter = self.args.jitter_ms
        return lambda: max(0.0, base + self.rng.uniform(-jitter, jitter))

    @defer.inlineCallbacks
    def connect(self, port: int, player: Player, name: str, skew: float):
        endpoint = endpoints.TCP4ClientEndpoint(self.reactor, "127.0.0.1", port)

        def build() -> SkewedClient:
            proto = SkewedClient(player)
            proto.skew = skew
            return proto

        proto = yield endpoint.connect(protocol.Factory.forProtocol(build))
        yield proto.request("hello", name=name)
        player.proto = proto
        return proto

    @defer.inlineCallbacks
    def run(self, server_port: int):
        relays = []
        for t in self.tables:
            for role, base in (("near", self.args.near_ms), ("far", self.args.far_ms)):
                relay = DelayRelay(self.reactor, "127.0.0.1", server_port, self.delay(base),
                                   self.delay(base), observe_up=lambda data, t=t, r=role: t.on_arrival(r, data))
                relays.append(self.reactor.listenTCP(0, relay, interface="127.0.0.1"))
                port = relays[-1].getHost().port
                yield self.connect(port, t.players[role], f"{role}{t.index}",
                                   skew=self.rng.uniform(-5e6, 5e6))
            yield self.connect(server_port, t.players["dealer"], f"dealer{t.index}", skew=self.rng.uniform(-5e6, 5e6))
        yield task.deferLater(self.reactor, 1.5, lambda: None)  # clock sync bursts settle
        for t in self.tables:
            dealer = t.players["dealer"].proto
            reply = yield dealer.request("create_table", game="omerta", seats=3,
                                         options={"rounds": 20, "seed": self.rng.randrange(1, 2**31)})
            t.table = reply["table"]["id"]
            for role in ("near", "far", "dealer"):
                yield t.players[role].proto.request("join", table=t.table)
        total = self.args.races * len(self.gaps)
        last, last_change = -1, time.monotonic()
        while True:
            done = sum(len(t.finished()) for t in self.tables)
            if done != last:
                if done // 50 != last // 50:
                    print(f"  {done}/{total} races", file=sys.stderr, flush=True)
                last, last_change = done, time.monotonic()
            if done >= total or all(t.over for t in self.tables):
                break
            if time.monotonic() - last_change > 30:
                print("  no progress for 30 s: stopping with the races so far", file=sys.stderr)
                for t in self.tables:
                    for p in t.players.values():
                        v = p.last["view"] if p.last else {}
                        print(f"  table {t.index} {p.role} seat {p.seat} busy {p.busy} step "
                              f"{p.last and p.last.get('step')} turn {v.get('turn')} "
                              f"{v.get('step')} window {v.get('window')} legal "
                              f"{[a['type'] for a in (p.last or {}).get('legal', [])][:5]}",
                              file=sys.stderr)
                break
            yield task.deferLater(self.reactor, 0.25, lambda: None)
        self.stopping = True
        for t in self.tables:
            for p in t.players.values():
                p.proto.transport.loseConnection()
        for r in relays:
            yield r.stopListening()
        return [race for t in self.tables for race in t.finished()]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    rank = max(1, min(len(ordered), -(-len(ordered) * p // 100)))
    return ordered[int(rank) - 1]


def report(races: list[dict[str, Any]], bench: Bench, config: dict[str, Any]) -> dict[str, Any]:
    args = bench.args
    out: dict[str, Any] = {}
    print(f"near {args.near_ms} ms, far {args.far_ms} ms one-way, ±{args.jitter_ms} ms jitter; "
          f"{len(races)} races at {args.tables} tables")
    print(f"{'gap ms':>7} {'races':>6} {'ours %':>8} {'arrival %':>10} {'refused':>8}")
    for gap in bench.gaps:
        rs = [r for r in races if r["gap"] == gap]
        if not rs:
            continue
        ours = sum(r["ours"] == r["first"] for r in rs) / len(rs)
        arrival = sum(r["arrival"] == r["first"] for r in rs) / len(rs)
        refused = sum(any(x["outcome"] == "refused" for x in r["results"].values()) for r in rs)
        for r in rs:
            for role, x in r["results"].items():
                if x["outcome"] == "refused":
                    print(f"    refused {role}: {x['message']}", file=sys.stderr)
        key = f"{gap:g}ms"
        out[f"correct_ours_{key}"] = round(ours, 4)
        out[f"correct_arrival_{key}"] = round(arrival, 4)
        print(f"{gap:>7g} {len(rs):>6} {100 * ours:>8.1f} {100 * arrival:>10.1f} {refused:>8}")
    if not races:
        print("no race finished")
        return out
    late = [max(r["late"].values()) for r in races]
    disturbed = sum(x > LATE_MS for x in late)
    print(f"harness: a press left this process late by p50 {statistics.median(late):.2f} ms, "
          f"p99 {percentile(late, 99):.2f} ms; {disturbed} races with a press more than "
          f"{LATE_MS:g} ms late (a busy machine; such claims may be refused as too old)")
    calm = [r for r in races if max(r["late"].values()) <= LATE_MS]
    accepted = [r for r in races if all(x["outcome"] != "refused" for x in r["results"].values())]
    print(f"{'gap ms':>7} {'ours % (no harness lateness)':>29} {'ours % (both claims accepted)':>30}")
    for gap in bench.gaps:
        rs = [r for r in calm if r["gap"] == gap]
        ra = [r for r in accepted if r["gap"] == gap]
        if rs:
            out[f"correct_ours_calm_{gap:g}ms"] = round(sum(r["ours"] == r["first"] for r in rs) / len(rs), 4)
        if ra:
            out[f"correct_ours_accepted_{gap:g}ms"] = round(sum(r["ours"] == r["first"] for r in ra) / len(ra), 4)
        print(f"{gap:>7g} {100 * out.get(f'correct_ours_calm_{gap:g}ms', 0):>29.1f} "
              f"{100 * out.get(f'correct_ours_accepted_{gap:g}ms', 0):>30.1f}")
    out["refused_claims"] = sum(x["outcome"] == "refused" for r in races for x in r["results"].values())
    out["disturbed_races"] = disturbed
    lat = [r["latency"] for r in races]
    timing = config["timing"]
    window = float(timing["rtt_bound_cap_ms"]) + float(timing["collection_margin_ms"])
    errors = {role: [abs(r["offset_error"][role]) for r in races
                     if r["offset_error"].get(role) is not None] for role in ("near", "far")}
    if lat:
        out["decision_latency_p50_ms"] = round(statistics.median(lat), 2)
        out["decision_latency_p99_ms"] = round(percentile(lat, 99), 2)
        out["decision_latency_max_ms"] = round(max(lat), 2)
        print(f"decision latency (first claim's arrival -> decision): p50 "
              f"{out['decision_latency_p50_ms']} ms, p99 {out['decision_latency_p99_ms']} ms, "
              f"max {out['decision_latency_max_ms']} ms (configured window: rtt_bound cap "
              f"{timing['rtt_bound_cap_ms']} + margin {timing['collection_margin_ms']} = {window:g} ms)")
    out["configured_window_ms"] = window
    for role, errs in errors.items():
        if errs:
            out[f"offset_error_p99_{role}_ms"] = round(percentile(errs, 99), 3)
    print("server's clock offset error at the presses, p99: " + ", ".join(
        f"{role} {out.get(f'offset_error_p99_{role}_ms')} ms" for role in errors))
    out.update({"races": len(races), "near_ms": args.near_ms, "far_ms": args.far_ms,
                "jitter_ms": args.jitter_ms})
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--races", type=int, default=100, help="races per gap")
    p.add_argument("--tables", type=int, default=3, help="tables racing at once")
    p.add_argument("--near-ms", type=float, default=1.0)
    p.add_argument("--far-ms", type=float, default=80.0)
    p.add_argument("--jitter-ms", type=float, default=10.0)
    p.add_argument("--gaps", default="1,2,5,10,20,50", help="true press gaps in ms")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--config", help="server config file (default: config.yaml)")
    p.add_argument("--server-log", default=os.devnull, help="file for the server's log")
    p.add_argument("--dump", help="write every race as JSON lines to this file")
    args = p.parse_args()
    random.seed(args.seed)

    config_path = args.config or str(ROOT / "config.yaml")
    import yaml

    with open(config_path, encoding="utf-8") as f:
        config = merge(yaml.safe_load(f))
    exe = Path(sys.executable).parent / "mafia-server"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "server.main"]
    server = subprocess.Popen(cmd + ["--host", "127.0.0.1", "--port", "0", "--no-discovery",
                                     "--config", config_path],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=open(args.server_log, "wb"),
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = server.stdout.readline().decode()
        port = int(line.rsplit(":", 1)[1])

        @defer.inlineCallbacks
        def run(reactor):
            bench = Bench(reactor, args)
            races = yield bench.run(port)
            if args.dump:
                with open(args.dump, "w", encoding="utf-8") as f:
                    for race in races:
                        f.write(json.dumps(race, default=str) + "\n")
            result = report(races, bench, config)
            print(json.dumps(result, sort_keys=True), flush=True)

        task.react(run)
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
