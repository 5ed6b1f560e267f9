"""Does a table of hard bots stall the server? The reactor's longest stall while hard bots
search, against the same tables of normal bots.

    .venv/bin/python benchmarks/bot_stall.py [--game mafiosi] [--tables 10] [--seconds 8]
                                             [--spin-ms 0] [--workers 0]

A real server lobby (:class:`server.lobby.Lobby` on the running reactor's clock, no
sockets, no data directory) holds ``--tables`` tables of four bots (the game's most
seats if fewer), started at once; their bots play through :class:`server.match.standins.StandIns`
as in production, with a 0 ms think time so that they play as fast as they can. Hard bots
search in the worker pool (:mod:`server.thinkers`, ``--workers`` processes, 0 = one per
core minus one). The hard bots search as they do in play (``--spin-ms 0``, the default);
``--spin-ms N`` makes each hard decision a search that spins a worker's CPU N ms instead
(``shared.bots.search``'s self-test request) and then plays the bot's own choice -- a
fixed, heavier load for comparisons.

A probe runs every 5 ms on the reactor and records how late it fires; the figure is the
longest lateness (ms, wall time: a stall is what a player feels), over ``--seconds`` of
play with hard bots, then over as long with normal bots (the reference). Beside it, the
reactor thread's own CPU time during that longest interval (``time.thread_time``): a
stall much longer than its CPU is the machine's scheduler (other processes, the workers
themselves on a machine with few cores), not work on the reactor. Matches that end
meanwhile are not replaced.

The last line is one JSON object: ``{"<game>": {"reactor_stall_ms_max",
"reactor_stall_cpu_ms", "reference_stall_ms_max", "reference_stall_cpu_ms", "searches",
"search_failures", "actions", "reference_actions", "probes"}, "tables", "seconds",
"spin_ms", "workers"}``. Exits non-zero when it measured nothing (no probe, no action,
or hard bots that never searched).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import tools.sandbox  # noqa: F401,E402  (a private data dir: never the player's replays)

from shared.bots.base import Decision  # noqa: E402
from shared.bots.search import ECHO, Think  # noqa: E402
from shared.config import merge  # noqa: E402
from shared.games import game_def  # noqa: E402

#: the probe's period (s)
PROBE_S = 0.005


class Spinning:
    """A hard bot whose every decision is a search of ``spin_ms`` ms in a worker, that
    then plays the bot's own choice (its fallback too)."""

    def __init__(self, inner: Any, rules: Any, spin_ms: float):
        self.inner, self.rules, self.spin_ms, self.seat = inner, rules, spin_ms, inner.seat

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        self.inner.observe(events, view)

    def decide(self, view: dict[str, Any], legal: list[Any]) -> Any:
        d = self.inner.decide(view, legal)
        if d is None or isinstance(d, Think):
            return d
        rules = self.rules
        return Think({"game": ECHO, "answer": d.action.to_dict(), "spin_ms": self.spin_ms,
                      "budget_ms": 1000}, d,
                     lambda result: Decision(rules.ACTIONS.parse(result), d.delay_ms, d.claim))


class Creator:
    """The connection that creates the tables (it never sits)."""

    name = "bench"
    conn_id = 0
    clock_offset_ms = None

    def push(self, msg_type: str, **fields: Any) -> None:
        pass

    def rtt_bound_ms(self) -> float:
        return 0.0

    def set_playing(self, playing: bool) -> None:
        pass


