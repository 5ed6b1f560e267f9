"""One table: its seats, one match (engine state + match log), its reaction windows,
arbiter, timers and in-process bots (ARCHITECTURE §3, §5; docs/PROTOCOL.md).

A *connection* here is anything with ``conn_id``, ``name``, ``push(msg_type, **fields)``,
``clock_offset_ms`` (server ms - client ms, or None), ``rtt_bound_ms()`` and
``set_playing(bool)`` (called True when a match of this connection's seat starts, False
once when it ends or the seat is given up) -- :class:`server.protocol.ServerProtocol` in
production, a fake in the tests. The seat always comes from the connection, never from a message.

Secrets are filtered here, at the source: each seated connection gets ``view(state,
seat)``, ``events_for(events, seat)`` and its own legal actions; spectators get seat None
and no legal actions.

Reconnect (a later issue): a seated player who disconnects during a match is replaced by
a bot at once; the seat keeps ``token`` and ``away_name`` so that a ``reconnect`` can stop
the bot and give the seat back.
"""
from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import Any, Callable

from twisted.logger import Logger

from shared.bots import make_bot
from shared.bots.driver import BotDriver
from shared.protocol import ProtocolError
from shared.rules import Action, BadAction, Event, IllegalAction, Window, events_for
from server.arbiter import TOLERANCE_MS, Arbiter, Claim, bound_press

log = Logger()

#: Options a client may give at ``create_table`` (PROTOCOL.md "Table options").
TESTING_OPTIONS = ("deck", "first_player")
#: Engine config keys each game takes from the server's ``timing`` section.
_TIMING_KEYS: dict[str, tuple[str, ...]] = {"omerta": ("snap_timeout_ms", "counter_timeout_ms")}


