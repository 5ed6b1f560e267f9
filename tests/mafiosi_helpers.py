"""Stacked-deck scenarios for the Mafiosi tests.

``deal`` builds a match whose round-1 hands are given (each completed to the hand size
with filler muscles of diamonds, spades, clubs, then hearts, ranks 2-10 first), then lets
every seat place the given bouncer. ``staged`` builds a round in the middle of trick
play directly: given bouncers, won piles and hands, every other card aside.
"""
from __future__ import annotations

from typing import Any, Sequence

from shared.games import mafiosi as maf
from shared.rules import Event

FILLER = ([f"{r}{s}" for s in "DSCH" for r in range(2, 11)] + [f"A{s}" for s in "DSCH"]
          + [f"{r}{s}" for r in "QKJ" for s in "DSCH"] + ["JK1", "JK2"])


def ids(codes: Sequence[str]) -> list[int]:
    return [maf.card_id(c) for c in codes]


def code(cid: int) -> str:
    return maf.DECK[cid].code


def hands_codes(state: maf.MafiosiState, seat: int) -> list[str]:
    return [code(c) for c in state.hands[seat]]


def full_hands(hands: Sequence[Sequence[str]], aside: Sequence[str] = ()) -> list[str]:
    """The stacked deck: each hand completed with filler, then ``aside`` (top first)."""
    n = len(hands)
    h = maf.HAND_SIZE[n]
    used = {c.upper() for hand in hands for c in hand} | {c.upper() for c in aside}
    filler = [c for c in FILLER if c not in used]
    deck: list[str] = []
    for hand in hands:
        assert len(hand) <= h
        deck += list(hand)
        while len(deck) % h:
            deck.append(filler.pop(0))
    return deck + list(aside)


def deal(hands: Sequence[Sequence[str]], bouncers: Sequence[str] | None = None,
         aside: Sequence[str] = (), **config: Any) -> tuple[maf.MafiosiState, list[Event]]:
    """A match dealt from a stacked deck; with ``bouncers`` every seat places its bouncer
    (in seat order). Returns the state and the events of the bouncer choices."""
    state = maf.new_match({"seats": len(hands), "deck": full_hands(hands, aside), **config}, seed=1)
    events: list[Event] = []
    if bouncers is not None:
        for p, b in enumerate(bouncers):
            state, ev = maf.apply(state, p, maf.ChooseBouncer(maf.card_id(b)))
            events += ev
    return state, events


def staged(bouncers: Sequence[str], hands: Sequence[Sequence[str]],
           won: Sequence[Sequence[str]] | None = None, leader: int = 0,
           points: Sequence[Sequence[str]] | None = None, rounds: int | None = None) -> maf.MafiosiState:
    """A round in trick play: bouncers revealed, ``hands`` and ``won`` piles as given,
    ``leader`` to lead trick 1, every other card aside (cards conserved)."""
    n = len(bouncers)
    config: dict[str, Any] = {"seats": n}
    if rounds is not None:
        config["rounds"] = rounds
    s = maf.new_match(config, seed=1)
    won = won or [[] for _ in range(n)]
    points = points or [[] for _ in range(n)]
    s.bouncer = ids(bouncers)
    s.shown = list(s.bouncer)
    s.clans = [maf.DECK[b].suit for b in s.bouncer]
    s.chosen = [True] * n
    s.revealed = True
    s.hands = [sorted(ids(h)) for h in hands]
    s.won = [ids(w) for w in won]
    s.points = [ids(p) for p in points]
    used = set(s.bouncer) | {c for h in s.hands for c in h} | {c for w in s.won for c in w} \
        | {c for p in s.points for c in p}
    assert len(used) == len(s.bouncer) + sum(map(len, s.hands)) + sum(map(len, s.won)) \
        + sum(map(len, s.points)), "a card is named twice"
    s.aside = [c for c in range(54) if c not in used]
    s.phase, s.trick, s.trick_no = "play", [], 1
    s.leader = s.turn = leader
    s.ace_suit, s.jack_needed = None, False
    return s


def play(state: maf.MafiosiState, *moves: tuple[int, str]) -> tuple[maf.MafiosiState, list[Event]]:
    """Apply ``(seat, code)`` plays in order; returns the last state and all events."""
    events: list[Event] = []
    for seat, c in moves:
        state, ev = maf.apply(state, seat, maf.PlayCard(maf.card_id(c)))
        events += ev
    return state, events


def first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.type == kind)


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]
