"""The Famiglia table: the match as this screen may show it, animated, and the choices
the rules allow right now.

State comes only from the server. The *display link* is the connection whose ``update``
messages the table shows: its events are animated (:mod:`client.famiglia_fx`) and told
in the message column (:mod:`client.famiglia_narrate`), its view is what the table shows
once they are over. A seated player's ``legal`` actions decide what can be clicked: a
:class:`~client.famiglia_picker.Chooser` turns clicks on cards (and the buttons it asks
for: what a card is for, a Brute's amount) into exactly one legal action, which is sent.
A spectator (TV view, Join > Watch) sees the public view: both hands face down. Nothing
waits for an animation; input stays live during one.
"""
from __future__ import annotations

from typing import Any

import pygame

from client import famiglia_fx
from client.animation import Animator
from client.famiglia_controls import button_specs, prompt
from client.famiglia_draw import draw_table
from client.famiglia_layout import FamigliaLayout, famiglia_layout
from client.famiglia_narrate import narrate
from client.famiglia_picker import Chooser
from client.i18n import tr
from client.narrate import BAD, NOTE
from client.scenes.table_base import MSG_MS, TableScene
from client.scenes.widgets import button, call, fitted
from client.tween import Follower

Place = tuple[str, int]


class FamigliaTableScene(TableScene):
    """``link`` received ``started`` (a ``match_started``) and becomes the display link;
    when ``started["seat"]`` is a seat, that seat is played on this screen."""

    def __init__(self, app: Any, link: Any, started: dict[str, Any]):
        super().__init__(app, link, started)
        seat = started.get("seat")
        self.legal: dict[int, list[dict[str, Any]]] = {}
        self.view: dict[str, Any] = started["view"]
        self.perspective: int | None = seat
        self.anim = Animator()
        self.layout: FamigliaLayout = self._layout()
        self.pos: dict[Place, Follower] = {}
        self.chooser: Chooser | None = None
        self.hover: Place | None = None
        self._buttons_sig: tuple | None = None
        self.buttons: dict[str, Any] = {}  # the action buttons by id ("pass", "intent:renew"...)
        self._prompt: tuple[str, str, bool] = ("", "", False)
        self._esc_until = 0.0
        self.match_result: dict[str, Any] | None = None
        self.results_shown = self.view.get("phase") == "over"
        if seat is not None:
            self.links[seat] = link
            self.legal[seat] = list(started.get("legal", []))
        self._sync_followers()
        self._refresh()
        if started.get("resumed"):
            self.resumed_lines(started, self._narrate)

    # -- things the drawing reads ----------------------------------------------------
    @property
    def art(self):
        return self.app.art

    @property
    def me(self) -> int | None:
        """The seat whose hand this screen may show (None: none)."""
        return None if self.public else self.perspective

    @property
    def my_seat(self) -> int | None:
        """The seat played on this screen (None for a spectator)."""
        return next(iter(self.links), None)

    @property
    def local_seats(self) -> set[int]:
        return set(self.links)

    @property
    def table_name(self) -> str:
        return str(self.table_entry().get("name") or self.fallback_name)

    @property
    def help_line(self) -> str:
        if self.replay:
            return tr("replay.keys")
        return tr("fam.help") if self.links else tr("table.help_spectator")

    @property
    def prompt(self) -> tuple[str, str, bool]:
        return self._prompt

    @property
    def picked(self) -> set[Place]:
        return self.chooser.selection() if self.chooser is not None else set()

    @property
    def offered(self) -> set[Place]:
        return self.chooser.offered() if self.chooser is not None else set()

    def card_pos(self, place: Place, rect: pygame.Rect) -> tuple[float, float]:
        """Where a card is drawn now (it glides to its place when the layout changes)."""
        f = self.pos.get(place)
        return (f.x, f.y) if f is not None else rect.topleft

    def shown_rect(self, place: Place) -> pygame.Rect | None:
        r = self.layout.cards.get(place)
        f = self.pos.get(place)
        if r is not None and f is not None:
            return pygame.Rect(int(f.x), int(f.y), r.w, r.h)
        return None

    def _layout(self) -> FamigliaLayout:
        return famiglia_layout(self.view, self.table_size, perspective=self.perspective)

    def _narrate(self, ev: dict[str, Any]):
        return narrate(ev, self.seat_name, self.local_seats)

    # -- life cycle ---------------------------------------------------------------------
    def build(self, size: tuple[int, int]) -> None:
        self._buttons_sig = None
        self._build_buttons()

    def on_resize(self, size: tuple[int, int]) -> None:
        self.jump(self.view)

    def _sync_followers(self) -> None:
        for place, r in self.layout.cards.items():
            if place not in self.pos:
                self.pos[place] = Follower(r.x, r.y, half_life_ms=55.0)
        for place in list(self.pos):
            if place not in self.layout.cards:
                del self.pos[place]

    # -- showing the match --------------------------------------------------------------
    def show(self, view: dict[str, Any], events: list[dict[str, Any]], animate: bool = True) -> None:
        """Show ``view`` after ``events`` (wire dicts): animated and told, or (``animate``
        false) told only and shown at once."""
        if not animate:
            for ev in events:
                line = self._narrate(ev)
                if line is not None:
                    self.say(line[0], line[1], MSG_MS)
            self.jump(view)
            return
        prev, old = self.view, self.layout
        self.view = view
        self.layout = self._layout()
        ctx = famiglia_fx.FxContext(self.anim, self.t, self.me, old, self.layout, self.shown_rect, self.local_seats)
        for ev in events:
            try:
                famiglia_fx.animate(ctx, ev)
            except (KeyError, IndexError, TypeError, ValueError):  # a malformed event: the view is enough
                pass
            line = self._narrate(ev)
            if line is not None:
                text, colour, cue = line
                self.say(text, colour, 3000 if ev.get("type") == "turn" else MSG_MS)
                cue and self.app.sound and self.app.sound.play(cue)
        self._sync_followers()
        self._refresh()
        self._maybe_results()

    def jump(self, view: dict[str, Any]) -> None:
        """Show ``view`` at once: effects dropped, every card at its place."""
        self.anim.finish()
        self.view = view
        self.layout = self._layout()
        self.pos.clear()
        self._sync_followers()
        self._refresh()

    def _maybe_results(self) -> None:
        if self.view.get("phase") != "over" or self.replay:
            return
        from client.scenes.famiglia_results import FamigliaResultsScene

        for s in self.app.scenes:
            if isinstance(s, FamigliaResultsScene):
                s.result = self.match_result or s.result
                return
        if not self.results_shown:
            self.results_shown = True
            self.app.push(FamigliaResultsScene(self.app, self))

    # -- network ------------------------------------------------------------------------
    def seat_of(self, link: Any) -> int | None:
        return next((s for s, l in self.links.items() if l is link), None)

    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        kind = msg.get("type")
        if msg.get("table") != self.table_id:
            return
        seat = self.seat_of(link)
        if kind == "match_started":  # back after a lost connection
            if link is self.display or seat is not None:
                self.note_seats(msg)
                self.note_timer(msg, link)
                if seat is not None:
                    self.legal[seat] = list(msg.get("legal", []))
                if link is self.display:
                    self.jump(msg.get("view") or self.view)
                if msg.get("resumed"):
                    self.resumed_lines(msg, self._narrate)
                self.chooser = None
                self._refresh()
            return
        if kind == "update":
            if seat is not None:
                self.legal[seat] = list(msg.get("legal", []))
            if link is self.display:
                self.note_timer(msg, link)
                self.show(msg["view"], list(msg.get("events", [])))
            self._refresh()
        elif kind == "match_over" and (link is self.display or seat is not None):
            self.match_result = msg.get("result")
            self._maybe_results()

    def on_link_lost(self, link: Any) -> None:
        if getattr(link, "reconnect", None) is not None and link.reconnect.active:
            self._refresh()  # no buttons while the app brings it back; the overlay says so
            return
        if link is self.display or self.seat_of(link) is not None:
            self.app.go_menu()

    # -- sending ------------------------------------------------------------------------
    def send(self, action: dict[str, Any]) -> None:
        seat = self.my_seat
        link = self.links.get(seat) if seat is not None else None
        self.chooser = None
        if link is None or link.conn is None:
            self._refresh()
            return
        saved = self.legal.get(seat, [])
        self.legal[seat] = []  # nothing more to click until the server answers
        self._refresh()
        self.app.sound and self.app.sound.play("click")

        def failed(f) -> None:
            if not self.legal.get(seat):
                self.legal[seat] = saved
                self._refresh()
            if getattr(f.value, "code", "") != "disconnected":
                self.say(tr("error.action", reason=getattr(f.value, "message", str(f.value))), BAD)

        link.conn.send_action(self.table_id, dict(action)).addErrback(failed)

    # -- controls -----------------------------------------------------------------------
    def _refresh(self) -> None:
        """Re-derive the chooser, the buttons and the prompt from ``legal``."""
        seat = self.my_seat
        legal = self.legal.get(seat, []) if seat is not None else []
        if not legal:
            self.chooser = None
        elif self.chooser is None or self.chooser.legal != legal:
            self.chooser = Chooser(legal)
        self._prompt = prompt(self)
        if self.app.scenes and self.app.top is self:
            self._build_buttons()

    def _build_buttons(self) -> None:
        specs = [] if self.reconnecting is not None else button_specs(self)
        sig = (tuple((s[0], tuple(sorted(s[2].items()))) for s in specs), self.app.size)
        if sig == self._buttons_sig:
            return
        self._buttons_sig = sig
        self.clear_ui()
        self.buttons.clear()
        box = self.layout.actions
        n = max(1, len(specs))
        gap = max(4, int(box.h * 0.03))
        bh = min(int(44 * self.app.ui_scale), (box.h - gap * (n - 1)) // n)
        bw = box.w - 8
        y = box.bottom - n * bh - (n - 1) * gap
        for ident, key, fields, oid, what in specs:
            rect = pygame.Rect(box.centerx - bw // 2, y, bw, bh)
            label, cls = fitted(tr(key, **fields), bw, self.app.ui_scale)
            self.buttons[ident] = button(self, rect, label, object_id=oid, class_id=cls, raw=True,
                                         command=call(self._press, what))
            y += bh + gap

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
    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        et = event.type
        if et == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.chooser is not None and (self.chooser.kind or self.chooser.asking):
                self.chooser.clear()
                self._refresh()
            elif self.t < self._esc_until:
                self.leave_table()
            else:
                self._esc_until = self.t + 2500
                self.say(tr("table.esc_again"), NOTE, 2500)
        elif et == pygame.MOUSEMOTION:
            self.hover = self.layout.hit(event.pos)
        elif et == pygame.MOUSEBUTTONDOWN:
            place = self.layout.hit(event.pos)
            if place is None:
                return
            if event.button == 1:
                self.click(place)
            elif event.button == 3 and self.chooser is not None:
                self.chooser.clear()
                self._refresh()

    def leave_table(self) -> None:
        for link in set(self.links.values()) | {self.display}:
            if link is not None and link.conn is not None:
                link.request("leave", table=self.table_id).addErrback(lambda f: None)
                if link is not self.app.main_link:
                    self.app.close_link(link)
        self.app.go_menu()

    # -- frame --------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        dt_ms = dt * 1000.0
        self.t += dt_ms
        for place, f in self.pos.items():
            r = self.layout.cards.get(place)
            if r is not None:
                f.step(r.x, r.y, dt_ms)
        self.anim.prune(self.t)

    def draw(self, surface: pygame.Surface) -> None:
        draw_table(surface, self)

