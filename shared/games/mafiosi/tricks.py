"""Playing a trick (RULES.md §4.4): the legal-play rule, the per-trick duties (ace suit,
Queen-then-Jack) and the winner. Pure functions of card ids; the engine calls them."""
from __future__ import annotations

from typing import Sequence

from shared.games.mafiosi.cards import DECK, JACK, QUEEN


def _singular(suit: str) -> str:
    return suit[:-1]  # hearts -> heart


def play_problem(hand: Sequence[int], ace_suit: str | None, jack_needed: bool,
                 card_id: int) -> str | None:
    """Why ``card_id`` (in ``hand``) may not be played now, or None (§4.4 "Legal play").

    1. a Joker is always legal (D-MAF-6);
    2. after the trick's first ace, a player holding a non-Joker card of its suit must
       play that suit (D-MAF-5);
    3. else after a Queen with no Jack yet in the trick, a player holding a Jack must play
       a Jack, of any suit (D-MAF-3);
    4. otherwise any card: no duty to follow suit, to play higher or to trump.
    """
    c = DECK[card_id]
    if c.is_joker:
        return None
    if ace_suit is not None:
        if c.suit != ace_suit and any(DECK[h].suit == ace_suit for h in hand):
            return (f"an ace of {ace_suit} was played: play a {_singular(ace_suit)} "
                    f"(or a Joker)")
        return None
    if jack_needed and c.rank != JACK and any(DECK[h].rank == JACK for h in hand):
        return "a Queen was played and no Jack yet: play a Jack (or a Joker)"
    return None


def after_play(ace_suit: str | None, jack_needed: bool, trick: Sequence[int],
               card_id: int) -> tuple[str | None, bool]:
    """The trick's ``(ace_suit, jack_needed)`` after ``card_id`` joins ``trick`` (the card
    ids played before it), §4.4 "State update": the first ace fixes its suit and cancels
    the Jack duty; while no ace rules, a Queen with no Jack yet creates the Jack duty and a
    Jack ends it. A later ace of another suit changes nothing (D-MAF-5)."""
    c = DECK[card_id]
    if ace_suit is not None:
        return ace_suit, False
    if c.is_ace:
        return c.suit, False
    if c.rank == QUEEN and not any(DECK[t].rank == JACK for t in trick):
        return None, True
    if c.rank == JACK:
        return None, False
    return None, jack_needed


def trick_winner(trick: Sequence[tuple[int, int]], clans: Sequence[str | None]) -> tuple[int, bool]:
    """``(winning seat, won by a trump)`` of a full trick of ``(seat, card)`` in play order
    (§4.4 "Winner"): a card is a trump for the player whose clan is its suit (D-MAF-8);
    the strongest trump wins, else the strongest non-Joker card; Jokers never win; equal
    strength goes to the card played first (D-MAF-18)."""
    trumps = [(seat, cid) for seat, cid in trick
              if not DECK[cid].is_joker and DECK[cid].suit == clans[seat]]
    pool = trumps or [(seat, cid) for seat, cid in trick if not DECK[cid].is_joker]
    best_seat, best = pool[0][0], DECK[pool[0][1]].strength
    for seat, cid in pool[1:]:
        if DECK[cid].strength > best:
            best_seat, best = seat, DECK[cid].strength
    return best_seat, bool(trumps)
