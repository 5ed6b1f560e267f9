"""Who sits at a table and who plays each seat (docs/PROTOCOL.md "Lobby",
"Reconnection, spectators and the turn timer").

A seat is free, a player's (a connection, and a reconnect *token*), or a bot's for good.
When a player's connection drops during a match the seat is *held*: ``away``, token
still valid, for ``server.reconnect_grace_s`` seconds. Meanwhile, with the table option
``bot_takeover: "after_miss"``, a bot *stands in* from the first moment the match waits
for the seat (:mod:`server.match.standins`); with ``"never"`` the match waits (a window
gets a pass for the seat). A bot also stands in for the rest of a turn when the turn
timer runs out. ``reconnect`` with the token gives the seat back to a connection, from
any machine.

A seat's token stays valid until the table closes, so that a player who left can still
sit back down: when the grace period ends, or when the player ``leave``s during the
match, the seat is *left*: a bot plays it (``stand_in`` ``"left"``) and the token still
gives it back. Only the host moving a player to the spectators
(:meth:`server.match.host.HostControls.move_to_spectators`) gives a seat to a bot for
good (the token expires).
"""
from __future__ import annotations

import hmac
import secrets
import time
import weakref
from typing import Any, Callable, Iterator

from twisted.logger import Logger

from shared.bots import DEFAULT_LEVEL, LEVELS
from shared.protocol import ProtocolError
from shared.sentences import say
from shared.rules import events_for
from server.match.contracts import MatchTable
from server.match.seat import Seat
from server.match.standins import teaching_cooperator

log = Logger()

#: At most this many events go in a resumed ``match_started``'s ``missed``; beyond, it
#: has none and ``missed_truncated: true`` (the view alone brings the seat up to date).
MAX_MISSED_EVENTS = 200

#: A reactor turn sends resumed ``match_started`` messages inline until they have taken
#: this long (s of the turn); later reconnections of the same turn (a storm: hundreds of
#: players back at once) get theirs from the cooperator, a slice at a time.
RESUME_TURN_S = 0.004

_resume_spent: "weakref.WeakKeyDictionary[Any, list[float]]" = weakref.WeakKeyDictionary()


def _resume_budget_left(clock: Any) -> bool:
    """True while the resumes of the current reactor turn of ``clock`` took less than
    :data:`RESUME_TURN_S` (always on a ``task.Clock``: tests see every resume at once)."""
    reactor = getattr(clock, "_reactor", None)
    if reactor is None or not hasattr(reactor, "callInThread"):
        return True
    spent = _resume_spent.get(clock)
    if spent is None:  # the first resume of this turn: the count ends with the turn
        spent = _resume_spent[clock] = [0.0]
        clock.callLater(0, _resume_spent.pop, clock, None)
    return spent[0] < RESUME_TURN_S


