"""A table paused by the server, on screen (docs/PROTOCOL.md ``table_paused``): while a
restored match waits for its players (``until``: server ms when it goes on anyway) the
notice at the top of the window counts the seconds down; a pause without an end (the
server cannot save the match) is said once."""
from __future__ import annotations

import math
from typing import Any, Callable

from client.i18n import tr
from client.input import now_ms


def to_client_ms(server_ms: float, links: list[Any]) -> float | None:
    """``server_ms`` on this client's clock (ms, :func:`client.input.now_ms`), through the
    clock sync of the first of ``links`` that has one; None before any sync."""
    for link in links:
        conn = getattr(link, "conn", None)
        local = conn.to_client_ms(server_ms) if conn is not None and hasattr(conn, "to_client_ms") else None
        if local is not None:
            return float(local)
    return None


def seconds_left(deadline_ms: float) -> int:
    """Whole seconds until ``deadline_ms`` (client ms), rounded up, never below 0."""
    return max(0, math.ceil((deadline_ms - now_ms()) / 1000.0))


class PauseClock:
    """The end of the table's current pause on this client's clock (ms), or None."""

    def __init__(self) -> None:
        self.until: float | None = None
        self.waiting = False  # the pause is a restarted server's wait for its players
        self._shown: int | None = None  # the seconds the notice says now

    def paused(self, msg: dict[str, Any], links: list[Any]) -> None:
        """``table_paused``: keep its ``until`` (server ms) on this client's clock: the
        server's own wait (``until - t_server``) counted from now, a few ms off at most
        and right even when the server restarted under a clock sync made with its former
        process; through the clock sync when ``t_server`` is missing."""
        until = msg.get("until")
        self._shown = None
        if not isinstance(until, (int, float)) or isinstance(until, bool):
            self.until, self.waiting = None, False
            return
        self.waiting = True
        t_server = msg.get("t_server")
        if isinstance(t_server, (int, float)) and not isinstance(t_server, bool):
            self.until = now_ms() + float(until) - float(t_server)
        else:
            self.until = to_client_ms(float(until), links) or now_ms()

    def resumed(self) -> bool:
        """``table_resumed``: the pause is over. True when it was the wait for the players."""
        waiting = self.waiting
        self.until, self._shown, self.waiting = None, None, False
        return waiting

    def line(self) -> str:
        """The countdown's sentence ("... goes on in 14 s"), "" without one."""
        if self.until is None:
            return ""
        return tr("table.paused_restart", n=str(seconds_left(self.until)))

    def tick(self, notify: Callable[[str, float], None]) -> None:
        """Once per frame: when the whole seconds left changed, ``notify(line, seconds)``
        shows the new count (the app's one-line notice)."""
        if self.until is None:
            return
        left = seconds_left(self.until)
        if left != self._shown:
            self._shown = left
            notify(self.line(), left + 1.0)
        if left <= 0:
            self.until = None  # the server goes on by itself: its table_resumed follows
