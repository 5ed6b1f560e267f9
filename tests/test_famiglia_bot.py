"""FamigliaBot: plays from its seat's view and events only, never sends an illegal action,
and plays to win (recruits the best card, uses its Brute and Accountant to make a take
possible, denies the opponent, renews rather than passes, ends the match by passing only
when that wins)."""
from __future__ import annotations

import json
import random
from collections import Counter

from shared.bots import make_bot
from shared.games.famiglia.bot import FamigliaBot
from shared.bots.random_bot import RandomBot
from shared.games import famiglia as fam
from shared.rules import events_for
from shared.sim import play_match
from tests.test_famiglia_helpers import act, codes, deal, layout, the
from tests.test_famiglia_properties import EagerBot


def bot_turn(s: fam.FamigliaState, bot: FamigliaBot) -> tuple[fam.FamigliaState, list]:
    """Let ``bot`` play its whole turn; returns the state and the actions it chose."""
    seat = s.turn
    chosen = []
    while not fam.is_over(s) and s.turn == seat:
        d = bot.decide(fam.view(s, seat), fam.legal_actions(s, seat))
        chosen.append(d.action)
        s, ev = fam.apply(s, seat, d.action)
        bot.observe(events_for(ev, seat), fam.view(s, seat))
    return s, chosen


def fresh(seat: int, s: fam.FamigliaState) -> FamigliaBot:
    bot = FamigliaBot(seat, random.Random(5))
    bot.observe([], fam.view(s, seat))
    return bot


def test_make_bot_builds_it_with_its_think_time():
    bot = make_bot("famiglia", 1, "42/1", {"think_ms": 250})
    assert isinstance(bot, FamigliaBot) and bot.seat == 1
    s = fam.new_match({"first_player": 1}, 3)
    bot.observe([], fam.view(s, 1))
    d = bot.decide(fam.view(s, 1), fam.legal_actions(s, 1))
    assert d.delay_ms == 250 and not d.claim and d.action in fam.legal_actions(s, 1)


def test_decides_from_the_json_view_alone():
    s = fam.new_match({"first_player": 0}, 8)
    view = fam.view(s, 0)
    a = fresh(0, s).decide(view, fam.legal_actions(s, 0)).action
    b = fresh(0, s).decide(json.loads(json.dumps(view)), fam.legal_actions(s, 0)).action
    assert a == b


def test_hidden_cards_do_not_change_its_choice():
    """Two positions that differ only in the opponent's hand and the deck order look the
    same to the bot, so it plays the same."""
    street = ("F1", "A2", "B0", "M1", "F2", "A3")
    # same VP in both hidden hands: the scores are public (module docstring of famiglia)
    one = layout(hands=[["F0", "F0", "M2", "A1"], ["B2", "B1"]], street=street, rest="deck", seed=1)
    two = layout(hands=[["F0", "F0", "M2", "A1"], ["M2", "B1"]], street=street, rest="deck", seed=2)
    assert fam.view(one, 0) == fam.view(two, 0)
    assert one.deck != two.deck
    assert bot_turn(one, fresh(0, one))[1] == bot_turn(two, fresh(0, two))[1]


def test_recruits_the_most_valuable_card():
    s = deal(hands=[["F2", "F2", "A1", "A1", "B0"], ["F0"]], street=("F3", "A2", "B0", "M1", "B1", "A3"))
    s, chosen = bot_turn(s, fresh(0, s))
    assert codes(s.hands[0])["F3"] == 1 and chosen[-1].TYPE == "take_pair"


def test_plays_its_brute_to_make_a_take_possible():
    """The worked example of the Brute, found by the bot itself."""
    s = deal(hands=[["B2", "M1", "M1", "F0"], ["F0"]], street=("M4", "F2", "A3", "B3", "A4", "A2"))
    s, chosen = bot_turn(s, fresh(0, s))
    assert [a.TYPE for a in chosen] == ["brute", "take_pair"]
    assert codes(s.hands[0])["M4"] == 1


def test_plays_its_accountant_to_bring_back_a_pair_card():
    s = deal(hands=[["A1", "F1", "B0"], ["F0"]], gangs=[["F1"], []], street=("F2", "A3", "B3", "M3", "A2", "M0"))
    s, chosen = bot_turn(s, fresh(0, s))
    assert [a.TYPE for a in chosen] == ["accountant", "swap", "take_pair"]
    assert codes(s.hands[0])["F2"] == 1


