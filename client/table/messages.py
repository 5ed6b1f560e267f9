"""The message column of a table: the match's history (every line the narration told,
kept, :mod:`client.table.history`) and short notes (a refused action, "press Esc
again"), each shown for a while (ms on the scene's clock). Scrolled back, it shows older
rows of the history and how many newer ones wait below."""
from __future__ import annotations

from typing import Callable

from client.i18n import tr
from client.table.history import FOREVER, History, Moment, Row

MSG_MS = 7000.0
#: The most rows :meth:`MessageColumn.visible` gives (the column draws as many as fit).
SHOWN = 40

Colour = tuple[int, int, int]
DIM = (190, 178, 156)


class MessageColumn:
    """The history of the match (``history``, headers from ``label(moment)``) and the
    last 30 notes said, each ``(text, RGB colour, until)``; ``clock()`` is the scene
    time (ms). ``scroll``: how many rows back from the newest the column shows."""

    def __init__(self, clock: Callable[[], float], label: Callable[[Moment], str] | None = None):
        self.clock = clock
        self.messages: list[tuple[str, Colour, float]] = []
        self.history = History(label or (lambda moment: ""))
        self.scroll = 0
        self._newer: tuple[int, str, Row] | None = None  # the "n newer rows" row last shown

    def say(self, message: str, colour: Colour = (243, 232, 207), ms: float = MSG_MS) -> None:
        """Show the note ``message`` for ``ms`` ms (not kept in the history)."""
        self.messages.append((message, colour, self.clock() + ms))
        self.messages = self.messages[-30:]

    def tell(self, moment: Moment, message: str, colour: Colour) -> None:
        """Keep the line ``message`` of the match, told at ``moment`` (round, turn). A
        column scrolled back stays on the rows it shows."""
        added = self.history.add(moment, message, colour)
        if self.scroll:
            self.scroll += added

    def scroll_by(self, rows: int) -> None:
        """Scroll ``rows`` rows back (> 0: older), within the history kept."""
        self.scroll = max(0, min(len(self.history) - 1, self.scroll + rows))

    def visible(self) -> list[tuple[str, Colour, float]]:
        """What the column shows, newest at the end: the last rows of the history and the
        notes still up; scrolled back, older rows and a last row saying how many newer
        rows wait. The rows are the history's own objects (the tables' base frames
        compare them by identity)."""
        rows = self.history.rows
        if self.scroll <= 0:
            now = self.clock()
            return rows[-SHOWN:] + [m for m in self.messages if m[2] > now][-8:]
        end = len(rows) - self.scroll
        return rows[max(0, end - SHOWN):end] + [self._newer_row(self.scroll)]

    def _newer_row(self, n: int) -> Row:
        said = tr("history.newer", n=str(n))
        if self._newer is None or self._newer[:2] != (n, said):
            self._newer = (n, said, (said, DIM, FOREVER))
        return self._newer[2]
