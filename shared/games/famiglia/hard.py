"""The hard Famiglia bot: the normal bot's planner proposes, a truncated determinized
search (:mod:`shared.bots.search`, :mod:`shared.games.famiglia.search`) chooses.

At the first decision of a turn's phases (before any Accountant, Brute or recruit: step
0 or 1, renews included) it takes the first actions of the planner's best few plans
(and the renew the normal bot would make) and plays each out in sampled deals, both
seats then playing as the normal bot to the end of the next turns. Later decisions of
the turn follow the normal bot, which the playouts assumed. From its seat's view and
the public events only.
"""
from __future__ import annotations

import random
from typing import Any

from shared.bots.base import Decision
from shared.bots.search import Think, iterations
from shared.games.famiglia.bot import FamigliaBot, _Context
from shared.games.famiglia.cards import DECK
from shared.rules import Action

#: the module of this game's search model (shared.bots.search runs it by this name)
SEARCH_MODEL = "shared.games.famiglia.search"

#: distinct first actions searched: the normal bot's choice and the planner's next best
CANDIDATES = 4
#: determinizations per decision
ITERATIONS = 8
#: turns begun after the current one before the evaluation (1: the opponent's reply)
HORIZON = 3
#: CPU cap of one search (ms, thread time); the iteration count normally ends it first
BUDGET_MS = 300.0


class HardFamigliaBot(FamigliaBot):
    """Famiglia player for ``seat`` at the hard level (module docstring)."""

    def decide(self, view: dict[str, Any], legal: list[Action]) -> Decision | Think | None:  # type: ignore[override]
        """The normal bot's decision, or a :class:`Think` at the start of a turn's
        phases when the planner offers different first actions."""
        d = super().decide(view, legal)
        me = self.seat
        if d is None or len(legal) < 2 or view["phase"] != "turn" or view["turn"] != me \
                or view["step"] > 1 or view["players"][me]["hand"] is None:
            return d
        picked = [d.action]
        ctx = _Context(self, view)
        for _, plan in sorted(ctx.plans(), key=lambda vp: -vp[0]):
            a = plan[0]
            if a in legal and a not in picked:
                picked.append(a)
                if len(picked) >= CANDIDATES:
                    break
        if len(picked) < 2:
            return d
        request = self.request(view, picked)
        delay = self.think_ms

        def finish(result: Any) -> Decision:
            return Decision(picked[int(result["choice"])], delay)

        return Think(request, d, finish)

    def request(self, view: dict[str, Any], picked: list[Action]) -> dict[str, Any]:
        """The search request for this view: only what this seat saw."""
        me = self.seat
        players = view["players"]
        hand = [c["id"] for c in players[me]["hand"]]
        street = [c["id"] for c in view["street"]]
        discard = [c["id"] for c in view["discard"]]
        gangs = [[c["id"] for c in p["gang"]] for p in players]
        seen = set(hand) | set(street) | set(discard) | {c for g in gangs for c in g}
        end = view["end"] or {}
        acc = view["accountant"]
        brute = view["brute"]
        state = {
            "first": view["first"], "turn": view["turn"], "turn_no": view["turn_no"],
            "phase": view["phase"], "exhaustion": view["exhaustion"],
            "end_during": end.get("during"), "end_turn_no": end.get("turn_no"),
            "last_turn": end.get("last_turn"), "passes": view["passes"], "step": view["step"],
            "renews": view["renews"], "renewed_after_exhaustion": view["renewed_after_exhaustion"],
            "accountant": acc["card"]["id"] if acc else None,
            "swaps": list(acc["moved"]) if acc else [],
            "brute": [brute["card"]["id"], brute["target"], brute["amount"]] if brute else None,
            "street": street, "discard": discard, "gangs": gangs, "hand": hand,
        }
        opp = self.opp_hand
        key = f"{self._seed}|{view['turn_no']}|{view['step']}|{view['renews']}|{view['deck']}|{sorted(street)}|search"
        return {
            "game": "famiglia", "model": SEARCH_MODEL, "seat": me,
            "seed": random.Random(key).getrandbits(63),
            "iterations": iterations(ITERATIONS), "budget_ms": BUDGET_MS, "horizon": HORIZON,
            "state": state,
            "opp_codes": sorted(opp.elements()) if opp is not None else None,
            "opp_count": players[1 - me]["hand_count"],
            "unseen": [c.id for c in DECK if c.id not in seen],
            "candidates": [a.to_dict() for a in picked],
        }
