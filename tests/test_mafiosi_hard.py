"""The hard Mafiosi bot's search: legal choices, a reproducible ``run``, determinizations
consistent with the seat's information set (and only with it), and the voids it infers
from play (benchmarks/bot_levels.py measures its strength)."""
from __future__ import annotations

import random

from shared.bots import make_bot
from shared.bots.search import Think, resolve, run
from shared.games import mafiosi as maf
from shared.games.mafiosi import search as model
from shared.games.mafiosi.hard import HardMafiosiBot
from shared.sim import events_by_seat, play_match
from tests.mafiosi_helpers import full_hands

C = maf.card_id


def _table(state, seed="t"):
    """A hard bot per seat of ``state``, from its start (no events yet)."""
    return [HardMafiosiBot(p, random.Random(f"{seed}/{p}")) for p in range(state.n)]


def _step(state, bots, seat, action):
    state, events = maf.apply(state, seat, action)
    for p, mine in enumerate(events_by_seat(events, state.n)):
        bots[p].observe(mine, maf.view(state, p))
    return state


def _think(bot, state):
    d = bot.decide(maf.view(state, bot.seat), maf.legal_actions(state, bot.seat))
    assert isinstance(d, Think)
    return d


def test_hard_bots_play_a_round_with_legal_cards_only(light_search):
    bots = [make_bot("mafiosi", p, f"7/{p}", level="hard") for p in range(4)]
    record = play_match(maf, {"seats": 4, "rounds": 1}, seed=7, bots=bots)  # raises on an illegal card
    assert maf.is_over(record.state)


def _opening(hand1_swap: bool = False):
    """Seat 0 to lead trick 1 with bouncers placed; with ``hand1_swap`` a heart of seat
    1 and a spade of seat 2 -- cards seat 0 never saw -- trade places."""
    hands = [["AH", "5H", "9C", "KD", "QS", "3D", "4D", "6D", "7D", "8D", "2C"],
             ["2H", "6H", "7H", "8H", "9H", "10H", "2D", "JD", "KC", "QC", "JK1"],
             ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "KS"],
             ["3C", "4C", "5C", "6C", "7C", "8C", "10C", "QH", "KH", "JH", "JK2"]]
    if hand1_swap:
        hands[1][hands[1].index("7H")], hands[2][hands[2].index("7S")] = "7S", "7H"
    s = maf.new_match({"seats": 4, "deck": full_hands(hands), "first_player": 0}, seed=1)
    bots = _table(s)
    for p, b in enumerate(["2C", "2D", "2S", "3C"]):
        s = _step(s, bots, p, maf.ChooseBouncer(C(b)))
    return s, bots


def test_run_is_deterministic_given_its_request():
    s, bots = _opening()
    think = _think(bots[0], s)
    assert run(think.request) == run(dict(think.request))
    again, bots2 = _opening()
    assert _think(bots2[0], again).request == think.request


def test_the_request_and_the_choice_never_depend_on_cards_the_seat_has_not_seen():
    """Two deals identical from seat 0's view, other seats' hidden cards swapped: the
    same request, the same decision (a leak of the full state would tell them apart)."""
    a, bots_a = _opening()
    b, bots_b = _opening(hand1_swap=True)
    assert a.hands != b.hands
    ta, tb = _think(bots_a[0], a), _think(bots_b[0], b)
    assert ta.request == tb.request
    assert resolve(ta) == resolve(tb)
    assert resolve(ta).action in maf.legal_actions(a, 0)


def test_determinizations_respect_the_seats_view():
    s, bots = _opening()
    s = _step(s, bots, 0, maf.PlayCard(C("9C")))
    s = _step(s, bots, 1, maf.PlayCard(C("JK1")))
    req = _think(bots[2], s).request
    rng = random.Random(3)
    for _ in range(30):
        w = model.determinize(req, rng)
        assert sorted(w.hands[2]) == sorted(s.hands[2])  # its own hand, exact
        assert w.trick == [(0, C("9C")), (1, C("JK1"))]  # the trick in place
        assert [len(h) for h in w.hands] == [len(h) for h in s.hands]
        assert w.piles[0][-1] == C("2C")  # revealed bouncers in W(p)
        cards = [c for h in w.hands for c in h] + [c for p in w.piles for c in p] + [c for _, c in w.trick]
        assert len(cards) == len(set(cards))  # no card twice


def test_a_seat_that_did_not_follow_an_ace_is_dealt_none_of_its_suit():
    """Seat 1 plays a club on the ace of hearts: §4.4 rule 2 would have forced a heart,
    so it showed it has none, and no determinization gives it one."""
    hands = [["AH", "5H", "9C", "KD", "QS", "3D", "4D", "6D", "7D", "8D", "2C"],
             ["2S", "6S", "7S", "8S", "9S", "10S", "2D", "JD", "KC", "QC", "JK1"],
             ["2H", "3H", "4H", "5S", "6H", "7H", "8H", "9H", "10H", "JH", "KH"],
             ["3C", "4C", "5C", "6C", "7C", "8C", "10C", "QH", "3S", "4S", "JK2"]]
    s = maf.new_match({"seats": 4, "deck": full_hands(hands), "first_player": 0}, seed=1)
    bots = _table(s)
    for p, b in enumerate(["2C", "2D", "5S", "3C"]):
        s = _step(s, bots, p, maf.ChooseBouncer(C(b)))
    s = _step(s, bots, 0, maf.PlayCard(C("AH")))
    s = _step(s, bots, 1, maf.PlayCard(C("KC")))  # no heart: seat 1 is void in hearts
    s = _step(s, bots, 2, maf.PlayCard(C("2H")))
    req = _think(bots[3], s).request
    assert req["voids"][1] == ["hearts"] and req["voids"][2] == []
    rng = random.Random(5)
    hearts = [c for c in req["pool"] if maf.DECK[c].suit == "hearts"]
    assert len(hearts) > 5  # plenty of unseen hearts that a uniform deal would hand out
    for _ in range(40):
        w = model.determinize(req, rng)
        assert not any(maf.DECK[c].suit == "hearts" for c in w.hands[1])


def test_a_face_card_bouncer_means_no_muscle_in_hand():
    bot = HardMafiosiBot(0, random.Random(1))
    bot.observe([{"type": "bouncers_revealed", "bouncers": [
        maf.DECK[C("2C")].to_dict(), maf.DECK[C("QS")].to_dict(),
        maf.DECK[C("JD")].to_dict(), maf.DECK[C("5H")].to_dict()]}], {})
    assert bot.no_muscle == {1, 2} and bot.no_jack == {1}


def test_resolve_passes_decisions_through_and_falls_back_on_a_failed_search():
    s, bots = _opening()
    think = _think(bots[0], s)
    assert resolve(None) is None
    assert resolve(think.fallback) is think.fallback
    broken = Think({**think.request, "model": "os.path"}, think.fallback, think.finish)  # not a search model
    assert resolve(broken) is think.fallback


def test_run_stops_at_its_cpu_budget(monkeypatch):
    """The process's CPU clock (here one that moves 1 ms a reading) caps a search; without
    one, the iteration count alone does."""
    from shared.bots import search

    s, bots = _opening()
    req = {**_think(bots[0], s).request, "iterations": 400, "budget_ms": 30}
    ticks = iter(range(10**6))
    monkeypatch.setattr(search, "CPU_CLOCK", lambda: next(ticks) / 1000.0)
    assert 0 < run(req)["iterations"] < 30
    monkeypatch.setattr(search, "CPU_CLOCK", None)
    assert run({**req, "iterations": 3})["iterations"] == 3

