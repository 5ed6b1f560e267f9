"""Family Business cards and attacks: the decks of D-FB-1, setup (§3.4), every attack
card of §3.7 and the counters of §3.6 with a stacked deck."""
from __future__ import annotations

from collections import Counter

import pytest

from shared.games import family_business as fb
from shared.rules import IllegalAction
from tests.family_business_helpers import (
    act, all_cards_once, card, deal, first, mob, pass_all, to_list, types)


# -- decks and setup ------------------------------------------------------------------------
def test_the_1989_deck_has_the_56_cards_of_d_fb_1():
    codes = Counter(fb.action(c).code for c in fb.deck_ids("1989"))
    assert sum(codes.values()) == 56 and "finger" not in codes
    assert codes == Counter(dict(fb.COUNTS_1989))
    cats = Counter(fb.action(c).category for c in fb.deck_ids("1989"))
    assert cats == {"contract": 26, "attack": 6, "counter": 10, "rescue": 14}
    assert codes["contract"] == 14 and codes["police_protection"] == 2 and codes["lam"] == 4


def test_the_2006_deck_adds_two_fingers():
    codes = Counter(fb.action(c).code for c in fb.deck_ids("2006"))
    assert sum(codes.values()) == 58 and codes["finger"] == 2
    s = fb.new_match({"seats": 3, "deck_variant": "2006"}, 1)
    assert all_cards_once(s) and len(fb.zones(s)["hands"]) + len(s.draw_pile) == 58
    with pytest.raises(ValueError):
        fb.new_match({"seats": 3, "deck_variant": "1999"}, 1)
    with pytest.raises(ValueError):
        fb.new_match({"seats": 3, "deck": ["finger"]}, 1)  # no Finger in the 1989 deck


@pytest.mark.parametrize("n", range(2, 7))
def test_setup_deals_five_and_the_first_player_draws(n):
    s = fb.new_match({"seats": n}, 3)
    assert all_cards_once(s) and len(s.unused) == 9 * (6 - n)
    assert all(len(s.fronts[p]) == 9 for p in range(n))
    assert [len(h) for h in s.hands] == [6 if p == s.turn else 5 for p in range(n)]
    assert fb.awaiting(s) == {s.turn} and s.turn_no == 1
    assert fb.turn_id(s) == (1, s.turn)


def test_stacked_deck_order_and_first_player():
    s = deal([["hit", "truce"], ["vendetta"]], pile=["ambush", "mob_war"], first=1)
    assert [fb.action(c).code for c in s.hands[0]][:2] == ["hit", "truce"]
    assert fb.action(s.hands[1][0]).code == "vendetta"
    assert fb.action(s.hands[1][-1]).code == "ambush"  # seat 1 drew the pile's top
    assert fb.action(s.draw_pile[-1]).code == "mob_war"


def test_a_counter_card_can_only_be_voided_on_ones_own_turn():
    s = deal([["mob_power"], []])
    mp = card(s, 0, "mob_power")
    assert [a for a in fb.legal_actions(s, 0) if getattr(a, "card", None) == mp] == [fb.Void(mp)]
    s, ev = fb.apply(s, 0, fb.Void(mp))
    assert first(ev, "void").data["card"]["code"] == "mob_power" and s.turn == 1
    assert s.discard[-1] == mp and len(s.hands[0]) == 5


def test_illegal_actions_leave_the_state_unchanged():
    s = deal([["contract"], []])
    with pytest.raises(IllegalAction, match="not your turn"):
        fb.apply(s, 1, fb.Void(s.hands[1][0]))
    with pytest.raises(IllegalAction):
        fb.apply(s, 0, fb.Void(s.hands[1][0]))
    with pytest.raises(IllegalAction):
        fb.apply(s, 0, fb.Contract(card(s, 0, "contract"), 0))  # not oneself
    with pytest.raises(IllegalAction, match="no counter window"):
        fb.apply(s, 1, fb.NoCounter())
    with pytest.raises(IllegalAction):
        fb.apply(s, None, fb.WindowTimeout(1))


