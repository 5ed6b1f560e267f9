"""Mafiosi (homemade trick-taking game, rules v3), 3-5 players: the rules engine of
RULES.md §4.

A pure package satisfying :class:`shared.rules.Rules`: ``cards`` (the 54-card deck),
``actions`` (the three moves), ``state`` (zones), ``tricks`` (legal play, duties, trick
winner), ``scoring`` (the §4.5 table, elimination, winners), ``rounds`` (deal, bouncers,
leader, trick flow, point cards, end), ``engine`` (:func:`why_illegal`,
``legal_actions``, ``apply``), ``views`` (what each seat sees) and ``bot``. A *match* is
``rounds`` rounds (one per player by default, §4.6); a *round* is the deal, the hidden
simultaneous bouncer choice, H - 1 tricks, the scoring and the winners' point cards.

Phases: ``bouncer`` (every seat without a bouncer is awaited; the view says who has
chosen, never what; ``bouncer_chosen`` is public with the card as a secret for the
chooser only; ``bouncers_revealed`` shows them all at once), ``play`` (one seat at a
time), ``point`` (the round winners, simultaneously) and ``over``.

One rule, written once: :func:`why_illegal(state, seat, card) <why_illegal>` returns the
sentence that explains why a card may not be used now (or None); ``legal_actions``,
``apply`` and the view's per-card ``reason`` (:func:`illegal_reasons`) all call it.

Cards: ids 0..51 = ``13 * suit + rank - 1`` with suits hearts, diamonds, spades, clubs
and ranks 1 (ace) .. 10, 11 Jack, 12 Queen, 13 King; 52 and 53 the Jokers. Codes for the
``deck`` option: ``"AH"``/``"1H"``, ``"2H"``..``"10H"``, ``"JH"``, ``"QH"``, ``"KH"`` (suit
letters H D S C) and ``"JK1"``, ``"JK2"``. On the wire a card is ``{"id", "kind": "card",
"rank": "A".."10"|"J"|"Q"|"K"|"joker", "suit": "hearts"..|null, "strength", "value",
"code"}``.

Randomness (RULES.md §0.2 item 2): the match's ``random.Random(seed)`` is used once per
round, at its start: ``rng.shuffle`` of the cards in the round's deck (ids in increasing
order, minus the point cards kept, minus the cards stacked by ``deck`` in round 1).
Nothing else is random.

Config keys: ``seats`` (3-5), ``rounds`` (1-20, default = seats, §4.6); tests only:
``deck`` (card codes dealt first in round 1: seat 0's whole hand, seat 1's, ..., then
the aside pile from its top; the unlisted cards follow in shuffled order) and
``first_player`` (round 1's first leader, instead of §4.3 step 4).

Decisions taken here where RULES.md is silent (as players of the card game would do):

* **Hands are sorted** (by suit, then rank) at the deal; order has no rule meaning.
* **Leader tie-break with a short aside pile** (D-MAF-4): the tied seats take the aside
  cards from the top in seat order, each card once; a tied seat left without a card adds
  0. The drawn cards then go, in drawn order, to the bottom of the aside pile. No ages
  are known to the engine: a remaining tie goes to the lowest seat.
* **Round scoring is public, piles are not** (D-MAF-15): the ``round_scored`` event
  gives every clan, score, face-card count, elimination and the winners; the won
  cards themselves are never shown to another seat (the engine is the trusted counter).
* **Point cards**: the round winners choose at the same time, each face down (public
  ``point_card_kept`` says only who); the round's scores are fixed before. If the kept
  card is the bouncer, the revealed bouncer stays displayed for the rest of that round
  (it was public). Point cards are shown to everybody in ``match_over``.
* **Tiny decks** (D-MAF-14 with ``rounds`` > seats and many shared wins): H = min(13/11/9,
  deck // n); with H = 0 the match ends at once (final reveal); with H = 1 the round is
  scored on the bouncers alone. A hand of Jokers only has no legal bouncer: that seat
  has no bouncer and no clan (no trumps, no muscle points, any free King +3, never
  eliminated).
* **Final totals**: a player without point cards has 0; if all totals are equal every
  player shares the victory.
"""
from __future__ import annotations

import sys
from typing import Any, Hashable

from shared.games.mafiosi.actions import ACTIONS, ChooseBouncer, KeepPointCard, PlayCard
from shared.games.mafiosi.cards import (
    DECK, HAND_SIZE, MAX_SEATS, MIN_SEATS, NAME, SUITS, Card, card, card_id, suit_card)
from shared.games.mafiosi.engine import (
    apply, awaiting, illegal_reasons, legal_actions, why_illegal)
from shared.games.mafiosi.rounds import new_match
from shared.games.mafiosi.state import MafiosiState
from shared.games.mafiosi.views import (
    full_view, is_over, reaction_window, scores, timeout_action, view, visible_cards,
    wire_cards, zones)
from shared.games.mafiosi import showing
from shared.gamedef import GameDef, Option


def _make_bot(seat: int, rng: Any, reaction: Any, think_ms: float, level: str = "normal") -> Any:
    # hard searches its trick cards (hard.py). Easy plays another legal card more
    # often than the shared default: most of a trick's cards are close in value, so a
    # beginner's slip at the default share hardly shows
    from shared.games.mafiosi.bot import MafiosiBot
    if level == "hard":
        from shared.games.mafiosi.hard import HardMafiosiBot
        return HardMafiosiBot(seat, rng, think_ms=think_ms)
    bot = MafiosiBot(seat, rng, think_ms=think_ms)
    if level == "easy":
        from shared.bots.levels import EasyBot
        return EasyBot(bot, f"{rng.getrandbits(64)}/easy", slip=0.5)
    return bot


def turn_id(state: MafiosiState) -> Hashable | None:
    """The turn in progress for the turn timer: ``(round, trick_no, seat)`` during trick
    play, ``("point", round, pending seats)`` while round winners choose, None during the
    simultaneous bouncer choice and once over."""
    if state.phase == "play":
        return state.round, state.trick_no, state.turn
    if state.phase == "point":
        return "point", state.round, tuple(state.point_pending)
    return None


GAME = GameDef(
    name=NAME, title="Mafiosi", min_seats=MIN_SEATS, max_seats=MAX_SEATS, default_seats=4,
    rules=sys.modules[__name__], make_bot=_make_bot,
    claim_outcome=lambda events, seat: None, turn_id=turn_id,
    shown=showing.shown,  # how long its screens show each event (bots wait for it)
    seat_keys=frozenset({"seat", "hand", "players"}),  # views.view: own hand, bouncer, tricks won
    options=(
        Option("rounds", "int", None, lo=1, hi=20, label="rounds (default: one per player)"),
        Option("deck", "any", testing=True),
        Option("first_player", "int", seat_bound=True, testing=True),
    ),
    timing_keys=(),
)

__all__ = [
    "ACTIONS", "Card", "ChooseBouncer", "DECK", "GAME", "HAND_SIZE", "KeepPointCard",
    "MAX_SEATS", "MIN_SEATS", "MafiosiState", "NAME", "PlayCard", "SUITS", "apply", "awaiting",
    "card", "card_id", "full_view", "illegal_reasons", "is_over", "legal_actions",
    "new_match", "reaction_window", "scores", "suit_card", "timeout_action", "turn_id", "view",
    "visible_cards", "why_illegal", "wire_cards", "zones",
]
