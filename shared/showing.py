"""How long the screens at a table take to show a step's events (ms). Bots wait for
this before their next turn action, so a turn is never shorter than what it shows
(ARCHITECTURE §3).

Each game says how its screens show each event in ``shared/games/<game>/showing.py``
(``shown(ev) -> Shown | None``, declared as ``GameDef.shown``). Its client effects
(``client/games/<game>/fx.py``) take their durations from that module.
``tests/test_showing.py`` plays the real client effects for every step of whole matches
and checks that this timeline ends exactly when they do.

A screen plays events one after the other (``client.animation.Animator.slot``). Each
one starts once the one before it has moved the queue on (``Shown.queue_ms``), but never
more than :data:`MAX_BACKLOG_MS` after the event arrived, so a burst of events speeds up.
Some events start at once (``Shown.at_once``): a card that may open a reaction window
has to be readable straight away. Only the public part of an event counts here. A
screen that shows a private card for longer (your own peek) does so for you alone, and
the table does not wait for it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

#: How far behind the moment it arrives an event's animation may start (ms).
MAX_BACKLOG_MS = 600.0


@dataclass(frozen=True)
class Shown:
    """How a screen shows one event. ``queue_ms``: how long after its start the next
    event may start. ``end_ms``: when its last effect is over, counted from its start
    (0: nothing is drawn). ``at_once``: it starts when it arrives, whatever still plays.
    Both times are in ms."""

    queue_ms: float
    end_ms: float
    at_once: bool = False


#: A game's ``shown(ev)``: how one wire event (a dict) is shown, None when it is not.
ShownOf = Callable[[Mapping[str, Any]], "Shown | None"]


class Stage:
    """What the table's screens are still showing, on the caller's clock (ms): the
    animation queue of ``client.animation.Animator``, driven by the same events.
    ``shown_of`` is the game's ``shown``."""

    __slots__ = ("shown_of", "cursor", "end")

    def __init__(self, shown_of: ShownOf):
        self.shown_of = shown_of
        self.cursor = float("-inf")  # when the next queued event may start (ms)
        self.end = float("-inf")  # when everything shown so far is over (ms)

    def show(self, events: Iterable[Mapping[str, Any]], now_ms: float) -> float:
        """Queue ``events``, which arrived at ``now_ms``. Returns :attr:`end`, the ms
        when the screens have shown everything so far."""
        cursor, end = self.cursor, self.end
        for ev in events:
            s = self.shown_of(ev)
            if s is None:
                continue
            if s.at_once:
                start = now_ms
                cursor = max(cursor, now_ms + s.queue_ms)
            else:
                start = max(now_ms, min(cursor, now_ms + MAX_BACKLOG_MS))
                cursor = start + s.queue_ms
            if s.end_ms > 0:
                end = max(end, start + s.end_ms)
        self.cursor, self.end = cursor, end
        return end


def shown_ms(events: Iterable[Mapping[str, Any]], shown_of: ShownOf) -> float:
    """How long (ms) a screen that had nothing left to show takes to show ``events``
    (0 when none of them shows anything)."""
    return max(0.0, Stage(shown_of).show(events, 0.0))
