"""The Mafiosi bot: plays from its own seat's view and events only (ARCHITECTURE §1).

* **Bouncer** (§4.3): picks the clan whose cards in its hand promise the most (own
  muscles +2 and strong trumps, a free King +5) and places the weakest legal card of
  that suit, keeping its high trumps for the tricks.
* **Tricks** (§4.4): for each legal card it estimates the chance of taking the trick --
  exact when it plays last, otherwise from the cards it has not seen yet (each later
  player beats it with the share of unseen cards that would win) -- and weighs what
  the trick is worth to it (the §4.5 table on its own pile W(p), with a heavy penalty if
  its clan's King and Jack would end in one pile, a bonus for eliminating a rival clan)
  against what it hands to the winner otherwise (Jokers and Queens are dumped on
  others), minus the value of keeping a strong card for later.
* **Point card** (§4.5): the card of W(p) with the highest face value.

It remembers the cards taken in this round's tricks (``trick_won`` events). Choices are
deterministic given the view; exact ties are broken by a ``random.Random`` keyed by the
bot's seed and the situation (round, trick, cards already in it, its hand), not by one
running stream: asked twice in the same situation -- an action lost with the connection
and decided again after the reconnection, a cancelled plan -- the bot makes the same
choice and every later tie breaks as it would have, so a bot match gives the same result
with or without interruptions.
"""
from __future__ import annotations

import random
from typing import Any

from shared.bots.base import Decision
from shared.games.mafiosi.cards import DECK, JACK, KING, suit_card
from shared.games.mafiosi.scoring import card_points
from shared.rules import Action

ELIMINATION_PENALTY = 15.0
RIVAL_ELIMINATION_BONUS = 3.0


