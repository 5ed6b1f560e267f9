"""Omerta (Helvetiq 2019), 3-5 players: the rules engine of RULES.md §2.

A pure package satisfying :class:`shared.rules.Rules`: ``cards`` (the data table),
``actions`` (the move vocabulary), ``state`` (zones and their small operations),
``rounds`` (setup, turn order, markers, scoring), ``powers`` (the characters),
``engine`` (legal actions, ``apply``, the snap window) and ``views`` (what each seat
sees); this module re-exports the interface. A *match* is ``rounds`` rounds (one
per player by default, §2.9); a *round* ends when somebody declares Omerta (§2.8).

Zones (§2.2): ``draw_pile`` (top = last element), ``discard`` (top = last), ``safe`` (4
cards), each seat's ``game`` = ordered slots ``(slot_id, card_id)``, the markers
(``mamma`` on a seat, ``patrol`` on a slot), the card in the active player's hand
(``drawn``) and a Mamma/Patrol card held while its Hitwoman window is open
(``attack``). Slot ids are unique within a match and never reused, so an action or a
marker always names the same physical place even after other slots disappear.

Cards: 40 bottles (4 of each value 1-10, D-OM-2) and 20 characters from the
:data:`CHARACTERS` table (counts D-OM-1). Card ids 0..59 are fixed (:data:`DECK`); an id
is never shown to a seat while that seat may not see the card's face.

Randomness (RULES.md §0.2 item 2), always the match's ``random.Random(seed)``, in this
order: at each round start ``rng.shuffle`` of the cards not stacked by the ``deck``
option; then, in round 1 only, ``rng.randrange(n)`` for the first player (D-OM-3) unless
``first_player`` is configured; during play ``rng.shuffle`` of a Lady's target slots
(§2.6.2) and of the discard pile when it becomes the new draw pile (§2.7).

Decisions taken here where RULES.md is silent (players of the card game would do the
same):

* **Tie for the first player** (D-OM-4): "the first tied player clockwise from the
  previous round's first player" is read as in "the first player clockwise from the
  dealer": the search starts at the seat *after* the previous first player, so a tie
  rotates the start.
* **Snitch recipients are ordered** (§2.6.4, D-OM-8): ``(p, q)`` gives the top card of
  the draw pile to ``p`` and the next to ``q``, so when the piles run out after one
  card, ``Snitch((2, 1))`` gives it to seat 2 and ``Snitch((1, 2))`` to seat 1;
  ``legal_actions`` lists both orders.
* **Mamma/Patrol card during its Hitwoman window** is held aside (``attack``), not on the
  discard pile, so a penalty draw that reshuffles the discard pile cannot lose it; if the
  attack is countered it goes onto the discard pile below the Hitwoman (D-OM-26).
* **A character with no legal target** (D-OM-5) and Witness, Alibi and Hitwoman
  discarded on one's turn (§2.6.7, §2.6.10) end the turn at once: there is nothing to
  choose.
* **Nothing to draw** (§2.7): when both piles are empty the active player may still
  declare Omerta; otherwise his only action is ``end_turn``.
* **Safecracker**: ``safecracker`` is the look (a private event with the four safe
  cards); the player then sends ``safe_swap`` or ``decline`` (D-OM-15).
* **Timeouts**: a window stays open until every eligible seat has claimed or passed, or
  until the table applies ``window_timeout`` after ``snap_timeout_ms`` (default 3000 ms,
  D-OM-6); the Hitwoman window uses ``counter_timeout_ms`` (same default).

Config keys: ``seats`` (3-5), ``rounds`` (default = seats), ``snap_timeout_ms``,
``counter_timeout_ms``, ``cap_turns_per_player`` (D-OM-25, default 40, 0 = no cap),
and for tests only ``deck`` (card codes stacked on top of round 1's deck, dealt first:
seat 0's four slots, then seat 1's ..., then the safe, then the draw pile in draw order)
and ``first_player``.
"""
from __future__ import annotations

import sys
from typing import Any, Hashable

