"""Famiglia's search model for the hard bot (:mod:`shared.bots.search`): the
determinization of a seat's information set, a truncated playout by the normal bots and
the evaluation.

The request (built by :class:`shared.games.famiglia.hard.HardFamigliaBot` from its view
and its bookkeeping of the public events, never from the full state) holds, as plain
JSON data::

    seat, state   -- every public field of the state as the view shows it (street,
                     discard, gangs, turn flags, end timing) and the seat's own hand
    opp_codes     -- the opponent's hand by card code (null: unknown, see below)
    opp_count     -- its size
    unseen        -- ids of every card the seat has not seen (the opponent's hand and
                     the deck)
    candidates    -- actions as wire dicts, the normal bot's choice first
    horizon       -- turns played after the current one before the evaluation

Hidden in Famiglia are only the deck's order and the opponent's hand (RULES.md §1.2,
D-FAM-2), and the normal bot knows that hand by code from the public events (the
starting set, every recruit, every card that goes to the gang). A **determinization**
gives the opponent unseen cards of those codes (cards of one code are alike), or a
uniform draw when the bookkeeping was lost, and shuffles the rest into the deck. The
**playout** applies the candidate and lets both seats play on as the normal bot
(:class:`~shared.games.famiglia.bot.FamigliaBot`, told the other hand by code as in a
real match) until ``horizon`` more turns have begun; the **evaluation** is the match
result when it ended (§1.7: 1 won, 0.5 shared, 0 lost), else 0.5 + the seat's VP lead
(hand + gang) over 40.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from shared.games.famiglia.actions import ACTIONS
from shared.games.famiglia.bot import W_POT, FamigliaBot, _Context
from shared.games.famiglia.cards import DECK
from shared.games.famiglia.engine import apply, legal_actions
from shared.games.famiglia.scoring import _result
from shared.games.famiglia.state import FamigliaState
from shared.games.famiglia.views import view
from shared.rng import CowRandom
from shared.sim import events_by_seat

__all__ = ["candidates", "determinize", "value", "evaluate"]

#: a playout that has not reached its horizon after this many actions stops there
MAX_STEPS = 60
#: VP lead that counts as a sure win in the evaluation of an unfinished match
VP_SCALE = 40.0


def candidates(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The actions searched (wire dicts), the normal bot's choice first."""
    return list(request["candidates"])


def determinize(request: dict[str, Any], rng: random.Random) -> FamigliaState:
    """A full state consistent with the seat's view: public zones and flags as seen, its
    own hand exact, the opponent's hand of the codes it knows (or drawn uniformly), the
    rest of the unseen cards shuffled into the deck."""
    me, pub = request["seat"], request["state"]
    unseen = list(request["unseen"])
    rng.shuffle(unseen)
    opp: list[int] = []
    codes = request["opp_codes"]
    if codes is not None:
        want = Counter(codes)
        for c in unseen:
            if want[DECK[c].code] > 0:
                want[DECK[c].code] -= 1
                opp.append(c)
        if len(opp) != request["opp_count"]:  # bookkeeping that does not fit: forget it
            opp = []
    if not opp:
        opp = unseen[:request["opp_count"]]
    deck = [c for c in unseen if c not in set(opp)]
    s = FamigliaState(rng=CowRandom(rng.getrandbits(32)))
    for key in ("first", "turn", "turn_no", "phase", "exhaustion", "end_during", "end_turn_no",
                "last_turn", "passes", "step", "renews", "renewed_after_exhaustion", "accountant"):
        setattr(s, key, pub[key])
    s.street, s.discard = list(pub["street"]), list(pub["discard"])
    s.gangs = [list(g) for g in pub["gangs"]]
    s.hands = [[], []]
    s.hands[me], s.hands[1 - me] = list(pub["hand"]), opp
    s.deck = deck
    s.swaps = list(pub["swaps"])
    s.brute = (pub["brute"][0], pub["brute"][1], pub["brute"][2]) if pub["brute"] is not None else None
    return s


def value(world: FamigliaState, request: dict[str, Any], candidate: dict[str, Any],
          rng: random.Random) -> float:
    """Apply ``candidate`` for the seat in ``world``, let the normal bots play to the
    horizon, evaluate (:func:`evaluate`)."""
    me = request["seat"]
    s, events = apply(world, me, ACTIONS.parse(candidate, from_client=False))
    bots = []
    for p in (0, 1):
        b = FamigliaBot(p, random.Random(rng.getrandbits(32)))
        b._started = True  # the match's history is in the determinization: no catching up
        b.opp_hand = Counter(DECK[c].code for c in world.hands[1 - p])
        bots.append(b)
    _tell(bots, s, events)
    stop = int(request["state"]["turn_no"]) + int(request["horizon"])
    for _ in range(MAX_STEPS):
        if s.phase == "over" or s.turn_no > stop:
            break
        q = s.turn
        d = bots[q].decide(view(s, q), legal_actions(s, q))
        assert d is not None
        s, events = apply(s, q, d.action)
        _tell(bots, s, events)
    return evaluate(s, me, bots)


def _tell(bots: list[FamigliaBot], s: FamigliaState, events: list[Any]) -> None:
    for p, mine in enumerate(events_by_seat(events, 2)):
        bots[p].observe(mine, view(s, p))


def evaluate(s: FamigliaState, me: int, bots: list[FamigliaBot]) -> float:
    """1.0 / 0.5 / 0.0 for a match won / shared / lost (§1.7 with its tie-breaks); an
    unfinished one 0.5 + the seat's lead over :data:`VP_SCALE`, within 0..1, where a
    seat's worth is its VP plus ``W_POT`` x its hand's potential as the normal bot's
    planner values it (pairs to recruit with, Brutes, Accountants, Mercenaries kept)."""
    if s.phase == "over":
        winners, _ = _result(s)
        return (1.0 / len(winners)) if me in winners else 0.0
    worth = []
    for p in (0, 1):
        ctx = _Context(bots[p], view(s, p))
        worth.append(s.score(p) + W_POT * ctx.potential(ctx.hand))
    return min(1.0, max(0.0, 0.5 + (worth[me] - worth[1 - me]) / VP_SCALE))
