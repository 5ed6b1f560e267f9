"""Mafiosi round scoring, elimination, round winners, point cards, shrinking deck and
the final reveal (RULES.md §4.5, §4.6, D-MAF-9..14)."""
from __future__ import annotations

import pytest

from shared.games import mafiosi as maf
from shared.games.mafiosi import rounds, scoring
from shared.rules import IllegalAction, events_for
from tests.mafiosi_helpers import first, ids, play, staged, types

C = maf.card_id


@pytest.mark.parametrize("code,pile,clan,points", [
    ("5H", [], "hearts", 2),            # muscle of own clan
    ("AH", [], "hearts", 2),            # the ace is a muscle (D-MAF-2)
    ("5S", [], "hearts", 0),            # muscle of another clan
    ("JK1", [], "hearts", -5),          # Joker
    ("QH", [], "hearts", -1),           # Queen, own suit
    ("QS", [], "hearts", -1),           # Queen, other suit
    ("JH", [], "hearts", 0),            # Jack (D-MAF-9)
    ("KH", ["JH"], "hearts", 0),        # King with his Jack escapes
    ("KS", ["JS"], "hearts", 0),
    ("KH", [], "hearts", 5),            # own godfather without his Jack
    ("KH", ["JS"], "hearts", 5),        # another suit's Jack does not help him
    ("KS", [], "hearts", 3),            # another King without his Jack
])
def test_each_line_of_the_scoring_table(code, pile, clan, points):
    w = ids([code] + pile)
    assert scoring.card_points(C(code), w, clan) == points


def test_round_score_counts_the_bouncer_and_may_be_negative():
    s = staged(["2H", "3S", "4C"], [["JK1"], ["5S"], ["6C"]],
               won=[["QD", "QS", "JK2"], ["KS", "9S"], ["KH", "5H", "JH"]], leader=0)
    s, ev = play(s, (0, "JK1"), (1, "5S"), (2, "6C"))
    # trick: JK1 (never wins), 5S trump for spades, 6C trump for clubs: 6C wins
    assert first(ev, "trick_won").data["seat"] == 2
    r = first(ev, "round_scored").data
    # seat 0: bouncer 2H +2, QD QS -2, JK2 -5 = -5
    # seat 1: bouncer 3S +2, KS +5, 9S +2 = 9
    # seat 2: bouncer 4C +2, KH with JH 0, 5H 0, JH 0, trick JK1 -5, 5S 0, 6C +2 = -1
    assert r["scores"] == [-5, 9, -1]
    assert r["faces"] == [2, 1, 2]
    # KH and JH lie together in seat 2's pile: seat 0 (hearts) is eliminated by a pile
    # that is not his own; seat 2 (clubs) is not
    assert r["eliminated"] == [True, False, False]
    assert r["winners"] == [1] and r["clans"] == ["hearts", "spades", "clubs"]
    assert s.phase == "point" and maf.awaiting(s) == frozenset({1})
    assert maf.turn_id(s) == ("point", 1, (1,))
    assert ev[-1].type == "round_scored" and ev[-1].to is None


def test_eliminated_player_cannot_win_with_the_best_score():
    s = staged(["2H", "3S", "4C"], [["5D"], ["6D"], ["7D"]],
               won=[["KH", "JH", "10H", "9H"], ["8S"], []], leader=0)
    s, ev = play(s, (0, "5D"), (1, "6D"), (2, "7D"))
    r = first(ev, "round_scored").data
    assert r["scores"][0] > max(r["scores"][1:]) and r["eliminated"][0]
    assert r["winners"] == [1]


def test_own_pile_also_eliminates():
    assert scoring.is_eliminated("hearts", [ids(["KH", "JH"]), []])
    assert scoring.is_eliminated("hearts", [[], ids(["KH", "2S", "JH"])])
    assert not scoring.is_eliminated("hearts", [ids(["KH"]), ids(["JH"])])
    assert not scoring.is_eliminated(None, [ids(["KH", "JH"])])


def test_tie_on_score_goes_to_most_face_cards():
    assert scoring.round_winners([4, 4, 1], [1, 2, 5], [False] * 3) == [1]
    assert scoring.round_winners([4, 4, 1], [2, 2, 5], [False] * 3) == [0, 1]
    assert scoring.round_winners([4, 4, 9], [1, 2, 5], [False, False, True]) == [1]
    assert scoring.round_winners([4, 4, 9], [1, 2, 5], [True] * 3) == []


def test_round_with_no_survivor_has_no_winner_and_no_point_card():
    # every clan is hearts; KH and JH end together: everybody is eliminated (D-MAF-12)
    s = staged(["2H", "3H", "4H"], [["5D"], ["6D"], ["7D"]], won=[["KH", "JH"], [], []],
               leader=0, rounds=2)
    s, ev = play(s, (0, "5D"), (1, "6D"), (2, "7D"))
    r = first(ev, "round_scored").data
    assert r["eliminated"] == [True, True, True] and r["winners"] == []
    assert "point_card_kept" not in types(ev)
    assert s.round == 2 and s.phase == "bouncer" and s.deck_size == 54
    assert first(ev, "round_started").data == {"round": 2, "rounds": 2, "hand_size": 13,
                                               "deck_size": 54, "aside": 15}


