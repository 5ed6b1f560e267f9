"""Scoring a round (RULES.md §4.5) and the match (§4.6). Pure functions of card ids."""
from __future__ import annotations

from typing import Sequence

from shared.games.mafiosi.cards import DECK, JACK, KING, QUEEN, suit_card

JOKER_POINTS = -5
QUEEN_POINTS = -1
OWN_MUSCLE_POINTS = 2
OWN_KING_POINTS = 5
OTHER_KING_POINTS = 3


def card_points(card_id: int, w: Sequence[int], clan: str | None) -> int:
    """Points of one card of W(p) for a player of ``clan`` (§4.5 table): own-clan muscle
    +2, other muscle 0, Joker -5, Queen -1, Jack 0 (D-MAF-9), King 0 when the Jack of its
    suit is also in W(p), else +5 for the own clan's King and +3 for another King."""
    c = DECK[card_id]
    if c.is_joker:
        return JOKER_POINTS
    if c.is_muscle:
        return OWN_MUSCLE_POINTS if c.suit == clan else 0
    if c.rank == QUEEN:
        return QUEEN_POINTS
    if c.rank == KING:
        if suit_card(c.suit or "", JACK) in w:
            return 0
        return OWN_KING_POINTS if c.suit == clan else OTHER_KING_POINTS
    return 0


def round_score(w: Sequence[int], clan: str | None) -> int:
    """Score of W(p) (won cards + bouncer) for a player of ``clan``; may be negative."""
    return sum(card_points(c, w, clan) for c in w)


def face_count(w: Sequence[int]) -> int:
    """Jacks, Queens and Kings in W(p) (D-MAF-11; Jokers are not face cards)."""
    return sum(1 for c in w if DECK[c].is_face)


def is_eliminated(clan: str | None, piles: Sequence[Sequence[int]]) -> bool:
    """True when the King and the Jack of ``clan`` lie in the same W(q) of any player q,
    q included the player himself (§4.5 elimination, D-MAF-10). No clan: never."""
    if clan is None:
        return False
    king, jack = suit_card(clan, KING), suit_card(clan, JACK)
    return any(king in w and jack in w for w in piles)


def round_winners(scores: Sequence[int], faces: Sequence[int],
                  eliminated: Sequence[bool]) -> list[int]:
    """Seats winning the round (§4.5): the highest score among survivors, then the most
    face cards; every seat still tied wins (D-MAF-13); none if all are eliminated
    (D-MAF-12)."""
    alive = [p for p in range(len(scores)) if not eliminated[p]]
    if not alive:
        return []
    top = max(scores[p] for p in alive)
    best = [p for p in alive if scores[p] == top]
    most = max(faces[p] for p in best)
    return [p for p in best if faces[p] == most]


def point_total(points: Sequence[int]) -> int:
    """Value of kept point cards (§4.6): muscles their rank, face cards and Jokers 0."""
    return sum(DECK[c].value for c in points)


def match_winners(totals: Sequence[int]) -> list[int]:
    """Seats with the highest point total; ties share the victory (§4.6)."""
    top = max(totals)
    return [p for p, t in enumerate(totals) if t == top]