from shared.games.omerta.actions import (
    ACTIONS, DeclareOmerta, Decline, DiscardDrawn, DrawDeck, Driver, EndTurn, Henchman,
    Hitwoman, HitwomanPass, Lady, Mamma, Mole, Peek, PolicePatrol, Replace, Safecracker,
    SafeSwap, Snap, SnapPass, Snitch, TakeDiscard, WindowTimeout)
from shared.games.omerta.cards import (
    ACTIVE_POWERS, BOTTLE_COPIES, BOTTLE_VALUES, CHARACTERS, COUNTERABLE, DECK,
    FAILED_DECLARATION_PENALTY, MAX_SEATS, MIN_SEATS, NAME, OMERTA_LIMIT, Card, card)
from shared.games.omerta.engine import apply, awaiting, legal_actions
from shared.games.omerta.rounds import new_match
from shared.games.omerta.state import OmertaState
from shared.games.omerta.views import (
    full_view, is_over, own_view, reaction_window, scores, timeout_action, view, zones)
from shared.games.omerta.visibility import visible_cards, wire_cards
from shared.games.omerta import showing
from shared.gamedef import GameDef, Option, claim_outcome_by_success


def _make_bot(seat: int, rng: Any, reaction: Any, think_ms: float, level: str = "normal") -> Any:
    from shared.games.omerta.bot import OmertaBot
    if level == "hard":
        from shared.games.omerta.hard import HardOmertaBot
        return HardOmertaBot(seat, rng, reaction=reaction, think_ms=think_ms)
    bot = OmertaBot(seat, rng, reaction=reaction, think_ms=think_ms, level=level)
    if level == "easy":
        # its fading memory is its main mistake already: fewer slips than the default
        from shared.bots.levels import EasyBot
        return EasyBot(bot, f"{rng.getrandbits(64)}/easy", slip=0.15)
    return bot


def turn_id(state: OmertaState) -> Hashable:
    """The turn in progress for the turn timer: ``(round, turn_no)``."""
    return state.round, state.turn_no


GAME = GameDef(
    name=NAME, title="Omerta", min_seats=MIN_SEATS, max_seats=MAX_SEATS, default_seats=4,
    rules=sys.modules[__name__], make_bot=_make_bot,
    claim_outcome=claim_outcome_by_success, turn_id=turn_id,
    seat_keys=frozenset({"seat", "drawn", "safe_cards"}),  # views.view: the rest is _public's
    own_view=own_view,
    shown=showing.shown,  # how long its screens show each event (bots wait for it)
    options=(
        Option("rounds", "int", None, lo=1, hi=20, label="rounds (default: one per player)"),
        Option("snap_timeout_ms", "int", 3000, lo=500, hi=30_000,
               engine_keys=("snap_timeout_ms", "counter_timeout_ms"),
               label="reaction window time-out, ms (D-OM-6)"),
        Option("deck", "any", testing=True),
        Option("first_player", "int", seat_bound=True, testing=True),
    ),
    timing_keys=("snap_timeout_ms", "counter_timeout_ms"),
)

__all__ = [
    "ACTIONS", "ACTIVE_POWERS", "GAME", "BOTTLE_COPIES", "BOTTLE_VALUES", "CHARACTERS", "COUNTERABLE",
    "DECK", "FAILED_DECLARATION_PENALTY", "MAX_SEATS", "MIN_SEATS", "NAME", "OMERTA_LIMIT",
    "Card", "DeclareOmerta", "Decline", "DiscardDrawn", "DrawDeck", "Driver", "EndTurn",
    "Henchman", "Hitwoman", "HitwomanPass", "Lady", "Mamma", "Mole", "OmertaState", "Peek",
    "PolicePatrol", "Replace", "Safecracker", "SafeSwap", "Snap", "SnapPass", "Snitch",
    "TakeDiscard", "WindowTimeout", "apply", "awaiting", "card", "full_view", "is_over",
    "legal_actions", "new_match", "own_view", "reaction_window", "scores", "timeout_action", "turn_id", "view",
    "visible_cards", "wire_cards", "zones",
]
