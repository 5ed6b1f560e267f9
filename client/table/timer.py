"""The turn timer of a table on screen: ``timer: {"seat", "deadline"}`` of
``match_started``/``update`` (server ms) kept as a deadline on this client's clock (ms,
``client.input.now_ms``)."""
from __future__ import annotations

from typing import Any

from client.input import now_ms


class TurnTimer:
    """The seat on the clock and its deadline (client ms), or nothing."""

    def __init__(self) -> None:
        #: (seat, deadline in client ms), None without a turn timer.
        self.turn: tuple[int, float] | None = None

    def note(self, msg: dict[str, Any], link: Any = None) -> None:
        """Keep ``msg["timer"]`` (when present) as a deadline on this client's clock,
        through ``link``'s clock sync (else counted from the message's ``t_server``)."""
        if "timer" not in msg:
            return
        timer = msg.get("timer")
        if not isinstance(timer, dict) or not isinstance(timer.get("deadline"), (int, float)):
            self.turn = None
            return
        deadline = float(timer["deadline"])
        conn = getattr(link, "conn", None)
        local = conn.to_client_ms(deadline) if conn is not None and hasattr(conn, "to_client_ms") else None
        if local is None:  # no clock sync yet: count from the update's own server time
            t_server = msg.get("t_server")
            local = now_ms() + (deadline - float(t_server) if isinstance(t_server, (int, float)) else 0.0)
        self.turn = (int(timer.get("seat", -1)), local)

    def left(self) -> tuple[int, float] | None:
        """(seat on the clock, seconds left >= 0), None without a turn timer."""
        if self.turn is None:
            return None
        seat, deadline = self.turn
        return seat, max(0.0, (deadline - now_ms()) / 1000.0)
