"""Which card faces each seat may know (RULES.md §0.2 item 4, D-OM-23), for the
conformance suite (``tests/test_conformance.py``) and the property tests.

* :func:`wire_cards` -- ids of every card face named in a JSON view or event object
  (a card on the wire is ``{"id", "kind": "bottle"|"character", ...}``).
* :func:`visible_cards` -- ids whose face ``seat`` (None = spectator) may know right
  after ``events`` were produced by the action that led to ``state``.

Public (every seat and spectators): the discard pile, a card taken from it, the
Mamma/Patrol card held aside during its Hitwoman window, every game revealed at the
last round end, and the cards that a public reveal event shows (a snap or Hitwoman
claim, a Driver, a replaced card, a discarded card, a removed marker, the round end).
Private to a seat: its own slots (a look, a swap into them), the card it drew, and the
safe during its own Safecracker look.
"""
from __future__ import annotations

from typing import Any, Iterable

from shared.rules import Event, card_faces

__all__ = ["visible_cards", "wire_cards"]

#: ``kind`` of a card dict on the wire (``Card.to_dict``).
_CARD_KINDS = frozenset({"bottle", "character"})
#: Public events whose ``data`` may show card faces.
_REVEALING_EVENTS = frozenset(
    {"snap", "counter", "driver", "round_over", "replace", "discard", "draw", "marker_removed"})


def wire_cards(obj: Any) -> set[int]:
    """Ids of every card dict (``{"id", "kind": "bottle"|"character", ...}``) anywhere
    inside ``obj`` (a view, an event's wire form, a list of them)."""
    return card_faces(obj, _CARD_KINDS)


def _public(state: Any, events: Iterable[Event]) -> set[int]:
    ids = set(state.discard)
    if state.drawn is not None and state.drawn_from == "discard":
        ids.add(state.drawn)
    if state.attack_card is not None:
        ids.add(state.attack_card)
    if state.last_round:
        ids |= wire_cards(state.last_round.get("games"))
    for e in events:
        if e.type in _REVEALING_EVENTS:
            ids |= wire_cards(dict(e.data))
    return ids


def _own(state: Any, seat: int) -> set[int]:
    ids = {cid for _, cid in state.games[seat]}
    if state.turn == seat and state.drawn is not None:
        ids.add(state.drawn)
    if state.turn == seat and state.step == "safe":
        ids |= set(state.safe)
    return ids


def visible_cards(state: Any, seat: int | None, events: Iterable[Event]) -> set[int]:
    """Ids of the cards whose face ``seat`` (None = spectator) may know after
    ``events`` (the events of the action that produced ``state``)."""
    public = _public(state, list(events))
    if seat is None or not 0 <= seat < state.n:
        return public
    return public | _own(state, seat)
