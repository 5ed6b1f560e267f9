"""Who sits at a table and who plays each seat (docs/PROTOCOL.md "Lobby",
"Reconnection, spectators and the turn timer").

A seat is free, a player's (a connection, and a reconnect *token*), or a bot's for good.
When a player's connection drops during a match the seat is *held*: ``away``, token
still valid, for ``server.reconnect_grace_s`` seconds. Meanwhile, with the table option
``bot_takeover: "after_miss"``, a bot *stands in* from the first moment the match waits
for the seat; with ``"never"`` the match waits (a window gets a pass for the seat). A
bot also stands in for the rest of a turn when the turn timer runs out. ``reconnect``
with the token gives the seat back to a connection, from any machine.

A seat's token stays valid until the table closes (issue 13): when the grace period
ends, or when the player ``leave``s during the match, the seat is *left*: a bot plays it
(``stand_in`` ``"left"``) and the token still gives it back. Only the host moving a
player to the spectators (:meth:`server.host.HostMixin.move_to_spectators`) gives a
seat to a bot for good (the token expires).

Every bot that takes a seat during a match first learns the whole match so far, as its
seat saw it (the match is replayed: each step's events and view), so its memory is what it
would be had it played from the start -- and since the bots decide by the situation, it
plays as that seat's bot would have. The replay never blocks the reactor (issue 14): it
runs in slices of at most :data:`TEACH_SLICE_S` on one :class:`twisted.internet.task.Cooperator`
per reactor, shared by every table (:class:`Lesson`); meanwhile the seat's ``driver`` is a
:class:`Learner` and the match waits for the seat, as it waits for a held seat. The bot
starts playing once it has seen every action whose outcome went out.

:class:`SeatsMixin` is part of :class:`server.table.Table`.
"""
from __future__ import annotations

import secrets
import time
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from twisted.internet import defer, task
from twisted.logger import Logger

from shared.bots import make_bot
from shared.bots.driver import BotDriver
from shared.protocol import ProtocolError
from shared.rules import events_for

log = Logger()

#: Longest slice (s) of replay a reactor turn gives to the bots learning a match, all
#: tables together; the reactor serves connections between slices.
TEACH_SLICE_S = 0.004
#: At most this many events go in a resumed ``match_started``'s ``missed``; beyond, it
#: has none and ``missed_truncated: true`` (the view alone brings the seat up to date).
MAX_MISSED_EVENTS = 200

#: A reactor turn sends resumed ``match_started`` messages inline until they have taken
#: this long (s of the turn); later reconnections of the same turn (a storm: hundreds of
#: players back at once) get theirs from the cooperator, a slice at a time.
RESUME_TURN_S = 0.004

_cooperators: "weakref.WeakKeyDictionary[Any, task.Cooperator]" = weakref.WeakKeyDictionary()
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


def _slice() -> Callable[[], bool]:
    end = time.perf_counter() + TEACH_SLICE_S
    return lambda: time.perf_counter() >= end


def teaching_cooperator(clock: Any) -> task.Cooperator:
    """The :class:`twisted.internet.task.Cooperator` that runs every table's bot lessons
    (and the resumes a busy reactor turn puts off) on ``clock`` (one per reactor):
    round-robin between them, at most
    :data:`TEACH_SLICE_S` per reactor turn, the next slice scheduled with
    ``clock.callLater(0)`` (so connections are read and written between slices; on a
    ``task.Clock`` any ``advance`` runs every slice due)."""
    try:
        return _cooperators[clock]
    except KeyError:
        coop = _cooperators[clock] = task.Cooperator(
            terminationPredicateFactory=_slice, scheduler=lambda f: clock.callLater(0, f))
        return coop


