"""The Mafiosi table: the match as this screen may show it, animated, and the cards the
rules let you pick right now.

State comes only from the server. The *display link* is the connection whose ``update``
messages the table shows: its events are animated (:mod:`client.games.mafiosi.fx`) and
told in the message column (:mod:`client.games.mafiosi.narrate`); its view is what the
table shows once they are over. Every Mafiosi action names one card, so a click on a
raised card of your hand (or, while you choose a point card, on one of your won cards)
is exactly one legal action, sent at once (the bouncer's asks for a confirmation first);
a click on a card you may not use says why (the view's per-card ``reason``, also shown
when you hover it).

* One player: the display link is the player's own seat; your hand is face up at the
  bottom, the playable cards raised; the arrow keys move a cursor over it and Up, Space
  or Enter plays the card under it; Tab (or the Won cards button, or a click on your
  pile) shows your won cards. The bouncer -- secret and for the whole round -- is
  chosen in two steps: a click (or 1-9, the arrows) selects a card, then the Confirm
  button (or Enter, Space, Up) places it; Esc drops the selection.
* Couch play (the kit's :class:`~client.table.reactions.ReactionTableScene`, with no
  claim types): the shared screen is a spectator, so every hand is face down; a seat's
  reveal (or confirm) key opens its hand-over screen
  (:class:`client.games.mafiosi.handover.MafiosiHandover`), where it sees its hand and
  won cards and picks its card with its own keys or the mouse.
* Spectators and replays: the public view (every card face up in a finished match's
  replay); nothing to pick.

The round-end board (:class:`client.games.mafiosi.results.MafiosiBoard`) opens when a
round is scored: it explains each player's score line by line from the tricks this
screen saw taken (the ``trick_won`` events are public) and the revealed bouncers.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import pygame

from client.games.mafiosi import controls as maf_controls, fx as maf_fx, picker
from client.games.mafiosi.draw import draw_partial, draw_table as paint_table
from client.games.mafiosi.layout import MafiosiLayout, mafiosi_layout
from client.games.mafiosi.narrate import narrate
from client.games.mafiosi import narrate as mafiosi_narrate
from client.i18n import tr, labelled
from client.input import CONFIRM, PASS, REVEAL, SELECT, SNAP, Binding
from client.narrate import BAD, INFO, NOTE
from client.games.mafiosi import help as rules_help
from client.table.tips import hover_card
from client.table.reactions import ReactionTableScene
from client.ui.widgets import button, call, fitted

Place = tuple[str, int]


class MafiosiTableScene(ReactionTableScene):
    """``link`` received ``started`` (a ``match_started``) and becomes the display link;
    when ``started["seat"]`` is a seat, that seat is local with ``binding``."""

    game_name = "mafiosi"
    #: what a hint names (client.table.hint): the card of your hand or of your won cards
    HINT_PREFIX = "maf."
    HINT_FIELDS = {"card": ("hand", "point")}

    card_help = staticmethod(rules_help.card_help)  # the card tips (client.table.tips)

    controls = maf_controls
    layout: MafiosiLayout
    claim_types = ()
    pass_types = ()
    claim_field = None
    card_place = "hand"

    def __init__(self, app: Any, link: Any, started: dict[str, Any], binding: Binding | None = None):
        self.piles: dict[int, list[dict[str, Any]]] = {}
        self.bouncers: list[Any] = []
        self.piles_ok = False  # the piles were seen from the round's start
        self.round_details: dict[int, dict[str, Any]] = {}  # round -> {"piles", "bouncers", "ok"}
        self._turn_seen: set[int] = set()
        #: seat -> the card selected as its bouncer, not placed until confirmed.
        self.bouncer_pick: dict[int, int] = {}
        self._choosing_bouncer: set[int] = set()  # local seats choosing a bouncer now
        super().__init__(app, link, started, binding)
        self._sync_art()
        self._start_tracking(self.view)
        done = self.view.get("round_results") or []
        # results of rounds played before we arrived are not shown again
        self.results_shown_round = int(done[-1].get("round", 0)) if done else 0
        self.final_shown = self.view.get("phase") == "over"
        self.motion.sync(self.card_rects())
        self._refresh()
        if started.get("resumed"):
            self.feed.resumed_lines(started)

    # -- settings ---------------------------------------------------------------------
    def _sync_art(self) -> None:
        """The card art follows the player's four-colour setting (faces redrawn on change)."""
        on = bool(getattr(self.app.settings, "four_colour_suits", False))
        if bool(getattr(self.art, "four_colour_suits", False)) != on:
            self.art.four_colour_suits = on
            self.art.clear()

    # -- who plays on this screen -----------------------------------------------------
    @property
    def single(self) -> int | None:
        """The one seat played on this screen with its own cards in view (None in couch
        play, for a spectator or a replay)."""
        if self.public or len(self.links) != 1:
            return None
        return next(iter(self.links))

    def player_help(self) -> str:
        if self.single is None:
            return tr("maf.help_couch")
        keys = self.keys_of(self.single)
        return tr("maf.help", reveal=keys.get("reveal", "?"))

    def reveal_keys(self, seats: list[int]) -> str:
        """"Ann: Q, Bob: Right Shift": the reveal key of each of ``seats``."""
        return ", ".join(labelled(self.roster.seat_name(s), self.keys_of(s).get('reveal', '?')) for s in seats)

    def hand_of(self, seat: int) -> list[dict[str, Any]]:
        """A local seat's hand as its own view gives it (with ``playable``/``reason``)."""
        v = self.view if self.single == seat else self.seat_views.get(seat, {})
        return list(v.get("hand") or [])

    def won_of(self, seat: int) -> list[dict[str, Any]]:
        """A local seat's won cards (its own view), with its bouncer last when it has one."""
        v = self.view if self.single == seat else self.seat_views.get(seat, {})
        players = v.get("players") or []
        p = players[seat] if seat < len(players) else {}
        return list(p.get("won") or [])

    def bouncer_of(self, seat: int) -> dict[str, Any] | None:
        v = self.view if self.single == seat else self.seat_views.get(seat, {})
        players = v.get("players") or []
        return (players[seat] if seat < len(players) else {}).get("bouncer")

    # -- things the drawing reads ----------------------------------------------------
    @property
    def picked(self) -> set[Place]:
        """The cards selected as bouncers, waiting for their confirmation (gold)."""
        return {("hand", c) for c in self.bouncer_pick.values()}

    def choosing_bouncer(self, seat: int | None) -> bool:
        """``seat`` has its bouncer to choose now."""
        return seat is not None and picker.kind(self.legal.get(seat, [])) == "choose_bouncer"

    @property
    def offered(self) -> set[Place]:
        seat = self.single
        return picker.offered(self.legal.get(seat, [])) if seat is not None else set()

    def card_reason(self, place: Any) -> str | None:
        """Why the hand card at ``place`` may not be used now (the view's ``reason``)."""
        if not isinstance(place, tuple) or place[0] != "hand":
            return None
        card = next((c for c in self.view.get("hand") or [] if c.get("id") == place[1]), None)
        return card.get("reason") if card else None

    def seat_status(self, p: int) -> str:
        away = self.roster.seat_away(p)
        if away:
            return away
        v = self.view
        player = v["players"][p]
        if v.get("phase") == "bouncer":
            return tr("maf.status.chosen") if player.get("has_chosen") else tr("maf.status.choosing")
        if v.get("phase") == "point" and p in (v.get("point_pending") or []):
            return tr("maf.status.point")
        return ""

    # -- layout -----------------------------------------------------------------------
    def own_cards(self, seat: int) -> list[Any]:
        if seat != self.single:
            return []
        return [p[1] for p in self.layout.order]

    def card_owner(self, card: Any) -> int | None:
        return self.single if ("hand", card) in self.layout.cards else None

    @property
    def cursor_picks(self) -> set[Place]:
        return {("hand", c) for c in self.cursor.values()}

    def _layout(self) -> MafiosiLayout:
        return mafiosi_layout(self.view, self.table_size, perspective=self.perspective)

    def card_rects(self) -> Mapping[Place, pygame.Rect]:
        return self.layout.cards

    def shown_rect(self, place: Place) -> pygame.Rect | None:
        return self.motion.shown_at(place, self.layout.cards.get(place))

    def _narrate(self, ev: dict[str, Any]):
        return narrate(ev, self.roster.seat_name, self.local_seats)

    def _moment(self, view: Mapping[str, Any]) -> Any:
        return mafiosi_narrate.moment(view)

    def _moment_after(self, ev: Mapping[str, Any], now: Any) -> Any:
        return mafiosi_narrate.moment_after(ev, now)

    def moment_label(self, moment: Any) -> str:
        """A history header: "Round 2 · Trick 5" (a Mafiosi turn is a trick), or "Round 2"."""
        rnd, trick = moment
        if rnd is not None and trick:
            return tr("maf.history.round_trick", round=str(rnd), trick=str(trick))
        return super().moment_label(moment)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.relayout()

    # -- following the round (for the round-end board) --------------------------------
    def _start_tracking(self, view: Mapping[str, Any]) -> None:
        """The piles are known from here on when the round has not started yet, or when
        the view gives every pile (a finished match's replay)."""
        players = view.get("players") or []
        self.bouncers = [p.get("bouncer") if view.get("revealed") else None for p in players]
        if players and all(p.get("won") is not None for p in players):
            self.piles = {p["seat"]: list(p["won"]) for p in players}
            self.piles_ok = True
        else:
            self.piles = {p["seat"]: [] for p in players}
            self.piles_ok = view.get("phase") == "bouncer" or not any(p.get("won_count") for p in players)

    def _track(self, ev: Mapping[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "round_started":
            n = int(self.view.get("seats", 0))
            self.piles = {p: [] for p in range(n)}
            self.bouncers = [None] * n
            self.piles_ok = True
        elif kind == "bouncers_revealed":
            self.bouncers = list(ev.get("bouncers") or [])
        elif kind == "trick_won" and isinstance(ev.get("seat"), int):
            self.piles.setdefault(ev["seat"], []).extend(c for c in ev.get("cards") or [] if isinstance(c, dict))
        elif kind == "round_scored":
            self.round_details[int(ev.get("round", 0))] = {
                "piles": {s: list(c) for s, c in self.piles.items()}, "bouncers": list(self.bouncers),
                "ok": self.piles_ok}

    def jump(self, view: dict[str, Any]) -> None:
        super().jump(view)
        self._start_tracking(view)

    def _fx(self, prev_view: dict[str, Any], old: MafiosiLayout) -> Callable[[dict[str, Any]], None]:
        ctx = maf_fx.FxContext(self.anim, self.t, self.me, old, self.layout, self.shown_rect, self.local_seats,
                               prev_view)

        def run(ev: dict[str, Any]) -> None:
            self._track(ev)
            maf_fx.animate(ctx, ev)
        return run

    # -- showing the match --------------------------------------------------------------
    def _after_update(self) -> None:
        self._forget_gone()
        for seat in sorted(self.links):
            mine = picker.kind(self.legal.get(seat, [])) == "play"
            if mine and seat not in self._turn_seen and not self.replay:
                self._turn_seen.add(seat)
                who = "" if self.single is not None else labelled(self.roster.seat_name(seat))
                self.column.say(who + tr("maf.msg.your_turn"), NOTE, 4000)
                self.app.sound and self.app.sound.play("turn")
            elif not mine:
                self._turn_seen.discard(seat)
        self._maybe_board()

    def _note_seat(self, seat: int, msg: dict[str, Any]) -> None:
        super()._note_seat(seat, msg)

    def _update_choices(self) -> None:
        """A seat starts choosing its bouncer with nothing selected (not even the
        keyboard cursor of the last round: Enter must never place a card nobody chose);
        a selection goes when the choice is over."""
        super()._update_choices()
        choosing = {s for s in self.links if self.choosing_bouncer(s)}
        for seat in choosing - self._choosing_bouncer:
            self.cursor.pop(seat, None)
            self.bouncer_pick.pop(seat, None)
        for seat in set(self.bouncer_pick) - choosing:
            del self.bouncer_pick[seat]
        self._choosing_bouncer = choosing

    def _match_over(self) -> None:
        board = self.ending.results_board()
        if board is not None:
            board.take_result()
            return
        self._maybe_board()

    def _maybe_board(self) -> None:
        """Open the round-end board for a newly scored round, the final reveal at the end."""
        if self.replay:
            return
        done = self.view.get("round_results") or []
        over = self.view.get("phase") == "over"
        latest = int(done[-1].get("round", 0)) if done else 0
        if latest > self.results_shown_round:
            self.results_shown_round = latest
            self.ending.open_results(latest, final=False)
        if over and not self.final_shown:
            self.final_shown = True
            self.ending.open_results(None, final=True)

    def reopen_results(self) -> bool:
        if self.view.get("phase") != "over" or self.replay:
            return False
        self.ending.open_results(None, final=True)
        return True

    def board_again(self) -> None:
        done = self.view.get("round_results") or []
        if self.view.get("phase") == "over":
            self.ending.open_results(None, final=True)
        elif done:
            self.ending.open_results(int(done[-1].get("round", 0)), final=False)

    # -- sending ------------------------------------------------------------------------
    def pick(self, seat: int, place: Place) -> bool:
        """``seat`` picks the card at ``place``: its legal action is sent (True), or the
        reason it cannot is told (False)."""
        action = picker.action_for(self.legal.get(seat, []), place)
        if action is not None:
            self.send(seat, action)
            return True
        self._why_not(seat, place)
        return False

    def select_bouncer(self, seat: int, cid: int) -> bool:
        """``seat`` selects card ``cid`` as its bouncer (True), or is told why that card
        cannot be one (False); nothing is sent before :meth:`confirm_bouncer`."""
        if picker.action_for(self.legal.get(seat, []), ("hand", cid)) is None:
            self._why_not(seat, ("hand", cid))
            return False
        self.bouncer_pick[seat] = cid
        self.cursor[seat] = cid
        self._refresh()
        return True

    def confirm_bouncer(self, seat: int) -> bool:
        """Place ``seat``'s selected bouncer (True); with none selected, say to pick one."""
        cid = self.bouncer_pick.get(seat)
        action = picker.action_for(self.legal.get(seat, []), ("hand", cid)) if cid is not None else None
        if action is None:
            self.column.say(tr("maf.msg.pick_bouncer"), NOTE, 3000)
            return False
        del self.bouncer_pick[seat]
        self.send(seat, action)
        self._refresh()
        return True

    def _cancel_choice(self) -> bool:
        """Esc: drop the card selected as a bouncer (chosen again from scratch)."""
        if not self.bouncer_pick:
            return False
        for seat in list(self.bouncer_pick):
            del self.bouncer_pick[seat]
            self.cursor.pop(seat, None)
        self._refresh()
        return True

    def _why_not(self, seat: int, place: Place) -> None:
        """Tell why the card at ``place`` may not be used now (or that nothing is asked)."""
        reason = None
        if place[0] == "hand":
            card = next((c for c in self.hand_of(seat) if c.get("id") == place[1]), None)
            reason = card.get("reason") if card else None
        if reason:
            self.column.say(tr("maf.msg.not_now", reason=reason), BAD, 4500)
        elif not self.legal.get(seat):
            self.column.say(tr("maf.msg.wait"), INFO, 2500)

    # -- controls -----------------------------------------------------------------------
    def _buttons_key(self, specs: list[tuple]) -> tuple:
        return tuple((s[0], s[1], tuple(sorted(s[2].items()))) for s in specs)

    def _button_width(self, box: pygame.Rect) -> int:
        return min(box.w - 8, int(box.h * 1.6))

    def _button(self, spec: tuple, rect: pygame.Rect) -> Any:
        ident, key, fields, oid, what, seat = spec
        label, cls = fitted(tr(key, **fields), rect.w, self.app.ui_scale)
        return button(self, rect, label, object_id=oid, class_id=cls, raw=True, command=call(self._press, what, seat))

    def _press(self, what: str, seat: int | None) -> None:
        if what == "won" and seat is not None:
            self.show_won(seat)
        elif what == "board":
            self.board_again()
        elif what == "hand" and seat is not None:
            self.open_handover(seat)
        elif what == "bouncer" and seat is not None:
            self.confirm_bouncer(seat)

    def show_won(self, seat: int) -> None:
        from client.games.mafiosi.handover import WonCardsScene

        self.app.push(WonCardsScene(self.app, self, seat))

    def open_handover(self, seat: int) -> None:
        from client.games.mafiosi.handover import MafiosiHandover

        if seat in self.links:
            self.app.push(MafiosiHandover(self.app, self, seat))

    def reveal_request(self, seat: int) -> None:
        """A seat's reveal key: its hand-over screen (couch play), else its won cards."""
        if self.single is None:
            self.open_handover(seat)
        else:
            self.show_won(seat)

    def private_info(self, seat: int) -> dict[str, Any]:
        return {"hand": self.hand_of(seat), "won": self.won_of(seat), "bouncer": self.bouncer_of(seat)}

    def private_groups(self, seat: int, info: dict[str, Any]) -> list[tuple[str, list[tuple[Any, str]]]]:
        groups = []
        if info.get("hand"):
            groups.append((tr("maf.handover.hand"), [(c, "") for c in info["hand"]]))
        if info.get("bouncer"):
            groups.append((tr("maf.handover.bouncer"), [(info["bouncer"], "")]))
        if info.get("won"):
            groups.append((tr("maf.handover.won"), [(c, "") for c in info["won"]]))
        return groups

    # -- input --------------------------------------------------------------------------
    def command(self, seat: int, cmd: tuple[str, int], t_ms: float) -> None:
        name = cmd[0]
        if self.single is None and name in (CONFIRM, SNAP, REVEAL):
            self.open_handover(seat)
            return
        if self.single == seat and self.choosing_bouncer(seat):
            if name in (SNAP, PASS, CONFIRM):
                self.confirm_bouncer(seat)
                return
            super().command(seat, cmd, t_ms)  # 1-9, the arrows: the cursor moves...
            cur = self.cursor.get(seat)
            if cur is None:
                return
            if name == SELECT or picker.action_for(self.legal.get(seat, []), ("hand", cur)) is not None:
                self.select_bouncer(seat, cur)  # ...and what it is on is selected
            else:
                self.bouncer_pick.pop(seat, None)  # the arrows pass over a card that cannot be one
                self._refresh()
            return
        if self.single is not None and name in (SNAP, PASS):
            cmd = (CONFIRM, 0)
            cur = self.cursor.get(seat)
            if cur is None:
                return
        super().command(seat, cmd, t_ms)

    def click(self, pick: Place, seat: int | None = None) -> None:
        kind, ident = pick
        me = self.single if seat is None else seat
        if kind == "pile" and ident == self.single:
            self.show_won(ident)
            return
        if kind == "bouncer" and self.single is None and ident in self.links:
            self.open_handover(ident)
            return
        if me is None or me != self.single:
            return
        if kind == "hand" and self.choosing_bouncer(me):
            self.select_bouncer(me, ident)
        elif kind == "hand":
            self.cursor[me] = ident
            self.pick(me, pick)
        elif kind == "point":
            self.pick(me, pick)

    # -- frame --------------------------------------------------------------------------
    def hover_card_at(self, pos: tuple[int, int]) -> Mapping[str, Any] | None:
        """The face-up card at ``pos`` that has a tip."""
        return hover_card(self, pos, ("hand", "ohand", "trick", "point"), None)

    def _draw_partial(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        return draw_partial(surface, self)

    def draw_table(self, surface: pygame.Surface) -> None:
        paint_table(surface, self)
