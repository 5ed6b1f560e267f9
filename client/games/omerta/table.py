"""The Omerta table: the match as this screen may show it, animated, and the controls
the rules allow right now.

State comes only from the server. The *display link* is the connection whose ``update``
messages the table shows: its events are animated (:mod:`client.games.omerta.fx`) and its view
is what the table shows once they are over. Each *local seat* is a connection of its
own (one player) with its own key binding; its ``legal`` actions decide the buttons and
the targets offered (:class:`client.games.omerta.picker.Picker` matches partial selections against
them). Nothing waits for an animation; input stays live during one.

* One player: the display link is the player's own seat; private looks show on the
  table (with a gold glow, to that screen only).
* Couch play: the display link is a spectator connection, so the shared screen shows
  public information only; a seat's private cards appear on the hand-over screen when
  that seat presses its reveal key.
* TV view: a spectator display link and no local seat.

Claims (snap, Hitwoman), their keys and stamping, couch seats and the hand-over screen
come from the table kit (:class:`client.table.reactions.ReactionTableScene`): the card
(or the attack) that opened a window is reported by the effects
(:meth:`~client.table.reactions.ReactionTableScene.window_seen`).
"""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Mapping

import pygame

from client.games.omerta import controls as omerta_controls, fx as omerta_fx
from client.games.omerta.controls import CLAIMS, PASSES
from client.games.omerta.draw import draw_partial, draw_table as paint_table
from client.games.omerta.help import card_help
from client.games.omerta.layout import TableLayout, table_layout
from client.games.omerta.narrate import NOTE, narrate
from client.games.omerta import narrate as omerta_narrate
from client.games.omerta.picker import Picker
from client.i18n import tr, labelled
from client.input import PASS, SNAP, Binding
from client.table.reactions import ReactionTableScene
from client.ui.widgets import button, call, fitted

#: How long a first click on "Declare Omerta!" waits for the second one (ms).
DECLARE_ARMED_MS = 5000.0
#: Choices made by picking on the table, in the order they are looked for in ``legal``.
PICK_ORDER = ("peek", "replace", "safe_swap", "henchman", "lady", "mole", "snitch", "driver", "mamma",
              "police_patrol")


