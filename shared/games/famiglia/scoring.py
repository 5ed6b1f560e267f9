"""The end of a Famiglia match: the ranking of §1.7 with the D-FAM-12 tie-break, and the
``game_over`` step that reveals the hands."""
from __future__ import annotations

from shared.games.famiglia.cards import DECK, vp
from shared.games.famiglia.state import FamigliaState
from shared.rules import Event


def _rank_key(s: FamigliaState, seat: int) -> tuple[int, list[int], list[int]]:
    """Score, then the D-FAM-12 tie-break lists: VPs and printed values, descending."""
    owned = s.hands[seat] + s.gangs[seat]
    return (s.score(seat), sorted((vp(c) for c in owned), reverse=True),
            sorted((DECK[c].value for c in owned), reverse=True))


def _result(s: FamigliaState) -> tuple[list[int], str | None]:
    """Winners and what decided them: ``"score"``, ``"vp"`` / ``"values"`` (D-FAM-12
    tie-break steps) or ``"draw"``."""
    a, b = _rank_key(s, 0), _rank_key(s, 1)
    if a == b:
        return [0, 1], "draw"
    winner = 0 if a > b else 1
    decided = "score" if a[0] != b[0] else ("vp" if a[1] != b[1] else "values")
    return [winner], decided


def _game_over(s: FamigliaState, reason: str, events: list[Event]) -> None:
    s.phase = "over"
    s.end_reason = reason
    s.step = 0
    winners, decided = _result(s)
    events.append(Event("game_over", {
        "reason": reason,
        "scores": [s.score(p) for p in range(2)],
        "winners": winners,
        "decided_by": decided,
        "hands": [[DECK[c].to_dict() for c in s.hands[p]] for p in range(2)],
    }))