# -- contracts and their counters --------------------------------------------------------------
def contract(code="contract", hands1=(), hands2=(), n=3):
    hands = [[code], list(hands1), list(hands2)][:n]
    s = deal(hands)
    s, ev = fb.apply(s, 0, fb.Contract(card(s, 0, code), 1))
    return s, ev


def test_contract_target_chooses_his_mobster_and_it_is_appended():
    s, ev = contract()
    w = fb.reaction_window(s)
    assert w is not None and w.eligible == {1, 2} and w.kind == "counter"
    assert first(ev, "play").data["target"] == 1
    s, _ = pass_all(s)
    assert fb.awaiting(s) == {1} and s.turn == 0  # the owner chooses (D-FB-14)
    assert {a.TYPE for a in fb.legal_actions(s, 1)} == {"place"} and fb.legal_actions(s, 0) == []
    with pytest.raises(IllegalAction):
        fb.apply(s, 1, fb.Place(mob(2)))
    s, ev = fb.apply(s, 1, fb.Place(mob(1, 4)))
    assert s.hit_list == [mob(1, 4)] and s.turn == 1 and "turn" in types(ev)
    assert all_cards_once(s)


def test_priority_contract_puts_the_mobster_first_in_line():
    s = to_list(deal([["priority_contract"], [], []]), mob(2, 0))
    s, _ = fb.apply(s, 0, fb.Contract(card(s, 0, "priority_contract"), 1))
    s, _ = pass_all(s)
    s, _ = fb.apply(s, 1, fb.Place(mob(1, 3)))
    assert s.hit_list == [mob(1, 3), mob(2, 0)]


def test_double_contract_places_two_and_one_if_only_one_in_front():
    s, _ = contract("double_contract")
    s, _ = pass_all(s)
    s, _ = act(s, 1, fb.Place(mob(1, 0)), fb.Place(mob(1, 1)))
    assert s.hit_list == [mob(1, 0), mob(1, 1)] and s.turn == 1
    s = deal([["double_contract"], [], []])
    s = to_list(s, *[mob(1, i) for i in range(8)])  # D-FB-6: a single front mobster
    s, _ = fb.apply(s, 0, fb.Contract(card(s, 0, "double_contract"), 1))
    s, _ = pass_all(s)
    assert s.hit_list[-1] == mob(1, 8) and s.turn == 1
    assert s.cemetery == [mob(1, 0)]  # 9 on the list: the war started, seat 1's turn executes


def test_contract_no_counter_opens_no_window():
    s, ev = contract("contract_no_counter")
    assert fb.reaction_window(s) is None and "window_opened" not in types(ev)
    assert fb.awaiting(s) == {1}


def test_family_influence_cancels_a_contract_and_the_counterer_plays_next():
    s, _ = contract(hands2=["family_influence"])
    fi = card(s, 2, "family_influence")
    assert fb.legal_actions(s, 1) == [fb.NoCounter()]  # no counter card: pass only
    assert fb.legal_actions(s, 2) == [fb.Counter(fi), fb.NoCounter()]
    s, ev = fb.apply(s, 2, fb.Counter(fi))
    c = first(ev, "counter")
    assert c.data["seat"] == 2 and c.data["success"] is True and c.to is None
    assert fb.GAME.claim_outcome(ev, 2) is True
    assert first(ev, "window_closed").data["reason"] == "countered"
    assert s.hit_list == [] and s.turn == 2  # D-FB-13: seat 2 takes the next turn
    assert len(s.hands[2]) == 6  # drew back to 5, then drew for his own turn
    assert s.discard[-1] == fi and fb.action(s.discard[-2]).code == "contract"
    assert types(ev).index("draw") < types(ev).index("turn")


def test_a_later_claim_in_a_closed_window_is_refused():
    s, _ = contract(hands1=["mob_power"], hands2=["family_influence"])
    s, _ = fb.apply(s, 2, fb.Counter(card(s, 2, "family_influence")))
    with pytest.raises(IllegalAction):
        fb.apply(s, 1, fb.Counter(card(s, 1, "mob_power")))


