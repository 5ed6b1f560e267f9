"""Playing Famiglia: who is awaited, the legal actions of a seat and ``apply``. Both of
the latter ask the same per-action checks of :mod:`shared.games.famiglia.phases`, so the
list of legal actions and what ``apply`` accepts cannot drift apart."""
from __future__ import annotations

from itertools import combinations

from shared.games.famiglia.actions import (
    Accountant, Brute, Pass, Renew, Swap, TakeFree, TakePair)
from shared.games.famiglia.cards import BRUTE, DECK, MERCENARY
from shared.games.famiglia.phases import (
    _accountant_blocker, _brute_blocker, _do_accountant, _do_brute, _do_pass, _do_renew,
    _do_swap, _do_take_free, _do_take_pair, _pair_target, _renew_blocker, _swap_blocker,
    _why_not_accountant, _why_not_brute, _why_not_pair, _why_not_renew, _why_not_seat,
    _why_not_swap, _why_not_take_free, _why_not_take_pair)
from shared.games.famiglia.state import FamigliaState
from shared.rules import Action, Event, IllegalAction

#: (family, printed value) of each card id, for the pre-filters of legal_actions.
_PAIR_FV: tuple[tuple[str, int], ...] = tuple((c.family, c.value) for c in DECK)


def legal_actions(state: FamigliaState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (§1.5), in phase order: renews (phase 1, D-FAM-9),
    Accountants and swaps (phase 2, D-FAM-3, D-FAM-7), Brutes (phase 3), ``take_free``,
    ``take_pair`` (both destinations of each valid pair, D-FAM-5) and ``pass`` (phase 4).
    Empty when it is not that seat's turn or the match is over."""
    s = state
    if _why_not_seat(s, seat) is not None:
        return []
    hand = s.hands[seat]
    out: list[Action] = []
    if _renew_blocker(s) is None:
        out += [Renew(c) for c in s.street if _why_not_renew(s, seat, c) is None]
    if _accountant_blocker(s) is None:
        out += [Accountant(c) for c in hand if _why_not_accountant(s, seat, c) is None]
    if _swap_blocker(s) is None:
        out += [Swap(g, h) for g in s.gangs[seat] for h in hand
                if _why_not_swap(s, seat, g, h) is None]
    if _brute_blocker(s) is None:
        # only a Brute of value >= 1 can be played (_why_not_brute): the others are left out
        out += [Brute(b, t, n) for b in hand if _PAIR_FV[b][0] == BRUTE
                for t in s.street for n in range(1, DECK[b].value + 1)
                if _why_not_brute(s, seat, b, t, n) is None]
    for c in s.street:
        if _why_not_take_free(s, seat, c) is None:
            out.append(TakeFree(c))
            continue
        why, e = _pair_target(s, c)  # the rest of _why_not_take_pair, per pair:
        if why is None:
            target = DECK[c]
            # only a real card (the target's family, value e - 1) or a joker (a Mercenary
            # of value >= e) can be half of a pair (_pair_ok): the others are left out
            # before pairing, which keeps the candidates' order (combinations of a
            # subsequence) and spares _why_not_pair most of them
            real = (target.family, e - 1)
            cands = [h for h in hand if _PAIR_FV[h] == real
                     or (_PAIR_FV[h][0] == MERCENARY and _PAIR_FV[h][1] >= e)]
            if len(cands) < 2:
                continue
            out += [TakePair(c, g, k) for x, y in combinations(cands, 2) for g, k in ((x, y), (y, x))
                    if _why_not_pair(s, seat, target, e, g, k) is None]
    out.append(Pass())
    return out


def awaiting(state: FamigliaState) -> frozenset[int]:
    """The active seat, or nobody once the match is over."""
    return frozenset() if state.phase == "over" else frozenset({state.turn})


def apply(state: FamigliaState, seat: int | None, action: Action) -> tuple[FamigliaState, list[Event]]:
    """Check ``action`` by ``seat`` and apply it to a copy.

    Returns ``(new_state, events)``; raises :class:`IllegalAction` with a sentence for
    the player (the given state is never modified).
    """
    s = state.clone()
    events: list[Event] = []
    _dispatch(s, seat, action, events)
    return s, events


def _dispatch(s: FamigliaState, seat: int | None, action: Action, events: list[Event]) -> None:
    _check(_why_not_seat(s, seat))
    assert seat is not None
    if isinstance(action, Renew):  # phase 1
        _check(_why_not_renew(s, seat, action.card))
        _do_renew(s, seat, action, events)
    elif isinstance(action, Accountant):  # phase 2
        _check(_why_not_accountant(s, seat, action.card))
        _do_accountant(s, seat, action, events)
    elif isinstance(action, Swap):
        _check(_why_not_swap(s, seat, action.from_gang, action.from_hand))
        _do_swap(s, seat, action, events)
    elif isinstance(action, Brute):  # phase 3
        _check(_why_not_brute(s, seat, action.card, action.target, action.amount))
        _do_brute(s, seat, action, events)
    elif isinstance(action, TakeFree):  # phase 4 (a)
        _check(_why_not_take_free(s, seat, action.card))
        _do_take_free(s, seat, action, events)
    elif isinstance(action, TakePair):  # phase 4 (b)
        _check(_why_not_take_pair(s, seat, action.card, action.to_gang, action.keep))
        _do_take_pair(s, seat, action, events)
    elif isinstance(action, Pass):  # phase 4 (c): always legal, a seat is never stuck
        _do_pass(s, seat, action, events)
    else:
        raise IllegalAction("that is not a Famiglia action")


def _check(why: str | None) -> None:
    if why is not None:
        raise IllegalAction(why)
