"""Every Omerta character (RULES.md §2.6) and the Hitwoman counter window (§2.6.7)."""
from __future__ import annotations

from collections import Counter

import pytest

from shared.games import omerta as om
from shared.rules import IllegalAction, events_for
from tests.omerta_helpers import act, codes, deal, first, pass_window, slot, types

HANDS = [["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]]


def discarded(name: str, hands=HANDS, pile=(), **config):
    """Seat 0 draws ``name`` and discards it: its power is waiting for a choice."""
    s = deal(hands, pile=[name, *pile], **config)
    s, _ = act(s, 0, om.DrawDeck(), om.DiscardDrawn())
    assert s.step == "power" and s.power == name
    return s


# -- Henchman ------------------------------------------------------------------------------

def test_henchman_swaps_own_card_with_another_players_card_unseen():
    s = discarded("henchman")
    s, ev = om.apply(s, 0, om.Henchman((slot(0, 3), slot(1, 0))))
    w = om.reaction_window(s)
    assert w.kind == "hitwoman" and w.eligible == {1}  # owners other than A (§2.6.1)
    s = pass_window(s)
    assert codes(s, 0) == ["1", "2", "3", "5"] and codes(s, 1) == ["4", "6", "7", "8"]
    assert s.turn == 1


def test_henchman_between_two_other_players():
    s = discarded("henchman")
    s, _ = om.apply(s, 0, om.Henchman((slot(1, 0), slot(2, 1))))
    assert om.reaction_window(s).eligible == {1, 2}
    s = pass_window(s)
    assert codes(s, 1)[0] == "10" and codes(s, 2)[1] == "5"


def test_henchman_refuses_same_owner_and_patrolled_slots():
    s = discarded("henchman")
    with pytest.raises(IllegalAction, match="two different players"):
        om.apply(s, 0, om.Henchman((slot(1, 0), slot(1, 1))))
    s.patrol[slot(1, 0)] = (2, 2, 59, 1)
    with pytest.raises(IllegalAction, match="Police Patrol"):
        om.apply(s, 0, om.Henchman((slot(0, 0), slot(1, 0))))
    assert all(slot(1, 0) not in a.slots for a in om.legal_actions(s, 0) if isinstance(a, om.Henchman))


def test_henchman_may_target_a_player_under_mamma_who_cannot_counter():
    """D-OM-10, D-OM-16."""
    s = discarded("henchman")
    s.mamma[1] = (2, 1, 58)
    s, ev = om.apply(s, 0, om.Henchman((slot(0, 0), slot(1, 0))))
    assert om.reaction_window(s) is None and codes(s, 1)[0] == "1"


# -- Lady ------------------------------------------------------------------------------------

def test_lady_shuffles_only_the_free_slots_of_the_target():
    """§2.6.2, D-OM-11: the patrolled slot keeps its card."""
    hands = [["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]]
    changed = False
    for seed_pile in (["lady", "1"], ["lady", "2"], ["lady", "3"]):
        s = deal(hands, pile=seed_pile)
        s.patrol[slot(1, 2)] = (2, 2, 59, 1)
        s, _ = act(s, 0, om.DrawDeck(), om.DiscardDrawn(), om.Lady(1))
        s = pass_window(s)
        assert codes(s, 1)[2] == "7"
        assert Counter(codes(s, 1)) == Counter(["5", "6", "7", "8"])
        changed |= codes(s, 1) != ["5", "6", "7", "8"]
    assert changed


def test_lady_cannot_target_self_or_a_player_under_mamma():
    s = discarded("lady")
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.Lady(0))
    s.mamma[2] = (1, 1, 58)
    with pytest.raises(IllegalAction, match="Mamma"):
        om.apply(s, 0, om.Lady(2))
    assert [a.target for a in om.legal_actions(s, 0) if isinstance(a, om.Lady)] == [1]


# -- Mole ------------------------------------------------------------------------------------

def test_mole_is_a_private_look_at_an_own_free_slot():
    s = discarded("mole")
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.Mole(slot(1, 0)))
    s2, ev = om.apply(s, 0, om.Mole(slot(0, 3)))
    look = first(ev, "look")
    assert look.secret == {"cards": [om.DECK[s.games[0][3][1]].to_dict()]} and look.secret_to == 0
    assert "cards" not in [e for e in events_for(ev, 1) if e["type"] == "look"][0]
    s.patrol[slot(0, 3)] = (1, 2, 59, 0)
    with pytest.raises(IllegalAction, match="Police Patrol"):  # D-OM-12
        om.apply(s, 0, om.Mole(slot(0, 3)))


# -- Snitch ----------------------------------------------------------------------------------

def test_snitch_gives_two_cards_to_one_player_unseen():
    s = discarded("snitch", pile=["10", "9"])
    s, ev = om.apply(s, 0, om.Snitch((2, 2)))
    assert om.reaction_window(s).eligible == {2}
    s = pass_window(s)
    assert codes(s, 2)[4:] == ["10", "9"]
    assert all(e.secret is None for e in ev)


def test_snitch_gives_one_card_each_to_two_players():
    s = discarded("snitch", pile=["10", "9"])
    s, _ = om.apply(s, 0, om.Snitch((2, 1)))
    s = pass_window(s)
    assert codes(s, 2)[-1] == "10" and codes(s, 1)[-1] == "9"  # in the order named (§2.6.4)


def test_snitch_recipients_are_ordered_when_the_piles_run_out():
    """RULES.md §2.6.4, D-OM-8: with one card left, the first recipient named gets it."""
    for recipients, lucky in (((2, 1), 2), ((1, 2), 1)):
        s = discarded("snitch")
        s.draw_pile = s.draw_pile[-1:]
        s.discard = []
        s, _ = om.apply(s, 0, om.Snitch(recipients))
        s = pass_window(s)
        assert [len(g) for g in s.games[1:3]] == [5 if p == lucky else 4 for p in (1, 2)]


def test_snitch_offers_both_orders():
    s = discarded("snitch")
    legal = {a.recipients for a in om.legal_actions(s, 0) if isinstance(a, om.Snitch)}
    assert (1, 2) in legal and (2, 1) in legal and (1, 1) in legal


def test_snitch_refuses_self_and_mamma_and_gives_what_is_left():
    s = discarded("snitch")
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.Snitch((0, 1)))
    s.mamma[1] = (2, 1, 58)
    with pytest.raises(IllegalAction, match="Mamma"):
        om.apply(s, 0, om.Snitch((1, 2)))
    s.draw_pile = s.draw_pile[-1:]
    s.discard = []
    s, ev = om.apply(s, 0, om.Snitch((2, 2)))
    s = pass_window(s)
    assert len(s.games[2]) == 5  # D-OM-8: as many as possible


# -- Driver ----------------------------------------------------------------------------------

def test_driver_discards_own_bottles_without_snap_window():
    s = discarded("driver")
    s, ev = om.apply(s, 0, om.Driver((slot(0, 1), slot(0, 3))))
    assert codes(s, 0) == ["1", "3"] and "window_opened" not in types(ev)  # D-OM-14
    assert [om.DECK[c].code for c in s.discard[-2:]] == ["2", "4"]
    assert s.turn == 1


def test_driver_with_a_character_returns_all_and_costs_one_penalty():
    hands = [["1", "witness", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]]
    s = discarded("driver", hands=hands)
    s, ev = om.apply(s, 0, om.Driver((slot(0, 0), slot(0, 1))))
    driver = first(ev, "driver").data
    assert not driver["success"] and [c["name"] for c in driver["cards"]] == ["bottle", "witness"]
    assert codes(s, 0)[:4] == ["1", "witness", "3", "4"] and len(s.games[0]) == 5
    assert types(ev).count("penalty") == 1


# -- Safecracker -----------------------------------------------------------------------------

def test_safecracker_look_then_swap():
    s = discarded("safecracker")
    safe = list(s.safe)
    s, ev = om.apply(s, 0, om.Safecracker())
    look = first(ev, "look")
    assert look.secret_to == 0 and [c["id"] for c in look.secret["cards"]] == safe
    assert om.view(s, 0)["safe_cards"] is not None and om.view(s, 1)["safe_cards"] is None
    mine = s.games[0][2][1]
    s, ev = om.apply(s, 0, om.SafeSwap(slot(0, 2), 1))
    assert s.games[0][2][1] == safe[1] and s.safe[1] == mine
    assert first(ev, "safe_swap").secret == {"card": om.DECK[safe[1]].to_dict()}
    assert s.turn == 1


def test_safecracker_swap_is_optional():
    s = discarded("safecracker")
    safe = list(s.safe)
    s, _ = act(s, 0, om.Safecracker(), om.Decline())
    assert s.safe == safe and s.turn == 1


# -- Hitwoman --------------------------------------------------------------------------------

def test_hitwoman_cancels_the_whole_attack():
    """§2.6.7, D-OM-16: the Hitwoman goes to the discard pile, the attack is void."""
    hands = [["1", "2", "3", "4"], ["5", "hitwoman", "7", "8"], ["9", "10", "1", "2"]]
    s = discarded("snitch", hands=hands, pile=["10", "9"])
    s, _ = om.apply(s, 0, om.Snitch((1, 2)))
    assert om.reaction_window(s).eligible == {1, 2}
    s, ev = om.apply(s, 1, om.Hitwoman(slot(1, 1)))
    assert first(ev, "counter").data["success"]
    assert codes(s, 1) == ["5", "7", "8"] and len(s.games[2]) == 4
    assert [om.DECK[c].code for c in s.discard[-2:]] == ["snitch", "hitwoman"]
    assert om.reaction_window(s) is None and s.turn == 1


def test_wrong_hitwoman_costs_a_penalty_and_the_window_stays_open():
    hands = [["1", "2", "3", "4"], ["5", "hitwoman", "7", "8"], ["9", "10", "1", "2"]]
    s = discarded("snitch", hands=hands, pile=["10", "9", "6"])
    s, _ = om.apply(s, 0, om.Snitch((1, 2)))
    s, ev = om.apply(s, 2, om.Hitwoman(slot(2, 0)))
    assert not first(ev, "counter").data["success"] and codes(s, 2)[-1] == "10"
    assert om.reaction_window(s).pending == {1}
    s, _ = om.apply(s, 1, om.HitwomanPass())
    assert codes(s, 1)[-1] == "9" and codes(s, 2)[-1] == "6"  # the attack resolves


def test_only_targets_may_counter_and_not_when_under_mamma():
    s = discarded("lady")
    s, _ = om.apply(s, 0, om.Lady(1))
    with pytest.raises(IllegalAction, match="may not claim"):
        om.apply(s, 2, om.Hitwoman(slot(2, 0)))
    assert om.legal_actions(s, 2) == []


def test_countered_mamma_goes_to_the_discard_under_the_hitwoman():
    """D-OM-26."""
    hands = [["1", "2", "3", "4"], ["5", "hitwoman", "7", "8"], ["9", "10", "1", "2"]]
    s = discarded("mamma", hands=hands)
    s, _ = om.apply(s, 0, om.Mamma(1))
    assert om.view(s, 2)["attack_card"]["name"] == "mamma"
    s, _ = om.apply(s, 1, om.Hitwoman(slot(1, 1)))
    assert [om.DECK[c].code for c in s.discard[-2:]] == ["mamma", "hitwoman"]
    assert s.mamma == {} and s.attack_card is None


# -- Mamma -----------------------------------------------------------------------------------

def test_mamma_skips_one_turn_and_is_removed_after_the_placers_next_draw():
    """§2.6.8, D-OM-17."""
    s = discarded("mamma", pile=["6", "6", "5", "5"])
    s, _ = om.apply(s, 0, om.Mamma(1))
    s = pass_window(s)
    assert 1 in s.mamma and s.turn == 2  # seat 1's turn was skipped
    s, _ = act(s, 2, om.DrawDeck(), om.DiscardDrawn())
    s = pass_window(s)
    assert s.turn == 0 and 1 in s.mamma
    s, ev = om.apply(s, 0, om.DrawDeck())
    assert 1 not in s.mamma and first(ev, "marker_removed").data["kind"] == "mamma"
    assert om.DECK[s.discard[-1]].code == "mamma"  # after the draw: cannot be taken back
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.TakeDiscard())