@dataclass
class Seat:
    """One seat: free, a player's connection, or a bot; ``driver`` is the bot playing it
    now (``stand_in`` says why, for a player's seat: ``"takeover"`` while it is held,
    ``"timer"`` for the rest of a turn whose time ran out, ``"left"`` while its player is
    gone -- left, or did not come back in time -- and may still come back with the
    token)."""

    index: int
    conn: Any = None
    name: str | None = None
    bot: bool = False  # a bot plays this seat for good
    token: str | None = None  # the player's reconnect token, while it is valid
    away: bool = False  # held for its player, who lost the connection
    left: bool = False  # its player is gone: a bot plays it, the token still gives it back
    driver: "BotDriver | Learner | None" = None  # a Learner while its bot learns the match
    stand_in: str | None = None
    grace_call: Any = None

    @property
    def free(self) -> bool:
        return self.conn is None and not self.bot and not self.away and not self.left

    def summary(self) -> dict[str, Any]:
        """The protocol's seat object (``Table.seats[i]``); a left seat shows as a bot's
        (``"<name> (bot)"``), as it did when leaving gave the seat away for good."""
        return {"seat": self.index, "name": f"{self.name} (bot)" if self.left else self.name,
                "bot": self.bot or self.left or (self.away and self.driver is not None),
                "connected": self.bot or self.left or self.conn is not None, "away": self.away}

    def record(self) -> dict[str, Any]:
        """The seat as the match log keeps it (with its token; ``left`` when its player
        is gone and a bot plays it for him)."""
        rec: dict[str, Any] = {"seat": self.index, "name": self.name, "bot": self.bot, "token": self.token}
        if self.left:
            rec["left"] = True
        return rec


class Learner:
    """What plays a seat while its bot learns the match (:class:`Lesson`): nothing. It
    stands in ``Seat.driver`` (so the seat has its stand-in and none other is started),
    ignores the updates (the replay covers every action whose outcome went out) and
    :meth:`stop` takes the seat out of the lesson (the player came back, the turn or the
    match ended, the table closed)."""

    def __init__(self, lesson: "Lesson", seat: int):
        self.lesson = lesson
        self.seat = seat

    def on_update(self, events: Any, view: Any, legal: Any, anchor: Any = None) -> None:
        """Ignored: the bot learns every released action from the replay."""

    def stop(self) -> None:
        self.lesson.forget(self.seat)


