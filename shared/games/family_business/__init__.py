"""Family Business (Mayfair 1989), 2-6 players: the rules engine of RULES.md §3.

A pure package satisfying :class:`shared.rules.Rules`: ``cards`` (data tables),
``actions`` (the move vocabulary), ``state`` (zones, :class:`Resolution`), ``war``
(deaths, elimination, the Mob War, drawing, the turn flow), ``effects`` (every action
card and counter, the owners' choices), ``engine`` (setup, legal actions, ``apply``,
the counter window), ``views`` (what each seat sees) and ``bot``. This module
re-exports the interface and declares :data:`GAME`.

Seats and gangs: seat ``p`` plays gang ``p`` (Capone Mob, Moran Gang, New York Mob,
Murder Inc., Purple Gang, Bank Robbers); unused gangs are put away (zone ``unused``).
Card ids: mobsters 0..53 (``9 * gang + i``), action cards 54.. (``cards.ACTION_CARDS``).

A turn (§3.5): T1 executions happen inside the engine when the turn begins, then T2
the draw (automatic), then the player sends one play or ``void``. A counterable card
opens a counter window (below); the card's owners then send ``place`` choices and the
player ``order`` choices as needed; the turn then ends by itself (T5, T6).

Counter window (§3.6, D-FB-3, §0.2 item 5): kind ``"counter"``, claim ``counter
{card}``, pass ``no_counter``. It opens after every counterable card (a Contract except
"no counter allowed", a Priority or Double Contract, a Vendetta, and in the 2006 deck a
Take It On the Lam); its ``eligible`` seats are *every* player in game except the one
who played the card, whatever they hold, so the window tells nothing about hands; a
seat without a fitting counter has only ``no_counter``. The first valid claim decides
and closes it (event ``counter`` with ``success: true``); a claim with a card that
cannot answer this attack raises :class:`IllegalAction`. The window closes when every
eligible seat has answered, or by ``window_timeout`` after ``counter_timeout_ms``.

Decisions taken here where RULES.md is silent (as players of the card game would):

* **Owner's choices** (D-FB-14): the engine waits for a ``place`` only when the owner
  really has a choice (more front mobsters than must go); otherwise they all go at once.
  Placements of several owners (Double Cross, Vendetta) are asked one owner at a time,
  clockwise from the player. The player then orders the collected mobsters with one
  ``order`` per place (the last one is automatic); Intrigue is ordered the same way,
  front of the list first.
* **Hit** (D-FB-7): the victim may be one's own mobster only if one still has another
  front mobster to put on the list afterwards.
* **Truce** cannot be played for effect during a permanent war (≤ 6 alive, §3.8: "not
  even by Truce"); it can be voided.
* **Mob War / Ambush with an empty hit list**: the war starts and, at the check point
  right after the card, ends again (§3.8) unless it is permanent.
* **The counterer's draw** (§3.6: "after resolving") happens once the countered card is
  fully resolved (after the placements a Mob Power causes), just before the next turn.
* **Turncoat**: the player chooses the victim among the most-alive players' mobsters in
  play and the revived mobster among the least-alive players' dead ones (any of them).
* **Safety cap**: after ``cap_turns`` turns (default 2000, 0 = none) the match ends; the
  players in game with the most living mobsters win (never reached in bot play).
* The ``deck_variant`` config value accepts "1989"/"2006" (and the RULES.md spellings
  "1989_56"/"2006_58").

Config keys: ``seats`` (2-6, default 4), ``deck_variant`` ("1989" default, 56 cards;
"2006", 58 with Finger), ``counter_timeout_ms`` (default 3000), ``cap_turns``; for tests
only ``deck`` (action-card codes of ``cards.ACTION_TYPES`` stacked on top, dealt first:
seat 0's five cards, seat 1's five, ..., then the draw pile in draw order) and
``first_player``.

Randomness (§0.2 item 2), always the match's ``random.Random(seed)``, in this order:
``rng.shuffle`` of the action cards not stacked by ``deck``; ``rng.randrange(n)`` for
the first player (D-FB-2) unless ``first_player`` is given; during play ``rng.shuffle``
of the discard pile each time it becomes the new draw pile.
"""
from __future__ import annotations

