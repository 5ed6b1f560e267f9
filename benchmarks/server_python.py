"""The server's own Python per action, without sockets or reactor: what bounds how many
tables one server carries. A script, not a test.

    .venv/bin/python benchmarks/server_python.py              # 25 tables of each game, 3 s of play
    .venv/bin/python benchmarks/server_python.py --games omerta --profile F  # cProfile stats to F

``benchmarks/server_load.py`` measures a real server process: its CPU per action is the
rules and the fan-out *plus* the reactor, the kernel's sends and receives, and the
fsyncs. This script tells the two apart: the same :class:`server.lobby.Lobby` and
:class:`server.protocol.ServerProtocol` the server runs, on Twisted ``StringTransport``s
and a ``task.Clock`` (every 10 ms of play is one ``advance``), N tables of each game --
Omerta (4 seats), Family Business (6), Mafiosi (5), Famiglia (2) --
(seeds 1000, 1001, ...: the same deals every run), seats asking for delta updates
(features ``delta`` and ``steps``) and playing random legal moves at once (a snap claim
with probability 0.25, 150-400 ms after the window's update; else a pass). Only the
server's entry points are timed (``dataReceived`` and ``clock.advance``, CPU time):
what this script's own seats do (decoding every line, choosing) does not count. The
collector runs as in ``mafia-server`` (:class:`server.pacing.CollectorPacing`, started
once the tables are seated): with CPython's default thresholds its full collections
walked every table's state and made the figure grow with the number of tables (131 us
per action at 10 tables, 153-170 at 100, against 102-106 and 125-128 with the server's
collector).

Twice: without match logs (``python_us_per_action``: rules, views, deltas, encoding,
clock sync, arbitration) and with them in a temporary directory on the real disk
(``python_us_per_action_with_log``: plus writing each record and one fsync per log per
10 ms, inline). Beside each game's figure, measured in the same run: a bare Twisted
JSON-lines echo (``LineReceiver`` on the same string transports) of that game's message
pattern -- one action line in, an ack and one update of the game's mean size per seat
out -- and the ratio echo/server (``ratio_echo_over_python``, higher is closer to the
floor): a figure that moves with the machine moves with its reference. Keys without a
suffix are Omerta's; the other games' end in ``_<game>``. The last line is one JSON
object; the run exits 2 when a game played no action.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import tools.sandbox  # noqa: F401,E402  (a private data dir: never the player's replays)

import msgspec  # noqa: E402
from twisted.internet import task  # noqa: E402
from twisted.internet.testing import StringTransport  # noqa: E402
from twisted.protocols.basic import LineReceiver  # noqa: E402

from server.pacing import CollectorPacing  # noqa: E402
from server.lobby import Lobby  # noqa: E402
from server.protocol import ServerProtocol  # noqa: E402
from shared.config import merge  # noqa: E402

_dec = msgspec.json.Decoder()
_enc = msgspec.json.Encoder()


class Timer:
    """CPU seconds spent inside the server's entry points."""

    def __init__(self) -> None:
        self.cpu = 0.0

    def run(self, f: Any, *args: Any) -> Any:
        t = time.process_time()
        try:
            return f(*args)
        finally:
            self.cpu += time.process_time() - t


