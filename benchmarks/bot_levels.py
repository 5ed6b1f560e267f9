"""How much stronger each bot level is than the one below, and what its decisions cost.

    .venv/bin/python benchmarks/bot_levels.py [--quick] [--pairs N] [--games omerta,...]

For each game (``omerta``, ``famiglia``, ``family_business``, ``mafiosi``) and each
comparison -- hard against normal, normal against easy -- it plays **paired,
seat-rotated** matches in-process (:mod:`shared.sim`, bots at their levels, no think
time): deal ``i`` (match seed ``seed0 + i``) is played twice, the two levels on
alternate seats, then with the seats swapped, so luck of the deal and of the seat
cancels out. Each level holds half the seats, so its fair share is 0.5. Deals per
comparison: 200 (Mafiosi 60, i.e. 480 rounds), or ``--pairs``; ``--quick`` plays a few
(very few of the searching hard bots': its hard figures are a smoke test, not a measure).

* **win share** of the stronger level: for each match the share of its winners that are
  its seats (a shared win counts split); Mafiosi counts rounds (each round's winners), as
  its matches are few rounds long. Printed with a 95 % interval over the pairs (normal
  approximation of the pair means); ``<comparison>_delta`` = share - 0.5.
* **decision CPU** per level: ``time.process_time`` around each ``decide`` (ms), p50 and
  p99 over every decision of every match; a hard bot's search (its
  :class:`shared.bots.search.Think`, run in-process by ``resolve``) counts in it.
* **reactor stall** (games with a hard bot only): ten tables of four hard bots played at
  once in a running Twisted reactor, one simulator step per reactor turn, while a probe
  scheduled every 10 ms records how late it fires: the longest lateness (ms, wall time:
  the one figure here that is wall time, as a stall is what a player feels). The hard
  bots' searches run in the reactor thread here (``resolve``), so this is the cost of
  their decisions between two network reads when nothing moves them to a worker.

A game without a hard bot of its own yet (its hard level plays as normal) reports
``null`` for ``hard_vs_normal_delta``, ``hard_decision_ms_p50``/``p99`` and
``reactor_stall_ms_max``, and says so. Beside them, the fixed reference workload
(``benchmarks/reference.py``) timed in the same run: ``reference_ms``.

The last line is one JSON object: per game ``{hard_vs_normal_delta,
normal_vs_easy_delta, hard_decision_ms_p50, hard_decision_ms_p99,
reactor_stall_ms_max, ...}`` under the game's name, and ``reference_ms``. Exits non-zero
when no match was played.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import tools.sandbox  # noqa: F401,E402  (a private data dir: never the player's replays)

from shared import games as registry  # noqa: E402
from shared.bots import make_bot  # noqa: E402
from shared.bots import search as _search  # noqa: E402
from shared.bots.search import resolve  # noqa: E402

_search.CPU_CLOCK = time.thread_time  # the searches keep to their CPU budget, as in the server's workers
from shared.sim import _Match  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference import Reference  # noqa: E402

#: game -> (engine config, whether the game has a hard bot of its own yet)
GAMES: dict[str, tuple[dict[str, Any], bool]] = {
    "omerta": ({"seats": 4}, True),
    "famiglia": ({"seats": 2}, True),
    "family_business": ({"seats": 4}, False),
    "mafiosi": ({"seats": 4}, True),
}
COMPARISONS = (("hard", "normal"), ("normal", "easy"))


class Timed:
    """A bot whose ``decide`` calls are timed (CPU ms appended to ``times``)."""

    def __init__(self, bot: Any, times: list[float]):
        self.bot, self.seat, self.times = bot, bot.seat, times

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        self.bot.observe(events, view)

    def decide(self, view: dict[str, Any], legal: list[Any]) -> Any:
        t0 = time.process_time()
        d = resolve(self.bot.decide(view, legal))  # a hard bot's search counts in its decision
        self.times.append((time.process_time() - t0) * 1000.0)
        return d


def _bots(game: str, seed: int, levels: list[str], times: dict[str, list[float]]) -> list[Any]:
    return [Timed(make_bot(game, p, f"{seed}/{p}", {"think_ms": 0}, level=lv), times[lv])
            for p, lv in enumerate(levels)]


def _share(game: str, state: Any, rules: Any, mine: set[int]) -> tuple[float, int]:
    """(wins of the seats ``mine``, counted split, and the number of contests): rounds
    for Mafiosi, the match otherwise."""
    result = rules.scores(state)
    contests = result["round_winners"] if game == "mafiosi" else [result["winners"]]
    won = sum(len(set(w) & mine) / len(w) for w in contests if w)
    return won, len(contests)


def compare(game: str, strong: str, weak: str, pairs: int, seed0: int,
            times: dict[str, list[float]]) -> dict[str, Any]:
    """Paired, seat-rotated matches of ``strong`` against ``weak`` (see the module
    docstring): ``{share, low, high, delta, pairs, contests}``."""
    config, _ = GAMES[game]
    rules = registry.game_def(game).rules
    n = int(config["seats"])
    pair_shares: list[float] = []
    contests_total = 0
    for i in range(pairs):
        seed = seed0 + i
        won = contests = 0.0
        for rotation in (0, 1):
            levels = [strong if (p + rotation) % 2 == 0 else weak for p in range(n)]
            m = _Match(rules, config, seed, _bots(game, seed, levels, times), 200_000, None)
            rec = m.run()
            w, c = _share(game, rec.state, rules, {p for p in range(n) if levels[p] == strong})
            won += w
            contests += c
        contests_total += int(contests)
        if contests:
            pair_shares.append(won / contests)
    if not pair_shares:
        return {"share": None, "low": None, "high": None, "delta": None, "pairs": 0, "contests": 0}
    mean = statistics.fmean(pair_shares)
    half = (1.96 * statistics.stdev(pair_shares) / math.sqrt(len(pair_shares))
            if len(pair_shares) > 1 else float("nan"))
    return {"share": mean, "low": mean - half, "high": mean + half, "delta": mean - 0.5,
            "pairs": len(pair_shares), "contests": contests_total}


def reactor_stall(game: str, tables: int = 10, seed0: int = 10_000) -> float:
    """The longest lateness (ms, wall) of a 10 ms probe in a Twisted reactor while
    ``tables`` matches of hard bots play, one simulator step per reactor turn."""
    from twisted.internet import reactor, task

    config, _ = GAMES[game]
    rules = registry.game_def(game).rules
    n = int(config["seats"])
    sink: dict[str, list[float]] = {"hard": []}
    matches = [_Match(rules, config, seed0 + t, _bots(game, seed0 + t, ["hard"] * n, sink), 200_000, None)
               for t in range(tables)]
    worst = [0.0]
    last = [time.perf_counter()]
    live = set(range(tables))

    def probe() -> None:
        now = time.perf_counter()
        worst[0] = max(worst[0], (now - last[0]) * 1000.0 - 10.0)
        last[0] = now

    def step(t: int) -> None:
        m = matches[t]
        if rules.is_over(m.record.state) or not m.clock.run_next():
            m.close()
            live.discard(t)
            if not live:
                loop.stop()
                reactor.stop()
            return
        reactor.callLater(0, step, t)

    for t, m in enumerate(matches):
        m.broadcast([])
        reactor.callLater(0, step, t)
    loop = task.LoopingCall(probe)
    loop.start(0.010, now=False)
    reactor.run(installSignalHandlers=False)
    return max(0.0, worst[0])


def _pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=None,
                        help="paired deals per game and comparison (2 matches each); default "
                             "200 (Mafiosi 60: 480 rounds)")
    parser.add_argument("--quick", action="store_true", help="a few deals per game (under 3 minutes)")
    parser.add_argument("--seed0", type=int, default=0)
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        raise SystemExit(f"bot_levels: unknown game(s) {', '.join(unknown)}")
    # (hard against normal, normal against easy): the searching hard bots cost most, so
    # the quick run plays few of their deals (about 2.5 min of CPU on a 2-core laptop for
    # the four games; the full run: about 40 min, most of it Famiglia's and Mafiosi's
    # searches)
    quick_pairs = {"omerta": (60, 60), "famiglia": (8, 50), "family_business": (40, 40),
                   "mafiosi": (3, 50)}
    full_pairs = {"omerta": 200, "famiglia": 200, "family_business": 200, "mafiosi": 60}
    out: dict[str, Any] = {}
    ref = Reference()
    played = 0
    stall_run = False
    for game in games:
        ref.sample()
        config, has_hard = GAMES[game]
        if args.quick:
            pairs_of = dict(zip(("hard", "normal"), quick_pairs[game]))
        else:
            pairs_of = dict.fromkeys(("hard", "normal"), full_pairs[game] if args.pairs is None else args.pairs)
        times: dict[str, list[float]] = {"easy": [], "normal": [], "hard": []}
        res: dict[str, Any] = {}
        unit = "rounds" if game == "mafiosi" else "matches"
        print(f"{game} ({config['seats']} seats, {pairs_of['hard']} / {pairs_of['normal']} deals x 2 "
              "seatings for hard / normal against the level below):", flush=True)
        for strong, weak in COMPARISONS:
            key = f"{strong}_vs_{weak}"
            if strong == "hard" and not has_hard:
                print(f"  {key}: no hard bot of its own yet (hard plays as normal): not measured")
                res[f"{key}_delta"] = None
                continue
            t0 = time.process_time()
            r = compare(game, strong, weak, pairs_of[strong], args.seed0, times)
            played += r["pairs"]
            if r["share"] is None:
                res[f"{key}_delta"] = None
                continue
            print(f"  {strong} against {weak}: {strong} wins {100 * r['share']:.1f} % of {r['contests']} "
                  f"{unit} (95 % interval {100 * r['low']:.1f}-{100 * r['high']:.1f} %, fair 50 %), "
                  f"delta {100 * r['delta']:+.1f} points; {time.process_time() - t0:.1f} s CPU", flush=True)
            res[f"{key}_delta"] = round(r["delta"], 4)
            res[f"{key}_share_low"] = round(r["low"], 4)
            res[f"{key}_share_high"] = round(r["high"], 4)
            res[f"{key}_contests"] = r["contests"]
        for level in ("easy", "normal", "hard"):
            xs = times[level]
            if xs and (level != "hard" or has_hard):
                print(f"  {level} decision CPU: p50 {_pct(xs, 0.5):.3f} ms, p99 {_pct(xs, 0.99):.3f} ms, "
                      f"max {max(xs):.2f} ms over {len(xs)} decisions")
                res[f"{level}_decision_ms_p50"] = round(_pct(xs, 0.5) or 0.0, 4)
                res[f"{level}_decision_ms_p99"] = round(_pct(xs, 0.99) or 0.0, 4)
        if not has_hard:
            res["hard_decision_ms_p50"] = res["hard_decision_ms_p99"] = None
            res["reactor_stall_ms_max"] = None
            print("  hard decisions and reactor stall: no hard bot yet: null")
        elif not times["hard"]:
            res["hard_decision_ms_p50"] = res["hard_decision_ms_p99"] = None
            res["reactor_stall_ms_max"] = None  # nothing was played: nothing to stall for
            print("  hard decisions and reactor stall: no match played: null")
        elif stall_run:
            res["reactor_stall_ms_max"] = None  # a stopped reactor cannot run again in one process
            print("  reactor stall: measured for the first game with a hard bot only")
        else:
            stall = reactor_stall(game)
            stall_run = True
            res["reactor_stall_ms_max"] = round(stall, 2)
            print(f"  reactor stall, 10 tables of {config['seats']} hard bots: longest {stall:.2f} ms (wall)")
        out[game] = res
    ref.sample()
    print(ref.line())
    out["reference_ms"] = round(ref.ms, 3)
    out["quick"] = bool(args.quick)
    out["clock"] = "process_time (stall: wall)"
    print(json.dumps(out))
    if not played:
        raise SystemExit("bot_levels: no match was played: nothing was measured")
    return out


if __name__ == "__main__":
    main()
