"""Bot strength: FamigliaBot against RandomBot over seeded Famiglia matches.

Match ``i`` uses seed ``i``; FamigliaBot sits in seat ``i % 2`` and the first player is
``(i // 2) % 2``, so both seats and both turn orders are played equally often. Each bot
sees only its seat's view and events (``events_for``), as on the server.

Usage: ``.venv/bin/python benchmarks/famiglia_bot_vs_random.py [--matches 200] [--seed0 0]``.
Prints one line per 50 matches, the win rate (ties counted apart), and as its last line
a JSON object ``{"win_rate", "matches", "wins", "losses", "draws", ...}``.
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

from shared.games.famiglia.bot import FamigliaBot  # noqa: E402
from shared.bots.random_bot import RandomBot  # noqa: E402
from shared.games import famiglia as fam  # noqa: E402
from shared.rules import events_for  # noqa: E402


def play(bots: dict[int, Any], seed: int, first: int, max_actions: int = 5000) -> fam.FamigliaState:
    """One match between ``bots`` (seat -> bot); returns the final state."""
    state = fam.new_match({"first_player": first}, seed)
    for seat, bot in bots.items():
        bot.observe([], fam.view(state, seat))
    for _ in range(max_actions):
        if fam.is_over(state):
            return state
        seat = state.turn
        legal = fam.legal_actions(state, seat)
        decision = bots[seat].decide(fam.view(state, seat), legal)
        state, events = fam.apply(state, seat, decision.action)
        for p, bot in bots.items():
            bot.observe(events_for(events, p), fam.view(state, p))
    raise RuntimeError(f"match {seed} did not end in {max_actions} actions")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--seed0", type=int, default=0)
    args = ap.parse_args(argv)
    if args.matches < 1:
        raise SystemExit("famiglia_bot_vs_random: no match to play: nothing would be measured")
    wins = losses = draws = 0
    margin = 0
    turns = 0
    reasons = {"deck": 0, "passes": 0}
    t0 = time.perf_counter()
    for i in range(args.matches):
        seed = args.seed0 + i
        smart = i % 2
        first = (i // 2) % 2
        bots = {
            smart: FamigliaBot(smart, random.Random(f"{seed}/{smart}")),
            1 - smart: RandomBot(1 - smart, random.Random(f"{seed}/{1 - smart}")),
        }
        state = play(bots, seed, first)
        result = fam.scores(state)
        if result["winners"] == [smart]:
            wins += 1
        elif len(result["winners"]) == 2:
            draws += 1
        else:
            losses += 1
        margin += result["scores"][smart] - result["scores"][1 - smart]
        turns += state.turn_no
        reasons[result["reason"]] += 1
        if (i + 1) % 50 == 0:
            print(f"{i + 1:4d} matches: {wins} wins, {losses} losses, {draws} draws", flush=True)
    n = args.matches
    out = {
        "win_rate": round(wins / n, 4),
        "matches": n,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "mean_vp_margin": round(margin / n, 2),
        "mean_turns": round(turns / n, 1),
        "end_reasons": reasons,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(f"FamigliaBot vs RandomBot: {100 * wins / n:.1f} % wins, {100 * losses / n:.1f} % losses, "
          f"{100 * draws / n:.1f} % draws over {n} matches")
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
