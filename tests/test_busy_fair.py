"""Issue 14, "busy but fair": the server measures its own lag (how late its reactor runs
timers, which is how long a line may wait in a socket before it is read) and widens the
claim bounds and the closing of a collection or a window by it, so that a claim or an
answer sent in time is never refused or late because the server was busy. On a
``task.Clock`` (the other tests) nothing changes: lines are read at once there."""
from __future__ import annotations

from typing import Any

from twisted.internet import task

from server import pacing
from server.match.arbiter import Arbiter, Claim
from server.pacing import MAX_LAG_MS, ReactorLag, after_queued_input, lag_ms


class BusyReactor:
    """What ``reactor_lag`` looks for behind a clock: a real reactor (threads)."""

    def callInThread(self, f: Any, *a: Any) -> None:  # pragma: no cover - never called
        raise AssertionError


class ReactorClock(task.Clock):
    """A test clock that passes for a real reactor's ``MonotonicClock``."""

    def __init__(self) -> None:
        super().__init__()
        self._reactor = BusyReactor()


def test_the_lag_is_how_late_the_reactor_runs_its_timers():
    clock = task.Clock()
    lag = ReactorLag(clock, period_s=0.1, keep=20)
    for _ in range(5):
        clock.advance(0.1)
    assert lag.lag_ms() == 0.0
    clock.advance(0.18)  # the reactor was busy: the tick due 80 ms ago runs only now
    assert abs(lag.lag_ms() - 80.0) < 1e-6
    for _ in range(25):  # 2.5 s of a reactor that keeps up: forgotten
        clock.advance(0.1)
    assert lag.lag_ms() == 0.0
    clock.advance(5.0)  # a stall is capped: beyond it the server is overloaded
    assert lag.lag_ms() == MAX_LAG_MS
    lag.stop()
    assert not clock.getDelayedCalls()


def test_a_test_clock_has_no_lag_and_runs_at_once():
    clock = task.Clock()
    ran = []
    assert after_queued_input(clock, ran.append, 1) is None and ran == [1]
    assert lag_ms(clock) == 0.0


def test_a_collection_waits_for_claims_queued_while_the_server_was_busy():
    clock = ReactorClock()
    lag = pacing.reactor_lag(clock)
    assert isinstance(lag, ReactorLag)
    clock.advance(0.1)
    clock.advance(0.14)  # busy: 40 ms late
    assert abs(lag.lag_ms() - 40.0) < 1e-6
    decided: list[list[int]] = []
    arb = Arbiter(clock, 15.0, lambda w, ordered, first: decided.append([c.seat for c in ordered]))
    now = clock.seconds() * 1000.0
    # seat 0 claims (reaction 300 ms); seat 1 could still beat it: its bound is 50 ms
    arb.submit(1, Claim(0, None, now, now, shown=now - 300.0), {1: 50.0}, sent=now - 300.0)
    deadline = arb.deadline
    clock.advance((deadline - now) / 1000.0 + 0.001)  # the collection's time is up...
    assert decided == []  # ... but lines that arrived meanwhile are read first
    later = clock.seconds() * 1000.0
    # seat 1's faster claim (reaction 250 ms) was waiting in its socket: it counts
    arb.claims.append(Claim(1, None, later - 10.0, later, shown=later - 260.0))
    clock.advance(0.05)
    assert decided == [[1, 0]]
    lag.stop()