def test_mamma_target_cannot_snap_declare_or_be_targeted_twice():
    s = discarded("mamma", pile=["10", "9"])
    s, _ = om.apply(s, 0, om.Mamma(2))
    s = pass_window(s)
    s, _ = act(s, 1, om.DrawDeck(), om.DiscardDrawn())
    assert 2 not in om.reaction_window(s).eligible
    s = pass_window(s)
    assert s.turn == 0  # seat 2 skipped
    s2 = deal(HANDS, pile=["mamma"])
    s2.mamma[1] = (2, 1, 57)
    s2, _ = act(s2, 0, om.DrawDeck(), om.DiscardDrawn())
    with pytest.raises(IllegalAction, match="already"):
        om.apply(s2, 0, om.Mamma(1))


def test_marker_expiry_counts_a_skipped_turn_of_the_placer():
    """D-OM-31: seat 1 placed a Patrol and is then skipped by a Mamma."""
    s = deal(HANDS, pile=["10", "9", "8", "7"])
    s.patrol[slot(2, 0)] = (1, 1, 59, 2)  # one placer turn left
    s.mamma[1] = (0, 2, 58)
    s, _ = act(s, 0, om.DrawDeck(), om.DiscardDrawn())
    s, ev = act(s, None, om.timeout_action(om.reaction_window(s)))
    assert "turn_skipped" in types(ev) and slot(2, 0) not in s.patrol
    assert first(ev, "marker_removed").data["kind"] == "police_patrol"


