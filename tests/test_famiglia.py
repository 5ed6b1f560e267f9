"""Famiglia rules engine: one test (or a few) per rule of RULES.md §1 and per decision
D-FAM-n, and the worked examples of the two French rulebooks (seeds 000 and 002)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from shared.games import GAMES
from shared.games import famiglia as fam
from shared.games.famiglia import (Accountant, Brute, Pass, Renew, Swap, TakeFree, TakePair)
from shared.rules import BadAction, IllegalAction, events_for
from tests.test_famiglia_helpers import act, codes, deal, ids, layout, the, types

NO_ZERO_STREET = ("A2", "F1", "B3", "M1", "F2", "A3")

# ---------------------------------------------------------------------------------------
# §1.1 components


def test_sixty_cards_with_fixed_ids_values_and_vp():
    assert len(fam.DECK) == 60
    assert [c.id for c in fam.DECK] == list(range(60))
    per_family = Counter(c.family for c in fam.DECK)
    assert per_family == {"famiglia": 15, "accountant": 15, "brute": 15, "mercenary": 15}
    for f in per_family:
        assert Counter(c.value for c in fam.DECK if c.family == f) == {0: 5, 1: 4, 2: 3, 3: 2, 4: 1}
    # ids are fixed: family block of 15, sorted by value
    assert fam.card(0).code == "F0" and fam.card(14).code == "F4"
    assert fam.card(15).code == "A0" and fam.card(44).code == "B4" and fam.card(59).code == "M4"


def test_victory_points_table_d_fam_1():
    vp = {c.code: c.vp for c in fam.DECK}
    assert [vp[f"F{v}"] for v in range(5)] == [1, 3, 6, 10, 15]
    for letter in "ABM":
        assert [vp[f"{letter}{v}"] for v in range(5)] == [0, 1, 3, 6, 10]
    totals = Counter()
    for c in fam.DECK:
        totals[c.family] += c.vp
    assert totals == {"famiglia": 70, "accountant": 35, "brute": 35, "mercenary": 35}


def test_starting_sets_are_one_zero_of_each_family():
    for st in fam.STARTING_SETS:
        assert codes(st) == Counter({"F0": 1, "A0": 1, "B0": 1, "M0": 1})
    assert not set(fam.STARTING_SETS[0]) & set(fam.STARTING_SETS[1])


def test_registered_with_the_rules_interface():
    assert GAMES["famiglia"] is fam
    assert fam.NAME == "famiglia" and fam.MIN_SEATS == fam.MAX_SEATS == 2
    assert fam.ACTIONS.types() == ["renew", "accountant", "swap", "brute", "take_free", "take_pair", "pass"]
    s = fam.new_match({}, 3)
    assert fam.reaction_window(s) is None
    assert fam.awaiting(s) == frozenset({s.turn})
    with pytest.raises(ValueError):
        fam.timeout_action(None)  # no window ever opens


@pytest.mark.parametrize("action", [Renew(3), Accountant(20), Swap(1, 2), Brute(35, 4, 2), TakeFree(7),
                                    TakePair(13, 9, 10), Pass()])
def test_actions_round_trip_through_json(action):
    assert fam.ACTIONS.parse(action.to_dict()) == action


def test_malformed_actions_are_bad_actions():
    with pytest.raises(BadAction):
        fam.ACTIONS.parse({"type": "brute", "card": 35, "target": 4})
    with pytest.raises(BadAction):
        fam.ACTIONS.parse({"type": "take_pair", "card": 1, "to_gang": 2, "keep": "x"})
    with pytest.raises(BadAction):
        fam.ACTIONS.parse({"type": "steal"})


# ---------------------------------------------------------------------------------------
# §1.3 setup


def test_default_setup():
    s = fam.new_match({}, 11)
    z = fam.zones(s)
    assert sorted(sum(z.values(), [])) == list(range(60))
    assert {tuple(sorted(h)) for h in s.hands} == {fam.STARTING_SETS[0], fam.STARTING_SETS[1]}
    assert len(s.street) == 6 and len(s.deck) == 46
    assert s.discard == [] and s.gangs == [[], []]
    assert s.turn == s.first and s.turn_no == 1 and s.exhaustion == 0
    assert fam.scores(s) == {"scores": [1, 1], "winners": [], "decided_by": None, "reason": None}


def test_starting_set_and_first_player_are_random_d_fam_15():
    sets, firsts = set(), set()
    for seed in range(20):
        s = fam.new_match({}, seed)
        sets.add(s.hands[0][0])
        firsts.add(s.first)
    assert sets == {fam.STARTING_SETS[0][0], fam.STARTING_SETS[1][0]}
    assert firsts == {0, 1}
    assert fam.new_match({"first_player": 1}, 0).turn == 1
    assert fam.new_match({"first_player": 0}, 0).turn == 0


def test_rng_call_order_is_the_documented_one():
    seed = 1234
    rng = random.Random(seed)
    k = rng.randrange(2)
    rest = [c.id for c in fam.DECK if c.id not in fam.STARTING_SETS[0] + fam.STARTING_SETS[1]]
    rng.shuffle(rest)
    first = rng.randrange(2)
    s = fam.new_match({}, seed)
    assert s.hands[0] == list(fam.STARTING_SETS[k])
    assert s.first == first
    assert s.street == rest[:6]
    assert list(reversed(s.deck)) == rest[6:]


def test_stacked_deck_makes_the_street_then_the_draws():
    s = deal(street=NO_ZERO_STREET, deck=["F4", "M4"])
    assert [fam.card(c).code for c in s.street] == list(NO_ZERO_STREET)
    assert [fam.card(c).code for c in s.deck[-2:]] == ["M4", "F4"]  # F4 is on top


def test_same_seed_same_match():
    assert fam.zones(fam.new_match({}, 99)) == fam.zones(fam.new_match({}, 99))
    assert fam.zones(fam.new_match({}, 99)) != fam.zones(fam.new_match({}, 98))


@pytest.mark.parametrize("config", [
    {"seats": 3},
    {"seats": 1},
    {"first_player": 2},
    {"first_player": True},
    {"hands": [["X9"], []]},
    {"hands": [["F4"], ["F4"]]},  # one F4 only
    {"hands": [["F0"]]},
    {"deck": "F4"},
    {"hands": [["F0"] * 5 + ["A0"] * 5 + ["B0"] * 5 + ["M0"] * 5 + ["F1"] * 4 + ["A1"] * 4 + ["B1"] * 4,
               ["M1"] * 4 + ["F2"] * 3 + ["A2"] * 3 + ["B2"] * 3 + ["M2"] * 3 + ["F3"] * 2 + ["A3"] * 2
               + ["B3"] * 2 + ["M3"] * 2 + ["F4", "A4", "B4"]]},  # 1 card left for the deck
])
def test_bad_configs_are_refused(config):
    with pytest.raises(ValueError):
        fam.new_match(config, 0)


def test_unknown_config_keys_are_ignored():
    assert fam.new_match({"snap_timeout_ms": 3000, "rounds": 2}, 5).street


# ---------------------------------------------------------------------------------------
# Turn order and the engine contract


def test_only_the_active_seat_may_act_and_a_refusal_changes_nothing():
    s = deal(street=NO_ZERO_STREET, first=0)
    before = fam.zones(s)
    for seat, action in [(1, Pass()), (None, Pass()), (5, Pass()), (0, TakeFree(999))]:
        with pytest.raises(IllegalAction):
            fam.apply(s, seat, action)
    assert fam.zones(s) == before
    assert fam.legal_actions(s, 1) == []
    s2, ev = fam.apply(s, 0, Pass())
    assert fam.zones(s) == before and s.turn == 0  # apply never mutates its input
    assert s2.turn == 1 and s2.turn_no == 2 and types(ev) == ["pass", "turn"]


def test_pass_is_always_legal_and_never_the_only_thing_refused():
    s = deal(street=NO_ZERO_STREET)
    assert Pass() in fam.legal_actions(s, 0)
    s, _ = act(s, 0, Renew(the(s, "street", "F1")))
    assert Pass() in fam.legal_actions(s, 0)


# ---------------------------------------------------------------------------------------
# Phase 1: renew (§1.5 phase 1, §1.4)


def test_worked_example_renew_by_discarding_a_2():
    """Seeds 000/002: Andrea puts a 2 of the street on the discard pile and lays two new
    cards from the deck in the street."""
    s = deal(street=NO_ZERO_STREET, deck=["B1", "M2"])
    a2 = the(s, "street", "A2")
    s, ev = act(s, 0, Renew(a2))
    assert s.discard == [a2]
    assert codes(s.street) == Counter(["F1", "B3", "M1", "F2", "A3", "B1", "M2"])
    assert len(s.deck) == 44
    assert types(ev) == ["renew", "street_draw", "street_draw"]
    assert ev[0].data["to"] == "discard" and ev[0].data["card"]["code"] == "A2"
    assert [e.data["card"]["code"] for e in ev[1:]] == ["B1", "M2"]


def test_renew_repeats_freely_before_the_first_exhaustion():
    s = deal(street=NO_ZERO_STREET, deck=["B1", "M2", "F3", "A1", "B2", "M3"])
    s, _ = act(s, 0, Renew(the(s, "street", "A2")), Renew(the(s, "street", "F1")))
    s, _ = act(s, 0, Renew(the(s, "street", "B3")))
    assert codes(s.discard) == Counter(["A2", "F1", "B3"]) and s.renews == 3
    assert codes(s.street) == Counter(["M1", "F2", "A3", "B1", "M2", "F3", "A1", "B2", "M3"])


def test_renew_refused_with_a_zero_in_the_street():
    s = deal(street=("A2", "F1", "B3", "M1", "F2", "A0"))
    assert not any(isinstance(a, Renew) for a in fam.legal_actions(s, 0))
    with pytest.raises(IllegalAction, match="0 in the street"):
        fam.apply(s, 0, Renew(the(s, "street", "A2")))


def test_renew_stops_once_it_draws_a_zero():
    s = deal(street=NO_ZERO_STREET, deck=["B0", "M2"])
    s, _ = act(s, 0, Renew(the(s, "street", "A2")))
    with pytest.raises(IllegalAction, match="0 in the street"):
        fam.apply(s, 0, Renew(the(s, "street", "F1")))


def test_renew_only_in_phase_1():
    s = deal(hands=[["A1", "B1", "F0", "A0"], ["F0"]], street=NO_ZERO_STREET, gangs=[["M0"], []])
    after_acc, _ = act(s, 0, Accountant(the(s, "hand0", "A1")))
    with pytest.raises(IllegalAction, match="phase 1"):
        fam.apply(after_acc, 0, Renew(the(s, "street", "A2")))
    after_brute, _ = act(s, 0, Brute(the(s, "hand0", "B1"), the(s, "street", "F1"), 1))
    with pytest.raises(IllegalAction, match="phase 1"):
        fam.apply(after_brute, 0, Renew(the(s, "street", "A2")))
    assert not any(isinstance(a, (Renew, Accountant)) for a in fam.legal_actions(after_brute, 0))


def test_renew_of_a_card_not_in_the_street_is_refused():
    s = deal(street=NO_ZERO_STREET)
    with pytest.raises(IllegalAction, match="not in the street"):
        fam.apply(s, 0, Renew(the(s, "hand0", "F0")))


def test_first_exhaustion_in_the_middle_of_a_renew_reshuffles_and_keeps_drawing():
    s = layout(hands=[["F0"], ["A0"]], street=NO_ZERO_STREET, deck=["B1"], discard=["F4", "A4", "B4"])
    f2 = the(s, "street", "F2")
    s, ev = act(s, 0, Renew(f2))
    assert types(ev) == ["renew", "street_draw", "reshuffle", "street_draw"]
    assert s.exhaustion == 1 and s.discard == []
    assert ev[2].data == {"deck": 4, "exhaustion": 1}  # F4, A4, B4 and the renewed F2
    assert len(s.deck) == 3 and len(s.street) == 7
    # seed 000 remark / seed 002 "précision": one last renew after the reshuffle
    assert any(isinstance(a, Renew) for a in fam.legal_actions(s, 0))
    b1 = the(s, "street", "B1")
    s, ev = act(s, 0, Renew(b1))
    assert ev[0].data["to"] == "deck_bottom" and s.deck[0] == b1 and s.discard == []
    assert len(s.deck) == 3  # B1 under the deck, then one card drawn from the top
    assert not any(isinstance(a, Renew) for a in fam.legal_actions(s, 0))
    with pytest.raises(IllegalAction, match="once per turn"):
        fam.apply(s, 0, Renew(the(s, "street", "M1")))


def test_after_the_first_exhaustion_one_renew_per_turn_card_under_the_deck():
    s = layout(hands=[["F0"], ["A0"]], street=NO_ZERO_STREET, deck=["B1", "M2", "F3", "M3"],
               exhaustion=1, rest="gang1")
    m1 = the(s, "street", "M1")
    s, ev = act(s, 0, Renew(m1))
    assert s.deck[0] == m1 and len(s.deck) == 4 and codes(s.street)["B1"] == 1
    with pytest.raises(IllegalAction, match="once per turn"):
        fam.apply(s, 0, Renew(the(s, "street", "F1")))
    s, _ = act(s, 0, Pass())
    assert any(isinstance(a, Renew) for a in fam.legal_actions(s, 1))  # a new turn, a new renew


def test_renew_forbidden_once_the_end_is_triggered_d_fam_9():
    s = layout(hands=[["F0"], ["A0"]], street=NO_ZERO_STREET, exhaustion=2)
    s.last_turn = 2
    with pytest.raises(IllegalAction, match="no longer be renewed"):
        fam.apply(s, 0, Renew(the(s, "street", "A2")))


# ---------------------------------------------------------------------------------------
# Phase 2: Accountant (§1.5 phase 2, D-FAM-3, D-FAM-7)


def test_worked_example_accountant_2_swaps_two_cards():
    """Seeds 000/002: with a Mercenary 2 and a Brute 3 in his gang, Eric plays an
    Accountant 2, takes both back and puts a Brute 0 and a Famiglia 1 in the gang."""
    s = deal(hands=[["A2", "B0", "F1", "M0"], ["F0"]], gangs=[["M2", "B3", "F0"], []], street=NO_ZERO_STREET)
    a2, m2, b3 = the(s, "hand0", "A2"), the(s, "gang0", "M2"), the(s, "gang0", "B3")
    b0, f1 = the(s, "hand0", "B0"), the(s, "hand0", "F1")
    score = fam.scores(s)["scores"][0]
    s, ev = act(s, 0, Accountant(a2), Swap(m2, b0), Swap(b3, f1))
    assert codes(s.hands[0]) == Counter(["M2", "B3", "M0"])
    assert codes(s.gangs[0]) == Counter(["F0", "A2", "B0", "F1"])
    assert types(ev) == ["accountant", "swap", "swap"]
    assert ev[2].data["from_gang"]["code"] == "B3" and ev[2].data["from_hand"]["code"] == "F1"
    assert fam.scores(s)["scores"][0] == score  # cards change place, not owner
    assert not any(isinstance(a, Swap) for a in fam.legal_actions(s, 0))  # two swaps max
    with pytest.raises(IllegalAction, match="only 2 swaps"):
        fam.apply(s, 0, Swap(the(s, "gang0", "F0"), the(s, "hand0", "M0")))


def test_accountant_cannot_take_itself_back():
    s = deal(hands=[["A2", "B0"], ["F0"]], gangs=[["M2"], []], street=NO_ZERO_STREET)
    a2 = the(s, "hand0", "A2")
    s, _ = act(s, 0, Accountant(a2))
    assert Swap(a2, the(s, "hand0", "B0")) not in fam.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="cannot be taken back"):
        fam.apply(s, 0, Swap(a2, the(s, "hand0", "B0")))


def test_accountant_swap_is_simultaneous_d_fam_7():
    s = deal(hands=[["A3", "B0", "F1"], ["F0"]], gangs=[["M2", "B3"], []], street=NO_ZERO_STREET)
    m2, b0 = the(s, "gang0", "M2"), the(s, "hand0", "B0")
    s, _ = act(s, 0, Accountant(the(s, "hand0", "A3")), Swap(m2, b0))
    for action in (Swap(b0, the(s, "hand0", "F1")), Swap(the(s, "gang0", "B3"), m2)):
        assert action not in fam.legal_actions(s, 0)
        with pytest.raises(IllegalAction, match="moved by this Accountant"):
            fam.apply(s, 0, action)
    s, _ = act(s, 0, Swap(the(s, "gang0", "B3"), the(s, "hand0", "F1")))  # others still fine
    assert codes(s.hands[0]) == Counter(["M2", "B3"])


def test_accountant_with_no_swap_then_next_phases_d_fam_3():
    s = deal(hands=[["A1", "B1", "F0"], ["F0"]], street=NO_ZERO_STREET)
    s, ev = act(s, 0, Accountant(the(s, "hand0", "A1")), Brute(the(s, "hand0", "B1"), the(s, "street", "M1"), 1))
    assert codes(s.gangs[0]) == Counter(["A1", "B1"])
    with pytest.raises(IllegalAction, match="swaps follow an Accountant"):
        fam.apply(s, 0, Swap(the(s, "gang0", "A1"), the(s, "hand0", "F0")))


@pytest.mark.parametrize("code,why", [("A0", "value 1 to 4"), ("B2", "value 1 to 4")])
def test_only_accountants_of_value_1_to_4(code, why):
    s = deal(hands=[[code, "F0"], ["F0"]], street=NO_ZERO_STREET)
    with pytest.raises(IllegalAction, match=why):
        fam.apply(s, 0, Accountant(the(s, "hand0", code)))


def test_one_accountant_per_turn_and_swaps_need_one():
    s = deal(hands=[["A1", "A2", "F0"], ["F0"]], gangs=[["M1"], []], street=NO_ZERO_STREET)
    with pytest.raises(IllegalAction, match="swaps follow an Accountant"):
        fam.apply(s, 0, Swap(the(s, "gang0", "M1"), the(s, "hand0", "F0")))
    s, _ = act(s, 0, Accountant(the(s, "hand0", "A1")))
    with pytest.raises(IllegalAction, match="Accountant phase is over"):
        fam.apply(s, 0, Accountant(the(s, "hand0", "A2")))


def test_swap_checks_its_cards():
    s = deal(hands=[["A2", "F0"], ["B0"]], gangs=[["M1"], ["M2"]], street=NO_ZERO_STREET)
    s, _ = act(s, 0, Accountant(the(s, "hand0", "A2")))
    with pytest.raises(IllegalAction, match="not in your gang"):
        fam.apply(s, 0, Swap(the(s, "gang1", "M2"), the(s, "hand0", "F0")))
    with pytest.raises(IllegalAction, match="not in your hand"):
        fam.apply(s, 0, Swap(the(s, "gang0", "M1"), the(s, "hand1", "B0")))


def test_accountant_pulls_a_card_back_for_a_take():
    s = deal(hands=[["A1", "F1", "B0"], ["F0"]], gangs=[["F1"], []],
             street=("F2", "A3", "B3", "M3", "A2", "B2"))
    f1_gang = the(s, "gang0", "F1")
    s, _ = act(s, 0, Accountant(the(s, "hand0", "A1")), Swap(f1_gang, the(s, "hand0", "B0")))
    f2 = the(s, "street", "F2")
    s, _ = act(s, 0, TakePair(f2, f1_gang, the(s, "hand0", "F1")))
    assert codes(s.hands[0]) == Counter(["F1", "F2"])


# ---------------------------------------------------------------------------------------
# Phase 3: Brute (§1.5 phase 3, D-FAM-4)


def test_worked_example_brute_2_lowers_a_mercenary_4_taken_with_two_mercenary_1s():
    """Seeds 000/002: a Brute 2 lowers the street's Mercenary 4 to 2; two Mercenary 1s
    recruit it; one goes to the gang, the other back to the hand."""
    s = deal(hands=[["B2", "M1", "M1", "F0"], ["F0"]], street=("M4", "F1", "A3", "B3", "F2", "A2"))
    m4, b2 = the(s, "street", "M4"), the(s, "hand0", "B2")
    m1a, m1b = ids(s, "hand0", "M1", "M1")
    assert TakePair(m4, m1a, m1b) not in fam.legal_actions(s, 0)
    s, ev = act(s, 0, Brute(b2, m4, 2))
    assert ev[0].type == "brute" and ev[0].data["effective"] == 2 and ev[0].data["amount"] == 2
    assert s.effective_value(m4) == 2
    assert next(c for c in fam.view(s, 1)["street"] if c["id"] == m4)["effective"] == 2
    assert TakePair(m4, m1a, m1b) in fam.legal_actions(s, 0)
    s, ev = act(s, 0, TakePair(m4, m1a, m1b))
    assert codes(s.hands[0]) == Counter(["M4", "M1", "F0"])
    assert codes(s.gangs[0]) == Counter(["B2", "M1"])
    assert fam.scores(s)["scores"][0] == 1 + 3 + 10 + 1 + 1


def test_brute_may_lower_to_zero_for_a_free_take():
    s = deal(hands=[["B3", "F0"], ["F0"]], street=NO_ZERO_STREET)
    f2 = the(s, "street", "F2")
    with pytest.raises(IllegalAction, match="recruit it with a pair"):
        fam.apply(s, 0, TakeFree(f2))
    s, _ = act(s, 0, Brute(the(s, "hand0", "B3"), f2, 3))  # more than the value: stops at 0
    assert s.effective_value(f2) == 0
    s, ev = act(s, 0, TakeFree(f2))
    assert ev[0].data["mode"] == "free" and f2 in s.hands[0]


def test_brute_may_lower_by_less_than_its_value():
    s = deal(hands=[["B3", "A1", "A1"], ["F0"]], street=NO_ZERO_STREET)
    a3 = the(s, "street", "A3")
    s, _ = act(s, 0, Brute(the(s, "hand0", "B3"), a3, 1))
    assert s.effective_value(a3) == 2
    s, _ = act(s, 0, TakePair(a3, *ids(s, "hand0", "A1", "A1")))
    assert a3 in s.hands[0]


@pytest.mark.parametrize("amount", [0, 3, -1])
def test_brute_amount_between_1_and_its_value(amount):
    s = deal(hands=[["B2", "F0"], ["F0"]], street=NO_ZERO_STREET)
    with pytest.raises(IllegalAction, match="by 1 to 2"):
        fam.apply(s, 0, Brute(the(s, "hand0", "B2"), the(s, "street", "F2"), amount))


def test_brute_checks_card_and_target():
    s = deal(hands=[["B0", "B2", "A2"], ["F0"]], street=NO_ZERO_STREET)
    with pytest.raises(IllegalAction, match="Brute of value 1 to 4"):
        fam.apply(s, 0, Brute(the(s, "hand0", "B0"), the(s, "street", "F2"), 1))
    with pytest.raises(IllegalAction, match="Brute of value 1 to 4"):
        fam.apply(s, 0, Brute(the(s, "hand0", "A2"), the(s, "street", "F2"), 1))
    with pytest.raises(IllegalAction, match="not in the street"):
        fam.apply(s, 0, Brute(the(s, "hand0", "B2"), the(s, "hand1", "F0"), 1))
    with pytest.raises(IllegalAction, match="not in your hand"):
        fam.apply(s, 0, Brute(the(s, "street", "B3"), the(s, "street", "F2"), 1))


def test_one_brute_per_turn_and_no_accountant_after_it():
    s = deal(hands=[["B1", "B2", "A1"], ["F0"]], street=NO_ZERO_STREET)
    s, _ = act(s, 0, Brute(the(s, "hand0", "B1"), the(s, "street", "F2"), 1))
    with pytest.raises(IllegalAction, match="already used a Brute"):
        fam.apply(s, 0, Brute(the(s, "hand0", "B2"), the(s, "street", "F1"), 1))
    with pytest.raises(IllegalAction, match="Accountant phase is over"):
        fam.apply(s, 0, Accountant(the(s, "hand0", "A1")))


def test_brute_reduction_lasts_this_turn_only_and_may_be_wasted_d_fam_4():
    s = deal(hands=[["B2", "A1", "A1"], ["F0", "M0"]], street=("F2", "A2", "B3", "M1", "F1", "A3"))
    f2, a2 = the(s, "street", "F2"), the(s, "street", "A2")
    s, _ = act(s, 0, Brute(the(s, "hand0", "B2"), f2, 2))
    s, _ = act(s, 0, TakePair(a2, *ids(s, "hand0", "A1", "A1")))  # another card: allowed
    assert s.turn == 1 and s.effective_value(f2) == 2 and s.brute is None
    assert TakeFree(f2) not in fam.legal_actions(s, 1)
    assert next(c for c in fam.view(s, 1)["street"] if c["id"] == f2)["effective"] == 2


# ---------------------------------------------------------------------------------------
# Phase 4: recruit or pass (§1.5 phase 4, D-FAM-5, D-FAM-6, D-FAM-14)


def test_take_free_a_zero():
    s = deal(street=("B0", "F1", "A2", "M3", "F2", "A3"))
    b0 = the(s, "street", "B0")
    s, ev = act(s, 0, TakeFree(b0))
    assert b0 in s.hands[0] and b0 not in s.street
    assert ev[0].type == "recruit" and ev[0].data["card"]["code"] == "B0" and ev[0].data["to_gang"] is None
    assert s.turn == 1 and s.passes == 0


def test_worked_example_accountant_3_recruited_with_two_accountant_2s():
    """Seeds 000/002: two Accountant 2s recruit the street's Accountant 3; one of them goes
    to the gang, the other back to the hand."""
    s = deal(hands=[["A2", "A2", "F0"], ["F0"]], street=NO_ZERO_STREET)
    a3 = the(s, "street", "A3")
    x, y = ids(s, "hand0", "A2", "A2")
    s, ev = act(s, 0, TakePair(a3, x, y))
    assert codes(s.hands[0]) == Counter(["A3", "A2", "F0"]) and s.gangs[0] == [x]
    assert y in s.hands[0]
    assert ev[0].data["mode"] == "pair" and ev[0].data["effective"] == 3
    assert ev[0].data["to_gang"]["id"] == x and ev[0].secret == {"kept": fam.card(y).to_dict()}


def test_worked_example_famiglia_3_with_a_famiglia_2_and_a_mercenary_3_joker():
    """Seeds 000/002: a Famiglia 2 and a Mercenary 3 (joker for 0, 1 or 2) recruit a
    Famiglia 3; either card may go back to the hand."""
    s = deal(hands=[["F2", "M3", "B0"], ["F0"]], street=("F3", "A1", "B3", "M1", "F1", "A3"))
    f3, f2, m3 = the(s, "street", "F3"), the(s, "hand0", "F2"), the(s, "hand0", "M3")
    legal = fam.legal_actions(s, 0)
    assert TakePair(f3, f2, m3) in legal and TakePair(f3, m3, f2) in legal
    kept_joker, _ = act(s, 0, TakePair(f3, f2, m3))
    assert codes(kept_joker.hands[0]) == Counter(["F3", "M3", "B0"]) and kept_joker.gangs[0] == [f2]
    kept_real, _ = act(s, 0, TakePair(f3, m3, f2))
    assert codes(kept_real.hands[0]) == Counter(["F3", "F2", "B0"]) and kept_real.gangs[0] == [m3]


@pytest.mark.parametrize("hand,target,ok", [
    (["F2", "M3"], "F3", True),
    (["F2", "M4"], "F3", True),
    (["F2", "M2"], "F3", False),  # D-FAM-5: a joker stands for a strictly lower value
    (["M3", "M4"], "F3", False),  # two jokers, no real card
    (["F1", "M3"], "F3", False),  # the real card must be exactly one lower
    (["F2", "A2"], "F3", False),  # the second card of another family is no joker
    (["F2", "F2"], "F3", True),
    (["M0", "M2"], "M1", True),  # a Mercenary is the real card, another the joker [src F1]
    (["M1", "M2"], "M1", False),  # neither is one lower
    (["M2", "M2"], "M3", True),
    (["B0", "M1"], "B1", True),
])
def test_pair_rules(hand, target, ok):
    s = deal(hands=[hand, ["F0"]], street=(target, "F1", "A2", "B3", "A3", "B2")[:6])
    t = the(s, "street", target)
    x, y = ids(s, "hand0", *hand)
    for to_gang, keep in ((x, y), (y, x)):
        action = TakePair(t, to_gang, keep)
        assert (action in fam.legal_actions(s, 0)) is ok
        if ok:
            fam.apply(s, 0, action)
        else:
            with pytest.raises(IllegalAction):
                fam.apply(s, 0, action)


def test_pair_cards_must_be_two_different_hand_cards():
    s = deal(hands=[["F2", "M3"], ["F0"]], gangs=[["F2"], []], street=("F3", "F1", "A2", "B3", "A3", "B2"))
    f3 = the(s, "street", "F3")
    with pytest.raises(IllegalAction, match="not in your hand"):
        fam.apply(s, 0, TakePair(f3, the(s, "gang0", "F2"), the(s, "hand0", "M3")))
    with pytest.raises(IllegalAction, match="two different cards"):
        fam.apply(s, 0, TakePair(f3, the(s, "hand0", "F2"), the(s, "hand0", "F2")))


def test_a_zero_is_taken_free_not_with_a_pair():
    s = deal(hands=[["M1", "M2"], ["F0"]], street=("M0", "F1", "A2", "B3", "A3", "B2"))
    with pytest.raises(IllegalAction, match="take it for free"):
        fam.apply(s, 0, TakePair(the(s, "street", "M0"), *ids(s, "hand0", "M1", "M2")))


def test_legal_takes_are_exactly_the_valid_ones():
    s = deal(hands=[["F0", "F0", "M2", "A1"], ["F0"]], street=("F1", "A2", "M1", "B0", "F2", "A3"))
    takes = {(a.TYPE, fam.card(a.card).code, fam.card(getattr(a, "to_gang", a.card)).code,
              fam.card(getattr(a, "keep", a.card)).code)
             for a in fam.legal_actions(s, 0) if a.TYPE.startswith("take")}
    assert takes == {
        ("take_free", "B0", "B0", "B0"),
        ("take_pair", "F1", "F0", "F0"),
        ("take_pair", "F1", "F0", "M2"),
        ("take_pair", "F1", "M2", "F0"),
        ("take_pair", "A2", "A1", "M2"),
        ("take_pair", "A2", "M2", "A1"),
    }


# ---------------------------------------------------------------------------------------
# Passes (§1.5 phase 4 (c), D-FAM-13) and the street refill (§1.5, D-FAM-10)


def test_two_passes_in_a_row_end_the_match_even_after_phases_1_to_3():
    s = deal(hands=[["F0", "B1"], ["A0", "B2"]], street=NO_ZERO_STREET, deck=["F3", "A1"])
    s, _ = act(s, 0, Renew(the(s, "street", "F1")), Pass())  # a turn without a take is a pass
    assert not fam.is_over(s) and s.passes == 1
    s, ev = act(s, 1, Brute(the(s, "hand1", "B2"), the(s, "street", "A3"), 1), Pass())
    assert fam.is_over(s) and types(ev)[-1] == "game_over"
    assert ev[-1].data["reason"] == "passes" and fam.scores(s)["reason"] == "passes"
    assert fam.legal_actions(s, 0) == fam.legal_actions(s, 1) == [] and fam.awaiting(s) == frozenset()
    with pytest.raises(IllegalAction, match="over"):
        fam.apply(s, 0, Pass())


def test_a_take_resets_the_pass_count():
    s = deal(street=("B0", "F0", "A2", "M3", "F2", "A3"))
    s, _ = act(s, 0, Pass())
    s, _ = act(s, 1, TakeFree(the(s, "street", "B0")))
    assert s.passes == 0
    s, _ = act(s, 0, Pass())
    assert not fam.is_over(s) and s.passes == 1


def test_empty_street_is_refilled_with_six_cards_at_the_end_of_the_turn():
    s = layout(hands=[["F0"], ["A0"]], street=["B0"], deck=["F1", "F2", "F3", "A1", "A2", "A3", "B1"],
               rest="deck")
    s, ev = act(s, 0, TakeFree(the(s, "street", "B0")))
    assert codes(s.street) == Counter(["F1", "F2", "F3", "A1", "A2", "A3"])
    assert types(ev) == ["recruit", "refill"] + ["street_draw"] * 6 + ["turn"]
    assert ev[1].data == {"seat": 0, "count": 6}
    assert {e.data["reason"] for e in ev if e.type == "street_draw"} == {"refill"}


def test_a_refill_that_runs_out_the_deck_reshuffles_and_goes_on():
    s = layout(hands=[["F0"], ["A0"]], street=["B0"], deck=["F1", "F2"], discard=["A1", "A2", "A3", "A4", "B4"],
               rest="gang1")
    s, ev = act(s, 0, TakeFree(the(s, "street", "B0")))
    assert types(ev) == ["recruit", "refill", "street_draw", "street_draw", "reshuffle"] + ["street_draw"] * 4 + ["turn"]
    assert ev[1].data["count"] == 6 and len(s.street) == 6 and s.exhaustion == 1 and len(s.deck) == 1


# ---------------------------------------------------------------------------------------
# §1.4 exhaustion and §1.6 end timing (D-FAM-8, D-FAM-11)

END_STREET = ("F3", "A2", "B2", "M1", "A1", "B1")


def test_end_timing_renew_by_the_starting_player():
    """Seed 000's example: a 3 put under a 2-card deck, all three cards drawn; the second
    player still gets his turn (equal turns)."""
    s = layout(hands=[["F0"], ["A0"]], street=END_STREET, deck=["B0", "M2"], exhaustion=1)
    f3 = the(s, "street", "F3")
    s, ev = act(s, 0, Renew(f3))
    assert [e.data["card"]["code"] for e in ev if e.type == "street_draw"] == ["B0", "M2", "F3"]
    assert s.deck == [] and s.exhaustion == 2 and s.last_turn == 2
    assert ev[-1].type == "end_triggered" and ev[-1].data["during"] == "renew"
    s, _ = act(s, 0, TakeFree(the(s, "street", "B0")))
    assert not fam.is_over(s) and s.turn == 1
    s, ev = act(s, 1, Pass())
    assert fam.is_over(s) and ev[-1].data["reason"] == "deck"


def test_end_timing_renew_by_the_second_player():
    """Seed 002's example: the match ends with this turn."""
    s = layout(hands=[["F0"], ["A0"]], street=END_STREET, deck=["B0", "M2"], exhaustion=1, turn_no=2)
    assert s.turn == 1
    s, _ = act(s, 1, Renew(the(s, "street", "F3")))
    assert s.last_turn == 2
    s, ev = act(s, 1, TakeFree(the(s, "street", "B0")))
    assert fam.is_over(s) and ev[-1].type == "game_over" and ev[-1].data["reason"] == "deck"


