"""Mafiosi trick play (RULES.md §4.4): legal play, the ace and Queen-then-Jack duties,
the Joker as an excuse, personal trumps and the trick winner (D-MAF-3, 5-8, 18)."""
from __future__ import annotations

import copy

import pytest

from shared.games import mafiosi as maf
from shared.rules import IllegalAction
from tests.mafiosi_helpers import first, play, staged

C = maf.card_id
BOUNCERS = ["2H", "2S", "2C"]  # clans: seat 0 hearts, seat 1 spades, seat 2 clubs


def legal_codes(s, seat):
    return {maf.DECK[a.card].code for a in maf.legal_actions(s, seat)}


def test_leader_plays_anything_and_there_is_no_duty_to_follow():
    s = staged(BOUNCERS, [["5D", "KH", "JK1"], ["6D", "3S", "QC"], ["7D", "4C", "9H"]])
    assert legal_codes(s, 0) == {"5D", "KH", "JK1"}
    s, _ = play(s, (0, "5D"))
    assert legal_codes(s, 1) == {"6D", "3S", "QC"}
    assert maf.illegal_reasons(s, 1) == {}
    assert set(maf.illegal_reasons(s, 0).values()) == {"it is not your turn"}


def test_ace_forces_its_suit_on_those_who_hold_it():
    s = staged(BOUNCERS, [["AD", "KH"], ["6D", "3S", "JK1"], ["4C", "9H"]])
    s, ev = play(s, (0, "AD"))
    assert s.ace_suit == "diamonds"
    assert legal_codes(s, 1) == {"6D", "JK1"}
    reason = "an ace of diamonds was played: play a diamond (or a Joker)"
    assert maf.why_illegal(s, 1, C("3S")) == reason
    assert maf.illegal_reasons(s, 1) == {C("3S"): reason}
    hand = {c["code"]: c for c in maf.view(s, 1)["hand"]}
    assert hand["3S"]["playable"] is False and hand["3S"]["reason"] == reason
    assert hand["6D"]["playable"] is True and hand["6D"]["reason"] is None
    with pytest.raises(IllegalAction, match="play a diamond"):
        maf.apply(s, 1, maf.PlayCard(C("3S")))
    s, _ = play(s, (1, "6D"))
    assert legal_codes(s, 2) == {"4C", "9H"}  # void in diamonds: free


def test_joker_is_always_legal_over_a_duty_and_never_wins():
    s = staged(BOUNCERS, [["AD", "KH"], ["6D", "JK1"], ["3D", "9H"]])
    s, ev = play(s, (0, "AD"), (1, "JK1"), (2, "3D"))
    won = first(ev, "trick_won").data
    assert won["seat"] == 2  # 3D beats the ace; the Joker never wins
    assert sorted(c["code"] for c in won["cards"]) == ["3D", "AD", "JK1"]
    assert maf.card_id("JK1") in s.won[2]  # the Joker goes with the trick (D-MAF-7)
    assert s.turn == 2 and s.trick_no == 2


def test_joker_can_be_led_and_does_not_set_a_duty():
    s = staged(BOUNCERS, [["JK1", "KH"], ["6D", "3S"], ["4D", "9H"]])
    s, ev = play(s, (0, "JK1"), (1, "3S"))
    assert s.ace_suit is None and not s.jack_needed
    s, ev = play(s, (2, "4D"))
    assert first(ev, "trick_won").data["seat"] == 1  # 3S is a trump for spades


def test_queen_then_jack_duty_until_a_jack_is_played():
    s = staged(BOUNCERS, [["QD", "5H"], ["8D", "3S"], ["JC", "JD", "4C", "JK2"]], leader=0)
    s, _ = play(s, (0, "QD"))
    assert s.jack_needed
    assert legal_codes(s, 1) == {"8D", "3S"}  # no Jack: free
    s, _ = play(s, (1, "3S"))
    assert s.jack_needed  # the duty lasts until a Jack comes
    assert legal_codes(s, 2) == {"JC", "JD", "JK2"}  # any Jack, or the Joker
    assert maf.why_illegal(s, 2, C("4C")) == "a Queen was played and no Jack yet: play a Jack (or a Joker)"


def test_jack_played_ends_the_queen_duty():
    s = staged(BOUNCERS, [["QD", "5H"], ["JS", "3S"], ["JC", "4C"]], leader=0)
    s, _ = play(s, (0, "QD"), (1, "JS"))
    assert not s.jack_needed and legal_codes(s, 2) == {"JC", "4C"}


def test_queen_after_a_jack_creates_no_duty():
    s = staged(BOUNCERS, [["JD", "5H"], ["QS", "3S"], ["JC", "4C"]], leader=0)
    s, _ = play(s, (0, "JD"), (1, "QS"))
    assert not s.jack_needed and legal_codes(s, 2) == {"JC", "4C"}


def test_ace_after_a_queen_replaces_the_jack_duty():
    s = staged(BOUNCERS, [["QH", "5H"], ["AD", "3S"], ["JC", "5D", "4C"]], leader=0)
    s, _ = play(s, (0, "QH"))
    assert s.jack_needed
    s, _ = play(s, (1, "AD"))  # no Jack in hand, so the ace is legal
    assert s.ace_suit == "diamonds" and not s.jack_needed
    assert legal_codes(s, 2) == {"5D"}  # diamonds now, not a Jack


def test_ace_after_a_queen_needs_no_jack_holder_to_play_a_jack_later():
    s = staged(BOUNCERS, [["QH", "5H"], ["AD", "JS"], ["JC", "4C"]], leader=0)
    s, _ = play(s, (0, "QH"))
    assert legal_codes(s, 1) == {"JS"}  # holding a Jack: the ace is not allowed yet
    assert maf.why_illegal(s, 1, C("AD")).startswith("a Queen was played")