class SeatRoster:
    """Joining, leaving, losing and getting back a seat at ``table`` (a
    :class:`MatchTable`). ``resuming``: seat -> the connection whose resumed
    ``match_started`` is on its way (it gets none of the updates meanwhile)."""

    def __init__(self, table: MatchTable):
        self.table = table
        self.resuming: dict[int, Any] = {}
        #: after a restart, while the table waits for its players: what starts the match
        #: again (:meth:`gather`); None otherwise
        self.gathering: Callable[[], None] | None = None
        self.gather_call: Any = None

    def _alive(self) -> bool:
        """The table is still there (a call put off to a later reactor turn may find it
        freed: then it has nothing to do)."""
        try:
            return not self.table.closed
        except ReferenceError:
            return False

    def _grace_s(self) -> float:
        return float(self.table.config["server"]["reconnect_grace_s"])

    def _drop_wait_s(self) -> float:
        return float(self.table.config["server"].get("drop_grace_s", 0.0))

    # -- joining and leaving ------------------------------------------------------------
    def join(self, conn: Any, seat: int | None = None, spectate: bool = False,
             key: str | None = None) -> dict[str, Any]:
        """Seat ``conn`` (first free seat when ``seat`` is None) or add it as a spectator.

        Returns the ``joined`` reply fields ``{table, seat, token}``; starts the match
        when the last seat is filled (table option ``start: "auto"``). ``key`` (a
        player's own secret, :data:`shared.protocol.KEY_RE`): a join asked again with the
        key of a seat of this table gets that seat back with its token (the ``joined``
        of the first one was lost: docs/PROTOCOL.md "Asking again"); otherwise the seat
        taken keeps the key. A spectator who comes while the table is paused gets
        ``table_paused`` (reason, ``until``) at once, after its ``match_started``.
        Raises :class:`ProtocolError` ``already_seated``,
        ``already_started``, ``match_over``, ``table_locked``, ``no_such_seat``,
        ``seat_taken``, ``table_full``.
        """
        t = self.table
        if key is not None and not spectate:
            mine = self.seat_with_key(key)
            if mine is not None:
                if mine.conn is conn:  # the same request twice on one connection
                    return {"table": t.id, "seat": mine.index, "token": mine.token}
                return self.reconnect(conn, mine.index, None if t.status == "waiting" else 0)
        if t.seat_of(conn) is not None or conn in t.spectators:
            raise ProtocolError("already_seated", say("already_at_table"))
        if spectate:
            t.spectators.add(conn, t.delivery.spectator_start)
            if t.saving.paused:  # the others were told when it paused: this one now
                conn.push("table_paused", table=t.id, **t.saving.pause_fields())
            t.push_summary()
            return {"table": t.id, "seat": None, "token": None}
        if t.status == "playing":
            raise ProtocolError("already_started", say("join_as_spectator"))
        if t.status == "over":
            raise ProtocolError("match_over", say("match_over"))
        if t.host.locked:
            raise ProtocolError("table_locked", say("table_locked"))
        target = self._pick_seat(seat)
        target.conn, target.name = conn, conn.name
        target.token = secrets.token_urlsafe(16)
        target.key = key
        t.host.sat(target)
        t.seats_changed()
        return {"table": t.id, "seat": target.index, "token": target.token}

    def seat_with_key(self, key: str) -> Seat | None:
        """The seat whose player named his join with ``key`` (compared in constant
        time), or None."""
        wanted = key.encode()
        for s in self.table.seats:
            if s.key is not None and hmac.compare_digest(s.key.encode(), wanted):
                return s
        return None

    def _pick_seat(self, seat: int | None) -> Seat:
        seats = self.table.seats
        if seat is None:
            for s in seats:
                if s.free:
                    return s
            raise ProtocolError("table_full", say("table_full"))
        self.check_index(seat)
        if not seats[seat].free:
            raise ProtocolError("seat_taken", say("seat_taken", seat=seat))
        return seats[seat]

    def check_index(self, seat: int) -> None:
        """Raises ``no_such_seat`` unless ``seat`` is a seat index of this table."""
        n = len(self.table.seats)
        if not 0 <= seat < n:
            raise ProtocolError("no_such_seat", say("seat_range", last=n - 1))

    def add_bot(self, seat: int | None = None, level: str = DEFAULT_LEVEL) -> None:
        """Put a bot of ``level`` (:data:`shared.bots.LEVELS`) in ``seat`` (first free
        when None) before the match starts; its name says a level other than normal
        ("Bot 2 (hard)"). Raises ``bad_option`` for an unknown level."""
        t = self.table
        if level not in LEVELS:
            raise ProtocolError("bad_option", say("option_choice", option="level", choices=", ".join(LEVELS)))
        if t.status != "waiting":
            raise ProtocolError("already_started", say("seats_fixed"))
        target = self._pick_seat(seat)
        name = f"Bot {target.index + 1}" if level == DEFAULT_LEVEL else f"Bot {target.index + 1} ({level})"
        target.bot, target.name, target.level = True, name, level
        t.seats_changed()

    def remove_bot(self, seat: int) -> None:
        """Free a bot's seat before the match starts."""
        t = self.table
        if t.status != "waiting":
            raise ProtocolError("already_started", say("seats_fixed"))
        self.check_index(seat)
        if not t.seats[seat].bot:
            raise ProtocolError("no_such_seat", say("no_bot_there", seat=seat))
        t.seats[seat] = Seat(seat)
        t.push_summary()

    def leave(self, conn: Any) -> None:
        """``conn`` leaves on purpose: a spectator goes; before the match its seat is
        freed; during the match a bot plays the seat for the player, whose token still
        gives it back (the seat is *left*)."""
        self._part(conn, hold=False)

    def drop(self, conn: Any) -> None:
        """``conn``'s connection was lost: as :meth:`leave`, except that during the
        match its seat is held for the player (see the module docstring)."""
        self._part(conn, hold=True)

    def _part(self, conn: Any, hold: bool) -> None:
        t = self.table
        t.spectators.remove(conn)
        index = t.seat_of(conn)
        if index is not None:
            seat = t.seats[index]
            if t.status == "waiting":
                t.host.stood_up(seat)
                t.seats[index] = Seat(index)
            elif t.status == "playing":
                conn.set_playing(False)
                seat.conn = None
                if hold:
                    self.hold(seat)
                else:
                    self.seat_left(seat, keep=True)
            else:
                seat.conn = None
                t.host.rematch_asked.discard(index)
                if t.host.check_rematch():
                    return
        if not t.maybe_close():
            t.push_summary()

    def held(self) -> bool:
        """True while a seat waits for its player to come back: held, or left on purpose
        less than ``server.reconnect_grace_s`` ago (a player alone with bots who left
        may still sit back down)."""
        return any(s.away or (s.left and s.grace_call is not None) for s in self.table.seats)

    # -- held seats -------------------------------------------------------------------
    def hold(self, seat: Seat, wait_s: float | None = None) -> None:
        """``seat``'s player lost his connection: the seat is his for the grace period,
        and no stand-in plays it for ``wait_s`` s (default ``server.drop_grace_s``: a
        Wi-Fi blip must not let a bot play the player's card; the summary's
        ``stand_in_at`` says until when)."""
        t = self.table
        grace = self._grace_s()
        seat.away = True
        if seat.grace_call is not None and seat.grace_call.active():
            seat.grace_call.cancel()
        seat.grace_call = t.clock.callLater(grace, self._grace_over, seat.index)
        self._wait_for_player(seat, self._drop_wait_s() if wait_s is None else wait_s)
        log.info("table {id}: seat {seat} ({name}) held for {grace:.0f} s", id=t.id,
                 seat=seat.index, name=seat.name, grace=grace)
        if t.status == "playing" and t.bot_takeover == "after_miss":
            t.stand_ins.spare_for(seat)
        t.claims.refresh_arbiter()
        t.after_change()

    def _wait_for_player(self, seat: Seat, wait_s: float) -> None:
        """No stand-in plays the held ``seat`` for ``wait_s`` s (none when 0)."""
        self._end_wait(seat)
        if wait_s > 0:
            t = self.table
            seat.stand_in_at = round(t.now_ms() + wait_s * 1000.0, 3)
            seat.stand_in_call = t.clock.callLater(wait_s, self._wait_over, seat.index)

    @staticmethod
    def _end_wait(seat: Seat) -> None:
        if seat.stand_in_call is not None and seat.stand_in_call.active():
            seat.stand_in_call.cancel()
        seat.stand_in_call, seat.stand_in_at = None, None

    def _wait_over(self, index: int) -> None:
        """The held seat's player did not come back in moments: a stand-in may play."""
        if not self._alive():
            return
        t = self.table
        seat = t.seats[index]
        seat.stand_in_call, seat.stand_in_at = None, None
        if seat.away and t.status == "playing":
            t.after_change()
            t.push_summary()

    def _grace_over(self, index: int) -> None:
        if not self._alive():
            return
        t = self.table
        seat = t.seats[index]
        seat.grace_call = None
        self._end_wait(seat)
        if not seat.away:
            return
        log.info("table {id}: seat {seat}: {name} did not come back", id=t.id, seat=index,
                 name=seat.name)
        seat.away = False
        if t.status == "playing":
            self.seat_left(seat)
        elif t.status == "waiting":  # a restored waiting table: the seat is free again
            t.host.stood_up(seat)
            t.seats[index] = Seat(index)
        if not t.maybe_close():
            t.push_summary()

    def seat_left(self, seat: Seat, write: bool = True, keep: bool = False) -> None:
        """The player is gone (left, or did not come back in time): a bot plays the seat
        for him (it learns the match first) and his token still gives it back. With
        ``keep`` (he left on purpose) the seat keeps the table open for
        ``server.reconnect_grace_s`` as a held seat does, even if nobody else is at it."""
        t = self.table
        if seat.grace_call is not None and seat.grace_call.active():
            seat.grace_call.cancel()
        seat.grace_call = None
        self._end_wait(seat)
        if keep:
            seat.grace_call = t.clock.callLater(self._grace_s(), self._left_grace_over, seat.index)
        seat.away, seat.conn, seat.left = False, None, True
        if seat.driver is None:
            t.stand_ins.start([seat], "left")
        seat.stand_in = "left"
        if write:
            t.saving.write(dict(kind="seat", **seat.record()))
        t.claims.refresh_arbiter()
        if self.gathering is not None and not any(s.away for s in t.seats):
            self.end_gathering()  # nobody else to wait for

    def _left_grace_over(self, index: int) -> None:
        """A left seat no longer keeps the table open (its token still works)."""
        self.table.seats[index].grace_call = None
        self.table.maybe_close()

    def bot_for_good(self, seat: Seat) -> None:
        """A bot keeps the seat until the end; the player's token expires (the host
        moved the player to the spectators)."""
        t = self.table
        if seat.grace_call is not None and seat.grace_call.active():
            seat.grace_call.cancel()
        seat.grace_call = None
        seat.away, seat.token, seat.conn, seat.left = False, None, None, False
        seat.bot, seat.name = True, f"{seat.name} (bot)"
        if t.status == "playing":
            if seat.driver is None:
                t.stand_ins.start([seat], None)
            seat.stand_in = None
            t.saving.write(dict(kind="seat", **seat.record()))
            t.claims.refresh_arbiter()
        else:
            t.stand_ins.stop(seat)

    # -- coming back ----------------------------------------------------------------------
    def reconnect(self, conn: Any, index: int, step: int | None) -> dict[str, Any]:
        """Give seat ``index`` (whose token ``conn`` showed) to ``conn``: the player is
        back. Pushes ``match_started`` with ``resumed`` and the ``missed`` events after
        ``step`` (and ``match_over`` when the match has ended). Returns the ``joined``
        fields. Raises ``already_seated`` when ``conn`` sits at another seat here. A left
        seat (its player left or did not come back in time) is taken back from its bot;
        a connection watching the table stops watching it; the host's seat makes ``conn``
        the host again. A connection that still held the seat (a half-open one, or the
        player's other device) is told (``seat_taken_over``: a pushed ``taken_over``)."""
        t = self.table
        seat = t.seats[index]
        if t.seat_of(conn) not in (None, index):
            raise ProtocolError("already_seated", say("other_seat_here"))
        t.spectators.remove(conn)
        old = seat.conn
        if old is not None and old is not conn and t.status == "playing":
            old.set_playing(False)  # a half-open connection of the same player
        was_left = seat.left
        seat.conn, seat.away, seat.left = conn, False, False
        told = getattr(old, "seat_taken_over", None) if old is not conn else None
        if told is not None:  # the other device is told, or it would act on a seat it lost
            told(t.id, index)
        if seat.grace_call is not None and seat.grace_call.active():
            seat.grace_call.cancel()
        seat.grace_call = None
        self._end_wait(seat)
        if seat.stand_in in ("takeover", "left"):
            t.stand_ins.stop(seat)
        if was_left and t.status == "playing":
            t.saving.write(dict(kind="seat", **seat.record()))
        t.host.back(seat)
        if t.status == "playing" and old is not conn:
            conn.set_playing(True)
        log.info("table {id}: {name} is back at seat {seat}", id=t.id, name=seat.name, seat=index)
        if t.status == "waiting":  # another connection of the player (after a restart, say)
            t.seats_changed()  # the last held seat back: the match may start
            return {"table": t.id, "seat": index, "token": seat.token}
        rewound = step if step is not None and step > len(t.log) else None
        if rewound is not None:
            log.warn("table {id}: seat {seat} had seen step {step}, the log restored step {n}",
                     id=t.id, seat=index, step=step, n=len(t.log))
        self.resume(conn, index, step, rewound, over=t.status == "over")
        t.claims.refresh_arbiter()
        t.push_summary()
        if self.gathering is not None and not any(s.away for s in t.seats):
            self.end_gathering()  # every player is back: no need to wait longer
        return {"table": t.id, "seat": index, "token": seat.token}

    # -- after a restart ----------------------------------------------------------------
    def hold_restored(self, wait_s: float) -> None:
        """A waiting table restored after a restart: each player's seat is held (``away``)
        for ``wait_s`` s, for its player's ``reconnect`` or ``join`` asked again with his
        key; then it is free again. The match cannot start while a seat is held. After
        ``wait_s`` s a table nobody came back to closes."""
        t = self.table
        for seat in t.seats:
            if seat.token is not None and not seat.bot:
                seat.away = True
                seat.grace_call = t.clock.callLater(wait_s, self._grace_over, seat.index)
        self.gather_call = t.clock.callLater(wait_s, self._restored_wait_over)

    def _restored_wait_over(self) -> None:
        self.gather_call = None
        if self._alive():
            self.table.maybe_close()

    def gather(self, wait_s: float, then: Callable[[], None]) -> None:
        """A restored match waits for its players: the table is paused (``table_paused``
        with ``until``, :meth:`server.match.saving.Saving.hold`) until every held seat is
        back or ``wait_s`` s have passed, whichever comes first; then ``then()`` starts
        the match's clocks and bots again, and the held seats whose players are still
        away get their stand-ins (docs/PROTOCOL.md "Reconnection"). Players who come
        back meanwhile get ``joined`` at once and their resumed ``match_started`` when
        the table goes on, so a crash changes nobody's turn or race."""
        t = self.table
        if not any(s.away for s in t.seats) or wait_s <= 0:
            then()
            return
        self.gathering = then
        until = t.now_ms() + wait_s * 1000.0
        for seat in t.seats:
            if seat.away:
                seat.stand_in_at = round(until, 3)
        t.saving.hold(say("restart_wait", s=round(wait_s)), until)
        self.gather_call = t.clock.callLater(wait_s, self.end_gathering)

    def end_gathering(self) -> None:
        """The restored match goes on (see :meth:`gather`)."""
        then, self.gathering = self.gathering, None
        if then is None or not self._alive():
            return
        if self.gather_call is not None and self.gather_call.active():
            self.gather_call.cancel()
        self.gather_call = None
        t = self.table
        for seat in t.seats:
            self._end_wait(seat)
        t.saving.unhold(then)  # its clocks first: the resumed starts carry their window
        t.after_change()
        t.push_summary()

    def resume(self, conn: Any, index: int, step: int | None, rewound_from: int | None = None,
               over: bool = False, now: bool = False, told: bool = False) -> None:
        """Push ``conn`` (seat ``index``) its resumed ``match_started``: the view, and in
        ``missed`` the events after ``step`` (:meth:`missed`); then ``match_over`` when
        ``over``. While outcomes of actions are held back for the disk (group commit),
        it waits for them without blocking the reactor (``Saving.when_saved``; while the
        table is paused, ``table_paused`` goes out at once and the rest once it resumes):
        the view and ``missed`` then cover exactly the steps whose updates went out, and
        ``conn`` gets none of the held-back updates itself (:attr:`resuming`), so no step
        reaches it twice nor is lost. When this reactor turn already spent
        :data:`RESUME_TURN_S` on resumes, it is sent from the cooperator instead (a
        storm of reconnections never blocks the reactor; ``now``: that call; ``told``:
        ``conn`` already had ``table_paused``)."""
        t = self.table
        resuming = self.resuming
        if not now and not _resume_budget_left(t.clock):
            resuming[index] = conn

            def later() -> Iterator[None]:
                yield None
                if self._alive():
                    self.resume(conn, index, step, rewound_from, over, now=True)

            teaching_cooperator(t.clock).cooperate(later())
            return
        saving = t.saving
        if saving.outcomes_held or saving.paused:
            resuming[index] = conn
            if saving.paused and not told:
                conn.push("table_paused", table=t.id, **saving.pause_fields())
            told = told or saving.paused
            done: list[Any] = []

            def again() -> None:  # once: when the outcomes went out, or every second
                if not done and self._alive():
                    done.append(True)
                    if poll and poll[0].active():
                        poll[0].cancel()
                    self.resume(conn, index, step, rewound_from, over, now=True, told=told)

            poll: list[Any] = []
            if saving.when_saved(again):
                poll.append(t.clock.callLater(1.0, again))
                return
        if resuming.get(index) is conn:
            del resuming[index]
        if t.closed or t.seats[index].conn is not conn:
            return  # gone meanwhile (or another connection took the seat)
        start = time.perf_counter()
        missed, truncated = self.missed(index, step)
        t.delivery.send_start(conn, index, resumed=True, missed=missed, rewound_from=rewound_from,
                              missed_truncated=truncated)
        if over:
            conn.push("match_over", table=t.id, result=t.result, scoreboard=t.scoreboard_rows())
        spent = _resume_spent.get(t.clock)
        if spent is not None:
            spent[0] += time.perf_counter() - start

    def missed(self, index: int, step: int | None) -> tuple[list[dict[str, Any]], bool]:
        """``(missed, truncated)``: the events seat ``index`` was sent in the updates after
        ``step`` (steps ``step + 1`` ... now, from ``history``, filtered for the seat), or
        ``([], True)`` when that is more than :data:`MAX_MISSED_EVENTS` events or steps
        (the view alone brings the seat up to date); ``([], False)`` without ``step``.
        Costs at most :data:`MAX_MISSED_EVENTS` steps' filtering, never a replay."""
        history = self.table.history
        if step is None or step >= len(history):
            return [], False
        if len(history) - step > MAX_MISSED_EVENTS:
            return [], True
        missed: list[dict[str, Any]] = []
        for k in range(step, len(history)):
            missed += events_for(history[k], index)
            if len(missed) > MAX_MISSED_EVENTS:
                return [], True
        return missed, False
