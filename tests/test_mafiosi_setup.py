"""Mafiosi deck, deal, hidden simultaneous bouncer choice, reveal and first leader
(RULES.md §4.1, §4.3, D-MAF-1, D-MAF-4)."""
from __future__ import annotations

import pytest

from shared.games import mafiosi as maf
from shared.rules import IllegalAction, events_for
from tests.mafiosi_helpers import deal, first, full_hands, hands_codes, ids, types


def test_deck_has_54_cards_with_codes_and_wire_form():
    assert len(maf.DECK) == 54
    assert sum(c.is_muscle for c in maf.DECK) == 40 and sum(c.is_joker for c in maf.DECK) == 2
    assert sum(c.is_face for c in maf.DECK) == 12
    assert maf.card_id("AH") == maf.card_id("1H") == 0 and maf.card_id("KC") == 51
    assert maf.DECK[maf.card_id("QD")].to_dict() == {
        "id": 24, "kind": "card", "rank": "Q", "suit": "diamonds", "strength": 12, "value": 0,
        "code": "QD"}
    assert maf.DECK[52].to_dict()["suit"] is None and maf.DECK[52].strength == 0
    assert [c.code for c in maf.DECK] == sorted({c.code for c in maf.DECK}, key=maf.card_id)


@pytest.mark.parametrize("n,h", [(3, 13), (4, 11), (5, 9)])
def test_deal_sizes_and_aside(n, h):
    s = maf.new_match({"seats": n}, seed=7)
    assert [len(x) for x in s.hands] == [h] * n and len(s.aside) == 54 - n * h
    assert s.phase == "bouncer" and maf.awaiting(s) == frozenset(range(n))
    assert s.rounds == n and maf.turn_id(s) is None
    v = maf.view(s, 0)
    assert v["aside_count"] == 54 - n * h and len(v["hand"]) == h
    assert all(p["bouncer"] is None and not p["has_chosen"] for p in v["players"])


def test_stacked_deck_order_hands_then_aside():
    deck = full_hands([["KH"], ["QH"], ["JH"]], aside=["5C", "6C"])
    s = maf.new_match({"seats": 3, "deck": deck}, seed=3)
    assert "KH" in hands_codes(s, 0) and "QH" in hands_codes(s, 1) and "JH" in hands_codes(s, 2)
    assert s.aside[:2] == ids(["5C", "6C"])


@pytest.mark.parametrize("config", [{"seats": 2}, {"seats": 6}, {"seats": 3, "rounds": 0},
                                    {"seats": 3, "deck": ["ZZ"]}, {"seats": 3, "deck": ["AH", "AH"]},
                                    {"seats": 3, "first_player": 3}])
def test_bad_config(config):
    with pytest.raises(ValueError):
        maf.new_match(config, seed=1)


def test_same_seed_same_deal_other_seed_other_deal():
    a, b, c = (maf.new_match({"seats": 4}, seed=x) for x in (5, 5, 6))
    assert a.hands == b.hands and a.aside == b.aside and a.hands != c.hands


# -- bouncer legality (D-MAF-1) ------------------------------------------------------------
def test_bouncer_must_be_a_muscle_when_one_is_held():
    s, _ = deal([["KH", "JH", "QH", "JK1", "5C"], [], []])
    reasons = maf.illegal_reasons(s, 0)
    for c in ("KH", "JH", "QH"):
        assert "muscle" in reasons[maf.card_id(c)]
    assert reasons[maf.card_id("JK1")] == "a Joker can never be a bouncer"
    assert maf.card_id("5C") not in reasons
    with pytest.raises(IllegalAction, match="muscle"):
        maf.apply(s, 0, maf.ChooseBouncer(maf.card_id("KH")))


def test_bouncer_without_muscle_must_be_a_jack_if_held():
    hand = ["KH", "KD", "KS", "KC", "QH", "QD", "QS", "QC", "JH", "JD", "JK1", "JK2", "JS"]
    s, _ = deal([hand, [], []])
    legal = {maf.DECK[a.card].code for a in maf.legal_actions(s, 0)}
    assert legal == {"JH", "JD", "JS"}
    assert "Jack" in maf.why_illegal(s, 0, maf.card_id("KH"))


def test_bouncer_without_muscle_or_jack_is_queen_or_king_never_joker():
    hand = ["KH", "KD", "KS", "KC", "QH", "QD", "QS", "QC", "JK1", "JK2"]
    s, _ = deal([hand, [], [], []])
    assert len(s.hands[0]) == 11  # one filler muscle: replace it to test the rule
    s.hands[0] = sorted(ids(hand))
    legal = {maf.DECK[a.card].code for a in maf.legal_actions(s, 0)}
    assert legal == {"KH", "KD", "KS", "KC", "QH", "QD", "QS", "QC"}


