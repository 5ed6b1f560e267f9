"""The Omerta table: the match as the seat sees it, animated, and the controls the
rules allow right now.

State comes only from the server: each ``update`` carries the events this seat may see
(animated by :mod:`client.omerta_fx`), the seat's new view (what the table shows once
the effects are over) and its legal actions (which buttons and targets are offered:
:class:`client.picker.Picker` matches partial selections against them). Nothing waits
for an animation; input stays live during one.

Claims (snap, Hitwoman) are sent with ``t_press`` = the sampler's stamp of the key press
or right-click (client ms) and ``t_shown`` = the client ms of the first frame that showed
the card (or attack) that opened the window.

Several local seats may sit at one table (couch play): each is its own connection
(:class:`client.app.Link`) with its own key binding; the display follows the first one.
"""
from __future__ import annotations

from typing import Any

import pygame

from client import omerta_fx
from client.animation import Animator
from client.cards import character_name
from client.i18n import tr
from client.input import CONFIRM, NEXT, PASS, PREV, REVEAL, SELECT, SNAP, Binding, default_binding, now_ms
from client.layout import TableLayout, table_layout
from client.omerta_draw import draw_table
from client.picker import PICKED, Picker
from client.scenes.base import Scene
from client.scenes.widgets import button, call
from client.tween import Follower

#: Choices made by picking on the table, in the order they are looked for in ``legal``.
PICK_ORDER = ("peek", "replace", "safe_swap", "henchman", "lady", "mole", "snitch", "driver", "mamma",
              "police_patrol")
CLAIMS = ("snap", "hitwoman")
#: Buttons: action type -> (i18n key, object id).
BUTTONS = {
    "declare_omerta": ("act.declare_omerta", "#danger"),
    "draw_deck": ("act.draw_deck", "#primary"),
    "take_discard": ("act.take_discard", None),
    "end_turn": ("act.end_turn", "#primary"),
    "discard_drawn": ("act.discard_drawn", None),
    "safecracker": ("act.safecracker", "#primary"),
    "snap": ("act.snap", "#primary"),
    "snap_pass": ("act.snap_pass", None),
    "hitwoman": ("act.hitwoman", "#danger"),
    "hitwoman_pass": ("act.hitwoman_pass", None),
    "decline": ("act.decline", None),
}
MSG_MS = 7000.0
INFO = (243, 232, 207)
GOOD = (150, 235, 140)
BAD = (255, 140, 120)
NOTE = (255, 214, 102)


