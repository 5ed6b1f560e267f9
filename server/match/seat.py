"""One seat of a table (docs/PROTOCOL.md ``Table.seats``): free, a player's connection,
or a bot's; who plays it now and why."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Seat:
    """One seat: free, a player's connection, or a bot; ``driver`` is the bot playing it
    now (``stand_in`` says why, for a player's seat: ``"takeover"`` while it is held,
    ``"timer"`` for the rest of a turn whose time ran out, ``"left"`` while its player is
    gone -- left, or did not come back in time -- and may still come back with the
    token). ``driver`` is a :class:`shared.bots.driver.BotDriver`, or a
    :class:`server.match.standins.Learner` while its bot learns the match."""

    index: int
    conn: Any = None
    name: str | None = None
    bot: bool = False  # a bot plays this seat for good
    level: str = "normal"  # that bot's level (shared.bots.LEVELS); stand-ins play normal
    token: str | None = None  # the player's reconnect token, while it is valid
    key: str | None = None  # the key the player's client named its join with (never sent)
    away: bool = False  # held for its player, who lost the connection
    left: bool = False  # its player is gone: a bot plays it, the token still gives it back
    driver: Any = None
    stand_in: str | None = None
    grace_call: Any = None
    #: server ms before which no stand-in plays this held seat (its player may be back
    #: within moments: a dropped connection, a server restart); None: no such wait
    stand_in_at: float | None = None
    stand_in_call: Any = None

    @property
    def free(self) -> bool:
        return self.conn is None and not self.bot and not self.away and not self.left

    def summary(self) -> dict[str, Any]:
        """The protocol's seat object (``Table.seats[i]``); a left seat shows as a bot's
        (``"<name> (bot)"``), as it did when leaving gave the seat away for good.
        ``stand_in_at`` (only while a held seat waits for its player): the server ms at
        which a stand-in may play it (docs/PROTOCOL.md "Reconnection"); ``level`` (a bot
        the host seated only): its bot level."""
        out: dict[str, Any] = {
            "seat": self.index, "name": f"{self.name} (bot)" if self.left else self.name,
            "bot": self.bot or self.left or (self.away and self.driver is not None),
            "connected": self.bot or self.left or self.conn is not None, "away": self.away}
        if self.away and self.driver is None and self.stand_in_at is not None:
            out["stand_in_at"] = self.stand_in_at
        if self.bot:
            out["level"] = self.level
        return out

    def record(self) -> dict[str, Any]:
        """The seat as the match log keeps it (with its token; ``left`` when its player
        is gone and a bot plays it for him; ``key`` when the player's client named its join
        with one, so that asking again after a crash finds the seat)."""
        rec: dict[str, Any] = {"seat": self.index, "name": self.name, "bot": self.bot, "token": self.token}
        if self.bot and self.level != "normal":
            rec["level"] = self.level
        if self.key is not None:
            rec["key"] = self.key
        if self.left:
            rec["left"] = True
        return rec
