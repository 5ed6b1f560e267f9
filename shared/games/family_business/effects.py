"""The action cards (RULES.md §3.7): their preconditions as the list of legal plays,
their effects, the counters' effects (§3.6) and the owners' / player's follow-up
choices (``place``, ``order``; D-FB-14)."""
from __future__ import annotations

from shared.games.family_business.actions import (
    Ambush, Contract, DoubleCross, FederalCrackdown, Hit, Intrigue, Massacre, MobWar, PayOff,
    Rescue, Substitution, Truce, Turncoat, Vendetta, Void)
from shared.games.family_business.cards import action, card_dict
from shared.games.family_business.state import FBState
from shared.games.family_business.war import (
    bury, check_war_end, draw, end_turn, kill, start_war, stop_war)
from shared.rules import Action, Event

#: Why a card cannot be played now (its §3.7 precondition), for IllegalAction.
NEEDS = {
    "contract": "a contract needs another player in game with a mobster in front of him",
    "hit": "a Hit needs one of your mobsters in front of you and another mobster in play",
    "massacre": "the hit list is empty",
    "double_cross": "no opponent has a mobster in front of him",
    "vendetta": "no opponent has a mobster in front of him",
    "lam": "choose a mobster on the hit list",
    "police_protection": "choose a mobster on the hit list",
    "substitution": "choose a mobster on the hit list and another mobster in play",
    "intrigue": "Intrigue needs two mobsters on the hit list",
    "truce": "there is no war that a Truce can stop",
    "pay_off": "choose a player with a mobster on the hit list",
    "federal_crackdown": "the hit list is empty",
    "turncoat": "Turncoat needs a most-alive player and a different least-alive player "
                "with a dead mobster",
    "counter": "a counter card can only be voided on your own turn (D-FB-4)",
}


def _opponents(s: FBState, p: int) -> list[int]:
    """Players in game other than ``p``, clockwise from ``p``."""
    return [(p + k) % s.n for k in range(1, s.n) if s.in_game[(p + k) % s.n]]


def play_options(s: FBState, p: int, c: int) -> list[Action]:
    """Every legal way for ``p`` to use card ``c`` of his hand (void included)."""
    code = action(c).code
    out: list[Action] = [Void(c)]
    hit = s.hit_list
    if action(c).category == "contract":
        out += [Contract(c, t) for t in _opponents(s, p) if s.fronts[t]]
    elif code == "hit":
        mine = s.fronts[p]
        if mine:
            out += [Hit(c, v) for v in s.in_play() if not (len(mine) == 1 and v == mine[0])]
    elif code == "massacre":
        if hit:
            out.append(Massacre(c))
    elif code in ("double_cross", "vendetta"):
        if any(s.fronts[t] for t in _opponents(s, p)):
            out.append(DoubleCross(c) if code == "double_cross" else Vendetta(c))
    elif code == "mob_war":
        out.append(MobWar(c))
    elif code == "ambush":
        out.append(Ambush(c))
    elif code in ("lam", "police_protection"):
        out += [Rescue(c, m) for m in hit]
    elif code == "substitution":
        out += [Substitution(c, x, y) for x in hit for y in s.in_play() if y != x]
    elif code == "intrigue":
        if len(hit) >= 2:
            out.append(Intrigue(c))
    elif code == "truce":
        if s.war and not s.permanent_war():
            out.append(Truce(c))
    elif code == "pay_off":
        out += [PayOff(c, q) for q in range(s.n) if any(s.owner(m) == q for m in hit)]
    elif code == "federal_crackdown":
        if hit:
            out.append(FederalCrackdown(c))
    elif code == "turncoat":
        out += _turncoat_options(s, c)
    return out


def _turncoat_options(s: FBState, c: int) -> list[Action]:
    players = s.players_in()
    alive = {p: s.alive(p) for p in players}
    hi, lo = max(alive.values()), min(alive.values())
    most = [p for p in players if alive[p] == hi]
    least = [p for p in players if alive[p] == lo and any(s.owner(m) == p for m in s.cemetery)]
    out: list[Action] = []
    for v in s.in_play():
        m = s.owner(v)
        if m not in most:
            continue
        out += [Turncoat(c, v, r) for r in s.cemetery if s.owner(r) in least and s.owner(r) != m]
    return out


