"""Omerta's cards (RULES.md §2.1): one data table, easy to change (D-OM-1, D-OM-2),
and the game's fixed facts."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NAME = "omerta"
MIN_SEATS = 3
MAX_SEATS = 5

BOTTLE_VALUES = range(1, 11)
BOTTLE_COPIES = 4
#: (name, points, copies) of every character, RULES.md §2.1.
CHARACTERS: tuple[tuple[str, int, int], ...] = (
    ("henchman", 15, 3),
    ("lady", 15, 3),
    ("mole", 15, 3),
    ("snitch", 20, 2),
    ("driver", 20, 3),
    ("safecracker", 15, 1),
    ("hitwoman", 15, 1),
    ("witness", 10, 1),
    ("alibi", 0, 1),
    ("mamma", 15, 1),
    ("police_patrol", 15, 1),
)
#: Characters whose effect a Hitwoman can counter (the "(H)" of §2.6).
COUNTERABLE = frozenset({"henchman", "lady", "snitch", "mamma", "police_patrol"})
#: Characters activated by choosing targets when discarded on one's turn (§2.6).
ACTIVE_POWERS = frozenset(
    {"henchman", "lady", "mole", "snitch", "driver", "safecracker", "mamma", "police_patrol"}
)
#: Stock at or below which a declaration can succeed (§2.8).
OMERTA_LIMIT = 7
#: Points added to a failed declarer's stock (§2.8).
FAILED_DECLARATION_PENALTY = 20


@dataclass(frozen=True)
class Card:
    """One physical card. ``name`` is ``"bottle"`` or a character name; ``value`` the
    bottle value (0 for characters); ``points`` what it adds to a stock."""

    id: int
    name: str
    value: int
    points: int

    @property
    def is_bottle(self) -> bool:
        return self.name == "bottle"

    @property
    def code(self) -> str:
        """Short code used by the ``deck`` option: ``"7"`` or ``"henchman"``."""
        return str(self.value) if self.is_bottle else self.name

    def to_dict(self) -> dict[str, Any]:
        """``{"id", "kind": "bottle"|"character", "name", "value", "points"}`` (a new dict)."""
        return dict(_CARD_DICTS[self.id])


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for value in BOTTLE_VALUES:
        for _ in range(BOTTLE_COPIES):
            cards.append(Card(len(cards), "bottle", value, value))
    for name, points, copies in CHARACTERS:
        for _ in range(copies):
            cards.append(Card(len(cards), name, 0, points))
    return tuple(cards)


#: Every card of the game, indexed by id (0..59).
DECK: tuple[Card, ...] = _build_deck()
assert len(DECK) == 60
_CARD_DICTS: tuple[dict[str, Any], ...] = tuple(
    {"id": c.id, "kind": "bottle" if c.is_bottle else "character", "name": c.name,
     "value": c.value, "points": c.points}
    for c in DECK
)


def card(card_id: int) -> Card:
    """The card with that id."""
    return DECK[card_id]
