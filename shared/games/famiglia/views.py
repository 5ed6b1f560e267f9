"""What the outside world reads of a Famiglia match: the seat views (D-FAM-2), the full
replay view, the zones, the scores (§1.7), the end and the (absent) reaction windows."""
from __future__ import annotations

from typing import Any

from shared.games.famiglia.cards import DECK, NAME
from shared.games.famiglia.scoring import _result
from shared.games.famiglia.state import FamigliaState
from shared.rules import Action
from shared.windows import Window


def reaction_window(state: FamigliaState) -> Window | None:
    """Famiglia has no reaction windows: always None."""
    return None


def timeout_action(window: Window) -> Action:
    """Never called: Famiglia opens no window (:func:`reaction_window` is always None).
    Raises ``ValueError`` so that a misrouted timeout fails loudly."""
    raise ValueError("Famiglia has no reaction windows")


def is_over(state: FamigliaState) -> bool:
    """True once the match has ended: by the deck (§1.6, D-FAM-11) or by two passes in a
    row (§1.5 phase 4, D-FAM-13)."""
    return state.phase == "over"


def scores(state: FamigliaState) -> dict[str, Any]:
    """``{"scores": VP per seat (§1.7), "winners": seats (empty until the end),
    "decided_by": "score" | "vp" | "values" | "draw" | None (D-FAM-12), "reason": "deck" |
    "passes" | None}``. Higher is better."""
    s = state
    winners, decided = _result(s) if s.phase == "over" else ([], None)
    return {"scores": [s.score(p) for p in range(2)], "winners": winners,
            "decided_by": decided, "reason": s.end_reason}


def view(state: FamigliaState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (None = spectator), JSON-ready (D-FAM-2).

    Public: the street (each card with its ``effective`` value under this turn's Brute),
    the deck size, the discard pile (bottom to top), the gangs, hand sizes, scores, the
    turn's flags. A hand's cards: only to its owner, and to everybody once the match is
    over. Keys: ``game, seat, seats, phase, turn, first, turn_no, step, street, deck,
    discard, exhaustion, end, passes, renews, renewed_after_exhaustion, accountant,
    brute, players[{seat, hand|None, hand_count, gang, score}], result``.

    The seat-independent part is built once per state (:func:`_public`): every call
    returns new top-level and player dicts, but their other nested values are shared
    between the views of one state: read them, do not mutate them.
    """
    s = state
    me = seat if seat in (0, 1) else None
    pub, gangs, scores_ = _public(s)
    over = s.phase == "over"
    v = dict(pub)
    v["seat"] = me
    v["players"] = [
        {
            "seat": p,
            "hand": [dict(_CARD[c]) for c in s.hands[p]] if (p == me or over) else None,
            "hand_count": len(s.hands[p]),
            "gang": gangs[p],
            "score": scores_[p],
        }
        for p in range(2)
    ]
    return v


#: Each card's wire form (``Card.to_dict``), built once; views hand out copies.
_CARD: tuple[dict[str, Any], ...] = tuple(c.to_dict() for c in DECK)


def _public(s: FamigliaState) -> tuple[dict[str, Any], list[list[dict[str, Any]]], list[int]]:
    """``(view without seat and players, each gang's cards, each score)``, built once per
    state and kept in its ``_view`` slot (outside ``__dict__``: not copied by ``clone``,
    not pickled, not compared). A state never changes once ``apply`` has returned it."""
    try:
        return s._view  # type: ignore[attr-defined]  # a __slots__ cache, not a dataclass field
    except AttributeError:
        pass
    over = s.phase == "over"
    acc = None
    if s.accountant is not None:
        acc = {"card": dict(_CARD[s.accountant]), "swaps": len(s.swaps) // 2,
               "max": DECK[s.accountant].value, "moved": list(s.swaps)}
    brute = None
    if s.brute is not None:
        brute = {"card": dict(_CARD[s.brute[0]]), "target": s.brute[1], "amount": s.brute[2]}
    pub = {
        "game": NAME,
        "seat": None,
        "seats": 2,
        "phase": s.phase,
        "turn": s.turn,
        "first": s.first,
        "turn_no": s.turn_no,
        "step": s.step,
        "street": [{**_CARD[c], "effective": s.effective_value(c)} for c in s.street],
        "deck": len(s.deck),
        "discard": [dict(_CARD[c]) for c in s.discard],
        "exhaustion": s.exhaustion,
        "end": (None if s.last_turn is None else
                {"during": s.end_during, "turn_no": s.end_turn_no, "last_turn": s.last_turn}),
        "passes": s.passes,
        "renews": s.renews,
        "renewed_after_exhaustion": s.renewed_after_exhaustion,
        "accountant": acc,
        "brute": brute,
        "players": None,
        "result": scores(s) if over else None,
    }
    gangs = [[dict(_CARD[c]) for c in s.gangs[p]] for p in range(2)]
    cached = s._view = (pub, gangs, [s.score(p) for p in range(2)])  # type: ignore[attr-defined]
    return cached


def zones(state: FamigliaState) -> dict[str, list[int]]:
    """Every card id by zone, for conservation checks and replays: ``deck`` (top last),
    ``street``, ``discard``, ``hand_0``, ``hand_1``, ``gang_0``, ``gang_1``."""
    s = state
    return {
        "deck": list(s.deck),
        "street": list(s.street),
        "discard": list(s.discard),
        "hand_0": list(s.hands[0]),
        "hand_1": list(s.hands[1]),
        "gang_0": list(s.gangs[0]),
        "gang_1": list(s.gangs[1]),
    }


def full_view(state: FamigliaState) -> dict[str, Any]:
    """The spectator view with every card face up (both hands and the deck, top first):
    for replays of finished matches only, never sent during a match."""
    s = state
    v = view(s, None)
    for player in v["players"]:
        player["hand"] = [DECK[c].to_dict() for c in s.hands[player["seat"]]]
    v["deck_cards"] = [DECK[c].to_dict() for c in reversed(s.deck)]
    return v
