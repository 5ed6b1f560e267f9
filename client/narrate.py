"""What every game's narration shares: the colours of the message column's lines and
who an event is about.

A game's ``narrate(ev, name, local)`` (:mod:`client.omerta_narrate`,
:mod:`client.famiglia_narrate`) returns a :data:`Line` -- ``(text, RGB colour, sound cue
or None)`` -- for one wire event, or None for an event that needs no line.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

INFO = (243, 232, 207)
GOOD = (150, 235, 140)
BAD = (255, 140, 120)
NOTE = (255, 214, 102)

Line = tuple[str, tuple[int, int, int], str | None]


def subject(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> tuple[Any, str, bool]:
    """``(type, who, mine)`` of an event: its type, the display name of its ``seat``
    ("" without one), and whether that seat is played on this screen."""
    seat = ev.get("seat")
    return ev.get("type"), name(seat) if isinstance(seat, int) else "", seat in local
