"""The Mafiosi bot: legal play through the generic driver, sensible single decisions
and its strength against random players (the benchmark measures it over 400 matches)."""
from __future__ import annotations

import random

from shared.bots.random_bot import RandomBot
from shared.games import mafiosi as maf
from shared.games.mafiosi.bot import MafiosiBot
from shared.sim import play_match
from tests.mafiosi_helpers import deal, play, staged

C = maf.card_id


def decide(state, seat):
    bot = MafiosiBot(seat, random.Random(0))
    return maf.DECK[bot.decide(maf.view(state, seat), maf.legal_actions(state, seat)).action.card].code


def test_bot_plays_whole_matches_through_the_simulator():
    for n in (3, 4, 5):
        bots = [maf.GAME.make_bot(p, random.Random(p), None, 0.0) for p in range(n)]
        record = play_match(maf, {"seats": n}, seed=n, bots=bots)
        assert maf.is_over(record.state) and maf.scores(record.state)["winners"]


def test_bouncer_is_the_weakest_muscle_of_the_strongest_suit():
    hand = ["2S", "9S", "10S", "KS", "5H", "7D", "QC", "JK1", "3C", "4C", "6C"]
    s, _ = deal([hand, [], [], []])
    s.hands[0] = sorted(C(c) for c in hand)
    assert decide(s, 0) == "2S"


def test_bot_dumps_a_joker_on_a_trick_it_cannot_win():
    s = staged(["2H", "2S", "2C"], [["9D", "5H"], ["KD", "3D"], ["JK1", "4D", "5S"]], leader=0)
    s, _ = play(s, (0, "9D"), (1, "KD"))
    assert decide(s, 2) == "JK1"


def test_bot_takes_a_valuable_trick_when_playing_last():
    s = staged(["2H", "2S", "2C"], [["KS", "5H"], ["3D", "4D"], ["9C", "3C", "4S"]], leader=0)
    s, _ = play(s, (0, "KS"), (1, "3D"))
    assert decide(s, 2) == "3C"  # the cheapest trump takes the King (+3)


def test_bot_keeps_its_king_and_jack_apart():
    # clubs player holds JC in its pile; taking KC would eliminate it
    s = staged(["2H", "2S", "2C"], [["KC", "5D"], ["3D", "4D"], ["9C", "6D", "4S"]],
               won=[[], [], ["JC"]], leader=0)
    s, _ = play(s, (0, "KC"), (1, "3D"))
    assert decide(s, 2) != "9C"


def test_bot_keeps_the_highest_point_card():
    s = staged(["2H", "2S", "4C"], [["5D"], ["6D"], ["7D"]],
               won=[["9H", "QD", "10S"], [], []], leader=0)
    s, _ = play(s, (0, "5D"), (1, "6D"), (2, "7D"))
    assert maf.awaiting(s) == frozenset({0})
    assert decide(s, 0) == "10S"


def test_bot_beats_random_players_at_four():
    wins = 0.0
    matches = 24
    for i in range(matches):
        smart = i % 4
        bots = [RandomBot(p, random.Random(f"{i}/{p}")) for p in range(4)]
        bots[smart] = MafiosiBot(smart, random.Random(f"{i}/{smart}"))
        record = play_match(maf, {"seats": 4}, seed=1000 + i, bots=bots)
        winners = maf.scores(record.state)["winners"]
        if smart in winners:
            wins += 1 / len(winners)
    assert wins / matches >= 2 * 0.25


class _AskedTwice:
    """A bot whose every decision is asked for twice, as after an action lost with the
    connection: the first answer is thrown away."""

    def __init__(self, bot):
        self.bot = bot

    def observe(self, events, view):
        self.bot.observe(events, view)

    def decide(self, view, legal):
        self.bot.decide(view, legal)
        return self.bot.decide(view, legal)


def test_asked_twice_the_bot_plays_the_same_match():
    """A decision asked again in the same situation changes nothing later: an exact tie
    (cards the bot values the same) breaks the same way whatever was asked before, so a
    seat that reconnected mid-match plays the match it would have played."""
    for seed in range(2, 8):
        plain = [maf.GAME.make_bot(p, random.Random(f"{seed}/{p}"), None, 0.0) for p in range(4)]
        twice = [maf.GAME.make_bot(p, random.Random(f"{seed}/{p}"), None, 0.0) for p in range(4)]
        twice[seed % 4] = _AskedTwice(twice[seed % 4])
        expected = play_match(maf, {"seats": 4}, seed=seed, bots=plain)
        got = play_match(maf, {"seats": 4}, seed=seed, bots=twice)
        assert got.log == expected.log, f"seed {seed}"
