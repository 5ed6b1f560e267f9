"""Famiglia (Friedemann Friese), 2 players: the rules engine of RULES.md §1.

A pure package satisfying :class:`shared.rules.Rules`: no I/O, no clock, no global random.
Modules: ``cards`` (the data tables and the 60 cards), ``actions`` (the move vocabulary),
``state`` (:class:`FamigliaState`), ``setup`` (:func:`new_match`), ``turns`` (street draws,
exhaustions, end timing, the end-of-turn step), ``phases`` (the rule of each action, one
check serving both ``legal_actions`` and ``apply``), ``engine`` (``legal_actions``,
``awaiting``, ``apply``), ``scoring`` (ranking, tie-break, game over), ``views`` (views,
zones, scores, the end), ``visibility`` (which card faces a seat may know:
:func:`visible_cards`, :func:`wire_cards`) and ``bot``
(:class:`~shared.games.famiglia.bot.FamigliaBot`).
Everything below is importable from the package itself.

Zones (§1.2): ``deck`` (top = last element, bottom = index 0), ``street`` (an unordered
set kept in arrival order so that cards do not jump around on screen), ``discard`` (top =
last), and per seat a ``hand`` (hidden from the opponent, D-FAM-2) and a ``gang`` (the
play area, public). Cards never leave a player once recruited: a seat's score is the VP
of its hand + gang (§1.7).

Cards (§1.1): 60 cards, ids fixed (:data:`DECK`): family ``f`` in the order La Famiglia,
Accountants, Brutes, Mercenaries owns ids ``15 f .. 15 f + 14`` sorted by value (five 0s,
four 1s, three 2s, two 3s, one 4). Starting set "1" is the first 0 of each family (ids 0,
15, 30, 45), set "2" the second (ids 1, 16, 31, 46). Card codes (config and tests): family
letter ``F``/``A``/``B``/``M`` + printed value, e.g. ``"A3"``.

How the four phases of a turn map onto actions (§1.5). A turn is a sequence of actions
by the active seat; the engine keeps ``step`` = the last phase entered (0 at the start of
the turn), and every action may only move it forward, so phases run in order and each
optional phase is skipped simply by sending an action of a later one:

============  ===================================  ====================================
phase         actions                              allowed while
============  ===================================  ====================================
1 renew       ``renew(card)``, repeatable (P1.3)   step <= 1
2 Accountant  ``accountant(card)``, then up to v   step <= 1
              ``swap(from_gang, from_hand)``       step == 2, fewer than v swaps so far
3 Brute       ``brute(card, target, amount)``      step <= 2
4 recruit     ``take_free(card)``,                 always; ends the turn
              ``take_pair(card, to_gang, keep)``,
              ``pass``
============  ===================================  ====================================

The phase-4 action ends the turn and runs the end-of-turn step (refill, pass count, end
timing, next player). ``pass`` is always legal, so a seat is never stuck.

Events (``data`` fields; cards as :meth:`Card.to_dict`; all public except ``kept``):
``turn`` {seat, turn_no}; ``renew`` {seat, card, to: "discard" | "deck_bottom"};
``street_draw`` {card, reason: "renew" | "refill", deck}; ``reshuffle`` {deck, exhaustion};
``end_triggered`` {seat, during, turn_no, last_turn}; ``accountant`` {seat, card};
``swap`` {seat, from_gang, from_hand, swaps, max}; ``brute`` {seat, card, target, amount,
effective}; ``recruit`` {seat, card, effective, mode: "free" | "pair", to_gang} with the
secret {kept} for the recruiter only; ``pass`` {seat, passes}; ``refill`` {seat, count}
(before its draws); ``game_over`` {reason, scores, winners, decided_by, hands}.

Decisions taken here where RULES.md is silent:

* **Accountant in two steps** (§1.5 phase 2, D-FAM-3, D-FAM-7). ``accountant(card)``
  puts the Accountant into the gang; each ``swap`` then exchanges one gang card for one
  hand card, at most v swaps. A card moved by a swap of this Accountant cannot be moved
  again, and the Accountant itself cannot be taken back: the reachable results are exactly
  those of the simultaneous swap of two sets of k <= v cards (D-FAM-7), while the list of
  legal actions stays small (one swap = one gang card x one hand card, instead of every
  pair of subsets). The swaps end when the seat sends a phase-3 or phase-4 action.
* **take_pair names its cards by destination**: ``to_gang`` goes to the gang, ``keep``
  stays in the hand. The engine decides which of the two is the real card and which the
  Mercenary joker (§1.5 phase 4 "the order is irrelevant"), so every legal take is listed
  exactly once per destination choice.
* **The card kept in the hand after a take_pair** is told to its owner only (``secret``):
  the opponent learns the recruited card and the card sent to the gang. (Nothing is lost:
  a hand is already deducible from the public record; this way no id of a card that was
  never face up is ever sent to another seat.)
* **Hands are revealed at the end** (``game_over`` event and the view once the match is
  over), since the score counts them (§1.7).
* **Scores in the view**: each seat's current score is public. In a real match it is
  deducible from public information (every starting set is worth 1 VP and every recruit
  is face up), and it is what a player would count on the table.
* **Tie-break lists of different lengths** (D-FAM-12): the descending lists are compared
  as Python lists, so when one is a prefix of the other the longer one (an extra card,
  even a 0 VP one) wins.
* **Brute amount**: 1..v even if that exceeds the target's value (the value stops at 0,
  §1.5 phase 3); a Brute can target any street card.
* **Setup with a tiny deck** (test configs only): the deck must hold more than 6 cards
  after hands and gangs are dealt, so that setup never exhausts it.

Randomness (RULES.md §0.2 item 2), always the match's ``random.Random(seed)``, in this
order: ``rng.randrange(2)`` = the starting set of seat 0 (set 1 if 0, D-FAM-15), skipped
when ``hands`` is configured; ``rng.shuffle`` of the cards not stacked by ``deck`` (they go
below the stacked ones); ``rng.randrange(2)`` = the first player unless ``first_player`` is
configured; during play, ``rng.shuffle`` of the discard pile when it becomes the new deck
at the first exhaustion (§1.4).

Config keys: ``seats`` (must be 2, default 2), ``first_player`` (0 or 1, default random),
and for tests only: ``deck`` (card codes stacked on top of the deck in draw order; the
first six make the street), ``hands`` (two lists of codes replacing the starting sets) and
``gangs`` (two lists of codes put in the gangs). Unknown keys are ignored (the table may
pass options meant for other games).
"""
from __future__ import annotations

