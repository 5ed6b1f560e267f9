"""The host of a table and what the players do around the match (docs/PROTOCOL.md
"Host, emotes, rematch"): host controls, emotes, "Play again".

**The host** is the table's creator, or whom the host passed it to. The role belongs to
a connection (``HostControls.conn``) and, once the host sits, to his seat's token
(``HostControls.token``): it survives a dropped connection and a server restart (the match
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
a new :class:`server.match.table.Table` object for the same table id (so that nothing of the
old match's state can leak into it): ``on_replace(old, new)`` tells the lobby. A seat
whose player is gone is *left* in the new match (a bot plays it, the token gives it
back); a held seat stays held. ``set_options`` builds its new table the same way.
"""
from __future__ import annotations

import random
from collections import deque
from typing import Any

from twisted.logger import Logger

from shared.protocol import EMOTE_LIMIT, EMOTE_WINDOW_S, EMOTES, ProtocolError
from shared.sentences import say
from server.match.contracts import MatchTable
from server.match.spectators import SpectatorFeed
from server.options import parse_options, public_options
from server.scoreboard import players_of

log = Logger()


class HostControls:
    """Host, lock, options, emotes and rematch of ``table`` (a :class:`MatchTable`).

    ``conn``: the host's connection (None: gone); ``token``: the token of the host's
    seat (None: no seat); ``options``: the accepted ``create_table`` options, seed
    included; ``rematch_asked``: seats that asked to play again; ``announced``: the
    ``match_over`` of this match went out."""

    def __init__(self, table: MatchTable, options: dict[str, Any] | None):
        self.table = table
        self.conn: Any = None
        self.token: str | None = None
        self.locked = False
        self.options: dict[str, Any] = dict(options or {})
        self.rematch_asked: set[int] = set()
        self.emote_times: dict[int, deque[float]] = {}
        self.announced = False

    # -- who is the host ------------------------------------------------------------------
    def is_host(self, conn: Any) -> bool:
        return conn is not None and conn is self.conn

    def seat(self) -> int | None:
        """The host's seat index: where his connection sits, else the seat his token
        holds (away or left); None when he has no seat."""
        t = self.table
        if self.conn is not None:
            for s in t.seats:
                if s.conn is self.conn:
                    return s.index
        if self.token is not None:
            for s in t.seats:
                if s.token == self.token:
                    return s.index
        return None

    def summary(self) -> dict[str, Any]:
        """The ``Table`` fields ``host``, ``host_name``, ``locked``, ``options``,
        ``rematch``, ``match_no``."""
        t = self.table
        seat = self.seat()
        if seat is not None:
            name = t.seats[seat].name
        else:
            name = getattr(self.conn, "name", None) or None
        return {"host": seat, "host_name": name, "locked": self.locked,
                "options": public_options(t.game, self.options, t.settings),
                "rematch": sorted(self.rematch_asked) if t.status == "over" else [],
                "match_no": t.match_no}

    def _require(self, conn: Any) -> None:
        t = self.table
        if not self.is_host(conn):
            seat = self.seat()
            name = t.seats[seat].name if seat is not None else None
            raise ProtocolError("not_allowed", say("host_only_named", name=name) if name else say("host_only"))

    def sat(self, seat: Any) -> None:
        """``seat`` was just taken by a player (``join``): the host's seat, or the first
        player of a table without a host becomes it."""
        if seat.conn is self.conn or (self.conn is None and self.token is None):
            self.conn, self.token = seat.conn, seat.token

    def back(self, seat: Any) -> None:
        """``seat``'s player came back with its token (``reconnect``)."""
        if (self.token is not None and seat.token == self.token) or (
                self.conn is None and self.token is None):
            self.conn, self.token = seat.conn, seat.token

    def stood_up(self, seat: Any) -> None:
        """``seat`` is freed before the match: its token is gone."""
        if self.token is not None and seat.token == self.token:
            self.token = None

    def lost(self, conn: Any) -> None:
        """The host's connection ``conn`` closed. While his seat is held for him (a
        match) he stays the host; otherwise the first connected seated player is."""
        t = self.table
        if conn is not self.conn or t.closed:
            return
        self.conn = None
        if self.seat() is not None:
            return  # held or left: he is the host again when he comes back
        self.token = None
        for s in t.seats:
            if s.conn is not None and not s.bot:
                self.conn, self.token = s.conn, s.token
                log.info("table {id}: the host left; {name} is the host", id=t.id, name=s.name)
                break
        t.push_summary()

    # -- host controls ----------------------------------------------------------------------
    def start(self, conn: Any) -> None:
        """``start``: the host starts the waiting match. Raises ``not_allowed``,
        ``already_started``, ``seats_free``."""
        t = self.table
        self._require(conn)
        if t.status != "waiting":
            raise ProtocolError("already_started", say("already_started"))
        free = sum(1 for s in t.seats if s.free)
        if free:
            raise ProtocolError("seats_free", say("seats_free" if free > 1 else "seats_free_one", n=free))
        away = sum(1 for s in t.seats if s.away)
        if away:
            raise ProtocolError("seats_free", say("players_may_return" if away > 1 else "players_may_return_one",
                                                  n=away))
        t.start_match()

    def set_options(self, conn: Any, options: dict[str, Any], testing: bool) -> Any:
        """``set_options``: the host changes the waiting table's options; ``options``
        are merged into the current ones (a ``null`` value puts an option back to its
        default) and checked as at ``create_table``. Returns the table now in this
        one's place. Raises ``not_allowed``, ``already_started``, ``bad_option``,
        ``testing_only``."""
        t = self.table
        self._require(conn)
        if t.status != "waiting":
            raise ProtocolError("already_started", say("options_fixed"))
        merged = dict(self.options)
        for key, value in options.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        engine, settings = parse_options(t.game, len(t.seats), merged, t.config, testing)
        new = self._successor(engine, settings, merged)
        t.replace_with(new)
        new.seats_changed()
        return new

    def move_to_spectators(self, conn: Any, index: int) -> None:
        """``move_to_spectators``: the host makes seat ``index``'s player watch. Before
        the match the seat is freed; later a bot plays it for good (having learnt the
        match) and the player's token expires. The moved connection is pushed ``moved
        {table, seat: null}``, then the spectator stream. Raises ``not_allowed`` (not
        the host, or his own seat), ``no_such_seat`` (no player there)."""
        t = self.table
        self._require(conn)
        if not 0 <= index < len(t.seats):
            raise ProtocolError("no_such_seat", say("seat_range", last=len(t.seats) - 1))
        seat = t.seats[index]
        if seat.bot or (seat.conn is None and not seat.away and not seat.left):
            raise ProtocolError("no_such_seat", say("seat_no_player", seat=index))
        if seat.conn is conn or (self.token is not None and seat.token == self.token):
            raise ProtocolError("not_allowed", say("host_cannot_watch"))
        target = seat.conn
        log.info("table {id}: the host moves {name} (seat {seat}) to the spectators", id=t.id,
                 name=seat.name, seat=index)
        if t.status == "waiting":
            t.seats[index] = type(seat)(index)
        else:
            if target is not None and t.status == "playing":
                target.set_playing(False)
            seat.conn = None
            self.rematch_asked.discard(index)
            t.roster.bot_for_good(seat)
        if target is not None:
            target.push("moved", table=t.id, seat=None)
            t.spectators.add(target, t.delivery.spectator_start)
        if self.check_rematch():
            return
        t.push_summary()

    def lock(self, conn: Any, locked: bool) -> None:
        """``lock``: a locked table refuses ``join`` to a seat (``table_locked``)."""
        t = self.table
        self._require(conn)
        self.locked = bool(locked)
        t.push_summary()

    def pass_host(self, conn: Any, index: int) -> None:
        """``pass_host``: the player at seat ``index`` (connected) is the host now.
        Raises ``not_allowed``, ``no_such_seat``."""
        t = self.table
        self._require(conn)
        if not 0 <= index < len(t.seats):
            raise ProtocolError("no_such_seat", say("seat_range", last=len(t.seats) - 1))
        seat = t.seats[index]
        if seat.conn is None or seat.bot:
            raise ProtocolError("no_such_seat", say("seat_no_connected", seat=index))
        self.conn, self.token = seat.conn, seat.token
        log.info("table {id}: {name} (seat {seat}) is the host now", id=t.id, name=seat.name,
                 seat=index)
        if t.saving.matchfile is not None and t.status in ("playing", "over"):
            t.saving.write(dict(kind="seat", **seat.record(), host=True))
        t.push_summary()

    # -- emotes -------------------------------------------------------------------------------
    def emote(self, conn: Any, emote: str) -> dict[str, Any]:
        """``emote``: pushed ``emote {table, seat, name, emote, t_server}`` to every
        other seat and to the spectators; returns those fields, the sender's reply (the
        same message, with its ``re``). Raises ``not_seated``, ``bad_message`` (not one
        of :data:`shared.protocol.EMOTES`), ``too_many_emotes``."""
        t = self.table
        index = t.seat_of(conn)
        if index is None:
            raise ProtocolError("not_seated", say("emote_not_seated"))
        if emote not in EMOTES:
            raise ProtocolError("bad_message", say("bad_emote", emote=str(emote)[:40], emotes=", ".join(EMOTES)))
        now = t.clock.seconds()
        times = self.emote_times.setdefault(index, deque())
        while times and now - times[0] >= EMOTE_WINDOW_S:
            times.popleft()
        if len(times) >= EMOTE_LIMIT:
            raise ProtocolError("too_many_emotes", say("too_many_emotes", n=EMOTE_LIMIT, s=round(EMOTE_WINDOW_S, 3)))
        times.append(now)
        fields = dict(table=t.id, seat=index, name=t.seats[index].name, emote=emote,
                      t_server=now * 1000.0)
        t.delivery.to_everyone("emote", but=conn, **fields)
        return fields

    # -- play again ---------------------------------------------------------------------------
    def ask_rematch(self, conn: Any) -> Any:
        """``rematch``: seat of ``conn`` wants to play again; the new match starts once
        every connected player asked. Returns the table now in this one's place (this
        one until then: None). Raises ``not_seated``, ``not_over``, ``paused``."""
        t = self.table
        index = t.seat_of(conn)
        if index is None:
            raise ProtocolError("not_seated", say("rematch_not_seated"))
        if t.status != "over" or not self.announced:
            raise ProtocolError("not_over", say("not_over"))
        if t.saving.paused:
            raise ProtocolError("paused", say("paused", reason=t.saving.why_paused()))
        self.rematch_asked.add(index)
        if not self.check_rematch():
            t.push_summary()
        return t.replaced_by

    def check_rematch(self) -> bool:
        """Start the new match when every connected player of the finished match asked
        for it; True when it started (this table is closed then)."""
        t = self.table
        if t.status != "over" or t.closed or t.saving.paused or not self.announced:
            return False
        players = {s.index for s in t.seats if s.conn is not None and not s.bot}
        if not players or not players <= self.rematch_asked:
            return False
        self.play_again()
        return True

    def play_again(self) -> Any:
        """The next match at this table (see the module docstring); returns its table."""
        t = self.table
        settings = dict(t.settings)
        if not settings.get("fixed_deal"):
            settings["seed"] = random.SystemRandom().randrange(1, 2**31)
        match_no = t.match_no + 1
        new = self._successor(dict(t.engine_config), settings, dict(self.options))
        new.match_no = match_no
        log.info("table {id}: match {n} starts (play again)", id=t.id, n=match_no)
        t.replace_with(new)
        new.host.start_again()
        return new

    def start_again(self) -> None:
        """This new table (:meth:`play_again`) starts its match: the players gone before it
        are left (a bot plays for them), the held seats stay held."""
        t = self.table
        for seat in t.seats:
            if seat.conn is None and not seat.bot and not seat.away and seat.token is not None:
                seat.left = True  # gone before the new match: a bot plays for him
        t.start_match()
        left = [s for s in t.seats if s.left and s.driver is None]
        if left:
            t.stand_ins.start(left, "left")
        for seat in t.seats:
            if seat.away:
                t.roster.hold(seat)

    def _successor(self, engine: dict[str, Any], settings: dict[str, Any],
                   options: dict[str, Any]) -> Any:
        """A new waiting table in this one's place, with its seats (players, tokens,
        bots, held and left seats), spectators, host, lock, room code and emote counts;
        this one is closed (a finished match's log gets its ``closed`` record)."""
        t = self.table
        if "room" in t.settings:  # the room code stays: the TV's QR code and the phones keep it
            settings = {**settings, "room": t.settings["room"]}
        new = t.new_table(engine, settings, options)
        new.create_key = t.create_key
        t.replaced_by = new  # before the close: the new table keeps the id's waiting record
        new.host.conn, new.host.token, new.host.locked = self.conn, self.token, self.locked
        new.host.emote_times = self.emote_times
        for old, seat in zip(t.seats, new.seats):
            seat.conn, seat.name, seat.bot, seat.token = old.conn, old.name, old.bot, old.token
            seat.key, seat.level = old.key, old.level
            seat.away, seat.left = old.away, old.left
        feed, t.spectators = t.spectators, SpectatorFeed(t.clock, 0)
        feed.delay_ms = float(settings.get("spectator_delay_s", 0)) * 1000.0
        new.spectators = feed
        t.close()
        return new

    # -- the match log and restarts -----------------------------------------------------------
    def log_fields(self) -> dict[str, Any]:
        """What the match log's header keeps of the host and the options
        (docs/MATCHLOG.md): ``host`` (seat or null), ``options``, ``match_no``."""
        t = self.table
        return {"host": self.seat(), "options": dict(self.options), "match_no": t.match_no}

    def restore(self, mlog: Any) -> None:
        """After :meth:`server.match.table.Table.restore`: the host's seat, the options, the
        match number and the left seats from the log (``mlog``: its
        :class:`shared.matchlog.MatchLog`)."""
        t = self.table
        head = mlog.header
        self.options = dict(head.get("options") or {})
        no = head.get("match_no")
        t.match_no = no if isinstance(no, int) and no > 0 else 1
        t.players_at_start = players_of(head.get("seats") or [])
        host = head.get("host")
        last: dict[int, dict[str, Any]] = {}
        for rec in mlog.seats:
            if isinstance(rec.get("seat"), int):
                last[rec["seat"]] = rec
                if rec.get("host"):
                    host = rec["seat"]
        if isinstance(host, int) and 0 <= host < len(t.seats) and t.seats[host].token:
            self.token = t.seats[host].token
        if t.status == "over":
            self.announced = True  # restored finished: a player back gets the result
        if t.closed:
            return
        for index, rec in last.items():
            if not 0 <= index < len(t.seats):
                continue
            seat = t.seats[index]
            if rec.get("left") and seat.token and not seat.bot and t.status == "playing":
                t.roster.seat_left(seat, write=False, keep=True)
        t.maybe_close()