class Lesson:
    """Bots of one table learning the match so far before they play (issue 14): a replay
    of ``table.actions`` from a new match with ``table.seed`` (or from where a spare bot
    stopped: ``start`` = ``(state, actions replayed)``), each bot observing every step's
    events and view as its seat got them (a bot given as None is made when the lesson
    begins), run as a generator on
    :func:`teaching_cooperator` (one action per work unit). It replays the actions whose
    outcome went out (``table._released_step``; the group commit may hold back the last
    ones), waits while outcomes are held back (:meth:`SeatsMixin._when_saved`), and when
    it has seen every action of the match, gives each seat still learning a
    :class:`shared.bots.driver.BotDriver` fed the current view
    (:meth:`SeatsMixin._lesson_learnt`). ``bots``: seat -> bot; the seats in ``spares``
    need no stand-in yet (held seats the match does not wait for): their bots learn in
    the same pass and are kept, with the replay's state, for when they do -- so a table
    whose four players dropped replays its match once, not once per seat."""

    def __init__(self, table: "SeatsMixin", bots: dict[int, Any], spares: set[int] = frozenset(),
                 start: tuple[Any, int] | None = None):
        self.table = table
        self.bots = bots
        self.spares = set(spares)
        self.start = start
        self.replayed = start[1] if start is not None else 0  # actions replayed so far
        self.state: Any = None
        self.task: Any = None
        self.over = False  # learnt, stopped or given up
        self.begun = False  # bots join it (as spares) only before it begins

    def learner(self, seat: int) -> Learner:
        self.spares.discard(seat)
        return Learner(self, seat)

    def forget(self, seat: int) -> None:
        """``seat`` needs no bot any more; the lesson stops when only spares are left."""
        self.bots.pop(seat, None)
        self.spares.discard(seat)
        if set(self.bots) <= self.spares and self.task is not None:
            self.bots.clear()
            self.over = True
            try:
                self.task.stop()
            except (task.TaskDone, task.TaskFinished):
                pass

    def steps(self) -> Iterator[Any]:
        """The replay, one action per ``next`` (a Deferred while it waits for outcomes
        held back for the disk)."""
        try:
            yield from self._replay()
        finally:
            self.over = True

    def _replay(self) -> Iterator[Any]:
        self.begun = True
        t = self.table
        game = t.game
        for seat, bot in list(self.bots.items()):
            if bot is None:  # made here, not on the reactor turn that asked for it
                self.bots[seat] = t._make_bot(seat)
        if self.start is not None:
            state = self.start[0]
        else:
            state = game.new_match(t.engine_config, t.seed)
            for seat, bot in list(self.bots.items()):
                bot.observe([], game.view(state, seat))
        while True:
            if t.closed or not self.bots or t.status != "playing":
                return
            k = self.replayed
            if k < t._released_step:
                seat_acting, action = t.actions[k]
                state, events = game.apply(state, seat_acting, action)
                for seat, bot in list(self.bots.items()):
                    bot.observe(events_for(events, seat), game.view(state, seat))
                self.replayed = k + 1
                yield None
                continue
            if k >= len(t.actions) and not t.paused:
                self.state = state
                t._lesson_learnt(self)
                return
            yield self._wait(t)

    def _wait(self, t: "SeatsMixin") -> defer.Deferred:
        """A Deferred fired once the outcomes held back now went out (or the table
        resumed), and at the latest after 1 s (a call the table drops when it pauses
        again must not leave the seat without its bot: the lesson simply looks again)."""
        waiting: defer.Deferred = defer.Deferred()

        def fire() -> None:
            if not waiting.called:
                waiting.callback(None)

        poll = t.clock.callLater(1.0 if t._when_saved(fire) else 0.01, fire)
        waiting.addBoth(lambda r: (poll.cancel() if poll.active() else None, r)[1])
        return waiting


