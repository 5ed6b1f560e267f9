"""server/timers.py: a timer moved later stays the same call; moved sooner it is
replaced (Twisted's reset to an earlier time searches every pending timer)."""
from __future__ import annotations

from twisted.internet import task

from server.timers import reschedule


def test_reschedule_moves_later_in_place_and_replaces_to_come_sooner():
    clock = task.Clock()
    fired: list[float] = []
    first = clock.callLater(1.0, lambda: fired.append(clock.seconds()))
    later = reschedule(clock, first, 2.0, lambda: fired.append(-1.0))
    assert later is first and first.getTime() == 2.0  # in place: the original function
    sooner = reschedule(clock, later, 0.5, lambda: fired.append(clock.seconds()))
    assert sooner is not first and first.cancelled and sooner.getTime() == 0.5
    clock.advance(0.5)
    assert fired == [0.5]
    again = reschedule(clock, sooner, 0.25, lambda: fired.append(clock.seconds()))  # fired: a new one
    assert again is not sooner
    clock.advance(0.25)
    assert fired == [0.5, 0.75]
    assert reschedule(clock, None, 1.0, lambda: None).getTime() == 1.75
