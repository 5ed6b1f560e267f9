"""Playing: the legal actions of each seat, ``apply`` and its dispatch, the card
that reached the discard pile (§2.4 step 4) and the snap window (§2.5)."""
from __future__ import annotations

from itertools import combinations
from typing import Any, Callable

from shared.games.omerta.actions import (
    _POWER_ACTIONS, DeclareOmerta, Decline, DiscardDrawn, DrawDeck, EndTurn, Hitwoman,
    HitwomanPass, Peek, Replace, SafeSwap, Snap, SnapPass, TakeDiscard, WindowTimeout)
from shared.games.omerta.cards import ACTIVE_POWERS, DECK
from shared.games.omerta.powers import _activate, _has_power_action, _power_actions, _resolve_attack
from shared.games.omerta.rounds import _begin_turn, _end_round, _end_turn, _expire_markers
from shared.games.omerta.state import (
    OmertaState, _can_draw, _eligible_for_snap, _penalty, _remove_slot, _reveal, _set_card,
    _slot_of, _take_from_pile)
from shared.windows import Window, check_timeout, close_event, open_window, pass_event
from shared.rules import Action, Event, IllegalAction
from shared.sentences import say


def _trigger(s: OmertaState, card_id: int, events: list[Event]) -> None:
    c = DECK[card_id]
    if c.is_bottle:
        _open_snap_window(s, c.value, events)
        return
    if c.name in ACTIVE_POWERS and _has_power_action(s, c.name):
        s.power = c.name
        s.step = "power"
        events.append(Event("power_available", {"seat": s.turn, "card": c.name}))
        return
    _end_turn(s, events)


def _open_snap_window(s: OmertaState, value: int, events: list[Event]) -> None:
    eligible = _eligible_for_snap(s)
    if not eligible:
        _end_turn(s, events)
        return
    s.window, opened = open_window(s.next_window, "snap", eligible, ("snap",), "snap_pass",
                                   s.snap_timeout_ms, {"value": value})
    s.next_window += 1
    s.step = "window"
    events.append(opened)


def _close_window(s: OmertaState, events: list[Event], reason: str) -> None:
    w = s.window
    assert w is not None
    s.window = None
    events.append(close_event(w, reason))
    attack, s.attack, attacker, s.attacker = s.attack, None, s.attacker, -1
    if w.kind == "hitwoman" and reason != "countered":
        assert attack is not None
        _resolve_attack(s, attacker, attack, events)
    else:
        if w.kind == "hitwoman" and s.attack_card is not None:
            s.discard.insert(len(s.discard) - 1, s.attack_card)  # D-OM-26: under the Hitwoman
            s.attack_card = None
        _end_turn(s, events)


def _answered(s: OmertaState, seat: int, events: list[Event]) -> None:
    w = s.window
    assert w is not None
    # w.answered(seat): the same fields with ``pending`` less ``seat``, copied directly
    # (dataclasses.replace and a frozen __init__ are slow, and every snap-window answer
    # of every table passes here)
    answered = object.__new__(Window)
    answered.__dict__.update(w.__dict__)
    answered.__dict__["pending"] = w.pending - {seat}
    s.window = w = answered
    if w.done:
        _close_window(s, events, "all_answered")


