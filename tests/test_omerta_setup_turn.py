"""Omerta setup, the turn, the draw pile and visibility (RULES.md §2.1-2.4, §2.7)."""
from __future__ import annotations

from collections import Counter

import pytest

from shared.games import omerta as om
from shared.rules import IllegalAction, events_for
from tests.omerta_helpers import act, codes, deal, first, pass_window, slot, types


def test_deck_follows_the_data_table():
    """§2.1, D-OM-1, D-OM-2: 40 bottles (4 per value) + 20 characters."""
    counts = Counter(c.code for c in om.DECK)
    assert all(counts[str(v)] == 4 for v in range(1, 11))
    assert sum(1 for c in om.DECK if not c.is_bottle) == 20
    assert counts["driver"] == 3 and counts["snitch"] == 2 and counts["hitwoman"] == 1
    assert {c.name: c.points for c in om.DECK if not c.is_bottle}["snitch"] == 20
    assert [c.id for c in om.DECK] == list(range(60))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_deal(n):
    """§2.3: four cards each, four in the safe, the rest is the draw pile."""
    s = om.new_match({"seats": n}, seed=3)
    assert [len(g) for g in s.games] == [4] * n
    assert len(s.safe) == 4 and s.discard == []
    assert len(s.draw_pile) == 60 - 4 * n - 4
    assert s.phase == "peek" and om.awaiting(s) == frozenset(range(n))


def test_seats_out_of_range_are_refused():
    with pytest.raises(ValueError):
        om.new_match({"seats": 2}, seed=1)
    with pytest.raises(ValueError):
        om.new_match({"seats": 6}, seed=1)
    with pytest.raises(ValueError):
        om.new_match({"seats": 3, "deck": ["11"]}, seed=1)
    with pytest.raises(ValueError):
        om.new_match({"seats": 3, "deck": ["snitch"] * 3}, seed=1)


def test_same_seed_same_deal_different_seed_different_deal():
    a, b, c = (om.new_match({"seats": 4}, seed=s) for s in (5, 5, 6))
    assert a.games == b.games and a.draw_pile == b.draw_pile and a.first == b.first
    assert a.games != c.games


def test_initial_peek_is_private_and_once():
    """§2.3 step 4: two different own slots, seen by their owner only."""
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]], peek=False)
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.Peek((slot(0, 0), slot(0, 0))))
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.Peek((slot(0, 0), slot(1, 0))))
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.DrawDeck())
    s, ev = om.apply(s, 0, om.Peek((slot(0, 1), slot(0, 3))))
    mine = events_for(ev, 0)[0]
    assert [c["value"] for c in mine["cards"]] == [2, 4]
    assert "cards" not in events_for(ev, 1)[0] and "cards" not in events_for(ev, None)[0]
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.Peek((slot(0, 0), slot(0, 2))))
    assert om.awaiting(s) == {1, 2}
    s, _ = act(s, 1, om.Peek((slot(1, 0), slot(1, 1))))
    s, ev = act(s, 2, om.Peek((slot(2, 0), slot(2, 1))))
    assert s.phase == "turn" and s.turn == 0 and "turn" in types(ev)


def test_the_peeks_are_listed_as_the_same_objects_after_another_seats_peek():
    """§2.3 step 4: a seat's peeks are every pair of its own four slots; listed again
    after another seat's peek they are the same objects (the server compares a seat's
    legal actions with the last it sent: shared objects compare by identity and keep
    their wire form), and equal to fresh ``Peek`` values."""
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]], peek=False)
    before = om.legal_actions(s, 1)
    own = [slot(1, i) for i in range(4)]
    assert before == [om.Peek((a, b)) for i, a in enumerate(own) for b in own[i + 1:]]
    s, _ = act(s, 0, om.Peek((slot(0, 0), slot(0, 1))))
    after = om.legal_actions(s, 1)
    assert len(after) == 6 and all(x is y for x, y in zip(after, before))
    assert om.legal_actions(s, 0) == []


def test_draw_from_pile_is_private_and_must_be_resolved():
    """§2.4 steps 2-3: the drawn card is seen by the drawer only."""
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]], pile=["5"])
    with pytest.raises(IllegalAction, match="not your turn"):
        om.apply(s, 1, om.DrawDeck())
    s, ev = om.apply(s, 0, om.DrawDeck())
    assert events_for(ev, 0)[0]["card"]["value"] == 5
    assert "card" not in events_for(ev, 1)[0]
    assert om.view(s, 0)["drawn"]["card"]["value"] == 5
    assert om.view(s, 1)["drawn"] == {"source": "deck", "card": None}
    assert om.view(s, None)["drawn"]["card"] is None
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.DeclareOmerta())  # D-OM-22: never after drawing
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.Replace(slot(1, 0)))


def test_replace_discards_the_unseen_card_and_opens_a_snap_window():
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]], pile=["5"])
    s, ev = act(s, 0, om.DrawDeck(), om.Replace(slot(0, 2)))
    assert codes(s, 0) == ["1", "2", "5", "4"]
    assert om.DECK[s.discard[-1]].code == "3"
    w = om.reaction_window(s)
    assert w is not None and w.kind == "snap" and w.data == {"value": 3}
    assert w.eligible == {0, 1, 2}  # A included (§2.5)
    assert first(ev, "replace").data["card"]["value"] == 3