class OmertaTableScene(Scene):
    """``link`` is the connection that received ``started`` (a ``match_started``)."""

    def __init__(self, app: Any, link: Any, started: dict[str, Any]):
        super().__init__(app)
        self.table_id = started["table"]
        seat = started.get("seat")
        self.primary = link
        self.me: int | None = seat
        self.links: dict[int | None, Any] = {seat: link}
        self.bindings: dict[int, Binding] = {seat: default_binding()} if seat is not None else {}
        self.view: dict[str, Any] = started["view"]
        self.legal: dict[int | None, list[dict[str, Any]]] = {seat: list(started.get("legal", []))}
        self.t = 0.0
        self.anim = Animator()
        self.layout: TableLayout = table_layout(self.view, app.size)
        self.pos: dict[int, Follower] = {}
        self.picker: Picker | None = None
        self.picker_seat: int | None = None
        self.cursor: dict[int, int] = {}
        self.hover: tuple[str, int] | None = None
        self.messages: list[tuple[str, tuple[int, int, int], float]] = []
        self.window_face_t: dict[int, float] = {}
        self.window_shown_ms: dict[int, float] = {}
        self.window_open_t: dict[int, float] = {}
        self._shown_pending: set[int] = set()
        self._buttons_sig: tuple | None = None
        self._esc_until = 0.0
        # results of rounds played before we arrived are not shown again
        self.results_shown_round = int((self.view.get("last_round") or {}).get("round", 0))
        self.match_result: dict[str, Any] | None = None
        self.show_slot_numbers = True
        self._sync_followers()
        self._deal_current()
        self._refresh()

    # -- things the drawing reads ----------------------------------------------------
    @property
    def art(self):
        return self.app.art

    @property
    def local_seats(self) -> set[int]:
        return {s for s in self.links if s is not None}

    @property
    def table_name(self) -> str:
        return str(self.app.tables.get(self.table_id, {}).get("name") or "")

    @property
    def help_line(self) -> str:
        b = self.bindings.get(self.me) if self.me is not None else None
        if b is None:
            return tr("table.help_spectator")
        keys = b.describe()
        return tr("table.help", snap=keys.get("snap", "?"), passkey=keys.get("pass", "?"))

    @property
    def picked(self) -> set[tuple[str, int]]:
        return set(self.picker.selection) if self.picker is not None else set()

    @property
    def offered(self) -> set[tuple[str, int]]:
        out: set[tuple[str, int]] = set()
        if self.picker is not None:
            out |= self.picker.offered()
            if "player" in self.picker.pick_kinds:  # offer the players' cards as handles too
                seats = {p for k, p in out if k == "player"}
                for p in seats:
                    area = self.layout.seats.get(p)
                    if area is not None:
                        out |= {("slot", sid) for sid in area.slots}
        types = self.legal_types(self.turn_seat())
        if "draw_deck" in types:
            out.add(("draw_pile", 0))
        if "take_discard" in types or "discard_drawn" in types:
            out.add(("discard", 0))
        if "safecracker" in types:
            out |= {("safe", i) for i in range(4)}
        return out

    @property
    def cursor_picks(self) -> set[tuple[str, int]]:
        return {("slot", sid) for sid in self.cursor.values()}

    def seat_name(self, p: int) -> str:
        seats = self.app.tables.get(self.table_id, {}).get("seats", [])
        name = next((s.get("name") for s in seats if s.get("seat") == p), None) or tr("table.seat", n=str(p + 1))
        if p in self.local_seats and len(self.local_seats) == 1:
            return tr("table.you", name=name)
        return name

    def seat_status(self, p: int) -> str:
        v = self.view
        player = v["players"][p]
        if v.get("phase") == "peek" and not player.get("peeked"):
            return tr("status.peeking")
        if player.get("mamma") is not None:
            return tr("status.mamma")
        w = v.get("window")
        if w and p in w.get("pending", []):
            return tr("status.deciding")
        return ""

    def slot_pos(self, sid: int, rect: pygame.Rect) -> tuple[float, float]:
        f = self.pos.get(sid)
        return (f.x, f.y) if f is not None else rect.topleft

    def visible_messages(self) -> list[tuple[str, tuple[int, int, int], float]]:
        return [m for m in self.messages if m[2] > self.t][-8:]

    def window_left(self) -> float | None:
        """Fraction of the open window's time left (1 -> 0), None without a window."""
        w = self.view.get("window")
        if not w:
            return None
        opened = self.window_open_t.get(w["window"])
        if opened is None:
            return None
        return min(1.0, max(0.0, 1.0 - (self.t - opened) / max(1.0, float(w.get("timeout_ms", 3000)))))

    @property
    def prompt(self) -> tuple[str, str, bool]:
        """(main line, second line, urgent) for the banner above your cards."""
        return self._prompt

    # -- helpers ----------------------------------------------------------------------
    def legal_types(self, seat: int | None) -> set[str]:
        return {a.get("type") for a in self.legal.get(seat, [])}

    def turn_seat(self) -> int | None:
        """The local seat that has a turn action or choice to make now."""
        for s in sorted(self.local_seats):
            types = self.legal_types(s)
            if types - set(CLAIMS) - {"snap_pass", "hitwoman_pass"}:
                return s
        return None

    def own_slots(self, seat: int) -> list[int]:
        return [s["slot"] for s in self.view["players"][seat]["slots"]]

    def say(self, message: str, colour: tuple[int, int, int] = INFO, ms: float = MSG_MS) -> None:
        self.messages.append((message, colour, self.t + ms))
        self.messages = self.messages[-30:]

    # -- life cycle ---------------------------------------------------------------------
    def build(self, size: tuple[int, int]) -> None:
        self._buttons_sig = None
        self._build_buttons()

    def on_resize(self, size: tuple[int, int]) -> None:
        self.anim.finish()
        self.layout = table_layout(self.view, size)
        self.pos.clear()
        self._sync_followers()

    def _sync_followers(self) -> None:
        live = set()
        for area in self.layout.seats.values():
            for sid, r in area.slots.items():
                live.add(sid)
                if sid not in self.pos:
                    self.pos[sid] = Follower(r.x, r.y, half_life_ms=55.0)
        for sid in list(self.pos):
            if sid not in live:
                del self.pos[sid]

    def _fx(self, prev_view: dict[str, Any], old: TableLayout) -> omerta_fx.FxContext:
        def slot_rect(sid: int) -> pygame.Rect | None:
            r = self.layout.slot_rect(sid) or old.slot_rect(sid)
            f = self.pos.get(sid)
            if r is not None and f is not None:
                return pygame.Rect(int(f.x), int(f.y), r.w, r.h)
            return r

        def window_face(wid: int, at: float) -> None:
            self.window_face_t[wid] = at
            self.window_open_t[wid] = at

        return omerta_fx.FxContext(self.anim, self.t, self.me, old, self.layout, slot_rect, prev_view, window_face,
                                   local=self.local_seats)

    def _deal_current(self) -> None:
        v = self.view
        if v.get("phase") == "peek" and not any(p.get("peeked") for p in v["players"]):
            ctx = self._fx(v, self.layout)
            omerta_fx.deal(ctx, [[s["slot"] for s in p["slots"]] for p in v["players"]], int(v.get("first", 0)))
            self.app.sound and self.app.sound.play("deal")

    # -- network ------------------------------------------------------------------------
    def seat_of(self, link: Any) -> int | None | bool:
        for seat, l in self.links.items():
            if l is link:
                return seat
        return False

    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        if msg.get("table") != self.table_id and not (msg.get("type") == "table" and
                                                     msg.get("table", {}).get("id") == self.table_id):
            return
        kind = msg.get("type")
        seat = self.seat_of(link)
        if seat is False:
            if kind == "match_started" and msg.get("seat") is not None:  # a new local seat (couch)
                self.add_local_seat(link, msg)
            return
        if kind == "update":
            self.legal[seat] = list(msg.get("legal", []))
            if link is self.primary:
                self._apply_update(msg)
            else:
                self._private_events(seat, msg.get("events", []))
            self._refresh()
        elif kind == "claim_result":
            self._claim_result(seat, msg)
        elif kind == "match_over":
            self.match_result = msg.get("result")
            self._show_results()
        elif kind == "table":
            pass  # names are read from app.tables at draw time

    def add_local_seat(self, link: Any, msg: dict[str, Any], binding: Binding | None = None) -> None:
        seat = msg["seat"]
        self.links[seat] = link
        self.legal[seat] = list(msg.get("legal", []))
        self.bindings[seat] = binding or default_binding()
        self._refresh()

    def _apply_update(self, msg: dict[str, Any]) -> None:
        prev_view, old = self.view, self.layout
        self.view = msg["view"]
        self.layout = table_layout(self.view, self.app.size)
        ctx = self._fx(prev_view, old)
        for ev in msg.get("events", []):
            try:
                omerta_fx.animate(ctx, ev)
            except (KeyError, IndexError, TypeError, ValueError):  # a malformed event: show the view
                pass
            self._narrate(ev)
        self._sync_followers()
        for seat, sid in list(self.cursor.items()):
            if sid not in self.layout.slot_owner:
                del self.cursor[seat]
        lr = self.view.get("last_round")
        if lr and lr.get("round", 0) > self.results_shown_round:
            self._show_results()

    def _private_events(self, seat: int, events: list[dict[str, Any]]) -> None:
        """Events of a second local seat: only its private looks matter (hand-over)."""
        for ev in events:
            if ev.get("type") == "look" and ev.get("cards") is not None and ev.get("seat") == seat:
                self.say(tr("msg.private_look", name=self.seat_name(seat)), NOTE)

    def _narrate(self, ev: dict[str, Any]) -> None:
        """One line in the message column (and a sound) for an event."""
        kind = ev.get("type")
        seat = ev.get("seat")
        who = self.seat_name(seat) if isinstance(seat, int) else ""
        snd = self.app.sound
        mine = seat in self.local_seats
        if kind == "turn":
            if mine:
                self.say(tr("msg.your_turn"), NOTE, 3000)
                snd and snd.play("turn")
        elif kind == "turn_skipped":
            self.say(tr("msg.skipped", name=who), NOTE)
        elif kind == "draw":
            src = tr("msg.from_discard", card=_card_text(ev.get("card"))) if ev.get("source") == "discard" \
                else tr("msg.from_pile")
            self.say(tr("msg.draw", name=who, source=src))
            snd and snd.play("card")
        elif kind == "replace":
            self.say(tr("msg.replace", name=who, card=_card_text(ev.get("card"))))
        elif kind == "discard":
            self.say(tr("msg.discard", name=who, card=_card_text(ev.get("card"))))
            snd and snd.play("flip")
        elif kind == "window_opened" and ev.get("kind") == "hitwoman":
            self.say(tr("msg.counter_window", name=self.seat_name(int(ev.get("attacker", 0))),
                        card=character_name((ev.get("attack") or {}).get("type", ""))), NOTE)
        elif kind == "snap":
            if ev.get("success"):
                self.say(tr("msg.snap_ok", name=who, card=_card_text(ev.get("card"))), GOOD)
                snd and snd.play("snap_won" if mine else "card")
            else:
                self.say(tr("msg.snap_wrong", name=who, card=_card_text(ev.get("card"))), BAD)
                snd and snd.play("snap_lost" if mine else "penalty")
        elif kind == "counter":
            key = "msg.counter_ok" if ev.get("success") else "msg.counter_wrong"
            self.say(tr(key, name=who, card=_card_text(ev.get("card"))), GOOD if ev.get("success") else BAD)
        elif kind == "penalty" and ev.get("slot") is not None:
            self.say(tr("msg.penalty", name=who), BAD)
        elif kind == "pass":
            pass
        elif kind == "power":
            self.say(tr("msg.power", name=who, card=character_name(str(ev.get("card")))), NOTE)
        elif kind == "power_declined":
            self.say(tr("msg.power_declined", name=who, card=character_name(str(ev.get("card")))))
        elif kind == "swap":
            self.say(tr("msg.swap", name=who))
        elif kind == "shuffle":
            self.say(tr("msg.shuffle", name=who))
        elif kind == "give" and ev.get("slot") is not None:
            self.say(tr("msg.give", name=who))
        elif kind == "driver":
            key = "msg.driver_ok" if ev.get("success") else "msg.driver_wrong"
            cards = ", ".join(_card_text(c) for c in ev.get("cards", []))
            self.say(tr(key, name=who, cards=cards), GOOD if ev.get("success") else BAD)
        elif kind == "safe_swap":
            self.say(tr("msg.safe_swap", name=who))
        elif kind == "marker_placed":
            target = who
            self.say(tr("msg.marker_placed", card=character_name(str(ev.get("kind"))), name=target), NOTE)
        elif kind == "marker_removed":
            self.say(tr("msg.marker_removed", card=character_name(str(ev.get("kind"))), name=who))
        elif kind == "omerta":
            self.say(tr("msg.omerta", name=who), NOTE)
            snd and snd.play("omerta")
        elif kind == "reshuffle":
            self.say(tr("msg.reshuffle"))
        elif kind == "no_draw":
            self.say(tr("msg.no_draw", name=who))
        elif kind == "look" and ev.get("cards") is None and ev.get("reason") == "mole":
            self.say(tr("msg.mole", name=who))

    def _claim_result(self, seat: int | None, msg: dict[str, Any]) -> None:
        outcome = msg.get("outcome")
        margin = msg.get("margin_ms")
        ms = f"{abs(float(margin)):.0f}" if isinstance(margin, (int, float)) else "?"
        prefix = "" if len(self.local_seats) <= 1 or seat is None else self.seat_name(seat) + ": "
        if outcome == "won":
            self.say(prefix + (tr("claim.won_by", ms=ms) if margin else tr("claim.won")), GOOD, 5000)
        elif outcome == "wrong":
            self.say(prefix + tr("claim.wrong"), BAD, 5000)
        elif outcome == "too_slow":
            self.say(prefix + tr("claim.too_slow", ms=ms), BAD, 5000)
            self.app.sound and self.app.sound.play("snap_lost")
        else:
            self.say(prefix + tr("claim.refused", reason=str(msg.get("message") or "")), BAD, 6000)

    def _show_results(self) -> None:
        from client.scenes.results import ResultsScene

        lr = self.view.get("last_round")
        over = self.view.get("phase") == "over"
        if lr is None and not over:
            return
        if self.app.scenes and isinstance(self.app.top, ResultsScene):
            self.app.top.update_result(self.match_result)
            return
        if lr is not None:
            self.results_shown_round = max(self.results_shown_round, int(lr.get("round", 0)))
        self.app.push(ResultsScene(self.app, self, lr, final=over, result=self.match_result))

    def results_closed(self) -> None:
        """The round results were dismissed: deal the new round on screen."""
        self.anim.finish()
        self._deal_current()

    def on_link_lost(self, link: Any) -> None:
        seat = self.seat_of(link)
        if seat is False:
            return
        if link is self.primary:
            self.app.go_menu()
        else:
            self.links.pop(seat, None)
            self.bindings.pop(seat, None)

    # -- sending ------------------------------------------------------------------------
    def send(self, seat: int | None, action: dict[str, Any], t_press: float | None = None,
             t_shown: float | None = None) -> None:
        link = self.links.get(seat)
        if link is None or link.conn is None:
            return
        saved = self.legal.get(seat, [])
        self.legal[seat] = []  # nothing more to click until the server answers
        if self.picker_seat == seat:
            self.picker = None
        self._refresh()
        self.app.sound and self.app.sound.play("click")

        def failed(f) -> None:
            if not self.legal.get(seat):
                self.legal[seat] = saved
                self._refresh()
            msg = getattr(f.value, "message", str(f.value))
            if action.get("type") in ("snap_pass", "hitwoman_pass"):
                return  # the window closed meanwhile: nothing to say
            if getattr(f.value, "code", "") not in ("disconnected",):
                self.say(tr("error.action", reason=msg), BAD)

        d = link.conn.send_action(self.table_id, dict(action), t_press=t_press, t_shown=t_shown)
        d.addErrback(failed)

    def claim(self, seat: int, slot: int | None, t_press: float) -> None:
        """Snap (or counter with a Hitwoman) with ``slot``; ``t_press`` is the stamp of
        the key press or click (client ms)."""
        legal = self.legal.get(seat, [])
        kind = next((k for k in CLAIMS if any(a.get("type") == k for a in legal)), None)
        if kind is None:
            if self.view.get("window") and seat in self.view["window"].get("eligible", []):
                self.say(tr("claim.already"), INFO, 2500)
            else:
                self.say(tr("claim.no_window"), INFO, 2500)
            return
        if slot is None:
            self.say(tr("claim.select_first"), NOTE, 3000)
            return
        action = {"type": kind, "slot": slot}
        if action not in legal:
            self.say(tr("claim.not_that_card"), BAD, 3000)
            return
        wid = (self.view.get("window") or {}).get("window")
        self.send(seat, action, t_press=t_press, t_shown=self.window_shown_ms.get(wid))

    def pass_window(self, seat: int) -> None:
        for a in self.legal.get(seat, []):
            if a.get("type") in ("snap_pass", "hitwoman_pass"):
                self.send(seat, a)
                return

    # -- controls -----------------------------------------------------------------------
    def _refresh(self) -> None:
        """Re-derive the picker, the buttons and the prompt from ``legal``."""
        seat = self.turn_seat()
        legal = self.legal.get(seat, []) if seat is not None else []
        kind = next((k for k in PICK_ORDER if any(a.get("type") == k for a in legal)), None)
        if kind is None:
            self.picker, self.picker_seat = None, None
        elif self.picker is None or self.picker.kind != kind or self.picker_seat != seat or \
                [a for a in legal if a.get("type") == kind] != [a for a, _ in self.picker.options]:
            self.picker, self.picker_seat = Picker(kind, legal), seat
        self._prompt = self._make_prompt(seat)
        if self.app.scenes and self.app.top is self:
            self._build_buttons()

    def _button_specs(self) -> list[tuple[str, str, str | None, Any, bool]]:
        """(id, i18n key, object id, callback, enabled) of the buttons to show."""
        specs = []
        seats = sorted(self.local_seats)
        for seat in seats:
            types = self.legal_types(seat)
            for t, (key, oid) in BUTTONS.items():
                if t not in types or t in ("snap", "hitwoman"):
                    continue
                if t == "decline" and self.view.get("step") == "safe":
                    key = "act.keep"
                if t == "decline" and self.view.get("power"):
                    key = "act.decline_power"
                action = next(a for a in self.legal[seat] if a.get("type") == t)
                specs.append((f"{seat}:{t}", key, oid, call(self.send, seat, action), True))
            for t in ("snap", "hitwoman"):
                if t in types:
                    specs.insert(0, (f"{seat}:{t}", BUTTONS[t][0], BUTTONS[t][1],
                                     call(self._claim_button, seat),
                                     self.cursor.get(seat) is not None))
        if self.picker is not None and self.picker.kind == "driver":
            ready = self.picker.complete() is not None
            specs.insert(0, ("confirm", "act.confirm_driver", "#primary", self._confirm_picker, ready))
        if self.picker is not None and self.picker.selection:
            specs.append(("clear", "act.clear", None, self._clear_picker, True))
        return specs

    def _build_buttons(self) -> None:
        specs = self._button_specs()
        sig = (tuple((s[0], s[1], s[4]) for s in specs), self.app.size)
        if sig == self._buttons_sig:
            return
        self._buttons_sig = sig
        self.clear_ui()
        box = self.layout.actions
        n = max(1, len(specs))
        gap = max(4, int(box.h * 0.03))
        bh = min(int(44 * self.app.ui_scale), (box.h - gap * (n - 1)) // n)
        bw = min(box.w - 8, int(box.h * 1.5))
        y = box.bottom - n * bh - (n - 1) * gap
        for ident, key, oid, cb, enabled in specs:
            b = button(self, pygame.Rect(box.centerx - bw // 2, y, bw, bh), key, object_id=oid, command=cb)
            if not enabled:
                b.disable()
            y += bh + gap

    def _claim_button(self, seat: int) -> None:
        self.claim(seat, self.cursor.get(seat), now_ms())

    def _confirm_picker(self) -> None:
        if self.picker is not None and self.picker.complete() is not None:
            self.send(self.picker_seat, self.picker.complete())

    def _clear_picker(self) -> None:
        if self.picker is not None:
            self.picker.clear()
            self._refresh()

    def _make_prompt(self, seat: int | None) -> tuple[str, str, bool]:
        v = self.view
        w = v.get("window")
        mine_pending = [s for s in sorted(self.local_seats) if w and s in w.get("pending", [])]
        if w and mine_pending:
            keys = self.bindings.get(mine_pending[0], default_binding()).describe()
            if w.get("kind") == "snap":
                return (tr("prompt.snap", value=str(w.get("value"))),
                        tr("prompt.snap_keys", snap=keys.get("snap", "?"), passkey=keys.get("pass", "?")), True)
            attack = (w.get("attack") or {}).get("type", "")
            return (tr("prompt.counter", name=self.seat_name(int(w.get("attacker", 0))), card=character_name(attack)),
                    tr("prompt.counter_keys", snap=keys.get("snap", "?"), passkey=keys.get("pass", "?")), True)
        if w:
            if w.get("kind") == "snap":
                return (tr("prompt.snap_others", value=str(w.get("value"))), "", False)
            return (tr("prompt.counter_others"), "", False)
        if v.get("phase") == "over":
            return (tr("prompt.over"), "", False)
        if v.get("phase") == "peek":
            if any(a.get("type") == "peek" for s in self.local_seats for a in self.legal.get(s, [])):
                return (tr("prompt.peek"), tr("prompt.peek_sub"), True)
            return (tr("prompt.peek_wait"), "", False)
        if seat is None:
            turn = v.get("turn", 0)
            return (tr("prompt.waiting", name=self.seat_name(turn)), "", False)
        types = self.legal_types(seat)
        who = "" if len(self.local_seats) == 1 else self.seat_name(seat) + " — "
        step = v.get("step")
        if step == "start":
            sub = tr("prompt.start_sub_omerta") if "declare_omerta" in types else tr("prompt.start_sub")
            if "end_turn" in types:
                return (who + tr("prompt.no_draw"), "", True)
            return (who + tr("prompt.start"), sub, True)
        if step == "drawn":
            return (who + (tr("prompt.drawn") if "discard_drawn" in types else tr("prompt.drawn_discard")), "", True)
        if step == "power":
            power = str(v.get("power"))
            return (who + tr(f"power.{power}"), tr("prompt.power_sub", card=character_name(power)), True)
        if step == "safe":
            return (who + tr("prompt.safe"), "", True)
        return ("", "", False)

    # -- input --------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        et = event.type
        if et == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                if self.t < self._esc_until:
                    self.leave_table()
                else:
                    self._esc_until = self.t + 2500
                    self.say(tr("table.esc_again"), NOTE, 2500)
                return
            for seat, binding in list(self.bindings.items()):
                cmd = binding.command(event)
                if cmd is not None:
                    self.command(seat, cmd, t_ms)
                    return
        elif et in (pygame.JOYBUTTONDOWN, pygame.JOYHATMOTION):
            for seat, binding in list(self.bindings.items()):
                cmd = binding.command(event)
                if cmd is not None:
                    self.command(seat, cmd, t_ms)
                    return
        elif et == pygame.MOUSEMOTION:
            self.hover = self.layout.hit(event.pos)
        elif et == pygame.MOUSEBUTTONDOWN:
            pick = self.layout.hit(event.pos)
            if pick is None:
                return
            if event.button == 1:
                self.click(pick)
            elif event.button == 3 and pick[0] == "slot":
                owner = self.layout.slot_owner.get(pick[1])
                if owner in self.local_seats:
                    self.cursor[owner] = pick[1]
                    self.claim(owner, pick[1], t_ms)

    def command(self, seat: int, cmd: tuple[str, int], t_ms: float) -> None:
        """A key or controller command of local ``seat`` (see client.input)."""
        name, arg = cmd
        slots = self.own_slots(seat)
        if name == SELECT:
            if arg < len(slots):
                self.cursor[seat] = slots[arg]
                self._build_buttons()
        elif name in (PREV, NEXT) and slots:
            cur = self.cursor.get(seat)
            i = slots.index(cur) if cur in slots else (-1 if name == NEXT else 0)
            i = (i + (1 if name == NEXT else -1)) % len(slots)
            self.cursor[seat] = slots[i]
            self._build_buttons()
        elif name == SNAP:
            self.claim(seat, self.cursor.get(seat), t_ms)
        elif name == PASS:
            self.pass_window(seat)
        elif name == CONFIRM:
            cur = self.cursor.get(seat)
            if cur is not None:
                self.click(("slot", cur), seat)
        elif name == REVEAL:
            self.reveal_request(seat)

    def reveal_request(self, seat: int) -> None:
        """Hand-over: only for couch play (see client.scenes.handover)."""

    def click(self, pick: tuple[str, int], seat: int | None = None) -> None:
        """A left click (or Confirm key) on a place of the table."""
        kind, ident = pick
        tseat = self.turn_seat() if seat is None else seat
        types = self.legal_types(tseat)
        legal = self.legal.get(tseat, [])
        if kind == "draw_pile" and "draw_deck" in types:
            self.send(tseat, {"type": "draw_deck"})
            return
        if kind == "discard":
            if "take_discard" in types:
                self.send(tseat, {"type": "take_discard"})
                return
            if "discard_drawn" in types:
                self.send(tseat, {"type": "discard_drawn"})
                return
        if kind == "safe" and "safecracker" in types:
            self.send(tseat, next(a for a in legal if a.get("type") == "safecracker"))
            return
        p = self.picker
        if p is not None and self.picker_seat == tseat:
            kinds = p.pick_kinds
            if kind == "slot" and "slot" not in kinds and "player" in kinds:
                owner = self.layout.slot_owner.get(ident)
                pick = ("player", owner) if owner is not None else pick
            if p.click(pick):
                ready = p.ready()
                if ready is not None:
                    self.send(tseat, ready)
                else:
                    self._refresh()
                return
        if kind == "slot":  # choose the card you will snap with
            owner = self.layout.slot_owner.get(ident)
            if owner in self.local_seats:
                self.cursor[owner] = ident
                self._build_buttons()

    def leave_table(self) -> None:
        for link in self.links.values():
            if link is not None and link.conn is not None:
                link.request("leave", table=self.table_id).addErrback(lambda f: None)
        for seat, link in list(self.links.items()):
            if link is not self.primary and link is not self.app.main_link:
                self.app.close_link(link)
        self.app.go_menu()

    # -- frame --------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        dt_ms = dt * 1000.0
        self.t += dt_ms
        for sid, f in self.pos.items():
            r = self.layout.slot_rect(sid)
            if r is not None:
                f.step(r.x, r.y, dt_ms)
        self.anim.prune(self.t)
        for wid, at in self.window_face_t.items():
            if wid not in self.window_shown_ms and self.t >= at:
                self._shown_pending.add(wid)
        if len(self.window_face_t) > 50:
            for wid in sorted(self.window_face_t)[:-10]:
                self.window_face_t.pop(wid, None)

    def presented(self, t_ms: float) -> None:
        for wid in self._shown_pending:
            self.window_shown_ms.setdefault(wid, t_ms)
        self._shown_pending.clear()

    def draw(self, surface: pygame.Surface) -> None:
        draw_table(surface, self)


def _card_text(card: Any) -> str:
    """How a card is named in messages: ``"7"`` or ``"Henchman (15)"``."""
    if not isinstance(card, dict):
        return "?"
    if card.get("kind") == "bottle":
        return tr("card.bottle", value=str(card.get("value")))
    return tr("card.character", name=character_name(str(card.get("name"))), points=str(card.get("points")))