def test_end_timing_refill_by_the_starting_player():
    s = layout(hands=[["F0"], ["A0"]], street=["B0"], deck=["F1", "A1", "M1"], exhaustion=1)
    s, ev = act(s, 0, TakeFree(the(s, "street", "B0")))
    assert s.last_turn == 2 and s.end_during == "refill" and len(s.street) == 3
    assert "end_triggered" in types(ev) and s.turn == 1
    s, ev = act(s, 1, Pass())
    assert fam.is_over(s) and fam.scores(s)["reason"] == "deck"


def test_end_timing_refill_by_the_second_player_gives_one_more_round():
    s = layout(hands=[["F0"], ["A0"]], street=["B0"], deck=["F0", "A0", "M0"], exhaustion=1, turn_no=2)
    s, _ = act(s, 1, TakeFree(the(s, "street", "B0")))
    assert s.last_turn == 4 and s.end_during == "refill"
    s, _ = act(s, 0, TakeFree(the(s, "street", "F0")))
    assert not fam.is_over(s) and s.turn == 1 and s.turn_no == 4
    s, ev = act(s, 1, TakeFree(the(s, "street", "A0")))
    assert fam.is_over(s) and ev[-1].data["reason"] == "deck"
    assert len(s.street) == 1  # M0 left: the match ends on schedule, not on an empty street


