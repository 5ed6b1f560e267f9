"""Fake Snap's bot: flips on its turn, snaps when it holds the flipped value (after a
human-like reaction time), passes otherwise (after a reaction time too)."""
from __future__ import annotations

import random
from typing import Any

from shared.bots.base import Decision, ReactionModel
from shared.rules import Action


class FakeSnapBot:
    """Plays one seat of Fake Snap from that seat's view."""

    def __init__(self, seat: int, rng: random.Random, reaction: ReactionModel | None = None,
                 think_ms: float = 0.0):
        self.seat = seat
        self.rng = rng
        self.reaction = reaction or ReactionModel()
        self.think_ms = float(think_ms)

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """Nothing to remember: the view holds the hand and the window."""

    def decide(self, view: dict[str, Any], legal: list[Action]) -> Decision | None:
        window = view.get("window")
        if not window:
            flip = next((a for a in legal if a.TYPE == "flip"), None)
            return Decision(flip, self.think_ms) if flip is not None else None
        me = view["players"][self.seat]
        hand = {c["id"]: c["value"] for c in (me.get("hand") or [])}
        delay = self.reaction.sample(self.rng)
        for a in legal:
            if a.TYPE in window["claim_types"] and hand.get(getattr(a, "card", None)) == window["value"]:
                return Decision(a, delay, claim=True)
        answer = next((a for a in legal if a.TYPE == window["pass_type"]), None)
        return Decision(answer, delay) if answer is not None else None