def legal_actions(state: OmertaState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (turn actions, choices, window claims)."""
    s = state
    if s.phase == "over" or not 0 <= seat < s.n:
        return []
    if s.phase == "peek":
        if s.peeked[seat]:
            return []
        made = _SLOT_ACTIONS[Peek]  # listed again after every peek: shared, they compare by identity
        return [made.get(pair) or _slot_action(Peek, pair) for pair in combinations([sid for sid, _ in s.games[seat]], 2)]
    if s.window is not None:
        w = s.window
        if seat not in w.pending:
            return []
        if w.kind == "snap":
            made = _SLOT_ACTIONS[Snap]
            return [made.get(sid) or _slot_action(Snap, sid) for sid in s.free_slots(seat)] + [_SNAP_PASS]
        made = _SLOT_ACTIONS[Hitwoman]
        return [made.get(sid) or _slot_action(Hitwoman, sid) for sid in s.free_slots(seat)] + [_HITWOMAN_PASS]
    if seat != s.turn:
        return []
    if s.step == "start":
        return [a for a, why_not in _START_ACTIONS if why_not(s, seat) is None]
    if s.step == "drawn":
        made = _SLOT_ACTIONS[Replace]
        out = [made.get(sid) or _slot_action(Replace, sid) for sid in s.free_slots(seat)]
        if s.drawn_from == "deck":
            out.append(_DISCARD_DRAWN)
        return out
    if s.step == "power":
        assert s.power is not None
        return _power_actions(s, s.power) + [_DECLINE]
    if s.step == "safe":
        return [SafeSwap(sid, i) for sid in s.free_slots(seat) for i in range(len(s.safe))] + [_DECLINE]
    return []


# Actions are frozen values (equal by their fields): legal_actions hands out shared
# instances of the common ones instead of building them for every seat and state.
_SNAP_PASS, _HITWOMAN_PASS, _DISCARD_DRAWN, _DECLINE = SnapPass(), HitwomanPass(), DiscardDrawn(), Decline()
#: class -> slot id (a pair of them for Peek) -> its shared action
#: (``made.get(sid) or _slot_action(cls, sid)``)
_SLOT_ACTIONS: dict[type, dict[Any, Action]] = {Snap: {}, Hitwoman: {}, Replace: {}, Peek: {}}


def _slot_action(cls: type, slot: Any) -> Action:
    """``cls(slot)`` (Snap, Hitwoman, Replace; Peek of a pair of slot ids), one shared
    instance per slot id or pair."""
    made = _SLOT_ACTIONS[cls]
    a = made.get(slot)
    if a is None:
        if len(made) > 2048:  # slot ids grow within a match: keep it small
            made.clear()
        a = made[slot] = cls(slot)
    return a


# -- the start of a turn: each rule written once, for legal_actions and apply: the
# ``_why_not_*`` give the reason (None = allowed), the ``_verify_*`` raise it --
def _why_not_declare(s: OmertaState, seat: int) -> str | None:
    """§2.4 step 1 (O.3): no declaration while a Police Patrol marker lies on one's card."""
    if any(sid in s.patrol for sid, _ in s.games[seat]):
        return "you cannot declare Omerta while a Police Patrol blocks one of your cards"
    return None


def _why_not_draw(s: OmertaState, seat: int) -> str | None:
    """§2.7: something to draw, from the pile or a reshuffled discard pile."""
    return None if _can_draw(s) else "both piles are empty: end your turn"


def _why_not_end_turn(s: OmertaState, seat: int) -> str | None:
    """§2.7: a turn ends without a draw only when both piles are empty."""
    return "you must draw a card" if _can_draw(s) else None


def _why_not_take_discard(s: OmertaState, seat: int) -> str | None:
    """§2.4 step 2: the discard pile's top card replaces a card without a patrol marker."""
    if not s.discard:
        return "the discard pile is empty"
    if not s.free_slots(seat):
        return "you have no free card to replace: draw from the pile"
    return None


def _verify(why_not: Callable[[OmertaState, int], str | None], s: OmertaState, seat: int) -> None:
    """Raise :class:`IllegalAction` with ``why_not(s, seat)``'s reason, if any."""
    reason = why_not(s, seat)
    if reason is not None:
        raise IllegalAction(reason)


def _verify_declare(s: OmertaState, seat: int) -> None:
    _verify(_why_not_declare, s, seat)


def _verify_draw(s: OmertaState, seat: int) -> None:
    _verify(_why_not_draw, s, seat)


def _verify_end_turn(s: OmertaState, seat: int) -> None:
    _verify(_why_not_end_turn, s, seat)


def _verify_take_discard(s: OmertaState, seat: int) -> None:
    _verify(_why_not_take_discard, s, seat)


#: The actions of a turn's start with the rule of each (legal_actions), in list order.
_START_ACTIONS: tuple[tuple[Action, Callable[[OmertaState, int], str | None]], ...] = (
    (DeclareOmerta(), _why_not_declare), (DrawDeck(), _why_not_draw),
    (EndTurn(), _why_not_end_turn), (TakeDiscard(), _why_not_take_discard))


def awaiting(state: OmertaState) -> frozenset[int]:
    """Seats whose input the match waits for: unpeeked seats, the pending claimants of
    an open window, or the active seat."""
    s = state
    if s.phase == "over":
        return frozenset()
    if s.phase == "peek":
        return frozenset(p for p in range(s.n) if not s.peeked[p])
    if s.window is not None:
        return s.window.pending
    return frozenset({s.turn})


def apply(state: OmertaState, seat: int | None, action: Action) -> tuple[OmertaState, list[Event]]:
    """Check ``action`` by ``seat`` (None = the table) and apply it to a copy.

    Returns ``(new_state, events)``; raises :class:`IllegalAction` with a sentence for
    the player (the given state is never modified).
    """
    s = state.clone()
    events: list[Event] = []
    _dispatch(s, seat, action, events)
    return s, events


def _dispatch(s: OmertaState, seat: int | None, action: Action, events: list[Event]) -> None:
    if s.phase == "over":
        raise IllegalAction(say("match_over"))
    if isinstance(action, WindowTimeout):
        check_timeout(s.window, seat, action)
        _close_window(s, events, "timeout")
        return
    if seat is None or not 0 <= seat < s.n:
        raise IllegalAction(say("no_such_seat"))

    if s.phase == "peek":
        if not isinstance(action, Peek):
            raise IllegalAction("first look at two of your cards")
        if s.peeked[seat]:
            raise IllegalAction("you have already looked at your two cards")
        slots = action.slots
        own = {sid for sid, _ in s.games[seat]}
        if len(slots) != 2 or slots[0] == slots[1] or not set(slots) <= own:
            raise IllegalAction("choose two different cards of your own")
        s.peeked[seat] = True
        events.append(Event("look", {"seat": seat, "reason": "peek", "slots": list(slots)},
                            secret={"cards": [_reveal(s, seat, sid) for sid in slots]},
                            secret_to=seat))
        if all(s.peeked):
            s.phase = "turn"
            s.turn_no = 0
            _begin_turn(s, s.first, events)
        return

    if s.window is not None:
        _window_action(s, seat, action, events)
        return
    if isinstance(action, (Snap, SnapPass, Hitwoman, HitwomanPass)):
        raise IllegalAction(say("no_window"))
    if seat != s.turn:
        raise IllegalAction(say("not_your_turn"))

    if s.step == "start":
        if isinstance(action, DeclareOmerta):
            _verify_declare(s, seat)
            events.append(Event("omerta", {"seat": seat}))
            _end_round(s, events, declarer=seat)
            return
        if isinstance(action, DrawDeck):
            _verify_draw(s, seat)
            cid = _take_from_pile(s, events)
            assert cid is not None
            s.drawn, s.drawn_from, s.step = cid, "deck", "drawn"
            events.append(Event("draw", {"seat": seat, "source": "deck"},
                                secret={"card": DECK[cid].to_dict()}, secret_to=seat))
            _expire_markers(s, seat, events)
            return
        if isinstance(action, TakeDiscard):
            _verify_take_discard(s, seat)
            cid = s.discard.pop()
            s.drawn, s.drawn_from, s.step = cid, "discard", "drawn"
            events.append(Event("draw", {"seat": seat, "source": "discard", "card": DECK[cid].to_dict()}))
            _expire_markers(s, seat, events)
            return
        if isinstance(action, EndTurn):
            _verify_end_turn(s, seat)
            events.append(Event("no_draw", {"seat": seat}))
            _expire_markers(s, seat, events)
            _end_turn(s, events)
            return
        raise IllegalAction("start your turn: draw a card or declare Omerta")

    if s.step == "drawn":
        assert s.drawn is not None
        if isinstance(action, Replace):
            _slot_of(s, seat, action.slot)
            x = s.card_in(action.slot)
            _set_card(s, action.slot, s.drawn)
            s.discard.append(x)
            events.append(Event("replace", {"seat": seat, "slot": action.slot,
                                            "source": s.drawn_from, "card": DECK[x].to_dict()}))
            s.drawn = s.drawn_from = None
            _trigger(s, x, events)
            return
        if isinstance(action, DiscardDrawn):
            if s.drawn_from != "deck":
                raise IllegalAction("a card taken from the discard pile must replace one of yours")
            d = s.drawn
            s.discard.append(d)
            s.drawn = s.drawn_from = None
            events.append(Event("discard", {"seat": seat, "card": DECK[d].to_dict()}))
            _trigger(s, d, events)
            return
        raise IllegalAction("replace one of your cards or discard the drawn card")

    if s.step == "power":
        if isinstance(action, Decline):
            events.append(Event("power_declined", {"seat": seat, "card": s.power}))
            _end_turn(s, events)
            return
        expected = _POWER_ACTIONS.get(s.power or "")
        if expected is None or not isinstance(action, expected):
            raise IllegalAction(f"use the {s.power} you discarded, or decline")
        _activate(s, seat, action, events)
        return

    if s.step == "safe":
        if isinstance(action, Decline):
            events.append(Event("safe_kept", {"seat": seat}))
            _end_turn(s, events)
            return
        if isinstance(action, SafeSwap):
            _slot_of(s, seat, action.slot)
            if not 0 <= action.index < len(s.safe):
                raise IllegalAction("the safe holds four cards: choose 0 to 3")
            mine = s.card_in(action.slot)
            _set_card(s, action.slot, s.safe[action.index])
            s.safe[action.index] = mine
            events.append(Event("safe_swap", {"seat": seat, "slot": action.slot, "index": action.index},
                                secret={"card": DECK[s.card_in(action.slot)].to_dict()}, secret_to=seat))
            _end_turn(s, events)
            return
        raise IllegalAction("swap a card with the safe, or decline")

    raise IllegalAction("that action is not possible now")  # pragma: no cover


def _window_action(s: OmertaState, seat: int, action: Action, events: list[Event]) -> None:
    w = s.window
    assert w is not None
    if w.kind == "snap":
        if not isinstance(action, (Snap, SnapPass)):
            raise IllegalAction("a snap window is open: snap or pass")
    elif not isinstance(action, (Hitwoman, HitwomanPass)):
        raise IllegalAction("a Hitwoman window is open: counter or pass")
    w.check_answer(seat, action)
    if isinstance(action, (SnapPass, HitwomanPass)):
        events.append(pass_event(w, seat))
        _answered(s, seat, events)
        return
    slot = _slot_of(s, seat, action.slot)  # D-OM-28: no reveal, no penalty
    c = DECK[s.card_in(slot)]
    if isinstance(action, Snap):
        ok = c.is_bottle and c.value == w.data["value"]
        events.append(Event("snap", {"seat": seat, "slot": slot, "card": c.to_dict(),
                                     "success": ok, "window": w.id}))
        if ok:
            s.discard.append(_remove_slot(s, slot))
            _close_window(s, events, "snapped")
            return
        _penalty(s, seat, events, "snap")
        _answered(s, seat, events)
        return
    ok = c.name == "hitwoman"
    events.append(Event("counter", {"seat": seat, "slot": slot, "card": c.to_dict(),
                                    "success": ok, "window": w.id}))
    if ok:
        s.discard.append(_remove_slot(s, slot))
        _close_window(s, events, "countered")
        return
    _penalty(s, seat, events, "hitwoman")  # D-OM-16
    _answered(s, seat, events)
