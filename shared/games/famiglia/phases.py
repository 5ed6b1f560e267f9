"""The rules of the four phases of a Famiglia turn (RULES.md §1.5), one pair of functions
per action type, in the verify / do style:

* ``_why_not_<type>(s, seat, <the action's fields>) -> str | None`` -- why ``seat`` (the
  active seat of a running match, see :func:`_why_not_seat`) may not take that action
  now: the sentence for the player, or None when it is legal. It is the single statement
  of the rule: :func:`~shared.games.famiglia.engine.legal_actions` lists the candidates
  it accepts and :func:`~shared.games.famiglia.engine.apply` raises its sentence. It takes
  the fields, not the action, so that the listing builds only the actions it keeps.
* ``_do_<type>(s, seat, action, events)`` -- apply an action its check accepted.

Some checks come in layers that ``legal_actions`` asks once per phase or per street card
instead of once per candidate: the phase ``blockers`` (``_renew_blocker`` ...), which
depend on no card, and :func:`_pair_target` / :func:`_why_not_pair`, the two halves of
:func:`_why_not_take_pair`.
"""
from __future__ import annotations

from typing import Any

from shared.games.famiglia.actions import (
    Accountant, Brute, Pass, Renew, Swap, TakeFree, TakePair)
from shared.games.famiglia.cards import ACCOUNTANT, BRUTE, DECK, MERCENARY, Card
from shared.games.famiglia.state import FamigliaState
from shared.games.famiglia.turns import _draw_to_street, _end_turn
from shared.rules import Event


def _why_not_seat(s: FamigliaState, seat: Any) -> str | None:
    """Why ``seat`` may not act at all now (any action), or None."""
    if s.phase == "over":
        return "the match is over"
    if seat not in (0, 1):
        return "no such seat"
    if seat != s.turn:
        return "it is not your turn"
    return None


def _not_in_hand(s: FamigliaState, seat: int, card_id: Any, what: str) -> str | None:
    return f"{what} is not in your hand" if card_id not in s.hands[seat] else None


def _not_in_street(s: FamigliaState, card_id: Any) -> str | None:
    return "that card is not in the street" if card_id not in s.street else None


# -- phase 1: renew ----------------------------------------------------------------------

def _renew_blocker(s: FamigliaState) -> str | None:
    """Why a renew is impossible now (a sentence), or None (§1.5 phase 1, D-FAM-9)."""
    if s.step > 1:
        return "the street can only be renewed in phase 1, before any other action"
    if s.end_triggered:
        return "the deck has run out for good: the street can no longer be renewed"
    if not s.street:
        return "the street is empty"
    if any(DECK[c].value == 0 for c in s.street):
        return "there is a 0 in the street: it cannot be renewed"
    if s.exhaustion == 1 and s.renewed_after_exhaustion:
        return "since the reshuffle the street can be renewed only once per turn"
    return None


def _why_not_renew(s: FamigliaState, seat: int, card_id: Any) -> str | None:
    return _renew_blocker(s) or _not_in_street(s, card_id)


def _do_renew(s: FamigliaState, seat: int, action: Renew, events: list[Event]) -> None:
    c = DECK[action.card]
    s.street.remove(c.id)
    if s.exhaustion == 0:
        s.discard.append(c.id)
        where = "discard"
    else:
        s.deck.insert(0, c.id)  # under the deck, before the draw (§1.5 phase 1)
        s.renewed_after_exhaustion = True
        where = "deck_bottom"
    s.step = 1
    s.renews += 1
    events.append(Event("renew", {"seat": seat, "card": c.to_dict(), "to": where}))
    _draw_to_street(s, c.value, "renew", events)


# -- phase 2: Accountant and its swaps (D-FAM-3, D-FAM-7) ----------------------------------

def _accountant_blocker(s: FamigliaState) -> str | None:
    return "the Accountant phase is over" if s.step > 1 else None


def _why_not_accountant(s: FamigliaState, seat: int, card_id: Any) -> str | None:
    why = _accountant_blocker(s) or _not_in_hand(s, seat, card_id, "that Accountant")
    if why is not None:
        return why
    a = DECK[card_id]
    if a.family != ACCOUNTANT or a.value < 1:
        return "only an Accountant of value 1 to 4 can be played in phase 2"
    return None


def _do_accountant(s: FamigliaState, seat: int, action: Accountant, events: list[Event]) -> None:
    a = DECK[action.card]
    s.hands[seat].remove(a.id)
    s.gangs[seat].append(a.id)
    s.accountant = a.id
    s.step = 2
    events.append(Event("accountant", {"seat": seat, "card": a.to_dict()}))


def _swap_blocker(s: FamigliaState) -> str | None:
    if s.step != 2 or s.accountant is None:
        return "swaps follow an Accountant played this turn, before any Brute or recruit"
    v = DECK[s.accountant].value
    if len(s.swaps) // 2 >= v:
        return f"your Accountant of value {v} allows only {v} swap{'s' if v > 1 else ''}"
    return None


def _why_not_swap(s: FamigliaState, seat: int, from_gang: Any, from_hand: Any) -> str | None:
    why = _swap_blocker(s)
    if why is not None:
        return why
    if from_gang == s.accountant:
        return "the Accountant you just played cannot be taken back"
    if from_gang not in s.gangs[seat]:
        return "that card is not in your gang"
    if from_gang in s.swaps or from_hand in s.swaps:
        return "a card moved by this Accountant cannot be moved again"  # D-FAM-7
    return _not_in_hand(s, seat, from_hand, "that card")