def parse_options(game: Any, seats: int, options: dict[str, Any], config: dict[str, Any],
                  testing: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """Check ``create_table`` options; return ``(engine_config, table_settings)``.

    ``engine_config`` = ``{"seats": n, ...}`` for ``game.new_match``; ``table_settings``
    = ``{"seed": int, "bot_think_ms": float, "bot_kind": str}``. Raises
    :class:`ProtocolError` ``bad_seats``, ``bad_option`` or ``testing_only``.
    """
    if not game.MIN_SEATS <= seats <= game.MAX_SEATS:
        raise ProtocolError("bad_seats", f"{game.NAME} is played by {game.MIN_SEATS} to "
                                         f"{game.MAX_SEATS} players, not {seats}")
    engine: dict[str, Any] = {"seats": seats}
    for key in _TIMING_KEYS.get(game.NAME, ()):
        engine[key] = config["timing"][key]
    settings: dict[str, Any] = {
        "seed": random.SystemRandom().randrange(1, 2**31),
        "bot_think_ms": float(config["bots"]["think_ms"]),
        "bot_kind": "smart",
    }

    def integer(key: str, lo: int, hi: int) -> int:
        value = options[key]
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise ProtocolError("bad_option", f"option {key!r} must be an integer from {lo} to {hi}")
        return value

    for key in options:
        if key in TESTING_OPTIONS and not testing:
            raise ProtocolError("testing_only", f"option {key!r} needs a server started with --testing")
        if key == "seed":
            settings["seed"] = integer("seed", -(2**63), 2**63 - 1)
        elif key == "rounds":
            engine["rounds"] = integer("rounds", 1, 20)
        elif key == "snap_timeout_ms":
            engine["snap_timeout_ms"] = engine["counter_timeout_ms"] = integer(key, 500, 30_000)
        elif key == "bot_think_ms":
            settings["bot_think_ms"] = float(integer(key, 0, 60_000))
        elif key == "bot_kind":
            if options[key] not in ("smart", "random"):
                raise ProtocolError("bad_option", "option 'bot_kind' is 'smart' or 'random'")
            settings["bot_kind"] = options[key]
        elif key == "deck":
            engine["deck"] = options[key]
        elif key == "first_player":
            engine["first_player"] = integer(key, 0, seats - 1)
        else:
            raise ProtocolError("bad_option", f"unknown table option {key!r}")
    try:
        game.new_match(engine, settings["seed"])
    except ValueError as e:
        raise ProtocolError("bad_option", str(e)) from None
    return engine, settings


@dataclass
class Seat:
    """One seat: a connection, a bot (``driver`` once the match runs), or free."""

    index: int
    conn: Any = None
    name: str | None = None
    bot: bool = False
    driver: BotDriver | None = None
    token: str | None = None
    away_name: str | None = None  # the player a bot replaced (for reconnect)

    @property
    def free(self) -> bool:
        return self.conn is None and not self.bot

    def summary(self) -> dict[str, Any]:
        return {"seat": self.index, "name": self.name, "bot": self.bot,
                "connected": self.bot or self.conn is not None}


def claim_success(events: list[Event], seat: int) -> bool | None:
    """Whether ``seat``'s claim was right, from the engine's events: by convention the
    claim's event carries ``seat`` and a boolean ``success`` (Omerta's ``snap`` and
    ``counter``). None when no such event exists."""
    for e in events:
        if e.data.get("seat") == seat and isinstance(e.data.get("success"), bool):
            return bool(e.data["success"])
    return None


class Table:
    """One table and its match.

    ``game``: the rules module; ``engine_config``/``settings`` from
    :func:`parse_options`; ``config``: the whole server config (``timing``, ``bots``);
    ``clock``: ``IReactorTime`` on the server's monotonic clock; ``on_empty(table)`` is
    called when the last connection left; ``on_change(table)`` after seat or status
    changes.
    """

    def __init__(self, table_id: int, game: Any, name: str, engine_config: dict[str, Any],
                 settings: dict[str, Any], config: dict[str, Any], clock: Any,
                 on_empty: Callable[["Table"], None] = lambda t: None,
                 on_change: Callable[["Table"], None] = lambda t: None):
        self.id = table_id
        self.game = game
        self.name = name
        self.engine_config = engine_config
        self.seed: int = settings["seed"]
        self.bot_think_ms: float = settings["bot_think_ms"]
        self.bot_kind: str = settings["bot_kind"]
        self.config = config
        self.clock = clock
        self.on_empty = on_empty
        self.on_change = on_change
        self.seats = [Seat(i) for i in range(engine_config["seats"])]
        self.spectators: list[Any] = []
        self.status = "waiting"  # "waiting" | "playing" | "over"
        self.state: Any = None
        self.log: list[dict[str, Any]] = []  # [{"seat", "action", "t"}], t = ms since start
        self.result: dict[str, Any] | None = None
        self.started_at = 0.0
        self.arbiter = Arbiter(clock, float(config["timing"]["collection_margin_ms"]),
                               self._decide, salt=str(self.seed))
        self.window: Window | None = None  # the open reaction window
        self.window_shown = 0.0  # server ms when the window's update went out
        self._timeout_call: Any = None
        self._claimed: set[int] = set()  # seats whose claim waits in the arbiter
        self._last_window: tuple[Window, float, float | None] | None = None  # (w, shown, win press)
        self.closed = False

    # -- time -------------------------------------------------------------------------
    def now_ms(self) -> float:
        return self.clock.seconds() * 1000.0

    # -- summaries and pushes -----------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The ``Table`` object of the protocol."""
        return {"id": self.id, "name": self.name, "game": self.game.NAME,
                "status": self.status, "seats": [s.summary() for s in self.seats],
                "spectators": len(self.spectators)}

    def connections(self) -> list[Any]:
        """Every connection at the table: seated ones, then spectators."""
        return [s.conn for s in self.seats if s.conn is not None] + list(self.spectators)

    def _push_summary(self) -> None:
        summary = self.summary()
        for conn in self.connections():
            conn.push("table", table=summary)
        self.on_change(self)

    def seat_of(self, conn: Any) -> int | None:
        for s in self.seats:
            if s.conn is conn:
                return s.index
        return None

    # -- seats ------------------------------------------------------------------------
    def join(self, conn: Any, seat: int | None = None, spectate: bool = False) -> dict[str, Any]:
        """Seat ``conn`` (first free seat when ``seat`` is None) or add it as a spectator.

        Returns the ``joined`` reply fields ``{table, seat, token}``; starts the match
        when the last seat is filled. Raises :class:`ProtocolError` ``already_seated``,
        ``already_started``, ``match_over``, ``no_such_seat``, ``seat_taken``,
        ``table_full``.
        """
        if self.seat_of(conn) is not None or conn in self.spectators:
            raise ProtocolError("already_seated", "you are already at this table")
        if spectate:
            self.spectators.append(conn)
            self._push_summary()
            if self.status != "waiting":
                self._send_start(conn, None)
            return {"table": self.id, "seat": None, "token": None}
        if self.status == "playing":
            raise ProtocolError("already_started", "the match has started: join as a spectator")
        if self.status == "over":
            raise ProtocolError("match_over", "the match is over")
        target = self._pick_seat(seat)
        target.conn, target.name = conn, conn.name
        target.token = secrets.token_urlsafe(16)
        self._seats_changed()
        return {"table": self.id, "seat": target.index, "token": target.token}

    def _pick_seat(self, seat: int | None) -> Seat:
        if seat is None:
            for s in self.seats:
                if s.free:
                    return s
            raise ProtocolError("table_full", "every seat of this table is taken")
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("no_such_seat", f"this table has seats 0 to {len(self.seats) - 1}")
        if not self.seats[seat].free:
            raise ProtocolError("seat_taken", f"seat {seat} is taken")
        return self.seats[seat]

    def add_bot(self, seat: int | None = None) -> None:
        """Put a bot in ``seat`` (first free when None) before the match starts."""
        if self.status != "waiting":
            raise ProtocolError("already_started", "seats cannot change once the match runs")
        target = self._pick_seat(seat)
        target.bot, target.name = True, f"Bot {target.index + 1}"
        self._seats_changed()

    def remove_bot(self, seat: int) -> None:
        """Free a bot's seat before the match starts."""
        if self.status != "waiting":
            raise ProtocolError("already_started", "seats cannot change once the match runs")
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("no_such_seat", f"this table has seats 0 to {len(self.seats) - 1}")
        if not self.seats[seat].bot:
            raise ProtocolError("no_such_seat", f"seat {seat} holds no bot")
        self.seats[seat] = Seat(seat)
        self._push_summary()

    def leave(self, conn: Any) -> None:
        """``conn`` leaves (or its connection is lost): a spectator goes; before the match
        its seat is freed; during the match a bot takes the seat at once."""
        if conn in self.spectators:
            self.spectators.remove(conn)
        index = self.seat_of(conn)
        if index is not None:
            seat = self.seats[index]
            if self.status == "waiting":
                self.seats[index] = Seat(index)
            elif self.status == "playing":
                conn.set_playing(False)
                self._bot_takes_over(seat)
            else:
                seat.conn = None
        if not self.connections():
            self.close()
            self.on_empty(self)
            return
        self._push_summary()

    def _bot_takes_over(self, seat: Seat) -> None:
        seat.away_name, seat.conn = seat.name, None
        seat.bot, seat.name = True, f"{seat.name} (bot)"
        seat.driver = self._make_driver(seat.index)
        self._feed_bot(seat, [], self.now_ms())
        if self.arbiter.collecting:
            self.arbiter.update(self._pending_bounds())

    # -- match lifecycle ------------------------------------------------------------
    def _seats_changed(self) -> None:
        """Start the match when every seat is filled (its summary goes out with status
        playing), else push the new summary."""
        if self.status == "waiting" and all(not s.free for s in self.seats):
            self._start()
        else:
            self._push_summary()

    def _start(self) -> None:
        self.status = "playing"
        self.state = self.game.new_match(self.engine_config, self.seed)
        self.started_at = self.now_ms()
        log.info("table {id}: {game} match started, seed {seed}", id=self.id,
                 game=self.game.NAME, seed=self.seed)
        for seat in self.seats:
            if seat.bot:
                seat.driver = self._make_driver(seat.index)
        self._push_summary()
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.set_playing(True)
                self._send_start(seat.conn, seat.index)
        for conn in self.spectators:
            self._send_start(conn, None)
        for seat in self.seats:
            self._feed_bot(seat, [], self.started_at)
        self._track_window(self.started_at)

    def _send_start(self, conn: Any, seat: int | None) -> None:
        conn.push("match_started", table=self.id, game=self.game.NAME, seat=seat,
                  view=self.game.view(self.state, seat), legal=self._legal_dicts(seat),
                  t_server=self.now_ms(), step=len(self.log))

    def _finish(self) -> None:
        self.status = "over"
        self._stop_timers()
        scores = self.game.scores(self.state)
        self.result = {"game": self.game.NAME, "seed": self.seed, **scores}
        self.result.setdefault("rounds", 1)  # single-game matches (Famiglia) have no rounds
        log.info("table {id}: match over, scores {scores}", id=self.id,
                 scores=self.result.get("scores"))
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.set_playing(False)
        for conn in self.connections():
            conn.push("match_over", table=self.id, result=self.result)
        self._push_summary()

    def _stop_timers(self) -> None:
        self.arbiter.cancel()
        self._claimed.clear()
        if self._timeout_call is not None and self._timeout_call.active():
            self._timeout_call.cancel()
        self._timeout_call = None
        for seat in self.seats:
            if seat.driver is not None:
                seat.driver.stop()

    def close(self) -> None:
        """Stop every timer and bot; the table is gone."""
        self.closed = True
        self._stop_timers()
        for seat in self.seats:
            seat.driver = None

    # -- legal actions and updates ----------------------------------------------------
    def _legal(self, seat: int | None) -> list[Action]:
        if seat is None or self.state is None or self.status != "playing":
            return []
        legal = self.game.legal_actions(self.state, seat)
        if seat in self._claimed and self.window is not None:
            hidden = set(self.window.claim_types) | {self.window.pass_type}
            legal = [a for a in legal if a.TYPE not in hidden]
        return legal

    def _legal_dicts(self, seat: int | None) -> list[dict[str, Any]]:
        return [a.to_dict() for a in self._legal(seat)]

    def _feed_bot(self, seat: Seat, events: list[dict[str, Any]], anchor: float) -> None:
        if seat.driver is None:
            return
        seat.driver.on_update(events, self.game.view(self.state, seat.index),
                              self._legal(seat.index), anchor)

    def _apply(self, seat: int | None, action: Action) -> list[Event]:
        """Apply one action (raises IllegalAction, nothing changed), log it, send the
        updates, track the window, end the match when it is over."""
        state, events = self.game.apply(self.state, seat, action)
        now = self.now_ms()
        self.state = state
        self.log.append({"seat": seat, "action": action.to_dict(), "t": now - self.started_at})
        self._track_window(now)
        self._fan_out(events, now)
        if self.game.is_over(self.state):
            self._finish()
        elif self.arbiter.collecting:
            self.arbiter.update(self._pending_bounds())
        return events

    def _fan_out(self, events: list[Event], now: float) -> None:
        step = len(self.log)
        for seat in self.seats:
            mine = events_for(events, seat.index)
            if seat.conn is not None:
                seat.conn.push("update", table=self.id, events=mine,
                               view=self.game.view(self.state, seat.index),
                               legal=self._legal_dicts(seat.index), t_server=now, step=step)
            elif seat.driver is not None:
                self._feed_bot(seat, mine, now)
        if self.spectators:
            public = events_for(events, None)
            view = self.game.view(self.state, None)
            for conn in self.spectators:
                conn.push("update", table=self.id, events=public, view=view, legal=[],
                          t_server=now, step=step)

    # -- reaction windows -------------------------------------------------------------
    def _track_window(self, now: float) -> None:
        """Note a window opening (its update goes out ``now``; start its timeout) or
        closing (cancel the timeout)."""
        w = self.game.reaction_window(self.state)
        old = self.window
        if old is not None and (w is None or w.id != old.id):
            self._last_window = (old, self.window_shown, None)
            if self._timeout_call is not None and self._timeout_call.active():
                self._timeout_call.cancel()
            self._timeout_call = None
            self._claimed.clear()
        if w is not None and (old is None or w.id != old.id):
            self.window_shown = now
            self._timeout_call = self.clock.callLater(w.timeout_ms / 1000.0, self._on_timeout, w.id)
        self.window = w

    def _on_timeout(self, window_id: int) -> None:
        self._timeout_call = None
        if self.arbiter.collecting:
            self.arbiter.flush()
        w = self.window
        if self.status == "playing" and w is not None and w.id == window_id:
            try:
                self._apply(None, self.game.timeout_action(w))
            except IllegalAction as e:  # pragma: no cover - engine and table disagree
                log.error("table {id}: timeout refused: {r}", id=self.id, r=e.reason)

    def _pending_bounds(self) -> dict[int, float]:
        """Eligible seats that could still claim -> their rtt_bound (ms; 0 for bots)."""
        w = self.window
        if w is None:
            return {}
        out = {}
        for s in w.pending - self._claimed:
            conn = self.seats[s].conn
            out[s] = conn.rtt_bound_ms() if conn is not None else 0.0
        return out

    def _decide(self, window_id: int, ordered: list[Claim], first_receive: float) -> None:
        """Apply the collected claims in arbiter order; tell each claimant its outcome."""
        latency = self.now_ms() - first_receive
        outcomes: list[tuple[Claim, str, str | None]] = []
        winner: Claim | None = None
        for claim in ordered:
            self._claimed.discard(claim.seat)
            w = self.game.reaction_window(self.state) if self.status == "playing" else None
            if w is None or w.id != window_id:
                outcomes.append((claim, "too_slow", None))
                continue
            try:
                events = self._apply(claim.seat, claim.action)
            except IllegalAction as e:
                outcomes.append((claim, "refused", e.reason))
                continue
            success = claim_success(events, claim.seat)
            if success is None:
                w2 = self.game.reaction_window(self.state) if self.status == "playing" else None
                success = w2 is None or w2.id != window_id
            if success:
                winner = claim
            outcomes.append((claim, "won" if success else "wrong", None))
        last = self._last_window
        if last is not None and last[0].id == window_id:
            self._last_window = (last[0], last[1], winner.press if winner else None)
        for claim, outcome, reason in outcomes:
            if claim.origin is None:
                continue
            margin, message = self._describe(claim, outcome, reason, winner, ordered)
            claim.origin.push("claim_result", table=self.id, window=window_id, outcome=outcome,
                              margin_ms=margin, message=message, latency_ms=latency)

    @staticmethod
    def _describe(claim: Claim, outcome: str, reason: str | None, winner: Claim | None,
                  ordered: list[Claim]) -> tuple[float | None, str]:
        if outcome == "won":
            later = [c.press - claim.press for c in ordered if c is not claim and c.press >= claim.press]
            if later:
                gap = min(later)
                return gap, f"first by {gap:.0f} ms"
            return None, "first"
        if outcome == "wrong":
            return None, "wrong card: penalty"
        if outcome == "too_slow":
            if winner is not None:
                gap = claim.press - winner.press
                return gap, f"too slow by {max(0.0, gap):.0f} ms"
            return None, "too late: the window had closed"
        return None, reason or "refused"

    # -- actions from connections and bots -------------------------------------------
    def act(self, conn: Any, data: dict[str, Any], t_press: float | None = None,
            t_shown: float | None = None) -> dict[str, Any]:
        """A connection's ``action`` request; returns the ``ack`` fields ``{table, step}``.

        ``t_press``/``t_shown`` are client ms. ``step`` is the step of the first
        ``update`` that reflects the action (see PROTOCOL.md). Raises
        :class:`ProtocolError` ``not_seated``, ``not_started``, ``match_over``,
        ``bad_action``, ``illegal_action`` (with the engine's sentence) or
        ``claim_refused``.
        """
        seat = self.seat_of(conn)
        if seat is None:
            raise ProtocolError("not_seated", "you have no seat at this table"
                                + (" (spectators cannot act)" if conn in self.spectators else ""))
        if self.status == "waiting":
            raise ProtocolError("not_started", "the match has not started yet")
        if self.status == "over":
            raise ProtocolError("match_over", "the match is over")
        try:
            action = self.game.ACTIONS.parse(data)
        except BadAction as e:
            raise ProtocolError("bad_action", str(e)) from None
        w = self.window
        late = self._last_window[0] if self._last_window else None
        if (w is not None and action.TYPE in w.claim_types) or (
                late is not None and action.TYPE in late.claim_types):
            return self._human_claim(conn, seat, action, t_press, t_shown)
        if w is not None and action.TYPE == w.pass_type and seat in self._claimed:
            raise ProtocolError("illegal_action", "you have already claimed in this window")
        try:
            self._apply(seat, action)
        except IllegalAction as e:
            raise ProtocolError("illegal_action", e.reason) from None
        return {"table": self.id, "step": len(self.log)}

    def _human_claim(self, conn: Any, seat: int, action: Action, t_press: float | None,
                     t_shown: float | None) -> dict[str, Any]:
        now = self.now_ms()
        offset = conn.clock_offset_ms
        press = now if t_press is None or offset is None else t_press + offset
        shown_client = None if t_shown is None or offset is None else t_shown + offset
        w = self.window
        if w is None or action.TYPE not in w.claim_types or press < self.window_shown - TOLERANCE_MS:
            return self._late_claim(conn, seat, action, press)
        if seat in self._claimed:
            raise ProtocolError("illegal_action", "you have already claimed in this window")
        try:
            self.game.apply(self.state, seat, action)  # dry run: the engine's own checks
        except IllegalAction as e:
            raise ProtocolError("illegal_action", e.reason) from None
        bounded, reason = bound_press(press, now, conn.rtt_bound_ms(), self.window_shown, shown_client)
        if bounded is None:
            conn.push("claim_result", table=self.id, window=w.id, outcome="refused",
                      margin_ms=None, message=reason, latency_ms=0.0)
            raise ProtocolError("claim_refused", reason)
        step = len(self.log) + 1
        self._claimed.add(seat)
        self.arbiter.submit(w.id, Claim(seat, action, bounded, now, origin=conn), self._pending_bounds())
        return {"table": self.id, "step": step}

    def _late_claim(self, conn: Any, seat: int, action: Action, press: float) -> dict[str, Any]:
        """A claim pressed before the open window was shown, or sent when no window is
        open: ``too_slow`` when it belongs to the window that closed last and the seat
        could still claim in it (outcome pushed, reply ``ack``), else ``illegal_action``
        or ``claim_refused``."""
        last = self._last_window
        if (last is not None and action.TYPE in last[0].claim_types and seat in last[0].pending
                and press >= last[1] - TOLERANCE_MS):
            window, _, win_press = last
            gap = press - win_press if win_press is not None else None
            message = f"too slow by {max(0.0, gap):.0f} ms" if gap is not None else "too late: the window had closed"
            conn.push("claim_result", table=self.id, window=window.id, outcome="too_slow",
                      margin_ms=gap, message=message, latency_ms=0.0)
            return {"table": self.id, "step": len(self.log)}
        if self.window is None:
            try:
                self.game.apply(self.state, seat, action)
            except IllegalAction as e:
                raise ProtocolError("illegal_action", e.reason) from None
        reason = "you pressed before the card was sent to you"
        conn.push("claim_result", table=self.id, window=self.window.id if self.window else None,
                  outcome="refused", margin_ms=None, message=reason, latency_ms=0.0)
        raise ProtocolError("claim_refused", reason)

    # -- in-process bots --------------------------------------------------------------
    def _make_driver(self, seat: int) -> BotDriver:
        settings = dict(self.config["bots"])
        settings["think_ms"] = self.bot_think_ms
        seed = f"{self.seed}/{seat}"
        try:
            bot = make_bot(self.game.NAME, seat, seed=seed, settings=settings, kind=self.bot_kind)
        except (ImportError, KeyError):
            bot = make_bot(self.game.NAME, seat, seed=seed, settings=settings, kind="random")

        return BotDriver(bot, self.clock.callLater, lambda d, anchor: self._bot_send(seat, d, anchor))

    def _bot_send(self, seat: int, decision: Any, anchor: float) -> None:
        """A bot's decision fires: claims go through the arbiter with press = the time
        the window's update was produced + the bot's reaction delay."""
        if self.closed or self.status != "playing" or self.seats[seat].driver is None:
            return
        action = decision.action
        w = self.window
        try:
            if w is not None and action.TYPE in w.claim_types:
                now = self.now_ms()
                press = min(now, float(anchor) + float(decision.delay_ms))
                if seat in self._claimed or press < self.window_shown:
                    return
                self.game.apply(self.state, seat, action)  # dry run
                self._claimed.add(seat)
                self.arbiter.submit(w.id, Claim(seat, action, press, now), self._pending_bounds())
            else:
                self._apply(seat, action)
        except IllegalAction as e:
            log.warn("table {id}: bot at seat {seat} tried {a}: {r}", id=self.id, seat=seat,
                     a=action.to_dict(), r=e.reason)
