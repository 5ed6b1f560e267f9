"""Mafiosi's search model for the hard bot (:mod:`shared.bots.search`): the
determinization of a seat's information set, the playout policy and the evaluation.

The request (built by :class:`shared.games.mafiosi.hard.HardMafiosiBot` from its view
and the events it saw, never from the full state) holds, as plain JSON data::

    seat, n, clans, hand, trick [[seat, card]...], ace_suit, jack_needed,
    piles        -- per seat the cards known to be in W(p) (won tricks seen + bouncer)
    pile_missing -- per seat, won cards it has that this seat did not see (a late join)
    hand_counts  -- per seat
    pool         -- every card this seat has not seen this round (other hands, the aside
                    pile, other seats' point cards)
    voids        -- per seat, suits it showed it has none of (§4.4 rule 2: it did not
                    follow an ace's suit)
    no_jack      -- per seat: it showed it has no Jack (§4.4 rule 3: no Jack after a Queen)
    no_muscle    -- per seat: its bouncer is a face card, so it was dealt no muscle
                    (§4.3 step 3), and no Jack either when that face card is not a Jack
    candidates   -- the legal cards, the normal bot's choice first

A **determinization** deals the pool: each other seat gets ``hand_counts + pile_missing``
cards drawn uniformly among the cards its revealed voids allow (most constrained seat
first), the rest is out of play. A **playout** finishes the round with a lean greedy
policy (:func:`policy`) for every seat; the **evaluation** is the seat's share of the
round's win (§4.5: highest score among survivors, then most face cards), plus a
hundredth of its score margin to break ties between equal shares.
"""
from __future__ import annotations

import random
from typing import Any

from shared.games.mafiosi.cards import DECK, JACK, KING, QUEEN, suit_card
from shared.games.mafiosi.scoring import (
    card_points, face_count, is_eliminated, round_score, round_winners)
from shared.games.mafiosi.tricks import after_play, play_problem, trick_winner

__all__ = ["candidates", "determinize", "policy", "value", "allowed"]

#: share of playout moves drawn uniformly among the legal cards (keeps playouts varied)
EXPLORE = 0.1

_RANK = [c.rank for c in DECK]
_SUIT = [c.suit for c in DECK]


def candidates(request: dict[str, Any]) -> list[int]:
    """The card ids searched, the normal bot's choice first."""
    return list(request["candidates"])


def allowed(request: dict[str, Any], seat: int, card: int) -> bool:
    """Whether ``seat`` may still hold ``card`` given what its play revealed: no card of
    a suit it showed void in (§4.4 rule 2), no Jack after it ducked a Jack duty (rule 3),
    no muscle (and no Jack under a Queen or King) under a face-card bouncer (§4.3 step 3).
    Jokers are always possible."""
    r = _RANK[card]
    if r == 0:
        return True
    if _SUIT[card] in request["voids"][seat]:
        return False
    if r == JACK and request["no_jack"][seat]:
        return False
    if 1 <= r <= 10 and request["no_muscle"][seat]:
        return False
    return True


class World:
    """A determinization: every hand, every W(p), the trick in progress."""

    __slots__ = ("hands", "piles", "trick", "ace_suit", "jack_needed", "turn")

    def __init__(self, hands: list[list[int]], piles: list[list[int]], trick: list[tuple[int, int]],
                 ace_suit: str | None, jack_needed: bool, turn: int):
        self.hands, self.piles, self.trick = hands, piles, trick
        self.ace_suit, self.jack_needed, self.turn = ace_suit, jack_needed, turn

    def copy(self) -> "World":
        return World([list(h) for h in self.hands], [list(p) for p in self.piles], list(self.trick),
                     self.ace_suit, self.jack_needed, self.turn)


def determinize(request: dict[str, Any], rng: random.Random) -> World:
    """A full deal consistent with the seat's information set (see the module
    docstring). A seat whose constraints leave too few cards (inference from a late
    join can be incomplete) draws from the whole remaining pool."""
    me, n = request["seat"], request["n"]
    pool = list(request["pool"])
    rng.shuffle(pool)
    hands: list[list[int]] = [[] for _ in range(n)]
    piles = [list(p) for p in request["piles"]]
    hands[me] = list(request["hand"])
    others = [q for q in range(n) if q != me]
    need = {q: request["hand_counts"][q] for q in others}
    ok = {q: [c for c in pool if allowed(request, q, c)] for q in others}
    left = set(pool)
    for q in sorted(others, key=lambda q: (len(ok[q]) - need[q], q)):
        mine = [c for c in ok[q] if c in left][:need[q]]
        if len(mine) < need[q]:  # inconsistent knowledge: fill from anything left
            mine += [c for c in pool if c in left and c not in mine][:need[q] - len(mine)]
        hands[q] = mine
        left.difference_update(mine)
    for q in others:
        extra = request["pile_missing"][q]
        if extra:
            got = [c for c in pool if c in left][:extra]
            piles[q] += got
            left.difference_update(got)
    trick = [(int(s), int(c)) for s, c in request["trick"]]
    turn = (trick[0][0] + len(trick)) % n if trick else me
    return World(hands, piles, trick, request["ace_suit"], request["jack_needed"], turn)


