"""The evening's scoreboard as rows a screen shows: the lobby's and Join's panel
(:func:`client.scenes.lobby.scoreboard_panel`) and the results board's
(:func:`client.table.results.draw_scoreboard`) read the server's rows the same way.

A server row is ``{name, game, played, won, by_stand_in?, bot?}`` (docs/PROTOCOL.md
"The evening's scoreboard"): ``bot`` marks the one row of a game's bots, ``by_stand_in``
counts the wins a stand-in bot finished for a player who had gone (not in ``won``).
Older servers send neither; anything missing or malformed reads as 0 / false.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from client.gamedef import game_title
from client.i18n import tr


@dataclass(frozen=True)
class ScoreRow:
    """One row as shown: ``won`` is "3", or "3 +1" when a stand-in won one more."""

    name: str
    game: str
    played: str
    won: str
    bot: bool


def _count(value: Any) -> int:
    try:
        return max(0, int(value or 0))
    except (TypeError, ValueError):
        return 0


def score_rows(board: Any, limit: int | None = None) -> list[ScoreRow]:
    """The rows of a server's ``scoreboard`` list (sorted by the server), at most
    ``limit``; entries without a name are skipped, a bots' row is named "Bots" in the
    player's language."""
    rows = []
    for e in board if isinstance(board, list) else []:
        if not isinstance(e, dict) or not (e.get("name") or e.get("bot")):
            continue
        bot = bool(e.get("bot"))
        won, stand_in = _count(e.get("won")), _count(e.get("by_stand_in"))
        rows.append(ScoreRow(tr("score.bots") if bot else str(e["name"]), game_title(e.get("game")),
                             str(_count(e.get("played"))), f"{won} +{stand_in}" if stand_in else str(won), bot))
    return rows[:limit] if limit is not None else rows


def stand_in_note(rows: list[ScoreRow]) -> str:
    """The line that explains "+1" under the rows ("" when no row has one)."""
    return tr("score.stand_in_note") if any("+" in r.won for r in rows) else ""