def test_denies_the_card_the_opponent_could_take():
    """Same choice for the bot (an Accountant 1 or a Brute 1); it takes the one the
    opponent could recruit next, and its choice follows the opponent's hand."""
    picks = []
    for opp_extra in ("A0", "B0"):
        s = deal(hands=[["F0", "A0", "B0", "M0"], ["A0", "B0", "M1", "M1"]],
                 street=(opp_extra, "A1", "B1", "M0", "A3", "B3"), first=0)
        bot = fresh(1, s)
        s, ev = act(s, 0, fam.TakeFree(the(s, "street", opp_extra)))  # the opponent now holds a pair
        bot.observe(events_for(ev, 1), fam.view(s, 1))
        assert bot.opp_hand == codes(s.hands[0])
        s, chosen = bot_turn(s, bot)
        picks.append(fam.card(chosen[-1].card).code)
    assert picks == ["A1", "B1"]


def test_renews_rather_than_passing_when_nothing_can_be_taken():
    s = deal(hands=[["F0", "A0", "B0", "M0"], ["F0"]], street=("F2", "A2", "B3", "M3", "F3", "A3"),
             deck=["B0", "M0", "A0", "F0"])
    s, chosen = bot_turn(s, fresh(0, s))
    assert chosen[0].TYPE == "renew" and chosen[-1].TYPE == "take_free"


def test_ends_the_match_by_passing_when_that_wins():
    s = deal(hands=[["F0", "A0", "B0", "M0"], ["F2", "F2", "A0", "B0"]], street=("F3", "A1", "B1", "M1", "A0", "B3"),
             first=0)
    bot = fresh(1, s)
    s, ev = act(s, 0, fam.Pass())
    bot.observe(events_for(ev, 1), fam.view(s, 1))
    assert fam.scores(s)["scores"] == [1, 12]
    d = bot.decide(fam.view(s, 1), fam.legal_actions(s, 1))
    assert d.action == fam.Pass()  # F3 is there for the taking, but passing wins now


def test_does_not_pass_after_the_opponent_passed_when_behind():
    s = deal(hands=[["F3", "A0", "B0", "M0"], ["F0", "A0", "B0", "M0"]], street=("B0", "A1", "B1", "M1", "A2", "B3"),
             first=0)
    bot = fresh(1, s)
    s, ev = act(s, 0, fam.Pass())
    bot.observe(events_for(ev, 1), fam.view(s, 1))
    s, chosen = bot_turn(s, bot)
    assert chosen[-1].TYPE != "pass" and not fam.is_over(s)


def test_tracks_the_opponent_hand_through_a_whole_match():
    """A FamigliaBot watching seat 0's updates of a long match between two eager players
    always knows seat 1's hand by code, from the public events alone."""
    seed = 31
    s = fam.new_match({"first_player": 1}, seed)
    players = {0: EagerBot(0, random.Random(1)), 1: EagerBot(1, random.Random(2))}
    watcher = FamigliaBot(0, random.Random(3))
    watcher.observe([], fam.view(s, 0))
    steps = 0
    while not fam.is_over(s):
        seat = s.turn
        action = players[seat].decide(fam.view(s, seat), fam.legal_actions(s, seat)).action
        s, ev = fam.apply(s, seat, action)
        watcher.observe(events_for(ev, 0), fam.view(s, 0))
        assert watcher.opp_hand is not None and +watcher.opp_hand == codes(s.hands[1])
        steps += 1
    assert steps > 40 and s.exhaustion >= 1


def test_a_bot_joining_a_match_under_way_does_not_guess_the_hand():
    s = deal(street=("B0", "M0", "A2", "M3", "F2", "A3"), first=0)
    s, _ = act(s, 0, fam.TakeFree(the(s, "street", "B0")))
    s, _ = act(s, 1, fam.Pass())
    late = FamigliaBot(1, random.Random(0))
    late.observe([], fam.view(s, 1))
    assert late.opp_hand is None
    assert late.decide(fam.view(s, 1), fam.legal_actions(s, 1)) is None  # not its turn
    s, _ = act(s, 0, fam.TakeFree(the(s, "street", "M0")))
    assert late.decide(fam.view(s, 1), fam.legal_actions(s, 1)).action in fam.legal_actions(s, 1)