class MafiosiBot:
    """Mafiosi player for ``seat``; ``think_ms`` is the pause before each action (ms)."""

    def __init__(self, seat: int, rng: random.Random, think_ms: float = 0.0):
        self.seat = seat
        self._seed = rng.getrandbits(64)
        self.rng = rng  # the last decision's generator (keyed by its situation)
        self.think_ms = think_ms
        self.gone: set[int] = set()  # cards taken in this round's tricks

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        for e in events:
            if e["type"] == "round_started":
                self.gone = set()
            elif e["type"] == "trick_won":
                self.gone |= {c["id"] for c in e["cards"]}

    def decide(self, view: dict[str, Any], legal: list[Action]) -> Decision | None:
        if not legal:
            return None
        phase = view["phase"]
        if phase == "bouncer":
            action = self._bouncer(view, legal)
        elif phase == "point":
            keeps: list[Any] = legal  # card actions (KeepPointCard)
            action = max(keeps, key=lambda a: (DECK[a.card].value, -DECK[a.card].strength, a.card))
        else:
            action = self._play(view, legal)
        return Decision(action, self.think_ms)

    # -- bouncer ----------------------------------------------------------------------------
    def _bouncer(self, view: dict[str, Any], legal: list[Any]) -> Action:  # card actions
        hand = [c["id"] for c in view["hand"]]

        def suit_value(suit: str | None, bouncer: int) -> float:
            total = 2.0 if DECK[bouncer].is_muscle else 0.0
            for h in hand:
                c = DECK[h]
                if h == bouncer or c.suit != suit:
                    continue
                if c.is_muscle:
                    total += 2.0 + 0.25 * c.rank
                elif c.rank == KING:
                    assert suit is not None  # (the king's own suit: only the jokers have none)
                    total += 4.0 - (2.0 if suit_card(suit, JACK) in hand else 0.0)
                else:
                    total += 0.5
            return total

        return max(legal, key=lambda a: (suit_value(DECK[a.card].suit, a.card), -DECK[a.card].rank,
                                         -a.card))

    # -- trick play -------------------------------------------------------------------------
    def _play(self, view: dict[str, Any], legal: list[Any]) -> Action:  # card actions
        me, n = self.seat, view["seats"]
        players = view["players"]
        clans = [p["clan"] for p in players]
        my_clan = clans[me]
        hand = [c["id"] for c in view["hand"]]
        won = [c["id"] for c in players[me]["won"] or []]
        bouncer = players[me]["bouncer"]
        pile = won + ([bouncer["id"]] if bouncer else [])
        trick = [(t["seat"], t["card"]["id"]) for t in view["trick"]]
        known = set(hand) | set(pile) | self.gone | {c for _, c in trick}
        known |= {p["bouncer"]["id"] for p in players if p["bouncer"]}
        known |= {a["card"]["id"] for a in view["aside_revealed"]}
        known |= {c["id"] for c in players[me]["point_cards"] or []}
        unseen = [c for c in range(len(DECK)) if c not in known]
        later = [(trick[0][0] if trick else me) + i for i in range(len(trick) + 1, n)]
        later = [q % n for q in later]
        base = self._pile_value(pile, my_clan, clans)
        mean = (sum(card_points(c, [], my_clan) for c in unseen) / len(unseen)) if unseen else 0.0

        def ev(action: Any) -> float:
            cid = action.card
            c = DECK[cid]
            cards = trick + [(me, cid)]
            ids = [x for _, x in cards]
            best = _leader_of(cards, clans)
            p_win = 0.0
            if best is not None and best[0] == me:
                p_win = 1.0
                for q in later:
                    p_win *= 1.0 - _beat_share(best, q, clans, unseen)
            win_value = self._pile_value(pile + ids, my_clan, clans) - base + mean * len(later)
            lose_value = 0.0
            if my_clan is not None and suit_card(my_clan, KING) in ids and suit_card(my_clan, JACK) in ids:
                lose_value -= ELIMINATION_PENALTY
            if best is not None and best[0] != me:
                w_clan = clans[best[0]]
                lose_value -= 0.4 * sum(card_points(x, ids, w_clan) for x in ids)
            else:
                lose_value -= 0.4 * sum(card_points(x, ids, None) for x in ids)
            hold = 0.0
            if not c.is_joker:
                hold = (0.35 if c.suit == my_clan else 0.08) * c.strength
            if c.is_joker:
                hold = -0.5  # a Joker in hand only waits to be dumped
            return p_win * win_value + (1.0 - p_win) * lose_value - hold

        self.rng = random.Random(f"{self._seed}|{view['round']}|{view['trick_no']}|{len(trick)}|"
                                 f"{sorted(hand)}|{len(legal)}")
        scored = [(ev(a), self.rng.random(), a) for a in legal]
        return max(scored, key=lambda t: (t[0], t[1]))[2]

    @staticmethod
    def _pile_value(pile: list[int], clan: str | None, clans: list[str | None]) -> float:
        """My §4.5 score of ``pile``, minus a heavy penalty when my clan's King and Jack
        are both in it, plus a bonus per rival clan eliminated by it."""
        total = float(sum(card_points(c, pile, clan) for c in pile))
        for suit in {x for x in clans if x is not None}:
            if suit_card(suit, KING) in pile and suit_card(suit, JACK) in pile:
                total += -ELIMINATION_PENALTY if suit == clan else RIVAL_ELIMINATION_BONUS
        return total


def _leader_of(cards: list[tuple[int, int]], clans: list[str | None]) -> tuple[int, int, bool] | None:
    """``(seat, strength, is_trump)`` of the card currently winning ``cards``, or None
    when only Jokers were played."""
    best: tuple[int, int, bool] | None = None
    for seat, cid in cards:
        c = DECK[cid]
        if c.is_joker:
            continue
        trump = c.suit == clans[seat]
        if best is None or (trump and not best[2]) or (trump == best[2] and c.strength > best[1]):
            best = (seat, c.strength, trump)
    return best


def _beat_share(best: tuple[int, int, bool], q: int, clans: list[str | None],
                unseen: list[int]) -> float:
    """Share of the unseen cards that seat ``q`` would take the trick with."""
    if not unseen:
        return 0.0
    _, strength, trump = best
    clan = clans[q]
    beats = 0
    for cid in unseen:
        c = DECK[cid]
        if c.is_joker:
            continue
        if c.suit == clan:
            if not trump or c.strength > strength:
                beats += 1
        elif not trump and c.strength > strength:
            beats += 1
    return beats / len(unseen)