# -- Police Patrol ---------------------------------------------------------------------------

def test_patrol_blocks_a_slot_for_two_placer_turns():
    """§2.6.9, D-OM-18: removed at the placer's second next turn, after his draw."""
    s = discarded("police_patrol", pile=["6", "6", "5", "5", "8", "8", "4", "4"])
    s, _ = om.apply(s, 0, om.PolicePatrol(slot(1, 2)))
    s = pass_window(s)
    assert s.patrol[slot(1, 2)][:2] == (0, 2)
    v = om.view(s, 1)
    assert [sl["patrol"] for sl in v["players"][1]["slots"]] == [None, None, 0, None]
    # the target cannot declare, replace or snap that card
    assert om.DeclareOmerta() not in om.legal_actions(s, 1)
    s, _ = om.apply(s, 1, om.DrawDeck())
    with pytest.raises(IllegalAction, match="Police Patrol"):
        om.apply(s, 1, om.Replace(slot(1, 2)))
    turns_of_0 = 0
    while slot(1, 2) in s.patrol:
        if s.step == "drawn":
            s, _ = om.apply(s, s.turn, om.DiscardDrawn())
        elif om.reaction_window(s):
            s = pass_window(s)
        else:
            turns_of_0 += s.turn == 0
            s, _ = om.apply(s, s.turn, om.DrawDeck())
    assert turns_of_0 == 2 and s.turn == 0


def test_patrol_cannot_target_self_or_a_marked_slot():
    s = discarded("police_patrol")
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.PolicePatrol(slot(0, 0)))
    s.patrol[slot(1, 0)] = (2, 2, 59, 1)
    with pytest.raises(IllegalAction, match="marker"):
        om.apply(s, 0, om.PolicePatrol(slot(1, 0)))


def test_player_whose_only_card_is_patrolled_draws_and_discards():
    """§2.6.9 "draw a card and discard it directly", D-OM-9."""
    s = deal(HANDS, pile=["10", "9"])
    s.games[1] = s.games[1][:1]
    s.patrol[slot(1, 0)] = (0, 2, 59, 1)
    s, _ = act(s, 0, om.DrawDeck(), om.DiscardDrawn())
    s = pass_window(s)
    s, _ = om.apply(s, 1, om.DrawDeck())
    assert om.legal_actions(s, 1) == [om.DiscardDrawn()]
    s.discard.append(s.draw_pile.pop())
    assert om.TakeDiscard() not in om.legal_actions(s, 1)
