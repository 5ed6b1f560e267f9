"""Family Business's move vocabulary, shared by the UI, the bots and the network
(RULES.md §3.5-3.7; docs/protocol/family_business.md). ``card`` is always the id of an
action card in the player's hand; ``mobster``/``victim``/``other`` are mobster ids."""
from __future__ import annotations

from dataclasses import dataclass

from shared.rules import Action, ActionSet
from shared.windows import WindowTimeout


@dataclass(frozen=True)
class Void(Action):
    """Discard ``card`` face up without effect (§3.5 T3; always legal, D-FB-4)."""

    TYPE = "void"
    card: int


@dataclass(frozen=True)
class Contract(Action):
    """Play a Contract (any version), Priority or Double Contract on player ``target``."""

    TYPE = "contract"
    card: int
    target: int


@dataclass(frozen=True)
class Hit(Action):
    """Hit: ``victim`` (any mobster in play) dies; then you put one of yours on the list."""

    TYPE = "hit"
    card: int
    victim: int


@dataclass(frozen=True)
class Massacre(Action):
    """St. Valentine's Day Massacre: every mobster on the hit list dies, in order."""

    TYPE = "massacre"
    card: int


@dataclass(frozen=True)
class DoubleCross(Action):
    """Double Cross: one mobster of each opponent goes on the list, in your order."""

    TYPE = "double_cross"
    card: int


@dataclass(frozen=True)
class MobWar(Action):
    """Mob War: the war starts, or its rate goes back to 1 (D-FB-8)."""

    TYPE = "mob_war"
    card: int


@dataclass(frozen=True)
class Ambush(Action):
    """Ambush: the war starts at rate 2, or its rate becomes 2 (D-FB-8)."""

    TYPE = "ambush"
    card: int


@dataclass(frozen=True)
class Vendetta(Action):
    """Vendetta: two mobsters of each opponent go on the list; war at rate 2."""

    TYPE = "vendetta"
    card: int


@dataclass(frozen=True)
class Rescue(Action):
    """Take It On the Lam or Police Protection: ``mobster`` leaves the hit list for its
    owner's front."""

    TYPE = "rescue"
    card: int
    mobster: int


@dataclass(frozen=True)
class Substitution(Action):
    """Substitution: ``mobster`` (on the list) and ``other`` (any other mobster in play)."""

    TYPE = "substitution"
    card: int
    mobster: int
    other: int


@dataclass(frozen=True)
class Intrigue(Action):
    """Intrigue: reorder the hit list (then ``order`` picks, front first)."""

    TYPE = "intrigue"
    card: int


@dataclass(frozen=True)
class Truce(Action):
    """Truce: the war stops (not a permanent one)."""

    TYPE = "truce"
    card: int


@dataclass(frozen=True)
class PayOff(Action):
    """Pay Off: all of player ``target``'s mobsters on the list return to his front."""

    TYPE = "pay_off"
    card: int
    target: int


@dataclass(frozen=True)
class FederalCrackdown(Action):
    """Federal Crackdown: every mobster on the list returns to its owner's front."""

    TYPE = "federal_crackdown"
    card: int


@dataclass(frozen=True)
class Turncoat(Action):
    """Turncoat: ``victim`` (a mobster in play of a most-alive player) dies and
    ``revived`` (a dead mobster of a least-alive player) takes its place."""

    TYPE = "turncoat"
    card: int
    victim: int
    revived: int


@dataclass(frozen=True)
class Place(Action):
    """Owner's choice (D-FB-14): ``mobster``, one of your front mobsters, is the one that
    goes to the hit list (or is collected by a Double Cross / Vendetta)."""

    TYPE = "place"
    mobster: int


@dataclass(frozen=True)
class Order(Action):
    """The active player's ordering choice: ``mobster`` is the next one in line
    (collected mobsters of a Double Cross / Vendetta, or an Intrigue)."""

    TYPE = "order"
    mobster: int


@dataclass(frozen=True)
class Counter(Action):
    """Claim in a counter window: play counter card ``card`` from your hand (§3.6)."""

    TYPE = "counter"
    card: int


@dataclass(frozen=True)
class NoCounter(Action):
    """Answer "no counter" in a counter window."""

    TYPE = "no_counter"


#: Play actions by card code.
PLAY_ACTION: dict[str, type[Action]] = {
    "contract": Contract, "contract_no_mp": Contract, "contract_no_fi": Contract,
    "contract_no_counter": Contract, "priority_contract": Contract, "double_contract": Contract,
    "hit": Hit, "massacre": Massacre, "double_cross": DoubleCross, "mob_war": MobWar,
    "ambush": Ambush, "vendetta": Vendetta, "lam": Rescue, "police_protection": Rescue,
    "substitution": Substitution, "intrigue": Intrigue, "truce": Truce, "pay_off": PayOff,
    "federal_crackdown": FederalCrackdown, "turncoat": Turncoat,
}

ACTIONS = ActionSet([
    Void, Contract, Hit, Massacre, DoubleCross, MobWar, Ambush, Vendetta, Rescue,
    Substitution, Intrigue, Truce, PayOff, FederalCrackdown, Turncoat, Place, Order,
    Counter, NoCounter, WindowTimeout,
])
