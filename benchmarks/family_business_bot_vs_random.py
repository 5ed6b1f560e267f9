"""Bot strength and engine speed: the Family Business bot against random legal-move
players.

Match ``i`` at ``n`` players uses seed ``i``; the bot sits in seat ``i % n`` (the first
player is random, D-FB-2), the other seats are :class:`RandomBot`. Matches run through
``shared.sim.play_match`` (virtual time, each bot sees only its seat's view and events;
window answers are ordered by their reaction delays as the server's arbiter would).
A shared win counts ``1 / len(winners)``.

Usage: ``.venv/bin/python benchmarks/family_business_bot_vs_random.py [--matches 400]
[--quick]``. Prints one line per player count with the win rate beside the fair share
``1/n``, then engine speed in whole matches per second of CPU time (random players
only, ``time.process_time``), and as its last line one JSON object.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import tools.sandbox  # noqa: F401,E402  (a private data dir: never the player's replays)

from shared.bots.base import ReactionModel  # noqa: E402
from shared.bots.random_bot import RandomBot  # noqa: E402
from shared.games import family_business as fb  # noqa: E402
from shared.sim import play_match  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference import Reference  # noqa: E402


def win_rate(n: int, matches: int, seed0: int = 0) -> dict[str, Any]:
    wins = 0.0
    turns = 0
    for i in range(matches):
        seed = seed0 + i
        smart = i % n
        bots = [fb.make_bot(p, random.Random(f"{seed}/{p}"), ReactionModel(), 0.0) if p == smart
                else RandomBot(p, random.Random(f"{seed}/{p}")) for p in range(n)]
        rec = play_match(fb, {"seats": n}, seed, bots)
        result = fb.scores(rec.state)
        if smart in result["winners"]:
            wins += 1 / len(result["winners"])
        turns += result["turns"]
    return {"seats": n, "matches": matches, "win_rate": round(wins / matches, 4),
            "fair_share": round(1 / n, 4), "ratio": round(wins / matches * n, 2),
            "mean_turns": round(turns / matches, 1)}


def engine_speed(n: int, matches: int) -> float:
    """Whole matches per CPU second, random legal moves applied directly (no views)."""
    t0 = time.process_time()
    for seed in range(matches):
        rng = random.Random(seed)
        s = fb.new_match({"seats": n}, seed)
        while not fb.is_over(s):
            seats = sorted(fb.awaiting(s))
            seat = rng.choice(seats)
            s, _ = fb.apply(s, seat, rng.choice(fb.legal_actions(s, seat)))
    return matches / (time.process_time() - t0)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=400)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="40 matches per player count")
    args = ap.parse_args(argv)
    matches = 40 if args.quick else args.matches
    if matches < 1:
        raise SystemExit("family_business_bot_vs_random: no match to play: nothing would be measured")
    out: dict[str, Any] = {"matches": matches, "results": []}
    for n in (2, 4, 6):
        r = win_rate(n, matches, args.seed0)
        out["results"].append(r)
        print(f"{n} players: bot wins {100 * r['win_rate']:.1f} % (fair share "
              f"{100 * r['fair_share']:.1f} %, x{r['ratio']}) over {matches} matches, "
              f"{r['mean_turns']} turns per match", flush=True)
    ref = Reference()
    ref.sample()
    speed = {str(n): round(engine_speed(n, 20 if args.quick else 100), 1) for n in (2, 4, 6)}
    ref.sample()
    out["engine_matches_per_cpu_s"] = speed
    # CPU per match in units of the fixed reference workload timed in this run
    out["engine_match_over_reference"] = {n: round(1000.0 / v / ref.ms, 3) for n, v in speed.items()}
    out["reference_ms"] = round(ref.ms, 3)
    print("engine speed (random legal moves, CPU time): "
          + ", ".join(f"{n} players {v} matches/s" for n, v in speed.items()))
    print(ref.line() + "; CPU per match over it: "
          + ", ".join(f"{n} players {v}" for n, v in out["engine_match_over_reference"].items()))
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
