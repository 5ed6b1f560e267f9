"""Character powers (RULES.md §2.6): checks, activation, the Hitwoman counter window
they open (§2.6.7) and their effects."""
from __future__ import annotations

from itertools import chain, combinations
from typing import Callable, Iterator

from shared.games.omerta.actions import (
    Driver, Henchman, Lady, Mamma, Mole, PolicePatrol, Safecracker, Snitch)
from shared.games.omerta.cards import COUNTERABLE, DECK
from shared.games.omerta.rounds import _end_turn
from shared.games.omerta.state import (
    OmertaState, _new_slot, _penalty, _remove_slot, _reveal, _set_card, _slot_of,
    _take_from_pile)
from shared.windows import open_window
from shared.rules import Action, Event, IllegalAction


def _henchman_targets(s: OmertaState, a: int, slots: tuple[int, ...],
                      owner: Callable[[int], int | None] | None = None) -> tuple[int, ...]:
    """``owner``: ``s.owner`` or a faster lookup giving the same answers."""
    if len(slots) != 2 or slots[0] == slots[1]:
        raise IllegalAction("a Henchman swaps exactly two different cards")
    owner = owner or s.owner
    owners = []
    for sid in slots:
        o = owner(sid)
        if o is None:
            raise IllegalAction("there is no such card on the table")
        if sid in s.patrol:
            raise IllegalAction("that card is under a Police Patrol")
        owners.append(o)
    if owners[0] == owners[1]:
        raise IllegalAction("a Henchman swaps cards of two different players")
    return tuple(sorted({o for o in owners if o != a}))


def _check_power(s: OmertaState, a: int, action: Action,
                 owner: Callable[[int], int | None] | None = None) -> tuple[int, ...]:
    """Validate a power action of active seat ``a``; return the targeted seats other than
    ``a`` (the counter window's candidates). ``owner``: as ``s.owner`` (a slot's seat or
    None), given by callers that check many actions on one state."""
    if isinstance(action, Henchman):
        return _henchman_targets(s, a, action.slots, owner)
    if isinstance(action, Lady):
        t = action.target
        if not 0 <= t < s.n or t == a:
            raise IllegalAction("a Lady shuffles another player's game")
        if t in s.mamma:
            raise IllegalAction("a player under the Mamma cannot be shuffled")
        if not s.games[t]:
            raise IllegalAction("that player has no cards")
        return (t,)
    if isinstance(action, Mole):
        _slot_of(s, a, action.slot)
        return ()
    if isinstance(action, Snitch):
        r = action.recipients
        if len(r) != 2:
            raise IllegalAction("a Snitch gives exactly two cards")
        for p in r:
            if not 0 <= p < s.n or p == a:
                raise IllegalAction("a Snitch gives cards to other players")
            if p in s.mamma:
                raise IllegalAction("a player under the Mamma cannot receive cards")
        return tuple(dict.fromkeys(r))  # the targets, in the order they receive cards
    if isinstance(action, Driver):
        if not 1 <= len(action.slots) <= 2 or len(set(action.slots)) != len(action.slots):
            raise IllegalAction("a Driver discards one or two different cards of yours")
        for sid in action.slots:
            _slot_of(s, a, sid)
        return ()
    if isinstance(action, Safecracker):
        return ()
    if isinstance(action, Mamma):
        t = action.target
        if not 0 <= t < s.n or t == a:
            raise IllegalAction("the Mamma targets another player")
        if t in s.mamma:
            raise IllegalAction("that player is already under the Mamma")
        return (t,)
    if isinstance(action, PolicePatrol):
        holder = (owner or s.owner)(action.slot)
        if holder is None:
            raise IllegalAction("there is no such card on the table")
        if holder == a:
            raise IllegalAction("the Police Patrol blocks another player's card")
        if action.slot in s.patrol:
            raise IllegalAction("that card already carries a marker")
        return (holder,)
    raise IllegalAction("that is not the power of the card you discarded")  # pragma: no cover


def _activate(s: OmertaState, a: int, action: Action, events: list[Event]) -> None:
    targets = _check_power(s, a, action)
    events.append(Event("power", {"seat": a, "card": s.power, "action": action.to_dict()}))
    s.power = None
    if isinstance(action, (Mamma, PolicePatrol)):
        s.attack_card = s.discard.pop()  # the character itself becomes the marker
    if action.TYPE in COUNTERABLE:
        eligible = frozenset(t for t in targets if t not in s.mamma and s.free_slots(t))
        if eligible:
            s.window, opened = open_window(
                s.next_window, "hitwoman", eligible, ("hitwoman",), "hitwoman_pass",
                s.counter_timeout_ms,
                {"attack": action.to_dict(), "attacker": a, "targets": list(targets)})
            s.attack, s.attacker = action, a
            s.next_window += 1
            s.step = "window"
            events.append(opened)
            return
        _resolve_attack(s, a, action, events)
        return
    _resolve_own_power(s, a, action, events)


def _resolve_own_power(s: OmertaState, a: int, action: Action, events: list[Event]) -> None:
    if isinstance(action, Mole):
        events.append(Event("look", {"seat": a, "reason": "mole", "slots": [action.slot]},
                            secret={"cards": [_reveal(s, a, action.slot)]}, secret_to=a))
        _end_turn(s, events)
    elif isinstance(action, Driver):
        revealed = [DECK[s.card_in(sid)] for sid in action.slots]
        ok = all(c.is_bottle for c in revealed)
        events.append(Event("driver", {
            "seat": a, "slots": list(action.slots), "cards": [c.to_dict() for c in revealed],
            "success": ok}))
        if ok:
            for sid in action.slots:
                s.discard.append(_remove_slot(s, sid))  # no snap window (D-OM-14)
        else:
            _penalty(s, a, events, "driver")
        _end_turn(s, events)
    elif isinstance(action, Safecracker):
        s.step = "safe"
        events.append(Event("look", {"seat": a, "reason": "safe", "slots": []},
                            secret={"cards": [DECK[c].to_dict() for c in s.safe]}, secret_to=a))