class OmertaTableScene(ReactionTableScene):
    """``link`` received ``started`` (a ``match_started``) and becomes the display link;
    when ``started["seat"]`` is a seat, that seat is local with ``binding``."""

    game_name = "omerta"
    #: what a hint names (client.table.hint): slots by id, seats' plates, the piles and the safe
    HINT_PREFIX = "om_"
    HINT_FIELDS = {"slot": (), "slots": ()}
    HINT_SEAT_FIELDS = ("target", "recipients")
    HINT_SPOTS = {"draw_deck": "draw_pile", "take_discard": "discard", "discard_drawn": "discard",
                  "safecracker": "safe", "safe_swap": "safe"}

    controls = omerta_controls
    card_help = staticmethod(card_help)
    layout: TableLayout
    claim_types = CLAIMS
    pass_types = PASSES
    claim_field = "slot"
    card_place = "slot"

    def __init__(self, app: Any, link: Any, started: dict[str, Any], binding: Binding | None = None):
        self.secrets: dict[int, dict[str, Any]] = {}  # seat -> latest private look (hand-over)
        self._declare_until: dict[int, float] = {}  # seat -> scene ms its "Declare Omerta!" stays armed
        self.pickers: dict[int, Picker] = {}
        super().__init__(app, link, started, binding)
        # results of rounds played before we arrived are not shown again
        self.results_shown_round = int((self.view.get("last_round") or {}).get("round", 0))
        self.motion.sync(self.card_rects())
        self._deal_current()
        self._refresh()
        if started.get("resumed"):
            self.feed.resumed_lines(started)

    # -- things the drawing reads ----------------------------------------------------
    @property
    def show_slot_numbers(self) -> bool:
        return any(b.slot_keys for b in self.bindings.values())

    @property
    def picked(self) -> set[tuple[str, int]]:
        return {p for pk in self.pickers.values() for p in pk.selection}

    @property
    def offered(self) -> set[tuple[str, int]]:
        out: set[tuple[str, int]] = set()
        for pk in self.pickers.values():
            offer = pk.offered()
            out |= offer
            if "player" in pk.pick_kinds:  # a player's cards are handles for the player
                for k, p in offer:
                    area = self.layout.seats.get(p) if k == "player" else None
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

    def seat_status(self, p: int) -> str:
        away = self.roster.seat_away(p)
        if away:
            return away
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

    # -- helpers ----------------------------------------------------------------------
    def legal_types(self, seat: int | None) -> set[str]:
        return {a.get("type") for a in self.legal.get(seat, [])}

    def turn_seat(self) -> int | None:
        """The local seat that has a turn action or a choice to make now."""
        for s in sorted(self.links):
            if self.legal_types(s) - set(CLAIMS) - set(PASSES) - {"peek"}:
                return s
        return None

    def own_slots(self, seat: int) -> list[int]:
        return [s["slot"] for s in self.view["players"][seat]["slots"]]

    def own_cards(self, seat: int) -> list[int]:
        return self.own_slots(seat)

    def card_owner(self, card: Any) -> int | None:
        return self.layout.slot_owner.get(card)

    def _layout(self) -> TableLayout:
        return table_layout(self.view, self.table_size, perspective=self.perspective)

    def card_rects(self) -> Mapping[int, pygame.Rect]:
        return self.layout.slots  # followers by slot id

    def _narrate(self, ev: dict[str, Any]):
        return narrate(ev, self.roster.seat_name, self.local_seats)

    def _moment(self, view: Mapping[str, Any]) -> Any:
        return omerta_narrate.moment(view)

    def _moment_after(self, ev: Mapping[str, Any], now: Any) -> Any:
        return omerta_narrate.moment_after(ev, now)

    # -- life cycle ---------------------------------------------------------------------
    def on_resize(self, size: tuple[int, int]) -> None:
        self.relayout()

    def _context(self, prev_view: dict[str, Any], old: TableLayout) -> omerta_fx.FxContext:
        def slot_rect(sid: int) -> pygame.Rect | None:
            r = self.layout.slot_rect(sid) or old.slot_rect(sid)
            shown = self.motion.shown_at(sid, r)
            return shown if shown is not None else r

        return omerta_fx.FxContext(self.anim, self.t, self.me, old, self.layout, slot_rect, prev_view, self.window_seen,
                                   local=self.local_seats)

    def _fx(self, prev_view: dict[str, Any], old: TableLayout) -> Callable[[dict[str, Any]], None]:
        return partial(omerta_fx.animate, self._context(prev_view, old))

    def _deal_current(self) -> None:
        v = self.view
        if v.get("phase") == "peek" and not any(p.get("peeked") for p in v["players"]):
            omerta_fx.deal(self._context(v, self.layout), [[s["slot"] for s in p["slots"]] for p in v["players"]],
                           int(v.get("first", 0)))
            self.app.sound and self.app.sound.play("deal")

    # -- network ------------------------------------------------------------------------
    def _note_seat(self, seat: int, msg: dict[str, Any]) -> None:
        super()._note_seat(seat, msg)
        if self.public and msg.get("type") == "update":
            self._keep_secrets(seat, msg.get("events", []))

    def _match_over(self) -> None:
        if not self.replay:
            self._show_results()

    def _drop_choices(self) -> None:
        self.pickers.clear()

    def _drop_choice(self, seat: int) -> None:
        self.pickers.pop(seat, None)

    def _forget_gone(self) -> None:
        for seat, sid in list(self.cursor.items()):
            if sid not in self.layout.slot_owner:
                del self.cursor[seat]

    def _after_update(self) -> None:
        self._forget_gone()
        lr = self.view.get("last_round")
        if lr and lr.get("round", 0) > self.results_shown_round and not self.replay:
            self._show_results()

    def _keep_secrets(self, seat: int, events: list[dict[str, Any]]) -> None:
        """Couch play: keep a seat's private look for its hand-over screen."""
        for ev in events:
            if ev.get("type") == "look" and ev.get("cards") is not None and ev.get("seat") == seat \
                    and ev.get("reason") != "safe":
                self.secrets[seat] = {"slots": list(ev.get("slots", [])), "cards": list(ev["cards"]),
                                      "reason": ev.get("reason")}
                keys = self.keys_of(seat)
                self.column.say(tr("msg.private_look", name=self.roster.seat_name(seat),
                                   button=keys.get("reveal", "?")), NOTE, 9000)
            elif ev.get("type") == "draw" and ev.get("seat") == seat and ev.get("source") == "deck":
                keys = self.keys_of(seat)
                self.column.say(tr("msg.private_draw", name=self.roster.seat_name(seat),
                                   button=keys.get("reveal", "?")), NOTE, 9000)

    def private_info(self, seat: int) -> dict[str, Any]:
        """What only ``seat`` may see now: its latest look (shown once), the card in its
        hand, the safe during its Safecracker."""
        v = self.seat_views.get(seat, {})
        drawn = v.get("drawn") if v.get("turn") == seat else None
        return {"look": self.secrets.get(seat),
                "drawn": drawn.get("card") if drawn and drawn.get("source") == "deck" else None,
                "safe": v.get("safe_cards")}

    def private_groups(self, seat: int, info: dict[str, Any]) -> list[tuple[str, list[tuple[Any, str]]]]:
        """The hand-over screen's groups: the cards of the latest look (by their place
        among the seat's cards), the card in hand, the safe."""
        groups = []
        look = info.get("look")
        if look:
            order = self.own_slots(seat)
            labels = [tr("handover.card_n", n=str(order.index(sid) + 1)) if sid in order else "?"
                      for sid in look["slots"]]
            groups.append((tr("handover.your_cards"), list(zip(look["cards"], labels))))
        if info.get("drawn"):
            groups.append((tr("handover.in_hand"), [(info["drawn"], "")]))
        if info.get("safe"):
            groups.append((tr("handover.safe"), [(c, str(i + 1)) for i, c in enumerate(info["safe"])]))
        return groups

    def private_shown(self, seat: int, info: dict[str, Any]) -> None:
        if info.get("look"):
            self.look_seen(seat)

    def look_seen(self, seat: int) -> None:
        """The hand-over screen showed ``seat``'s look: it is not kept (no memory)."""
        self.secrets.pop(seat, None)

    def _show_results(self) -> None:
        """The last round's results (the final ones once the match is over)."""
        lr = self.view.get("last_round")
        over = self.view.get("phase") == "over"
        if lr is None and not over:
            return
        if lr is not None and self.ending.results_board() is None:
            self.results_shown_round = max(self.results_shown_round, int(lr.get("round", 0)))
        self.ending.open_results(lr, final=over, result=self.match_result)

    def results_open(self) -> bool:
        """The round results of this table are on screen."""
        return self.ending.results_board() is not None

    def shown_round(self) -> int:
        """The round the top bar names: the one whose results are on screen while they
        are (the view has already moved on to the next round), else the view's."""
        r = int(self.view.get("round", 1) or 1)
        lr = self.view.get("last_round")
        if lr and self.view.get("phase") != "over" and self.results_open():
            return int(lr.get("round", r) or r)
        return r

    def results_closed(self) -> None:
        """The round results were dismissed: deal the new round on screen."""
        self.anim.finish()
        self._deal_current()

    # -- controls -----------------------------------------------------------------------
    def _update_choices(self) -> None:
        """Re-derive each local seat's picker from its ``legal``."""
        for seat in self.links:
            legal = self.legal.get(seat, [])
            kind = next((k for k in PICK_ORDER if any(a.get("type") == k for a in legal)), None)
            old = self.pickers.get(seat)
            if kind is None:
                self.pickers.pop(seat, None)
            elif old is None or old.kind != kind or \
                    [a for a in legal if a.get("type") == kind] != [a for a, _ in old.options]:
                self.pickers[seat] = Picker(kind, legal)
        for seat in [s for s in self._declare_until if "declare_omerta" not in self.legal_types(s)]:
            del self._declare_until[seat]  # the turn moved on: no confirmation left to ask

    def _buttons_key(self, specs: list[tuple]) -> tuple:
        return tuple((s[0], s[1], s[4]) for s in specs)

    def _button_rows(self, specs: list[tuple]) -> list[int] | None:
        return omerta_controls.button_rows(specs)

    # -- declaring Omerta takes two clicks ------------------------------------------
    def declare_armed(self, seat: int) -> bool:
        """``seat`` clicked "Declare Omerta!" once: the next click declares."""
        until = self._declare_until.get(seat)
        return until is not None and self.t < until and "declare_omerta" in self.legal_types(seat)

    def _arm_declare(self, seat: int) -> None:
        self._declare_until[seat] = self.t + DECLARE_ARMED_MS  # the banner asks (controls.prompt)
        self.app.sound and self.app.sound.play("click")
        self._refresh()

    def _disarm_declare(self) -> bool:
        """Take back an armed declaration; True when one was asked (the banner and the
        button said "Sure? Declare!", even if it lapsed in this very frame)."""
        was = bool(self._declare_until)
        self._declare_until.clear()
        if was:
            self._refresh()
        return was

    def _cancel_choice(self) -> bool:
        """Esc: takes back an armed "Declare Omerta!", else clears the cards picked for a
        power or the Driver (its confirmation waits for them)."""
        if self._disarm_declare():
            return True
        picked = [p for s, p in self.pickers.items() if s in self.links and p.selection]
        for p in picked:
            p.clear()
        if picked:
            self._refresh()
        return bool(picked)

    def update(self, dt: float) -> None:
        super().update(dt)
        if self._declare_until and not any(self.t < u for u in self._declare_until.values()):
            self._disarm_declare()

    def _button_width(self, box: pygame.Rect) -> int:
        return min(box.w - 8, int(box.h * 1.5))

    def _button(self, spec: tuple, rect: pygame.Rect) -> Any:
        ident, key, oid, what, enabled, seat = spec
        couch = len(self.links) > 1
        text, cls = fitted(labelled(self.roster.seat_name(seat), tr(key)) if couch else tr(key), rect.w, self.app.ui_scale)
        if cls is None and not couch:
            text = key  # translated by pygame_gui itself
        b = button(self, rect, text, object_id=oid, class_id=cls, raw=couch or cls is not None,
                   command=call(self._press, seat, what))
        if not enabled:
            b.disable()
        return b

    def _press(self, seat: int, what: Any) -> None:
        """An action button: an action dict to send, or "claim" / "confirm" / "clear"."""
        picker = self.pickers.get(seat)
        if what == "claim":
            self.claim_now(seat)
        elif what == "confirm":
            if picker is not None and picker.complete() is not None:
                self.send(seat, picker.complete())
        elif what == "clear":
            if picker is not None:
                picker.clear()
                self._refresh()
        elif isinstance(what, dict) and what.get("type") == "declare_omerta" and not self.declare_armed(seat):
            self._arm_declare(seat)  # asks for one more click
        else:
            self._declare_until.pop(seat, None)
            self.send(seat, what)

    # -- input --------------------------------------------------------------------------
    def _picker_for(self, pick: tuple[str, int], seat: int | None) -> tuple[int | None, Picker | None]:
        """Which local seat a click on ``pick`` is for, and its picker: the seat whose
        own choice offers it (a peek), else the seat whose turn it is."""
        if seat is None and pick[0] == "slot":
            owner = self.layout.slot_owner.get(pick[1])
            pk = self.pickers.get(owner) if owner is not None else None
            if pk is not None and pick in pk.offered() | set(pk.selection):
                return owner, pk
        tseat = self.turn_seat() if seat is None else seat
        if tseat is None:  # only simultaneous choices (the peek) are open
            tseat = next((s for s in sorted(self.pickers) if self.pickers[s].kind == "peek"), None) \
                if len(self.links) == 1 else None
        return tseat, self.pickers.get(tseat) if tseat is not None else None

    def command(self, seat: int, cmd: tuple[str, int], t_ms: float) -> None:
        """A seat's key: with no reaction window open and a choice on the table (the
        start-of-round peek, a power's targets), the snap and pass keys (Space, Return)
        pick the card under the cursor, chosen with 1-9 or the arrows."""
        name = cmd[0]
        if name in (SNAP, PASS) and self.window is None and self.pickers.get(seat) is not None \
                and not (self.legal_types(seat) & (set(CLAIMS) | set(PASSES))):
            cur = self.cursor.get(seat)
            if cur is not None:
                self.click(("slot", cur), seat)
            else:
                self.column.say(tr("claim.select_first") if len(self.links) == 1
                         else labelled(self.roster.seat_name(seat), tr('claim.select_first')), NOTE, 3000)
            return
        super().command(seat, cmd, t_ms)

    def click(self, pick: tuple[str, int], seat: int | None = None) -> None:
        """A left click (or a Confirm key) on a place of the table."""
        kind, ident = pick
        self._disarm_declare()  # a click elsewhere takes back an armed declaration
        tseat, p = self._picker_for(pick, seat)
        types = self.legal_types(tseat)
        if kind == "draw_pile" and "draw_deck" in types:
            self.send(tseat, {"type": "draw_deck"})
            return
        if kind == "discard" and types & {"take_discard", "discard_drawn"}:
            self.send(tseat, {"type": "take_discard" if "take_discard" in types else "discard_drawn"})
            return
        if kind == "safe" and "safecracker" in types:
            self.send(tseat, {"type": "safecracker"})
            return
        if p is not None:
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
            if owner in self.links:
                self.cursor[owner] = ident
                self.actions.build()

    # -- frame --------------------------------------------------------------------------
    def hover_card_at(self, pos: tuple[int, int]) -> Mapping[str, Any] | None:
        """The face-up card at ``pos``: the top of the discard pile, the card in hand
        when this screen sees it, a card the view gives face up."""
        lay, v = self.layout, self.view
        if lay.discard.collidepoint(pos) and v.get("discard"):
            return v["discard"][-1]
        drawn = v.get("drawn")
        turn = v.get("turn")
        if drawn and drawn.get("card") and turn in lay.seats and lay.seats[turn].hand.collidepoint(pos):
            return drawn["card"]
        pick = lay.hit(pos)
        if pick is not None and pick[0] == "slot":
            for p in v.get("players", []):
                for sl in p.get("slots", []):
                    if sl.get("slot") == pick[1] and sl.get("card"):
                        return sl["card"]
        return None

    def _draw_partial(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        return draw_partial(surface, self)

    def draw_table(self, surface: pygame.Surface) -> None:
        paint_table(surface, self)
