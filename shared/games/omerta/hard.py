"""The hard Omerta bot: the normal bot's perfect memory and quicker reactions, and a
search for the moment to declare Omerta (RULES.md §2.8).

The normal bot declares when it knows its whole game and judges itself lowest from
estimates. At the start of each of its turns (when it may declare, its own known cards
within the limit) the hard bot instead weighs the declaration by sampling the cards it
has not seen into the slots it does not know (:mod:`shared.games.omerta.search`): it
declares when the declaration succeeds in more than :data:`STAY` of the deals, and
otherwise plays on as the normal bot would without declaring -- from what its seat saw
only. (Declaring on a lower bar, 0.6 or 0.75, lost matches: a failed declaration costs
20 points.)
"""
from __future__ import annotations

import random
from typing import Any

from shared.bots.base import Decision, ReactionModel
from shared.bots.search import Think, iterations
from shared.games import omerta as om
from shared.games.omerta.bot import OmertaBot
from shared.rules import Action

#: the module of this game's search model (shared.bots.search runs it by this name)
SEARCH_MODEL = "shared.games.omerta.search"

#: share of sampled deals in which a declaration must succeed to be made
STAY = 0.9
#: deals sampled per decision
ITERATIONS = 200
#: the most own cards it may not know and still consider declaring
MAX_OWN_UNKNOWN = 1
BUDGET_MS = 100.0


class HardOmertaBot(OmertaBot):
    """Omerta player for ``seat`` at the hard level (see the module docstring)."""

    def __init__(self, seat: int, rng: random.Random, reaction: ReactionModel | None = None,
                 think_ms: float = 0.0):
        super().__init__(seat, rng, reaction=reaction, think_ms=think_ms, level="hard")

    def decide(self, view: dict[str, Any], legal: list[Action]) -> Decision | Think | None:  # type: ignore[override]
        """The normal bot's decision, or a :class:`Think` weighing a declaration
        against it at the start of a turn."""
        d = super().decide(view, legal)
        if d is None or d.claim or view.get("window") is not None or view.get("step") != "start":
            return d
        declare = next((a for a in legal if isinstance(a, om.DeclareOmerta)), None)
        if declare is None:
            return d
        play_on = d.action if d.action != declare else next(
            (a for t in (om.DrawDeck, om.EndTurn, om.TakeDiscard) for a in legal if isinstance(a, t)), None)
        if play_on is None:
            return d
        request = self.request(view)
        me = self.seat
        if request["unknown"][me] > MAX_OWN_UNKNOWN or sum(request["known"][me]) > om.OMERTA_LIMIT:
            return d  # a declaration could not be made to succeed: nothing to search
        delay = self.think_ms

        def finish(result: Any) -> Decision:
            return Decision(declare if int(result["choice"]) == 1 else play_on, delay)

        return Think(request, d, finish)

    def request(self, view: dict[str, Any]) -> dict[str, Any]:
        """The search request for a possible declaration: what this seat knows of
        every stock, from its memory of what it saw."""
        n = view["seats"]
        known: list[list[int]] = []
        unknown: list[int] = []
        seen: set[int] = {c["id"] for c in view["discard"]}
        for p in range(n):
            slots = [s["slot"] for s in view["players"][p]["slots"]]
            cards = [self.known[sid] for sid in slots if sid in self.known] + list(self.pool.get(p, []))
            known.append(sorted(c["points"] for c in cards))
            unknown.append(max(0, len(slots) - len(cards)))
        for c in self.known.values():
            seen.add(c["id"])
        for cards in self.pool.values():
            seen |= {c["id"] for c in cards}
        seen |= {c["id"] for c in self.safe if c is not None}
        me = self.seat
        key = f"{self._seed}|{view['round']}|{view['turn_no']}|declare"
        return {
            "game": "omerta", "model": SEARCH_MODEL, "seat": me, "n": n,
            "seed": random.Random(key).getrandbits(63),
            "iterations": iterations(ITERATIONS), "budget_ms": BUDGET_MS,
            "known": known, "unknown": unknown,
            "unseen": sorted(c.points for c in om.DECK if c.id not in seen),
            "stay": STAY,
        }
