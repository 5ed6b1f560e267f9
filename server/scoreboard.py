"""The evening's scoreboard of one server (docs/PROTOCOL.md "Host, emotes, rematch"):
matches played and won per player and game.

It counts every match finished since the server started, plus the finished match logs
of its data directory (docs/MATCHLOG.md: a log with an ``over`` record) written in the
last :data:`WINDOW_S` seconds, so that a host who restarts ``mafia-table`` keeps the
evening's score. Each match counts once: a match is keyed by its log file's name (or,
without a data directory, by its table object), so a match both read from disk at
start-up and finished or restored afterwards is not counted twice.

Players are the seats a person sat at when the match started (the header's seats
without ``bot``), under the name they had. A seat whose player was gone when the match
ended (he left, or did not come back in time: a stand-in bot finished it, the ``over``
record's ``stand_ins``) still counts as played, but its win counts as ``by_stand_in``,
not ``won``: the person did not win it. The bots of a game are one row, name
:data:`BOTS` with ``bot: true``: played = matches with a bot seat, won = matches a bot
seat won. A draw or a shared win counts as won for each seat of ``result.winners``.
"""
from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any, Iterable

from twisted.logger import Logger

from shared import matchlog

log = Logger()

#: Finished match logs younger than this (seconds, by file modification time) count.
WINDOW_S = 12 * 3600.0
#: The name of the bots' row of a game (the client shows it in its own language).
BOTS = "Bots"
#: The scoreboard sent (``match_over``, ``tables``) is its first rows only, so that a
#: long evening's board fits in a line (docs/PROTOCOL.md "Host, emotes, rematch").
MAX_ROWS = 100
_LOG_NAME = re.compile(r"^table-\d+--?\d+(?:-\d+)?\.jsonl$")


def players_of(header_seats: Iterable[Any]) -> dict[int, str]:
    """Seat -> name of the seats a person held at the start (a header's ``seats``)."""
    out: dict[int, str] = {}
    for s in header_seats:
        if isinstance(s, dict) and not s.get("bot") and isinstance(s.get("seat"), int):
            out[s["seat"]] = str(s.get("name") or f"Seat {s['seat'] + 1}")
    return out


def bots_of(header_seats: Iterable[Any]) -> list[int]:
    """The seats a bot held at the start (a header's ``seats``)."""
    return [s["seat"] for s in header_seats
            if isinstance(s, dict) and s.get("bot") and isinstance(s.get("seat"), int)]


class Scoreboard:
    """Matches by key: ``key -> (game, [(name, is_bot, won, won_by_stand_in)])``; the
    totals per player and game kept as matches are added, and :meth:`rows` built once
    per change (every match end asks for them: a busy server's evening is thousands of
    matches)."""

    def __init__(self) -> None:
        self._matches: dict[str, tuple[str, list[tuple[str, bool, bool, bool]]]] = {}
        # (name, game, is_bot) -> [played, won, won by a stand-in]
        self._totals: dict[tuple[str, str, bool], list[int]] = {}
        self._rows: list[dict[str, Any]] | None = None

    def __len__(self) -> int:
        return len(self._matches)

    def add(self, key: str, game: str, players: dict[int, str], result: dict[str, Any],
            stand_ins: Iterable[int] = (), bots: Iterable[int] = ()) -> bool:
        """Count one finished match (False when ``key`` was counted already).
        ``players``: seat -> name of the people at the start; ``result``: the match
        result (its ``winners``); ``stand_ins``: the players' seats a stand-in bot
        finished; ``bots``: the seats a bot held from the start."""
        if key in self._matches:
            return False
        winners = result.get("winners") if isinstance(result, dict) else None
        won = set(w for w in winners if isinstance(w, int)) if isinstance(winners, list) else set()
        finished_by_bot = set(stand_ins)
        lines = [(name, False, seat in won and seat not in finished_by_bot, seat in won and seat in finished_by_bot)
                 for seat, name in sorted(players.items())]
        bot_seats = set(bots)
        if bot_seats:
            lines.append((BOTS, True, bool(bot_seats & won), False))
        self._matches[key] = (str(game), lines)
        for name, is_bot, did_win, stand_in_won in lines:
            total = self._totals.setdefault((name, str(game), is_bot), [0, 0, 0])
            total[0] += 1
            total[1] += int(did_win)
            total[2] += int(stand_in_won)
        self._rows = None
        return True

    def record_table(self, table: Any) -> bool:
        """Count the match ``table`` (a :class:`server.match.table.Table` whose ``result`` is
        set) just finished or restored finished."""
        if table.result is None:
            return False
        mf = getattr(table, "matchfile", None)
        key = mf.path.name if mf is not None else f"table-object-{id(table)}"
        bots = [s for s in range(len(table.seats)) if s not in table.players_at_start]
        return self.add(key, table.game.NAME, dict(table.players_at_start), table.result,
                        stand_ins=getattr(table, "finished_by_stand_in", ()), bots=bots)

    def load(self, data_dir: Path | None, now: float | None = None) -> int:
        """Count the finished logs of ``<data_dir>/matches`` modified within
        :data:`WINDOW_S` of ``now`` (wall-clock seconds; default: now). Unreadable or
        damaged logs are skipped. Returns how many were added."""
        if data_dir is None:
            return 0
        folder = Path(data_dir) / "matches"
        if not folder.is_dir():
            return 0
        now = time.time() if now is None else now
        added = 0
        for path in sorted(folder.iterdir()):
            if not _LOG_NAME.match(path.name) or path.name in self._matches:
                continue
            try:
                if now - path.stat().st_mtime > WINDOW_S:
                    continue
                parsed = matchlog.parse(path.read_bytes())
            except (OSError, matchlog.LogError) as e:
                log.debug("scoreboard: skipping {path}: {e}", path=str(path), e=e)
                continue
            if parsed.result is None:
                continue
            head = parsed.header
            seats = head.get("seats") or []
            if self.add(path.name, str(head.get("game")), players_of(seats), parsed.result,
                        stand_ins=parsed.stand_ins, bots=bots_of(seats)):
                added += 1
        return added

    def rows(self) -> list[dict[str, Any]]:
        """``[{name, game, played, won, by_stand_in, bot?}]`` sorted by won (most first),
        then name, then game; ``bot: true`` only on a game's bots row; the first
        :data:`MAX_ROWS`. A new list each call (its rows are shared: read them only)."""
        if self._rows is None:
            rows: list[dict[str, Any]] = []
            for (name, game, is_bot), (p, w, b) in self._totals.items():
                row: dict[str, Any] = {"name": name, "game": game, "played": p, "won": w, "by_stand_in": b}
                if is_bot:
                    row["bot"] = True
                rows.append(row)
            rows.sort(key=lambda r: (-r["won"], r["name"], r["game"]))
            self._rows = rows[:MAX_ROWS]
        return list(self._rows)
