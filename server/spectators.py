"""Spectators of one table (docs/PROTOCOL.md "Reconnection, spectators and the turn
timer"): what they are sent, and when.

Spectators only ever get what the table hands to :meth:`SpectatorFeed.send`: public
views (``view(state, None)``) and public events (``events_for(events, None)``), never a
seat's. With a delay of *D* seconds every message waits *D* seconds before it goes out
(a TV in the room cannot give the hand away), and a timer's ``deadline`` is moved *D*
seconds later so that the countdown matches what the spectator sees. A spectator who
arrives during a match is sent the public snapshot that delayed spectators are seeing
right now -- the view of *D* seconds ago -- and then the delayed stream from there.
"""
from __future__ import annotations

from collections import deque
from typing import Any, Callable

from shared.protocol import encode


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
        """Send a public message to every spectator, after the delay."""
        if self.delay_ms <= 0:
            self._deliver(msg_type, fields)
            return
        self._queue.append((self.now_ms() + self.delay_ms, msg_type, fields))
        if self._call is None:
            self._call = self.clock.callLater(self.delay_ms / 1000.0, self._flush)

    def _flush(self) -> None:
        self._call = None
        now = self.now_ms()
        while self._queue and self._queue[0][0] <= now + 1e-6:
            _, msg_type, fields = self._queue.popleft()
            self._deliver(msg_type, self._shift_timer(fields))
        if self._queue:
            self._call = self.clock.callLater(max(0.0, self._queue[0][0] - now) / 1000.0, self._flush)

    def _shift_timer(self, fields: dict[str, Any]) -> dict[str, Any]:
        timer = fields.get("timer")
        if isinstance(timer, dict):
            return {**fields, "timer": {**timer, "deadline": timer["deadline"] + self.delay_ms}}
        return fields

    def _deliver(self, msg_type: str, fields: dict[str, Any]) -> None:
        if msg_type in ("match_started", "update"):
            self.snapshot = fields
            if msg_type == "match_started":
                self.over = None  # a new match at the table (play again)
        elif msg_type == "match_over":
            self.over = fields
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
        """Drop what waits (the table closes)."""
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None
        self._queue.clear()
