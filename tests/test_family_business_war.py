"""Family Business rescue cards (§3.7), the Mob War (§3.8), elimination and victory
(§3.9) and the turn order after a counter (D-FB-13), with stacked decks."""
from __future__ import annotations

import pytest

from shared.games import family_business as fb
from shared.rules import IllegalAction
from tests.family_business_helpers import (
    act, all_cards_once, bury, card, deal, first, mob, pass_all, to_list, types)


# -- rescue cards ------------------------------------------------------------------------------
def test_police_protection_returns_any_mobster_and_is_never_countered():
    s = to_list(deal([["police_protection"], ["finger"], []], variant="2006"), mob(1, 0), mob(2, 0))
    s, ev = fb.apply(s, 0, fb.Rescue(card(s, 0, "police_protection"), mob(2, 0)))
    assert fb.reaction_window(s) is None and s.hit_list == [mob(1, 0)]
    assert mob(2, 0) in s.fronts[2] and first(ev, "returned").data["seat"] == 2


def test_take_it_on_the_lam_has_no_window_in_the_1989_deck():
    s = to_list(deal([["lam"], [], []]), mob(0, 0))
    s, ev = fb.apply(s, 0, fb.Rescue(card(s, 0, "lam"), mob(0, 0)))
    assert "window_opened" not in types(ev) and s.hit_list == [] and s.turn == 1


def test_finger_cancels_take_it_on_the_lam_in_the_2006_deck():
    s = to_list(deal([["lam"], [], ["finger"]], variant="2006"), mob(0, 0))
    s, ev = fb.apply(s, 0, fb.Rescue(card(s, 0, "lam"), mob(0, 0)))
    w = fb.reaction_window(s)
    assert w.eligible == {1, 2} and w.data["counters"] == ["finger"]
    assert w.data["mobster"] == mob(0, 0)
    s, ev = fb.apply(s, 2, fb.Counter(card(s, 2, "finger")))
    assert s.hit_list == [mob(0, 0)] and s.turn == 2 and first(ev, "counter").data["success"]
    s2 = to_list(deal([["lam"], [], []], variant="2006"), mob(0, 0))
    s2, _ = fb.apply(s2, 0, fb.Rescue(card(s2, 0, "lam"), mob(0, 0)))
    s2, _ = pass_all(s2)
    assert s2.hit_list == [] and s2.turn == 1


def test_substitution_swaps_on_the_list_or_replaces_from_a_front():
    s = to_list(deal([["substitution"], ["substitution"], []]), mob(0, 0), mob(1, 0), mob(2, 0))
    s, ev = fb.apply(s, 0, fb.Substitution(card(s, 0, "substitution"), mob(0, 0), mob(2, 0)))
    assert s.hit_list == [mob(2, 0), mob(1, 0), mob(0, 0)] and "swapped" in types(ev)
    s, ev = fb.apply(s, 1, fb.Substitution(card(s, 1, "substitution"), mob(1, 0), mob(2, 5)))
    assert s.hit_list == [mob(2, 0), mob(2, 5), mob(0, 0)] and mob(1, 0) in s.fronts[1]
    assert all_cards_once(s)


def test_intrigue_reorders_the_list_one_pick_at_a_time():
    s = to_list(deal([["intrigue"], []]), mob(0, 0), mob(1, 0), mob(0, 1), mob(1, 1))
    s, ev = fb.apply(s, 0, fb.Intrigue(card(s, 0, "intrigue")))
    assert fb.awaiting(s) == {0} and len(fb.legal_actions(s, 0)) == 4
    s, _ = act(s, 0, fb.Order(mob(1, 1)), fb.Order(mob(1, 0)))
    assert [a.mobster for a in fb.legal_actions(s, 0)] == [mob(0, 0), mob(0, 1)]
    s, ev = fb.apply(s, 0, fb.Order(mob(0, 1)))
    assert s.hit_list == [mob(1, 1), mob(1, 0), mob(0, 1), mob(0, 0)] and s.turn == 1
    assert "reordered" in types(ev)
    s = deal([["intrigue"], []])
    assert not any(a.TYPE == "intrigue" for a in fb.legal_actions(s, 0))