def test_two_passes_override_the_end_schedule():
    s = layout(hands=[["F0"], ["A0"]], street=END_STREET, deck=["B0", "M2"], exhaustion=1)
    s.passes = 1  # the previous turn was a pass
    s, ev = act(s, 0, Renew(the(s, "street", "F3")), Pass())
    assert s.last_turn == 2 and fam.is_over(s) and s.turn_no == 1
    assert ev[-1].data["reason"] == "passes"


def test_first_exhaustion_with_an_empty_discard_pile_is_the_end_d_fam_8():
    s = layout(hands=[["F0"], ["A0"]], street=["B0"], deck=["F1", "M1"], exhaustion=0)
    assert s.discard == []
    s, ev = act(s, 0, TakeFree(the(s, "street", "B0")))
    assert s.exhaustion == 2 and s.last_turn == 2 and "reshuffle" not in types(ev)


def test_exhaustion_is_detected_when_the_last_card_leaves_the_deck_d_fam_8():
    s = layout(hands=[["F0"], ["A0"]], street=NO_ZERO_STREET, deck=["B1", "M2"], discard=["F4"])
    s, ev = act(s, 0, Renew(the(s, "street", "A2")))  # draws exactly the whole deck
    assert types(ev) == ["renew", "street_draw", "street_draw", "reshuffle"]
    assert s.exhaustion == 1 and codes(s.deck) == Counter(["F4", "A2"])