def why_not(c: int) -> str:
    code = action(c).code
    if action(c).category in ("contract", "counter"):
        return NEEDS[action(c).category]
    return NEEDS.get(code, "that card cannot be played that way now")


# -- effects -----------------------------------------------------------------------------
def resolve(s: FBState, events: list[Event]) -> None:
    """Apply the uncountered effect of the card in ``s.res`` (§3.7), then proceed."""
    r = s.res
    assert r is not None
    p, code = r.player, r.code
    if action(r.card).category == "contract":
        if code == "priority_contract":
            r.tasks = [[r.target, 1, "first"]]
        else:
            r.tasks = [[r.target, 2 if code == "double_contract" else 1, "append"]]
    elif code == "hit":
        assert r.mobster is not None  # (set when the card was played)
        kill(s, r.mobster, "hit", events)
        r.tasks = [[p, 1, "append"]]
    elif code == "massacre":
        while s.hit_list and s.phase != "over":
            kill(s, s.hit_list[0], "massacre", events)
    elif code in ("double_cross", "vendetta"):
        count = 1 if code == "double_cross" else 2
        r.tasks = [[o, count, "collect"] for o in _opponents(s, p) if o != r.exempt]
        r.ordering = "collect"
        if code == "vendetta":
            r.after = "vendetta_war"
    elif code == "mob_war":
        start_war(s, 1, "mob_war", events)
    elif code == "ambush":
        start_war(s, 2, "ambush", events)
    elif code in ("lam", "police_protection"):
        assert r.mobster is not None
        _return(s, r.mobster, events)
    elif code == "substitution":
        assert r.mobster is not None and r.other is not None
        _substitute(s, r.mobster, r.other, events)
    elif code == "intrigue":
        r.ordering, r.arranged = "intrigue", 0
    elif code == "truce":
        stop_war(s, "truce", events)
    elif code == "pay_off":
        for m in [m for m in s.hit_list if s.owner(m) == r.target]:
            _return(s, m, events)
    elif code == "federal_crackdown":
        for m in list(s.hit_list):
            _return(s, m, events)
    elif code == "turncoat":
        assert r.mobster is not None and r.other is not None
        _turncoat(s, r.mobster, r.other, events)
    proceed(s, events)


def resolve_counter(s: FBState, counter: str, seat: int, events: list[Event]) -> None:
    """The effect of a valid counter (§3.6 table), then proceed."""
    r = s.res
    assert r is not None
    r.countered = counter
    p, t, code = r.player, r.target, r.code
    if counter == "family_influence":
        if code == "double_contract":
            r.tasks = [[t, 1, "append"]]  # saves only the first mobster
    elif counter == "mob_power":
        where = "first" if code == "priority_contract" else "append"
        r.tasks = [[p, 1, where]]
        if code == "double_contract":
            r.tasks.append([t, 1, "append"])
    elif counter == "safe_house":
        r.exempt = seat
        resolve(s, events)
        return
    # finger: the Take It On the Lam is cancelled
    proceed(s, events)


def _return(s: FBState, m: int, events: list[Event]) -> None:
    i = s.hit_list.index(m)
    s.hit_list.remove(m)
    s.fronts[s.owner(m)].append(m)
    events.append(Event("returned", {"seat": s.owner(m), "mobster": card_dict(m), "index": i}))


def _substitute(s: FBState, x: int, y: int, events: list[Event]) -> None:
    i = s.hit_list.index(x)
    if y in s.hit_list:
        j = s.hit_list.index(y)
        s.hit_list[i], s.hit_list[j] = y, x
        events.append(Event("swapped", {"mobster": card_dict(x), "other": card_dict(y),
                                        "index": j, "other_index": i}))
        return
    s.fronts[s.owner(y)].remove(y)
    s.hit_list[i] = y
    s.fronts[s.owner(x)].append(x)
    events.append(Event("substituted", {"mobster": card_dict(x), "other": card_dict(y), "index": i}))