def test_choice_is_hidden_until_everyone_has_chosen():
    s, _ = deal([["5H"], ["6S"], ["7C"]])
    s, ev = maf.apply(s, 1, maf.ChooseBouncer(maf.card_id("6S")))
    assert types(ev) == ["bouncer_chosen"]
    assert events_for(ev, 1) == [{"type": "bouncer_chosen", "seat": 1,
                                  "card": maf.DECK[maf.card_id("6S")].to_dict()}]
    for p in (0, 2, None):
        assert events_for(ev, p) == [{"type": "bouncer_chosen", "seat": 1}]
        v = maf.view(s, p)
        assert v["players"][1]["has_chosen"] and v["players"][1]["bouncer"] is None
        assert maf.card_id("6S") not in maf.wire_cards(v)
    assert maf.view(s, 1)["players"][1]["bouncer"]["code"] == "6S"
    assert maf.awaiting(s) == frozenset({0, 2})
    assert maf.legal_actions(s, 1) == []
    with pytest.raises(IllegalAction, match="already"):
        maf.apply(s, 1, maf.ChooseBouncer(maf.card_id("2H")))
    with pytest.raises(IllegalAction, match="bouncer"):
        maf.apply(s, 0, maf.PlayCard(maf.card_id("5H")))
    s, _ = maf.apply(s, 0, maf.ChooseBouncer(maf.card_id("5H")))
    s, ev = maf.apply(s, 2, maf.ChooseBouncer(maf.card_id("7C")))
    reveal = first(ev, "bouncers_revealed")
    assert reveal.to is None
    assert [b["code"] for b in reveal.data["bouncers"]] == ["5H", "6S", "7C"]
    assert reveal.data["clans"] == ["hearts", "spades", "clubs"]
    assert s.phase == "play" and [len(h) for h in s.hands] == [12, 12, 12]
    assert first(ev, "leader").data["seat"] == 2 and s.turn == 2
    assert maf.turn_id(s) == (1, 1, 2)


def test_several_players_may_share_a_clan():
    s, _ = deal([["5H"], ["6H"], ["7C"]], bouncers=["5H", "6H", "7C"])
    assert s.clans == ["hearts", "hearts", "clubs"]


def test_face_card_bouncer_counts_zero_for_the_leader():
    hand = ["KH", "KD", "KS", "KC", "QH", "QD", "QS", "QC", "JH", "JD", "JK1", "JK2", "JS"]
    s, _ = deal([hand, ["2S"], ["AC"]])
    for p, c in enumerate(["JH", "2S", "AC"]):
        s, ev = maf.apply(s, p, maf.ChooseBouncer(maf.card_id(c)))
    assert first(ev, "leader").data["seat"] == 1


def test_leader_tie_break_with_aside_cards_in_seat_order():
    s, ev = deal([["7H"], ["5S"], ["7C"]], bouncers=["7H", "5S", "7C"], aside=["2D", "9D", "3D"])
    lead = first(ev, "leader").data
    assert lead["tied"] == [0, 2]
    assert [(d["seat"], d["card"]["code"], d["total"]) for d in lead["draws"]] == [(0, "2D", 9), (2, "9D", 16)]
    assert lead["seat"] == 2 and s.turn == 2
    assert [maf.DECK[c].code for c in s.aside[-2:]] == ["2D", "9D"]  # under the aside pile
    assert maf.DECK[s.aside[0]].code == "3D"
    v = maf.view(s, 1)
    assert [a["card"]["code"] for a in v["aside_revealed"]] == ["2D", "9D"]


def test_leader_still_tied_goes_to_lowest_seat_face_cards_add_zero():
    s, ev = deal([["7H"], ["7S"], ["7C"]], bouncers=["7H", "7S", "7C"], aside=["KD", "JK1", "QD"])
    lead = first(ev, "leader").data
    assert [d["total"] for d in lead["draws"]] == [7, 7, 7] and lead["seat"] == 0


def test_first_player_option_forces_round_one_leader():
    s, ev = deal([["7H"], ["5S"], ["7C"]], bouncers=["7H", "5S", "7C"], first_player=1)
    assert first(ev, "leader").data["seat"] == 1 and s.turn == 1


def test_no_reaction_windows():
    s = maf.new_match({"seats": 3}, seed=1)
    assert maf.reaction_window(s) is None
    with pytest.raises(ValueError):
        maf.timeout_action(None)  # type: ignore[arg-type]


def test_game_definition():
    g = maf.GAME
    assert (g.name, g.title, g.min_seats, g.max_seats, g.default_seats) == ("mafiosi", "Mafiosi", 3, 5, 4)
    assert g.rules is maf and g.option("rounds").hi == 20 and g.option("deck").testing
    assert g.claim_outcome([], 0) is None
    assert maf.ACTIONS.parse({"type": "play", "card": 3}) == maf.PlayCard(3)
