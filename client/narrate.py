"""What every game's narration shares: the colours of the message column's lines, who
an event is about, and the line for a claim's outcome (``claim_result``).

A game's ``narrate(ev, name, local)`` (``client/games/<game>/narrate.py``) returns a
:data:`Line` -- ``(text, RGB colour, sound cue or None)`` -- for one wire event, or None
for an event that needs no line.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from client.i18n import server_text, tr

INFO = (243, 232, 207)
GOOD = (150, 235, 140)
BAD = (255, 140, 120)
NOTE = (255, 214, 102)

Line = tuple[str, tuple[int, int, int], str | None]


#: A game's narration: ``narrate(ev, name, local)`` -> the :data:`Line` of one event, or None.
Narrate = Callable[[Mapping[str, Any], Callable[[int], str], set[int]], "Line | None"]


def narrator(handlers: Mapping[str, Narrate]) -> Narrate:
    """A game's ``narrate`` from its handlers, one per event type (``_on_<type>``): an
    event of another type has no line."""

    def narrate(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
        """The line (text, RGB colour, sound cue) telling one event, None for no line."""
        handler = handlers.get(ev.get("type"))  # type: ignore[arg-type]
        return handler(ev, name, local) if handler is not None else None

    return narrate


def turn_moment(view: Mapping[str, Any]) -> tuple[Any, Any]:
    """The history's ``(round, turn)`` in ``view`` of a game with turns only (no rounds):
    ``(None, view["turn_no"])``."""
    return (None, view.get("turn_no"))


def turn_moment_after(ev: Mapping[str, Any], now: tuple[Any, Any]) -> tuple[Any, Any]:
    """The history's ``(round, turn)`` after ``ev`` in a game with turns only: a turn
    starts with its ``turn`` event."""
    return (None, ev.get("turn_no", now[1])) if ev.get("type") == "turn" else now


def subject(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> tuple[Any, str, bool]:
    """``(type, who, mine)`` of an event: its type, the display name of its ``seat``
    ("" without one), and whether that seat is played on this screen."""
    seat = ev.get("seat")
    return ev.get("type"), name(seat) if isinstance(seat, int) else "", seat in local


def claim_result(msg: Mapping[str, Any]) -> Line:
    """The line for a ``claim_result``: "You were first, by 14 ms!", "Too slow by 9 ms"..."""
    outcome = msg.get("outcome")
    margin = msg.get("margin_ms")
    ms = f"{abs(float(margin)):.0f}" if isinstance(margin, (int, float)) else "?"
    if outcome == "won":
        return (tr("claim.won_by", ms=ms) if margin else tr("claim.won"), GOOD, None)
    if outcome == "wrong":
        return (tr("claim.wrong"), BAD, None)
    if outcome == "too_slow":
        return (tr("claim.too_slow", ms=ms), BAD, "snap_lost")
    return (tr("claim.refused", reason=server_text(msg.get("sentence"), str(msg.get("message") or ""))), BAD, None)
