"""Whole matches between in-process bots on virtual time: for property tests, golden
replays and the self-play benchmark.

The bots run through the same :class:`shared.bots.driver.BotDriver` as on the server,
scheduled on a :class:`VirtualClock` instead of the reactor: a decision with a delay of
``d`` ms fires ``d`` ms of virtual time later, so the claims of a reaction window are
applied in order of their press time, exactly as the server's arbiter orders them, and a
window's timeout fires ``timeout_ms`` after it opened. Nothing here reads a real clock.
"""
from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Mapping, Sequence

from shared.bots.base import Bot, Decision
from shared.bots.driver import BotDriver
from shared.rules import Action, Event, IllegalAction


class _Call:
    __slots__ = ("clock", "when", "fn", "cancelled", "called")

    def __init__(self, clock: "VirtualClock", when: float, fn: Callable[[], None]):
        self.clock, self.when, self.fn = clock, when, fn
        self.cancelled = self.called = False

    def cancel(self) -> None:
        self.cancelled = True

    def active(self) -> bool:
        return not (self.cancelled or self.called)


class VirtualClock:
    """A minimal ``callLater`` scheduler on virtual seconds (like ``twisted``'s
    ``task.Clock``, which ``shared/`` may not import). Calls due at the same time run in
    the order they were scheduled."""

    def __init__(self) -> None:
        self.now = 0.0
        self._heap: list[tuple[float, int, _Call]] = []
        self._seq = itertools.count()

    def seconds(self) -> float:
        """Virtual time in seconds."""
        return self.now

    def callLater(self, delay_s: float, fn: Callable[[], None]) -> _Call:  # noqa: N802 (twisted's name)
        call = _Call(self, self.now + max(0.0, delay_s), fn)
        heapq.heappush(self._heap, (call.when, next(self._seq), call))
        return call

    def clear(self) -> None:
        """Forget every scheduled call."""
        self._heap.clear()

    def run_next(self) -> bool:
        """Run the earliest live call; False when nothing is scheduled."""
        while self._heap:
            when, _, call = heapq.heappop(self._heap)
            if call.active():
                self.now = when
                call.called = True
                call.fn()
                return True
        return False


