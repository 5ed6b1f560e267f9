"""The Famiglia table: the match as this screen may show it, animated, and the choices
the rules allow right now.

State comes only from the server. The *display link* is the connection whose ``update``
messages the table shows: its events are animated (:mod:`client.games.famiglia.fx`) and told
in the message column (:mod:`client.games.famiglia.narrate`), its view is what the table shows
once they are over. A seated player's ``legal`` actions decide what can be clicked: a
:class:`~client.games.famiglia.picker.Chooser` turns clicks on cards (and the buttons it asks
for: what a card is for, a Brute's amount) into exactly one legal action, which is sent.
A spectator (TV view, Join > Watch) sees the public view: both hands face down. Nothing
waits for an animation; input stays live during one.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Mapping

import pygame

from client.games.famiglia import controls as famiglia_controls, fx as famiglia_fx
from client.games.famiglia.draw import draw_partial, draw_table as paint_table
from client.games.famiglia.layout import FamigliaLayout, famiglia_layout
from client.games.famiglia.narrate import narrate
from client.games.famiglia import narrate as famiglia_narrate
from client.games.famiglia.picker import Chooser
from client.i18n import tr
from client.games.famiglia import help as rules_help
from client.table.tips import hover_card
from client.table.base import TableScene
from client.ui.widgets import button, call, fitted

Place = tuple[str, int]


class FamigliaTableScene(TableScene):
    """``link`` received ``started`` (a ``match_started``) and becomes the display link;
    when ``started["seat"]`` is a seat, that seat is played on this screen."""

    game_name = "famiglia"
    #: what a hint names (client.table.hint): street, gang and hand cards by id
    HINT_PREFIX = "fam."
    HINT_FIELDS = {"card": (), "from_gang": ("gang",), "from_hand": ("hand",), "target": ("street",),
                   "to_gang": ("hand",), "keep": ("hand",)}

    card_help = staticmethod(rules_help.card_help)  # the card tips (client.table.tips)

    controls = famiglia_controls
    layout: FamigliaLayout

    def __init__(self, app: Any, link: Any, started: dict[str, Any], binding: Any = None):
        super().__init__(app, link, started)  # one player: no key binding (no couch play)
        seat = started.get("seat")
        self.chooser: Chooser | None = None
        self.results_shown = self.view.get("phase") == "over"
        if seat is not None:
            self.links[seat] = link
            self._note_seat(seat, started)
        self.motion.sync(self.card_rects())
        self._refresh()
        if started.get("resumed"):
            self.feed.resumed_lines(started)

    # -- things the drawing reads ----------------------------------------------------
    @property
    def my_seat(self) -> int | None:
        """The seat played on this screen (None for a spectator)."""
        return next(iter(self.links), None)

    def player_help(self) -> str:
        return tr("fam.help")

    @property
    def picked(self) -> set[Place]:
        return self.chooser.selection() if self.chooser is not None else set()

    @property
    def offered(self) -> set[Place]:
        return self.chooser.offered() if self.chooser is not None else set()

    def shown_rect(self, place: Place) -> pygame.Rect | None:
        """Where a card of the layout is drawn right now, None when it has no place on
        screen yet (it has just come)."""
        return self.motion.shown_at(place, self.layout.cards.get(place))

    def _layout(self) -> FamigliaLayout:
        return famiglia_layout(self.view, self.table_size, perspective=self.perspective)

    def card_rects(self) -> Mapping[Place, pygame.Rect]:
        return self.layout.cards

    def _narrate(self, ev: dict[str, Any]):
        return narrate(ev, self.roster.seat_name, self.local_seats)

    def _moment(self, view: Mapping[str, Any]) -> Any:
        return famiglia_narrate.moment(view)

    def _moment_after(self, ev: Mapping[str, Any], now: Any) -> Any:
        return famiglia_narrate.moment_after(ev, now)

    def _fx(self, prev_view: dict[str, Any], old: FamigliaLayout) -> Callable[[dict[str, Any]], None]:
        return partial(famiglia_fx.animate, famiglia_fx.FxContext(self.anim, self.t, self.me, old, self.layout,
                                                                  self.shown_rect, self.local_seats))

    # -- life cycle ---------------------------------------------------------------------
    def on_resize(self, size: tuple[int, int]) -> None:
        self.jump(self.view)

    # -- showing the match --------------------------------------------------------------
    def _after_update(self) -> None:
        self._refresh()
        self._maybe_results()

    def _maybe_results(self) -> None:
        """The match is over: its results board, once (R or the results button reopen it)."""
        if self.view.get("phase") != "over" or self.replay:
            return
        if self.ending.results_board() is not None or not self.results_shown:
            self.results_shown = True
            self.ending.open_results()

    def reopen_results(self) -> bool:
        self.results_shown = False
        self._maybe_results()
        return self.results_shown

    # -- network ------------------------------------------------------------------------
    def _match_over(self) -> None:
        self._maybe_results()

    def _drop_choices(self) -> None:
        self.chooser = None

    # -- sending ------------------------------------------------------------------------
    def send(self, action: dict[str, Any]) -> None:
        seat = self.my_seat
        link = self.links.get(seat) if seat is not None else None
        self.chooser = None
        if link is None or link.conn is None:
            self._refresh()
            return
        self.feed.send_now(seat, link, action)

    # -- controls -----------------------------------------------------------------------
    def _update_choices(self) -> None:
        """Re-derive the chooser from ``legal``."""
        seat = self.my_seat
        legal = self.legal.get(seat, []) if seat is not None else []
        if not legal:
            self.chooser = None
        elif self.chooser is None or self.chooser.legal != legal:
            self.chooser = Chooser(legal)

    def _buttons_key(self, specs: list[tuple]) -> tuple:
        return tuple((s[0], tuple(sorted(s[2].items()))) for s in specs)

    def _button(self, spec: tuple, rect: pygame.Rect) -> Any:
        ident, key, fields, oid, what = spec
        label, cls = fitted(tr(key, **fields), rect.w, self.app.ui_scale)
        return button(self, rect, label, object_id=oid, class_id=cls, raw=True, command=call(self._press, what))

    def _press(self, what: Any) -> None:
        ch = self.chooser
        if isinstance(what, dict):
            self.send(what)
            return
        if what == "results":
            self.results_shown = False
            self._maybe_results()
            return
        if ch is None:
            return
        action = None
        if what == "cancel":
            ch.clear()
        elif what.startswith("intent:"):
            action = ch.choose(what.split(":", 1)[1])
        elif what.startswith("amount:"):
            action = ch.click(("amount", int(what.split(":", 1)[1])))
        if action is not None:
            self.send(action)
        else:
            self._refresh()

    def click(self, place: Place) -> None:
        """A left click on a place of the table."""
        ch = self.chooser
        if ch is None or place[0] not in ("street", "hand", "gang"):
            return
        if place[0] != "street" and self.layout.owner.get(place) != self.my_seat:
            return
        action = ch.click(place)
        if action is not None:
            self.send(action)
        else:
            self._refresh()

    # -- input --------------------------------------------------------------------------
    def _cancel_choice(self) -> bool:
        """Esc while a card's use or an amount is being chosen: start the choice over."""
        if self.chooser is not None and (self.chooser.kind or self.chooser.asking):
            self.chooser.clear()
            self._refresh()
            return True
        return False

    def _right_click(self, pick: Place, t_ms: float) -> None:
        """A right click anywhere on the table drops the choice being made."""
        if self.chooser is not None:
            self.chooser.clear()
            self._refresh()

    # -- frame --------------------------------------------------------------------------
    def hover_card_at(self, pos: tuple[int, int]) -> Mapping[str, Any] | None:
        """The face-up card at ``pos`` that has a tip."""
        return hover_card(self, pos, ("street", "gang", "hand"), {"discard": "discard"})

    def _draw_partial(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        return draw_partial(surface, self)

    def draw_table(self, surface: pygame.Surface) -> None:
        paint_table(surface, self)

