"""The snap window: right, wrong and too slow (RULES.md §2.5, D-OM-6, D-OM-27, D-OM-28)."""
from __future__ import annotations

import pytest

from shared.games import omerta as om
from shared.rules import IllegalAction, events_for
from tests.omerta_helpers import act, codes, deal, first, slot, types

HANDS = [["7", "2", "3", "4"], ["5", "7", "6", "8"], ["9", "10", "1", "7"]]


def discard_seven():
    """Seat 0 draws a 7 and discards it: a snap window for 7 is open."""
    s = deal(HANDS, pile=["7", "5", "6"])
    s, _ = act(s, 0, om.DrawDeck(), om.DiscardDrawn())
    assert om.reaction_window(s).data["value"] == 7
    return s


def test_right_snap_removes_the_card_and_closes_the_window():
    s = discard_seven()
    s, ev = om.apply(s, 1, om.Snap(slot(1, 1)))
    snap = first(ev, "snap").data
    assert snap["success"] and snap["card"]["value"] == 7
    assert codes(s, 1) == ["5", "6", "8"] and om.DECK[s.discard[-1]].value == 7
    assert om.reaction_window(s) is None and s.turn == 1
    assert first(ev, "window_closed").data["reason"] == "snapped"
    assert "window_opened" not in types(ev)  # no chain (D-OM-6)


def test_too_slow_claim_is_refused_without_reveal_or_penalty():
    s = discard_seven()
    s, _ = om.apply(s, 2, om.Snap(slot(2, 3)))
    with pytest.raises(IllegalAction, match="too late"):
        om.apply(s, 0, om.Snap(slot(0, 0)))
    assert codes(s, 0) == ["7", "2", "3", "4"]


def test_wrong_snap_reveals_returns_the_card_and_costs_a_penalty():
    s = discard_seven()
    pile_top = s.draw_pile[-1]
    s, ev = om.apply(s, 1, om.Snap(slot(1, 0)))
    snap = first(ev, "snap")
    assert not snap.data["success"] and snap.data["card"]["value"] == 5 and snap.to is None
    assert codes(s, 1) == ["5", "7", "6", "8", "5"]  # same place, plus the penalty card
    penalty = first(ev, "penalty")
    assert penalty.data == {"seat": 1, "slot": s.games[1][-1][0], "reason": "snap"}
    assert s.games[1][-1][1] == pile_top and penalty.secret is None  # unseen by him
    w = om.reaction_window(s)
    assert w is not None and w.pending == {0, 2}  # stays open for the others
    with pytest.raises(IllegalAction, match="already answered"):
        om.apply(s, 1, om.Snap(slot(1, 1)))
    s, ev = om.apply(s, 2, om.Snap(slot(2, 3)))
    assert first(ev, "snap").data["success"]


def test_active_player_may_snap_the_card_he_just_placed():
    """D-OM-27 and 'lui y compris' of the seed: the drawn 3 replaces a 3, which is
    discarded; the player snaps the new 3 at once."""
    s = deal(HANDS, pile=["3"])
    s, _ = act(s, 0, om.DrawDeck(), om.Replace(slot(0, 2)))
    assert om.reaction_window(s).data["value"] == 3
    s, ev = om.apply(s, 0, om.Snap(slot(0, 2)))
    assert first(ev, "snap").data["success"] and codes(s, 0) == ["7", "2", "4"]


def test_snap_on_a_patrolled_slot_is_refused_without_penalty():
    s = discard_seven()
    s.patrol[slot(1, 1)] = (2, 2, 59, 1)
    with pytest.raises(IllegalAction, match="Police Patrol"):
        om.apply(s, 1, om.Snap(slot(1, 1)))
    assert len(s.games[1]) == 4


def test_player_under_mamma_or_fully_patrolled_is_not_eligible():
    s = deal(HANDS, pile=["7"])
    s.mamma[1] = (2, 1, 58)
    for sid, _ in s.games[2]:
        s.patrol[sid] = (1, 2, 57, 2)
    s, _ = act(s, 0, om.DrawDeck(), om.DiscardDrawn())
    w = om.reaction_window(s)
    assert w.eligible == {0}
    with pytest.raises(IllegalAction, match="may not claim"):
        om.apply(s, 1, om.Snap(slot(1, 1)))
    assert om.legal_actions(s, 1) == [] and om.legal_actions(s, 2) == []


def test_window_closes_when_everybody_passed_or_on_timeout():
    s = discard_seven()
    s1, _ = act(s, 0, om.SnapPass())
    s1, _ = act(s1, 1, om.SnapPass())
    s1, ev = act(s1, 2, om.SnapPass())
    assert first(ev, "window_closed").data["reason"] == "all_answered" and s1.turn == 1
    w = om.reaction_window(s)
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.timeout_action(w))  # only the table may close it
    s2, ev = om.apply(s, None, om.timeout_action(w))
    assert first(ev, "window_closed").data["reason"] == "timeout" and s2.turn == 1
    with pytest.raises(IllegalAction, match="already closed"):
        om.apply(s2, None, om.timeout_action(w))


def test_no_turn_action_while_a_window_is_open():
    s = discard_seven()
    with pytest.raises(IllegalAction, match="snap window"):
        om.apply(s, 0, om.DrawDeck())
    assert om.awaiting(s) == {0, 1, 2}


def test_snap_timeout_comes_from_the_config():
    s = deal(HANDS, pile=["7"], snap_timeout_ms=1500)
    s, _ = act(s, 0, om.DrawDeck(), om.DiscardDrawn())
    assert om.reaction_window(s).timeout_ms == 1500


def test_penalty_when_both_piles_are_empty_is_skipped():
    """D-OM-8."""
    s = discard_seven()
    s.draw_pile, s.discard = [], []
    s, ev = om.apply(s, 1, om.Snap(slot(1, 0)))
    assert first(ev, "penalty").data["slot"] is None and len(s.games[1]) == 4


def test_claim_events_are_public():
    s = discard_seven()
    _, ev = om.apply(s, 1, om.Snap(slot(1, 0)))
    assert events_for(ev, None) == events_for(ev, 2)