import random
import sys
from typing import Any

from shared.games.family_business import showing
from shared.gamedef import GameDef, Option, claim_outcome_by_success
from shared.games.family_business.actions import (
    ACTIONS, Ambush, Contract, Counter, DoubleCross, FederalCrackdown, Hit, Intrigue, Massacre,
    MobWar, NoCounter, Order, PayOff, Place, Rescue, Substitution, Truce, Turncoat, Vendetta,
    Void, WindowTimeout)
from shared.games.family_business.cards import (
    ACTION_CARDS, ACTION_TYPES, COUNTS_1989, GANGS, HAND_SIZE, MAX_SEATS, MIN_SEATS, MOBSTERS,
    NAME, action, card_dict, deck_ids, mobster)
from shared.games.family_business.engine import apply, awaiting, legal_actions, new_match
from shared.games.family_business.state import FBState
from shared.games.family_business.views import (
    all_ids, full_view, is_over, reaction_window, scores, timeout_action, turn_id, view,
    visible_cards, wire_cards, zones)


def make_bot(seat: int, rng: random.Random, reaction_model: Any = None, think_ms: float = 0.0,
             level: str = "normal"):
    """The Family Business bot for ``seat`` (see ``bot.FamilyBusinessBot``). No hard
    bot yet: hard changes only ``reaction_model``, which the caller adapts. Easy slips
    to any other legal move of the turn (:class:`shared.bots.levels.EasyBot`): each card
    is an action type of its own, so another move "of the same kind" would seldom differ."""
    from shared.games.family_business.bot import FamilyBusinessBot
    bot = FamilyBusinessBot(seat, rng, reaction=reaction_model, think_ms=think_ms)
    if level == "easy":
        from shared.bots.levels import EasyBot
        return EasyBot(bot, f"{rng.getrandbits(64)}/easy", slip=EASY_SLIP, same_kind=False)
    return bot


#: share of an easy bot's turns played as another legal move (see :func:`make_bot`)
EASY_SLIP = 0.45


GAME = GameDef(
    name="family_business", title="Family Business", min_seats=2, max_seats=6, default_seats=4,
    rules=sys.modules[__name__], make_bot=make_bot, claim_outcome=claim_outcome_by_success,
    turn_id=turn_id,
    shown=showing.shown,  # how long its screens show each event (bots wait for it)
    seat_keys=frozenset({"seat", "hand"}),  # views.view: only the seat's own hand differs
    options=(Option("deck_variant", "choice", "1989", choices=("1989", "2006")),
             Option("counter_timeout_ms", "int", 3000, lo=500, hi=30_000,
                    label="counter window time-out, ms"),
             Option("deck", "any", testing=True),
             Option("first_player", "int", seat_bound=True, testing=True)),
    timing_keys=("counter_timeout_ms",),
    late_claims_public=False,  # a counter that came too late would show who holds one
)

__all__ = [
    "ACTIONS", "ACTION_CARDS", "ACTION_TYPES", "COUNTS_1989", "GAME", "GANGS", "HAND_SIZE",
    "MAX_SEATS", "MIN_SEATS", "MOBSTERS", "NAME", "Ambush", "Contract", "Counter",
    "DoubleCross", "FBState", "FederalCrackdown", "Hit", "Intrigue", "Massacre", "MobWar",
    "NoCounter", "Order", "PayOff", "Place", "Rescue", "Substitution", "Truce", "Turncoat",
    "Vendetta", "Void", "WindowTimeout", "action", "all_ids", "apply", "awaiting", "card_dict",
    "deck_ids", "full_view", "is_over", "legal_actions", "make_bot", "mobster", "new_match",
    "reaction_window", "scores", "timeout_action", "turn_id", "view", "visible_cards",
    "wire_cards", "zones",
]
