"""What each seat may see (§3.3: hands are hidden, everything else is public), the open
window, the result, every card by zone, and the card-visibility helpers the generic
conformance suite uses."""
from __future__ import annotations

from typing import Any, Hashable, Iterable

from shared.games.family_business.cards import GANGS, NAME, card_dict, deck_ids
from shared.games.family_business.effects import chooser
from shared.games.family_business.state import FBState
from shared.rules import Action, Event, card_faces, events_for
from shared.windows import Window, WindowTimeout


def reaction_window(state: FBState) -> Window | None:
    """The open counter window, if any."""
    return state.window


def timeout_action(window: Window) -> Action:
    """The action the table applies (seat None) when ``window`` times out."""
    return WindowTimeout(window.id)


def is_over(state: FBState) -> bool:
    return state.phase == "over"


def turn_id(state: FBState) -> Hashable | None:
    """``(turn_no, seat)`` of the turn in progress; None once the match is over."""
    return None if state.phase == "over" else (state.turn_no, state.turn)


def scores(state: FBState) -> dict[str, Any]:
    """``{"scores": living mobsters per seat, "winners": [seats], "reason":
    "last_gang"|"turn_cap"|None, "turns": turns played}``."""
    s = state
    return {"scores": [s.alive(p) for p in range(s.n)],
            "winners": list(s.winners) if s.phase == "over" else [],
            "reason": s.end_reason, "turns": s.turn_no}


def _cards(ids: Iterable[int]) -> list[dict[str, Any]]:
    return [card_dict(c) for c in ids]


def view(state: FBState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None = spectator) may see, JSON-ready: own hand only, every
    front, the hit list (index 0 = against the wall), the cemetery, the discard pile
    (bottom to top), pile and hand sizes, the war, the card being resolved and whose
    choice it waits for, the open window. Shapes: docs/protocol/family_business.md."""
    s = state
    me = seat if isinstance(seat, int) and 0 <= seat < s.n else None
    r = s.res
    resolving = None
    if r is not None and s.phase == "resolve":
        resolving = {
            "card": card_dict(r.card), "player": r.player, "target": r.target,
            "mobster": r.mobster, "other": r.other, "countered": r.countered,
            "collected": _cards(r.collected), "ordering": r.ordering, "arranged": r.arranged,
            "chooser": chooser(s),
            "choice": (r.tasks[0][2] if r.tasks else r.ordering) if chooser(s) is not None else None,
            "remaining": r.tasks[0][1] if r.tasks else None,
        }
    return {
        "game": NAME,
        "seat": me,
        "seats": s.n,
        "deck_variant": s.variant,
        "phase": s.phase,
        "turn": s.turn,
        "turn_no": s.turn_no,
        "first": s.first,
        "players": [
            {"seat": p, "gang": p, "gang_name": GANGS[p][0], "in_game": s.in_game[p],
             "front": _cards(s.fronts[p]), "alive": s.alive(p), "hand": len(s.hands[p]),
             "dead": sum(1 for m in s.cemetery if s.owner(m) == p)}
            for p in range(s.n)
        ],
        "hand": _cards(s.hands[me]) if me is not None else None,
        "hit_list": _cards(s.hit_list),
        "cemetery": _cards(s.cemetery),
        "discard": _cards(s.discard),
        "draw_pile": len(s.draw_pile),
        "war": {"active": s.war, "rate": s.rate if s.war else 0,
                "permanent": s.war and s.permanent_war()},
        "alive_total": s.alive_total(),
        "resolving": resolving,
        "next_turn": s.next_turn,
        "window": s.window.public() if s.window is not None else None,
        "winners": list(s.winners) if s.phase == "over" else None,
    }


def full_view(state: FBState) -> dict[str, Any]:
    """The spectator view with every hand and the draw pile (top first) face up; for
    replays of finished matches only."""
    s = state
    v = view(s, None)
    v["hands"] = [_cards(h) for h in s.hands]
    v["draw_pile_cards"] = _cards(reversed(s.draw_pile))
    return v


def zones(state: FBState) -> dict[str, list[int]]:
    """Every card id by zone (each exactly once): ``fronts``, ``hit_list``,
    ``collected``, ``cemetery``, ``unused`` (gangs put away), ``hands``, ``draw_pile``,
    ``discard``."""
    s = state
    return {
        "fronts": [m for f in s.fronts for m in f],
        "hit_list": list(s.hit_list),
        "collected": list(s.res.collected) if s.res is not None else [],
        "cemetery": list(s.cemetery),
        "unused": list(s.unused),
        "hands": [c for h in s.hands for c in h],
        "draw_pile": list(s.draw_pile),
        "discard": list(s.discard),
    }


def all_ids(state: FBState) -> list[int]:
    """Every card id of this match: the 54 mobsters and the variant's action deck."""
    return list(range(54)) + deck_ids(state.variant)


def wire_cards(obj: Any) -> set[int]:
    """Ids of every card face (a dict with ``"id"`` and ``"kind"``) inside ``obj``."""
    return card_faces(obj)


#: Events whose card faces are legitimately shown: played, voided and counter cards
#: (public), a dropped hand (public), a drawn card (secret to the drawer).
_REVEALING = frozenset({"play", "void", "counter", "eliminated", "draw", "window_opened"})


def visible_cards(state: FBState, seat: int | None, events: list[Event]) -> set[int]:
    """Ids whose face ``seat`` (None = spectator) may know after ``events``: every
    mobster, the discard pile, its own hand, and the cards these events reveal to it."""
    s = state
    ids = set(range(54)) | set(s.discard)
    if isinstance(seat, int) and 0 <= seat < s.n:
        ids |= set(s.hands[seat])
    shown = [e for e in events if e.type in _REVEALING]
    ids |= wire_cards(events_for(shown, seat))
    return ids