def _do_swap(s: FamigliaState, seat: int, action: Swap, events: list[Event]) -> None:
    assert s.accountant is not None
    g, h = DECK[action.from_gang], DECK[action.from_hand]
    s.gangs[seat].remove(g.id)
    s.hands[seat].remove(h.id)
    s.hands[seat].append(g.id)
    s.gangs[seat].append(h.id)
    s.swaps += [g.id, h.id]
    events.append(Event("swap", {"seat": seat, "from_gang": g.to_dict(), "from_hand": h.to_dict(),
                                 "swaps": len(s.swaps) // 2, "max": DECK[s.accountant].value}))


# -- phase 3: Brute (D-FAM-4) -------------------------------------------------------------

def _brute_blocker(s: FamigliaState) -> str | None:
    return "you have already used a Brute this turn" if s.step > 2 else None


def _why_not_brute(s: FamigliaState, seat: int, card_id: Any, target: Any,
                   amount: Any) -> str | None:
    why = _brute_blocker(s) or _not_in_hand(s, seat, card_id, "that Brute")
    if why is not None:
        return why
    b = DECK[card_id]
    if b.family != BRUTE or b.value < 1:
        return "only a Brute of value 1 to 4 can be played in phase 3"
    why = _not_in_street(s, target)
    if why is not None:
        return why
    if not isinstance(amount, int) or not 1 <= amount <= b.value:
        return f"a Brute of value {b.value} lowers a card by 1 to {b.value}"
    return None


def _do_brute(s: FamigliaState, seat: int, action: Brute, events: list[Event]) -> None:
    b, t = DECK[action.card], DECK[action.target]
    s.hands[seat].remove(b.id)
    s.gangs[seat].append(b.id)
    s.brute = (b.id, t.id, action.amount)
    s.step = 3
    events.append(Event("brute", {"seat": seat, "card": b.to_dict(), "target": t.to_dict(),
                                  "amount": action.amount, "effective": s.effective_value(t.id)}))


# -- phase 4: recruit or pass; each ends the turn ----------------------------------------

def _why_not_take_free(s: FamigliaState, seat: int, card_id: Any) -> str | None:
    why = _not_in_street(s, card_id)
    if why is not None:
        return why
    e = s.effective_value(card_id)
    return f"that card is worth {e}: recruit it with a pair" if e != 0 else None


def _do_take_free(s: FamigliaState, seat: int, action: TakeFree, events: list[Event]) -> None:
    c = DECK[action.card]
    s.street.remove(c.id)
    s.hands[seat].append(c.id)
    events.append(Event("recruit", {"seat": seat, "card": c.to_dict(), "effective": 0,
                                    "mode": "free", "to_gang": None}))
    _end_turn(s, True, events)


def _why_not_take_pair(s: FamigliaState, seat: int, card_id: Any, to_gang: Any,
                       keep: Any) -> str | None:
    """A take with a pair (§1.5 phase 4 (b), D-FAM-5, D-FAM-14)."""
    why, e = _pair_target(s, card_id)
    return why or _why_not_pair(s, seat, DECK[card_id], e, to_gang, keep)


def _pair_target(s: FamigliaState, card_id: Any) -> tuple[str | None, int]:
    """The street-card half of :func:`_why_not_take_pair`: ``(why not, effective value)``
    (the value is 0 when there is a reason)."""
    why = _not_in_street(s, card_id)
    if why is not None:
        return why, 0
    e = s.effective_value(card_id)
    if e == 0:
        return "that card is worth 0 now: take it for free", 0
    return None, e


def _why_not_pair(s: FamigliaState, seat: int, c: Card, e: int, to_gang: Any,
                  keep: Any) -> str | None:
    """The hand half of :func:`_why_not_take_pair`, for street card ``c`` of effective
    value ``e`` >= 1 (checked by :func:`_pair_target`)."""
    if to_gang == keep:
        return "a pair is two different cards"
    hand = s.hands[seat]  # _not_in_hand, inlined: this runs for every pair of hand cards
    if to_gang not in hand:
        return "the card for your gang is not in your hand"
    x = DECK[to_gang]
    if keep not in hand:
        return "the card to keep is not in your hand"
    if not _pair_ok(c, e, x, DECK[keep]):
        return (f"to recruit a {c.family} of value {e} you need two {c.family}s of value {e - 1}, "
                f"or one of them and a Mercenary of value {e} or more")
    return None


def _pair_ok(c: Card, e: int, x: Card, y: Card) -> bool:
    """One of the two assignments (real, real-or-joker) holds; at most one joker."""
    real_x = x.family == c.family and x.value == e - 1
    real_y = y.family == c.family and y.value == e - 1
    joker_x = x.family == MERCENARY and x.value >= e
    joker_y = y.family == MERCENARY and y.value >= e
    return (real_x and (real_y or joker_y)) or (real_y and joker_x)


def _do_take_pair(s: FamigliaState, seat: int, action: TakePair, events: list[Event]) -> None:
    e = s.effective_value(action.card)
    s.street.remove(action.card)
    s.hands[seat].remove(action.to_gang)
    s.gangs[seat].append(action.to_gang)
    s.hands[seat].append(action.card)
    events.append(Event("recruit", {"seat": seat, "card": DECK[action.card].to_dict(),
                                    "effective": e, "mode": "pair",
                                    "to_gang": DECK[action.to_gang].to_dict()},
                        secret={"kept": DECK[action.keep].to_dict()}, secret_to=seat))
    _end_turn(s, True, events)


def _do_pass(s: FamigliaState, seat: int, action: Pass, events: list[Event]) -> None:
    events.append(Event("pass", {"seat": seat, "passes": s.passes + 1}))
    _end_turn(s, False, events)

