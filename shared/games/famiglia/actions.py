"""The move vocabulary of Famiglia, shared by the UI, the bots and the network: one
:class:`~shared.rules.Action` per phase step of RULES.md §1.5 (see the package docstring
for when each is allowed) and :data:`ACTIONS`, their wire parser."""
from __future__ import annotations

from dataclasses import dataclass

from shared.rules import Action, ActionSet


@dataclass(frozen=True)
class Renew(Action):
    """Phase 1: remove street ``card`` (to the discard pile, or under the deck after the
    first exhaustion) and draw as many cards as its printed value (§1.5 phase 1)."""

    TYPE = "renew"
    card: int


@dataclass(frozen=True)
class Accountant(Action):
    """Phase 2: put Accountant ``card`` from the hand into the gang (§1.5 phase 2)."""

    TYPE = "accountant"
    card: int


@dataclass(frozen=True)
class Swap(Action):
    """Phase 2, after ``accountant``: gang card ``from_gang`` <-> hand card ``from_hand``
    (one of the at most v swaps, D-FAM-3, D-FAM-7)."""

    TYPE = "swap"
    from_gang: int
    from_hand: int


@dataclass(frozen=True)
class Brute(Action):
    """Phase 3: put Brute ``card`` into the gang and lower street card ``target`` by
    ``amount`` (1..v) for phase 4 of this turn (§1.5 phase 3, D-FAM-4)."""

    TYPE = "brute"
    card: int
    target: int
    amount: int


@dataclass(frozen=True)
class TakeFree(Action):
    """Phase 4 (a): take street ``card`` of effective value 0 into the hand."""

    TYPE = "take_free"
    card: int


@dataclass(frozen=True)
class TakePair(Action):
    """Phase 4 (b): take street ``card`` (effective value e >= 1) with two hand cards of
    value e - 1 of its family, one of which may be a Mercenary joker of value >= e;
    ``to_gang`` goes to the gang, ``keep`` stays in the hand."""

    TYPE = "take_pair"
    card: int
    to_gang: int
    keep: int


@dataclass(frozen=True)
class Pass(Action):
    """Phase 4 (c): take nothing; ends the turn (§1.5 phase 4)."""

    TYPE = "pass"


ACTIONS = ActionSet([Renew, Accountant, Swap, Brute, TakeFree, TakePair, Pass])
