"""The client's registry of games: one line per game, at the bottom.

Each game is a folder ``client/games/<game>/`` (table scene, layout, drawing, card faces,
effects, narration, controls, results, strings) whose ``__init__`` exports
``GAME = ClientGame(...)`` (:class:`client.gamedef.ClientGame`). Generic code -- the
app opening a table, the menus, couch play, replays -- finds a game here by its wire
name and never names one. Seat ranges, defaults and titles come from the rules'
registry, ``shared.games.DEFS``.
"""
from __future__ import annotations

from typing import Any

from client import cards, i18n
from client.gamedef import ClientGame, game_title
from shared.games import DEFS

GAMES: dict[str, ClientGame] = {}


def register(game: ClientGame) -> ClientGame:
    """Add a game's client (its card faces and strings too); registering the same name
    again replaces it (tests register a fake game). Returns ``game``."""
    GAMES[game.name] = game
    cards.register_faces(game.name, game.faces)
    if game.strings:
        i18n.add_folder(game.strings)
    return game


def unregister(name: str) -> None:
    """Remove a game's client (tests only)."""
    game = GAMES.pop(name, None)
    cards.register_faces(name, None)
    if game is not None and game.strings:
        i18n.remove_folder(game.strings)


def get(name: Any) -> ClientGame | None:
    """The client of the game called ``name``, None when this client has none."""
    return GAMES.get(name) if isinstance(name, str) else None


def quick_game() -> ClientGame:
    """The game the Quick game plays (the first registered one that says so)."""
    return next((g for g in GAMES.values() if g.quick_game), next(iter(GAMES.values())))


def couch_game() -> ClientGame | None:
    """The game couch play starts: the Quick game's when it has couch play, else the
    first that has; None when none has."""
    first = quick_game()
    return first if first.couch else next((g for g in GAMES.values() if g.couch), None)


def couch_games() -> list[ClientGame]:
    """Every game couch play can start (``couch=True`` and known to the rules), the
    default (:func:`couch_game`) first."""
    first = couch_game()
    rest = [g for g in GAMES.values() if g.couch and g is not first and g.name in DEFS]
    return ([first] if first is not None else []) + rest


def rules_def(name: str) -> Any:
    """The rules' declaration (:class:`shared.gamedef.GameDef`) of ``name``, or None."""
    return DEFS.get(name)


def hostable() -> list[tuple[str, Any]]:
    """``(name, GameDef)`` of every game a table can be hosted for here: known to the
    rules and to this client, in the rules' registry order."""
    return [(name, d) for name, d in DEFS.items() if name in GAMES]


def seat_range(name: str) -> tuple[int, int, int]:
    """``(min, max, default)`` seats of ``name`` (from the rules' registry)."""
    d = rules_def(name)
    return (d.min_seats, d.max_seats, d.default_seats)


title = game_title  # the player-facing name of a game (client.gamedef.game_title)


def title_cards() -> tuple[Any, ...]:
    """The faces fanned behind the menus' title (the Quick game's)."""
    return quick_game().title_cards or (None,) * 5


# The games, one line each (the Quick game's first).
from client.games.omerta import GAME as _omerta  # noqa: E402
register(_omerta)
from client.games.famiglia import GAME as _famiglia  # noqa: E402
register(_famiglia)
from client.games.mafiosi import GAME as _mafiosi  # noqa: E402
register(_mafiosi)
from client.games.family_business import GAME as _family_business  # noqa: E402
register(_family_business)
