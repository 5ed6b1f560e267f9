"""Bot strength and engine speed for Mafiosi (RULES.md §4). A script, not a test.

    .venv/bin/python benchmarks/mafiosi_bot_vs_random.py [--matches 400] [--seed0 0] [--quick]

For 3, 4 and 5 players, ``--matches`` seeded matches (match ``i`` uses seed ``seed0 + i``)
with one MafiosiBot in seat ``i % n`` against RandomBots (uniform legal moves). Every bot
sees only its seat's view and events (``events_for``), as on the server. A match won
alone counts 1; a shared victory among ``k`` players counts ``1/k`` of a win. The fair
share is ``1/n``. Engine speed: whole random-vs-random matches per CPU second
(``time.process_time``, engine calls only: ``legal_actions``, ``awaiting``, ``apply``).
``--quick`` plays 40 matches per player count. The last line is one JSON object.
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

from shared.bots.random_bot import RandomBot  # noqa: E402
from shared.games import mafiosi as maf  # noqa: E402
from shared.games.mafiosi.bot import MafiosiBot  # noqa: E402
from shared.rules import events_for  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference import Reference  # noqa: E402


def play(bots: list[Any], seed: int, max_actions: int = 5000) -> maf.MafiosiState:
    """One match between ``bots`` (one per seat); the awaited seats act in seat order."""
    n = len(bots)
    state = maf.new_match({"seats": n}, seed)
    for seat, bot in enumerate(bots):
        bot.observe([], maf.view(state, seat))
    for _ in range(max_actions):
        if maf.is_over(state):
            return state
        seat = min(maf.awaiting(state))
        decision = bots[seat].decide(maf.view(state, seat), maf.legal_actions(state, seat))
        state, events = maf.apply(state, seat, decision.action)
        for p, bot in enumerate(bots):
            bot.observe(events_for(events, p), maf.view(state, p))
    raise RuntimeError(f"match {seed} did not end in {max_actions} actions")


def engine_speed(n: int, matches: int, seed0: int) -> float:
    """Whole random matches per CPU second at ``n`` players (engine only)."""
    t0 = time.process_time()
    for i in range(matches):
        rng = random.Random(seed0 + i)
        state = maf.new_match({"seats": n}, seed0 + i)
        while not maf.is_over(state):
            seat = min(maf.awaiting(state))
            state, _ = maf.apply(state, seat, rng.choice(maf.legal_actions(state, seat)))
    return matches / max(1e-9, time.process_time() - t0)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=400)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="40 matches per player count")
    args = ap.parse_args(argv)
    matches = 40 if args.quick else args.matches
    if matches < 1:
        raise SystemExit("mafiosi_bot_vs_random: no match to play: nothing would be measured")
    ref = Reference()
    out: dict[str, Any] = {"matches_per_count": matches, "shared_victory": "1/k of a win",
                           "by_players": {}}
    t0 = time.process_time()
    for n in (3, 4, 5):
        wins = 0.0
        alone = shared = 0
        round_wins = 0.0
        for i in range(matches):
            seed = args.seed0 + i
            smart = i % n
            bots: list[Any] = [RandomBot(p, random.Random(f"{seed}/{p}")) for p in range(n)]
            bots[smart] = MafiosiBot(smart, random.Random(f"{seed}/{smart}"))
            state = play(bots, seed)
            winners = maf.scores(state)["winners"]
            if smart in winners:
                wins += 1.0 / len(winners)
                alone += len(winners) == 1
                shared += len(winners) > 1
            rounds = maf.scores(state)["round_winners"]
            round_wins += sum(1.0 / len(w) for w in rounds if smart in w) / max(1, len(rounds))
        ref.sample()
        speed = engine_speed(n, max(20, matches // 4), args.seed0)
        rate = wins / matches
        out["by_players"][str(n)] = {
            "win_rate": round(rate, 4), "fair_share": round(1 / n, 4),
            "ratio_to_fair": round(rate * n, 2), "won_alone": alone, "won_shared": shared,
            "round_win_rate": round(round_wins / matches, 4),
            "engine_matches_per_cpu_s": round(speed, 1)}
        print(f"{n} players: bot wins {100 * rate:.1f} % (fair share {100 / n:.1f} %, "
              f"x{rate * n:.2f}; {alone} alone, {shared} shared, shared = 1/k win) over "
              f"{matches} matches; engine {speed:.1f} random matches per CPU second", flush=True)
    out["cpu_seconds"] = round(time.process_time() - t0, 1)
    ref.sample()
    out["reference_ms"] = round(ref.ms, 3)
    for n, fig in out["by_players"].items():  # CPU per match over the reference timed in this run
        fig["engine_match_over_reference"] = round(1000.0 / fig["engine_matches_per_cpu_s"] / ref.ms, 3)
    print(ref.line() + "; engine CPU per match over it: "
          + ", ".join(f"{n} players {f['engine_match_over_reference']}" for n, f in out["by_players"].items()))
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
