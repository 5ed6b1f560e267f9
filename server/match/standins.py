"""Bots that play a player's seat for him: while it is held, for the rest of a turn whose
time ran out, once its player left; and the bots of bot seats (docs/PROTOCOL.md
"Reconnection, spectators and the turn timer").

Every bot that takes a seat during a match first learns the whole match so far, as its
seat saw it (the match is replayed: each step's events and view), so its memory is what it
would be had it played from the start -- and since the bots decide by the situation, it
plays as that seat's bot would have. The replay never blocks the reactor: it runs in
slices of at most :data:`TEACH_SLICE_S` on one :class:`twisted.internet.task.Cooperator`
per reactor, shared by every table (:class:`Lesson`); meanwhile the seat's ``driver`` is a
:class:`Learner` and the match waits for the seat, as it waits for a held seat. The bot
starts playing once it has seen every action whose outcome went out.
"""
from __future__ import annotations

import time
import weakref
from typing import Any, Callable, Iterable, Iterator

from twisted.internet import defer, task
from twisted.logger import Logger

from shared.bots import DEFAULT_LEVEL, make_bot
from shared.bots.driver import BotDriver
from shared.rules import events_for
from server.match.contracts import MatchTable
from server.match.seat import Seat

log = Logger()

#: Longest slice (s) of replay a reactor turn gives to the bots learning a match, all
#: tables together; the reactor serves connections between slices.
TEACH_SLICE_S = 0.004

