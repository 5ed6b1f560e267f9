"""The host of a table and what the players do around the match (docs/PROTOCOL.md
"Host, emotes, rematch"; issue 13): host controls, emotes, "Play again".

**The host** is the table's creator, or whom the host passed it to. The role belongs to
a connection (``host_conn``) and, once the host sits, to his seat's token
(``host_token``): it survives a dropped connection and a server restart (the match
log's header says which seat is the host's, a ``seat`` record with ``host: true`` says
it moved), and whoever comes back with that token is the host again. Only the host may
``start`` the match (table option ``start: "host"``), change the options
(``set_options``), add and remove bots, move a player to the spectators, ``lock`` the
table and ``pass_host``. When the host's connection is lost while his seat is not held
for him (before the match, or he had no seat), the host passes to the first connected
player seated at the table; a table left without a host gets the next player who sits
down or comes back with a token.

**Emotes** are quick reactions of a seated player, pushed to every seat and spectator
(``emote``), at most :data:`shared.protocol.EMOTE_LIMIT` per
:data:`shared.protocol.EMOTE_WINDOW_S` seconds per seat (``too_many_emotes``).

**Play again** (``rematch``): once every connected player of a finished match asked
(bots agree, absent players are not waited for), a new match starts at the same table
with the same seats, names, tokens, bots, spectators and host, a new seed (the same one
for a ``fixed_deal`` table) and ``match_no`` + 1, in a new match log. The new match is
a new :class:`server.table.Table` object for the same table id (so that nothing of the
old match's state can leak into it): ``on_replace(old, new)`` tells the lobby. A seat
whose player is gone is *left* in the new match (a bot plays it, the token gives it
back); a held seat stays held. ``set_options`` builds its new table the same way.

:class:`HostMixin` is part of :class:`server.table.Table`.
"""
from __future__ import annotations

import random
from collections import deque
from typing import Any, Callable

from twisted.logger import Logger

from shared.protocol import EMOTE_LIMIT, EMOTE_WINDOW_S, EMOTES, ProtocolError
from server.options import parse_options, public_options
from server.scoreboard import players_of
from server.spectators import SpectatorFeed

log = Logger()


