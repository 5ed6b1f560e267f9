"""Mafiosi's cards (RULES.md §4.1): the standard 54-card deck and the game's fixed facts.

Card ids 0..53 are fixed: suit ``s`` (0 hearts, 1 diamonds, 2 spades, 3 clubs) and rank
``r`` (1 = ace .. 10, 11 = Jack, 12 = Queen, 13 = King) give id ``13 * s + r - 1``; the
two Jokers are 52 and 53. Codes (the ``deck`` test option): ``"AH"`` (or ``"1H"``),
``"2H"`` .. ``"10H"``, ``"JH"``, ``"QH"``, ``"KH"``, suits ``H D S C``; ``"JK1"``,
``"JK2"`` for the Jokers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NAME = "mafiosi"
MIN_SEATS = 3
MAX_SEATS = 5

SUITS = ("hearts", "diamonds", "spades", "clubs")
SUIT_LETTERS = "HDSC"
JACK, QUEEN, KING = 11, 12, 13
#: Cards dealt to each player by player count (§4.3 step 2).
HAND_SIZE = {3: 13, 4: 11, 5: 9}
_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


@dataclass(frozen=True)
class Card:
    """One card. ``rank`` 1..13 (0 for a Joker), ``suit`` a name of :data:`SUITS` or None
    for a Joker."""

    id: int
    rank: int
    suit: str | None

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def is_muscle(self) -> bool:
        """1 (the ace) to 10: a "gros bras" (§4.1)."""
        return 1 <= self.rank <= 10

    @property
    def is_face(self) -> bool:
        """Jack, Queen or King (§4.1, D-MAF-11; a Joker is not a face card)."""
        return self.rank >= JACK

    @property
    def is_ace(self) -> bool:
        return self.rank == 1

    @property
    def strength(self) -> int:
        """Trick strength (§4.1): Joker 0 < 1 < ... < 10 < J 11 < Q 12 < K 13."""
        return self.rank

    @property
    def value(self) -> int:
        """Face value of a muscle, 0 for face cards and Jokers (§4.3 step 4, §4.6)."""
        return self.rank if self.is_muscle else 0

    @property
    def code(self) -> str:
        if self.is_joker:
            return f"JK{self.id - 51}"
        return _RANK_NAMES.get(self.rank, str(self.rank)) + SUIT_LETTERS[SUITS.index(self.suit or "")]

    def to_dict(self) -> dict[str, Any]:
        """``{"id", "kind": "card", "rank": "A".."10"|"J"|"Q"|"K"|"joker", "suit": name|None,
        "strength", "value", "code"}`` (a new dict)."""
        return dict(_CARD_DICTS[self.id])


def _build() -> tuple[Card, ...]:
    cards = [Card(13 * s + r - 1, r, SUITS[s]) for s in range(4) for r in range(1, 14)]
    cards += [Card(52, 0, None), Card(53, 0, None)]
    return tuple(cards)


#: Every card, indexed by id.
DECK: tuple[Card, ...] = _build()
assert len(DECK) == 54 and all(c.id == i for i, c in enumerate(DECK))
_CARD_DICTS = tuple(
    {"id": c.id, "kind": "card",
     "rank": "joker" if c.is_joker else _RANK_NAMES.get(c.rank, str(c.rank)),
     "suit": c.suit, "strength": c.strength, "value": c.value, "code": c.code}
    for c in DECK)
_BY_CODE = {c.code: c.id for c in DECK}
_BY_CODE.update({f"1{SUIT_LETTERS[s]}": 13 * s for s in range(4)})


def card(card_id: int) -> Card:
    """The card with that id."""
    return DECK[card_id]


def card_id(code: str) -> int:
    """Id of the card with that code (``"QH"``, ``"10S"``, ``"AH"``/``"1H"``, ``"JK1"``);
    ``KeyError`` for an unknown code."""
    return _BY_CODE[code.upper()]


def suit_card(suit: str, rank: int) -> int:
    """Id of the card of ``rank`` in ``suit``."""
    return 13 * SUITS.index(suit) + rank - 1