def test_a_claim_with_the_wrong_counter_is_illegal():
    s, _ = contract("contract_no_fi", hands1=["family_influence"], hands2=["mob_power"])
    fi = card(s, 1, "family_influence")
    assert fb.legal_actions(s, 1) == [fb.NoCounter()]
    with pytest.raises(IllegalAction, match="cannot counter"):
        fb.apply(s, 1, fb.Counter(fi))
    with pytest.raises(IllegalAction, match="not in your hand"):
        fb.apply(s, 1, fb.Counter(card(s, 2, "mob_power")))
    s, ev = fb.apply(s, 2, fb.Counter(card(s, 2, "mob_power")))  # Mob Power is allowed
    assert first(ev, "counter").data["success"]
    s2, _ = contract("contract_no_mp", hands1=["mob_power"])
    with pytest.raises(IllegalAction, match="cannot counter"):
        fb.apply(s2, 1, fb.Counter(card(s2, 1, "mob_power")))
    s3, _ = contract("contract_no_counter", hands1=["mob_power", "family_influence"])
    with pytest.raises(IllegalAction):
        fb.apply(s3, 1, fb.Counter(card(s3, 1, "mob_power")))


def test_mob_power_reverses_a_contract_onto_its_player():
    s, _ = contract(hands1=["mob_power"])
    s, ev = fb.apply(s, 1, fb.Counter(card(s, 1, "mob_power")))
    assert fb.awaiting(s) == {0}  # the contract's player chooses his own mobster
    s, ev = fb.apply(s, 0, fb.Place(mob(0, 2)))
    assert s.hit_list == [mob(0, 2)] and s.turn == 1


def test_mob_power_against_a_priority_contract_puts_the_attacker_first():
    s = to_list(deal([["priority_contract"], ["mob_power"], []]), mob(2, 0))
    s, _ = fb.apply(s, 0, fb.Contract(card(s, 0, "priority_contract"), 1))
    s, _ = act(s, 1, fb.Counter(card(s, 1, "mob_power")))
    s, _ = fb.apply(s, 0, fb.Place(mob(0, 0)))
    assert s.hit_list == [mob(0, 0), mob(2, 0)]


def test_mob_power_against_a_double_contract():
    s, _ = contract("double_contract", hands2=["mob_power"])
    s, _ = fb.apply(s, 2, fb.Counter(card(s, 2, "mob_power")))  # an ally counters
    assert fb.awaiting(s) == {0}
    s, _ = fb.apply(s, 0, fb.Place(mob(0, 5)))
    assert fb.awaiting(s) == {1}
    s, _ = fb.apply(s, 1, fb.Place(mob(1, 5)))
    assert s.hit_list == [mob(0, 5), mob(1, 5)] and s.turn == 2


def test_family_influence_against_a_double_contract_saves_one():
    s, _ = contract("double_contract", hands1=["family_influence"])
    s, _ = fb.apply(s, 1, fb.Counter(card(s, 1, "family_influence")))
    s, _ = fb.apply(s, 1, fb.Place(mob(1, 7)))
    assert s.hit_list == [mob(1, 7)] and s.turn == 1 and len(s.hands[1]) == 6


def test_window_timeout_resolves_the_uncountered_card():
    s, _ = contract(hands1=["family_influence"])
    w = fb.reaction_window(s)
    assert w.timeout_ms == 3000 and fb.timeout_action(w) == fb.WindowTimeout(w.id)
    with pytest.raises(IllegalAction):
        fb.apply(s, 1, fb.WindowTimeout(w.id))  # only the table
    s, ev = fb.apply(s, None, fb.WindowTimeout(w.id))
    assert first(ev, "window_closed").data["reason"] == "timeout" and fb.awaiting(s) == {1}
    with pytest.raises(IllegalAction):
        fb.apply(s, None, fb.WindowTimeout(w.id))
    s2 = deal([["contract"], [], []], counter_timeout_ms=1234)
    s2, _ = fb.apply(s2, 0, fb.Contract(card(s2, 0, "contract"), 2))
    assert fb.reaction_window(s2).timeout_ms == 1234