class Seat:
    """One seat: a ServerProtocol on a StringTransport, and a random player."""

    def __init__(self, lobby: Lobby, timer: Timer, name: str, rng: random.Random):
        self.proto = ServerProtocol(lobby)
        self.transport = StringTransport()
        self.proto.makeConnection(self.transport)
        self.timer = timer
        self.rng = rng
        self.seq = 0
        self.view: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] = []
        self.window: dict[str, Any] | None = None
        self.inflight = False
        self.step = self.wait_step = 0
        self.answered: set[int] = set()
        self.shown: dict[int, float] = {}
        self.claim_at: tuple[int, float] | None = None
        self.updates = self.update_bytes = 0  # update lines read (and their bytes) since play() took them
        self.send("hello", name=name, features=["delta", "steps"])

    def now(self) -> float:
        return self.proto.clock.seconds() * 1000.0

    def send(self, kind: str, **fields: Any) -> None:
        self.seq += 1
        line = _enc.encode({"v": 1, "type": kind, "seq": self.seq, **fields}) + b"\n"
        self.timer.run(self.proto.dataReceived, line)

    def read(self) -> list[dict[str, Any]]:
        raw = self.transport.value()
        self.transport.clear()
        out = []
        for line in raw.split(b"\n"):
            if not line:
                continue
            m = _dec.decode(line)
            kind = m["type"]
            if kind == "ping":
                pong = b'{"v":1,"type":"pong","id":%d,"tc":%r}\n' % (m["id"], m["ts"])
                self.timer.run(self.proto.dataReceived, pong)
                continue
            if kind in ("update", "match_started"):
                self.updates += 1
                self.update_bytes += len(line) + 1
                self.step = m.get("step", 0)
                if "view_set" in m:
                    self.view = {**self.view, **m["view_set"]}
                    for key in m.get("view_unset", ()):
                        self.view.pop(key, None)
                    self.legal = m.get("legal", self.legal)
                else:
                    self.view, self.legal = m["view"], m["legal"]
                self.window = self.view.get("window")
                if self.window is not None:
                    self.shown.setdefault(self.window["window"], self.now())
            elif m.get("re") == self.seq:
                self.inflight = False
                self.wait_step = m.get("step", 0)
            out.append(m)
        return out

    def act(self, table: int) -> bool:
        """Send one action when it may; True when it did."""
        if self.inflight or not self.legal or self.step < self.wait_step:
            return False
        w, now = self.window, self.now()
        if w is not None:
            claims = [a for a in self.legal if a["type"] in w.get("claim_types", ())]
            if self.claim_at is not None and self.claim_at[0] == w["window"]:
                if now < self.claim_at[1] or not claims:
                    return False
                self.claim_at = None
                self.inflight = True
                self.send("action", table=table, action=self.rng.choice(claims), t_press=now,
                          t_shown=self.shown[w["window"]])
                return True
            if w["window"] not in self.answered and (claims or any(a["type"] == w.get("pass_type")
                                                                   for a in self.legal)):
                self.answered.add(w["window"])
                if claims and self.rng.random() < 0.25:
                    self.claim_at = (w["window"], now + self.rng.uniform(150, 400))
                    return False
                self.inflight = True
                self.send("action", table=table, action={"type": w["pass_type"]})
                return True
        choices = [a for a in self.legal if w is None
                   or (a["type"] not in w.get("claim_types", ()) and a["type"] != w.get("pass_type"))]
        if not choices:
            return False
        self.inflight = True
        self.send("action", table=table, action=self.rng.choice(choices))
        return True


#: The games and their seats: each game at the table size that costs its server most.
GAMES = {"omerta": 4, "family_business": 6, "mafiosi": 5, "famiglia": 2}


def play(tables: int, seconds: float, data_dir: Path | None, profile: str | None = None,
         game: str = "omerta", seats_per_table: int = 4) -> dict[str, Any]:
    """Play ``tables`` tables of ``game`` with ``seats_per_table`` seats for ``seconds``
    of simulated time: ``{"actions", "us_per_action"}`` (the server's CPU per action in
    µs) and ``update_bytes`` (the mean size of an update line, bytes)."""
    rng = random.Random(1)
    clock = task.Clock()
    clock.advance(1000)
    timer = Timer()
    config = merge({"server": {"name": "bench", "max_tables": 1000, "max_connections": 4000}})
    lobby = Lobby(config, clock, data_dir=data_dir)
    runs: list[tuple[int, list[Seat]]] = []
    for t in range(tables):
        seats = [Seat(lobby, timer, f"p{t}_{i}", rng) for i in range(seats_per_table)]
        options: dict[str, Any] = {"seed": 1000 + t}
        if game == "omerta":
            options["rounds"] = 20
        seats[0].send("create_table", game=game, seats=seats_per_table, name=f"t{t}", options=options)
        table = next(m for m in seats[0].read() if m.get("re") == seats[0].seq)["table"]["id"]
        for s in seats:
            s.send("join", table=table)
        clock.advance(0.001)
        for s in seats:
            s.read()
        runs.append((table, seats))
    # the collector as mafia-server runs it (server.pacing.CollectorPacing: what the
    # seated tables hold is frozen, young collections every 50,000 allocations); with
    # CPython's defaults the full collections walk every table's match state and the
    # figure would grow with the number of tables for that reason alone
    pacing = CollectorPacing(clock)
    pacing.start()
    timer.cpu = 0.0
    actions = 0
    prof = cProfile.Profile() if profile else None
    if prof is not None:
        prof.enable()
    update_bytes = updates = 0
    for _ in range(int(seconds / 0.01)):
        for table, seats in runs:
            for s in seats:
                s.read()
                actions += s.act(table)
                update_bytes += s.update_bytes
                updates += s.updates
                s.update_bytes = s.updates = 0
        timer.run(clock.advance, 0.01)
    pacing.stop()
    if prof is not None:
        prof.disable()
        prof.dump_stats(profile)
    return {"actions": actions, "us_per_action": round(1e6 * timer.cpu / actions, 1) if actions else None,
            "update_bytes": round(update_bytes / updates) if updates else 0,
            "updates_per_action": round(updates / actions, 2) if actions else None}