def value(world: World, request: dict[str, Any], card: int, rng: random.Random) -> float:
    """Play ``card`` for the seat in a copy of ``world``, finish the round with
    :func:`policy` and evaluate: the seat's share of the round win plus 0.01 x its
    score margin over the best other survivor."""
    w = world.copy()
    clans = request["clans"]
    n = request["n"]
    me = request["seat"]
    _play(w, me, card, clans, n)
    while w.hands[w.turn]:
        p = w.turn
        _play(w, p, policy(w, p, clans, n, rng), clans, n)
    return evaluate(w.piles, clans, me)


def evaluate(piles: list[list[int]], clans: list[str | None], me: int) -> float:
    """The seat's share of the round win (§4.5) + 0.01 x score margin."""
    n = len(piles)
    scores = [round_score(piles[p], clans[p]) for p in range(n)]
    faces = [face_count(piles[p]) for p in range(n)]
    out = [is_eliminated(clans[p], piles) for p in range(n)]
    winners = round_winners(scores, faces, out)
    share = 1.0 / len(winners) if me in winners else 0.0
    rivals = [scores[p] for p in range(n) if p != me and not out[p]]
    margin = scores[me] - (max(rivals) if rivals else 0)
    if out[me]:
        margin -= 10
    return share + 0.01 * margin


def _play(w: World, p: int, card: int, clans: list[str | None], n: int) -> None:
    """One card to the trick (§4.4); a full trick goes to its winner's pile."""
    w.hands[p].remove(card)
    w.ace_suit, w.jack_needed = after_play(w.ace_suit, w.jack_needed, [c for _, c in w.trick], card)
    w.trick.append((p, card))
    if len(w.trick) < n:
        w.turn = (p + 1) % n
        return
    winner, _ = trick_winner(w.trick, clans)
    w.piles[winner].extend(c for _, c in w.trick)
    w.trick = []
    w.ace_suit, w.jack_needed = None, False
    w.turn = winner


def policy(w: World, p: int, clans: list[str | None], n: int, rng: random.Random) -> int:
    """A lean greedy card for seat ``p`` in a playout: take a trick worth taking with
    the cheapest card that leads it (the strongest when others still play after it),
    else dump the card least worth keeping (a Joker or a Queen on another's trick
    first); never take its own clan's King and Jack together. Now and then
    (:data:`EXPLORE`) any legal card."""
    hand = w.hands[p]
    legal = [c for c in hand if play_problem(hand, w.ace_suit, w.jack_needed, c) is None]
    if len(legal) == 1:
        return legal[0]
    if rng.random() < EXPLORE:
        return rng.choice(legal)
    clan = clans[p]
    trick = w.trick
    # the card leading the trick now: (strength, is_trump)
    lead_s, lead_t = -1, False
    for s, c in trick:
        r = _RANK[c]
        if r == 0:
            continue
        t = _SUIT[c] == clans[s]
        if (t and not lead_t) or (t == lead_t and r > lead_s):
            lead_s, lead_t = r, t
    cards = [c for _, c in trick]
    worth = sum(card_points(c, cards, clan) for c in cards)
    last = len(trick) == n - 1
    wins = []
    for c in legal:
        r = _RANK[c]
        if r == 0:
            continue
        t = _SUIT[c] == clan
        if (t and not lead_t) or (t == lead_t and r > lead_s):
            wins.append(c)
    if clan is not None:  # never take one's own clan's King and Jack together (§4.5)
        king, jack = suit_card(clan, KING), suit_card(clan, JACK)
        have = set(w.piles[p]).union(cards)
        wins = [c for c in wins if not (king in have or c == king) or not (jack in have or c == jack)]
    if wins:
        gain = {c: worth + card_points(c, cards + [c], clan) for c in wins}
        good = [c for c in wins if gain[c] > 0 or (not trick and _RANK[c] >= 11)]
        if good:
            if last:
                return min(good, key=lambda c: (_RANK[c], c))
            return max(good, key=lambda c: (_SUIT[c] == clan, _RANK[c], -c))
    losers = [c for c in legal if c not in wins] or legal
    return min(losers, key=lambda c: (_keep(c, clan), c))


def _keep(c: int, clan: str | None) -> float:
    """How much a card is worth keeping in hand (lower is dumped first)."""
    r = _RANK[c]
    if r == 0:
        return -10.0
    if r == QUEEN:
        return -2.0
    return r * (3.0 if _SUIT[c] == clan else 1.0)