import sys
from typing import Any, Hashable

from shared.games.famiglia.actions import (
    ACTIONS, Accountant, Brute, Pass, Renew, Swap, TakeFree, TakePair)
from shared.games.famiglia.cards import (
    ACCOUNTANT, BRUTE, COPIES, DECK, FAMIGLIA, FAMILIES, MAX_SEATS, MERCENARY, MIN_SEATS, NAME,
    STARTING_SETS, STREET_SIZE, VP_COMMON, VP_FAMIGLIA, Card, card, vp)
from shared.games.famiglia.engine import apply, awaiting, legal_actions
from shared.games.famiglia.setup import new_match
from shared.games.famiglia.state import FamigliaState
from shared.games.famiglia.views import (
    full_view, is_over, reaction_window, scores, timeout_action, view, zones)
from shared.games.famiglia.visibility import visible_cards, wire_cards
from shared.games.famiglia import showing
from shared.gamedef import GameDef, Option


def _make_bot(seat: int, rng: Any, reaction: Any, think_ms: float, level: str = "normal") -> Any:
    # hard searches the start of its turns (hard.py); easy's slips are shared.bots.levels'
    from shared.games.famiglia.bot import FamigliaBot
    if level == "hard":
        from shared.games.famiglia.hard import HardFamigliaBot
        return HardFamigliaBot(seat, rng, think_ms=think_ms)
    return FamigliaBot(seat, rng, think_ms=think_ms)


def turn_id(state: FamigliaState) -> Hashable:
    """The turn in progress for the turn timer: ``(None, turn_no)``."""
    return None, state.turn_no


GAME = GameDef(
    name=NAME, title="Famiglia", min_seats=MIN_SEATS, max_seats=MAX_SEATS, default_seats=2,
    rules=sys.modules[__name__], make_bot=_make_bot,
    claim_outcome=lambda events, seat: None, turn_id=turn_id,
    shown=showing.shown,  # how long its screens show each event (bots wait for it)
    seat_keys=frozenset({"seat", "players"}),  # views.view: players show the seat's own hand
    options=(
        Option("deck", "any", testing=True),
        Option("first_player", "int", seat_bound=True, testing=True),
    ),
)

__all__ = [
    "ACCOUNTANT", "ACTIONS", "BRUTE", "COPIES", "DECK", "FAMIGLIA", "FAMILIES", "GAME",
    "MAX_SEATS", "MERCENARY", "MIN_SEATS", "NAME", "STARTING_SETS", "STREET_SIZE", "VP_COMMON",
    "VP_FAMIGLIA", "Accountant", "Brute", "Card", "FamigliaState", "Pass", "Renew", "Swap",
    "TakeFree", "TakePair", "apply", "awaiting", "card", "full_view", "is_over",
    "legal_actions", "new_match", "reaction_window", "scores", "timeout_action", "turn_id",
    "view", "visible_cards", "vp", "wire_cards", "zones",
]
