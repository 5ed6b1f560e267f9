"""How fast the Omerta engine plays whole matches with bots in-process, on one core.

    .venv/bin/python benchmarks/selfplay.py [--matches 200] [--seats 4]

Prints whole matches per second (engine + bots + views for every seat, as the simulator
drives them) and the mean time of one ``apply`` call (engine only), then one JSON line.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.bots import make_bot  # noqa: E402
from shared.games import omerta as om  # noqa: E402
from shared.sim import play_match  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core

    apply_ns = 0
    applies = 0
    real_apply = om.apply

    def timed_apply(state, seat, action):
        nonlocal apply_ns, applies
        t0 = time.perf_counter_ns()
        try:
            return real_apply(state, seat, action)
        finally:
            apply_ns += time.perf_counter_ns() - t0
            applies += 1

    om.apply = timed_apply
    rounds = 0
    start = time.perf_counter()
    for seed in range(args.matches):
        bots = [make_bot("omerta", p, f"{seed}/{p}", {"think_ms": 0}) for p in range(args.seats)]
        record = play_match(om, {"seats": args.seats}, seed, bots)
        rounds += om.scores(record.state)["rounds"]
    elapsed = time.perf_counter() - start
    om.apply = real_apply

    per_s = args.matches / elapsed
    mean_us = apply_ns / applies / 1000
    print(f"{args.matches} matches of {args.seats} players ({rounds} rounds, {applies} actions) "
          f"in {elapsed:.2f} s on one core")
    print(f"whole matches per second: {per_s:.1f}")
    print(f"mean time per apply: {mean_us:.1f} µs ({applies / args.matches:.0f} applies per match)")
    print(json.dumps({"matches_per_s": round(per_s, 2), "apply_mean_us": round(mean_us, 2),
                      "applies_per_match": round(applies / args.matches, 1), "seats": args.seats}))


if __name__ == "__main__":
    main()
