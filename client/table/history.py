"""A match's history: every line the narration told, under the round and turn it happened
in ("Round 2 · Turn 5" then "Marco draws from the pile."), shown by the message column
and by the full history view (:mod:`client.table.history_view`).

Rows are kept as the message column draws them, ``(text, RGB colour, until)`` with
``until`` infinite, and each has its place in the match beside it (:class:`Mark`). A
row that starts a new round or turn is a header row. At most :data:`LIMIT` rows are
kept: a long evening must not grow memory, and the oldest rows go first.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

Colour = tuple[int, int, int]
#: Where a line happened: ``(round, turn)``, either None when the game has none (yet).
Moment = tuple["int | None", "int | None"]
Row = tuple[str, Colour, float]

#: The most rows a table keeps (headers included).
LIMIT = 3000
HEADER = (232, 196, 112)
FOREVER = float("inf")


class Mark(NamedTuple):
    """A row's place in the match: its moment and whether it is that moment's header."""

    moment: Moment
    header: bool


class History:
    """The rows of one match, oldest first. ``label(moment)`` is a header's text (the
    table's :meth:`~client.table.base.TableScene.moment_label`)."""

    def __init__(self, label: Callable[[Moment], str], limit: int = LIMIT):
        self.label = label
        self.limit = limit
        self.rows: list[Row] = []
        self.marks: list[Mark] = []
        #: Rows ever added (kept or dropped): the absolute number of the row after the last.
        self.total = 0
        self._moment: Moment | None = None  # the moment of the last row

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def moment(self) -> Moment | None:
        """The moment of the last line kept (None: none yet)."""
        return self._moment

    def add(self, moment: Moment, text: str, colour: Colour) -> int:
        """Keep the line ``text`` told at ``moment``, under a header when the moment
        changed. Returns how many rows were added (1 or 2)."""
        added = 0
        if moment != self._moment:
            head = self.label(moment)
            if head:
                self._append((head, HEADER, FOREVER), Mark(moment, True))
                added += 1
        self._moment = moment
        self._append((text, colour, FOREVER), Mark(moment, False))
        return added + 1

    def _append(self, row: Row, mark: Mark) -> None:
        self.rows.append(row)
        self.marks.append(mark)
        self.total += 1
        if len(self.rows) > self.limit + self.limit // 10:  # drop in chunks: rarely, not per row
            cut = len(self.rows) - self.limit
            del self.rows[:cut]
            del self.marks[:cut]

    def truncate(self, total: int) -> bool:
        """Forget the rows added after the first ``total`` ever added (a replay seeking
        back). False, changing nothing, once old rows were dropped: the history would
        then be shorter than told afresh."""
        if self.total > len(self.rows):
            return False
        del self.rows[total:]
        del self.marks[total:]
        self.total = len(self.rows)
        self._moment = self.marks[-1].moment if self.marks else None
        return True

    def clear(self) -> None:
        self.rows.clear()
        self.marks.clear()
        self.total = 0
        self._moment = None

    def lines(self) -> list[tuple[int | None, int | None, str]]:
        """``(round, turn, text)`` of every line kept (headers left out), oldest first."""
        return [(m.moment[0], m.moment[1], r[0]) for r, m in zip(self.rows, self.marks) if not m.header]
