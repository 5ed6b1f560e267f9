"""What every game table scene shares, whatever the game: who sits where, the message
column, the turn timer, spectators, and coming back after a lost connection.

* **Names** come from the app's latest ``table`` message for this table
  (``App.tables``), else from ``match_started.seats`` (PROTOCOL.md "Reconnection,
  spectators and the turn timer"), else "Seat n". A seat can be *away* (its player lost
  the connection and the server holds the seat, ``away: true``) or played by a bot.
* **Spectators**: ``Table.spectators`` is shown in the table's top bar for everybody.
* **Turn timer**: ``timer: {"seat", "deadline"}`` of ``match_started``/``update``
  (server ms) is kept as a deadline on this client's clock (ms, ``client.net.now_ms``).
* **Reconnection**: while a connection of this table is being re-opened by the app
  (:mod:`client.reconnect`), :attr:`TableScene.reconnecting` is that attempt and the
  table is drawn with an overlay; the server's ``match_started`` with ``resumed: true``
  then brings the table up to date (:meth:`TableScene.resume`).
* **Replays** (:mod:`client.scenes.replay`) drive a table scene with no connection:
  ``replay`` is then true (no results pop-up, nothing to send) and ``area`` the part of
  the window (w, h px) the table is drawn in.
"""
from __future__ import annotations

from typing import Any

from client.i18n import tr
from client.input import now_ms
from client.narrate import GOOD
from client.scenes.base import Scene

MSG_MS = 7000.0


class TableScene(Scene):
    """``link`` received ``started`` (a ``match_started``) and is the *display link*
    (the connection whose updates this screen shows)."""

    #: A replay's table (set on the instance before ``__init__``, see client.scenes.replay).
    replay = False
    #: (w, h) px the table is drawn in when it is not the whole window.
    area: tuple[int, int] | None = None

    def __init__(self, app: Any, link: Any, started: dict[str, Any]):
        super().__init__(app)
        self.table_id = started.get("table")
        self.game = str(started.get("game") or "")
        self.display = link
        self.public = started.get("seat") is None  # spectator display: nothing private here
        self.links: dict[int, Any] = {}  # local seat -> its connection
        self.t = 0.0  # scene clock, ms
        self.messages: list[tuple[str, tuple[int, int, int], float]] = []
        self.seat_info: dict[int, dict[str, Any]] = {}
        self.timer: tuple[int, float] | None = None  # (seat, deadline in client ms)
        self.fallback_name = str(started.get("name") or "")  # a replay's table name
        self.note_seats(started)
        self.note_timer(started, link)

    # -- size ---------------------------------------------------------------------------
    @property
    def table_size(self) -> tuple[int, int]:
        """The (w, h) px the table is drawn in: the window, or a replay's part of it."""
        return self.area or self.app.size

    # -- seats --------------------------------------------------------------------------
    def note_seats(self, msg: dict[str, Any]) -> None:
        """Remember ``msg["seats"]`` (``match_started``; a replay's header)."""
        for s in msg.get("seats") or []:
            if isinstance(s, dict) and isinstance(s.get("seat"), int):
                self.seat_info[s["seat"]] = {k: s.get(k) for k in ("seat", "name", "bot", "connected", "away")}

    def table_entry(self) -> dict[str, Any]:
        """The latest ``Table`` of this table the app was told about ({} if none)."""
        return (self.app.tables.get(self.table_id) or {}) if self.table_id is not None else {}

    def seat_entry(self, p: int) -> dict[str, Any]:
        seats = self.table_entry().get("seats") or []
        entry = next((s for s in seats if s.get("seat") == p), None)
        if entry is None or not entry.get("name"):
            entry = self.seat_info.get(p) or {}
        return entry

    def seat_name(self, p: int) -> str:
        name = self.seat_entry(p).get("name") or tr("table.seat", n=str(p + 1))
        if p in self.links and len(self.links) == 1:
            return tr("table.you", name=name)
        return name

    def seat_away(self, p: int) -> str:
        """The plate's note for a held seat: "away — reconnecting" (or that a bot plays
        it meanwhile), else ""."""
        e = self.seat_entry(p)
        if not e.get("away"):
            return ""
        return tr("table.away_bot") if e.get("bot") else tr("table.away")

    @property
    def spectators(self) -> int:
        return int(self.table_entry().get("spectators") or 0)

    def spectator_line(self) -> str:
        n = self.spectators
        return tr("table.spectators", n=str(n)) if n else ""

    # -- messages -----------------------------------------------------------------------
    def say(self, message: str, colour: tuple[int, int, int] = (243, 232, 207), ms: float = MSG_MS) -> None:
        self.messages.append((message, colour, self.t + ms))
        self.messages = self.messages[-30:]

    def visible_messages(self) -> list[tuple[str, tuple[int, int, int], float]]:
        return [m for m in self.messages if m[2] > self.t][-8:]

    # -- turn timer ---------------------------------------------------------------------
    def note_timer(self, msg: dict[str, Any], link: Any = None) -> None:
        """Keep ``msg["timer"]`` as a deadline on this client's clock (when present)."""
        if "timer" not in msg:
            return
        timer = msg.get("timer")
        if not isinstance(timer, dict) or not isinstance(timer.get("deadline"), (int, float)):
            self.timer = None
            return
        deadline = float(timer["deadline"])
        conn = getattr(link, "conn", None)
        local = conn.to_client_ms(deadline) if conn is not None and hasattr(conn, "to_client_ms") else None
        if local is None:  # no clock sync yet: count from the update's own server time
            t_server = msg.get("t_server")
            local = now_ms() + (deadline - float(t_server) if isinstance(t_server, (int, float)) else 0.0)
        self.timer = (int(timer.get("seat", -1)), local)

    def timer_left(self) -> tuple[int, float] | None:
        """(seat on the clock, seconds left >= 0), None without a turn timer."""
        if self.timer is None:
            return None
        seat, deadline = self.timer
        return seat, max(0.0, (deadline - now_ms()) / 1000.0)

    # -- reconnection -------------------------------------------------------------------
    @property
    def reconnecting(self) -> Any:
        """The app's reconnection attempt for a connection of this table, or None."""
        for link in [self.display, *self.links.values()]:
            attempt = getattr(link, "reconnect", None)
            if attempt is not None and attempt.active:
                return attempt
        return None

    def resumed_lines(self, msg: dict[str, Any], narrate: Any) -> None:
        """Tell the events missed while away (``msg["missed"]``), then that we are back."""
        missed = [e for e in msg.get("missed") or [] if isinstance(e, dict)]
        for ev in missed[-12:]:
            line = narrate(ev)
            if line is not None:
                self.say(line[0], line[1])
        self.say(tr("reconnect.back_missed") if missed else tr("reconnect.back"), GOOD, 6000)

    def leave_for_good(self, link: Any) -> None:
        """The server will not give this connection's seat back (grace period over): back
        to the menu, unless other players of this screen go on (couch play)."""
        if link is self.display or not self.links or set(self.links.values()) == {link}:
            self.app.go_menu()
        elif hasattr(self, "on_link_lost"):
            self.on_link_lost(link)