def test_pay_off_and_federal_crackdown():
    s = to_list(deal([["pay_off"], ["federal_crackdown"], []]), mob(1, 0), mob(2, 0), mob(1, 1))
    assert {a.target for a in fb.legal_actions(s, 0) if a.TYPE == "pay_off"} == {1, 2}
    s, _ = fb.apply(s, 0, fb.PayOff(card(s, 0, "pay_off"), 1))
    assert s.hit_list == [mob(2, 0)] and mob(1, 1) in s.fronts[1]
    s, _ = fb.apply(s, 1, fb.FederalCrackdown(card(s, 1, "federal_crackdown")))
    assert s.hit_list == [] and len(s.fronts[2]) == 9


def test_turncoat_kills_the_leaders_mobster_and_revives_the_weakest_in_its_place():
    s = deal([["turncoat"], [], []])
    s = bury(s, mob(2, 0), mob(2, 1))
    s = to_list(s, mob(0, 0), mob(1, 0))
    legal = [a for a in fb.legal_actions(s, 0) if a.TYPE == "turncoat"]
    assert {a.revived for a in legal} == {mob(2, 0), mob(2, 1)}
    assert {a.victim // 9 for a in legal} == {0, 1}  # seats 0 and 1 tie for the most
    s, ev = fb.apply(s, 0, fb.Turncoat(card(s, 0, "turncoat"), mob(1, 0), mob(2, 1)))
    assert s.hit_list == [mob(0, 0), mob(2, 1)] and s.cemetery == [mob(2, 0), mob(1, 0)]
    s2 = deal([["turncoat"], [], []])
    s2 = bury(s2, mob(2, 0))
    s2, _ = fb.apply(s2, 0, fb.Turncoat(card(s2, 0, "turncoat"), mob(1, 3), mob(2, 0)))
    assert mob(2, 0) in s2.fronts[2] and mob(1, 3) in s2.cemetery
    s3 = deal([["turncoat"], [], []])  # nobody dead: no Turncoat
    assert not any(a.TYPE == "turncoat" for a in fb.legal_actions(s3, 0))


def test_truce_stops_the_war_and_it_restarts_if_a_condition_holds():
    s = deal([["truce"], [], []])
    s = to_list(s, mob(1, 0))
    s.war = True
    s, ev = fb.apply(s, 0, fb.Truce(card(s, 0, "truce")))
    assert not s.war and "war_ended" in types(ev) and s.hit_list == [mob(1, 0)]
    s = deal([["truce"], [], []])
    s = to_list(s, mob(1, 0), *[mob(2, i) for i in range(5)])
    s.war = True
    s, ev = fb.apply(s, 0, fb.Truce(card(s, 0, "truce")))
    t = types(ev)
    assert t.index("war_ended") < t.index("war_started")  # 6 on the list: restarts at rate 1
    assert s.war and s.rate == 1 and s.cemetery == [mob(1, 0)]


def test_truce_cannot_stop_a_permanent_war():
    s = deal([["truce"], []])
    s = bury(s, *[mob(0, i) for i in range(6)], *[mob(1, i) for i in range(6)])
    s.war = True
    assert s.permanent_war()
    assert not any(a.TYPE == "truce" for a in fb.legal_actions(s, 0))


# -- the war -----------------------------------------------------------------------------------
def test_six_on_the_list_starts_the_war_and_executions_begin_next_turn():
    s = deal([["contract"], [], []])
    s = to_list(s, *[mob(2, i) for i in range(5)])
    s, _ = fb.apply(s, 0, fb.Contract(card(s, 0, "contract"), 1))
    s, _ = pass_all(s)
    s, ev = fb.apply(s, 1, fb.Place(mob(1, 0)))
    t = types(ev)
    assert t.index("war_started") < t.index("turn") < t.index("killed")
    assert first(ev, "war_started").data == {"rate": 1, "cause": "automatic"}
    assert s.cemetery == [mob(2, 0)] and len(s.hit_list) == 5
    s, ev = fb.apply(s, 1, fb.Void(s.hands[1][0]))
    assert s.cemetery == [mob(2, 0), mob(2, 1)]  # before every turn


def test_the_war_ends_when_the_list_is_empty():
    s = deal([[], [], []])
    s = to_list(s, mob(2, 0))
    s.war = True
    s, ev = fb.apply(s, 0, fb.Void(s.hands[0][0]))
    assert s.cemetery == [mob(2, 0)] and not s.war
    assert first(ev, "war_ended").data["cause"] == "empty_list"


def test_mob_war_on_an_empty_list_ends_at_the_check_point():
    s = deal([["mob_war"], []])
    s, ev = fb.apply(s, 0, fb.MobWar(card(s, 0, "mob_war")))
    assert types(ev)[:3] == ["play", "war_started", "war_ended"] and not s.war


def test_six_or_fewer_alive_make_the_war_permanent():
    s = deal([[], [], []])
    s = bury(s, *[mob(0, i) for i in range(7)], *[mob(1, i) for i in range(7)],
             *[mob(2, i) for i in range(7)])
    assert s.alive_total() == 6 and not s.war
    s, ev = fb.apply(s, 0, fb.Void(s.hands[0][0]))
    assert s.war and first(ev, "war_started").data["cause"] == "automatic"
    s, ev = fb.apply(s, 1, fb.Void(s.hands[1][0]))
    assert s.war and s.hit_list == []  # nothing to execute, but the war stays
    assert fb.view(s, 0)["war"] == {"active": True, "rate": 1, "permanent": True}


def test_elimination_at_the_start_of_ones_own_turn():
    s = deal([[], [], []])
    s = bury(s, *[mob(1, i) for i in range(8)])
    s = to_list(s, mob(1, 8), mob(2, 0))
    s.war = True
    hand1 = list(s.hands[1])
    s, ev = fb.apply(s, 0, fb.Void(s.hands[0][0]))
    assert not s.in_game[1] and s.hands[1] == [] and set(hand1) <= set(s.discard)
    e = first(ev, "eliminated")
    assert e.data["seat"] == 1 and {c["id"] for c in e.data["discarded"]} == set(hand1)
    assert "turn_void" in types(ev)
    assert s.turn == 2 and s.cemetery[-1] == mob(2, 0)  # seat 2's own T1 executed again
    assert fb.legal_actions(s, 1) == [] and all_cards_once(s)
    s, _ = fb.apply(s, 2, fb.Void(s.hands[2][0]))
    assert s.turn == 0  # seat 1 is skipped for good


def test_last_gang_standing_wins():
    s = deal([[], []])
    s = bury(s, *[mob(1, i) for i in range(8)])
    s = to_list(s, mob(1, 8))
    s.war = True
    s, ev = fb.apply(s, 0, fb.Void(s.hands[0][0]))
    assert fb.is_over(s) and fb.scores(s)["winners"] == [0] and fb.awaiting(s) == frozenset()
    assert fb.scores(s)["scores"] == [9, 0] and fb.turn_id(s) is None
    assert first(ev, "match_over").data["winners"] == [0]
    with pytest.raises(IllegalAction, match="over"):
        fb.apply(s, 0, fb.Void(s.hands[0][0]))


def test_the_counterer_takes_the_next_turn_with_its_executions():
    """D-FB-13: seat 3 counters seat 0; seat 3 then plays (not seat 1), and its turn
    starts with the war's executions; play continues clockwise from seat 3."""
    s = deal([["contract"], [], [], ["family_influence"]])
    s = to_list(s, mob(2, 0), mob(2, 1))
    s.war = True
    s, _ = fb.apply(s, 0, fb.Contract(card(s, 0, "contract"), 1))
    s, ev = fb.apply(s, 3, fb.Counter(card(s, 3, "family_influence")))
    assert s.turn == 3 and s.cemetery == [mob(2, 0)] and len(s.hands[3]) == 6
    assert fb.turn_id(s) == (2, 3)
    s, _ = fb.apply(s, 3, fb.Void(s.hands[3][0]))
    assert s.turn == 0
