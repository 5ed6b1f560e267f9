"""Spectators of one table (docs/PROTOCOL.md "Reconnection, spectators and the turn
timer"): what they are sent, and when.

Spectators only ever get what the table hands to :meth:`SpectatorFeed.send`: public
views (``view(state, None)``) and public events (``events_for(events, None)``), never a
seat's. With a delay of *D* seconds every message waits *D* seconds before it goes out
(a TV in the room cannot give the hand away), and a timer's ``deadline`` is moved *D*
seconds later so that the countdown matches what the spectator sees. A spectator who
arrives during a match is sent the public snapshot that delayed spectators are seeing
right now -- the view of *D* seconds ago -- and then the delayed stream from there.

A crowd is sent in batches: from :data:`BATCH_FROM` spectators on, what the
table sends them waits at most :data:`BATCH_MS` and leaves as one write per spectator
(each message encoded once, the same bytes to all), instead of one write and one
``send`` per spectator per message: a TV cannot tell 50 ms, and 100 spectators of a
saturated table cost 17 us each per action that way.
"""
from __future__ import annotations

from collections import deque
from typing import Any, Callable

from shared.protocol import encode

#: Spectators from which their stream is sent in batches (fewer: each message at once).
BATCH_FROM = 8
#: Longest wait of a message in a batch (ms).
BATCH_MS = 50.0


class SpectatorFeed:
    """The spectator stream of one table. ``clock`` is the table's ``IReactorTime``;
    ``delay_s`` the table's ``spectator_delay_s``."""

    def __init__(self, clock: Any, delay_s: float):
        self.clock = clock
        self.delay_ms = float(delay_s) * 1000.0
        self.conns: list[Any] = []
        self._queue: deque[tuple[float, str, dict[str, Any]]] = deque()  # (due ms, type, fields)
        self._call: Any = None
        #: What spectators see now: the last ``match_started``/``update`` delivered
        #: (its fields) and the last ``match_over`` (None before the end).
        self.snapshot: dict[str, Any] | None = None
        self.over: dict[str, Any] | None = None

    def __contains__(self, conn: Any) -> bool:
        return conn in self.conns

    def __len__(self) -> int:
        return len(self.conns)

    def now_ms(self) -> float:
        return self.clock.seconds() * 1000.0

    # -- who watches ----------------------------------------------------------------------
    def add(self, conn: Any, start: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        """A new spectator. When the (delayed) match is under way it gets a
        ``match_started`` built by ``start(snapshot_fields)`` from the snapshot spectators
        see now, and the ``match_over`` if that was delivered too."""
        self.conns.append(conn)
        if self.snapshot is not None:
            conn.push("match_started", **start(self.snapshot))
        if self.over is not None:
            conn.push("match_over", **self.over)

    def remove(self, conn: Any) -> None:
        if conn in self.conns:
            self.conns.remove(conn)

    # -- the stream -----------------------------------------------------------------------
    def send(self, msg_type: str, **fields: Any) -> None:
        """Send a public message to every spectator, after the delay (and within
        :data:`BATCH_MS` for a crowd of :data:`BATCH_FROM` or more)."""
        batch = len(self.conns) >= BATCH_FROM
        if self.delay_ms <= 0 and not batch and not self._queue:
            self._deliver(msg_type, fields)
            return
        self._queue.append((self.now_ms() + self.delay_ms, msg_type, fields))
        if self._call is None:
            wait = self.delay_ms + (BATCH_MS if batch else 0.0)
            self._call = self.clock.callLater(wait / 1000.0, self._flush)

    def _flush(self) -> None:
        self._call = None
        now = self.now_ms()
        due = []
        while self._queue and self._queue[0][0] <= now + 1e-6:
            _, msg_type, fields = self._queue.popleft()
            due.append((msg_type, self._shift_timer(fields) if self.delay_ms > 0 else fields))
        if len(due) == 1:
            self._deliver(*due[0])
        elif due:
            self._deliver_batch(due)
        if self._queue:
            wait = max(0.0, self._queue[0][0] - now)
            if len(self.conns) >= BATCH_FROM:
                wait = max(wait, BATCH_MS)
            self._call = self.clock.callLater(wait / 1000.0, self._flush)

    def _shift_timer(self, fields: dict[str, Any]) -> dict[str, Any]:
        timer = fields.get("timer")
        if isinstance(timer, dict):
            return {**fields, "timer": {**timer, "deadline": timer["deadline"] + self.delay_ms}}
        return fields

    def _remember(self, msg_type: str, fields: dict[str, Any]) -> None:
        """What a spectator arriving now must be sent first (:meth:`add`)."""
        if msg_type in ("match_started", "update"):
            self.snapshot = fields
            if msg_type == "match_started":
                self.over = None  # a new match at the table (play again)
        elif msg_type == "match_over":
            self.over = fields

    def _deliver_batch(self, due: list[tuple[str, dict[str, Any]]]) -> None:
        """Several messages at once: one write per spectator (each encoded once)."""
        for msg_type, fields in due:
            self._remember(msg_type, fields)
        data: bytes | None = None
        for conn in list(self.conns):
            raw = getattr(conn, "push_raw", None)
            if raw is None:  # a connection without the raw path (a test's stand-in)
                for msg_type, fields in due:
                    conn.push(msg_type, **fields)
                continue
            if data is None:
                data = b"".join(encode(msg_type, **fields) for msg_type, fields in due)
            raw(data)

    def _deliver(self, msg_type: str, fields: dict[str, Any]) -> None:
        self._remember(msg_type, fields)
        data: bytes | None = None
        for conn in list(self.conns):
            raw = getattr(conn, "push_raw", None)
            if raw is None:  # a connection without the raw path (a test's stand-in)
                conn.push(msg_type, **fields)
                continue
            if data is None:  # encoded once: the same bytes go to every spectator
                data = encode(msg_type, **fields)
            raw(data)

    def stop(self) -> None:
        """The table closes: what waits only for its batch goes out now; what a delay
        holds back is dropped (the delay is what a TV must not see yet)."""
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None
        if self.delay_ms <= 0 and self._queue:
            due = [(msg_type, fields) for _, msg_type, fields in self._queue]
            self._queue.clear()
            self._deliver(*due[0]) if len(due) == 1 else self._deliver_batch(due)
        self._queue.clear()
