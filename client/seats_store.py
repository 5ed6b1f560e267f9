"""The player's seats, kept on disk so a restarted client can sit back down
(PROTOCOL.md "Reconnection": a seat's token stays valid until
its match ends, also after a ``leave`` and after the stand-in bot took over).

``platformdirs.user_data_dir("mafia-table")/seats.json`` is a JSON list of entries::

    {"server": "host:port", "table": int, "table_name": str, "game": str,
     "seat": int, "token": str, "step": int | null, "saved_at": float (Unix s)}

one per (server, table). It is written atomically (a temporary file in the same
directory, then ``os.replace``), so a client killed while writing leaves the previous
list. Entries older than :data:`MAX_AGE_S` are pruned whenever the file is read or
written; the app forgets an entry when its match ends (``match_over``), when its lobby
is left before the start, or when the server refuses the token. Reading never raises: a
missing, unreadable or malformed file is an empty list (malformed entries are dropped).
"""
from __future__ import annotations

import json
import os
import tempfile
import time
from typing import Any, Callable

import platformdirs

#: Entries older than this (s) are dropped: no LAN evening's match lasts a day.
MAX_AGE_S = 24 * 3600.0
#: ``step`` updates are written at most this often (s); a stale step only means the
#: server sends a few more ``missed`` events.
STEP_WRITE_S = 5.0
FIELDS = {"server": str, "table": int, "table_name": str, "game": str, "seat": int, "token": str}


def default_path() -> str:
    return os.path.join(platformdirs.user_data_dir("mafia-table"), "seats.json")


def server_key(address: tuple[str, int]) -> str:
    """``("10.0.0.2", 7777)`` -> ``"10.0.0.2:7777"``."""
    return f"{address[0]}:{int(address[1])}"


def _valid(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    for name, kind in FIELDS.items():
        value = entry.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            return False
    step = entry.get("step")
    return (step is None or (isinstance(step, int) and not isinstance(step, bool))) and \
        isinstance(entry.get("saved_at"), (int, float))


class SeatStore:
    """``path`` (default :func:`default_path`); ``clock`` returns Unix seconds."""

    def __init__(self, path: str | None = None, clock: Callable[[], float] = time.time):
        self.path = path or default_path()
        self.clock = clock
        self._step_written: dict[tuple[str, int], float] = {}

    # -- reading ------------------------------------------------------------------------
    def entries(self) -> list[dict[str, Any]]:
        """The valid, fresh entries, newest first."""
        try:
            with open(self.path, encoding="utf-8") as f:
                raw = json.load(f)
        except (OSError, ValueError):
            return []
        if not isinstance(raw, list):
            return []
        now = self.clock()
        fresh = [e for e in raw if _valid(e) and now - float(e["saved_at"]) < MAX_AGE_S]
        return sorted(fresh, key=lambda e: -float(e["saved_at"]))

    def get(self, server: str, table: int) -> dict[str, Any] | None:
        return next((e for e in self.entries() if e["server"] == server and e["table"] == table), None)

    # -- writing ------------------------------------------------------------------------
    def _write(self, entries: list[dict[str, Any]]) -> bool:
        """Replace the file with ``entries`` atomically; False when it cannot be written."""
        folder = os.path.dirname(self.path)
        try:
            os.makedirs(folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".seats-", suffix=".json", dir=folder)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(entries, f, indent=1)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except OSError:
            return False
        return True

    def remember(self, server: str, table: int, seat: int, token: str, table_name: str = "",
                 game: str = "", step: int | None = None) -> None:
        """Keep (or replace) the seat of ``table`` on ``server``."""
        entry = {"server": server, "table": int(table), "table_name": str(table_name or ""), "game": str(game or ""),
                 "seat": int(seat), "token": str(token), "step": step, "saved_at": self.clock()}
        others = [e for e in self.entries() if (e["server"], e["table"]) != (server, table)]
        self._write([entry] + others)
        self._step_written[(server, table)] = self.clock()

    def update(self, server: str, table: int, **fields: Any) -> bool:
        """Change fields (``table_name``, ``game``, ``step``...) of a kept seat; False
        when there is none. ``saved_at`` becomes now."""
        entries = self.entries()
        for e in entries:
            if (e["server"], e["table"]) == (server, table):
                e.update({k: v for k, v in fields.items() if k in FIELDS or k == "step"})
                e["saved_at"] = self.clock()
                self._write(entries)
                return True
        return False

    def note_step(self, server: str, table: int, step: int, force: bool = False) -> None:
        """The last update ``step`` applied at ``table``: written at most every
        :data:`STEP_WRITE_S` s (always with ``force``)."""
        key = (server, table)
        last = self._step_written.get(key)
        if last is None and not force:
            return  # not a kept seat (a spectator's table)
        if not force and self.clock() - (last or 0.0) < STEP_WRITE_S:
            return
        if self.update(server, table, step=int(step)):
            self._step_written[key] = self.clock()
        else:
            self._step_written.pop(key, None)

    def forget(self, server: str, table: int) -> None:
        """Drop the seat of ``table`` on ``server`` (its match ended, or the token is refused)."""
        self._step_written.pop((server, table), None)
        entries = self.entries()
        kept = [e for e in entries if (e["server"], e["table"]) != (server, table)]
        if len(kept) != len(entries) or os.path.exists(self.path):
            self._write(kept)
