"""The full state of an Omerta match (the server's secret) and the small operations
on its zones that the rules are written with."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.games.omerta.cards import DECK
from shared.rules import Action, Event, IllegalAction
from shared.windows import Window
from shared.rng import CowRandom, fork


@dataclass
class OmertaState:
    """Full state of a match (the server's secret). Callers treat it as opaque and use
    :func:`view`. ``clone`` gives an independent copy (``apply`` never mutates).

    ``_view`` (a slot, outside ``__dict__``) caches the seat-independent part of the
    views (``views._public``): never copied by ``clone``, pickle or ``deepcopy``.
    ``_parts`` (a slot too) keeps what its ``players`` and ``discard`` were built from,
    and ``_prev`` is the ``_parts`` of the state this one was cloned from: the views
    reuse those lists while they would come out equal (``views._public``)."""

    __slots__ = ("__dict__", "__weakref__", "_view", "_parts", "_prev")

    n: int
    rounds: int
    rng: CowRandom  # shared.rng: a random.Random(seed), copy-on-write across clones
    snap_timeout_ms: int
    counter_timeout_ms: int
    cap_turns: int  # 0 = no safety cap
    stacked_deck: tuple[int, ...] = ()
    round: int = 0
    phase: str = "peek"  # "peek" | "turn" | "over"
    step: str = "start"  # turn step: "start" | "drawn" | "power" | "safe" | "window"
    turn: int = 0
    first: int = 0
    turn_no: int = 0
    draw_pile: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    safe: list[int] = field(default_factory=list)
    games: list[list[tuple[int, int]]] = field(default_factory=list)
    next_slot: int = 0
    peeked: list[bool] = field(default_factory=list)
    drawn: int | None = None
    drawn_from: str | None = None
    power: str | None = None  # character waiting for its activation choice
    attack_card: int | None = None  # Mamma/Patrol held during its Hitwoman window
    mamma: dict[int, tuple[int, int, int]] = field(default_factory=dict)  # target -> (placer, left, card)
    patrol: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)  # slot -> (placer, left, card, target)
    window: Window | None = None  # the open snap or Hitwoman window (shared.windows)
    attack: Action | None = None  # the attack waiting for its Hitwoman window
    attacker: int = -1
    next_window: int = 1
    totals: list[int] = field(default_factory=list)
    round_scores: list[list[int]] = field(default_factory=list)  # a round's list is never changed once appended
    last_round: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        # a state built by hand (or unpickled from before CowRandom) may hold a plain
        # random.Random: draw from it copy-on-write
        self.rng = CowRandom.adopt(self.rng)
        self._parts = self._prev = None

    def clone(self) -> "OmertaState":
        c = OmertaState.__new__(OmertaState)
        c.__dict__.update(self.__dict__)
        c.rng = fork(self.rng)  # copy-on-write: copied only when one side draws
        c.draw_pile = list(self.draw_pile)
        c.discard = list(self.discard)
        c.safe = list(self.safe)
        c.games = [list(g) for g in self.games]
        c.peeked = list(self.peeked)
        c.mamma = dict(self.mamma)
        c.patrol = dict(self.patrol)
        c.totals = list(self.totals)
        c.round_scores = list(self.round_scores)  # its rows are never changed: shared
        c._prev = getattr(self, "_parts", None)  # unset on an unpickled state
        c._parts = None
        return c  # window and attack are frozen values: shared safely

    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__  # the fields only: the ``_view`` cache is not part of the state

    # -- small queries ------------------------------------------------------------------
    def owner(self, slot_id: int) -> int | None:
        for seat, game in enumerate(self.games):
            for sid, _ in game:
                if sid == slot_id:
                    return seat
        return None

    def card_in(self, slot_id: int) -> int:
        for game in self.games:
            for sid, cid in game:
                if sid == slot_id:
                    return cid
        raise KeyError(slot_id)

    def free_slots(self, seat: int) -> list[int]:
        """Slots of ``seat`` without a patrol marker."""
        return [sid for sid, _ in self.games[seat] if sid not in self.patrol]

    def stock(self, seat: int) -> int:
        """Σ points of the cards in the seat's slots (§2.2); markers and safe excluded."""
        return sum(DECK[cid].points for _, cid in self.games[seat])


def _slot_of(s: OmertaState, seat: int, slot_id: Any, what: str = "that slot") -> int:
    """Check that ``slot_id`` is one of ``seat``'s slots without a patrol marker."""
    if not any(sid == slot_id for sid, _ in s.games[seat]):
        raise IllegalAction(f"{what} is not one of your cards")
    if slot_id in s.patrol:
        raise IllegalAction(f"{what} is under a Police Patrol")
    return slot_id


def _set_card(s: OmertaState, slot_id: int, card_id: int) -> None:
    for game in s.games:
        for i, (sid, _) in enumerate(game):
            if sid == slot_id:
                game[i] = (sid, card_id)
                return
    raise KeyError(slot_id)


def _remove_slot(s: OmertaState, slot_id: int) -> int:
    for game in s.games:
        for i, (sid, cid) in enumerate(game):
            if sid == slot_id:
                del game[i]
                return cid
    raise KeyError(slot_id)


def _new_slot(s: OmertaState, seat: int, card_id: int) -> int:
    sid = s.next_slot
    s.next_slot += 1
    s.games[seat].append((sid, card_id))
    return sid


def _take_from_pile(s: OmertaState, events: list[Event]) -> int | None:
    """Top card of the draw pile, reshuffling the discard pile first if needed (§2.7);
    None when both piles are empty (D-OM-8)."""
    if not s.draw_pile:
        if not s.discard:
            return None
        s.draw_pile = s.discard
        s.discard = []
        s.rng.shuffle(s.draw_pile)
        events.append(Event("reshuffle", {"draw_pile": len(s.draw_pile)}))
    return s.draw_pile.pop()


def _penalty(s: OmertaState, seat: int, events: list[Event], reason: str) -> None:
    """One face-down card from the draw pile into a new slot, unseen (§2.5, D-OM-7)."""
    cid = _take_from_pile(s, events)
    if cid is None:
        events.append(Event("penalty", {"seat": seat, "slot": None, "reason": reason}))
        return
    sid = _new_slot(s, seat, cid)
    events.append(Event("penalty", {"seat": seat, "slot": sid, "reason": reason}))


def _reveal(s: OmertaState, seat: int, slot_id: int) -> dict[str, Any]:
    return DECK[s.card_in(slot_id)].to_dict()


def _can_draw(s: OmertaState) -> bool:
    return bool(s.draw_pile or s.discard)


def _eligible_for_snap(s: OmertaState) -> frozenset[int]:
    """§2.5: not under a Mamma and at least one slot without a patrol marker."""
    patrol = s.patrol  # s.free_slots(p) is not empty: a slot without a patrol marker
    return frozenset(p for p in range(s.n) if p not in s.mamma
                     and any(sid not in patrol for sid, _ in s.games[p]))