def test_same_situation_same_choice():
    """Asked again in the same situation -- twice in a row, or by a new bot of the same seed
    after a reconnection -- the bot makes the same choice (renew sampling included)."""
    for seed in range(6):
        s = fam.new_match({"first_player": 0}, 400 + seed)
        a = FamigliaBot(0, random.Random(f"{seed}/0"))
        other = RandomBot(1, random.Random(seed))
        history = []
        a.observe([], fam.view(s, 0))
        for _ in range(30):
            if fam.is_over(s):
                break
            seat = s.turn
            legal = fam.legal_actions(s, seat)
            if seat == 0:
                first = a.decide(fam.view(s, 0), legal).action
                assert a.decide(fam.view(s, 0), legal).action == first
                b = FamigliaBot(0, random.Random(f"{seed}/0"))
                b.observe(history, fam.view(s, 0))
                assert b.decide(fam.view(s, 0), legal).action == first
                action = first
            else:
                action = other.decide(fam.view(s, 1), legal).action
            s, ev = fam.apply(s, seat, action)
            history += events_for(ev, 0)
            a.observe(events_for(ev, 0), fam.view(s, 0))


def _play(i: int, seat: int, opponent, seed_base: int):
    """Match ``seed_base + i``: FamigliaBot at ``seat`` against ``opponent``; final state."""
    bots = [None, None]
    bots[seat], bots[1 - seat] = FamigliaBot(seat, random.Random(i)), opponent
    return play_match(fam, {"first_player": (i // 2) % 2}, seed_base + i, bots).state


def test_beats_random_play():
    wins = 0
    for i in range(20):
        seat = i % 2
        s = _play(i, seat, RandomBot(1 - seat, random.Random(-i)), 900)
        wins += fam.scores(s)["winners"] == [seat]
    assert wins >= 18


def test_beats_a_greedy_player_that_never_passes():
    """A stronger baseline than random: EagerBot takes whenever it likes and never ends
    the match by passing."""
    wins = Counter()
    for i in range(10):
        seat = i % 2
        s = _play(i, seat, EagerBot(1 - seat, random.Random(-i)), 300)
        wins[fam.scores(s)["winners"] == [seat]] += 1
    assert wins[True] >= 8


def test_its_plans_only_contain_legal_actions():
    """The planner's own rules model never proposes an action the engine refuses (the
    safety net in ``decide`` must not be what keeps the bot legal)."""
    for seed in range(4):
        s = fam.new_match({"first_player": seed % 2}, 700 + seed)
        bots = {0: FamigliaBot(0, random.Random(seed)),
                1: FamigliaBot(1, random.Random(-seed)) if seed % 2 else EagerBot(1, random.Random(seed))}
        for p in (0, 1):
            bots[p].observe([], fam.view(s, p))
        while not fam.is_over(s):
            p = s.turn
            legal = fam.legal_actions(s, p)
            if isinstance(bots[p], FamigliaBot) and len(legal) > 1:
                assert bots[p]._choose(fam.view(s, p), legal) in legal
            s, ev = fam.apply(s, p, bots[p].decide(fam.view(s, p), legal).action)
            for q in (0, 1):
                bots[q].observe(events_for(ev, q), fam.view(s, q))


def test_after_its_accountant_it_never_plans_to_swap_it_back():
    s = deal(hands=[["A2", "F1", "B0", "A2"], ["F0"]], gangs=[["F1", "A1"], []],
             street=("F2", "A3", "B3", "M3", "B2", "M0"))
    s, _ = act(s, 0, fam.Accountant(the(s, "hand0", "A2")))
    bot = fresh(0, s)
    while s.turn == 0 and not fam.is_over(s):
        legal = fam.legal_actions(s, 0)
        action = bot._choose(fam.view(s, 0), legal)
        assert action in legal
        s, ev = fam.apply(s, 0, action)
        bot.observe(events_for(ev, 0), fam.view(s, 0))
    assert codes(s.hands[0])["F2"] + codes(s.hands[0])["A3"] == 1