def test_second_ace_of_another_suit_changes_nothing():
    s = staged(BOUNCERS, [["AH", "5C"], ["AS", "3S"], ["4H", "9S", "KD"]], leader=0)
    s, _ = play(s, (0, "AH"), (1, "AS"))
    assert s.ace_suit == "hearts"
    assert legal_codes(s, 2) == {"4H"}


def test_ace_of_a_suit_one_does_not_hold_lets_the_player_play_freely_with_joker_too():
    s = staged(BOUNCERS, [["AH", "5C"], ["JK1", "3S"], ["4D", "9S"]], leader=0)
    s, _ = play(s, (0, "AH"))
    assert legal_codes(s, 1) == {"JK1", "3S"}


def test_ace_played_last_has_no_effect_on_the_next_trick():
    s = staged(BOUNCERS, [["5D", "6C"], ["3D", "7C"], ["AC", "8D"]], leader=0)
    s, ev = play(s, (0, "5D"), (1, "3D"), (2, "AC"))
    assert first(ev, "trick_won").data["seat"] == 2  # AC is a trump for clubs
    assert s.ace_suit is None and not s.jack_needed and s.turn == 2
    s, _ = play(s, (2, "8D"))
    assert legal_codes(s, 0) == {"6C"} and legal_codes(s, 0) == {"6C"}


def test_strongest_card_wins_without_trumps_ties_to_the_earlier_card():
    s = staged(BOUNCERS, [["KD", "5H"], ["KH", "3S"], ["9D", "4C"]], leader=1)
    s, ev = play(s, (1, "KH"), (2, "9D"), (0, "KD"))
    # KH is not a trump for seat 1 (spades), KD not for seat 0 (hearts): equal, first wins
    data = first(ev, "trick_won").data
    assert data["seat"] == 1 and data["trump"] is False


def test_any_trump_beats_every_non_trump():
    s = staged(BOUNCERS, [["KD", "5H"], ["3S", "9S"], ["QD", "4C"]], leader=0)
    s, ev = play(s, (0, "KD"), (1, "3S"), (2, "QD"))
    data = first(ev, "trick_won").data
    assert data["seat"] == 1 and data["trump"] is True


def test_trumps_are_personal_a_spade_is_no_trump_for_hearts():
    s = staged(BOUNCERS, [["9S", "5H"], ["3S", "8S"], ["QD", "4C"]], leader=0)
    s, ev = play(s, (0, "9S"), (1, "3S"), (2, "QD"))
    assert first(ev, "trick_won").data["seat"] == 1


def test_shared_clan_strongest_trump_wins_and_equal_trumps_go_to_the_first():
    s = staged(["2H", "3H", "2C"], [["5H", "8S"], ["9H", "3S"], ["4C", "5D"]], leader=0)
    s, ev = play(s, (0, "5H"), (1, "9H"), (2, "4C"))
    assert first(ev, "trick_won").data["seat"] == 1
    s = staged(BOUNCERS, [["7H", "8D"], ["7S", "3D"], ["7C", "5D"]], leader=2)
    s, ev = play(s, (2, "7C"), (0, "7H"), (1, "7S"))
    assert first(ev, "trick_won").data["seat"] == 2  # three equal trumps: the first


def test_won_cards_are_private_to_the_winner():
    s = staged(BOUNCERS, [["KD", "5H"], ["3S", "9S"], ["QD", "4C"]], leader=0)
    s, _ = play(s, (0, "KD"), (1, "3S"), (2, "QD"))
    mine = maf.view(s, 1)["players"][1]
    assert mine["won_count"] == 3 and sorted(c["code"] for c in mine["won"]) == ["3S", "KD", "QD"]
    for p in (0, 2, None):
        other = maf.view(s, p)["players"][1]
        assert other["won_count"] == 3 and other["won"] is None


def test_turn_order_and_wrong_moves():
    s = staged(BOUNCERS, [["KD", "5H"], ["3S", "9S"], ["QD", "4C"]], leader=0)
    with pytest.raises(IllegalAction, match="not your turn"):
        maf.apply(s, 1, maf.PlayCard(C("3S")))
    with pytest.raises(IllegalAction, match="not in your hand"):
        maf.apply(s, 0, maf.PlayCard(C("3S")))
    with pytest.raises(IllegalAction, match="play a card"):
        maf.apply(s, 0, maf.ChooseBouncer(C("KD")))
    with pytest.raises(IllegalAction, match="no such card"):
        maf.apply(s, 0, maf.PlayCard(99))
    with pytest.raises(IllegalAction, match="no such seat"):
        maf.apply(s, None, maf.PlayCard(C("KD")))
    s, _ = play(s, (0, "KD"))
    assert maf.awaiting(s) == frozenset({1}) and s.turn == 1


def test_apply_never_mutates_its_input():
    s = staged(BOUNCERS, [["QD", "5H"], ["JS", "3S"], ["JC", "4C"]], leader=0)
    before = copy.deepcopy(s.__dict__)
    before.pop("rng")
    rng_state = s.rng.getstate()
    t, _ = play(s, (0, "QD"), (1, "JS"), (2, "JC"))
    after = copy.deepcopy(s.__dict__)
    after.pop("rng")
    assert after == before and s.rng.getstate() == rng_state
    c = s.clone()
    for name, value in vars(s).items():
        if isinstance(value, (list, dict)) and value:
            assert getattr(c, name) is not value, name
