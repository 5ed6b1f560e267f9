"""What every game table scene shares, whatever the game: who sits where, the message
column, the turn timer, spectators, and coming back after a lost connection.

:class:`TableScene` is a template: the course of a match is the same for every game and
is written here once -- showing an ``update`` (each event animated by the game's effects
and told in the message column, then the cards glide to their new places), a jump to a
view (a replay's seek, a resumed match), sending an action, the action buttons, the
mouse and the double Esc that leaves -- and calls the hooks a game's scene fills: its
layout (``_layout``, ``card_rects``), effects (``_fx``), narration (``_narrate``; the
round and turn of its lines: ``_moment``, ``_moment_after``, :meth:`TableScene.moment_label`),
painting (``draw_table``), choices (``_update_choices``, ``_drop_choices``), buttons
(``_buttons_key``, ``_button``) and controls (:attr:`TableScene.controls`:
``button_specs`` and ``prompt``).

The parts of a table are collaborators the scene holds, each in its own module:

* :attr:`~TableScene.roster` -- names, bots, away seats, spectators (:mod:`.roster`);
* :attr:`~TableScene.timer` -- the turn timer on this client's clock (:mod:`.timer`);
  :attr:`~TableScene.pause` -- the end of a pause of the server's, counted down (:mod:`.pause`);
* :attr:`~TableScene.column` -- the message column and the match's history (:mod:`.messages`,
  :mod:`.history`); :attr:`~TableScene.history` -- scrolling it, and the full history
  view on M (:mod:`.history_view`);
* :attr:`~TableScene.motion` -- cards gliding to their places (:mod:`.motion`);
* :attr:`~TableScene.feed` -- the server's messages in, actions out (:mod:`.feed`);
* :attr:`~TableScene.actions` -- the action buttons and the Rules button (:mod:`.buttons`);
* :attr:`~TableScene.emotes` -- emote badges and bar (:mod:`.emotes`);
* :attr:`~TableScene.tip` -- the tip of the card under the mouse (:mod:`.tips`);
* :attr:`~TableScene.ending` -- the results board and the next match (:mod:`.ending`);
* :attr:`~TableScene.keys` -- the rules key, the double Esc, leaving (:mod:`.keys`).

**Reconnection**: while a connection of this table is being re-opened by the app
(:mod:`client.reconnect`), :attr:`TableScene.reconnecting` is that attempt and the table
is drawn with an overlay; the server's ``match_started`` with ``resumed: true`` then
brings the table up to date.

**Replays** (:mod:`client.scenes.replay`) drive a table scene with no connection:
``replay`` is then true (no results pop-up, nothing to send) and ``area`` the part of
the window (w, h px) the table is drawn in.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import pygame

from client.animation import Animator
from client.i18n import tr
from client.narrate import Line
from client.table.buttons import ActionButtons
from client.table.emotes import TableEmotes
from client.table.ending import MatchEnd
from client.table.feed import TableFeed
from client.table.history import Moment
from client.table.hint import HINT_KEY, TableHint
from client.table.history_view import HistoryView
from client.table.keys import TableKeys
from client.table.messages import DIM, MSG_MS, MessageColumn
from client.table.motion import CardMotion
from client.table.pause import PauseClock
from client.table.roster import SeatRoster
from client.table.timer import TurnTimer
from client.table.tips import CardTip
from client.ui import roomcode
from client.ui.scene import Scene

__all__ = ["MSG_MS", "TableScene"]

#: How long (ms) the message column says, as a table opens, how to see the whole history.
HINT_MS = 12_000.0


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
        self.perspective: int | None = started.get("seat")  # the seat at the bottom of the screen
        self.view: dict[str, Any] = started["view"]
        self.legal: dict[int | None, list[dict[str, Any]]] = {}  # local seat -> its legal actions
        self.roster = SeatRoster(self, str(started.get("name") or ""))  # a replay's table name
        self.timer = TurnTimer()
        self.pause = PauseClock()
        self.column = MessageColumn(lambda: self.t, self.moment_label)
        self.column.say(tr("history.hint"), DIM, HINT_MS)  # where the history is, once
        self.history = HistoryView(self)
        self.motion = CardMotion()
        self.feed = TableFeed(self)
        self.actions = ActionButtons(self)
        self.buttons = self.actions.buttons  # the action buttons by id
        self.emotes = TableEmotes(self)
        self.tip = CardTip(self)
        self.ending = MatchEnd(self)
        self.keys = TableKeys(self)
        self.hint = TableHint(self)
        self.anim = Animator()
        self.layout: Any = self._layout()
        self.hover: tuple[str, int] | None = None  # the place under the mouse
        self.mouse: tuple[int, int] | None = None  # the last mouse position over the table
        self.held: tuple[tuple[int, int], float] | None = None  # a left press held: (pos, t_ms)
        #: The banner's (main line, second line, urgent), from ``controls.prompt``.
        self.prompt: tuple[str, str, bool] = ("", "", False)
        self.match_result: dict[str, Any] | None = None
        #: ``match_over.reactions``: each seat's median reaction (ms) or None.
        self.match_reactions: list[Any] | None = None
        #: ``match_over.scoreboard``: the evening's ``[{name, game, played, won}]`` or None.
        self.match_scoreboard: list[Any] | None = None
        #: What was painted over the base frame in the last frame drawn
        #: (``client.table.draw.top_record``: names, signatures, rects in px), for
        #: :meth:`draw_partial` (None: unknown, the next frame is drawn whole).
        self.top_rects: list[tuple] | None = None
        self.roster.note_seats(started)
        self.timer.note(started, link)

    # -- what the game supplies ---------------------------------------------------------
    def _layout(self) -> Any:
        """Every rect of the table for ``view`` at :attr:`table_size` (pixels)."""
        raise NotImplementedError

    def card_rects(self) -> Mapping[Any, pygame.Rect]:
        """The rect of every card of the layout, by the key its follower has in ``motion``."""
        raise NotImplementedError

    def _narrate(self, ev: dict[str, Any]) -> Line | None:
        """The message-column line for one event, None for none."""
        raise NotImplementedError

    def _moment(self, view: Mapping[str, Any]) -> Moment:
        """``(round, turn)`` of the match in ``view`` for the history (None: the game has
        none, or none yet)."""
        return (None, None)

    def _moment_after(self, ev: Mapping[str, Any], moment: Moment) -> Moment:
        """The moment after event ``ev`` (a new round or turn starts), from ``moment``."""
        return moment

    def moment_label(self, moment: Moment) -> str:
        """A history header: "Round 2 · Turn 5", "Round 2", "Turn 5", or "" for none."""
        rnd, turn = moment
        if rnd is not None and turn:
            return tr("history.round_turn", round=str(rnd), turn=str(turn))
        if rnd is not None:
            return tr("history.round", round=str(rnd))
        return tr("history.turn", turn=str(turn)) if turn else ""

    def _fx(self, prev_view: dict[str, Any], old: Any) -> Callable[[dict[str, Any]], None]:
        """What animates one event of an update (``prev_view``/``old``: the view and
        layout before it; ``view``/``layout`` are already the new ones)."""
        raise NotImplementedError

    def draw_table(self, surface: pygame.Surface) -> None:
        """Paint the table itself (the game's painter); :meth:`draw` paints the kit's
        :meth:`overlays` over it."""
        raise NotImplementedError

    def _buttons_key(self, specs: list[tuple]) -> tuple:
        """What of ``specs`` changes the buttons (the same key: they are kept)."""
        raise NotImplementedError

    def _button(self, spec: tuple, rect: pygame.Rect) -> Any:
        """The button for one of ``controls.button_specs`` at ``rect``."""
        raise NotImplementedError

    def _button_rows(self, specs: list[tuple]) -> list[int] | None:
        """The row of each button, 0 at the bottom of the column, so a button keeps its
        place from turn to turn; None: stacked in order, the last at the bottom."""
        return None

    def _button_width(self, box: pygame.Rect) -> int:
        return box.w - 8

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

    def _note_seat(self, seat: int, msg: dict[str, Any]) -> None:
        """An ``update`` (or the ``match_started`` of a come-back) for local ``seat``."""
        self.legal[seat] = list(msg.get("legal", []))

    def _seat_arrived(self, link: Any, msg: dict[str, Any]) -> None:
        """The ``match_started`` of a seat on a link this table does not know yet."""

    def _match_over(self) -> None:
        """``match_over`` came (``match_result`` holds its result)."""

    def _game_message(self, msg: dict[str, Any], seat: int | None) -> None:
        """A message of this table the game itself handles (``seat``: its local seat)."""

    def _seat_lost(self, seat: int) -> None:
        """A local seat's connection is gone for good (the display link is not)."""
        self.app.go_menu()

    def reopen_results(self) -> bool:
        """R at a finished match whose results board was closed ("See the table"): the
        board again, with its "Play again"; True when it opened (here: no board, False)."""
        return False

    def hover_card_at(self, pos: tuple[int, int]) -> Mapping[str, Any] | None:
        """The face-up card (wire dict) this screen shows at ``pos``, None for none."""
        return None

    def _cancel_choice(self) -> bool:
        """Esc: drop the confirmation asked or the choice being made, True when there
        was one on screen (that Esc then does nothing else: it never starts leaving)."""
        return False

    def click(self, pick: tuple[str, int]) -> None:
        """A left click on a place of the table."""

    def _right_click(self, pick: tuple[str, int], t_ms: float) -> None:
        """A right click on a place of the table (``t_ms``: its client stamp)."""

    def _other_input(self, event: pygame.event.Event, t_ms: float) -> None:
        """Any other input event (keys, controllers)."""

    def _draw_partial(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        """The game's partial redraw (``client.games.<game>.draw.draw_partial``); None:
        the game draws whole frames only."""
        return None

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
    def cursor_picks(self) -> set[tuple[str, int]]:
        """The places under a keyboard cursor (none unless the game has one)."""
        return set()

    @property
    def table_size(self) -> tuple[int, int]:
        """The (w, h) px the table is drawn in: the window, or a replay's part of it."""
        return self.area or self.app.size

    # -- connections ----------------------------------------------------------------------
    @property
    def reconnecting(self) -> Any:
        """The app's reconnection attempt for a connection of this table, or None."""
        for link in [self.display, *self.links.values()]:
            attempt = getattr(link, "reconnect", None)
            if attempt is not None and attempt.active:
                return attempt
        return None

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
        seat = self.roster.seat_of(link)
        if seat is not None:
            self._seat_lost(seat)

    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        self.feed.receive(msg, link)

    # -- life cycle ---------------------------------------------------------------------
    def build(self, size: tuple[int, int]) -> None:
        self.actions.invalidate()
        self.actions.build()
        self.history.build()

    def clear_ui(self) -> None:
        super().clear_ui()
        self.actions.clear_fixed()
        self.history.drop_widgets()

    def relayout(self) -> None:
        """Lay the table out again: effects dropped, every card at its place."""
        self.anim.finish()
        self.layout = self._layout()
        self.motion.pos.clear()
        self.motion.sync(self.card_rects())

    # -- showing the match --------------------------------------------------------------
    def show(self, view: dict[str, Any], events: list[dict[str, Any]], animate: bool = True) -> None:
        """Show ``view`` after ``events`` (wire dicts): animated and told, or (``animate``
        false) told only and shown at once (a replay's step)."""
        if not animate:
            self.tell(events, self.view)
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

    def tell(self, events: list[dict[str, Any]], before: Mapping[str, Any] | None) -> None:
        """Keep the lines of ``events`` (wire dicts), which followed the view ``before``
        (None: unknown, they follow the history's last line), in the history, each under
        its round and turn (no animation, no sound)."""
        last = self.column.history.moment
        if before is not None:
            moment = self._moment(before)
        else:
            moment = last if last is not None else self._moment(self.view)
        for ev in events:
            moment = self._moment_after(ev, moment)
            line = self._narrate(ev)
            if line is not None:
                self.column.tell(moment, line[0], line[1])

    def _apply(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """The display link's update: the new view and layout, each event animated and
        told in the history (with its sound), then the cards glide to their new places."""
        prev_view, old = self.view, self.layout
        self.view = view
        self.layout = self._layout()
        animate = self._fx(prev_view, old)
        moment = self._moment(prev_view)
        for ev in events:
            try:
                animate(ev)
            except (KeyError, IndexError, TypeError, ValueError):  # a malformed event: the view is enough
                pass
            moment = self._moment_after(ev, moment)
            line = self._narrate(ev)
            if line is not None:
                text, colour, cue = line
                self.column.tell(moment, text, colour)
                cue and self.app.sound and self.app.sound.play(cue)
        self.motion.sync(self.card_rects())
        self._after_update()

    def _refresh(self) -> None:
        """Re-derive the choices, the buttons and the prompt from ``legal``."""
        self._update_choices()
        self.prompt = self.controls.prompt(self)
        if self.app.scenes and self.app.top is self:
            self.actions.build()

    # -- input --------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        et = event.type
        if self.emotes.handle_input(event):
            return
        if self._history_input(event):
            return
        if et == pygame.KEYDOWN and self.keys.is_help_key(event.key):
            self.keys.open_help()
            return
        if et == pygame.KEYDOWN and event.key == HINT_KEY and not self.replay and self.links:
            self.hint.ask()
            return
        if (et == pygame.KEYDOWN and event.key == pygame.K_r and self.match_result is not None
                and not self.replay and self.reopen_results()):
            return
        if et == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self._cancel_choice():
                self.keys.disarm()  # a confirmation's Esc only cancels it
            else:
                self.keys.escape()
        elif et == pygame.MOUSEMOTION:
            self.hover = self.layout.hit(event.pos)
            self.mouse = event.pos
        elif et == pygame.MOUSEBUTTONUP and event.button == 1:
            self.held = None
            if getattr(event, "touch", False):
                self.mouse = None  # a finger lifted: no pointer rests on the table any more
        elif et == pygame.MOUSEBUTTONDOWN:
            pick = self.layout.hit(event.pos)
            if pick is None:
                return
            if event.button == 1:
                self.held = (event.pos, t_ms)  # held long on a card: its tip (client.table.tips)
                if getattr(event, "touch", False):
                    self.mouse = event.pos
                self.click(pick)
            elif event.button == 3:
                self._right_click(pick, t_ms)
        else:
            self._other_input(event, t_ms)

    def _history_input(self, event: pygame.event.Event) -> bool:
        """The history's keys, wheel and click (:class:`~client.table.history_view.HistoryView`);
        True when the event was its."""
        et = event.type
        if et == pygame.KEYDOWN:
            return self.history.key(event.key) or self.history.column_key(event.key)
        if et == pygame.MOUSEWHEEL:
            return self.history.wheel(self.mouse, event.y)
        if et == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return self.history.click(event.pos)
        return False

    # -- frame --------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """The game's :meth:`draw_table`, then each of the kit's :meth:`overlays` in order."""
        self.draw_table(surface)
        for paint in self.overlays():
            paint(surface)

    def overlays(self) -> list[Callable[[pygame.Surface], Any]]:
        """What is painted over the table, bottom first: the full history view (when
        open), the tip of the card under the mouse (when this screen is on top) and the
        emote badges and bar. A kit layer adds its own (the photo finish)."""
        return [self.draw_room_code, self.hint.draw, self.history.draw, self.tip.draw_on_top, self.emotes.draw]

    def plate_rect(self, seat: int) -> pygame.Rect | None:
        """Seat ``seat``'s name plate on this table (px), None when it has none."""
        seats = getattr(self.layout, "seats", None)
        area = seats.get(seat) if isinstance(seats, dict) else None
        if area is not None and isinstance(getattr(area, "plate", None), pygame.Rect):
            return area.plate
        plates = getattr(self.layout, "plates", None)
        plate = plates.get(seat) if isinstance(plates, dict) else None
        return plate if isinstance(plate, pygame.Rect) else None

    def notice_rect(self) -> pygame.Rect | None:
        """Where the window's one-line notice goes over this table (px): its prompt
        banner, which the player reads anyway -- the top of the window is the plate of
        the seat across the table."""
        banner = getattr(self.layout, "banner", None)
        return banner if isinstance(banner, pygame.Rect) else None

    def room_code_rect(self, surface: pygame.Surface) -> pygame.Rect | None:
        """Where the TV (``--tv``, a screen where nobody plays) shows the table's room code
        and QR code while the match runs, so that a latecomer or a phone that lost the page
        can join or watch: None on other screens, or when the server serves no phone page
        or did not tell this screen the code."""
        if not getattr(self.app, "tv", False) or self.links or self.replay or self.display is None:
            return None
        if roomcode.phone_url(self.display, self.roster.table_entry()) is None:
            return None
        return roomcode.corner_rect(surface.get_size())

    def draw_room_code(self, surface: pygame.Surface) -> None:
        """The room-code panel of :meth:`room_code_rect`, when it has one."""
        rect = self.room_code_rect(surface)
        if rect is None:
            return
        host = str(getattr(self.display, "address", ("127.0.0.1", 0))[0])
        if host in ("127.0.0.1", "localhost"):  # phones reach this machine by its LAN address
            choices = roomcode.lan_addresses()  # the one the host picked in the lobby
            host = choices[getattr(self.app, "lan_choice", 0) % len(choices)]
        roomcode.draw_for(surface, rect, self.display, self.roster.table_entry(), rect.h / 420, host=host)

    def animating(self) -> bool:
        """Something moves: an effect plays, a card glides to its place, a reaction
        window's time bar runs (the app draws at 60 FPS then, else it idles)."""
        left = self.timer.left()
        return bool(self.motion.gliding or self.held or self.anim.busy(self.t)
                    or getattr(self, "window", None) or (left is not None and 0 < left[1] < 10)
                    or self.emotes.busy() or self.hint.shown is not None)

    def draw_partial(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        """Repaint only the cards in flight, the time bars and the turn light over the
        cached base frame (the game's :meth:`_draw_partial`), on a screen nobody plays
        on here (a spectator, the TV view, a replay) with nothing over the table: no
        reconnection veil, no emote badge, no card tip. None otherwise (drawn whole)."""
        tip_possible = self.mouse is not None and self.card_help is not None  # a card may glide under it
        if (self.links or self.reconnecting is not None or self.emotes.busy() or tip_possible
                or self.held or self.app.top is not self or self.history.open):
            self.top_rects = None
            return None
        rects = self._draw_partial(surface)
        corner = self.room_code_rect(surface)
        if rects is not None and corner is not None and any(corner.colliderect(r) for r in rects):
            self.draw_room_code(surface)  # a card that glided under the panel: it stays on top
            rects.append(corner)
        return rects

    def precise_input(self) -> bool:
        """A live table with a local seat: key presses are stamped every 2 ms."""
        return not self.replay and bool(self.links)

    def update(self, dt: float) -> None:
        dt_ms = dt * 1000.0
        self.t += dt_ms
        self.motion.step(self.card_rects(), dt_ms)
        self.anim.prune(self.t)
        self.history.update()
        self.pause.tick(lambda line, seconds: self.app.notify(line, seconds, error=False))