@dataclass
class MatchRecord:
    """The outcome of :func:`play_match`: final state, the match log (``(seat, action)``
    with seat None for the table's timeouts), every event with its recipients' view, and
    the number of ``apply`` calls."""

    state: Any
    log: list[tuple[int | None, Action]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    applies: int = 0
    virtual_ms: float = 0.0


def play_match(
    rules: ModuleType,
    config: Mapping[str, Any],
    seed: int,
    bots: Sequence[Bot],
    *,
    max_applies: int = 200_000,
    on_apply: Callable[[Any, int | None, Action, list[Event]], None] | None = None,
) -> MatchRecord:
    """Play a whole match of ``rules`` between ``bots`` (one per seat).

    ``on_apply(state, seat, action, events)`` is called after every applied action
    (property tests check invariants there). Raises ``RuntimeError`` if the match has
    not ended after ``max_applies`` actions.
    """
    return _Match(rules, config, seed, bots, max_applies, on_apply).run()


class _Match:
    """The machinery of one :func:`play_match`: the bots behind their drivers on a
    virtual clock, every action applied and told to every seat (its events, view and
    legal actions) as the server does, each reaction window's timeout scheduled."""

    def __init__(self, rules: ModuleType, config: Mapping[str, Any], seed: int, bots: Sequence[Bot],
                 max_applies: int,
                 on_apply: Callable[[Any, int | None, Action, list[Event]], None] | None) -> None:
        self.rules = rules
        self.clock = VirtualClock()
        self.record = MatchRecord(rules.new_match(config, seed))
        self.max_applies = max_applies
        self.on_apply = on_apply
        self.window_timer: list[Any] = [None, None]  # [window id, call]
        self.drivers = [BotDriver(bot, self.clock.callLater, self._sender(i)) for i, bot in enumerate(bots)]
        self.updates = [driver.on_update for driver in self.drivers]

    def _sender(self, seat: int) -> Callable[[Decision, Any], None]:
        def send(decision: Decision, anchor: Any) -> None:
            self.apply(seat, decision.action)
        return send

    def run(self) -> MatchRecord:
        """Play until the match is over; the record. Raises ``RuntimeError`` when the
        bots stop acting first, or after ``max_applies`` actions."""
        record, is_over, clock = self.record, self.rules.is_over, self.clock
        try:
            self.broadcast([])
            while not is_over(record.state) and clock.run_next():
                pass
        finally:
            self.close()
        if not is_over(record.state):
            raise RuntimeError("bots stopped acting before the match ended")
        record.virtual_ms = clock.now * 1000.0
        return record

    def close(self) -> None:
        """Unlink what refers back to this match -- the drivers' sends and pending
        decisions, the clock's calls (which point back to the clock), the window's
        timeout -- so that the match and its record, every state and event, go by
        reference counting when the caller drops the record, not at the collector's
        next full pass (those cycles were a tenth of Omerta's self-play time)."""
        for driver in self.drivers:
            driver.stop()
        self.clock.clear()
        self.drivers, self.updates, self.window_timer = [], [], [None, None]

    def broadcast(self, events: list[Event]) -> None:
        rules, state, updates = self.rules, self.record.state, self.updates
        legal_actions, view = rules.legal_actions, rules.view
        mine = events_by_seat(events, len(updates))
        for seat, update in enumerate(updates):
            legal = legal_actions(state, seat)
            update(mine[seat], view(state, seat), legal)
        window = rules.reaction_window(state)
        timer = self.window_timer
        if window is not None and window.id != timer[0]:
            if timer[1] is not None and timer[1].active():
                timer[1].cancel()
            action = rules.timeout_action(window)
            timer[0] = window.id
            timer[1] = self.clock.callLater(window.timeout_ms / 1000.0, lambda: self.apply(None, action))

    def apply(self, seat: int | None, action: Action) -> None:
        record = self.record
        if self.rules.is_over(record.state):
            return
        try:
            state, events = self.rules.apply(record.state, seat, action)
        except IllegalAction:
            if seat is None:
                return  # the window closed before its timeout fired
            raise
        record.state = state
        record.log.append((seat, action))
        record.events.extend(events)
        record.applies += 1
        if self.on_apply is not None:
            self.on_apply(state, seat, action, events)
        if record.applies > self.max_applies:
            raise RuntimeError(f"match not over after {self.max_applies} actions")
        self.broadcast(events)


def events_by_seat(events: Sequence[Event], seats: int) -> list[list[dict[str, Any]]]:
    """``[events_for(events, seat) for seat in range(seats)]``, in one pass: the wire
    form of a public event is built once and the same dict goes to every seat (a seat
    with the event's secret gets its own), so, as with views, the event dicts of one
    update are shared between the seats: read them, do not mutate them."""
    out: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
    for e in events:
        to = e.to
        if to is not None:  # private: only that seat (Event.visible_to)
            if to in range(seats):
                out[to].append(e.for_seat(to))
            continue
        public = {"type": e.type, **e.data}
        secret, secret_to = e.secret, e.secret_to
        if secret is None or secret_to not in range(seats):
            for mine in out:
                mine.append(public)
        else:
            for seat, mine in enumerate(out):
                mine.append({**public, **secret} if seat == secret_to else public)
    return out


def replay(rules: ModuleType, config: Mapping[str, Any], seed: int,
           log: Sequence[tuple[int | None, Action]]) -> Any:
    """The state after applying ``log`` to a new match: a match log is its replay
    (RULES.md §0.2 item 2). Raises :class:`IllegalAction` if the log does not fit."""
    state = rules.new_match(config, seed)
    for seat, action in log:
        state, _ = rules.apply(state, seat, action)
    return state
