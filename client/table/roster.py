"""Who sits where at a table on screen: the names, bots, away seats and spectators the
table's plates and top bar show.

Names come from the app's latest ``table`` message for this table (``App.tables``),
else from ``match_started.seats`` (PROTOCOL.md "Reconnection, spectators and the turn
timer"), else "Seat n". A seat can be *away* (its player lost the connection and the
server holds the seat, ``away: true``) or played by a bot. While nobody plays an away
seat and the server said when a stand-in may (``stand_in_at``, server ms), its plate
counts the seconds down ("away — a bot plays in 4 s").
"""
from __future__ import annotations

from typing import Any, Protocol

from client.i18n import plural_key, tr
from client.table.pause import seconds_left, to_client_ms


class RosterOwner(Protocol):
    """What the roster reads of its table scene."""

    app: Any  # ``tables``: table id -> the latest ``Table`` dict
    table_id: Any
    display: Any  # the connection whose messages this screen shows (its clock sync)
    links: dict[int, Any]  # local seat -> its connection
    public: bool  # this screen shows the table through a spectator connection
    replay: bool


class SeatRoster:
    """The seats of ``owner``'s table; ``fallback_name`` names a table the app was not
    told about (a replay's)."""

    def __init__(self, owner: RosterOwner, fallback_name: str = ""):
        self.owner = owner
        self.fallback_name = fallback_name
        #: seat -> ``{seat, name, bot, connected, away, stand_in_at}`` from ``match_started.seats``.
        self.seat_info: dict[int, dict[str, Any]] = {}

    def note_seats(self, msg: dict[str, Any]) -> None:
        """Remember ``msg["seats"]`` (``match_started``; a replay's header)."""
        for s in msg.get("seats") or []:
            if isinstance(s, dict) and isinstance(s.get("seat"), int):
                self.seat_info[s["seat"]] = {k: s.get(k) for k in ("seat", "name", "bot", "connected", "away",
                                                                   "stand_in_at")}

    def table_entry(self) -> dict[str, Any]:
        """The latest ``Table`` of this table the app was told about ({} if none)."""
        tid = self.owner.table_id
        return (self.owner.app.tables.get(tid) or {}) if tid is not None else {}

    @property
    def table_name(self) -> str:
        return str(self.table_entry().get("name") or self.fallback_name)

    def seat_entry(self, p: int) -> dict[str, Any]:
        seats = self.table_entry().get("seats") or []
        entry = next((s for s in seats if s.get("seat") == p), None)
        if entry is None or not entry.get("name"):
            entry = self.seat_info.get(p) or {}
        return entry

    def seat_of(self, link: Any) -> int | None:
        """The local seat ``link`` plays, None for none (the spectator display link)."""
        return next((s for s, lk in self.owner.links.items() if lk is link), None)

    def seat_name(self, p: int) -> str:
        """The name on seat ``p``'s plate ("You (name)" for the one local player)."""
        name = self.seat_entry(p).get("name") or tr("table.seat", n=str(p + 1))
        links = self.owner.links
        if p in links and len(links) == 1:
            return tr("table.you", name=name)
        return name

    def seat_away(self, p: int) -> str:
        """The plate's note for a held seat: "away — a bot plays in 4 s" while the server
        keeps stand-ins off it (``stand_in_at``), "away — reconnecting", or that a bot
        plays it meanwhile; else ""."""
        e = self.seat_entry(p)
        if not e.get("away"):
            return ""
        if e.get("bot"):
            return tr("table.away_bot")
        left = self.stand_in_left(p)
        return tr("table.away_countdown", n=str(left)) if left else tr("table.away")

    def stand_in_left(self, p: int) -> int | None:
        """Whole seconds (rounded up) before a stand-in may play the away seat ``p``;
        None when the server set no such wait or this client has no clock sync yet."""
        at = self.seat_entry(p).get("stand_in_at")
        if not isinstance(at, (int, float)) or isinstance(at, bool):
            return None
        owner = self.owner
        local = to_client_ms(float(at), [getattr(owner, "display", None), *owner.links.values()])
        return None if local is None else seconds_left(local)

    @property
    def spectators(self) -> int:
        """How many others watch the table: the server's count of spectator connections
        less this screen's own (a couch game's shared screen, a TV view), which is
        nobody watching."""
        n = int(self.table_entry().get("spectators") or 0)
        if self.owner.public and not self.owner.replay:
            n -= 1
        return max(0, n)

    def spectator_line(self) -> str:
        n = self.spectators
        if n <= 0:
            return ""  # nobody watches: nothing to say
        return tr(plural_key("table.spectators", n), n=str(n))
