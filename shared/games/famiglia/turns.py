"""The flow of a Famiglia turn around the players' actions: drawing into the street and
the deck's exhaustions (§1.4, D-FAM-8), the end timing (§1.6, D-FAM-11), the start of a
turn and the end-of-turn step (§1.5: refill D-FAM-10, pass count D-FAM-13, next player)."""
from __future__ import annotations

from shared.games.famiglia.cards import DECK, STREET_SIZE
from shared.games.famiglia.scoring import _game_over
from shared.games.famiglia.state import FamigliaState
from shared.rules import Event


def _draw_to_street(s: FamigliaState, k: int, reason: str, events: list[Event]) -> None:
    """§1.4 ``draw_to_street(k)``: up to k cards from the top of the deck, face up."""
    for _ in range(k):
        if not s.deck:
            return
        cid = s.deck.pop()
        s.street.append(cid)
        events.append(Event("street_draw", {"card": DECK[cid].to_dict(), "reason": reason,
                                            "deck": len(s.deck)}))
        _on_deck_maybe_empty(s, reason, events)


def _on_deck_maybe_empty(s: FamigliaState, reason: str, events: list[Event]) -> None:
    """§1.4: first exhaustion = reshuffle the discard pile into a new deck; second (or a
    first one with an empty discard pile, D-FAM-8) = the end is triggered (§1.6)."""
    if s.deck or s.exhaustion >= 2:
        return
    if s.exhaustion == 0 and s.discard:
        s.deck, s.discard = s.discard, []
        s.rng.shuffle(s.deck)
        s.exhaustion = 1
        events.append(Event("reshuffle", {"deck": len(s.deck), "exhaustion": 1}))
        return
    s.exhaustion = 2
    s.end_during = reason
    s.end_turn_no = s.turn_no
    s.last_turn = _last_turn(s, reason)
    events.append(Event("end_triggered", {"seat": s.turn, "during": reason, "turn_no": s.turn_no,
                                          "last_turn": s.last_turn}))


def _last_turn(s: FamigliaState, during: str) -> int:
    """The timing table of §1.6 (D-FAM-11): the turn number after which the match ends.
    Turn numbers are odd for the starting player, even for the second player."""
    starting = s.turn == s.first
    if during == "renew":
        return s.turn_no + 1 if starting else s.turn_no
    return s.turn_no + 1 if starting else s.turn_no + 2  # "refill" (or "setup", unreachable)


def _begin_turn(s: FamigliaState, seat: int, events: list[Event]) -> None:
    s.turn = seat
    s.turn_no += 1
    s.step = 0
    s.renews = 0
    s.renewed_after_exhaustion = False
    s.accountant = None
    s.swaps = []
    s.brute = None  # D-FAM-4: the reduction lasts for one turn only
    events.append(Event("turn", {"seat": seat, "turn_no": s.turn_no}))


def _end_turn(s: FamigliaState, took: bool, events: list[Event]) -> None:
    """The end-of-turn step of §1.5: refill, pass count, end timing, next player."""
    s.brute = None
    if not s.street and s.deck:  # D-FAM-10
        at = len(events)
        _draw_to_street(s, STREET_SIZE, "refill", events)
        events.insert(at, Event("refill", {"seat": s.turn, "count": len(s.street)}))
    s.passes = 0 if took else s.passes + 1
    if s.passes >= 2:  # D-FAM-13
        _game_over(s, "passes", events)
        return
    if s.last_turn is not None and s.turn_no >= s.last_turn:
        _game_over(s, "deck", events)
        return
    _begin_turn(s, 1 - s.turn, events)
