"""Bot levels: ``easy``, ``normal`` (each game's own bot as it always played) and ``hard``.

A level is chosen per bot seat. What is common to every game lives here:

* reaction times: an easy bot reacts slower in races, a hard one quicker -- still at
  human speed, never under :data:`HARD_FLOOR_MS` (:func:`reaction_for`);
* :class:`EasyBot`, the plausible mistakes of a beginner: now and then, instead of the
  move its game's bot chose, another legal move *of the same kind* (another card to
  play, another slot to replace, another target) -- a move a person might make, never a
  move of another kind (it does not end a turn it meant to play). A game whose moves are
  each of their own kind (Family Business: one action type per card) lets it pick any
  other legal move of the turn instead (``same_kind=False``); a game's factory may return
  its own :class:`EasyBot` with its own share.

What is particular to a game (Omerta's easy bot forgetting the cards it has seen) is in
the game's own bot, asked for through the ``level`` argument of its factory.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from shared.bots.base import Bot, Decision, ReactionModel
from shared.bots.search import resolve
from shared.rules import Action

__all__ = ["LEVELS", "DEFAULT_LEVEL", "EasyBot", "check_level", "reaction_for"]

#: every level, from the weakest
LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
#: a hard bot never reacts faster than this (ms): a quick person, not a machine
HARD_FLOOR_MS = 230.0
#: share of an easy bot's turn decisions replaced by another move of the same kind
EASY_SLIP = 0.3


def check_level(level: Any) -> str:
    """``level`` if it is one of :data:`LEVELS`; raises ``ValueError`` otherwise."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: one of {', '.join(LEVELS)}")
    return str(level)


def reaction_for(base: ReactionModel, level: str) -> ReactionModel:
    """The reaction model of a bot of ``level`` from the configured (normal) one:
    easy about 1.6x slower, hard about 0.6x (never under :data:`HARD_FLOOR_MS`)."""
    if level == "easy":
        return replace(base, median_ms=base.median_ms * 1.6, floor_ms=base.floor_ms * 1.5,
                       cap_ms=base.cap_ms * 1.6)
    if level == "hard":
        return replace(base, median_ms=base.median_ms * 0.6,
                       floor_ms=max(HARD_FLOOR_MS, base.floor_ms * 0.8),
                       cap_ms=max(HARD_FLOOR_MS, base.cap_ms * 0.8))
    return base


class EasyBot:
    """Wraps a game's bot (``inner``) and, for a share ``slip`` (0..1) of its turn
    decisions (claims in a race are left alone: they are slow already), plays another
    legal action of the same type instead -- of any type but a claim's with
    ``same_kind=False``.

    Each slip draws from a ``random.Random`` keyed by ``seed``, the number of events seen
    so far and the decision, not from a running stream: asked twice in the same situation
    (a cancelled plan, a reconnection) the bot makes the same choice, so a match between
    bots replays from its seed."""

    def __init__(self, inner: Bot, seed: str, slip: float = EASY_SLIP, same_kind: bool = True):
        self.inner = inner
        self.same_kind = same_kind
        self.seat = inner.seat
        self.seed = seed
        self.slip = slip
        self.events_seen = 0

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """Counted, then passed on to the game's bot."""
        self.events_seen += len(events)
        self.inner.observe(events, view)

    def decide(self, view: dict[str, Any], legal: list[Action]) -> Decision | None:
        """The game's bot's decision, or now and then another of the same type."""
        d = resolve(self.inner.decide(view, legal))  # an easy bot never searches: a no-op
        if d is None or d.claim:
            return d
        kind = d.action.TYPE
        if self.same_kind:
            same = [a for a in legal if a.TYPE == kind]
        else:
            window = view.get("window")
            claims = window.get("claim_types", ()) if isinstance(window, dict) else ()
            same = [a for a in legal if a.TYPE not in claims]
        if len(same) < 2:
            return d
        rng = random.Random(f"{self.seed}|{self.events_seen}|{len(legal)}|{kind}")
        if rng.random() >= self.slip:
            return d
        return Decision(rng.choice(same), d.delay_ms, claim=d.claim)