def test_a_renew_after_the_reshuffle_may_draw_back_its_own_card():
    """Seed 000: a 3 put under a 2-card deck, then the three cards are drawn."""
    s = layout(hands=[["F0"], ["A0"]], street=("F3", "A2", "B2", "M1", "A1", "B1"), deck=["B1", "M1"],
               exhaustion=1)
    f3 = the(s, "street", "F3")
    s, ev = act(s, 0, Renew(f3))
    assert f3 in s.street and s.deck == [] and types(ev)[-1] == "end_triggered"


def test_phases_3_4_without_a_street_only_pass_d_fam_16():
    s = layout(hands=[["B2", "A1", "F0"], ["A0"]], gangs=[["M1"], []], street=[], exhaustion=2)
    s.last_turn = 3
    legal = fam.legal_actions(s, 0)
    assert {a.TYPE for a in legal} == {"accountant", "pass"}


# ---------------------------------------------------------------------------------------
# §1.7 scoring and tie-break (D-FAM-12)


def _finish(s):
    s, _ = act(s, s.turn, Pass())
    s, ev = act(s, s.turn, Pass())
    assert fam.is_over(s)
    return s, ev[-1]


def test_score_is_the_vp_of_hand_and_gang():
    s = layout(hands=[["F4", "A2"], ["M3"]], gangs=[["B1", "F0"], ["A4"]], street=["A0"], rest="deck")
    assert fam.scores(s)["scores"] == [15 + 3 + 1 + 1, 6 + 10]
    s, over = _finish(s)
    assert fam.scores(s) == {"scores": [20, 16], "winners": [0], "decided_by": "score", "reason": "passes"}
    assert over.data["scores"] == [20, 16] and over.data["winners"] == [0]


