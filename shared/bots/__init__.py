"""Bots that play from a seat's view only (ARCHITECTURE §1).

:func:`make_bot` builds the right bot for a game; ``seed`` seeds the bot's own
``random.Random`` (pass e.g. ``f"{match_seed}/{seat}"`` so a bot match replays).
"""
from __future__ import annotations

import random
from typing import Any, Mapping

from shared.bots.base import Bot, Decision, ReactionModel
from shared.bots.random_bot import RandomBot

__all__ = ["Bot", "Decision", "ReactionModel", "RandomBot", "make_bot"]


def make_bot(game: str, seat: int, seed: Any, settings: Mapping[str, Any] | None = None,
             kind: str = "smart") -> Bot:
    """A bot for ``seat`` of ``game``. ``settings`` is the config's ``bots`` section
    (``think_ms``, ``reaction_*``). ``kind`` is ``"smart"`` (the game's own bot) or
    ``"random"``. The game's own bot comes from its declaration in the registry
    (``GameDef.make_bot``). Raises ``KeyError`` for an unknown game."""
    settings = dict(settings or {})
    rng = random.Random(str(seed))
    think = float(settings.get("think_ms", 0))
    if kind == "random":
        return RandomBot(seat, rng, think)
    reaction = ReactionModel.from_config(settings)
    from shared.games import game_def  # the registry imports every game: load it late
    return game_def(game).make_bot(seat, rng, reaction, think)