def test_several_round_winners_each_keep_a_point_card():
    s = staged(["2H", "2S", "4C"], [["5D"], ["6D"], ["7D"]],
               won=[["9H", "QD"], ["9S", "QS"], []], leader=0, rounds=2)
    s, ev = play(s, (0, "5D"), (1, "6D"), (2, "7D"))
    r = first(ev, "round_scored").data
    assert r["scores"] == [3, 3, 2] and r["faces"] == [1, 1, 0] and r["winners"] == [0, 1]
    assert maf.awaiting(s) == frozenset({0, 1})
    assert {maf.DECK[a.card].code for a in maf.legal_actions(s, 0)} == {"2H", "9H", "QD"}
    assert maf.legal_actions(s, 2) == []
    with pytest.raises(IllegalAction, match="no point card"):
        maf.apply(s, 2, maf.KeepPointCard(C("7D")))
    with pytest.raises(IllegalAction, match="cards you won"):
        maf.apply(s, 0, maf.KeepPointCard(C("9S")))
    s, ev = maf.apply(s, 1, maf.KeepPointCard(C("9S")))
    assert events_for(ev, 0) == [{"type": "point_card_kept", "seat": 1, "round": 1}]
    assert events_for(ev, 1)[0]["card"]["code"] == "9S"
    v0 = maf.view(s, 0)
    assert v0["players"][1]["point_count"] == 1 and v0["players"][1]["point_cards"] is None
    assert maf.view(s, 1)["players"][1]["point_cards"][0]["code"] == "9S"
    assert maf.awaiting(s) == frozenset({0})
    s, ev = maf.apply(s, 0, maf.KeepPointCard(C("2H")))  # the bouncer may be kept
    assert s.round == 2 and s.phase == "bouncer" and s.deck_size == 52
    assert not any(c in h for h in s.hands for c in ids(["9S", "2H"]))
    assert s.points == [ids(["2H"]), ids(["9S"]), []]


def test_deck_shrunk_below_the_normal_deal():
    s = maf.new_match({"seats": 5, "rounds": 5}, seed=4)
    s = s.clone()
    s.points = [ids(["10H", "10S"]), ids(["9H", "9S"]), ids(["8H", "8S"]),
                ids(["7H", "7S"]), ids(["6H", "6S", "5H"])]  # 11 cards kept: 43 left
    s.round = 1
    events: list = []
    rounds.start_round(s, events)
    assert s.deck_size == 43 and s.hand_size == 8  # floor(43 / 5) < 9 (D-MAF-14)
    assert [len(h) for h in s.hands] == [8] * 5 and len(s.aside) == 3
    kept = {c for p in s.points for c in p}
    assert not kept & {c for z in (s.hands + [s.aside]) for c in z}
    assert first(events, "round_started").data["hand_size"] == 8


def test_final_reveal_and_shared_victory():
    s = staged(["2H", "2S", "4C"], [["5D"], ["6D"], ["7D"]],
               won=[["9H", "QD"], ["9S", "QS"], []], leader=0, rounds=1,
               points=[[], [], []])
    s, _ = play(s, (0, "5D"), (1, "6D"), (2, "7D"))
    s, _ = maf.apply(s, 0, maf.KeepPointCard(C("9H")))
    s, ev = maf.apply(s, 1, maf.KeepPointCard(C("9S")))
    assert maf.is_over(s) and maf.awaiting(s) == frozenset()
    over = first(ev, "match_over")
    assert over.to is None and over.data["totals"] == [9, 9, 0] and over.data["winners"] == [0, 1]
    assert [[c["code"] for c in p] for p in over.data["point_cards"]] == [["9H"], ["9S"], []]
    result = maf.scores(s)
    assert result["scores"] == [9, 9, 0] and result["winners"] == [0, 1]
    assert result["round_winners"] == [[0, 1]]
    v = maf.view(s, 2)
    assert v["final"]["winners"] == [0, 1] and v["players"][0]["point_cards"][0]["code"] == "9H"
    assert maf.legal_actions(s, 0) == [] and maf.turn_id(s) is None
    with pytest.raises(IllegalAction, match="over"):
        maf.apply(s, 0, maf.KeepPointCard(C("QD")))


def test_face_cards_and_jokers_are_worth_zero_as_point_cards():
    assert scoring.point_total(ids(["KH", "JK1", "QS", "10C", "AD"])) == 11
    assert scoring.match_winners([0, 0, 0]) == [0, 1, 2]


def test_as_many_rounds_as_players_by_default():
    s = maf.new_match({"seats": 4}, seed=2)
    assert s.rounds == 4 and maf.new_match({"seats": 4, "rounds": 2}, seed=2).rounds == 2