def test_tie_break_by_the_card_worth_most_vp():
    s = layout(hands=[["F3", "A2"], ["A4", "B1", "M1", "A1"]], street=["A0"], rest="deck")
    assert fam.scores(s)["scores"] == [13, 13]
    s, over = _finish(s)
    assert fam.scores(s)["winners"] == [0] and over.data["decided_by"] == "vp"


def test_tie_break_next_cards_when_the_best_are_equal():
    s = layout(hands=[["A4", "B2", "M0"], ["B4", "M1", "A1", "F0"]], street=["A0"], rest="deck")
    assert fam.scores(s)["scores"] == [13, 13]
    s, _ = _finish(s)
    assert fam.scores(s)["winners"] == [0]  # [10, 3, 0] beats [10, 1, 1, 1]


def test_tie_break_by_printed_values_when_vp_lists_are_equal():
    s = layout(hands=[["F1"], ["A2"]], street=["A0"], rest="deck")  # 3 VP each
    s, over = _finish(s)
    assert fam.scores(s)["winners"] == [1] and over.data["decided_by"] == "values"


def test_identical_lists_are_a_draw():
    s = layout(hands=[["A2", "M0"], ["B2", "A0"]], street=["F0"], rest="deck")
    s, over = _finish(s)
    assert fam.scores(s)["winners"] == [0, 1] and over.data["decided_by"] == "draw"


