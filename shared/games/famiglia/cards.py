"""The cards of Famiglia (RULES.md §1.1): data tables, easy to change (D-FAM-1), the 60
fixed cards (:data:`DECK`, indexed by id) and the two starting sets."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NAME = "famiglia"
MIN_SEATS = 2
MAX_SEATS = 2

#: (wire name, code letter) of the four families, in id order.
FAMILIES: tuple[tuple[str, str], ...] = (
    ("famiglia", "F"),
    ("accountant", "A"),
    ("brute", "B"),
    ("mercenary", "M"),
)
FAMIGLIA, ACCOUNTANT, BRUTE, MERCENARY = (name for name, _ in FAMILIES)
#: Copies per printed value 0..4, in every family.
COPIES: tuple[int, ...] = (5, 4, 3, 2, 1)
#: VP per printed value 0..4 (D-FAM-1): Accountants, Brutes, Mercenaries / La Famiglia.
VP_COMMON: tuple[int, ...] = (0, 1, 3, 6, 10)
VP_FAMIGLIA: tuple[int, ...] = (1, 3, 6, 10, 15)
#: Cards put in the street at setup and by an end-of-turn refill (§1.3, §1.5).
STREET_SIZE = 6


@dataclass(frozen=True)
class Card:
    """One physical card: ``family`` (wire name), printed ``value`` 0-4, ``vp``."""

    id: int
    family: str
    value: int
    vp: int

    @property
    def code(self) -> str:
        """Short code used by the config and the tests: ``"F3"``, ``"M0"``."""
        return dict(FAMILIES)[self.family] + str(self.value)

    def to_dict(self) -> dict[str, Any]:
        """``{"id", "code", "family", "value", "vp"}``."""
        return {"id": self.id, "code": self.code, "family": self.family,
                "value": self.value, "vp": self.vp}


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for name, _ in FAMILIES:
        table = VP_FAMIGLIA if name == FAMIGLIA else VP_COMMON
        for value, copies in enumerate(COPIES):
            for _ in range(copies):
                cards.append(Card(len(cards), name, value, table[value]))
    return tuple(cards)


#: Every card of the game, indexed by id (0..59).
DECK: tuple[Card, ...] = _build_deck()
assert len(DECK) == 60 and sum(c.vp for c in DECK) == 175
#: The two starting sets (§1.1): one 0 of each family each, ids fixed.
STARTING_SETS: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(15 * f for f in range(4)),
    tuple(15 * f + 1 for f in range(4)),
)


def card(card_id: int) -> Card:
    """The card with that id."""
    return DECK[card_id]


def vp(card_id: int) -> int:
    """Victory points of a card (§1.1 table, D-FAM-1)."""
    return DECK[card_id].vp
