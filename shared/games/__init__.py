"""The games of Mafia Table, one rules module each (ARCHITECTURE §2).

``GAMES`` maps a game's wire name to its module; each module satisfies
:class:`shared.rules.Rules`.
"""
from __future__ import annotations

from types import ModuleType

from shared.games import famiglia
from shared.games import omerta

GAMES: dict[str, ModuleType] = {
    omerta.NAME: omerta,
    famiglia.NAME: famiglia,
}


def get_game(name: str) -> ModuleType:
    """The rules module called ``name``; raises ``KeyError`` for an unknown game."""
    return GAMES[name]
