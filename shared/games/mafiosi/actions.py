"""Mafiosi's move vocabulary, shared by the UI, the bots and the network
(RULES.md §4.3-4.5; docs/protocol/mafiosi.md). Every action names one card by id."""
from __future__ import annotations

from dataclasses import dataclass

from shared.rules import Action, ActionSet


@dataclass(frozen=True)
class ChooseBouncer(Action):
    """Place ``card`` of one's hand face down as the nightclub's bouncer (vigile),
    simultaneously with the other players (§4.3 step 3, D-MAF-1)."""

    TYPE = "choose_bouncer"
    card: int


@dataclass(frozen=True)
class PlayCard(Action):
    """Play ``card`` of one's hand to the current trick (§4.4)."""

    TYPE = "play"
    card: int


@dataclass(frozen=True)
class KeepPointCard(Action):
    """A round winner keeps ``card`` of his W(p) (won cards or bouncer) face down as a
    point card (§4.5, D-MAF-13)."""

    TYPE = "keep_point_card"
    card: int


ACTIONS = ActionSet([ChooseBouncer, PlayCard, KeepPointCard])
