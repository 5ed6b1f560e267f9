"""Omerta declaration, round scoring, the match and the safety cap (RULES.md §2.8-2.9)."""
from __future__ import annotations

import pytest

from shared.games import omerta as om
from shared.rules import IllegalAction
from tests.omerta_helpers import act, deal, first, pass_window, slot


def declare(hands, declarer=0, **config):
    s = deal(hands, first=declarer, **config)
    s, ev = om.apply(s, declarer, om.DeclareOmerta())
    return s, first(ev, "round_over").data


def test_successful_declaration_scores_zero_others_their_stock():
    s, r = declare([["1", "2", "3", "alibi"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]])
    assert r["stocks"] == [6, 26, 22] and r["success"] is True
    assert r["round_scores"] == [0, 26, 22] and s.totals == [0, 26, 22]


def test_tie_with_another_player_still_succeeds():
    s, r = declare([["1", "2", "3", "1"], ["1", "2", "3", "1"], ["9", "10", "2", "2"]])
    assert r["stocks"] == [7, 7, 23] and r["success"] and r["round_scores"] == [0, 7, 23]


def test_failed_declaration_above_seven():
    """Declarer gets stock + 20; the lowest other player(s) get 0 (D-OM-21)."""
    s, r = declare([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]])
    assert r["stocks"] == [10, 26, 22] and r["success"] is False
    assert r["round_scores"] == [30, 26, 0]


def test_failed_declaration_lowest_but_above_seven_and_tied_lowest_others():
    s, r = declare([["2", "2", "3", "1"], ["5", "6", "7", "8"], ["9", "10", "4", "3"], ["6", "7", "8", "5"]])
    assert r["stocks"] == [8, 26, 26, 26] and r["success"] is False
    assert r["round_scores"] == [28, 0, 0, 0]


def test_failed_declaration_not_lowest():
    s, r = declare([["1", "2", "3", "1"], ["1", "2", "alibi", "1"], ["9", "10", "4", "3"]])
    assert r["stocks"] == [7, 4, 26] and r["success"] is False
    assert r["round_scores"] == [27, 0, 26]


def test_characters_count_markers_and_safe_do_not():
    """§2.2, D-OM-20: a Mamma lying on a game is not part of its stock."""
    s = deal([["1", "2", "3", "alibi"], ["snitch", "6", "7", "8"], ["9", "10", "1", "2"]])
    s.mamma[2] = (1, 1, next(c.id for c in om.DECK if c.name == "mamma"))
    s, ev = om.apply(s, 0, om.DeclareOmerta())
    r = first(ev, "round_over").data
    assert r["stocks"] == [6, 41, 22]
    assert r["games"][1][0]["card"]["name"] == "snitch"  # every card revealed


def test_declaration_only_at_turn_start_and_without_own_patrol():
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]])
    with pytest.raises(IllegalAction, match="not your turn"):
        om.apply(s, 1, om.DeclareOmerta())
    s.patrol[slot(0, 1)] = (2, 2, 59, 0)
    with pytest.raises(IllegalAction, match="Police Patrol"):
        om.apply(s, 0, om.DeclareOmerta())


def test_match_is_n_rounds_and_next_round_starts_with_the_highest_total():
    s = deal([["1", "2", "3", "alibi"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]])
    s, ev = om.apply(s, 0, om.DeclareOmerta())
    assert s.round == 2 and s.phase == "peek" and s.first == 1  # 26 > 22
    assert first(ev, "round_started").data["first"] == 1
    assert sorted(c for g in s.games for _, c in g) != []  # redealt
    for p in range(3):
        s, _ = om.apply(s, p, om.legal_actions(s, p)[0])
    assert s.turn == 1
    for r in (2, 3):
        s, ev = om.apply(s, s.turn, om.DeclareOmerta())
        if r < 3:
            for p in range(3):
                s, _ = om.apply(s, p, om.legal_actions(s, p)[0])
    assert om.is_over(s) and s.round == 3
    result = om.scores(s)
    assert result["rounds"] == 3 and len(result["round_scores"]) == 3
    assert result["scores"] == [sum(r[p] for r in result["round_scores"]) for p in range(3)]
    low = min(result["scores"])
    assert result["winners"] == [p for p in range(3) if result["scores"][p] == low]
    with pytest.raises(IllegalAction, match="over"):
        om.apply(s, 0, om.DrawDeck())
    assert om.awaiting(s) == frozenset() and om.legal_actions(s, 0) == []


def test_tied_highest_total_starts_from_the_left_of_the_previous_first_player():
    """D-OM-4."""
    s = deal([["1", "2", "3", "alibi"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]], first=1)
    s.totals = [10, 0, 10]
    s, ev = om.apply(s, 1, om.DeclareOmerta())  # seat 1 fails with 26: totals 10+0, 46, 10+22
    assert first(ev, "round_over").data["totals"] == [10, 46, 32] and s.first == 1
    s.totals = [40, 40, 10]
    for p in range(3):
        s, _ = om.apply(s, p, om.legal_actions(s, p)[0])
    s.games = [[], [], []]
    s, ev = om.apply(s, s.turn, om.DeclareOmerta())
    assert s.first == 0  # seats 0 and 1 tied at 40: the first clockwise after seat 1 is 0


def test_tie_rotation_unit():
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]], first=2, rounds=3)
    s.totals = [50, 50, 50]
    s.last_round = None
    # force a round end with all stocks equal: zero stock everywhere
    s.games = [[], [], []]
    s, ev = om.apply(s, 2, om.DeclareOmerta())
    assert first(ev, "round_over").data["round_scores"] == [0, 0, 0]
    assert s.first == 0  # all tied at 50: the seat after the previous first (2) starts


def test_shared_victory():
    """D-OM-24: equal lowest totals share the victory."""
    s = deal([["1", "2", "3", "alibi"], ["5", "1", "1", "1"], ["9", "10", "4", "3"]], rounds=1)
    s.totals = [8, 0, 0]
    s, ev = om.apply(s, 0, om.DeclareOmerta())
    assert om.is_over(s) and s.totals == [8, 8, 26]
    assert first(ev, "match_over").data["winners"] == [0, 1] == om.scores(s)["winners"]


def test_safety_cap_ends_the_round_lowest_scores_zero():
    """D-OM-25: after cap x n turns the round ends; the lowest stock scores 0."""
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "1"]],
             pile=["5", "6", "4"], cap_turns_per_player=1, rounds=1)
    for _ in range(3):
        s, _ = act(s, s.turn, om.DrawDeck(), om.DiscardDrawn())
        s = pass_window(s)
    assert om.is_over(s)
    last = s.last_round
    assert last["capped"] and last["declarer"] is None and last["stocks"] == [10, 26, 21]
    assert last["round_scores"] == [0, 26, 21]