class EchoLine(LineReceiver):
    """The bare Twisted JSON-lines echo of ``benchmarks/server_load.py`` on a string
    transport: each ``action`` line is decoded and answered with an ``ack`` and one
    update-sized line to every seat of its table."""

    delimiter = b"\n"
    MAX_LENGTH = 1 << 20

    def __init__(self, group: list["EchoLine"], payload: dict[str, Any]):
        self.group = group
        self.payload = payload

    def lineReceived(self, line: bytes) -> None:
        msg = json.loads(line)
        reply = {"v": 1, "type": "ack", "re": msg.get("seq"), "table": msg.get("table")}
        self.transport.write(json.dumps(reply, separators=(",", ":")).encode() + b"\n")
        if msg.get("type") == "action":
            for i, peer in enumerate(self.group):  # like an update: one encoding per seat
                update = {"v": 1, "type": "update", "table": msg["table"], "seat": i, "view": self.payload,
                          "legal": [], "t_server": time.monotonic() * 1000.0}
                peer.transport.write(json.dumps(update, separators=(",", ":")).encode() + b"\n")


def echo(seats_per_table: int, update_bytes: int, actions: int = 20_000) -> float:
    """The bare echo's CPU per action (µs) with the message pattern of a table of
    ``seats_per_table`` seats and updates of ``update_bytes`` bytes: one action line in,
    an ack and one update per seat out."""
    group: list[EchoLine] = []
    payload = {"pad": "x" * max(0, update_bytes - 200), "cards": list(range(20))}
    for _ in range(seats_per_table):
        proto = EchoLine(group, payload)
        proto.makeConnection(StringTransport())
        group.append(proto)
    lines = [b'{"v":1,"type":"action","seq":%d,"table":1,"action":{"type":"draw_deck"}}\n' % i
             for i in range(actions)]
    t = time.process_time()
    for i, line in enumerate(lines):
        group[i % seats_per_table].dataReceived(line)
        if i % 64 == 63:
            for p in group:
                p.transport.clear()
    return 1e6 * (time.process_time() - t) / actions


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=25)
    p.add_argument("--seconds", type=float, default=3.0, help="simulated seconds of play")
    p.add_argument("--games", default=",".join(GAMES), help="games to play (comma-separated)")
    p.add_argument("--profile", metavar="FILE", help="cProfile stats of Omerta's run without logs to FILE")
    args = p.parse_args()
    out: dict[str, Any] = {"tables": args.tables}
    empty = []
    for game in args.games.split(","):
        seats = GAMES[game]
        bare = play(args.tables, args.seconds, None, args.profile if game == "omerta" else None, game, seats)
        if not bare["actions"]:
            empty.append(game)
            print(f"{game}: no action was played", flush=True)
            continue
        work = Path(tempfile.mkdtemp(prefix="server-python-", dir="/var/tmp"))
        try:
            logged = play(args.tables, args.seconds, work, None, game, seats)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        echo_us = echo(seats, bare["update_bytes"])
        ratio = round(echo_us / bare["us_per_action"], 3) if bare["us_per_action"] else None
        print(f"{game} ({seats} seats, updates {bare['update_bytes']} bytes, {bare['updates_per_action']} per "
              f"action): {bare['actions']} actions, {bare['us_per_action']} us of server CPU per action "
              f"({logged['us_per_action']} us with match logs, fsync inline); a bare Twisted echo of the same "
              f"pattern {echo_us:.1f} us: echo/server {ratio}", flush=True)
        key = "" if game == "omerta" else f"_{game}"
        out.update({f"actions{key}": bare["actions"], f"python_us_per_action{key}": bare["us_per_action"],
                    f"python_us_per_action_with_log{key}": logged["us_per_action"],
                    f"echo_us_per_action{key}": round(echo_us, 1), f"ratio_echo_over_python{key}": ratio})
    print(json.dumps(out))
    if empty:
        print(f"MEASURED NOTHING: no action played in {', '.join(empty)}", file=sys.stderr)
        raise SystemExit(2)


if __name__ == "__main__":
    main()