class SeatsMixin:
    """Joining, leaving, losing and getting back a seat; bots and stand-ins."""

    #: how many of ``actions`` have had their outcome sent (the group commit holds the
    #: latest back until they are on disk); set by the table's updates and restore
    _released_step = 0

    seats: list[Seat]
    status: str
    spectators: Any
    config: dict[str, Any]

    # -- joining and leaving ------------------------------------------------------------
    def join(self, conn: Any, seat: int | None = None, spectate: bool = False) -> dict[str, Any]:
        """Seat ``conn`` (first free seat when ``seat`` is None) or add it as a spectator.

        Returns the ``joined`` reply fields ``{table, seat, token}``; starts the match
        when the last seat is filled (table option ``start: "auto"``). Raises
        :class:`ProtocolError` ``already_seated``, ``already_started``, ``match_over``,
        ``table_locked``, ``no_such_seat``, ``seat_taken``, ``table_full``.
        """
        if self.seat_of(conn) is not None or conn in self.spectators:
            raise ProtocolError("already_seated", "you are already at this table")
        if spectate:
            self.spectators.add(conn, self._spectator_start)
            self._push_summary()
            return {"table": self.id, "seat": None, "token": None}
        if self.status == "playing":
            raise ProtocolError("already_started", "the match has started: join as a spectator")
        if self.status == "over":
            raise ProtocolError("match_over", "the match is over")
        if self.locked:
            raise ProtocolError("table_locked", "the host locked this table: you may watch it")
        target = self._pick_seat(seat)
        target.conn, target.name = conn, conn.name
        target.token = secrets.token_urlsafe(16)
        self._host_sat(target)
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
        """``conn`` leaves on purpose: a spectator goes; before the match its seat is
        freed; during the match a bot plays the seat for the player, whose token still
        gives it back (the seat is *left*)."""
        self._part(conn, hold=False)

    def drop(self, conn: Any) -> None:
        """``conn``'s connection was lost: as :meth:`leave`, except that during the
        match its seat is held for the player (see the module docstring)."""
        self._part(conn, hold=True)

    def _part(self, conn: Any, hold: bool) -> None:
        self.spectators.remove(conn)
        index = self.seat_of(conn)
        if index is not None:
            seat = self.seats[index]
            if self.status == "waiting":
                self._host_stood_up(seat)
                self.seats[index] = Seat(index)
            elif self.status == "playing":
                conn.set_playing(False)
                seat.conn = None
                if hold:
                    self._hold(seat)
                else:
                    self._seat_left(seat, keep=True)
            else:
                seat.conn = None
                self.rematch_asked.discard(index)
                if self._check_rematch():
                    return
        if not self._maybe_close():
            self._push_summary()

    def held(self) -> bool:
        """True while a seat waits for its player to come back: held, or left on purpose
        less than ``server.reconnect_grace_s`` ago (a player alone with bots who left
        may still sit back down)."""
        return any(s.away or (s.left and s.grace_call is not None) for s in self.seats)

    def _maybe_close(self) -> bool:
        """Close the table when nobody is at it and no seat is held; True if closed."""
        if self.closed:
            return True
        if self.connections() or self.held():
            return False
        self.close()
        self.on_empty(self)
        return True

    # -- held seats -------------------------------------------------------------------
    def _hold(self, seat: Seat) -> None:
        grace = float(self.config["server"]["reconnect_grace_s"])
        seat.away = True
        if seat.grace_call is not None and seat.grace_call.active():
            seat.grace_call.cancel()
        seat.grace_call = self.clock.callLater(grace, self._grace_over, seat.index)
        log.info("table {id}: seat {seat} ({name}) held for {grace:.0f} s", id=self.id,
                 seat=seat.index, name=seat.name, grace=grace)
        if self.status == "playing" and self.bot_takeover == "after_miss":
            self._spare_for(seat)
        self._refresh_arbiter()
        self._after_change()

    def _grace_over(self, index: int) -> None:
        seat = self.seats[index]
        seat.grace_call = None
        if not seat.away:
            return
        log.info("table {id}: seat {seat}: {name} did not come back", id=self.id, seat=index,
                 name=seat.name)
        seat.away = False
        if self.status == "playing":
            self._seat_left(seat)
        if not self._maybe_close():
            self._push_summary()

    def _seat_left(self, seat: Seat, write: bool = True, keep: bool = False) -> None:
        """The player is gone (left, or did not come back in time): a bot plays the seat
        for him (it learns the match first) and his token still gives it back. With
        ``keep`` (he left on purpose) the seat keeps the table open for
        ``server.reconnect_grace_s`` as a held seat does, even if nobody else is at it."""
        if seat.grace_call is not None and seat.grace_call.active():
            seat.grace_call.cancel()
        seat.grace_call = None
        if keep:
            grace = float(self.config["server"]["reconnect_grace_s"])
            seat.grace_call = self.clock.callLater(grace, self._left_grace_over, seat.index)
        seat.away, seat.conn, seat.left = False, None, True
        if seat.driver is None:
            self._start_drivers([seat], "left")
        seat.stand_in = "left"
        if write:
            self._write(dict(kind="seat", **seat.record()))
        self._refresh_arbiter()

    def _left_grace_over(self, index: int) -> None:
        """A left seat no longer keeps the table open (its token still works)."""
        self.seats[index].grace_call = None
        self._maybe_close()

    def _bot_for_good(self, seat: Seat) -> None:
        """A bot keeps the seat until the end; the player's token expires (the host
        moved the player to the spectators)."""
        if seat.grace_call is not None and seat.grace_call.active():
            seat.grace_call.cancel()
        seat.grace_call = None
        seat.away, seat.token, seat.conn, seat.left = False, None, None, False
        seat.bot, seat.name = True, f"{seat.name} (bot)"
        if self.status == "playing":
            if seat.driver is None:
                self._start_drivers([seat], None)
            seat.stand_in = None
            self._write(dict(kind="seat", **seat.record()))
            self._refresh_arbiter()
        else:
            self._stop_driver(seat)

    def reconnect(self, conn: Any, index: int, step: int | None) -> dict[str, Any]:
        """Give seat ``index`` (whose token ``conn`` showed) to ``conn``: the player is
        back. Pushes ``match_started`` with ``resumed`` and the ``missed`` events after
        ``step`` (and ``match_over`` when the match has ended). Returns the ``joined``
        fields. Raises ``already_seated`` when ``conn`` sits at another seat here. A left
        seat (its player left or did not come back in time) is taken back from its bot;
        a connection watching the table stops watching it; the host's seat makes ``conn``
        the host again."""
        seat = self.seats[index]
        if self.seat_of(conn) not in (None, index):
            raise ProtocolError("already_seated", "you already sit at another seat of this table")
        self.spectators.remove(conn)
        old = seat.conn
        if old is not None and old is not conn and self.status == "playing":
            old.set_playing(False)  # a half-open connection of the same player
        was_left = seat.left
        seat.conn, seat.away, seat.left = conn, False, False
        if seat.grace_call is not None and seat.grace_call.active():
            seat.grace_call.cancel()
        seat.grace_call = None
        if seat.stand_in in ("takeover", "left"):
            self._stop_driver(seat)
        if was_left and self.status == "playing":
            self._write(dict(kind="seat", **seat.record()))
        self._host_back(seat)
        if self.status == "playing" and old is not conn:
            conn.set_playing(True)
        log.info("table {id}: {name} is back at seat {seat}", id=self.id, name=seat.name, seat=index)
        if self.status == "waiting":  # the same player from another connection
            self._push_summary()
            return {"table": self.id, "seat": index, "token": seat.token}
        rewound = step if step is not None and step > len(self.log) else None
        if rewound is not None:
            log.warn("table {id}: seat {seat} had seen step {step}, the log restored step {n}",
                     id=self.id, seat=index, step=step, n=len(self.log))
        self._resume(conn, index, step, rewound, over=self.status == "over")
        self._refresh_arbiter()
        self._push_summary()
        return {"table": self.id, "seat": index, "token": seat.token}

    def _resume(self, conn: Any, index: int, step: int | None, rewound_from: int | None = None,
                over: bool = False, now: bool = False, told: bool = False) -> None:
        """Push ``conn`` (seat ``index``) its resumed ``match_started``: the view, and in
        ``missed`` the events after ``step`` (:meth:`_missed`); then ``match_over`` when
        ``over``. While outcomes of actions are held back for the disk (group commit),
        it waits for them without blocking the reactor (``_when_saved``; while the table
        is paused, ``table_paused`` goes out at once and the rest once it resumes): the
        view and ``missed`` then cover exactly the steps whose updates went out, and
        ``conn`` gets none of the held-back updates itself (``_resuming``), so no step
        reaches it twice nor is lost. When this reactor turn already spent
        :data:`RESUME_TURN_S` on resumes, it is sent from the cooperator instead (a
        storm of reconnections never blocks the reactor; ``now``: that call; ``told``:
        ``conn`` already had ``table_paused``)."""
        resuming = self.__dict__.setdefault("_resuming", {})
        if not now and not _resume_budget_left(self.clock):
            resuming[index] = conn

            def later() -> Iterator[None]:
                yield None
                self._resume(conn, index, step, rewound_from, over, now=True)

            teaching_cooperator(self.clock).cooperate(later())
            return
        if self.__dict__.get("_commit_waiting") or self.paused:
            resuming[index] = conn
            if self.paused and not told:
                conn.push("table_paused", table=self.id, message=self._pause_reason)
            told = told or self.paused
            done: list[Any] = []

            def again() -> None:  # once: when the outcomes went out, or every second
                if not done:
                    done.append(True)
                    if poll and poll[0].active():
                        poll[0].cancel()
                    self._resume(conn, index, step, rewound_from, over, now=True, told=told)

            poll: list[Any] = []
            if self._when_saved(again):
                poll.append(self.clock.callLater(1.0, again))
                return
        if resuming.get(index) is conn:
            del resuming[index]
        if self.closed or self.seats[index].conn is not conn:
            return  # gone meanwhile (or another connection took the seat)
        start = time.perf_counter()
        missed, truncated = self._missed(index, step)
        self._send_start(conn, index, resumed=True, missed=missed, rewound_from=rewound_from,
                         missed_truncated=truncated)
        if over:
            conn.push("match_over", table=self.id, result=self.result,
                      scoreboard=self.scoreboard_rows())
        spent = _resume_spent.get(self.clock)
        if spent is not None:
            spent[0] += time.perf_counter() - start

    def _missed(self, index: int, step: int | None) -> tuple[list[dict[str, Any]], bool]:
        """``(missed, truncated)``: the events seat ``index`` was sent in the updates after
        ``step`` (steps ``step + 1`` ... now, from ``history``, filtered for the seat), or
        ``([], True)`` when that is more than :data:`MAX_MISSED_EVENTS` events or steps
        (the view alone brings the seat up to date); ``([], False)`` without ``step``.
        Costs at most :data:`MAX_MISSED_EVENTS` steps' filtering, never a replay."""
        history = self.history
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

    # -- bots -------------------------------------------------------------------------
    def _refresh_stand_ins(self) -> None:
        """A held seat the match waits for gets its stand-in (``after_miss``) or, in a
        window, a pass (``never``)."""
        if self.status != "playing" or self.closed:
            return
        waiting = self.game.awaiting(self.state)
        started = False
        for seat in self.seats:
            if not seat.away or seat.driver is not None or seat.index not in waiting:
                continue
            if self.bot_takeover == "after_miss":
                self._start_drivers([seat], "takeover")
                started = True
            elif self._pass_for(seat.index):
                return  # that pass ran its own refresh
        if started:
            self._push_summary()

    def _start_drivers(self, seats: list[Seat], stand_in: str | None) -> None:
        """Give each of ``seats`` a bot that learns the match so far (a :class:`Lesson`:
        at once before the first action, else in slices that never block the reactor;
        meanwhile the seat's ``driver`` is a :class:`Learner` and the match waits for
        it), then decides on the current view. In an open window it reacts from the
        moment the window was shown, as it would have had it been there. A seat whose
        spare bot exists (or is being taught) continues from it instead of replaying
        the match again; the other held and left seats without a bot get spares in the
        same pass."""
        if not seats:
            return
        for seat in seats:
            seat.stand_in = stand_in
        if not self.actions and not self.paused:  # nothing to learn yet (the match starts)
            lesson = Lesson(self, {seat.index: self._make_bot(seat.index) for seat in seats})
            for seat in seats:
                seat.driver = lesson.learner(seat.index)
            for _ in lesson.steps():
                pass
            return
        spares: dict[int, Any] = self.__dict__.setdefault("_spares", {})
        fresh = []
        for seat in seats:
            spare = spares.get(seat.index)
            if isinstance(spare, Lesson) and not spare.over:
                seat.driver = spare.learner(seat.index)  # it is learning already
                continue
            spares.pop(seat.index, None)
            if isinstance(spare, tuple):  # learnt up to some step: go on from there
                bot, state, replayed = spare
                self._teach(Lesson(self, {seat.index: bot}, start=(state, replayed)), [seat])
            else:
                fresh.append(seat)
        if not fresh:
            return
        others = [s for s in self.seats if s not in seats and s.driver is None and (s.away or s.left)
                  and self._spare_of(s.index) is None]
        bots: dict[int, Any] = {seat.index: None for seat in fresh + others}  # made as it begins
        lesson = Lesson(self, bots, spares={s.index for s in others})
        for s in others:
            spares[s.index] = lesson
        self._teach(lesson, fresh)
        self._new_lesson = lesson

    def _spare_for(self, seat: Seat) -> None:
        """``seat`` is held: if a lesson of this table has not begun yet (the seats of a
        table usually drop together), its bot learns there too, as a spare."""
        lesson = self.__dict__.get("_new_lesson")
        if (lesson is None or lesson.begun or lesson.over or seat.driver is not None
                or seat.index in lesson.bots or self._spare_of(seat.index) is not None):
            return
        lesson.bots[seat.index] = None  # made as the lesson begins
        lesson.spares.add(seat.index)
        self._spares[seat.index] = lesson

    def _spare_of(self, index: int) -> Any:
        """Seat ``index``'s spare: a :class:`Lesson` teaching it, ``(bot, state,
        actions replayed)`` once taught, or None."""
        spare = self.__dict__.setdefault("_spares", {}).get(index)
        return None if isinstance(spare, Lesson) and spare.over else spare

    def _teach(self, lesson: Lesson, seats: list[Seat]) -> None:
        """Run ``lesson`` on the teaching cooperator; ``seats`` wait for it (Learner)."""
        for seat in seats:
            seat.driver = lesson.learner(seat.index)
        lesson.task = teaching_cooperator(self.clock).cooperate(lesson.steps())
        lesson.task.whenDone().addErrback(self._lesson_failed, lesson)

    def _lesson_failed(self, failure: Any, lesson: Lesson) -> None:
        """The replay failed (a bug): logged, and each seat that waited for it gets a
        bot that knows only the current view, rather than the match waiting forever."""
        if failure.check(task.TaskStopped):
            return
        log.failure("table {id}: a bot could not learn the match", failure, id=self.id)
        if self.closed or self.status != "playing":
            return
        anchor = self.window_shown if self.window is not None else self.now_ms()
        for seat in self.seats:
            if isinstance(seat.driver, Learner) and seat.driver.lesson is lesson:
                seat.driver = self._driver(seat.index, self._make_bot(seat.index))
                self._feed_bot(seat, [], anchor)

    def _lesson_learnt(self, lesson: Lesson) -> None:
        """``lesson``'s bots have seen every action: each seat still learning gets its
        :class:`BotDriver` and decides on the current view; spare bots are kept with
        the replay's state for later."""
        anchor = self.window_shown if self.window is not None else self.now_ms()
        spares: dict[int, Any] = self.__dict__.setdefault("_spares", {})
        for index, bot in list(lesson.bots.items()):
            seat = self.seats[index]
            if index in lesson.spares:
                if spares.get(index) is lesson:
                    spares[index] = (bot, lesson.state, lesson.replayed)
                continue
            if not isinstance(seat.driver, Learner) or seat.driver.lesson is not lesson:
                continue
            seat.driver = self._driver(index, bot)
            self._feed_bot(seat, [], anchor)
        lesson.bots.clear()

    def _stop_driver(self, seat: Seat) -> None:
        if seat.driver is not None:
            seat.driver.stop()
        seat.driver, seat.stand_in = None, None

    def _make_bot(self, seat: int) -> Any:
        settings = dict(self.config["bots"])
        settings["think_ms"] = self.bot_think_ms
        seed = f"{self.seed}/{seat}"
        try:
            return make_bot(self.game.NAME, seat, seed=seed, settings=settings, kind=self.bot_kind)
        except (ImportError, KeyError):
            return make_bot(self.game.NAME, seat, seed=seed, settings=settings, kind="random")

    def _driver(self, seat: int, bot: Any) -> BotDriver:
        driver = BotDriver(bot, self.clock.callLater, lambda d, anchor: self._bot_send(seat, driver, d, anchor))
        return driver

    def _feed_bot(self, seat: Seat, events: list[dict[str, Any]], anchor: float) -> None:
        if seat.driver is None or isinstance(seat.driver, Learner):
            return
        seat.driver.on_update(events, self.game.view(self.state, seat.index),
                              self._legal(seat.index), anchor)
