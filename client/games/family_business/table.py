"""The Family Business table: the match as this screen may show it, animated, and the
choices the rules allow right now.

State comes only from the server. The *display link* is the connection whose ``update``
messages the table shows: its events are animated (:mod:`.fx`) and told in the message
column (:mod:`.narrate`); its view is what the table shows once they are over. Each
*local seat* is a connection of its own with its own key binding; its ``legal`` actions
decide what can be clicked: on its turn a :class:`~.picker.TurnChooser` turns a click
on a card of the hand and clicks on its targets (a player, a mobster, a dead mobster in
the choice strip) into exactly one legal action; an owner's ``place`` and the player's
``order`` choices are clicks on the mobsters offered (in the choice strip, or on the
table). Nothing waits for an animation; input stays live during one.

* One player: the display link is the player's own seat; its hand is shown face up.
* Couch play: the display link is a spectator connection, so the shared screen shows
  public information only; a seat's hand appears on the hand-over screen when that
  seat presses its reveal key, and it chooses a card with its number keys.
* TV view and replays: a spectator display link (replays: none) and no local seat.

The counter window comes from the table kit (:class:`~client.table.reactions.
ReactionTableScene`: claim and pass keys, ``t_press``/``t_shown``, the time bar). It
never tells who holds a counter: every eligible seat gets the same prompt and buttons
(:mod:`.controls`), and a claim without a fitting card is answered with the same words
whether the seat holds a counter or not (:meth:`claim`).
"""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Mapping

import pygame

from client.games.family_business import controls as fb_controls, fx as fb_fx
from client.games.family_business.draw import draw_partial, draw_table as paint_table
from client.games.family_business.layout import FBLayout, fb_layout
from client.games.family_business.narrate import narrate
from client.games.family_business import narrate as family_business_narrate
from client.games.family_business.picker import TurnChooser
from client.i18n import tr, labelled
from client.input import Binding
from client.narrate import BAD, NOTE
from client.games.family_business import help as rules_help
from client.table.tips import hover_card
from client.table.reactions import ReactionTableScene
from client.ui.widgets import button, call, fitted

Place = tuple[str, int]
CHOICES = ("place", "order")