def run(game: str, tables: int, seconds: float, spin_ms: float, workers: int) -> dict[str, Any]:
    """Both phases on one running reactor; the figures (see the module docstring)."""
    from twisted.internet import defer, reactor, task

    from server.app import MonotonicClock
    from server.lobby import Lobby
    from server.match import standins
    from server.thinkers import Thinkers, default_size

    d = game_def(game)
    seats = min(4, d.max_seats)
    config = merge({"server": {"name": "bench", "max_tables": 2 * tables + 10, "think_workers": workers}})
    lobby = Lobby(config, MonotonicClock(reactor), testing=False, data_dir=None)
    lobby.thinkers = Thinkers(reactor, default_size(workers))
    made = standins.make_bot

    def make(game_name: str, seat: int, **kw: Any) -> Any:
        bot = made(game_name, seat, **kw)
        if kw.get("level") == "hard" and spin_ms > 0:
            return Spinning(bot, d.rules, spin_ms)
        return bot

    standins.make_bot = make  # type: ignore[attr-defined]
    out: dict[str, Any] = {}

    def phase(level: str) -> defer.Deferred:
        worst, probes, last = [0.0, 0.0], [0], [time.perf_counter(), time.thread_time()]

        def probe() -> None:
            now, cpu = time.perf_counter(), time.thread_time()
            late = (now - last[0] - PROBE_S) * 1000.0
            if late > worst[0]:  # and how much of it the reactor itself was running
                worst[0], worst[1] = late, (cpu - last[1]) * 1000.0
            probes[0] += 1
            last[0], last[1] = now, cpu

        made_tables = []
        for i in range(tables):
            t = lobby.create_table(Creator(), game, seats, f"{level} {i}", {"bot_think_ms": 0})
            for _ in range(seats):
                t.add_bot(None, level)
            made_tables.append(t)
        loop = task.LoopingCall(probe)
        last[0], last[1] = time.perf_counter(), time.thread_time()
        loop.start(PROBE_S, now=False)

        def done(_: Any) -> dict[str, Any]:
            loop.stop()
            actions = sum(len(t.actions) for t in made_tables)
            for t in made_tables:
                t.close()
            return {"stall_ms_max": round(max(0.0, worst[0]), 2), "stall_cpu_ms": round(worst[1], 2),
                    "probes": probes[0], "actions": actions}

        return task.deferLater(reactor, seconds, lambda: None).addCallback(done)

    @defer.inlineCallbacks
    def both() -> Any:
        try:
            hard = yield phase("hard")
            searches, failures = lobby.thinkers.searches, lobby.thinkers.failures
            normal = yield phase("normal")
            out.update({"reactor_stall_ms_max": hard["stall_ms_max"],
                        "reactor_stall_cpu_ms": hard["stall_cpu_ms"],
                        "reference_stall_ms_max": normal["stall_ms_max"],
                        "reference_stall_cpu_ms": normal["stall_cpu_ms"],
                        "searches": searches, "search_failures": failures,
                        "actions": hard["actions"], "reference_actions": normal["actions"],
                        "probes": hard["probes"] + normal["probes"]})
        finally:
            yield lobby.thinkers.stop()
            reactor.stop()

    reactor.callWhenRunning(both)
    reactor.run()  # with its signal handlers: the workers' exits are reaped (SIGCHLD)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="mafiosi")
    p.add_argument("--tables", type=int, default=10)
    p.add_argument("--seconds", type=float, default=8.0)
    p.add_argument("--spin-ms", type=float, default=0.0)
    p.add_argument("--workers", type=int, default=0)
    args = p.parse_args(argv)
    figures = run(args.game, args.tables, args.seconds, args.spin_ms, args.workers)
    print(f"{args.game}: {args.tables} tables, {args.seconds:g} s each way")
    if figures:
        print(f"  hard bots:   longest reactor stall {figures['reactor_stall_ms_max']:.2f} ms, "
              f"{figures['reactor_stall_cpu_ms']:.2f} ms of it the reactor's own CPU "
              f"({figures['actions']} actions, {figures['searches']} searches, "
              f"{figures['search_failures']} failed or late)")
        print(f"  normal bots: longest reactor stall {figures['reference_stall_ms_max']:.2f} ms, "
              f"{figures['reference_stall_cpu_ms']:.2f} ms of it its own CPU "
              f"({figures['reference_actions']} actions)")
    from server.thinkers import default_size
    out = {args.game: figures, "tables": args.tables, "seconds": args.seconds,
           "spin_ms": args.spin_ms, "workers": default_size(args.workers)}
    print(json.dumps(out))
    if (not figures or figures["probes"] == 0 or figures["actions"] == 0
            or figures["reference_actions"] == 0 or figures["searches"] == 0):  # hard bots that never searched
        print("measured nothing", file=sys.stderr)
        raise SystemExit(1)
    return out


if __name__ == "__main__":
    main()
