"""The message column of a table: the lines telling the match, each shown for a while
(ms on the scene's clock)."""
from __future__ import annotations

from typing import Callable

MSG_MS = 7000.0

Colour = tuple[int, int, int]


class MessageColumn:
    """The last 30 lines said, each ``(text, RGB colour, until)``; ``clock()`` is the
    scene time (ms)."""

    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self.messages: list[tuple[str, Colour, float]] = []

    def say(self, message: str, colour: Colour = (243, 232, 207), ms: float = MSG_MS) -> None:
        """Show ``message`` for ``ms`` ms."""
        self.messages.append((message, colour, self.clock() + ms))
        self.messages = self.messages[-30:]

    def visible(self) -> list[tuple[str, Colour, float]]:
        """The lines still up, at most the last 8."""
        now = self.clock()
        return [m for m in self.messages if m[2] > now][-8:]
