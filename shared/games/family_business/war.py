"""Deaths, elimination and victory (§3.9), the Mob War (§3.8), drawing (§3.5 T2) and
the turn flow (§3.5 T1, T5, T6; D-FB-13)."""
from __future__ import annotations

from shared.games.family_business.cards import card_dict
from shared.games.family_business.state import FBState
from shared.rules import Event


# -- deaths and elimination ---------------------------------------------------------------
def bury(s: FBState, m: int, cause: str, events: list[Event]) -> None:
    """``m`` (already taken out of its zone) goes to the cemetery; then the elimination
    and victory checks of §3.9, one mobster at a time (D-FB-9)."""
    s.cemetery.append(m)
    owner = s.owner(m)
    events.append(Event("killed", {"seat": owner, "mobster": card_dict(m), "cause": cause}))
    if s.in_game[owner] and s.alive(owner) == 0:
        s.in_game[owner] = False
        dropped = s.hands[owner]
        s.hands[owner] = []
        s.discard.extend(dropped)
        events.append(Event("eliminated", {"seat": owner,
                                           "discarded": [card_dict(c) for c in dropped]}))
        left = s.players_in()
        if len(left) <= 1:
            finish(s, left, "last_gang", events)


def kill(s: FBState, m: int, cause: str, events: list[Event]) -> None:
    """Take mobster ``m`` out of the front or hit list it is in and bury it."""
    if m in s.hit_list:
        s.hit_list.remove(m)
    else:
        s.fronts[s.owner(m)].remove(m)
    bury(s, m, cause, events)


def finish(s: FBState, winners: list[int], reason: str, events: list[Event]) -> None:
    """End the match: ``winners`` (the last gang standing, §3.9)."""
    s.phase = "over"
    s.winners = sorted(winners)
    s.end_reason = reason
    s.window = None
    events.append(Event("match_over", {"winners": list(s.winners), "reason": reason,
                                       "alive": [s.alive(p) for p in range(s.n)]}))


# -- war (§3.8) ---------------------------------------------------------------------------
def start_war(s: FBState, rate: int, cause: str, events: list[Event]) -> None:
    """Start the war at ``rate``, or set the rate of the running war (D-FB-8)."""
    if not s.war:
        s.war, s.rate = True, rate
        events.append(Event("war_started", {"rate": rate, "cause": cause}))
    elif s.rate != rate:
        s.rate = rate
        events.append(Event("war_rate", {"rate": rate, "cause": cause}))


def stop_war(s: FBState, cause: str, events: list[Event]) -> None:
    s.war = False
    events.append(Event("war_ended", {"cause": cause}))


def check_war_end(s: FBState, events: list[Event]) -> None:
    """A check point: the war ends with an empty hit list, unless it is permanent."""
    if s.war and not s.hit_list and not s.permanent_war():
        stop_war(s, "empty_list", events)


def check_war_start(s: FBState, events: list[Event]) -> None:
    """§3.5 T5 (1): six or more on the list, or six or fewer alive (D-FB-12): rate 1."""
    if not s.war and (len(s.hit_list) >= 6 or s.permanent_war()):
        start_war(s, 1, "automatic", events)


# -- cards --------------------------------------------------------------------------------
def draw(s: FBState, p: int, reason: str, events: list[Event]) -> None:
    """``p`` draws one card, reshuffling the discard pile first if the draw pile is
    empty; skipped when both are empty (D-FB-11)."""
    if not s.draw_pile:
        if not s.discard:
            events.append(Event("no_draw", {"seat": p}))
            return
        s.draw_pile, s.discard = s.discard, []
        s.rng.shuffle(s.draw_pile)
        events.append(Event("reshuffle", {"draw_pile": len(s.draw_pile)}))
    c = s.draw_pile.pop()
    s.hands[p].append(c)
    events.append(Event("draw", {"seat": p, "reason": reason, "draw_pile": len(s.draw_pile)},
                        secret={"card": card_dict(c)}, secret_to=p))


# -- turns (§3.5) -------------------------------------------------------------------------
def begin_turn(s: FBState, seat: int, events: list[Event]) -> None:
    """T1 executions (skipping eliminated players' void turns), then T2 draw."""
    while s.phase != "over":
        s.turn = seat
        s.turn_no += 1
        s.res = None
        events.append(Event("turn", {"seat": seat, "turn_no": s.turn_no}))
        if s.cap_turns and s.turn_no > s.cap_turns:
            most = max(s.alive(p) for p in s.players_in())
            finish(s, [p for p in s.players_in() if s.alive(p) == most], "turn_cap", events)
            return
        if s.war:
            for _ in range(s.rate):
                if s.hit_list:
                    kill(s, s.hit_list[0], "war", events)
                    if s.phase == "over":
                        return
            check_war_end(s, events)
        if not s.in_game[seat]:
            events.append(Event("turn_void", {"seat": seat}))
            seat = s.next_in_game(seat)
            continue
        draw(s, seat, "turn", events)
        s.phase = "play"
        return


def end_turn(s: FBState, events: list[Event]) -> None:
    """T5 checks, then T6: the counterer's turn (D-FB-13) or the next seat clockwise."""
    check_war_start(s, events)
    check_war_end(s, events)
    if s.phase == "over":
        return
    nxt = s.next_turn
    s.next_turn = None
    if nxt is None or not s.in_game[nxt]:
        nxt = s.next_in_game(s.turn)
    begin_turn(s, nxt, events)