def _turncoat(s: FBState, victim: int, revived: int, events: list[Event]) -> None:
    """D-FB-10: ``revived`` takes ``victim``'s exact place; ``victim`` dies."""
    s.cemetery.remove(revived)
    if victim in s.hit_list:
        i = s.hit_list.index(victim)
        s.hit_list[i] = revived
        where = i
    else:
        s.fronts[s.owner(victim)].remove(victim)
        s.fronts[s.owner(revived)].append(revived)
        where = None
    events.append(Event("revived", {"seat": s.owner(revived), "mobster": card_dict(revived),
                                    "index": where}))
    bury(s, victim, "turncoat", events)


# -- follow-up choices ------------------------------------------------------------------
def place(s: FBState, owner: int, m: int, events: list[Event]) -> None:
    """Move front mobster ``m`` as the head task says (append, first, collect)."""
    r = s.res
    assert r is not None and r.tasks
    mode = r.tasks[0][2]
    s.fronts[owner].remove(m)
    if mode == "collect":
        r.collected.append(m)
        events.append(Event("collected", {"seat": owner, "mobster": card_dict(m)}))
    else:
        if mode == "first":
            s.hit_list.insert(0, m)
        else:
            s.hit_list.append(m)
        events.append(Event("placed", {"seat": owner, "mobster": card_dict(m),
                                       "index": s.hit_list.index(m)}))
    r.tasks[0][1] -= 1
    if r.tasks[0][1] <= 0:
        r.tasks.pop(0)


def order(s: FBState, m: int, events: list[Event]) -> None:
    """The player's next pick: a collected mobster to the end of the list, or (Intrigue)
    the next place of the new order."""
    r = s.res
    assert r is not None
    if r.ordering == "collect":
        r.collected.remove(m)
        s.hit_list.append(m)
        events.append(Event("placed", {"seat": s.owner(m), "mobster": card_dict(m),
                                       "index": len(s.hit_list) - 1}))
    else:
        s.hit_list.remove(m)
        s.hit_list.insert(r.arranged, m)
        events.append(Event("moved", {"mobster": card_dict(m), "index": r.arranged}))
        r.arranged += 1


def chooser(s: FBState) -> int | None:
    """Seat whose ``place``/``order`` choice the resolution waits for."""
    r = s.res
    if r is None or s.window is not None or s.phase != "resolve":
        return None
    if r.tasks:
        return r.tasks[0][0]
    if r.ordering:
        return r.player
    return None


def choices(s: FBState) -> list[int]:
    """The mobsters the awaited ``place``/``order`` choice may name."""
    r = s.res
    assert r is not None
    if r.tasks:
        return list(s.fronts[r.tasks[0][0]])
    if r.ordering == "collect":
        return list(r.collected)
    return s.hit_list[r.arranged:]


def proceed(s: FBState, events: list[Event]) -> None:
    """Run every step that needs nobody's choice; end the turn when the card is done."""
    r = s.res
    assert r is not None
    while s.phase != "over" and s.window is None:
        if r.tasks:
            owner, count, _ = r.tasks[0]
            front = s.fronts[owner]
            if not s.in_game[owner] or not front:
                r.tasks.pop(0)
                continue
            if len(front) > count:
                events.append(Event("choice", {"seat": owner, "count": count,
                                               "mode": r.tasks[0][2], "card": r.code}))
                return  # the owner chooses (D-FB-14)
            for m in list(front):
                place(s, owner, m, events)
            continue
        if r.ordering == "collect":
            if len(r.collected) > 1:
                events.append(Event("choice", {"seat": r.player, "count": len(r.collected),
                                               "mode": "order", "card": r.code}))
                return
            if r.collected:
                order(s, r.collected[0], events)
            r.ordering = None
            continue
        if r.ordering == "intrigue":
            if r.arranged < len(s.hit_list) - 1:
                if r.arranged == 0:
                    events.append(Event("choice", {"seat": r.player, "count": len(s.hit_list),
                                                   "mode": "intrigue", "card": r.code}))
                return
            r.ordering = None
            events.append(Event("reordered", {"hit_list": [card_dict(m) for m in s.hit_list]}))
            continue
        if r.after == "vendetta_war":
            r.after = None
            start_war(s, 2, "vendetta", events)
            continue
        if r.counterer is not None:  # §3.6: after resolving, the counterer draws
            if s.in_game[r.counterer]:
                draw(s, r.counterer, "counter", events)
            r.counterer = None
        check_war_end(s, events)  # check point after a card's resolution (§3.8)
        if s.phase != "over":
            end_turn(s, events)
        return