def test_tie_break_an_extra_card_beats_no_card():
    s = layout(hands=[["A2"], ["B2", "A0"]], street=["F0"], rest="deck")
    s, over = _finish(s)
    assert fam.scores(s)["winners"] == [1] and over.data["decided_by"] == "vp"


# ---------------------------------------------------------------------------------------
# Hidden information (D-FAM-2) and the view


def test_view_hides_the_opponent_hand_and_the_deck():
    s = deal(hands=[["F2", "M3", "B0"], ["A1", "A1"]], street=("F3", "A1", "B3", "M1", "F1", "A3"))
    v0, v1, spec = fam.view(s, 0), fam.view(s, 1), fam.view(s, None)
    assert codes(c["id"] for c in v0["players"][0]["hand"]) == Counter(["F2", "M3", "B0"])
    assert v0["players"][1]["hand"] is None and v0["players"][1]["hand_count"] == 2
    assert v1["players"][0]["hand"] is None and v1["players"][0]["hand_count"] == 3
    assert spec["seat"] is None and all(p["hand"] is None for p in spec["players"])
    assert v0["deck"] == len(s.deck) and "deck_cards" not in v0
    assert [c["code"] for c in spec["street"]] == ["F3", "A1", "B3", "M1", "F1", "A3"]
    assert [c["effective"] for c in spec["street"]] == [3, 1, 3, 1, 1, 3]
    assert spec["players"][0]["score"] == 6 + 6 + 0


