"""The Family Business bot: view-only decisions, window answers with a human-like delay
whether or not it holds a counter, sensible choices, and its strength against random
players (benchmarks/family_business_bot_vs_random.py has the full figures)."""
from __future__ import annotations

import copy
import random

from shared.bots.base import ReactionModel
from shared.bots.random_bot import RandomBot
from shared.games import family_business as fb
from shared.sim import play_match
from tests.family_business_helpers import bury, card, deal, mob, to_list

MODEL = ReactionModel()


def bot(seat: int, seed: int = 1):
    return fb.make_bot(seat, random.Random(seed), MODEL, 0.0)


def decide(state, seat, b=None):
    b = b or bot(seat)
    v = fb.view(state, seat)
    return b.decide(v, fb.legal_actions(state, seat))


def test_window_answers_are_delayed_whether_or_not_the_bot_holds_a_counter():
    s = deal([["contract"], ["mob_power"], []])
    s, _ = fb.apply(s, 0, fb.Contract(card(s, 0, "contract"), 1))
    claim = decide(s, 1)
    assert claim.claim and claim.action == fb.Counter(card(s, 1, "mob_power"))
    passing = decide(s, 2)
    assert passing.action == fb.NoCounter() and not passing.claim
    for d in (claim, passing):
        assert MODEL.floor_ms <= d.delay_ms <= MODEL.cap_ms


def test_the_bot_keeps_its_counter_when_another_player_is_attacked():
    s = deal([["contract"], [], ["family_influence"]])
    s, _ = fb.apply(s, 0, fb.Contract(card(s, 0, "contract"), 1))
    d = decide(s, 2)
    assert d.action == fb.NoCounter() and d.delay_ms >= MODEL.floor_ms


def test_the_bot_uses_safe_house_against_a_vendetta():
    s = deal([["vendetta"], ["safe_house"], []])
    s, _ = fb.apply(s, 0, fb.Vendetta(card(s, 0, "vendetta")))
    assert decide(s, 1).action == fb.Counter(card(s, 1, "safe_house"))


def test_the_bot_decides_from_its_view_only():
    """Two states that differ only in other seats' hands give the same decision."""
    s = deal([["contract", "lam"], [], []])
    s = to_list(s, mob(0, 0), mob(1, 0))
    t = s.clone()
    t.hands[1], t.hands[2] = t.hands[2], t.hands[1]
    t.draw_pile.reverse()
    assert fb.view(s, 0) == fb.view(t, 0)
    assert decide(s, 0).action == decide(t, 0).action
    v = fb.view(s, 0)
    frozen = copy.deepcopy(v)
    bot(0).decide(v, fb.legal_actions(s, 0))
    assert v == frozen  # and it does not alter what it is given


def test_the_bot_rescues_its_mobster_and_attacks_the_leader():
    s = deal([["lam", "contract"], [], []])
    s = to_list(s, mob(1, 0), mob(0, 0))
    s.war = True
    assert decide(s, 0).action == fb.Rescue(card(s, 0, "lam"), mob(0, 0))
    s = deal([["contract", "family_influence"], [], []])
    s = bury(s, mob(1, 0), mob(1, 1))  # seat 2 leads with 9 alive
    assert decide(s, 0).action == fb.Contract(card(s, 0, "contract"), 2)


def test_the_bot_orders_the_leaders_mobsters_first():
    s = deal([["double_cross"], [], []])
    s = bury(s, mob(1, 0), mob(1, 1))
    s, _ = fb.apply(s, 0, fb.DoubleCross(card(s, 0, "double_cross")))
    s, _ = fb.apply(s, 1, fb.Place(mob(1, 2)))
    s, _ = fb.apply(s, 2, fb.Place(mob(2, 2)))
    assert decide(s, 0).action == fb.Order(mob(2, 2))


def test_the_bot_beats_random_players_at_four_seats():
    wins = 0.0
    matches = 24
    for seed in range(matches):
        smart = seed % 4
        bots = [bot(p, seed) if p == smart else RandomBot(p, random.Random(f"{seed}/{p}"))
                for p in range(4)]
        rec = play_match(fb, {"seats": 4}, seed, bots)
        winners = fb.scores(rec.state)["winners"]
        wins += (smart in winners) / len(winners)
    assert wins / matches >= 2 * 0.25
