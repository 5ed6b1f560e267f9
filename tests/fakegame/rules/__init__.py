"""Fake Snap: the smallest real game of Mafia Table, for the tests (2-4 seats).

A 20-card deck: values 1-5, four cards of each (card ``id`` has value ``id // 4 + 1``).
Each seat is dealt 2 face-down cards (only its owner sees them); the rest is the draw
pile (top = last element). On his turn the active seat flips the top card of the draw
pile onto the discard pile (``flip``). That opens a snap window
(:mod:`shared.windows`, kind ``"snap"``) for every seat still holding a card: claim
with ``fake_snap_claim {card}`` (one of one's own hand cards) or pass with
``fake_snap_pass``; the table applies ``window_timeout`` after ``snap_timeout_ms``
(engine config, default 1500). A claim whose card has the flipped value succeeds: the
card goes face up onto the discard pile, the claimant scores +1 and the window closes.
A wrong claim scores -1 (the card stays hidden in the hand) and that seat is done for
this window. When the window closes the turn passes clockwise; once the draw pile is
empty (and no window is open) the match is over. Winners: the highest score.

Events: ``flip {seat, card}``, ``window_opened`` / ``pass`` / ``window_closed`` (from
:mod:`shared.windows`), ``snap {seat, window, success, card?}`` (``card`` only when it
succeeded), ``match_over {scores, winners}``. Cards on the wire: ``{"id", "kind":
"card", "value"}``.

Config keys: ``seats`` (2-4), ``snap_timeout_ms`` (100..60000).
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from typing import Any, ClassVar, Hashable, Mapping

from shared.gamedef import GameDef, Option, claim_outcome_by_success
from shared.rules import Action, ActionSet, Event, IllegalAction, card_faces
from shared.windows import Window, WindowTimeout, check_timeout, close_event, open_window, pass_event

NAME = "fake_snap"
MIN_SEATS = 2
MAX_SEATS = 4
HAND_SIZE = 2
VALUES = range(1, 6)
COPIES = 4
DECK_SIZE = len(VALUES) * COPIES  # 20
DEFAULT_TIMEOUT_MS = 1500

__all__ = [
    "ACTIONS", "GAME", "NAME", "MIN_SEATS", "MAX_SEATS", "Claim", "Flip", "Pass",
    "SnapState", "WindowTimeout", "apply", "awaiting", "full_view", "is_over",
    "legal_actions", "new_match", "reaction_window", "register", "scores",
    "timeout_action", "turn_id", "unregister", "value", "view", "visible_cards",
    "wire_card", "wire_cards", "zones",
]


def value(card_id: int) -> int:
    """The value (1-5) of card ``card_id``."""
    return card_id // COPIES + 1


def wire_card(card_id: int) -> dict[str, Any]:
    """A card face on the wire: ``{"id", "kind": "card", "value"}`` (a new dict)."""
    return {"id": card_id, "kind": "card", "value": value(card_id)}


# -- actions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Flip(Action):
    """Flip the top card of the draw pile onto the discard pile (the active seat)."""

    TYPE: ClassVar[str] = "flip"


@dataclass(frozen=True)
class Claim(Action):
    """Snap with own hand card ``card``: right when its value is the flipped one."""

    TYPE: ClassVar[str] = "fake_snap_claim"
    card: int


@dataclass(frozen=True)
class Pass(Action):
    """Answer "no snap" in the open window."""

    TYPE: ClassVar[str] = "fake_snap_pass"


ACTIONS = ActionSet([Flip, Claim, Pass, WindowTimeout])


# -- state --------------------------------------------------------------------------------


@dataclass
class SnapState:
    """The full state (the server's secret); ``clone`` gives an independent copy."""

    n: int
    rng: random.Random
    snap_timeout_ms: int = DEFAULT_TIMEOUT_MS
    phase: str = "turn"  # "turn" | "over"
    turn: int = 0
    turn_no: int = 0
    draw_pile: list[int] = field(default_factory=list)  # top = last
    discard: list[int] = field(default_factory=list)  # top = last
    hands: list[list[int]] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    window: Window | None = None  # frozen: shared safely between copies
    next_window: int = 1

    def clone(self) -> "SnapState":
        rng = random.Random(0)
        rng.setstate(self.rng.getstate())
        c = SnapState.__new__(SnapState)
        c.__dict__.update(self.__dict__)
        c.rng = rng
        c.draw_pile = list(self.draw_pile)
        c.discard = list(self.discard)
        c.hands = [list(h) for h in self.hands]
        c.points = list(self.points)
        return c


def new_match(config: Mapping[str, Any], seed: int) -> SnapState:
    """A shuffled, dealt match; seat 0 flips first. Raises ``ValueError`` for a bad
    config."""
    n = config.get("seats", 2)
    if not isinstance(n, int) or isinstance(n, bool) or not MIN_SEATS <= n <= MAX_SEATS:
        raise ValueError(f"{NAME} is played by {MIN_SEATS} to {MAX_SEATS} players")
    timeout = config.get("snap_timeout_ms", DEFAULT_TIMEOUT_MS)
    if not isinstance(timeout, int) or isinstance(timeout, bool) or not 100 <= timeout <= 60_000:
        raise ValueError("snap_timeout_ms must be an integer from 100 to 60000")
    rng = random.Random(seed)
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(n)]
    return SnapState(n=n, rng=rng, snap_timeout_ms=timeout, draw_pile=deck, hands=hands,
                     points=[0] * n)