def test_the_card_kept_after_a_pair_is_told_to_its_owner_only():
    s = deal(hands=[["F2", "M3", "B0"], ["F0"]], street=("F3", "A1", "B3", "M1", "F1", "A3"))
    f3, f2, m3 = the(s, "street", "F3"), the(s, "hand0", "F2"), the(s, "hand0", "M3")
    s, ev = act(s, 0, TakePair(f3, f2, m3))
    mine, theirs, spec = events_for(ev, 0), events_for(ev, 1), events_for(ev, None)
    assert mine[0]["kept"]["id"] == m3
    assert "kept" not in theirs[0] and "kept" not in spec[0]
    assert theirs[0]["card"]["id"] == f3 and theirs[0]["to_gang"]["id"] == f2


def test_hands_are_revealed_when_the_match_is_over():
    s = layout(hands=[["F2"], ["A1"]], street=["A0"], rest="deck")
    s, over = _finish(s)
    spec = fam.view(s, None)
    assert [[c["code"] for c in p["hand"]] for p in spec["players"]] == [["F2"], ["A1"]]
    assert [[c["code"] for c in h] for h in over.data["hands"]] == [["F2"], ["A1"]]
    assert spec["result"]["winners"] == [0]


def test_view_is_json_ready():
    import json
    s = deal(hands=[["B2", "A1", "F0"], ["F0"]], gangs=[["M1"], []], street=NO_ZERO_STREET)
    s, _ = act(s, 0, Accountant(the(s, "hand0", "A1")), Swap(the(s, "gang0", "M1"), the(s, "hand0", "F0")),
               Brute(the(s, "hand0", "B2"), the(s, "street", "A3"), 2))
    for seat in (0, 1, None):
        v = fam.view(s, seat)
        assert json.loads(json.dumps(v)) == v
    v = fam.view(s, 1)
    assert v["accountant"]["swaps"] == 1 and v["brute"]["amount"] == 2 and v["step"] == 3
