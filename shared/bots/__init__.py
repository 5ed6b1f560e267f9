"""Bots that play from a seat's view only (ARCHITECTURE §1).

:func:`make_bot` builds the right bot for a game; ``seed`` seeds the bot's own
``random.Random`` (pass e.g. ``f"{match_seed}/{seat}"`` so a bot match replays) and
``level`` is one of :data:`shared.bots.levels.LEVELS`.
"""
from __future__ import annotations

import random
from typing import Any, Mapping

from shared.bots.base import Bot, Decision, ReactionModel
from shared.bots.levels import DEFAULT_LEVEL, LEVELS, EasyBot, check_level, reaction_for
from shared.bots.random_bot import RandomBot

__all__ = ["Bot", "Decision", "DEFAULT_LEVEL", "LEVELS", "ReactionModel", "RandomBot", "make_bot"]


def make_bot(game: str, seat: int, seed: Any, settings: Mapping[str, Any] | None = None,
             kind: str = "smart", level: str = DEFAULT_LEVEL) -> Bot:
    """A bot for ``seat`` of ``game``. ``settings`` is the config's ``bots`` section
    (``think_ms``, ``reaction_*``). ``kind`` is ``"smart"`` (the game's own bot) or
    ``"random"``. The game's own bot comes from its declaration in the registry
    (``GameDef.make_bot``), told the ``level`` (``"easy"``, ``"normal"``, ``"hard"``;
    a random bot has none). Raises ``KeyError`` for an unknown game, ``ValueError`` for
    an unknown level."""
    check_level(level)
    settings = dict(settings or {})
    rng = random.Random(str(seed))
    think = float(settings.get("think_ms", 0))
    if kind == "random":
        return RandomBot(seat, rng, think)
    reaction = ReactionModel.from_config(settings)
    from shared.games import game_def  # the registry imports every game: load it late
    factory = game_def(game).make_bot
    if level == DEFAULT_LEVEL:
        return factory(seat, rng, reaction, think)  # exactly the bot as it always was
    bot = factory(seat, rng, reaction_for(reaction, level), think, level=level)
    if level == "easy" and not isinstance(bot, EasyBot):  # a game may make its own
        return EasyBot(bot, f"{seed}/easy")
    return bot
