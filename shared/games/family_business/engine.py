"""Setup (§3.4), the legal actions of each seat, ``apply`` and its dispatch, and the
counter window (§3.6, §0.2 item 5)."""
from __future__ import annotations

from typing import Any, Mapping, cast

from shared.games.family_business.actions import (
    PLAY_ACTION, Counter, NoCounter, Order, Place, Void)
from shared.games.family_business.cards import (
    ACTION_CARDS, GANG_SIZE, HAND_SIZE, MAX_SEATS, MIN_SEATS, MOBSTERS, action, card_dict,
    deck_ids)
from shared.games.family_business.effects import (
    chooser, choices, order, place, play_options, proceed, resolve, resolve_counter, why_not)
from shared.games.family_business.state import FBState, Resolution
from shared.games.family_business.war import begin_turn
from shared.rng import CowRandom
from shared.rules import Action, Event, IllegalAction
from shared.sentences import say
from shared.windows import WindowTimeout, check_timeout, close_event, open_window, pass_event

_VARIANT_ALIASES = {"1989": "1989", "2006": "2006", "1989_56": "1989", "2006_58": "2006"}


def _int_option(config: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = config.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{key} must be an integer in {lo}..{hi}")
    return value


def _parse_deck(codes: Any, variant: str) -> list[int]:
    if not isinstance(codes, (list, tuple)):
        raise ValueError("deck must be a list of card codes")
    remaining: dict[str, list[int]] = {}
    for cid in deck_ids(variant):
        remaining.setdefault(action(cid).code, []).append(cid)
    out = []
    for code in codes:
        if str(code) not in remaining:
            raise ValueError(f"deck: unknown card code {code!r} for the {variant} deck")
        if not remaining[str(code)]:
            raise ValueError(f"deck: too many copies of {code!r}")
        out.append(remaining[str(code)].pop(0))
    return out


def new_match(config: Mapping[str, Any], seed: int) -> FBState:
    """A match after setup (§3.4), the first player's turn begun (he holds 6 cards).

    ``config``: see the package docstring. Raises ``ValueError`` for a bad config.
    """
    n = _int_option(config, "seats", 4, MIN_SEATS, MAX_SEATS)
    variant = _VARIANT_ALIASES.get(str(config.get("deck_variant", "1989")))
    if variant is None:
        raise ValueError('deck_variant must be "1989" or "2006"')
    s = FBState(
        n=n, rng=CowRandom(seed), variant=variant,
        counter_timeout_ms=_int_option(config, "counter_timeout_ms", 3000, 1, 600_000),
        cap_turns=_int_option(config, "cap_turns", 2000, 0, 1_000_000),
    )
    stacked = _parse_deck(config.get("deck", ()), variant)
    rest = [c for c in deck_ids(variant) if c not in set(stacked)]
    s.rng.shuffle(rest)
    order_ = stacked + rest
    s.hands = [order_[HAND_SIZE * p:HAND_SIZE * (p + 1)] for p in range(n)]
    s.draw_pile = list(reversed(order_[HAND_SIZE * n:]))
    s.fronts = [[m.id for m in MOBSTERS if m.gang == p] for p in range(n)]
    s.unused = [m.id for m in MOBSTERS if m.gang >= n]
    s.in_game = [True] * n
    first = config.get("first_player")
    if first is None:
        first = s.rng.randrange(n)  # D-FB-2
    elif not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
        raise ValueError("first_player must be a seat index")
    s.first = first
    begin_turn(s, first, [])
    return s


def counters_for(s: FBState, code: str) -> frozenset[str]:
    """Counter codes that may answer ``code`` in this deck variant (§3.6)."""
    from shared.games.family_business.cards import ACTION_TYPES
    cb = ACTION_TYPES[code][2]
    return cb if s.variant == "2006" else cb - {"finger"}


def legal_actions(state: FBState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now: plays and voids on its turn, a ``place`` or
    ``order`` choice, or (window) its counter claims and ``no_counter``."""
    s = state
    if s.phase == "over" or not isinstance(seat, int) or not 0 <= seat < s.n:
        return []
    if s.window is not None:
        if seat not in s.window.pending:
            return []
        assert s.res is not None
        ok = counters_for(s, s.res.code)
        return [Counter(c) for c in s.hands[seat] if action(c).code in ok] + [NoCounter()]
    if s.phase == "resolve":
        if chooser(s) != seat:
            return []
        assert s.res is not None
        kind = Place if s.res.tasks else Order
        return [kind(m) for m in choices(s)]
    if seat != s.turn:
        return []
    out: list[Action] = []
    for c in s.hands[seat]:
        out += play_options(s, seat, c)
    return out


def awaiting(state: FBState) -> frozenset[int]:
    """Seats the match waits for: the window's pending seats, the choosing owner or
    player, or the active player."""
    s = state
    if s.phase == "over":
        return frozenset()
    if s.window is not None:
        return s.window.pending
    if s.phase == "resolve":
        c = chooser(s)
        return frozenset() if c is None else frozenset({c})
    return frozenset({s.turn})


def apply(state: FBState, seat: int | None, action_: Action) -> tuple[FBState, list[Event]]:
    """Check ``action_`` by ``seat`` (None = the table) and apply it to a copy.

    Returns ``(new_state, events)``; raises :class:`IllegalAction` (the given state is
    never modified)."""
    s = state.clone()
    events: list[Event] = []
    _dispatch(s, seat, action_, events)
    return s, events


def _dispatch(s: FBState, seat: int | None, a: Action, events: list[Event]) -> None:
    if s.phase == "over":
        raise IllegalAction(say("match_over"))
    if isinstance(a, WindowTimeout):
        w = check_timeout(s.window, seat, a)
        _close(s, w, "timeout", events)
        resolve(s, events)
        return
    if seat is None or not isinstance(seat, int) or not 0 <= seat < s.n:
        raise IllegalAction(say("no_such_seat"))
    if s.window is not None:
        _window_answer(s, seat, a, events)
        return
    if isinstance(a, (Counter, NoCounter)):
        raise IllegalAction(say("no_counter_window"))
    if s.phase == "resolve":
        c = chooser(s)
        if seat != c:
            raise IllegalAction(say("another_choosing"))
        assert s.res is not None
        expected = Place if s.res.tasks else Order
        if not isinstance(a, expected):
            raise IllegalAction("choose one of your mobsters" if expected is Place
                                else "choose the next mobster in line")
        if a.mobster not in choices(s):
            raise IllegalAction("you cannot choose that mobster")
        (place(s, seat, a.mobster, events) if expected is Place else order(s, a.mobster, events))
        proceed(s, events)
        return
    if seat != s.turn:
        raise IllegalAction(say("not_your_turn"))
    card = getattr(a, "card", None)
    if not isinstance(a, (Void, *PLAY_ACTION.values())) or card not in s.hands[seat]:
        raise IllegalAction("play or void one card of your hand")
    if isinstance(a, Void):
        s.hands[seat].remove(card)
        s.discard.append(card)
        events.append(Event("void", {"seat": seat, "card": card_dict(card)}))
        s.phase = "resolve"
        s.res = Resolution(action(card).code, card, seat)
        proceed(s, events)
        return
    if PLAY_ACTION.get(action(card).code) is not type(a) or a not in play_options(s, seat, card):
        raise IllegalAction(why_not(card))
    _play(s, seat, a, events)


def _play(s: FBState, p: int, a: Any, events: list[Event]) -> None:  # a: one of PLAY_ACTION's
    """T3-T4: the card goes face up on the discard pile, is announced, then a counter
    window opens if somebody could answer it (D-FB-3), else it resolves."""
    c = a.card
    code = action(c).code
    s.hands[p].remove(c)
    s.discard.append(c)
    r = Resolution(code, c, p)
    r.target = getattr(a, "target", None)
    r.mobster = getattr(a, "mobster", getattr(a, "victim", None))
    r.other = getattr(a, "other", getattr(a, "revived", None))
    s.res, s.phase = r, "resolve"
    fields = {k: v for k, v in a.to_dict().items() if k not in ("type", "card")}
    events.append(Event("play", {"seat": p, "card": card_dict(c), "play": a.TYPE, **fields}))
    ok = counters_for(s, code)
    eligible = [q for q in s.players_in() if q != p]
    if ok and eligible:
        w, ev = open_window(s.next_window, "counter", eligible, ("counter",), "no_counter",
                            s.counter_timeout_ms,
                            {"attacker": p, "card": card_dict(c), "target": r.target,
                             "mobster": r.mobster, "counters": sorted(ok)})
        s.next_window += 1
        s.window = w
        events.append(ev)
        return
    resolve(s, events)


def _close(s: FBState, w: Any, reason: str, events: list[Event]) -> None:
    s.window = None
    events.append(close_event(w, reason))


def _window_answer(s: FBState, seat: int, a: Action, events: list[Event]) -> None:
    w = s.window
    assert w is not None and s.res is not None
    w.check_answer(seat, a)
    if isinstance(a, NoCounter):
        s.window = w.answered(seat)
        events.append(pass_event(w, seat))
        if s.window.done:
            _close(s, s.window, "all_answered", events)
            resolve(s, events)
        return
    c = cast(Counter, a).card  # (check_answer let only this window's claim or pass by)
    if c not in s.hands[seat]:
        raise IllegalAction("that card is not in your hand")
    code = action(c).code
    if code not in counters_for(s, s.res.code):
        raise IllegalAction(f"{action(c).name} cannot counter {action(s.res.card).name}")
    s.hands[seat].remove(c)
    s.discard.append(c)
    events.append(Event("counter", {"seat": seat, "card": card_dict(c), "success": True,
                                    "window": w.id}))
    _close(s, w, "countered", events)
    s.res.counterer = seat  # draws back to 5 once the card is resolved (§3.6)
    s.next_turn = seat  # §3.5 T6, D-FB-13
    resolve_counter(s, code, seat, events)


__all__ = ["ACTION_CARDS", "GANG_SIZE", "apply", "awaiting", "legal_actions", "new_match"]
