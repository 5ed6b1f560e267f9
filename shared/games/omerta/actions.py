"""Omerta's move vocabulary, shared by the UI, the bots and the network
(RULES.md §2.4-2.6; docs/PROTOCOL.md appendix)."""
from __future__ import annotations

from dataclasses import dataclass

from shared.rules import Action, ActionSet
from shared.windows import WindowTimeout  # the table's time-out of any window


@dataclass(frozen=True)
class Peek(Action):
    """Initial look at two different own slots (§2.3 step 4)."""

    TYPE = "peek"
    slots: tuple[int, ...]


@dataclass(frozen=True)
class DeclareOmerta(Action):
    """End the round now, at the start of one's turn (§2.4 step 1)."""

    TYPE = "declare_omerta"


@dataclass(frozen=True)
class DrawDeck(Action):
    """Take the top card of the draw pile, privately (§2.4 step 2)."""

    TYPE = "draw_deck"


@dataclass(frozen=True)
class TakeDiscard(Action):
    """Take the top card of the discard pile (§2.4 step 2, D-OM-9)."""

    TYPE = "take_discard"


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn without drawing; only when both piles are empty (§2.7, D-OM-8)."""

    TYPE = "end_turn"


@dataclass(frozen=True)
class Replace(Action):
    """Put the drawn card into own slot ``slot``; its card goes face up to the discard."""

    TYPE = "replace"
    slot: int


@dataclass(frozen=True)
class DiscardDrawn(Action):
    """Discard the card drawn from the pile (§2.4 step 3)."""

    TYPE = "discard_drawn"


@dataclass(frozen=True)
class Snap(Action):
    """Claim in a snap window: reveal own ``slot`` as the same bottle (§2.5)."""

    TYPE = "snap"
    slot: int


@dataclass(frozen=True)
class SnapPass(Action):
    """Answer "no snap" in a snap window."""

    TYPE = "snap_pass"


@dataclass(frozen=True)
class Henchman(Action):
    """Swap the cards of two slots of two different players (§2.6.1)."""

    TYPE = "henchman"
    slots: tuple[int, ...]


@dataclass(frozen=True)
class Lady(Action):
    """Shuffle another player's game (§2.6.2)."""

    TYPE = "lady"
    target: int


@dataclass(frozen=True)
class Mole(Action):
    """Look at one own slot (§2.6.3)."""

    TYPE = "mole"
    slot: int


@dataclass(frozen=True)
class Snitch(Action):
    """Give the top two cards of the draw pile: ``(p, p)`` or ``(p, q)`` (§2.6.4)."""

    TYPE = "snitch"
    recipients: tuple[int, ...]


@dataclass(frozen=True)
class Driver(Action):
    """Reveal one or two own slots; all bottles -> discarded, else a penalty (§2.6.5)."""

    TYPE = "driver"
    slots: tuple[int, ...]


@dataclass(frozen=True)
class Safecracker(Action):
    """Look at the four safe cards (§2.6.6); then ``safe_swap`` or ``decline``."""

    TYPE = "safecracker"


@dataclass(frozen=True)
class SafeSwap(Action):
    """Exchange own ``slot`` (unseen) with safe card ``index`` (0-3) (§2.6.6)."""

    TYPE = "safe_swap"
    slot: int
    index: int


@dataclass(frozen=True)
class Mamma(Action):
    """Make ``target`` skip his next turn (§2.6.8)."""

    TYPE = "mamma"
    target: int


@dataclass(frozen=True)
class PolicePatrol(Action):
    """Block another player's ``slot`` for two turns of the placer (§2.6.9)."""

    TYPE = "police_patrol"
    slot: int


@dataclass(frozen=True)
class Decline(Action):
    """Do not activate the discarded character, or end a Safecracker without a swap."""

    TYPE = "decline"


@dataclass(frozen=True)
class Hitwoman(Action):
    """Claim in a Hitwoman window: reveal own ``slot`` as the Hitwoman (§2.6.7)."""

    TYPE = "hitwoman"
    slot: int


@dataclass(frozen=True)
class HitwomanPass(Action):
    """Answer "no counter" in a Hitwoman window."""

    TYPE = "hitwoman_pass"


ACTIONS = ActionSet(
    [
        Peek, DeclareOmerta, DrawDeck, TakeDiscard, EndTurn, Replace, DiscardDrawn,
        Snap, SnapPass, Henchman, Lady, Mole, Snitch, Driver, Safecracker, SafeSwap,
        Mamma, PolicePatrol, Decline, Hitwoman, HitwomanPass, WindowTimeout,
    ]
)

_POWER_ACTIONS: dict[str, type[Action]] = {
    "henchman": Henchman,
    "lady": Lady,
    "mole": Mole,
    "snitch": Snitch,
    "driver": Driver,
    "safecracker": Safecracker,
    "mamma": Mamma,
    "police_patrol": PolicePatrol,
}
