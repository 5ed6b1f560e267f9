"""The hard Mafiosi bot: the normal bot's bouncer and point card, and each card of trick
play chosen by a determinized search (:mod:`shared.bots.search`,
:mod:`shared.games.mafiosi.search`) over what its seat knows.

What it knows comes from its view and the events it saw this round, never from the full
state: the cards of every trick taken (``trick_won``, public) and who took them, the
revealed bouncers, and what play revealed about the others' hands (RULES.md §4.4): a
seat that did not follow the suit of the trick's first ace has none of that suit left
(rule 2); a seat that did not play a Jack under a Queen has no Jack (rule 3); a seat
whose bouncer is a face card was dealt no muscle (§4.3 step 3).
"""
from __future__ import annotations

import random
from typing import Any

from shared.bots.base import Decision
from shared.bots.search import Think, iterations
from shared.games.mafiosi.actions import PlayCard
from shared.games.mafiosi.bot import MafiosiBot
from shared.games.mafiosi.cards import DECK, JACK
from shared.games.mafiosi.tricks import after_play
from shared.rules import Action

#: the module of this game's search model (shared.bots.search runs it by this name)
SEARCH_MODEL = "shared.games.mafiosi.search"

#: playout cards per decision (candidates x cards left to play x iterations): sets the
#: number of determinizations, between :data:`MIN_ITERATIONS` and :data:`MAX_ITERATIONS`
WORK = 16_000
MIN_ITERATIONS = 12
MAX_ITERATIONS = 100
#: CPU cap of one search (ms, thread time); the iteration count normally ends it first
BUDGET_MS = 350.0


class HardMafiosiBot:
    """Mafiosi player for ``seat`` at the hard level; ``think_ms`` is the pause before
    each action (ms). ``decide`` returns a :class:`Think` for a trick card with a choice."""

    def __init__(self, seat: int, rng: random.Random, think_ms: float = 0.0):
        self.seat = seat
        self.normal = MafiosiBot(seat, rng, think_ms=think_ms)
        self._seed = rng.getrandbits(64)
        self.think_ms = think_ms
        self._new_round()

    def _new_round(self) -> None:
        self.seen_won: dict[int, list[int]] = {}  # seat -> cards of the tricks it took
        self.voids: dict[int, set[str]] = {}  # seat -> suits it showed it has none of
        self.no_jack: set[int] = set()
        self.no_muscle: set[int] = set()
        self._trick: list[int] = []  # the trick in progress, as this seat saw it
        self._ace: str | None = None
        self._jack = False

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """Track the round's public facts and the inferences of the module docstring."""
        self.normal.observe(events, view)
        for e in events:
            kind = e["type"]
            if kind == "round_started":
                self._new_round()
            elif kind == "play":
                seat, cid = e["seat"], e["card"]["id"]
                if seat != self.seat and DECK[cid].rank != 0:
                    if self._ace is not None and DECK[cid].suit != self._ace:
                        self.voids.setdefault(seat, set()).add(self._ace)  # §4.4 rule 2
                    elif self._ace is None and self._jack and DECK[cid].rank != JACK:
                        self.no_jack.add(seat)  # §4.4 rule 3
                self._ace, self._jack = after_play(self._ace, self._jack, self._trick, cid)
                self._trick.append(cid)
            elif kind == "trick_won":
                self.seen_won.setdefault(e["seat"], []).extend(c["id"] for c in e["cards"])
                self._trick, self._ace, self._jack = [], None, False
            elif kind == "bouncers_revealed":
                for seat, b in enumerate(e["bouncers"]):
                    if b is not None and DECK[b["id"]].is_face:  # §4.3 step 3
                        self.no_muscle.add(seat)
                        if DECK[b["id"]].rank != JACK:
                            self.no_jack.add(seat)

    def decide(self, view: dict[str, Any], legal: list[Action]) -> Decision | Think | None:
        """The normal bot's decision for a bouncer, a point card or a forced card; a
        :class:`Think` searching the legal cards of trick play otherwise."""
        fallback = self.normal.decide(view, legal)
        if fallback is None or view["phase"] != "play" or len(legal) < 2:
            return fallback
        request = self.request(view, legal, fallback.action)
        cards = request["candidates"]
        think_ms = self.think_ms

        def finish(result: Any) -> Decision:
            return Decision(PlayCard(cards[int(result["choice"])]), think_ms)

        return Think(request, fallback, finish)

    def request(self, view: dict[str, Any], legal: list[Action], first: Action) -> dict[str, Any]:
        """The search request (:mod:`shared.games.mafiosi.search`) for this view: only
        what this seat saw and inferred."""
        me, n = self.seat, view["seats"]
        players = view["players"]
        hand = sorted(c["id"] for c in view["hand"])
        trick = [[t["seat"], t["card"]["id"]] for t in view["trick"]]
        piles: list[list[int]] = []
        missing: list[int] = []
        for p in range(n):
            if p == me:
                pile = sorted(c["id"] for c in players[me]["won"] or [])
            else:
                pile = sorted(self.seen_won.get(p, []))
            missing.append(max(0, players[p]["won_count"] - len(pile)))
            b = players[p]["bouncer"]
            piles.append(pile + ([b["id"]] if b else []))
        known = set(hand) | {c for pile in piles for c in pile} | {c for _, c in trick}
        known |= {a["card"]["id"] for a in view["aside_revealed"]}
        known |= {c["id"] for c in players[me]["point_cards"] or []}
        pool = [c for c in range(len(DECK)) if c not in known]
        cards = [a.card for a in legal if isinstance(a, PlayCard)]
        first_card = getattr(first, "card", cards[0])
        cards = [first_card] + sorted(c for c in cards if c != first_card)
        counts = [players[p]["hand_count"] for p in range(n)]
        plays = sum(counts) + len(trick)
        count = iterations(max(MIN_ITERATIONS, min(MAX_ITERATIONS, WORK // max(1, len(cards) * plays))))
        key = f"{self._seed}|{view['round']}|{view['trick_no']}|{trick}|{hand}"
        return {
            "game": "mafiosi", "model": SEARCH_MODEL, "seat": me, "n": n,
            "seed": random.Random(key).getrandbits(63),
            "iterations": count, "budget_ms": BUDGET_MS,
            "clans": [p["clan"] for p in players],
            "hand": hand, "trick": trick,
            "ace_suit": view["ace_suit"], "jack_needed": view["jack_needed"],
            "piles": piles, "pile_missing": missing, "hand_counts": counts, "pool": pool,
            "voids": [sorted(self.voids.get(p, ())) for p in range(n)],
            "no_jack": [p in self.no_jack for p in range(n)],
            "no_muscle": [p in self.no_muscle for p in range(n)],
            "candidates": cards,
        }
