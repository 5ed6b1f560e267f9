"""What every game table scene shares, whatever the game: who sits where, the message
column, the turn timer, spectators, and coming back after a lost connection.

* **Names** come from the app's latest ``table`` message for this table
  (``App.tables``), else from ``match_started.seats`` (PROTOCOL.md "Reconnection,
  spectators and the turn timer"), else "Seat n". A seat can be *away* (its player lost
  the connection and the server holds the seat, ``away: true``) or played by a bot.
* **Spectators**: ``Table.spectators`` is shown in the table's top bar for everybody.
* **Turn timer**: ``timer: {"seat", "deadline"}`` of ``match_started``/``update``
  (server ms) is kept as a deadline on this client's clock (ms, ``client.net.now_ms``).
* **Reconnection**: while a connection of this table is being re-opened by the app
  (:mod:`client.reconnect`), :attr:`TableScene.reconnecting` is that attempt and the
  table is drawn with an overlay; the server's ``match_started`` with ``resumed: true``
  then brings the table up to date (:meth:`TableScene._resume`).
* **Replays** (:mod:`client.scenes.replay`) drive a table scene with no connection:
  ``replay`` is then true (no results pop-up, nothing to send) and ``area`` the part of
  the window (w, h px) the table is drawn in.

The course of a match is the same for every game and is written here once: showing an
``update`` (each event animated by the game's effects and told in the message column,
then the cards glide to their new places), a jump to a view (a replay's seek, a resumed
match), the messages of the display link and of the local seats, sending an action, the
action buttons, the mouse and the double Esc that leaves. A game's scene supplies its
layout, effects, narration, choices (``_update_choices``, ``_drop_choices``) and
controls (:attr:`TableScene.controls`: ``button_specs`` and ``prompt``).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import pygame

from client.animation import Animator
from client.i18n import tr
from client.input import EMOTE_KEYS, key_label, now_ms
from client.narrate import BAD, GOOD, NOTE, Line
from client.ui.scene import Scene
from client.ui.emotes import EmoteBar, EmoteBoard
from client.ui import emotes as emote_art
from client.tween import Follower

MSG_MS = 7000.0


class TableScene(Scene):
    """``link`` received ``started`` (a ``match_started``) and is the *display link*
    (the connection whose updates this screen shows)."""

    #: A replay's table (set on the instance before ``__init__``, see client.scenes.replay).
    replay = False
    #: (w, h) px the table is drawn in when it is not the whole window.
    area: tuple[int, int] | None = None

    #: The game's wire name, when ``match_started`` does not say it.
    game_name = ""
    #: The game's controls module: ``button_specs(scene)`` (one tuple per action button,
    #: its id first) and ``prompt(scene)`` (the banner's main line, second line, urgent).
    controls: Any = None
    #: ``card_help(card)``: what a card does, one line (the tip under the mouse), or None.
    card_help: Callable[[Mapping[str, Any]], "str | None"] | None = None

    def __init__(self, app: Any, link: Any, started: dict[str, Any]):
        super().__init__(app)
        self.table_id = started.get("table")
        self.game = str(started.get("game") or self.game_name)
        self.display = link
        self.public = started.get("seat") is None  # spectator display: nothing private here
        self.links: dict[int, Any] = {}  # local seat -> its connection
        self.t = 0.0  # scene clock, ms
        self.messages: list[tuple[str, tuple[int, int, int], float]] = []
        self.seat_info: dict[int, dict[str, Any]] = {}
        self.timer: tuple[int, float] | None = None  # (seat, deadline in client ms)
        self.fallback_name = str(started.get("name") or "")  # a replay's table name
        self.perspective: int | None = started.get("seat")  # the seat at the bottom of the screen
        self.view: dict[str, Any] = started["view"]
        self.legal: dict[int | None, list[dict[str, Any]]] = {}  # local seat -> its legal actions
        self.anim = Animator()
        self.layout: Any = self._layout()
        self.pos: dict[Any, Follower] = {}  # card -> where it is drawn now (it glides to its place)
        self.hover: tuple[str, int] | None = None  # the place under the mouse
        self.buttons: dict[str, Any] = {}  # the action buttons by id
        self.fixed_ui: list[Any] = []  # widgets that stay while the action buttons change (Rules)
        self.rules_button: Any = None
        self.mouse: tuple[int, int] | None = None  # the last mouse position over the table
        self.match_result: dict[str, Any] | None = None
        #: ``match_over.reactions``: each seat's median reaction (ms) or None.
        self.match_reactions: list[Any] | None = None
        #: ``match_over.scoreboard``: the evening's ``[{name, game, played, won}]`` or None.
        self.match_scoreboard: list[Any] | None = None
        #: What was painted over the base frame in the last frame drawn
        #: (``client.table.draw.top_record``: names, signatures, rects in px), for
        #: :meth:`draw_partial` (None: unknown, the next frame is drawn whole).
        self.top_rects: list[tuple] | None = None
        self._buttons_sig: tuple | None = None
        self._prompt: tuple[str, str, bool] = ("", "", False)
        self._esc_until = 0.0
        self.emotes = EmoteBoard()  # the emote badges by seat
        self.emote_bar = EmoteBar()
        self._rematch_stash: list[tuple[Any, dict[str, Any]]] = []  # a rematch's starts on local seats
        self._seat_tokens: dict[int, str] = {}  # local seat -> its token, kept for a rematch
        self.note_seats(started)
        self.note_timer(started, link)

    # -- what the game supplies ---------------------------------------------------------
    def _layout(self) -> Any:
        """Every rect of the table for ``view`` at :attr:`table_size` (pixels)."""
        raise NotImplementedError

    def card_rects(self) -> Mapping[Any, pygame.Rect]:
        """The rect of every card of the layout, by the key its follower has in ``pos``."""
        raise NotImplementedError

    def _narrate(self, ev: dict[str, Any]) -> Line | None:
        """The message-column line for one event, None for none."""
        raise NotImplementedError

    def _fx(self, prev_view: dict[str, Any], old: Any) -> Callable[[dict[str, Any]], None]:
        """What animates one event of an update (``prev_view``/``old``: the view and
        layout before it; ``view``/``layout`` are already the new ones)."""
        raise NotImplementedError

    def draw_table(self, surface: pygame.Surface) -> None:
        """Paint the table itself (the game's painter); :meth:`draw` paints the kit's
        :meth:`overlays` over it."""
        raise NotImplementedError

    def player_help(self) -> str:
        """The top bar's key help for the players of this screen."""
        return ""

    def _update_choices(self) -> None:
        """Re-derive what is being chosen on the table from ``legal``."""

    def _drop_choices(self) -> None:
        """Forget every choice being made (the server sent a fresh state)."""

    def _after_update(self) -> None:
        """An animated update was shown (the followers are synced): what the game does next."""

    def _forget_gone(self) -> None:
        """The layout changed: drop what points at a card no longer on the table."""

    # -- things the drawing reads ----------------------------------------------------
    @property
    def art(self):
        return self.app.art

    @property
    def me(self) -> int | None:
        """The seat whose private information this screen may show (None: none)."""
        return None if self.public else self.perspective

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
        if not self.links:
            return tr("table.help_spectator")
        return self.player_help()

    @property
    def prompt(self) -> tuple[str, str, bool]:
        """(main line, second line, urgent) for the banner above your cards."""
        return self._prompt

    @property
    def cursor_picks(self) -> set[tuple[str, int]]:
        """The places under a keyboard cursor (none unless the game has one)."""
        return set()

    def card_pos(self, key: Any, rect: pygame.Rect) -> tuple[float, float]:
        """Where a card is drawn now (it glides to its place when the layout changes)."""
        f = self.pos.get(key)
        return (f.x, f.y) if f is not None else rect.topleft

    def shown_at(self, key: Any, rect: pygame.Rect | None) -> pygame.Rect | None:
        """``rect``'s size at where card ``key`` is drawn now; None when ``rect`` is None
        or the card has no place on screen yet."""
        f = self.pos.get(key)
        if rect is None or f is None:
            return None
        return pygame.Rect(int(f.x), int(f.y), rect.w, rect.h)

    # -- size ---------------------------------------------------------------------------
    @property
    def table_size(self) -> tuple[int, int]:
        """The (w, h) px the table is drawn in: the window, or a replay's part of it."""
        return self.area or self.app.size

    # -- seats --------------------------------------------------------------------------
    def note_seats(self, msg: dict[str, Any]) -> None:
        """Remember ``msg["seats"]`` (``match_started``; a replay's header)."""
        for s in msg.get("seats") or []:
            if isinstance(s, dict) and isinstance(s.get("seat"), int):
                self.seat_info[s["seat"]] = {k: s.get(k) for k in ("seat", "name", "bot", "connected", "away")}

    def table_entry(self) -> dict[str, Any]:
        """The latest ``Table`` of this table the app was told about ({} if none)."""
        return (self.app.tables.get(self.table_id) or {}) if self.table_id is not None else {}

    def seat_entry(self, p: int) -> dict[str, Any]:
        seats = self.table_entry().get("seats") or []
        entry = next((s for s in seats if s.get("seat") == p), None)
        if entry is None or not entry.get("name"):
            entry = self.seat_info.get(p) or {}
        return entry

    def seat_of(self, link: Any) -> int | None:
        """The local seat ``link`` plays, None for none (the spectator display link)."""
        return next((s for s, l in self.links.items() if l is link), None)

    def seat_name(self, p: int) -> str:
        name = self.seat_entry(p).get("name") or tr("table.seat", n=str(p + 1))
        if p in self.links and len(self.links) == 1:
            return tr("table.you", name=name)
        return name

    def seat_away(self, p: int) -> str:
        """The plate's note for a held seat: "away — reconnecting" (or that a bot plays
        it meanwhile), else ""."""
        e = self.seat_entry(p)
        if not e.get("away"):
            return ""
        return tr("table.away_bot") if e.get("bot") else tr("table.away")

    @property
    def spectators(self) -> int:
        return int(self.table_entry().get("spectators") or 0)

    def spectator_line(self) -> str:
        n = self.spectators
        if n <= 0:
            return ""  # nobody watches: nothing to say
        return tr("table.spectators_one") if n == 1 else tr("table.spectators", n=str(n))

    # -- messages -----------------------------------------------------------------------
    def say(self, message: str, colour: tuple[int, int, int] = (243, 232, 207), ms: float = MSG_MS) -> None:
        self.messages.append((message, colour, self.t + ms))
        self.messages = self.messages[-30:]

    def visible_messages(self) -> list[tuple[str, tuple[int, int, int], float]]:
        return [m for m in self.messages if m[2] > self.t][-8:]

    # -- turn timer ---------------------------------------------------------------------
    def note_timer(self, msg: dict[str, Any], link: Any = None) -> None:
        """Keep ``msg["timer"]`` as a deadline on this client's clock (when present)."""
        if "timer" not in msg:
            return
        timer = msg.get("timer")
        if not isinstance(timer, dict) or not isinstance(timer.get("deadline"), (int, float)):
            self.timer = None
            return
        deadline = float(timer["deadline"])
        conn = getattr(link, "conn", None)
        local = conn.to_client_ms(deadline) if conn is not None and hasattr(conn, "to_client_ms") else None
        if local is None:  # no clock sync yet: count from the update's own server time
            t_server = msg.get("t_server")
            local = now_ms() + (deadline - float(t_server) if isinstance(t_server, (int, float)) else 0.0)
        self.timer = (int(timer.get("seat", -1)), local)

    def timer_left(self) -> tuple[int, float] | None:
        """(seat on the clock, seconds left >= 0), None without a turn timer."""
        if self.timer is None:
            return None
        seat, deadline = self.timer
        return seat, max(0.0, (deadline - now_ms()) / 1000.0)

    # -- reconnection -------------------------------------------------------------------
    @property
    def reconnecting(self) -> Any:
        """The app's reconnection attempt for a connection of this table, or None."""
        for link in [self.display, *self.links.values()]:
            attempt = getattr(link, "reconnect", None)
            if attempt is not None and attempt.active:
                return attempt
        return None

    def resumed_lines(self, msg: dict[str, Any], narrate: Any) -> None:
        """Tell the events missed while away (``msg["missed"]``), then that we are back."""
        missed = [e for e in msg.get("missed") or [] if isinstance(e, dict)]
        for ev in missed[-12:]:
            line = narrate(ev)
            if line is not None:
                self.say(line[0], line[1])
        self.say(tr("reconnect.back_missed") if missed else tr("reconnect.back"), GOOD, 6000)

    def leave_for_good(self, link: Any) -> None:
        """The server will not give this connection's seat back (grace period over): back
        to the menu, unless other players of this screen go on (couch play)."""
        if link is self.display or not self.links or set(self.links.values()) == {link}:
            self.app.go_menu()
        else:
            self.on_link_lost(link)

    def on_link_lost(self, link: Any) -> None:
        if getattr(link, "reconnect", None) is not None and link.reconnect.active:
            self._refresh()  # no buttons while the app brings it back; the overlay says so
            return
        if link is self.display:
            self.app.go_menu()
            return
        seat = self.seat_of(link)
        if seat is not None:
            self._seat_lost(seat)

    def _seat_lost(self, seat: int) -> None:
        """A local seat's connection is gone for good (the display link is not)."""
        self.app.go_menu()

    def leave_table(self) -> None:
        for link in set(self.links.values()) | {self.display}:
            if link is not None and link.conn is not None:
                link.request("leave", table=self.table_id).addErrback(lambda f: None)
                if link is not self.app.main_link:
                    self.app.close_link(link)
        self.app.go_menu()

    # -- life cycle ---------------------------------------------------------------------
    def build(self, size: tuple[int, int]) -> None:
        self._buttons_sig = None
        self._build_buttons()

    def relayout(self) -> None:
        """Lay the table out again: effects dropped, every card at its place."""
        self.anim.finish()
        self.layout = self._layout()
        self.pos.clear()
        self._sync_followers()

    def _sync_followers(self) -> None:
        """A follower for every card of the layout (starting at its place), none for the others."""
        rects = self.card_rects()
        for key, r in rects.items():
            if key not in self.pos:
                self.pos[key] = Follower(r.x, r.y, half_life_ms=55.0)
        for key in list(self.pos):
            if key not in rects:
                del self.pos[key]

    # -- showing the match --------------------------------------------------------------
    def show(self, view: dict[str, Any], events: list[dict[str, Any]], animate: bool = True) -> None:
        """Show ``view`` after ``events`` (wire dicts): animated and told, or (``animate``
        false) told only and shown at once (a replay's step)."""
        if not animate:
            for ev in events:
                line = self._narrate(ev)
                if line is not None:
                    self.say(line[0], line[1], MSG_MS)
            self.jump(view)
            return
        self._apply(view, events)
        self._refresh()

    def jump(self, view: dict[str, Any]) -> None:
        """Show ``view`` at once: effects dropped, every card at its place (a replay's
        seek, a resumed match)."""
        self.view = view
        self.relayout()
        self._forget_gone()
        self._refresh()

    def _apply(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """The display link's update: the new view and layout, each event animated and
        told (with its sound), then the cards glide to their new places."""
        prev_view, old = self.view, self.layout
        self.view = view
        self.layout = self._layout()
        animate = self._fx(prev_view, old)
        for ev in events:
            try:
                animate(ev)
            except (KeyError, IndexError, TypeError, ValueError):  # a malformed event: the view is enough
                pass
            line = self._narrate(ev)
            if line is not None:
                text, colour, cue = line
                self.say(text, colour, 3000 if ev.get("type") == "turn" else MSG_MS)
                cue and self.app.sound and self.app.sound.play(cue)
        self._sync_followers()
        self._after_update()

    # -- network ------------------------------------------------------------------------
    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        kind = msg.get("type")
        if msg.get("table") != self.table_id:
            return
        seat = self.seat_of(link)
        if seat is not None and seat not in self._seat_tokens:
            self._keep_token(seat, link)
        if kind == "match_started" and self._is_next_match(msg):
            self._next_match(msg, link)
        elif kind == "emote":
            if link is self.display:
                self.show_emote(msg)
        elif kind == "moved":
            self._moved(msg, link)
        elif kind == "match_started":
            if seat is not None or link is self.display:  # back after a lost connection
                self._resume(msg, link, seat)
            elif msg.get("seat") is not None:
                self._seat_arrived(link, msg)
        elif kind == "update":
            if seat is not None:
                self._note_seat(seat, msg)
            if link is self.display:
                self.note_timer(msg, link)
                self._apply(msg["view"], msg.get("events", []))
            self._refresh()
        elif kind == "match_over":
            if link is self.display or seat is not None:
                self.match_result = msg.get("result")
                reactions = msg.get("reactions")
                self.match_reactions = reactions if isinstance(reactions, list) else None
                board = msg.get("scoreboard")  # the evening's scoreboard
                self.match_scoreboard = board if isinstance(board, list) else None
                self._match_over()
        elif kind in ("table_paused", "table_resumed"):
            if link is self.display or (self.display is None and seat is not None):
                self._pause_notice(kind, msg)
        else:
            self._game_message(msg, seat)

    def _pause_notice(self, kind: str, msg: dict[str, Any]) -> None:
        """The server cannot save the match (a full disk): say why and that it goes on by
        itself; or it can again."""
        if kind == "table_paused":
            text = tr("table.paused", reason=str(msg.get("message", "")))
            self.say(text, (255, 170, 140), 120_000)
            self.app.notify(text, 120.0)
        else:
            self.app.notify(tr("table.resumed"), 5.0, error=False)
            self.say(tr("table.resumed"), (180, 220, 160))

    def _note_seat(self, seat: int, msg: dict[str, Any]) -> None:
        """An ``update`` (or the ``match_started`` of a come-back) for local ``seat``."""
        self.legal[seat] = list(msg.get("legal", []))

    def _seat_arrived(self, link: Any, msg: dict[str, Any]) -> None:
        """The ``match_started`` of a seat on a link this table does not know yet."""

    def _match_over(self) -> None:
        """``match_over`` came (``match_result`` holds its result)."""

    def _game_message(self, msg: dict[str, Any], seat: int | None) -> None:
        """A message of this table the game itself handles (``seat``: its local seat)."""

    def _resume(self, msg: dict[str, Any], link: Any, seat: int | None) -> None:
        """A ``match_started`` for a connection already at this table: it came back
        after a lost connection (``resumed``), or a spectator re-joined."""
        self.note_seats(msg)
        rewound = msg.get("rewound_from")
        if isinstance(rewound, int) and isinstance(msg.get("step"), int) and rewound > msg["step"]:
            self.say(tr("table.rewound", n=str(rewound - msg["step"])), (255, 170, 140), 20_000)
        if seat is not None:
            self._note_seat(seat, msg)
        if link is self.display:
            self.note_timer(msg, link)
            self.jump(msg.get("view") or self.view)
        if msg.get("resumed"):
            self.resumed_lines(msg, self._narrate)
        self._drop_choices()
        self._refresh()

    # -- sending ------------------------------------------------------------------------
    def _send_now(self, seat: int, link: Any, action: dict[str, Any], t_press: float | None = None,
                  t_shown: float | None = None, quiet: bool = False) -> None:
        """Send ``action`` for local ``seat`` on its connected ``link``: nothing more to
        click until the server answers; a refused action gives the choices back and says
        why (``quiet``: only gives them back)."""
        saved = self.legal.get(seat, [])
        self.legal[seat] = []  # nothing more to click until the server answers
        self._refresh()
        self.app.sound and self.app.sound.play("click")

        def failed(f) -> None:
            if not self.legal.get(seat):
                self.legal[seat] = saved
                self._refresh()
            if quiet:
                return
            if getattr(f.value, "code", "") != "disconnected":
                self.say(tr("error.action", reason=getattr(f.value, "message", str(f.value))), BAD)

        d = link.conn.send_action(self.table_id, dict(action), t_press=t_press, t_shown=t_shown)
        d.addErrback(failed)

    # -- controls -----------------------------------------------------------------------
    def _refresh(self) -> None:
        """Re-derive the choices, the buttons and the prompt from ``legal``."""
        self._update_choices()
        self._prompt = self.controls.prompt(self)
        if self.app.scenes and self.app.top is self:
            self._build_buttons()

    def _build_buttons(self) -> None:
        """The action buttons, stacked at the bottom of the layout's ``actions`` column;
        remade only when what they offer (or the window size) changes."""
        specs = [] if self.reconnecting is not None else self.controls.button_specs(self)
        sig = (self._buttons_key(specs), self.app.size)
        if sig == self._buttons_sig:
            return
        self._buttons_sig = sig
        Scene.clear_ui(self)  # the action buttons only (the Rules button stays)
        self.buttons.clear()
        box = self.layout.actions
        n = max(1, len(specs))
        gap = max(4, int(box.h * 0.03))
        bh = min(int(44 * self.app.ui_scale), (box.h - gap * (n - 1)) // n)
        bw = self._button_width(box)
        y = box.bottom - n * bh - (n - 1) * gap
        rows = self._button_rows(specs)
        if rows is None:
            for spec in specs:
                self.buttons[spec[0]] = self._button(spec, pygame.Rect(box.centerx - bw // 2, y, bw, bh))
                y += bh + gap
        else:  # fixed places, counted from the bottom of the column
            n = max(rows) + 1 if rows else 1
            bh = min(int(44 * self.app.ui_scale), (box.h - gap * (n - 1)) // n)
            for spec, row in zip(specs, rows):
                yy = box.bottom - (row + 1) * bh - row * gap
                self.buttons[spec[0]] = self._button(spec, pygame.Rect(box.centerx - bw // 2, yy, bw, bh))
        if not self.fixed_ui:
            self._rules_button()

    def _button_rows(self, specs: list[tuple]) -> list[int] | None:
        """The row of each button, 0 at the bottom of the column, so a button keeps its
        place from turn to turn; None: stacked in order, the last at the bottom."""
        return None

    def _buttons_key(self, specs: list[tuple]) -> tuple:
        """What of ``specs`` changes the buttons (the same key: they are kept)."""
        raise NotImplementedError

    def _button_width(self, box: pygame.Rect) -> int:
        return box.w - 8

    def _button(self, spec: tuple, rect: pygame.Rect) -> Any:
        """The button for one of ``controls.button_specs`` at ``rect``."""
        raise NotImplementedError

    # -- input --------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        et = event.type
        if self._emote_input(event):
            return
        if et == pygame.KEYDOWN and self._is_help_key(event.key):
            self.open_help()
            return
        if (et == pygame.KEYDOWN and event.key == pygame.K_r and self.match_result is not None
                and not self.replay and self.reopen_results()):
            return
        if et == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if not self._cancel_choice():
                self._escape()
        elif et == pygame.MOUSEMOTION:
            self.hover = self.layout.hit(event.pos)
            self.mouse = event.pos
        elif et == pygame.MOUSEBUTTONUP and event.button == 1:
            self._held = None
            if getattr(event, "touch", False):
                self.mouse = None  # a finger lifted: no pointer rests on the table any more
        elif et == pygame.MOUSEBUTTONDOWN:
            pick = self.layout.hit(event.pos)
            if pick is None:
                return
            if event.button == 1:
                self._held = (event.pos, t_ms)  # held long on a card: its tip (client.table.tips)
                if getattr(event, "touch", False):
                    self.mouse = event.pos
                self.click(pick)
            elif event.button == 3:
                self._right_click(pick, t_ms)
        else:
            self._other_input(event, t_ms)

    # -- rules help -------------------------------------------------------------------
    def _is_help_key(self, key: int) -> bool:
        """F1 always opens the rules; H too when no local player's binding uses it."""
        if key == pygame.K_F1:
            return True
        if key != pygame.K_h:
            return False
        return not any(key in b.keys() for b in getattr(self, "bindings", {}).values())

    def open_help(self) -> None:
        """The rules of this table's game (:mod:`client.scenes.help`) over the table."""
        if self.app.scenes and self.app.top is self:
            self.app.open_help(self.game)

    def rules_button_rect(self) -> pygame.Rect | None:
        """Where the Rules button sits: the right end of the top bar (None: no button,
        a replay or a layout without a top bar)."""
        bar = getattr(self.layout, "top_bar", None)
        if self.replay or not isinstance(bar, pygame.Rect):
            return None
        s = self.app.ui_scale
        h = max(16, bar.h - max(4, bar.h // 6))
        w = int(124 * s)
        return pygame.Rect(bar.right - w - max(4, bar.h // 6), bar.centery - h // 2, w, h)

    def hint_right(self, bar: pygame.Rect) -> int:
        """The right end (x px) of the top bar's key help: left of the Rules button."""
        r = self.rules_button_rect()
        return int(r.left - bar.h * 0.4) if r is not None else int(bar.right - bar.h * 0.6)

    def _rules_button(self) -> None:
        from client.ui.widgets import button, call, fitted

        r = self.rules_button_rect()
        if r is None:
            return
        label, cls = fitted(tr("help.table_button"), r.w, self.app.ui_scale)
        b = button(self, r, label, raw=True, class_id=cls or "@compact", command=call(self.open_help))
        self.ui.remove(b)  # not an action button: kept in ``fixed_ui``
        self.fixed_ui.append(b)
        self.rules_button = b

    def clear_ui(self) -> None:
        super().clear_ui()
        for element in getattr(self, "fixed_ui", []):
            element.kill()
        self.fixed_ui = []
        self.rules_button = None

    # -- what a card does (the tip under the mouse) -----------------------------------
    def hover_card_at(self, pos: tuple[int, int]) -> Mapping[str, Any] | None:
        """The face-up card (wire dict) this screen shows at ``pos``, None for none."""
        return None

    def card_tip(self) -> str | None:
        """What the card under the mouse does (the game's ``card_help``), or None."""
        if self.mouse is None:
            return None
        press = getattr(self, "_held", None)
        if press is not None:
            from client.table.tips import LONG_PRESS_MS

            if now_ms() - press[1] < LONG_PRESS_MS:
                return None  # a tap, not (yet) a long press
        card = self.hover_card_at(self.mouse)
        if card is None or self.card_help is None:
            return None
        return self.card_help(card)

    def draw_card_tip(self, surf: pygame.Surface) -> pygame.Rect | None:
        """The tip of the card under the mouse, in a box beside the pointer."""
        tip = self.card_tip()
        if not tip or self.mouse is None:
            return None
        from client import text

        w, h = surf.get_size()
        size = max(12, int(h * 0.024))
        lines = text.wrap(tip, int(w * 0.34), size)
        imgs = [text.render(line, size, (243, 232, 207)) for line in lines]
        pad = size // 2
        box = pygame.Rect(0, 0, max(i.get_width() for i in imgs) + 2 * pad,
                          sum(i.get_height() for i in imgs) + 2 * pad)
        mx, my = self.mouse
        box.topleft = (mx + size, my + size)
        if box.right > w - 4:
            box.right = mx - size
        if box.bottom > h - 4:
            box.bottom = my - size
        box.clamp_ip(surf.get_rect())
        pygame.draw.rect(surf, (24, 16, 12), box, border_radius=pad)
        pygame.draw.rect(surf, (214, 175, 84), box, 1, border_radius=pad)
        y = box.y + pad
        for img in imgs:
            surf.blit(img, (box.x + pad, y))
            y += img.get_height()
        return box

    def _escape(self) -> None:
        """Esc twice within 2.5 s leaves the table (the first press says so)."""
        if self.t < self._esc_until:
            self.leave_table()
        else:
            self._esc_until = self.t + 2500
            seated = bool(self.links) and not self.replay and self.match_result is None
            self.say(tr("rejoin.esc_seat") if seated else tr("table.esc_again"), NOTE, 2500)

    def _cancel_choice(self) -> bool:
        """Esc: drop the choice being made, True when there was one."""
        return False

    def click(self, pick: tuple[str, int]) -> None:
        """A left click on a place of the table."""

    def _right_click(self, pick: tuple[str, int], t_ms: float) -> None:
        """A right click on a place of the table (``t_ms``: its client stamp)."""

    def _other_input(self, event: pygame.event.Event, t_ms: float) -> None:
        """Any other input event (keys, controllers)."""

    # -- emotes (drawing and chips in client.ui.emotes) --------------------------------
    def plate_rect(self, seat: int) -> pygame.Rect | None:
        """The name plate of ``seat`` in the layout (``seats[seat].plate`` or
        ``plates[seat]``), None when the layout has none."""
        plates = getattr(self.layout, "plates", None)
        if isinstance(plates, Mapping) and isinstance(plates.get(seat), pygame.Rect):
            return plates[seat]
        area = (getattr(self.layout, "seats", None) or {}).get(seat) \
            if isinstance(getattr(self.layout, "seats", None), Mapping) else None
        plate = getattr(area, "plate", None)
        return plate if isinstance(plate, pygame.Rect) else None

    @property
    def emote_link(self) -> Any:
        """The connection an emote is sent on: the one local seat's (None: no emote bar,
        as for a spectator, a replay, or couch play where the players share the screen)."""
        if self.replay or len(self.links) != 1:
            return None
        return next(iter(self.links.values()))

    def emote_bar_rect(self) -> pygame.Rect | None:
        """Where the emote bar goes: just above the message column when nothing of the
        layout is there, else the top of the column (px); None without a bar."""
        info = getattr(self.layout, "info", None)
        if self.emote_link is None or not isinstance(info, pygame.Rect):
            return None
        s = self.app.ui_scale
        key = (self.layout, s, tuple(info))
        cached = getattr(self, "_emote_bar_at", None)
        if cached is not None and cached[0][0] is key[0] and cached[0][1:] == key[1:]:
            return cached[1]  # asked every frame: the layout's rects are walked once per layout
        h = max(36, int(52 * s))
        gap = max(4, int(8 * s))
        above = pygame.Rect(info.x, info.top - gap - h, info.w, h)
        taken = [r for name, r in _layout_rects(self.layout) if name not in ("info", "size")]
        if above.top > getattr(getattr(self.layout, "top_bar", None), "bottom", 0) and \
                above.collidelist(taken) < 0:
            rect = above
        else:
            rect = pygame.Rect(info.x, info.top, info.w, h)
        self._emote_bar_at = (key, rect)
        return rect

    def show_emote(self, msg: Mapping[str, Any]) -> None:
        """A pushed ``emote {table, seat, name, emote, t_server}``: the badge beside the
        sender's name for ``client.ui.emotes.SHOW_MS``; an unknown emote is ignored."""
        from client.ui.emotes import EMOTES

        seat, emote = msg.get("seat"), msg.get("emote")
        if isinstance(seat, int) and emote in EMOTES:
            self.emotes.add(seat, str(emote), self.t)

    def send_emote(self, emote: str) -> None:
        """Send ``emote`` for this screen's seat; it shows when the server pushes it back.
        Too many in a row (``too_many_emotes``) is said quietly in the message column."""
        link = self.emote_link
        if link is None or getattr(link, "conn", None) is None:
            return

        def failed(f: Any) -> None:
            code = getattr(f.value, "code", "")
            if code == "too_many_emotes":
                self.say(tr("emote.too_many"), NOTE, 2500)
            elif code != "disconnected":
                self.say(tr("error.action", reason=getattr(f.value, "message", str(f.value))), BAD, 4000)

        def replied(reply: Any) -> None:
            if isinstance(reply, Mapping) and reply.get("type") == "emote":
                self.show_emote(reply)  # a server that answers the sender with the push itself

        link.request("emote", table=self.table_id, emote=emote).addCallbacks(replied, failed)

    def _emote_input(self, event: pygame.event.Event) -> bool:
        """F5-F8 (``client.input.EMOTE_KEYS``) or a click on the emote bar: an emote
        is sent; True when the event was that."""
        from client.input import EMOTE_KEYS

        if self.emote_link is None:
            return False
        if event.type == pygame.KEYDOWN and event.key in EMOTE_KEYS:
            self.send_emote(EMOTE_KEYS[event.key])
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 1:
            r = self.emote_bar_rect()
            if r is not None and r.collidepoint(event.pos):
                self.emote_bar.place(r)
                emote = self.emote_bar.hit(event.pos)
                if emote is not None:
                    self.send_emote(emote)
                return True
        return False

    def draw_emotes(self, surf: pygame.Surface) -> None:
        """The emote badges beside the senders' plates, and the emote bar (a seated
        player's screen); painted over the game's own drawing."""
        for seat, (emote, age) in self.emotes.active(self.t).items():
            plate = self.plate_rect(seat)
            if plate is not None:
                emote_art.draw_badge(surf, emote, age, plate)
        r = self.emote_bar_rect()
        if r is not None and self.app.scenes and self.app.top is self:
            self.emote_bar.place(r)
            keys = {e: key_label(k) for k, e in EMOTE_KEYS.items()}
            self.emote_bar.draw(surf, self.mouse, keys)

    def emotes_busy(self) -> bool:
        """An emote badge is up (it pops in and fades out: the app draws at full pace)."""
        return any(until > self.t for _e, _t0, until in self.emotes.shown.values())

    def _keep_token(self, seat: int, link: Any) -> None:
        """Note local ``seat``'s reconnect token (the app drops it at ``match_over``;
        the same seat keeps it in the next match at this table)."""
        token = (getattr(link, "tokens", None) or {}).get(self.table_id)
        if isinstance(token, str):
            self._seat_tokens[seat] = token

    def _tokens_back(self, msg: Mapping[str, Any], link: Any) -> None:
        """A rematch keeps every seat's token: give them back to the links (and to the
        player's kept seats) for the new match."""
        for seat, other in self.links.items():
            token = self._seat_tokens.get(seat)
            tokens = getattr(other, "tokens", None)
            if token is None or not isinstance(tokens, dict) or self.table_id in tokens:
                continue
            tokens[self.table_id] = token
            keep = getattr(other, "keep_seat", None)
            if keep is not None:
                keep(self.table_id, seat, msg.get("game"))

    # -- the results board ---------------------------------------------------------------
    def results_board(self) -> Any:
        """The results board of this table on the app's scene stack (an instance of the
        game's ``ClientGame.results_scene``), None when none is up."""
        cls = self.app.results_scene(self.game)
        if cls is None:
            return None
        return next((s for s in self.app.scenes if isinstance(s, cls) and s.table is self), None)

    def open_results(self, *args: Any, **kwargs: Any) -> Any:
        """Push the game's results board, ``results_scene(app, self, *args, **kwargs)``;
        when one of this table is already up it is handed the news instead
        (:meth:`client.table.results.ResultsOverlay.again` with the same arguments).
        Returns the board, None for a game without one."""
        cls = self.app.results_scene(self.game)
        if cls is None:
            return None
        board = self.results_board()
        if board is not None:
            board.again(*args, **kwargs)
            return board
        return self.app.push(cls(self.app, self, *args, **kwargs))

    def reopen_results(self) -> bool:
        """R at a finished match whose results board was closed ("See the table"): the
        board again, with its "Play again"; True when it opened (here: no board, False)."""
        return False

    # -- moved to the spectators (host controls) -----------------------------------------
    def _moved(self, msg: Mapping[str, Any], link: Any) -> None:
        """The host moved a local seat's player to the spectators (``moved {table, seat:
        null}``): a bot plays the seat for good; this screen watches (the spectator
        stream's ``match_started`` with seat null follows and shows the public view)."""
        seat = self.seat_of(link)
        if msg.get("seat") is not None or seat is None:
            return
        self.links.pop(seat, None)
        self.legal.pop(seat, None)
        bindings = getattr(self, "bindings", None)
        if isinstance(bindings, dict):
            bindings.pop(seat, None)
        self._drop_choices()
        if hasattr(link, "forget"):
            link.forget(self.table_id)
        if isinstance(getattr(link, "watching", None), set):
            link.watching.add(self.table_id)
        if link is self.display:
            self.public = True  # nothing private on this screen any more
        self.say(tr("hostctl.moved"), NOTE, 10_000)
        self.app.notify(tr("hostctl.moved"), 6, error=False)
        self._buttons_sig = None
        self._refresh()

    # -- play again ---------------------------------------------------------------------
    def _is_next_match(self, msg: Mapping[str, Any]) -> bool:
        """A ``match_started`` that is a new match at this table (a rematch): the match
        shown here is over and this is no come-back."""
        return not self.replay and self.match_result is not None and not msg.get("resumed")

    def _next_match(self, msg: dict[str, Any], link: Any) -> None:
        """Every player asked to play again: the new match opens in a fresh table scene
        of the game (the same flow as a first start). Couch play: the local seats'
        starts wait for the shared screen's, then reach the new scene with their keys."""
        if link is not self.display:
            self._rematch_stash.append((link, msg))
            return
        bindings = getattr(self, "bindings", {}) or {}
        self._tokens_back(msg, link)
        for seat, other in self.links.items():
            if other is not link and seat in bindings:
                self.app.pending_bindings[other] = bindings[seat]
        seat = msg.get("seat")
        scene = self.app.table_scene(link, msg, binding=bindings.get(seat) if seat is not None else None)
        if scene is None:
            return
        self.app.reset(scene)
        stash, self._rematch_stash = self._rematch_stash, []
        for other, started in stash:
            scene.on_message(started, other)

    # -- frame --------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """The game's :meth:`draw_table`, then each of the kit's :meth:`overlays` in order."""
        self.draw_table(surface)
        for paint in self.overlays():
            paint(surface)

    def overlays(self) -> list[Callable[[pygame.Surface], Any]]:
        """What is painted over the table, bottom first: the tip of the card under the
        mouse (when this screen is on top) and the emote badges and bar. A kit layer
        adds its own (the photo finish)."""
        return [self._draw_tip_on_top, self.draw_emotes]

    def _draw_tip_on_top(self, surface: pygame.Surface) -> None:
        if self.app.scenes and self.app.top is self:
            self.draw_card_tip(surface)

    def animating(self) -> bool:
        """Something moves: an effect plays, a card glides to its place, a reaction
        window's time bar runs (the app draws at 60 FPS then, else it idles)."""
        left = self.timer_left()
        return bool(getattr(self, "_gliding", True) or getattr(self, "_held", None) or self.anim.busy(self.t)
                    or getattr(self, "window", None) or (left is not None and 0 < left[1] < 10)
                    or self.emotes_busy())

    def draw_partial(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        """Repaint only the cards in flight, the time bars and the turn light over the
        cached base frame (the game's :meth:`_draw_partial`), on a screen nobody plays
        on here (a spectator, the TV view, a replay) with nothing over the table: no
        reconnection veil, no emote badge, no card tip. None otherwise (drawn whole)."""
        tip_possible = self.mouse is not None and self.card_help is not None  # a card may glide under it
        if (self.links or self.reconnecting is not None or self.emotes_busy() or tip_possible
                or getattr(self, "_held", None) or self.app.top is not self):
            self.top_rects = None
            return None
        return self._draw_partial(surface)

    def _draw_partial(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        """The game's partial redraw (``client.games.<game>.draw.draw_partial``); None:
        the game draws whole frames only."""
        return None

    def precise_input(self) -> bool:
        """A live table with a local seat: key presses are stamped every 2 ms."""
        return not self.replay and bool(self.links)

    def update(self, dt: float) -> None:
        dt_ms = dt * 1000.0
        self.t += dt_ms
        rects = self.card_rects()
        moving = False
        for key, f in self.pos.items():
            r = rects.get(key)
            if r is not None:
                f.step(r.x, r.y, dt_ms)
                moving = moving or f.x != r.x or f.y != r.y
        self._gliding = moving
        self.anim.prune(self.t)


def _layout_rects(layout: Any) -> list[tuple[str, pygame.Rect]]:
    """Every rect a game layout holds (its fields, their dicts, lists and areas, one
    level down), by field name: what the emote bar must not cover."""
    out: list[tuple[str, pygame.Rect]] = []

    def add(name: str, v: Any, depth: int) -> None:
        if isinstance(v, pygame.Rect):
            out.append((name, v))
        elif depth > 0 and isinstance(v, Mapping):
            for x in v.values():
                add(name, x, depth - 1)
        elif depth > 0 and isinstance(v, (list, tuple)):
            for x in v:
                add(name, x, depth - 1)
        elif depth > 0 and hasattr(v, "__dict__"):
            for k, x in vars(v).items():
                add(name, x, depth - 1)

    for name, v in (vars(layout).items() if hasattr(layout, "__dict__") else []):
        add(name, v, 2)
    return out
