"""Stacked-deck scenarios for the Family Business tests.

``deal(hands, pile)`` builds a match whose action deck starts with the given codes: seat
0's five cards, seat 1's, ..., then the draw pile in draw order (the first player draws
``pile[0]`` at once). Unlisted cards follow in seeded order. ``to_list`` puts mobsters on
the hit list directly (state surgery for scenario setup, zones stay consistent).
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from shared.games import family_business as fb
from shared.rules import Event

FILLER = ["contract", "lam", "police_protection", "substitution", "intrigue", "pay_off"]


def _fill(used: Counter, k: int, variant: str) -> list[str]:
    copies = Counter(fb.action(c).code for c in fb.deck_ids(variant))
    out: list[str] = []
    for code in FILLER * 20:
        if len(out) == k:
            break
        if used[code] < copies[code]:
            used[code] += 1
            out.append(code)
    return out


def deal(hands: Sequence[Sequence[str]], pile: Sequence[str] = (), first: int = 0,
         variant: str = "1989", **config: Any) -> fb.FBState:
    """A match of ``len(hands)`` seats; hands shorter than 5 are filled with harmless
    cards (contracts and rescue cards); seat ``first`` plays first."""
    used = Counter(c for h in hands for c in h) + Counter(pile)
    full = [list(h) + _fill(used, 5 - len(h), variant) for h in hands]
    deck = [c for h in full for c in h] + list(pile)
    return fb.new_match({"seats": len(hands), "deck": deck, "first_player": first,
                         "deck_variant": variant, **config}, seed=7)


def card(state: fb.FBState, seat: int, code: str) -> int:
    """Id of a ``code`` card in ``seat``'s hand."""
    return next(c for c in state.hands[seat] if fb.action(c).code == code)


def mob(seat: int, i: int = 0) -> int:
    """Id of ``seat``'s ``i``-th mobster (gang ``seat``)."""
    return 9 * seat + i


def to_list(state: fb.FBState, *mobsters: int) -> fb.FBState:
    """Append front mobsters to the hit list (setup only)."""
    for m in mobsters:
        state.fronts[m // 9].remove(m)
        state.hit_list.append(m)
    return state


def bury(state: fb.FBState, *mobsters: int) -> fb.FBState:
    """Move front mobsters straight to the cemetery (setup only)."""
    for m in mobsters:
        state.fronts[m // 9].remove(m)
        state.cemetery.append(m)
    return state


def act(state: fb.FBState, seat: int | None, *actions: Any) -> tuple[fb.FBState, list[Event]]:
    events: list[Event] = []
    for a in actions:
        state, ev = fb.apply(state, seat, a)
        events += ev
    return state, events


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.type == kind)


def pass_all(state: fb.FBState) -> tuple[fb.FBState, list[Event]]:
    """Every pending seat answers ``no_counter``."""
    w = fb.reaction_window(state)
    assert w is not None
    events: list[Event] = []
    for p in sorted(w.pending):
        state, ev = fb.apply(state, p, fb.NoCounter())
        events += ev
    return state, events


def all_cards_once(state: fb.FBState) -> bool:
    z = fb.zones(state)
    return sorted(c for v in z.values() for c in v) == sorted(fb.all_ids(state))
