"""How fast the engines and the bots play whole matches in-process, in CPU time.

    .venv/bin/python benchmarks/selfplay.py [--matches 100] [--replays 3] [--games omerta,famiglia,...]

Everything is measured with ``time.process_time`` (CPU time of this process), not wall
time, which a busy machine distorts. For each game it prints:

* **self-play**: whole matches per second between the game's own bots, as the simulator
  (:func:`shared.sim.play_match`) drives them: engine, the view and legal actions of every
  seat after every action, and the bots' decisions -- what smarter bots cost;
* **engine only** (Omerta, and the others alike): the self-play matches' logs replayed
  through ``apply`` alone, ``--replays`` times (matches per second and µs per ``apply``);
* **engine + views**: the same replay, also computing every seat's view and legal
  actions after each action, as the server does.

Beside them, a fixed reference workload (``benchmarks/reference.py``: plain Python,
none of this project's code) timed between the games in the same run:
``reference_ms``, and each game's CPU per match divided by it
(``<game>_selfplay_match_over_reference``, ``<game>_engine_match_over_reference``,
``<game>_engine_views_match_over_reference``): the figures moved 1.3-2x within one
hour on a shared machine, these ratios should not.

The last line is one JSON object: ``omerta_engine_matches_per_s``,
``omerta_selfplay_matches_per_s``, ``famiglia_selfplay_matches_per_s``, ... (one
``<game>_engine_matches_per_s``, ``<game>_engine_apply_us``,
``<game>_engine_views_matches_per_s`` and ``<game>_selfplay_matches_per_s`` per game).
Match ``i`` uses seed ``i`` and the bots' seeds ``f"{i}/{seat}"``, so every run plays the
same matches.
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

from shared import games as registry  # noqa: E402
from shared.bots import make_bot  # noqa: E402
from shared.sim import play_match  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference import Reference  # noqa: E402

#: (game, config) in the order printed; seats as usually played.
GAMES: dict[str, dict[str, Any]] = {
    "omerta": {"seats": 4},
    "famiglia": {"seats": 2},
    "family_business": {"seats": 4},
    "mafiosi": {"seats": 4},
}


def selfplay(game: str, config: dict[str, Any], matches: int) -> tuple[float, list[list]]:
    """CPU seconds for ``matches`` bot matches, and their logs."""
    rules = registry.game_def(game).rules
    seats = int(config["seats"])
    logs = []
    cpu = 0.0
    for seed in range(matches):
        bots = [make_bot(game, p, f"{seed}/{p}", {"think_ms": 0}) for p in range(seats)]
        t0 = time.process_time()
        record = play_match(rules, config, seed, bots)
        cpu += time.process_time() - t0
        logs.append(record.log)
    return cpu, logs


def replay_engine(game: str, config: dict[str, Any], logs: list[list], views: bool) -> float:
    """CPU seconds to replay every log from its seed through ``apply`` (and, with
    ``views``, every seat's view and legal actions after each action)."""
    rules = registry.game_def(game).rules
    apply, new_match = rules.apply, rules.new_match
    view, legal_actions = rules.view, rules.legal_actions
    seats = range(int(config["seats"]))
    t0 = time.process_time()
    for seed, log in enumerate(logs):
        state = new_match(config, seed)
        for seat, action in log:
            state, _ = apply(state, seat, action)
            if views:
                for p in seats:
                    view(state, p)
                    legal_actions(state, p)
    return time.process_time() - t0


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100, help="self-play matches per game")
    parser.add_argument("--replays", type=int, default=3, help="times the logs are replayed")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    args = parser.parse_args(argv)
    if args.matches < 1:
        raise SystemExit("selfplay: --matches must be at least 1: nothing would be measured")
    out: dict[str, Any] = {}
    ref = Reference()
    per_game: dict[str, tuple[float, float, float]] = {}  # CPU s per match: self-play, engine, engine+views
    for game in args.games.split(","):
        ref.sample()  # between the games: the reference sees the same machine
        config = GAMES[game]
        cpu, logs = selfplay(game, config, args.matches)
        actions = sum(len(log) for log in logs)
        sp = args.matches / cpu
        eng = min(replay_engine(game, config, logs, False) for _ in range(args.replays))
        ev = min(replay_engine(game, config, logs, True) for _ in range(max(1, args.replays - 1)))
        eng_per_s = args.matches / eng
        apply_us = eng / actions * 1e6
        ev_per_s = args.matches / ev
        print(f"{game} ({config['seats']} seats, {args.matches} matches, "
              f"{actions / args.matches:.0f} actions per match), CPU time:")
        print(f"  self-play (bots + engine + views): {sp:8.1f} matches/s")
        print(f"  engine only (replayed logs):        {eng_per_s:8.1f} matches/s "
              f"({apply_us:.1f} µs per apply)")
        print(f"  engine + every seat's view & legal: {ev_per_s:8.1f} matches/s")
        out[f"{game}_selfplay_matches_per_s"] = round(sp, 2)
        out[f"{game}_engine_matches_per_s"] = round(eng_per_s, 2)
        out[f"{game}_engine_apply_us"] = round(apply_us, 2)
        out[f"{game}_engine_views_matches_per_s"] = round(ev_per_s, 2)
        if not actions:
            raise SystemExit(f"selfplay: {game}'s matches had no action: nothing was measured")
        per_game[game] = (cpu / args.matches, eng / args.matches, ev / args.matches)
    ref.sample()
    print(ref.line())
    print("  in reference units (CPU per match / reference CPU; steady when the machine is not):")
    for game, (sp_s, eng_s, ev_s) in per_game.items():
        r = ref.ms / 1000.0
        print(f"  {game:>16}: self-play {sp_s / r:8.2f}, engine {eng_s / r:8.3f}, engine + views {ev_s / r:8.2f}")
        out[f"{game}_selfplay_match_over_reference"] = round(sp_s / r, 3)
        out[f"{game}_engine_match_over_reference"] = round(eng_s / r, 4)
        out[f"{game}_engine_views_match_over_reference"] = round(ev_s / r, 3)
    out["reference_ms"] = round(ref.ms, 3)
    out["reference_spread"] = round(ref.spread(), 3)
    out["matches"] = args.matches
    out["clock"] = "process_time"
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
