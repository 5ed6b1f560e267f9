"""A bot that plays a uniformly random legal action: the baseline our real bots must beat,
and a fuzzer for the engines. In a reaction window it answers with a pass half the time
so that windows do not wait for their timeout."""
from __future__ import annotations

import random
from typing import Any

from shared.bots.base import Decision
from shared.rules import Action


class RandomBot:
    """Random legal moves for ``seat``, drawn from ``rng``; ``think_ms`` delay each."""

    def __init__(self, seat: int, rng: random.Random, think_ms: float = 0.0):
        self.seat = seat
        self.rng = rng
        self.think_ms = think_ms

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """A random player remembers nothing."""

    def decide(self, view: dict[str, Any], legal: list[Action]) -> Decision | None:
        """Any legal action; a claim is flagged so the arbiter stamps it."""
        action = self.rng.choice(legal)
        window = view.get("window")
        claim = bool(window and action.TYPE in window.get("claim_types", ()))
        return Decision(action, self.think_ms, claim=claim)