def test_pass_twice_is_refused_and_all_answered_closes():
    s, _ = contract()
    s, ev = fb.apply(s, 1, fb.NoCounter())
    assert first(ev, "pass").data == {"seat": 1, "window": fb.reaction_window(s).id}
    with pytest.raises(IllegalAction, match="already answered"):
        fb.apply(s, 1, fb.NoCounter())
    assert fb.awaiting(s) == {2}
    with pytest.raises(IllegalAction):
        fb.apply(s, 0, fb.NoCounter())  # the attacker is not eligible
    s, ev = fb.apply(s, 2, fb.NoCounter())
    assert first(ev, "window_closed").data["reason"] == "all_answered"


# -- the other attacks ------------------------------------------------------------------------
def test_hit_kills_any_mobster_then_the_player_places_one_of_his():
    s = to_list(deal([["hit"], [], []]), mob(2, 3))
    legal = fb.legal_actions(s, 0)
    assert fb.Hit(card(s, 0, "hit"), mob(2, 3)) in legal and fb.Hit(card(s, 0, "hit"), mob(0, 0)) in legal
    s, ev = fb.apply(s, 0, fb.Hit(card(s, 0, "hit"), mob(2, 3)))
    assert fb.reaction_window(s) is None and s.cemetery == [mob(2, 3)]
    assert first(ev, "killed").data["cause"] == "hit" and fb.awaiting(s) == {0}
    s, _ = fb.apply(s, 0, fb.Place(mob(0, 1)))
    assert s.hit_list == [mob(0, 1)] and s.turn == 1


def test_hit_needs_a_front_mobster_left_to_place():
    s = deal([["hit"], []])
    s = to_list(s, *[mob(0, i) for i in range(8)])
    hits = [a for a in fb.legal_actions(s, 0) if a.TYPE == "hit"]
    assert hits and all(a.victim != mob(0, 8) for a in hits)
    s, _ = fb.apply(s, 0, fb.Hit(card(s, 0, "hit"), mob(0, 0)))  # own, on the list
    assert s.hit_list[-1] == mob(0, 8) and s.turn == 1  # placed without a choice


def test_massacre_kills_the_whole_list_in_order_and_stops_at_victory():
    s = to_list(deal([["massacre"], [], []]), mob(1, 0), mob(2, 0), mob(0, 0))
    s, ev = fb.apply(s, 0, fb.Massacre(card(s, 0, "massacre")))
    assert s.cemetery == [mob(1, 0), mob(2, 0), mob(0, 0)] and s.hit_list == []
    s = deal([["massacre"], []])
    for i in range(8):
        s.fronts[1].remove(mob(1, i))
        s.cemetery.append(mob(1, i))
    s = to_list(s, mob(1, 8), mob(0, 0))
    s, ev = fb.apply(s, 0, fb.Massacre(card(s, 0, "massacre")))
    assert fb.is_over(s) and fb.scores(s)["winners"] == [0]
    assert s.hit_list == [mob(0, 0)]  # D-FB-9: stops the moment one player remains
    assert types(ev)[-1] == "match_over" and all_cards_once(s)


def test_double_cross_collects_one_of_each_opponent_in_the_players_order():
    s = deal([[], ["double_cross"], [], []], first=1)
    s = to_list(s, *[mob(3, i) for i in range(9)])  # seat 3 has no front: skipped
    s, _ = fb.apply(s, 1, fb.DoubleCross(card(s, 1, "double_cross")))
    assert fb.reaction_window(s) is None and fb.awaiting(s) == {2}  # clockwise from 1
    s, _ = fb.apply(s, 2, fb.Place(mob(2, 4)))
    assert fb.awaiting(s) == {0}
    s, _ = fb.apply(s, 0, fb.Place(mob(0, 6)))
    assert fb.awaiting(s) == {1}
    assert sorted(a.mobster for a in fb.legal_actions(s, 1)) == [mob(0, 6), mob(2, 4)]
    assert fb.zones(s)["collected"] == [mob(2, 4), mob(0, 6)] and all_cards_once(s)
    s, _ = fb.apply(s, 1, fb.Order(mob(0, 6)))
    assert s.hit_list[-2:] == [mob(0, 6), mob(2, 4)] and s.turn == 2