# -- rules --------------------------------------------------------------------------------


def legal_actions(state: SnapState, seat: int) -> list[Action]:
    """``flip`` for the active seat; in a window, a claim per hand card and the pass for
    a pending seat; nothing otherwise."""
    s = state
    if s.phase == "over" or not 0 <= seat < s.n:
        return []
    if s.window is not None:
        if seat not in s.window.pending:
            return []
        return [Claim(c) for c in s.hands[seat]] + [Pass()]
    return [Flip()] if seat == s.turn else []


def awaiting(state: SnapState) -> frozenset[int]:
    if state.phase == "over":
        return frozenset()
    if state.window is not None:
        return state.window.pending
    return frozenset({state.turn})


def apply(state: SnapState, seat: int | None, action: Action) -> tuple[SnapState, list[Event]]:
    """Check ``action`` by ``seat`` (None = the table) and apply it to a copy."""
    s = state.clone()
    events: list[Event] = []
    _dispatch(s, seat, action, events)
    return s, events


def _dispatch(s: SnapState, seat: int | None, action: Action, events: list[Event]) -> None:
    if s.phase == "over":
        raise IllegalAction("the match is over")
    if isinstance(action, WindowTimeout):
        check_timeout(s.window, seat, action)
        _close(s, events, "timeout")
        return
    if seat is None or not 0 <= seat < s.n:
        raise IllegalAction("no such seat")
    if s.window is not None:
        w = s.window
        w.check_answer(seat, action)
        if isinstance(action, Pass):
            events.append(pass_event(w, seat))
            _answered(s, seat, events)
            return
        assert isinstance(action, Claim)
        if action.card not in s.hands[seat]:
            raise IllegalAction("that card is not in your hand")
        if value(action.card) == w.data["value"]:
            s.hands[seat].remove(action.card)
            s.discard.append(action.card)
            s.points[seat] += 1
            events.append(Event("snap", {"seat": seat, "window": w.id, "success": True,
                                         "card": wire_card(action.card)}))
            _close(s, events, "snapped")
            return
        s.points[seat] -= 1
        events.append(Event("snap", {"seat": seat, "window": w.id, "success": False}))
        _answered(s, seat, events)
        return
    if isinstance(action, (Claim, Pass)):
        raise IllegalAction("too late: no window is open")
    if not isinstance(action, Flip):
        raise IllegalAction("flip the top card of the draw pile")
    if seat != s.turn:
        raise IllegalAction("it is not your turn")
    if not s.draw_pile:  # pragma: no cover - the match ends when the pile is empty
        raise IllegalAction("the draw pile is empty")
    c = s.draw_pile.pop()
    s.discard.append(c)
    events.append(Event("flip", {"seat": seat, "card": wire_card(c)}))
    eligible = [p for p in range(s.n) if s.hands[p]]
    if not eligible:
        _end_turn(s, events)
        return
    s.window, opened = open_window(s.next_window, "snap", eligible, (Claim.TYPE,), Pass.TYPE,
                                   s.snap_timeout_ms, {"value": value(c)})
    s.next_window += 1
    events.append(opened)


def _answered(s: SnapState, seat: int, events: list[Event]) -> None:
    assert s.window is not None
    s.window = s.window.answered(seat)
    if s.window.done:
        _close(s, events, "all_answered")