class HostMixin:
    """Host, lock, options, emotes, rematch and the scoreboard hook of a table."""

    seats: list[Any]
    status: str
    spectators: Any

    def _init_host(self, options: dict[str, Any] | None) -> None:
        self.host_conn: Any = None  # the host's connection (None: gone)
        self.host_token: str | None = None  # the token of the host's seat (None: no seat)
        self.locked = False
        self.options: dict[str, Any] = dict(options or {})  # as accepted, seed included
        self.match_no = 1
        self.rematch_asked: set[int] = set()
        self.scoreboard: Any = None  # server.scoreboard.Scoreboard, set by the lobby
        #: the lobby puts ``new`` in the place of ``old`` (a rematch, new options)
        self.on_replace: Callable[[Any, Any], None] = lambda old, new: None
        self.players_at_start: dict[int, str] = {}  # seat -> name of the people at the start
        self._emote_times: dict[int, deque[float]] = {}
        self._announced = False  # the match_over of this match went out

    # -- who is the host ------------------------------------------------------------------
    def is_host(self, conn: Any) -> bool:
        return conn is not None and conn is self.host_conn

    def host_seat(self) -> int | None:
        """The host's seat index: where his connection sits, else the seat his token
        holds (away or left); None when he has no seat."""
        if self.host_conn is not None:
            for s in self.seats:
                if s.conn is self.host_conn:
                    return s.index
        if self.host_token is not None:
            for s in self.seats:
                if s.token == self.host_token:
                    return s.index
        return None

    def host_summary(self) -> dict[str, Any]:
        """The ``Table`` fields ``host``, ``host_name``, ``locked``, ``options``,
        ``rematch``, ``match_no``."""
        seat = self.host_seat()
        if seat is not None:
            name = self.seats[seat].name
        else:
            name = getattr(self.host_conn, "name", None) or None
        return {"host": seat, "host_name": name, "locked": self.locked,
                "options": public_options(self.game, self.options, self.settings),
                "rematch": sorted(self.rematch_asked) if self.status == "over" else [],
                "match_no": self.match_no}

    def _require_host(self, conn: Any) -> None:
        if not self.is_host(conn):
            seat = self.host_seat()
            who = f" ({self.seats[seat].name})" if seat is not None else ""
            raise ProtocolError("not_allowed", f"only the table's host{who} may do that")

    def _host_sat(self, seat: Any) -> None:
        """``seat`` was just taken by a player (``join``): the host's seat, or the first
        player of a table without a host becomes it."""
        if seat.conn is self.host_conn or (self.host_conn is None and self.host_token is None):
            self.host_conn, self.host_token = seat.conn, seat.token

    def _host_back(self, seat: Any) -> None:
        """``seat``'s player came back with its token (``reconnect``)."""
        if (self.host_token is not None and seat.token == self.host_token) or (
                self.host_conn is None and self.host_token is None):
            self.host_conn, self.host_token = seat.conn, seat.token

    def _host_stood_up(self, seat: Any) -> None:
        """``seat`` is freed before the match: its token is gone."""
        if self.host_token is not None and seat.token == self.host_token:
            self.host_token = None

    def host_lost(self, conn: Any) -> None:
        """The host's connection ``conn`` closed. While his seat is held for him (a
        match) he stays the host; otherwise the first connected seated player is."""
        if conn is not self.host_conn or self.closed:
            return
        self.host_conn = None
        if self.host_seat() is not None:
            return  # held or left: he is the host again when he comes back
        self.host_token = None
        for s in self.seats:
            if s.conn is not None and not s.bot:
                self.host_conn, self.host_token = s.conn, s.token
                log.info("table {id}: the host left; {name} is the host", id=self.id, name=s.name)
                break
        self._push_summary()

    # -- host controls ----------------------------------------------------------------------
    def start(self, conn: Any) -> None:
        """``start``: the host starts the waiting match. Raises ``not_allowed``,
        ``already_started``, ``seats_free``."""
        self._require_host(conn)
        if self.status != "waiting":
            raise ProtocolError("already_started", "the match has already started")
        free = sum(1 for s in self.seats if s.free)
        if free:
            raise ProtocolError("seats_free", f"{free} seat{'s are' if free > 1 else ' is'} still "
                                              "free: add bots or wait for players")
        self._start()

    def set_options(self, conn: Any, options: dict[str, Any], testing: bool) -> Any:
        """``set_options``: the host changes the waiting table's options; ``options``
        are merged into the current ones (a ``null`` value puts an option back to its
        default) and checked as at ``create_table``. Returns the table now in this
        one's place. Raises ``not_allowed``, ``already_started``, ``bad_option``,
        ``testing_only``."""
        self._require_host(conn)
        if self.status != "waiting":
            raise ProtocolError("already_started", "options cannot change once the match runs")
        merged = dict(self.options)
        for key, value in options.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        engine, settings = parse_options(self.game, len(self.seats), merged, self.config, testing)
        new = self._successor(engine, settings, merged)
        self.on_replace(self, new)
        new._seats_changed()
        return new

    def move_to_spectators(self, conn: Any, index: int) -> None:
        """``move_to_spectators``: the host makes seat ``index``'s player watch. Before
        the match the seat is freed; later a bot plays it for good (having learnt the
        match) and the player's token expires. The moved connection is pushed ``moved
        {table, seat: null}``, then the spectator stream. Raises ``not_allowed`` (not
        the host, or his own seat), ``no_such_seat`` (no player there)."""
        self._require_host(conn)
        if not 0 <= index < len(self.seats):
            raise ProtocolError("no_such_seat", f"this table has seats 0 to {len(self.seats) - 1}")
        seat = self.seats[index]
        if seat.bot or (seat.conn is None and not seat.away and not seat.left):
            raise ProtocolError("no_such_seat", f"seat {index} holds no player")
        if seat.conn is conn or (self.host_token is not None and seat.token == self.host_token):
            raise ProtocolError("not_allowed", "the host cannot move himself to the spectators")
        target = seat.conn
        log.info("table {id}: the host moves {name} (seat {seat}) to the spectators", id=self.id,
                 name=seat.name, seat=index)
        if self.status == "waiting":
            self.seats[index] = type(seat)(index)
        else:
            if target is not None and self.status == "playing":
                target.set_playing(False)
            seat.conn = None
            self.rematch_asked.discard(index)
            self._bot_for_good(seat)
        if target is not None:
            target.push("moved", table=self.id, seat=None)
            self.spectators.add(target, self._spectator_start)
        if self._check_rematch():
            return
        self._push_summary()

    def lock(self, conn: Any, locked: bool) -> None:
        """``lock``: a locked table refuses ``join`` to a seat (``table_locked``)."""
        self._require_host(conn)
        self.locked = bool(locked)
        self._push_summary()

    def pass_host(self, conn: Any, index: int) -> None:
        """``pass_host``: the player at seat ``index`` (connected) is the host now.
        Raises ``not_allowed``, ``no_such_seat``."""
        self._require_host(conn)
        if not 0 <= index < len(self.seats):
            raise ProtocolError("no_such_seat", f"this table has seats 0 to {len(self.seats) - 1}")
        seat = self.seats[index]
        if seat.conn is None or seat.bot:
            raise ProtocolError("no_such_seat", f"seat {index} holds no connected player")
        self.host_conn, self.host_token = seat.conn, seat.token
        log.info("table {id}: {name} (seat {seat}) is the host now", id=self.id, name=seat.name,
                 seat=index)
        if self.matchfile is not None and self.status in ("playing", "over"):
            self._write(dict(kind="seat", **seat.record(), host=True))
        self._push_summary()

    # -- emotes -------------------------------------------------------------------------------
    def emote(self, conn: Any, emote: str) -> None:
        """``emote``: pushed ``emote {table, seat, name, emote, t_server}`` to every seat
        and spectator (the sender too: that is its success). Raises ``not_seated``,
        ``bad_message`` (not one of :data:`shared.protocol.EMOTES`),
        ``too_many_emotes``."""
        index = self.seat_of(conn)
        if index is None:
            raise ProtocolError("not_seated", "only a seated player may send emotes")
        if emote not in EMOTES:
            raise ProtocolError("bad_message", f"emote: {emote!r} is not one of {', '.join(EMOTES)}")
        now = self.clock.seconds()
        times = self._emote_times.setdefault(index, deque())
        while times and now - times[0] >= EMOTE_WINDOW_S:
            times.popleft()
        if len(times) >= EMOTE_LIMIT:
            raise ProtocolError("too_many_emotes", f"at most {EMOTE_LIMIT} emotes in "
                                                   f"{EMOTE_WINDOW_S:g} s; wait a little")
        times.append(now)
        fields = dict(table=self.id, seat=index, name=self.seats[index].name, emote=emote,
                      t_server=now * 1000.0)
        for s in self.seats:
            if s.conn is not None:
                s.conn.push("emote", **fields)
        self.spectators.send("emote", **fields)

    # -- play again ---------------------------------------------------------------------------
    def ask_rematch(self, conn: Any) -> Any:
        """``rematch``: seat of ``conn`` wants to play again; the new match starts once
        every connected player asked. Returns the table now in this one's place (this
        one until then). Raises ``not_seated``, ``not_over``, ``paused``."""
        index = self.seat_of(conn)
        if index is None:
            raise ProtocolError("not_seated", "only a seated player may ask to play again")
        if self.status != "over" or not self._announced:
            raise ProtocolError("not_over", "the match is not over yet")
        if self.paused:
            raise ProtocolError("paused", self._pause_reason + "; the match resumes by itself")
        self.rematch_asked.add(index)
        if not self._check_rematch():
            self._push_summary()
        return self._replaced_by or self

    def _check_rematch(self) -> bool:
        """Start the new match when every connected player of the finished match asked
        for it; True when it started (this table is closed then)."""
        if self.status != "over" or self.closed or self.paused or not self._announced:
            return False
        players = {s.index for s in self.seats if s.conn is not None and not s.bot}
        if not players or not players <= self.rematch_asked:
            return False
        self.play_again()
        return True

    def play_again(self) -> Any:
        """The next match at this table (see the module docstring); returns its table."""
        settings = dict(self.settings)
        if not settings.get("fixed_deal"):
            settings["seed"] = random.SystemRandom().randrange(1, 2**31)
        match_no = self.match_no + 1
        new = self._successor(dict(self.engine_config), settings, dict(self.options))
        new.match_no = match_no
        log.info("table {id}: match {n} starts (play again)", id=self.id, n=match_no)
        self.on_replace(self, new)
        new._start_again()
        return new

    def _start_again(self) -> None:
        for seat in self.seats:
            if seat.conn is None and not seat.bot and not seat.away and seat.token is not None:
                seat.left = True  # gone before the new match: a bot plays for him
        self._start()
        left = [s for s in self.seats if s.left and s.driver is None]
        if left:
            self._start_drivers(left, "left")
        for seat in self.seats:
            if seat.away:
                self._hold(seat)

    def _successor(self, engine: dict[str, Any], settings: dict[str, Any],
                   options: dict[str, Any]) -> Any:
        """A new waiting table in this one's place, with its seats (players, tokens,
        bots, held and left seats), spectators, host, lock and emote counts; this one is
        closed (a finished match's log gets its ``closed`` record)."""
        new = type(self)(self.id, self.game, self.name, engine, settings, self.config, self.clock,
                         on_empty=self.on_empty, on_change=self.on_change, data_dir=self.data_dir,
                         port=self.port, options=options)
        new.host_conn, new.host_token, new.locked = self.host_conn, self.host_token, self.locked
        new.match_no, new.scoreboard, new.on_replace = self.match_no, self.scoreboard, self.on_replace
        new._emote_times = self._emote_times
        for old, seat in zip(self.seats, new.seats):
            seat.conn, seat.name, seat.bot, seat.token = old.conn, old.name, old.bot, old.token
            seat.away, seat.left = old.away, old.left
        feed, self.spectators = self.spectators, SpectatorFeed(self.clock, 0)
        feed.delay_ms = float(settings.get("spectator_delay_s", 0)) * 1000.0
        new.spectators = feed
        self._replaced_by = new
        self.close()
        return new

    # -- the match log and restarts -----------------------------------------------------------
    def host_log_fields(self) -> dict[str, Any]:
        """What the match log's header keeps of the host and the options
        (docs/MATCHLOG.md): ``host`` (seat or null), ``options``, ``match_no``."""
        return {"host": self.host_seat(), "options": dict(self.options), "match_no": self.match_no}

    def restore_host(self, mlog: Any) -> None:
        """After :meth:`server.table.Table.restore`: the host's seat, the options, the
        match number and the left seats from the log (``mlog``: its
        :class:`shared.matchlog.MatchLog`)."""
        head = mlog.header
        self.options = dict(head.get("options") or {})
        no = head.get("match_no")
        self.match_no = no if isinstance(no, int) and no > 0 else 1
        self.players_at_start = players_of(head.get("seats") or [])
        host = head.get("host")
        last: dict[int, dict[str, Any]] = {}
        for rec in mlog.seats:
            if isinstance(rec.get("seat"), int):
                last[rec["seat"]] = rec
                if rec.get("host"):
                    host = rec["seat"]
        if isinstance(host, int) and 0 <= host < len(self.seats) and self.seats[host].token:
            self.host_token = self.seats[host].token
        if self.status == "over":
            self._announced = True  # restored finished: a player back gets the result
        if self.closed:
            return
        for index, rec in last.items():
            if not 0 <= index < len(self.seats):
                continue
            seat = self.seats[index]
            if rec.get("left") and seat.token and not seat.bot and self.status == "playing":
                self._seat_left(seat, write=False, keep=True)
        self._maybe_close()

    # -- the scoreboard -----------------------------------------------------------------------
    def scoreboard_rows(self) -> list[dict[str, Any]]:
        """The evening's scoreboard (``match_over.scoreboard``); [] without one."""
        return self.scoreboard.rows() if self.scoreboard is not None else []

    def _count_result(self) -> None:
        """The match ended (its result is on disk and goes out now): count it on the
        scoreboard."""
        self._announced = True
        if self.scoreboard is not None:
            self.scoreboard.record_table(self)
