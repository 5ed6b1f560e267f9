"""The arbiter: claim bounds, the collection window and the order of claims."""
from __future__ import annotations

from twisted.internet import task

from server.match.arbiter import TIE_MS, Arbiter, Claim, order_claims
from shared.games.omerta import Snap


def _claim(seat, press, receive=None):
    return Claim(seat, Snap(seat), press, press if receive is None else receive)


def test_order_by_press_not_by_arrival():
    a = _claim(0, 100.0, receive=140.0)
    b = _claim(1, 110.0, receive=111.0)
    assert order_claims([b, a], "s", 1) == [a, b]


def test_ties_are_deterministic_and_not_always_the_same_seat():
    winners = set()
    for window in range(1, 40):
        claims = [_claim(s, 100.0 + s * TIE_MS / 4) for s in range(4)]
        first = order_claims(claims, "seed", window)
        again = order_claims(list(reversed(claims)), "seed", window)
        assert [c.seat for c in first] == [c.seat for c in again]
        winners.add(first[0].seat)
    assert len(winners) > 1  # the tie rule favours no seat
    # outside the tie margin, the earlier press always wins
    claims = [_claim(3, 100.0), _claim(0, 100.0 + 2 * TIE_MS)]
    assert all(order_claims(claims, "seed", w)[0].seat == 3 for w in range(1, 20))


class _Recorder:
    def __init__(self):
        self.calls = []

    def __call__(self, window, ordered, first_receive):
        self.calls.append((window, [c.seat for c in ordered], first_receive))


def test_late_arriving_but_earlier_press_wins():
    clock = task.Clock()
    clock.advance(10.0)  # server time 10 000 ms
    decide = _Recorder()
    arb = Arbiter(clock, margin_ms=15, decide=decide)
    # seat 1 (near) pressed at 10 010, arrives at once; seat 0 (far, bound 60) pressed
    # at 10 005 and arrives 40 ms later.
    clock.advance(0.010)
    arb.submit(7, _claim(1, 10_010.0, 10_010.0), {0: 60.0, 2: 5.0})
    assert arb.deadline == 10_010.0 + 60 + 15
    clock.advance(0.035)
    arb.submit(7, _claim(0, 10_005.0, 10_045.0), {2: 5.0})
    # seat 2 could still deliver a press before 10 005 only until 10 005 + 5 + 15
    assert decide.calls == [(7, [0, 1], 10_010.0)]


def test_collection_waits_for_the_slowest_pending_seat_then_decides():
    clock = task.Clock()
    decide = _Recorder()
    arb = Arbiter(clock, margin_ms=15, decide=decide)
    clock.advance(1.0)
    arb.submit(3, _claim(2, 1000.0), {0: 40.0, 1: 5.0})
    clock.advance(0.054)
    assert decide.calls == []
    clock.advance(0.002)
    assert decide.calls == [(3, [2], 1000.0)]
    assert not arb.collecting


def test_single_eligible_player_decides_without_waiting():
    clock = task.Clock()
    decide = _Recorder()
    arb = Arbiter(clock, margin_ms=15, decide=decide)
    arb.submit(1, _claim(0, 0.0), {})
    assert decide.calls == [(1, [0], 0.0)]
    assert not clock.getDelayedCalls()


def test_last_pending_seat_passing_closes_the_collection_at_once():
    clock = task.Clock()
    decide = _Recorder()
    arb = Arbiter(clock, margin_ms=15, decide=decide)
    arb.submit(1, _claim(0, 0.0), {1: 100.0})
    assert decide.calls == []
    arb.update({})  # seat 1 passed
    assert decide.calls == [(1, [0], 0.0)]
    assert not clock.getDelayedCalls()


def test_flush_and_cancel():
    clock = task.Clock()
    decide = _Recorder()
    arb = Arbiter(clock, margin_ms=15, decide=decide)
    arb.submit(1, _claim(0, 0.0), {1: 100.0})
    arb.flush()  # the window timed out
    assert decide.calls == [(1, [0], 0.0)]
    arb.submit(2, _claim(0, 0.0), {1: 100.0})
    arb.cancel()
    clock.advance(1)
    assert len(decide.calls) == 1 and not arb.collecting