_cooperators: "weakref.WeakKeyDictionary[Any, task.Cooperator]" = weakref.WeakKeyDictionary()


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
    """Bots of one table learning the match so far before they play: a replay
    of ``table.actions`` from a new match with ``table.seed`` (or from where a spare bot
    stopped: ``start`` = ``(state, actions replayed)``), each bot observing every step's
    events and view as its seat got them (a bot given as None is made when the lesson
    begins), run as a generator on
    :func:`teaching_cooperator` (one action per work unit). It replays the actions whose
    outcome went out (``table.delivery.released_step``; the group commit may hold back the last
    ones), waits while outcomes are held back (:meth:`server.match.saving.Saving.when_saved`), and when
    it has seen every action of the match, gives each seat still learning a
    :class:`shared.bots.driver.BotDriver` fed the current view
    (:meth:`StandIns.learnt`). ``bots``: seat -> bot; the seats in ``spares``
    need no stand-in yet (held seats the match does not wait for): their bots learn in
    the same pass and are kept, with the replay's state, for when they do -- so a table
    whose four players dropped replays its match once, not once per seat."""

    def __init__(self, table: MatchTable, bots: dict[int, Any], spares: Iterable[int] = (),
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
        held back for the disk); it ends when the table is closed or gone."""
        try:
            yield from self._replay()
        except ReferenceError:  # the table was freed meanwhile: nobody needs the bots
            pass
        finally:
            self.over = True

    def _replay(self) -> Iterator[Any]:
        self.begun = True
        t = self.table
        game = t.game
        for seat, bot in list(self.bots.items()):
            if bot is None:  # made here, not on the reactor turn that asked for it
                self.bots[seat] = t.stand_ins.make_bot(seat)
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
            if k < t.delivery.released_step:
                seat_acting, action = t.actions[k]
                state, events = game.apply(state, seat_acting, action)
                for seat, bot in list(self.bots.items()):
                    bot.observe(events_for(events, seat), game.view(state, seat))
                self.replayed = k + 1
                yield None
                continue
            if k >= len(t.actions) and not t.saving.paused:
                self.state = state
                t.stand_ins.learnt(self)
                return
            yield self._wait(t)

    def _wait(self, t: MatchTable) -> defer.Deferred:
        return saved_or_later(t)


def saved_or_later(t: MatchTable) -> defer.Deferred:
    """A Deferred fired once the outcomes ``t`` holds back now went out (or the table
    resumed), and at the latest after 1 s (a call the table drops when it pauses again
    must not leave a replay waiting for good: it simply looks again)."""
    waiting: defer.Deferred = defer.Deferred()

    def fire() -> None:
        if not waiting.called:
            waiting.callback(None)

    poll = t.clock.callLater(1.0 if t.saving.when_saved(fire) else 0.01, fire)
    waiting.addBoth(lambda r: (poll.cancel() if poll.active() else None, r)[1])
    return waiting


class StandIns:
    """The bots of ``table`` (a :class:`MatchTable`): who plays which seat, the lessons
    that teach them the match, and the spare bots of held seats.

    ``spares``: seat -> a :class:`Lesson` teaching its spare bot, or ``(bot, state,
    actions replayed)`` once taught; ``new_lesson``: the last lesson started (held seats
    join it as spares until it begins)."""

    def __init__(self, table: MatchTable):
        self.table = table
        self.spares: dict[int, Any] = {}
        self.new_lesson: Lesson | None = None

    def refresh(self) -> None:
        """A held seat the match waits for gets its stand-in (``after_miss``) or, in a
        window, a pass (``never``) -- once the wait for its player is over
        (``Seat.stand_in_at``; none while a restored table gathers its players)."""
        t = self.table
        if t.status != "playing" or t.closed:
            return
        waiting = t.game.awaiting(t.state)
        started = False
        for seat in t.seats:
            if not seat.away or seat.driver is not None or seat.index not in waiting:
                continue
            if seat.stand_in_at is not None or t.roster.gathering is not None:
                continue  # its player may be back in moments (SeatRoster.hold, gather)
            if t.bot_takeover == "after_miss":
                self.start([seat], "takeover")
                started = True
            elif t.claims.pass_for(seat.index):
                return  # that pass ran its own refresh
        if started:
            t.push_summary()

    def start(self, seats: list[Seat], stand_in: str | None) -> None:
        """Give each of ``seats`` a bot that learns the match so far (a :class:`Lesson`:
        at once before the first action, else in slices that never block the reactor;
        meanwhile the seat's ``driver`` is a :class:`Learner` and the match waits for
        it), then decides on the current view. In an open window it reacts from the
        moment the window was shown, as it would have had it been there. A seat whose
        spare bot exists (or is being taught) continues from it instead of replaying
        the match again; the other held and left seats without a bot get spares in the
        same pass."""
        t = self.table
        if not seats:
            return
        for seat in seats:
            seat.stand_in = stand_in
        if not t.actions and not t.saving.paused:  # nothing to learn yet (the match starts)
            lesson = Lesson(t, {seat.index: self.make_bot(seat.index) for seat in seats})
            for seat in seats:
                seat.driver = lesson.learner(seat.index)
            for _ in lesson.steps():
                pass
            return
        spares = self.spares
        fresh = []
        for seat in seats:
            spare = spares.get(seat.index)
            if isinstance(spare, Lesson) and not spare.over:
                seat.driver = spare.learner(seat.index)  # it is learning already
                continue
            spares.pop(seat.index, None)
            if isinstance(spare, tuple):  # learnt up to some step: go on from there
                bot, state, replayed = spare
                self._teach(Lesson(t, {seat.index: bot}, start=(state, replayed)), [seat])
            else:
                fresh.append(seat)
        if not fresh:
            return
        others = [s for s in t.seats if s not in seats and s.driver is None and (s.away or s.left)
                  and self.spare_of(s.index) is None]
        bots: dict[int, Any] = {seat.index: None for seat in fresh + others}  # made as it begins
        lesson = Lesson(t, bots, spares={s.index for s in others})
        for s in others:
            spares[s.index] = lesson
        self._teach(lesson, fresh)
        self.new_lesson = lesson

    def spare_for(self, seat: Seat) -> None:
        """``seat`` is held: if a lesson of this table has not begun yet (the seats of a
        table usually drop together), its bot learns there too, as a spare."""
        lesson = self.new_lesson
        if (lesson is None or lesson.begun or lesson.over or seat.driver is not None
                or seat.index in lesson.bots or self.spare_of(seat.index) is not None):
            return
        lesson.bots[seat.index] = None  # made as the lesson begins
        lesson.spares.add(seat.index)
        self.spares[seat.index] = lesson

    def spare_of(self, index: int) -> Any:
        """Seat ``index``'s spare: a :class:`Lesson` teaching it, ``(bot, state,
        actions replayed)`` once taught, or None."""
        spare = self.spares.get(index)
        return None if isinstance(spare, Lesson) and spare.over else spare

    def _teach(self, lesson: Lesson, seats: list[Seat]) -> None:
        """Run ``lesson`` on the teaching cooperator; ``seats`` wait for it (Learner)."""
        for seat in seats:
            seat.driver = lesson.learner(seat.index)
        lesson.task = teaching_cooperator(self.table.clock).cooperate(lesson.steps())
        lesson.task.whenDone().addErrback(self._failed, lesson)

    def _anchor(self) -> float:
        """Where a bot that starts deciding now counts its reaction from (server ms):
        when the open window was shown, else now."""
        t = self.table
        return t.claims.window_shown if t.claims.window is not None else t.now_ms()

    def _failed(self, failure: Any, lesson: Lesson) -> None:
        """The replay failed (a bug): logged, and each seat that waited for it gets a
        bot that knows only the current view, rather than the match waiting forever."""
        t = self.table
        if failure.check(task.TaskStopped, ReferenceError):
            return
        log.failure("table {id}: a bot could not learn the match", failure, id=t.id)
        if t.closed or t.status != "playing":
            return
        anchor = self._anchor()
        for seat in t.seats:
            if isinstance(seat.driver, Learner) and seat.driver.lesson is lesson:
                seat.driver = self._driver(seat.index, self.make_bot(seat.index))
                self.feed(seat, [], anchor)

    def learnt(self, lesson: Lesson) -> None:
        """``lesson``'s bots have seen every action: each seat still learning gets its
        :class:`BotDriver` and decides on the current view; spare bots are kept with
        the replay's state for later."""
        t = self.table
        anchor = self._anchor()
        spares = self.spares
        for index, bot in list(lesson.bots.items()):
            seat = t.seats[index]
            if index in lesson.spares:
                if spares.get(index) is lesson:
                    spares[index] = (bot, lesson.state, lesson.replayed)
                continue
            if not isinstance(seat.driver, Learner) or seat.driver.lesson is not lesson:
                continue
            seat.driver = self._driver(index, bot)
            self.feed(seat, [], anchor)
        lesson.bots.clear()

    def stop(self, seat: Seat) -> None:
        """The bot playing ``seat`` stops (if any); the seat has no stand-in."""
        if seat.driver is not None:
            seat.driver.stop()
        seat.driver, seat.stand_in = None, None

    def make_bot(self, seat: int) -> Any:
        """A new bot for ``seat`` of the table's kind and think time, seeded from the
        match seed and the seat (a random bot when the game has none of that kind)."""
        t = self.table
        settings = dict(t.config["bots"])
        settings["think_ms"] = t.bot_think_ms
        seed = f"{t.seed}/{seat}"
        # a seat the host gave a bot plays at the level asked; a player's stand-in at normal
        level = t.seats[seat].level if t.seats[seat].bot else DEFAULT_LEVEL
        if level == "hard" and t.thinkers is not None:
            t.thinkers.warm()  # its first search need not wait for a worker to start
        try:
            return make_bot(t.game.NAME, seat, seed=seed, settings=settings, kind=t.bot_kind, level=level)
        except (ImportError, KeyError):
            return make_bot(t.game.NAME, seat, seed=seed, settings=settings, kind="random")

    def _driver(self, seat: int, bot: Any) -> BotDriver:
        t = self.table

        def send(decision: Any, anchor: float) -> None:
            try:
                t.bot_send(seat, driver, decision, anchor)
            except ReferenceError:  # the table was freed: its bots have nothing to say
                driver.stop()

        # bots that think also wait for the screens to show each step (a turn is never
        # shorter than what it shows); bots that do not think (tests, benchmarks) stay instant
        shown = t.definition.shown if t.bot_think_ms > 0 else None
        # a hard bot's searches run in the server's worker pool, never on the reactor
        thinkers = t.thinkers
        driver = BotDriver(bot, t.clock.callLater, send, shown=shown, now=t.clock.seconds,
                           think=thinkers.think if thinkers is not None else None)
        return driver

    def feed(self, seat: Seat, events: list[dict[str, Any]], anchor: float) -> None:
        """Hand ``seat``'s bot an update: its events, its view and legal actions now;
        ``anchor``: server ms the update counts from (a claim's reaction)."""
        if seat.driver is None or isinstance(seat.driver, Learner):
            return
        t = self.table
        seat.driver.on_update(events, t.game.view(t.state, seat.index), t.legal(seat.index), anchor)
