"""Omerta's search model for the hard bot (:mod:`shared.bots.search`): whether to
declare Omerta now (RULES.md §2.8), by sampling the cards of the stocks the seat does
not know.

The request (built by :class:`shared.games.omerta.hard.HardOmertaBot` from its memory of
what its seat saw, never from the full state) holds, as plain JSON data::

    seat, n,
    known    -- per seat, the points of the cards it knows to be in that seat's game
                (cards seen in a slot, or known to be somewhere in it after a shuffle)
    unknown  -- per seat, how many of its cards it has not seen
    unseen   -- the points of every card the seat has not seen (the pool the unknown
                slots and the draw pile come from)
    stay     -- the value given to not declaring (the bar a declaration must clear)

A **determinization** gives each unknown slot a card drawn without replacement from
``unseen``. Candidate 0 is the normal bot's move (play on), valued ``stay``; candidate
1 is the declaration, valued 1 when it succeeds in that deal (§2.8: the declarer's stock
is at most :data:`~shared.games.omerta.cards.OMERTA_LIMIT` and no other stock is lower)
and 0 otherwise. So the bot declares when the share of deals in which it succeeds beats
``stay``.
"""
from __future__ import annotations

import random
from typing import Any

from shared.games.omerta.cards import OMERTA_LIMIT

__all__ = ["candidates", "determinize", "value"]


def candidates(request: dict[str, Any]) -> list[int]:
    """0: play on (the normal bot's move); 1: declare Omerta."""
    return [0, 1]


def determinize(request: dict[str, Any], rng: random.Random) -> list[int]:
    """Each seat's stock (points) in one deal of the unseen cards to its unknown slots."""
    unknown = request["unknown"]
    drawn = rng.sample(request["unseen"], min(sum(unknown), len(request["unseen"])))
    stocks, i = [], 0
    for p in range(request["n"]):
        k = unknown[p]
        stocks.append(sum(request["known"][p]) + sum(drawn[i:i + k]))
        i += k
    return stocks


def value(stocks: list[int], request: dict[str, Any], candidate: int, rng: random.Random) -> float:
    """``stay`` for candidate 0; for the declaration 1.0 if it succeeds (§2.8), else 0."""
    if candidate == 0:
        return float(request["stay"])
    me = request["seat"]
    mine = stocks[me]
    return 1.0 if mine <= OMERTA_LIMIT and all(mine <= s for p, s in enumerate(stocks) if p != me) else 0.0
