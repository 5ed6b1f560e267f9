"""Stacked-deck scenarios for the Omerta tests.

``deal`` builds a match whose round-1 deck is fully given: each seat's four slots
(seat ``p`` holds slot ids ``4p .. 4p+3`` in that order), the safe, then the draw pile in
draw order. Unlisted cards follow in seeded order.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from shared.games import omerta as om
from shared.rules import Event

COPIES = Counter(c.code for c in om.DECK)
FILLER = ["10", "9", "8", "6", "5", "4", "3", "2", "1", "7", "witness", "alibi", "mole"]


def slot(seat: int, i: int) -> int:
    """Round-1 slot id of ``seat``'s ``i``-th card."""
    return 4 * seat + i


def _fill(used: Counter, k: int) -> list[str]:
    out = []
    for code in FILLER * 4:
        if len(out) == k:
            break
        if used[code] < COPIES[code]:
            used[code] += 1
            out.append(code)
    return out


def deal(hands: Sequence[Sequence[str]], pile: Sequence[str] = (), safe: Sequence[str] | None = None,
         first: int = 0, peek: bool = True, **config: Any) -> om.OmertaState:
    """A match with ``len(hands)`` seats dealt from a stacked deck, seat ``first`` to
    play; with ``peek`` every seat has already looked at its slots 0 and 1."""
    used = Counter(code for hand in hands for code in hand) + Counter(pile)
    if safe is None:
        safe = _fill(used, 4)
    deck = [code for hand in hands for code in hand] + list(safe) + list(pile)
    state = om.new_match({"seats": len(hands), "deck": deck, "first_player": first, **config}, seed=1)
    if peek:
        for p in range(len(hands)):
            state, _ = om.apply(state, p, om.Peek((slot(p, 0), slot(p, 1))))
    return state


def act(state: om.OmertaState, seat: int | None, *actions: Any) -> tuple[om.OmertaState, list[Event]]:
    """Apply several actions by ``seat``; returns the last state and all events."""
    events: list[Event] = []
    for a in actions:
        state, ev = om.apply(state, seat, a)
        events += ev
    return state, events


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.type == kind)


def codes(state: om.OmertaState, seat: int) -> list[str]:
    """Card codes in ``seat``'s slots, in slot order."""
    return [om.DECK[cid].code for _, cid in state.games[seat]]


def pass_window(state: om.OmertaState) -> om.OmertaState:
    """Every pending seat passes the open window."""
    w = om.reaction_window(state)
    assert w is not None
    pass_action = om.SnapPass() if w.kind == "snap" else om.HitwomanPass()
    for p in sorted(w.pending):
        state, _ = om.apply(state, p, pass_action)
    return state