class FamilyBusinessTableScene(ReactionTableScene):
    """``link`` received ``started`` (a ``match_started``) and becomes the display link;
    when ``started["seat"]`` is a seat, that seat is local with ``binding``."""

    game_name = "family_business"
    #: what a hint names (client.table.hint): hand cards, mobsters, the target player's plate
    HINT_PREFIX = "fb."
    HINT_FIELDS = {"card": ("card",), "mobster": ("mob", "pick"), "victim": ("mob", "pick"),
                   "other": ("mob", "pick"), "revived": ("mob", "pick")}
    HINT_SEAT_FIELDS = ("target",)

    card_help = staticmethod(rules_help.card_help)  # the card tips (client.table.tips)

    controls = fb_controls
    layout: FBLayout
    claim_types = ("counter",)
    pass_types = ("no_counter",)
    claim_field = "card"
    card_place = "card"

    def __init__(self, app: Any, link: Any, started: dict[str, Any], binding: Binding | None = None):
        self.choosers: dict[int, TurnChooser] = {}
        self._picks: list[dict[str, Any]] = []  # the mobsters of the choice strip
        self.results_shown = (started.get("view") or {}).get("phase") == "over"
        super().__init__(app, link, started, binding)
        self.motion.sync(self.card_rects())
        self._refresh()
        if started.get("resumed"):
            self.feed.resumed_lines(started)

    # -- things the drawing reads ----------------------------------------------------
    @property
    def show_keys(self) -> bool:
        return any(b.slot_keys for b in self.bindings.values())

    def mobsters(self) -> dict[int, dict[str, Any]]:
        """Every mobster dict the view shows, by id."""
        v = self.view
        out: dict[int, dict[str, Any]] = {}
        for p in v.get("players") or []:
            for m in p.get("front") or []:
                out[int(m["id"])] = m
        for key in ("hit_list", "cemetery"):
            for m in v.get(key) or []:
                out[int(m["id"])] = m
        for m in (v.get("resolving") or {}).get("collected") or []:
            out[int(m["id"])] = m
        return out

    def hand_of(self, seat: int | None) -> list[dict[str, Any]]:
        """The cards of a local seat's hand (its own view), [] when not known here."""
        if seat is None:
            return []
        sv = self.seat_views.get(seat) or {}
        hand = sv.get("hand")
        if hand is None and self.view.get("seat") == seat:
            hand = self.view.get("hand")
        return list(hand or [])

    def hand_card(self, seat: int, cid: int) -> dict[str, Any] | None:
        return next((c for c in self.hand_of(seat) if c.get("id") == cid), None)

    def card_face(self, cid: int) -> dict[str, Any] | None:
        """A card of the hand shown at the bottom (yours, or a finished replay's)."""
        v = self.view
        p = self.layout.perspective
        pool = list(v.get("hand") or []) if v.get("seat") == p else []
        if v.get("hands") and p < len(v["hands"]):
            pool = list(v["hands"][p])
        return next((c for c in pool if c.get("id") == cid), None)

    @property
    def picked(self) -> set[Place]:
        out: set[Place] = set()
        for ch in self.choosers.values():
            if ch.card is not None:
                out.add(("card", ch.card))
            for k, i in ch.picks:
                out.add(("pick", i) if k == "dead" else (k, i))
        return out

    @property
    def offered(self) -> set[Place]:
        out: set[Place] = set()
        for seat, ch in self.choosers.items():
            for k, i in ch.offered():
                out.add(("pick", i) if k == "dead" else (k, i))  # (a player's mobsters stand for him: click)
            if ch.card is None and seat in self.links and len(self.links) == 1:
                out |= {("card", c) for c in ch.cards()}
        for seat in self.links:
            for a in self.legal.get(seat, []):
                if a.get("type") in CHOICES:
                    out.add(("mob", int(a["mobster"])))
                    out.add(("pick", int(a["mobster"])))
        return out

    def player_help(self) -> str:
        if len(self.links) > 1:
            return tr("table.help_couch")
        keys = next(iter(self.bindings.values())).describe()
        return tr("fb.help", snap=keys.get("snap", "?"), passkey=keys.get("pass", "?"))

    # -- seats and hands ----------------------------------------------------------------
    def own_cards(self, seat: int) -> list[int]:
        return [int(c["id"]) for c in self.hand_of(seat)]

    def turn_seat(self) -> int | None:
        """The local seat whose turn it is (it may play or void a card)."""
        for s in sorted(self.links):
            if any(a.get("type") == "void" for a in self.legal.get(s, [])):
                return s
        return None

    def private_info(self, seat: int) -> dict[str, Any]:
        """What only ``seat`` may see: its hand."""
        return {"hand": self.hand_of(seat)}

    def private_groups(self, seat: int, info: dict[str, Any]) -> list[tuple[str, list[tuple[Any, str]]]]:
        hand = info.get("hand") or []
        return [(tr("fb.handover.hand"), [(c, str(i + 1)) for i, c in enumerate(hand)])] if hand else []

    # -- the game's parts ---------------------------------------------------------------
    def _layout(self) -> FBLayout:
        return fb_layout(self.view, self.table_size, perspective=self.perspective, picks=self._picks)

    def card_rects(self) -> Mapping[Place, pygame.Rect]:
        return self.layout.cards

    def _narrate(self, ev: dict[str, Any]):
        return narrate(ev, self.roster.seat_name, self.local_seats)

    def _moment(self, view: Mapping[str, Any]) -> Any:
        return family_business_narrate.moment(view)

    def _moment_after(self, ev: Mapping[str, Any], now: Any) -> Any:
        return family_business_narrate.moment_after(ev, now)

    def _fx(self, prev_view: dict[str, Any], old: FBLayout) -> Callable[[dict[str, Any]], None]:
        def shown(place: Place) -> pygame.Rect | None:
            return self.motion.shown_at(place, old.cards.get(place))

        return partial(fb_fx.animate, fb_fx.FxContext(self.anim, self.t, old, self.layout, shown, prev_view,
                                                      self.window_seen, self.local_seats))

    def on_resize(self, size: tuple[int, int]) -> None:
        self.relayout()

    # -- showing the match --------------------------------------------------------------
    def _after_update(self) -> None:
        self._forget_gone()
        self._maybe_results()

    def _match_over(self) -> None:
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

    def _drop_choices(self) -> None:
        self.choosers.clear()

    def _drop_choice(self, seat: int) -> None:
        self.choosers.pop(seat, None)

    # -- choices ------------------------------------------------------------------------
    def _update_choices(self) -> None:
        """Re-derive each local seat's chooser from its ``legal``, the counter card under
        a lone player's cursor, and the choice strip (relaid out when it changes)."""
        for seat in list(self.links):
            legal = self.legal.get(seat, [])
            ch = self.choosers.get(seat)
            if any(a.get("type") == "void" for a in legal):
                if ch is None or ch.legal != [dict(a) for a in legal]:
                    self.choosers[seat] = TurnChooser(legal)
            else:
                self.choosers.pop(seat, None)
        if len(self.links) == 1 and not self.public:  # a private screen: the counter card is ready
            seat = next(iter(self.links))
            counters = [a["card"] for a in self.legal.get(seat, []) if a.get("type") == "counter"]
            if counters and self.cursor.get(seat) not in counters:
                self.cursor[seat] = counters[0]
        mobs = self.mobsters()
        picks: list[int] = []
        for seat in sorted(self.links):
            picks += [int(a["mobster"]) for a in self.legal.get(seat, []) if a.get("type") in CHOICES]
        for ch in self.choosers.values():
            picks += [i for k, i in sorted(ch.offered()) if k == "dead"]
        new = [mobs[i] for i in dict.fromkeys(picks) if i in mobs]
        if [m["id"] for m in new] != [m["id"] for m in self._picks]:
            self._picks = new
            self.layout = self._layout()
            self.motion.sync(self.card_rects())

    def claim(self, seat: int, card: Any, t_press: float) -> None:
        """Counter with ``card`` -- answered with the same words whether the seat holds
        a counter or not, so a shared screen never tells."""
        legal = self.legal.get(seat, [])
        who = "" if len(self.links) == 1 else labelled(self.roster.seat_name(seat))
        if not any(a.get("type") == "no_counter" for a in legal):
            w = self.window
            key = "claim.already" if w and seat in w.get("eligible", []) else "claim.no_window"
            self.column.say(who + tr(key), NOTE, 2500)
            return
        if card is None:
            self.column.say(who + tr("claim.select_first"), NOTE, 3000)
            return
        action = {"type": "counter", "card": card}
        if action not in legal:
            self.column.say(who + tr("claim.not_that_card"), BAD, 3000)
            return
        wid = (self.window or {}).get("window")
        self.send(seat, action, t_press=t_press, t_shown=self.window_shown_ms.get(wid))

    # -- controls -----------------------------------------------------------------------
    def _buttons_key(self, specs: list[tuple]) -> tuple:
        return tuple((s[0], s[1], s[4]) for s in specs)

    def _button(self, spec: tuple, rect: pygame.Rect) -> Any:
        ident, label, oid, what, enabled, seat = spec
        text, cls = fitted(label, rect.w, self.app.ui_scale)
        b = button(self, rect, text, object_id=oid, class_id=cls, raw=True, command=call(self._press, seat, what))
        if not enabled:
            b.disable()
        return b

    def _press(self, seat: int | None, what: Any) -> None:
        if what == "results":
            self.results_shown = False
            self._maybe_results()
        elif what == "claim" and seat is not None:
            self.claim_now(seat)
        elif what == "cancel":
            ch = self.choosers.get(seat) if seat is not None else None
            if ch is not None:
                ch.clear()
            self._refresh()
        elif isinstance(what, dict) and seat is not None:
            self.send(seat, what)

    # -- input --------------------------------------------------------------------------
    def click(self, pick: Place, seat: int | None = None) -> None:
        """A left click (or a Confirm key of ``seat``) on a place of the table."""
        kind, ident = pick
        seats = [seat] if seat is not None else sorted(self.links)
        if kind in ("mob", "pick"):  # an owner's or the player's choice of a mobster
            for s in seats:
                for a in self.legal.get(s, []):
                    if a.get("type") in CHOICES and a.get("mobster") == ident:
                        self.send(s, a)
                        return
        if kind == "card":
            owner = seat if seat is not None else self.card_owner(ident)
            w = self.window
            if owner is not None and w and owner in (w.get("pending") or []):
                self.cursor[owner] = ident  # the card to counter with
                self.actions.invalidate()
                self._refresh()
                return
        tseat = seat if seat is not None else self.turn_seat()
        ch = self.choosers.get(tseat) if tseat is not None else None
        if ch is None:
            if kind == "card":
                owner = self.card_owner(ident)
                if owner is not None:
                    self.cursor[owner] = ident
                    self.actions.build()
            return
        offered = ch.offered()
        if kind == "mob" and ("mob", ident) not in offered and ("player", ident // 9) in offered:
            pick = ("player", ident // 9)
        elif kind == "pick":
            pick = ("dead", ident)
        action = ch.click(pick)
        if kind == "card":
            if ch.card is not None:
                self.cursor[tseat] = ch.card
            else:
                self.cursor.pop(tseat, None)
        if action is not None:
            self.send(tseat, action)
        else:
            self._refresh()

    def _cancel_choice(self) -> bool:
        """Esc while a card is chosen: drop it."""
        for ch in self.choosers.values():
            if ch.card is not None:
                ch.clear()
                self._refresh()
                return True
        return False

    def _right_click(self, pick: Place, t_ms: float) -> None:
        """A right click on one of your cards counters with it (the kit), anywhere else
        drops the card being played."""
        if pick[0] == self.card_place and self.window:
            super()._right_click(pick, t_ms)
        else:
            self._cancel_choice()

    # -- frame --------------------------------------------------------------------------
    def hover_card_at(self, pos: tuple[int, int]) -> Mapping[str, Any] | None:
        """The face-up card at ``pos`` that has a tip."""
        return hover_card(self, pos, ("card",), {"discard": "discard"})

    def _draw_partial(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        return draw_partial(surface, self)

    def draw_table(self, surface: pygame.Surface) -> None:
        paint_table(surface, self)
