"""Which card faces each seat may know (D-FAM-2), for the conformance suite and the
property tests.

* :func:`wire_cards` -- ids of every card named in a JSON view or event object.
* :func:`visible_cards` -- ids whose face ``seat`` (None = spectator) may know right
  after ``events`` were produced by the action that led to ``state``.

Public: the street, the gangs and the discard pile; this turn's Accountant swaps and
Brute target (shown in the view); the cards a public event names by the rules (a renewed
or drawn card, a played Accountant or Brute and its target, swapped cards, a recruited
card and the card sent to the gang, the hands at the game over). Private to a seat: its
own hand and the card it kept after a ``take_pair`` (the ``recruit`` secret). Every hand
once the match is over. Never: the deck, and the opponent's hand cards never shown.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from shared.games.famiglia.state import FamigliaState
from shared.rules import Event

__all__ = ["visible_cards", "wire_cards"]

#: The data fields of each public event that name a card by the rules: a card that was
#: face up (or goes face up) as the event happens. ``kept`` (a ``recruit`` secret) is the
#: recruiter's own hand card and counts for that seat only.
_EVENT_CARD_FIELDS: dict[str, tuple[str, ...]] = {
    "renew": ("card",),
    "street_draw": ("card",),
    "accountant": ("card",),
    "swap": ("from_gang", "from_hand"),
    "brute": ("card", "target"),
    "recruit": ("card", "to_gang"),
    "game_over": ("hands",),
}


def visible_cards(state: FamigliaState, seat: int | None, events: Iterable[Event]) -> set[int]:
    """Ids of the cards whose face ``seat`` (None = spectator) may know once ``events``
    (what ``apply`` just returned) have happened (D-FAM-2): the face-up zones (street,
    gangs, discard pile) and this turn's Accountant swaps and Brute target, the cards the
    public events name by the rules (:data:`_EVENT_CARD_FIELDS`), and for a seat its own
    hand and the secrets sent to it; every hand once the match is over. The deck and the
    opponent's hand cards never shown stay out. Anything a view or event sends to ``seat``
    (:func:`wire_cards`) must be in this set."""
    s = state
    known = set(s.street) | set(s.discard) | set(s.gangs[0]) | set(s.gangs[1]) | set(s.swaps)
    if s.brute is not None:
        known |= {s.brute[0], s.brute[1]}
    if s.accountant is not None:
        known.add(s.accountant)
    me = seat if seat in (0, 1) else None
    if me is not None:
        known |= set(s.hands[me])
    if s.phase == "over":
        known |= set(s.hands[0]) | set(s.hands[1])
    for e in events:
        if not e.visible_to(me):
            continue
        known |= wire_cards([e.data.get(f) for f in _EVENT_CARD_FIELDS.get(e.type, ())])
        if e.secret is not None and me is not None and e.secret_to == me:
            known |= wire_cards(e.secret)
    return known


def wire_cards(obj: Any) -> set[int]:
    """Ids of every card named anywhere inside a JSON-ready view or event (or a list of
    them): the ``id`` of each card dict ``{"id", "code", "family", "value", "vp"}``, and
    the id-valued fields of the view, ``brute.target`` and ``accountant.moved``."""
    found: set[int] = set()

    def walk(o: Any) -> None:
        if isinstance(o, Mapping):
            for k, v in o.items():
                if k in ("id", "target") and isinstance(v, int):
                    found.add(v)
                elif k == "moved" and isinstance(v, list):
                    found.update(v)
                else:
                    walk(v)
        elif isinstance(o, (list, tuple)):
            for v in o:
                walk(v)

    walk(obj)
    return found
