"""The client side of one game: what the generic client (app, menus, replays, the table
kit) needs to know about it. Each game folder ``client/games/<game>/`` exports
``GAME = ClientGame(...)``; ``client/games/__init__.py`` registers them, one line each.

The rules side (seat ranges, default seats, options, title) is the game's
:class:`shared.gamedef.GameDef` in ``shared.games.DEFS``; this only adds what is drawn
and decided on the screen.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence


@dataclass(frozen=True)
class ClientGame:
    """One game's client.

    * ``name`` -- the wire name (``match_started.game``, ``create_table``'s ``game``).
    * ``table_scene(app, link, started, binding=None)`` -- opens the game's table (a
      :class:`client.table.base.TableScene`) for a ``match_started`` message; ``binding``
      is the local player's key binding (couch play).
    * ``results_scene`` -- the game's results board (a
      :class:`client.table.results.ResultsOverlay`): the table kit opens it
      (:meth:`client.table.base.TableScene.open_results`), None for no board.
    * ``faces`` -- the face painter of its cards (see :mod:`client.cards`), or None.
    * ``strings`` -- the folder holding its ``mafia.<lang>.json`` translations (None:
      none), loaded by :mod:`client.i18n` next to the client's own.
    * ``couch`` -- it can be played by several players on one screen (each on a
      connection of their own, the shared screen a spectator).
    * ``quick_game`` -- the main menu's Quick game (and the host screen's first choice)
      plays it: the first registered game that says so.
    * ``title_cards`` -- card faces fanned behind the title on the menus (None = a back).
    * ``help`` -- the rules help (:mod:`client.scenes.help`): a callable returning the
      sections (:class:`HelpSection`) in the current language, or None for no help.
    * ``card_help`` -- ``card_help(card)``: one line saying what a card does (the tip
      shown when the mouse rests on it at the table), None when there is nothing to say.
    """

    name: str
    table_scene: Callable[..., Any]
    results_scene: Any = None
    faces: Any = None
    strings: str | None = None
    couch: bool = False
    quick_game: bool = False
    title_cards: tuple[Mapping[str, Any] | None, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)
    help: Callable[[], Sequence["HelpSection"]] | None = None
    card_help: Callable[[Mapping[str, Any]], "str | None"] | None = None


@dataclass(frozen=True)
class HelpCard:
    """One card of the rules help: ``card`` (a wire card dict, drawn with the game's real
    card art), ``title`` (its name) and ``text`` (what it does), both already translated."""

    card: Mapping[str, Any]
    title: str
    text: str = ""


@dataclass(frozen=True)
class HelpSection:
    """One section of a game's rules help: a ``title``, a ``body`` (paragraphs separated
    by newlines, translated) and ``cards`` shown under it, each with its effect."""

    title: str
    body: str = ""
    cards: tuple[HelpCard, ...] = ()


def folder_of(module_file: str) -> str:
    """The folder of a game package (for ``strings``): ``folder_of(__file__)``."""
    return os.path.dirname(os.path.abspath(module_file))


def game_title(name: Any) -> str:
    """The player-facing name of a game: its translation (``game.<name>`` in the game's
    strings), else the rules' English title, else the wire name. Here, not in the
    registry, so that the table kit (results, scoreboard) may name a game without
    importing every game."""
    from client import i18n
    from shared.games import DEFS

    name = str(name)
    text = i18n.tr(f"game.{name}")
    if text != i18n.key(f"game.{name}"):
        return text
    d = DEFS.get(name)
    return d.title if d is not None else name