def test_discarding_the_drawn_bottle_opens_a_window_and_taken_discard_must_replace():
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]], pile=["6"])
    s, _ = act(s, 0, om.DrawDeck(), om.DiscardDrawn())
    assert om.reaction_window(s).data["value"] == 6
    s = pass_window(s)
    assert s.turn == 1
    s, ev = om.apply(s, 1, om.TakeDiscard())
    assert first(ev, "draw").data["card"]["value"] == 6  # public: it came from the discard
    assert om.view(s, 2)["drawn"]["card"]["value"] == 6
    with pytest.raises(IllegalAction, match="must replace"):
        om.apply(s, 1, om.DiscardDrawn())
    assert om.DiscardDrawn() not in om.legal_actions(s, 1)


def test_take_discard_needs_a_discard():
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]])
    assert om.TakeDiscard() not in om.legal_actions(s, 0)
    with pytest.raises(IllegalAction):
        om.apply(s, 0, om.TakeDiscard())


def test_replaced_character_is_activated():
    """D-OM-5: a character reaching the discard pile by replacement is activated."""
    s = deal([["mole", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]], pile=["1"])
    s, ev = act(s, 0, om.DrawDeck(), om.Replace(slot(0, 0)))
    assert s.step == "power" and s.power == "mole"
    assert om.legal_actions(s, 0)[-1] == om.Decline()
    s, ev = om.apply(s, 0, om.Mole(slot(0, 0)))
    look = [e for e in events_for(ev, 0) if e["type"] == "look"][0]
    assert look["cards"][0]["value"] == 1  # the drawn card now lies there
    assert all("cards" not in e for e in events_for(ev, 1))
    assert s.turn == 1


@pytest.mark.parametrize("name", ["witness", "alibi", "hitwoman"])
def test_characters_without_turn_power_end_the_turn(name):
    """§2.6.7, §2.6.10: Witness, Alibi and a self-discarded Hitwoman do nothing."""
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]], pile=[name])
    s, ev = act(s, 0, om.DrawDeck(), om.DiscardDrawn())
    assert s.turn == 1 and s.step == "start" and "window_opened" not in types(ev)


def test_power_with_no_legal_target_does_nothing():
    """D-OM-5: a Mole discarded by a player who holds no card has no target: the turn
    simply ends."""
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]], pile=["mole"])
    s.games[0] = []
    s, ev = act(s, 0, om.DrawDeck(), om.DiscardDrawn())
    assert s.turn == 1 and "power_available" not in types(ev)


def test_reshuffle_when_the_pile_is_empty_and_end_turn_when_both_are():
    """§2.7, D-OM-8."""
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]], pile=["witness"])
    s.draw_pile = s.draw_pile[-1:]  # only the Witness is left
    kept = s.draw_pile + []
    s, _ = act(s, 0, om.DrawDeck(), om.DiscardDrawn())
    assert s.draw_pile == [] and s.discard == kept
    s, ev = om.apply(s, 1, om.DrawDeck())
    assert "reshuffle" in types(ev) and om.DECK[s.drawn].code == "witness"
    s, _ = om.apply(s, 1, om.DiscardDrawn())
    s.discard = []
    assert om.legal_actions(s, 2)[:2] == [om.DeclareOmerta(), om.EndTurn()]
    with pytest.raises(IllegalAction):
        om.apply(s, 2, om.DrawDeck())
    s, ev = om.apply(s, 2, om.EndTurn())
    assert s.turn == 0 and "no_draw" in types(ev)


def test_views_hide_face_down_cards_and_the_safe():
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]])
    for seat in (0, 1, None):
        v = om.view(s, seat)
        assert all(set(slot_) == {"slot", "patrol"} for p in v["players"] for slot_ in p["slots"])
        assert v["safe"] == 4 and v["safe_cards"] is None
    assert om.view(s, None)["seat"] is None


def test_actions_round_trip_through_json_and_bad_ones_are_refused():
    from shared.rules import BadAction
    for a in [om.Peek((1, 2)), om.Replace(3), om.Snitch((1, 1)), om.SafeSwap(2, 3), om.DrawDeck()]:
        assert om.ACTIONS.parse(a.to_dict()) == a
    for bad in [{"type": "replace"}, {"type": "replace", "slot": "3"}, {"type": "nope"},
                {"type": "replace", "slot": 3, "extra": 1}, {"type": "replace", "slot": True},
                {"type": "window_timeout", "window": 1}, [], "x"]:
        with pytest.raises(BadAction):
            om.ACTIONS.parse(bad)
    assert om.ACTIONS.parse({"type": "window_timeout", "window": 1}, from_client=False) == om.WindowTimeout(1)


def test_apply_never_mutates_its_input():
    s = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "1", "2"]], pile=["lady"])
    before = (repr(s.games), list(s.draw_pile), s.rng.getstate())
    s2, _ = act(s, 0, om.DrawDeck(), om.DiscardDrawn(), om.Lady(1))
    s3 = pass_window(s2)
    assert (repr(s.games), list(s.draw_pile), s.rng.getstate()) == before
    assert s3.games[1] != s.games[1] or s3.turn != s.turn
