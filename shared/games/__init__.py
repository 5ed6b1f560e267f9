"""The registry of the games of Mafia Table (ARCHITECTURE §2): one line per game.

Each game is a package ``shared/games/<game>/`` whose module-level functions satisfy
:class:`shared.rules.Rules` and which exports ``GAME``, its
:class:`shared.gamedef.GameDef`. ``GAMES`` maps a game's wire name to its rules module;
:func:`game_def` gives the declaration. Generic code (server, bots, host screen, tests)
reads these and never names a game.
"""
from __future__ import annotations

from types import ModuleType
from typing import Any

from shared.gamedef import GameDef

GAMES: dict[str, Any] = {}
DEFS: dict[str, GameDef] = {}


def register(definition: GameDef) -> GameDef:
    """Add a game (its :class:`GameDef`) to the registry; returns it. Registering the same
    name again replaces the entry (tests register a fake game)."""
    GAMES[definition.name] = definition.rules
    DEFS[definition.name] = definition
    return definition


def unregister(name: str) -> None:
    """Remove a game from the registry (tests only)."""
    GAMES.pop(name, None)
    DEFS.pop(name, None)


def get_game(name: str) -> ModuleType:
    """The rules module called ``name``; raises ``KeyError`` for an unknown game."""
    return GAMES[name]


def game_def(name: str) -> GameDef:
    """The declaration of the game called ``name``; raises ``KeyError`` for an unknown
    game."""
    return DEFS[name]


# The games, one line each, in the order the host screen lists them.
from shared.games import omerta  # noqa: E402
register(omerta.GAME)
from shared.games import famiglia  # noqa: E402
register(famiglia.GAME)
from shared.games import family_business  # noqa: E402
register(family_business.GAME)
from shared.games import mafiosi  # noqa: E402
register(mafiosi.GAME)
