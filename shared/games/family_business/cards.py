"""Family Business's cards (RULES.md §3.2): the six gangs of nine mobsters and the
action deck of D-FB-1, as data tables, and the game's fixed facts.

Ids: mobster ``9 * gang + i`` (0..53); action cards from 54 upward in table order
(the 56 cards of the "1989" deck are 54..109, the two Finger cards of the "2006" deck
110..111). On the wire a card is ``{"id", "kind": "mobster"|"action", ...}``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NAME = "family_business"
MIN_SEATS = 2
MAX_SEATS = 6
HAND_SIZE = 5  # §3.3
GANG_SIZE = 9
VARIANTS = ("1989", "2006")

#: (gang name, nine mobster names), §3.2. The ninth Capone name is missing in the
#: sources; "Frankie Rio" (Capone's bodyguard) is our flavour pick.
GANGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Capone Mob", ("Al Capone", 'Sam "Golfbag" Hunt', 'Frank "The Enforcer" Nitti',
                    '"Three-Fingered" Jack White', 'Anthony "Big Tuna" Accardo',
                    'Jake "Greasy Thumb" Guzik', 'Paul "The Waiter" Ricca',
                    '"Machine Gun" Jack McGurn', "Frankie Rio")),
    ("Moran Gang", ('George "Bugs" Moran', "Al Weinshank", "Hymie Weiss", "Pete Gusenberg",
                    "Frank Gusenberg", "James Clark", "John May", "Adam Heyer", "Willie Marks")),
    ("New York Mob", ("Dutch Schultz", "Frank Costello", "Meyer Lansky", "Vito Genovese",
                      "Albert Anastasia", 'Benjamin "Bugsy" Siegel', "Joseph Bonanno",
                      "Joe Valachi", 'Charles "Lucky" Luciano')),
    ("Murder Inc.", ("Harry Strauss", "Abe Reles", "Irving Nitzberg", "Frank Abbandando",
                     "Martin Goldstein", "Harry Maione", "Anthony Maffetore",
                     "Albert Tannenbaum", "Abraham Levine")),
    ("Purple Gang", ("Samuel Cohen", "Abe Axler", "Peter Licavoli", "Joseph Zerilli",
                     "Harry Fleisher", "Louis Fleisher", "Benjamin Bernstein",
                     "Joseph Bernstein", "Eddie Fletcher")),
    ("Bank Robbers", ("John Dillinger", "Baby Face Nelson", "Ma Barker", "Doc Barker",
                      "Alvin Karpis", "Pretty Boy Floyd", "Machine Gun Kelly", "Clyde Barrow",
                      "Bonnie Parker")),
)
MOBSTER_COUNT = len(GANGS) * GANG_SIZE  # 54

#: code -> (English name, category, counter codes that may answer it), §3.2 / §3.6.
#: category: "contract" | "attack" | "counter" | "rescue".
ACTION_TYPES: dict[str, tuple[str, str, frozenset[str]]] = {
    "contract": ("Contract", "contract", frozenset({"family_influence", "mob_power"})),
    "contract_no_mp": ("Contract (Mob Power not allowed)", "contract", frozenset({"family_influence"})),
    "contract_no_fi": ("Contract (Family Influence not allowed)", "contract", frozenset({"mob_power"})),
    "contract_no_counter": ("Contract (no counter allowed)", "contract", frozenset()),
    "priority_contract": ("Priority Contract", "contract", frozenset({"family_influence", "mob_power"})),
    "double_contract": ("Double Contract", "contract", frozenset({"family_influence", "mob_power"})),
    "hit": ("Hit", "attack", frozenset()),
    "massacre": ("St. Valentine's Day Massacre", "attack", frozenset()),
    "double_cross": ("Double Cross", "attack", frozenset()),
    "mob_war": ("Mob War", "attack", frozenset()),
    "ambush": ("Ambush", "attack", frozenset()),
    "vendetta": ("Vendetta", "attack", frozenset({"safe_house"})),
    "family_influence": ("Family Influence", "counter", frozenset()),
    "mob_power": ("Mob Power", "counter", frozenset()),
    "safe_house": ("Safe House", "counter", frozenset()),
    "finger": ("Finger", "counter", frozenset()),
    "lam": ("Take It On the Lam", "rescue", frozenset({"finger"})),
    "police_protection": ("Police Protection", "rescue", frozenset()),
    "substitution": ("Substitution", "rescue", frozenset()),
    "intrigue": ("Intrigue", "rescue", frozenset()),
    "truce": ("Truce", "rescue", frozenset()),
    "pay_off": ("Pay Off", "rescue", frozenset()),
    "federal_crackdown": ("Federal Crackdown", "rescue", frozenset()),
    "turncoat": ("Turncoat", "rescue", frozenset()),
}

#: Copies in the 1989 deck (D-FB-1, 56 cards), in id order; Finger is 2006-only.
COUNTS_1989: tuple[tuple[str, int], ...] = (
    ("contract", 14), ("contract_no_mp", 3), ("contract_no_fi", 2), ("contract_no_counter", 1),
    ("priority_contract", 3), ("double_contract", 3), ("hit", 1), ("massacre", 1),
    ("double_cross", 1), ("mob_war", 1), ("ambush", 1), ("vendetta", 1),
    ("family_influence", 6), ("mob_power", 3), ("safe_house", 1),
    ("lam", 4), ("police_protection", 2), ("substitution", 2), ("intrigue", 2), ("truce", 1),
    ("pay_off", 1), ("federal_crackdown", 1), ("turncoat", 1),
)
FINGER_COUNT = 2  # the "2006" deck adds Finger x 2 (58 cards)

CONTRACTS = frozenset(c for c, t in ACTION_TYPES.items() if t[1] == "contract")
COUNTERS = frozenset(c for c, t in ACTION_TYPES.items() if t[1] == "counter")


@dataclass(frozen=True)
class Mobster:
    """One mobster card: ``gang`` 0..5 (also the seat that uses it), ``name`` flavour."""

    id: int
    gang: int
    name: str

    def to_dict(self) -> dict[str, Any]:
        """``{"id", "kind": "mobster", "gang", "gang_name", "name"}``."""
        return {"id": self.id, "kind": "mobster", "gang": self.gang,
                "gang_name": GANGS[self.gang][0], "name": self.name}


@dataclass(frozen=True)
class ActionCard:
    """One action card: ``code`` (key of :data:`ACTION_TYPES`, used by the ``deck``
    option), ``category`` and the counter codes that may answer it."""

    id: int
    code: str

    @property
    def name(self) -> str:
        return ACTION_TYPES[self.code][0]

    @property
    def category(self) -> str:
        return ACTION_TYPES[self.code][1]

    @property
    def countered_by(self) -> frozenset[str]:
        return ACTION_TYPES[self.code][2]

    def to_dict(self) -> dict[str, Any]:
        """``{"id", "kind": "action", "code", "name", "category"}``."""
        return {"id": self.id, "kind": "action", "code": self.code, "name": self.name,
                "category": self.category}


MOBSTERS: tuple[Mobster, ...] = tuple(
    Mobster(9 * g + i, g, names[i]) for g, (_, names) in enumerate(GANGS) for i in range(GANG_SIZE))


def _build_actions() -> tuple[ActionCard, ...]:
    out: list[ActionCard] = []
    for code, k in COUNTS_1989 + (("finger", FINGER_COUNT),):
        for _ in range(k):
            out.append(ActionCard(MOBSTER_COUNT + len(out), code))
    return tuple(out)


ACTION_CARDS: tuple[ActionCard, ...] = _build_actions()
assert len(ACTION_CARDS) == 58 and len(MOBSTERS) == 54


def deck_ids(variant: str) -> list[int]:
    """Action card ids of a deck variant ("1989": 56 cards, "2006": 58 with Finger)."""
    return [c.id for c in ACTION_CARDS if variant == "2006" or c.code != "finger"]


def action(card_id: int) -> ActionCard:
    """The action card with that id."""
    return ACTION_CARDS[card_id - MOBSTER_COUNT]


def mobster(card_id: int) -> Mobster:
    """The mobster with that id."""
    return MOBSTERS[card_id]


def card_dict(card_id: int) -> dict[str, Any]:
    """The wire form of any card id."""
    return MOBSTERS[card_id].to_dict() if card_id < MOBSTER_COUNT else action(card_id).to_dict()