def _close(s: SnapState, events: list[Event], reason: str) -> None:
    assert s.window is not None
    events.append(close_event(s.window, reason))
    s.window = None
    _end_turn(s, events)


def _end_turn(s: SnapState, events: list[Event]) -> None:
    if not s.draw_pile:
        s.phase = "over"
        events.append(Event("match_over", {"scores": list(s.points), "winners": _winners(s)}))
        return
    s.turn = (s.turn + 1) % s.n
    s.turn_no += 1


def _winners(s: SnapState) -> list[int]:
    best = max(s.points)
    return [p for p in range(s.n) if s.points[p] == best]


def reaction_window(state: SnapState) -> Window | None:
    return state.window


def timeout_action(window: Window) -> Action:
    return WindowTimeout(window.id)


def is_over(state: SnapState) -> bool:
    return state.phase == "over"


def scores(state: SnapState) -> dict[str, Any]:
    """``{"scores": points per seat, "winners": highest (empty until the end)}``."""
    return {"scores": list(state.points),
            "winners": _winners(state) if state.phase == "over" else []}


def view(state: SnapState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None = spectator) may see: own hand, everything public."""
    s = state
    me = seat if seat is not None and 0 <= seat < s.n else None
    return {
        "game": NAME,
        "seat": me,
        "seats": s.n,
        "phase": s.phase,
        "turn": s.turn,
        "turn_no": s.turn_no,
        "draw_pile": len(s.draw_pile),
        "discard": [wire_card(c) for c in s.discard],
        "players": [{"seat": p, "hand_count": len(s.hands[p]),
                     "hand": [wire_card(c) for c in s.hands[p]] if p == me else None,
                     "score": s.points[p]} for p in range(s.n)],
        "window": s.window.public() if s.window is not None else None,
        "scores": list(s.points),
        "winners": _winners(s) if s.phase == "over" else None,
    }


def full_view(state: SnapState) -> dict[str, Any]:
    """Every card face up (replays only)."""
    v = view(state, None)
    for player in v["players"]:
        player["hand"] = [wire_card(c) for c in state.hands[player["seat"]]]
    v["draw_pile_cards"] = [wire_card(c) for c in reversed(state.draw_pile)]
    return v


# -- the three functions of the conformance suite ----------------------------------------------


def zones(state: SnapState) -> dict[str, list[int]]:
    """Every card id by zone: ``draw_pile``, ``discard``, ``hand_<seat>``."""
    out = {"draw_pile": list(state.draw_pile), "discard": list(state.discard)}
    for p, hand in enumerate(state.hands):
        out[f"hand_{p}"] = list(hand)
    return out


def visible_cards(state: SnapState, seat: int | None, events: list[Event]) -> set[int]:
    """Cards whose face ``seat`` (None = spectator) may know after ``events``: the
    discard pile (every flipped or snapped card is there) and its own hand."""
    ids = set(state.discard)
    if seat is not None and 0 <= seat < state.n:
        ids |= set(state.hands[seat])
    return ids


def wire_cards(obj: Any) -> set[int]:
    """Ids of every card face (``{"id", "kind": "card", "value"}``) inside ``obj``."""
    return card_faces(obj, ("card",))


# -- declaration --------------------------------------------------------------------------------


def turn_id(state: SnapState) -> Hashable:
    return state.turn_no


def _make_bot(seat: int, rng: Any, reaction: Any, think_ms: float) -> Any:
    from tests.fakegame.rules.bot import FakeSnapBot
    return FakeSnapBot(seat, rng, reaction=reaction, think_ms=think_ms)


GAME = GameDef(
    name=NAME, title="Fake Snap", min_seats=MIN_SEATS, max_seats=MAX_SEATS, default_seats=2,
    rules=sys.modules[__name__], make_bot=_make_bot,
    claim_outcome=claim_outcome_by_success, turn_id=turn_id,
    options=(Option("snap_timeout_ms", "int", DEFAULT_TIMEOUT_MS, lo=100, hi=60_000,
                    label="snap window time-out, ms"),),
    timing_keys=("snap_timeout_ms",),
)


def register() -> GameDef:
    """Add Fake Snap to the registry (``shared.games.register``); returns its GameDef."""
    from shared.games import register as _register
    return _register(GAME)


def unregister() -> None:
    """Remove Fake Snap from the registry."""
    from shared.games import unregister as _unregister
    _unregister(NAME)