def test_mob_war_and_ambush_set_the_rate():
    s = to_list(deal([["ambush"], ["mob_war"]]), mob(0, 0), mob(1, 0), mob(0, 1))
    s, ev = fb.apply(s, 0, fb.Ambush(card(s, 0, "ambush")))
    assert first(ev, "war_started").data == {"rate": 2, "cause": "ambush"}
    assert s.war and s.rate == 2 and s.cemetery == [mob(0, 0), mob(1, 0)]  # 2 executions
    s, ev = fb.apply(s, 1, fb.MobWar(card(s, 1, "mob_war")))  # D-FB-8: back to 1
    assert s.rate == 1 and first(ev, "war_rate").data["rate"] == 1


def test_vendetta_takes_two_of_each_opponent_and_starts_the_war_at_rate_2():
    s = deal([["vendetta"], [], []])
    s, ev = fb.apply(s, 0, fb.Vendetta(card(s, 0, "vendetta")))
    w = fb.reaction_window(s)
    assert w.eligible == {1, 2} and w.data["counters"] == ["safe_house"]
    s, _ = pass_all(s)
    s, _ = act(s, 1, fb.Place(mob(1, 0)), fb.Place(mob(1, 1)))
    s, _ = act(s, 2, fb.Place(mob(2, 0)), fb.Place(mob(2, 1)))
    s, ev = act(s, 0, fb.Order(mob(2, 0)), fb.Order(mob(1, 0)), fb.Order(mob(2, 1)))
    assert s.war and s.rate == 2 and s.turn == 1
    # no execution in the turn the war began; seat 1's turn starts with two
    t = types(ev)
    assert t.index("war_started") < t.index("turn") < t.index("killed")
    assert s.cemetery == [mob(2, 0), mob(1, 0)] and s.hit_list == [mob(2, 1), mob(1, 1)]


def test_safe_house_against_a_vendetta_with_several_opponents():
    s = deal([["vendetta"], [], ["safe_house"], []])
    s, _ = fb.apply(s, 0, fb.Vendetta(card(s, 0, "vendetta")))
    w = fb.reaction_window(s)
    assert w.eligible == {1, 2, 3}
    assert fb.legal_actions(s, 1) == [fb.NoCounter()] == fb.legal_actions(s, 3)
    s, _ = fb.apply(s, 1, fb.NoCounter())
    s, ev = fb.apply(s, 2, fb.Counter(card(s, 2, "safe_house")))
    assert first(ev, "counter").data["success"] and fb.reaction_window(s) is None
    s, _ = act(s, 1, fb.Place(mob(1, 0)), fb.Place(mob(1, 1)))
    assert fb.awaiting(s) == {3}  # seat 2 is skipped
    s, _ = act(s, 3, fb.Place(mob(3, 0)), fb.Place(mob(3, 1)))
    s, _ = act(s, 0, fb.Order(mob(1, 0)), fb.Order(mob(3, 0)), fb.Order(mob(1, 1)))
    assert sorted(s.hit_list + s.cemetery) == [mob(1, 0), mob(1, 1), mob(3, 0), mob(3, 1)]
    assert not any(m // 9 == 2 for m in s.hit_list + s.cemetery)
    assert s.war and s.rate == 2  # the war still starts
    assert s.turn == 2  # the Safe House player takes the next turn
    assert s.cemetery == [mob(1, 0), mob(3, 0)]  # D-FB-13: his turn starts with executions


def test_window_eligibility_does_not_depend_on_who_holds_counters():
    """Same attack, one table with counters in hand and one without: the window, its
    event and every public part of every view are identical."""
    with_c = deal([["contract"], ["mob_power"], ["family_influence"], []])
    without = deal([["contract"], [], [], []])
    views = []
    for s in (with_c, without):
        s, ev = fb.apply(s, 0, fb.Contract(card(s, 0, "contract"), 1))
        w = fb.reaction_window(s)
        assert w.eligible == {1, 2, 3} == w.pending
        opened = first(ev, "window_opened")
        assert opened.to is None
        views.append((opened.data, [{k: v for k, v in fb.view(s, p).items() if k != "hand"}
                                    for p in (None, 0, 1, 2, 3)]))
    assert views[0] == views[1]
