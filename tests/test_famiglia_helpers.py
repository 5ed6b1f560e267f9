"""Shared helpers of the Famiglia tests (this module holds no tests).

* :func:`deal` -- a match through the public config: hands, gangs, and the deck stacked
  in draw order (its first six cards make the street).
* :func:`layout` -- a match put directly into a given position (deck, discard pile,
  exhaustion, turn number...), for the end-of-game timing where reaching the position by
  play would take hundreds of moves. Every one of the 60 cards is placed exactly once.
* :func:`ids` -- card ids by code in a zone, :func:`act` -- several actions in a row.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterable, Sequence

from shared.games import famiglia as fam
from shared.rules import Action, Event


def deal(hands: Sequence[Sequence[str]] = (("F0", "A0", "B0", "M0"), ("F0", "A0", "B0", "M0")),
         street: Sequence[str] = (), deck: Sequence[str] = (), gangs: Sequence[Sequence[str]] | None = None,
         first: int = 0, seed: int = 1) -> fam.FamigliaState:
    """A match from the config: ``street`` (six codes) then ``deck`` are stacked on top."""
    config: dict[str, Any] = {"hands": [list(h) for h in hands], "first_player": first,
                              "deck": list(street) + list(deck)}
    if gangs is not None:
        config["gangs"] = [list(g) for g in gangs]
    return fam.new_match(config, seed)


def layout(hands: Sequence[Sequence[str]] = ((), ()), gangs: Sequence[Sequence[str]] = ((), ()),
           street: Sequence[str] = (), deck: Sequence[str] = (), discard: Sequence[str] = (),
           exhaustion: int = 0, first: int = 0, turn_no: int = 1, rest: str = "gang1",
           seed: int = 7) -> fam.FamigliaState:
    """A position: ``deck`` is given in draw order (first = top); every card not named
    goes to ``rest`` (``"gang0"``, ``"gang1"``, ``"discard"`` or ``"deck"`` = under the
    named deck cards). The seat to play is the first player on odd turn numbers."""
    free = [c.id for c in fam.DECK]

    def take(codes: Iterable[str]) -> list[int]:
        out = []
        for code in codes:
            cid = next(c for c in free if fam.DECK[c].code == code)
            free.remove(cid)
            out.append(cid)
        return out

    s = fam.FamigliaState(rng=random.Random(seed))
    s.hands = [take(hands[0]), take(hands[1])]
    s.gangs = [take(gangs[0]), take(gangs[1])]
    s.street = take(street)
    s.discard = take(discard)
    top_first = take(deck)
    if rest == "deck":
        top_first += free
    elif rest == "discard":
        s.discard += free
    else:
        s.gangs[int(rest[-1])] += free
    s.deck = list(reversed(top_first))
    s.exhaustion = exhaustion
    s.first = first
    s.turn_no = turn_no
    s.turn = first if turn_no % 2 == 1 else 1 - first
    assert sorted(sum(fam.zones(s).values(), [])) == list(range(60))
    return s


def ids(state: fam.FamigliaState, zone: str, *codes: str) -> list[int]:
    """Ids of cards with ``codes`` in ``zone`` (``"hand0"``, ``"gang1"``, ``"street"``,
    ``"deck"``, ``"discard"``), distinct cards for repeated codes, in the given order."""
    if zone.startswith("hand"):
        pool = list(state.hands[int(zone[-1])])
    elif zone.startswith("gang"):
        pool = list(state.gangs[int(zone[-1])])
    else:
        pool = list(getattr(state, zone))
    out = []
    for code in codes:
        cid = next(c for c in pool if fam.DECK[c].code == code)
        pool.remove(cid)
        out.append(cid)
    return out


def the(state: fam.FamigliaState, zone: str, code: str) -> int:
    """The id of one card ``code`` in ``zone``."""
    return ids(state, zone, code)[0]


def codes(card_ids: Iterable[int]) -> Counter:
    """Multiset of codes of ``card_ids``."""
    return Counter(fam.DECK[c].code for c in card_ids)


def act(state: fam.FamigliaState, seat: int, *actions: Action) -> tuple[fam.FamigliaState, list[Event]]:
    """Apply several actions by ``seat``; returns the last state and all events."""
    events: list[Event] = []
    for a in actions:
        state, ev = fam.apply(state, seat, a)
        events += ev
    return state, events


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def all_ids(obj: Any) -> set[int]:
    """Every card id mentioned in a JSON-ready view or event: values under ``"id"``, and
    the id-valued fields ``target`` and ``moved``."""
    found: set[int] = set()

    def walk(o: Any) -> None:
        if isinstance(o, dict):
            for k, v in o.items():
                if k in ("id", "target") and isinstance(v, int):
                    found.add(v)
                elif k == "moved" and isinstance(v, list):
                    found.update(v)
                else:
                    walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(obj)
    return found