def _resolve_attack(s: OmertaState, a: int, action: Action, events: list[Event]) -> None:
    """Apply a counterable power whose counter window closed without a Hitwoman."""
    if isinstance(action, Henchman):
        x, y = action.slots
        cx, cy = s.card_in(x), s.card_in(y)
        _set_card(s, x, cy)
        _set_card(s, y, cx)
        events.append(Event("swap", {"seat": a, "slots": [x, y]}))
    elif isinstance(action, Lady):
        free = s.free_slots(action.target)
        cards = [s.card_in(sid) for sid in free]
        s.rng.shuffle(cards)
        for sid, cid in zip(free, cards):
            _set_card(s, sid, cid)
        events.append(Event("shuffle", {"seat": action.target, "slots": free}))
    elif isinstance(action, Snitch):
        for p in action.recipients:  # in the order named (§2.6.4, D-OM-8)
            given = _take_from_pile(s, events)
            if given is None:
                events.append(Event("give", {"seat": p, "slot": None}))
                continue
            events.append(Event("give", {"seat": p, "slot": _new_slot(s, p, given)}))
    elif isinstance(action, Mamma):
        assert s.attack_card is not None
        s.mamma[action.target] = (a, 1, s.attack_card)
        s.attack_card = None
        events.append(Event("marker_placed", {"kind": "mamma", "seat": action.target,
                                              "slot": None, "placer": a}))
    elif isinstance(action, PolicePatrol):
        assert s.attack_card is not None
        target = s.owner(action.slot)
        assert target is not None
        s.patrol[action.slot] = (a, 2, s.attack_card, target)
        s.attack_card = None
        events.append(Event("marker_placed", {"kind": "police_patrol", "seat": target,
                                              "slot": action.slot, "placer": a}))
    _end_turn(s, events)


def _power_actions(s: OmertaState, name: str) -> list[Action]:
    """Every legal activation of character ``name`` by the active seat (§2.6): the
    candidates that :func:`_check_power` (the one statement of each power's
    preconditions, also used by ``apply``) accepts.

    The Henchman's candidates (two slots without a patrol marker of two different
    players) are exactly the swaps :func:`_henchman_targets` accepts, so they are not
    checked one by one (up to ~150 of them; ``tests/test_engine_fingerprints.py``
    checks that they would all pass)."""
    if name == "henchman":
        return list(_power_candidates(s, name))
    out: list[Action] = []
    owner = _owner_lookup(s)
    for action in _power_candidates(s, name):
        try:
            _check_power(s, s.turn, action, owner)
        except IllegalAction:
            continue
        out.append(action)
    return out


def _owner_lookup(s: OmertaState) -> Callable[[int], int | None]:
    """``s.owner`` as one dict lookup, for a state that does not change meanwhile."""
    return {sid: p for p, g in enumerate(s.games) for sid, _ in g}.get


def _power_candidates(s: OmertaState, name: str) -> Iterator[Action]:
    """Activations of ``name`` worth checking, lazily: the right shape and seats,
    preconditions left to :func:`_check_power`."""
    a = s.turn
    others = [p for p in range(s.n) if p != a]
    if name == "henchman":
        pool = [(p, sid) for p in range(s.n) for sid in s.free_slots(p)]
        # two slots of two different players: A and another, or two others (§2.6.1)
        return (_henchman((x, y)) for (p, x), (q, y) in combinations(pool, 2) if p != q)
    if name == "lady":
        return (Lady(t) for t in others if t not in s.mamma and s.games[t])
    if name == "mole":
        return (Mole(sid) for sid in s.free_slots(a))
    if name == "snitch":
        ok = [p for p in others if p not in s.mamma]
        return (Snitch((p, q)) for p in ok for q in ok)
    if name == "driver":
        free = s.free_slots(a)
        return chain((Driver((x,)) for x in free), (Driver(pair) for pair in combinations(free, 2)))
    if name == "safecracker":
        return iter((Safecracker(),))
    if name == "mamma":
        return (Mamma(t) for t in others if t not in s.mamma)
    if name == "police_patrol":
        return (PolicePatrol(sid) for t in others for sid, _ in s.games[t] if sid not in s.patrol)
    return iter(())


def _henchman(slots: tuple[int, int]) -> Henchman:
    """``Henchman(slots)``, made without the frozen dataclass's ``__init__`` (its
    ``object.__setattr__``): the same object, several times faster to list (up to ~150
    candidates per Henchman)."""
    a = object.__new__(Henchman)
    a.__dict__["slots"] = slots
    return a


def _has_power_action(s: OmertaState, name: str) -> bool:
    """True when character ``name`` has at least one legal activation (D-OM-5): the same
    rule as :func:`_power_actions`, stopping at the first."""
    if name == "henchman":  # every candidate is legal (see _power_actions)
        return next(_power_candidates(s, name), None) is not None
    for action in _power_candidates(s, name):
        try:
            _check_power(s, s.turn, action)
        except IllegalAction:
            continue
        return True
    return False
