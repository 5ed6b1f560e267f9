"""Legal actions and ``apply``. Every condition is tested by one function,
:func:`why_illegal`, used by :func:`legal_actions`, by :func:`apply` and by the view's
per-card reasons, so the three can never disagree."""
from __future__ import annotations

from typing import Any

from shared.games.mafiosi.actions import ChooseBouncer, KeepPointCard, PlayCard
from shared.games.mafiosi.cards import DECK
from shared.games.mafiosi.rounds import bouncer_problem, choose_bouncer, keep_point_card, play_card
from shared.games.mafiosi.state import MafiosiState
from shared.games.mafiosi.tricks import play_problem
from shared.rules import Action, Event, IllegalAction
from shared.sentences import say

#: The action each phase expects.
_EXPECTED: dict[str, type[ChooseBouncer | PlayCard | KeepPointCard]] = {
    "bouncer": ChooseBouncer, "play": PlayCard, "point": KeepPointCard}
_WRONG_KIND = {
    "bouncer": "first choose your bouncer",
    "play": "play a card to the trick",
    "point": "the round winners are choosing their point cards",
}


def why_illegal(state: MafiosiState, seat: int | None, card: Any) -> str | None:
    """Why ``seat`` may not use ``card`` (an id) in the current phase -- as bouncer
    (§4.3 step 3), to the trick (§4.4) or as point card (§4.5) -- as one sentence a
    player can read (e.g. "an ace of hearts was played: play a heart (or a Joker)"), or
    None when it is legal."""
    s = state
    if s.phase == "over":
        return "the match is over"
    if not isinstance(seat, int) or not 0 <= seat < s.n:
        return "no such seat"
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < len(DECK):
        return "no such card"
    if s.phase == "bouncer":
        if s.chosen[seat]:
            return "you have already placed your bouncer"
        if card not in s.hands[seat]:
            return "that card is not in your hand"
        return bouncer_problem(s.hands[seat], card)
    if s.phase == "play":
        if seat != s.turn:
            return "it is not your turn"
        if card not in s.hands[seat]:
            return "that card is not in your hand"
        return play_problem(s.hands[seat], s.ace_suit, s.jack_needed, card)
    if seat not in s.point_pending:
        return "you have no point card to choose"
    if card not in s.scoring_cards(seat):
        return "choose one of the cards you won this round or your bouncer"
    return None


def _candidates(s: MafiosiState, seat: int) -> list[int]:
    if s.phase == "point":
        return sorted(s.scoring_cards(seat)) if seat in s.point_pending else []
    return list(s.hands[seat]) if s.phase in ("bouncer", "play") else []


def illegal_reasons(state: MafiosiState, seat: int) -> dict[int, str]:
    """``{card id: reason}`` for every card of the seat's hand it may not use now (in the
    bouncer and play phases; for hovering in the client). Empty for other phases."""
    s = state
    if s.phase not in ("bouncer", "play") or not 0 <= seat < s.n:
        return {}
    out = {}
    for c in s.hands[seat]:
        reason = why_illegal(s, seat, c)
        if reason is not None:
            out[c] = reason
    return out


def legal_actions(state: MafiosiState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now: one per legal card."""
    s = state
    if s.phase == "over" or not isinstance(seat, int) or not 0 <= seat < s.n:
        return []
    cls = _EXPECTED[s.phase]
    return [cls(c) for c in _candidates(s, seat) if why_illegal(s, seat, c) is None]


def awaiting(state: MafiosiState) -> frozenset[int]:
    """Seats the match waits for: those without a bouncer yet, the seat to play, or the
    round winners still choosing a point card; empty when over."""
    s = state
    if s.phase == "bouncer":
        return frozenset(p for p in range(s.n) if not s.chosen[p])
    if s.phase == "play":
        return frozenset({s.turn})
    if s.phase == "point":
        return frozenset(s.point_pending)
    return frozenset()


def apply(state: MafiosiState, seat: int | None, action: Action) -> tuple[MafiosiState, list[Event]]:
    """Check ``action`` by ``seat`` with :func:`why_illegal` and apply it to a copy.

    Returns ``(new_state, events)``; raises :class:`IllegalAction` with a sentence for
    the player, the given state untouched."""
    s = state
    if s.phase == "over":
        raise IllegalAction(say("match_over"))
    if seat is None or not isinstance(seat, int) or not 0 <= seat < s.n:
        raise IllegalAction(say("no_such_seat"))
    expected = _EXPECTED[s.phase]
    if not isinstance(action, expected):
        raise IllegalAction(_WRONG_KIND[s.phase])
    reason = why_illegal(s, seat, action.card)
    if reason is not None:
        raise IllegalAction(reason)
    s = state.clone()
    events: list[Event] = []
    if isinstance(action, ChooseBouncer):
        choose_bouncer(s, seat, action.card, events)
    elif isinstance(action, PlayCard):
        play_card(s, seat, action.card, events)
    else:
        keep_point_card(s, seat, action.card, events)
    return s, events
