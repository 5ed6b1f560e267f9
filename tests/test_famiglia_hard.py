"""The hard Famiglia bot's search: legal choices, a reproducible ``run``,
determinizations consistent with the seat's view, and a request that never reads what
the seat cannot see."""
from __future__ import annotations

import random
from collections import Counter

from shared.bots import make_bot
from shared.bots.search import Think, resolve, run
from shared.games import famiglia as fam
from shared.games.famiglia import search as model
from shared.games.famiglia.hard import HardFamigliaBot
from shared.sim import events_by_seat, play_match


def test_hard_bot_plays_a_match_with_legal_moves_only(light_search):
    bots = [make_bot("famiglia", 0, "5/0", level="hard"), make_bot("famiglia", 1, "5/1")]
    record = play_match(fam, {}, seed=5, bots=bots)  # raises on an illegal move
    assert fam.is_over(record.state)


def _first_think(state, seed="x"):
    """Play both seats as hard bots (searches resolved by their fallback) until seat
    ``state.turn``'s hard bot returns a Think; the Think and the state it was for."""
    bots = [HardFamigliaBot(p, random.Random(f"{seed}/{p}")) for p in (0, 1)]
    events: list = []
    for _ in range(200):
        for p, mine in enumerate(events_by_seat(events, 2)):
            bots[p].observe(mine, fam.view(state, p))
        p = state.turn
        d = bots[p].decide(fam.view(state, p), fam.legal_actions(state, p))
        if isinstance(d, Think) and state.turn_no >= 3:
            return d, state
        d = d.fallback if isinstance(d, Think) else d
        state, events = fam.apply(state, p, d.action)
    raise AssertionError("no search")


def test_run_is_deterministic_and_its_choice_legal():
    think, s = _first_think(fam.new_match({}, 11))
    assert run(think.request) == run(dict(think.request))
    assert resolve(think).action in fam.legal_actions(s, s.turn)


def test_the_request_never_depends_on_the_deck_order():
    """The same match with the deck reshuffled -- the one thing no seat sees besides the
    other hand -- gives the same request and the same decision."""
    think, s = _first_think(fam.new_match({}, 11))
    other = s.clone()
    random.Random(2).shuffle(other.deck)
    assert other.deck != s.deck
    bot = HardFamigliaBot(s.turn, random.Random(0))
    twin = HardFamigliaBot(s.turn, random.Random(0))
    twin.opp_hand = bot.opp_hand = Counter(fam.DECK[c].code for c in s.hands[1 - s.turn])
    a = bot.decide(fam.view(s, s.turn), fam.legal_actions(s, s.turn))
    b = twin.decide(fam.view(other, s.turn), fam.legal_actions(other, s.turn))
    assert isinstance(a, Think) and a.request == b.request and resolve(a) == resolve(b)


def test_determinizations_respect_the_seats_view():
    think, s = _first_think(fam.new_match({}, 11))
    req, me = think.request, s.turn
    rng = random.Random(4)
    for _ in range(20):
        w = model.determinize(req, rng)
        assert sorted(w.hands[me]) == sorted(s.hands[me])  # its own hand, exact
        assert w.street == s.street and w.discard == s.discard and w.gangs == s.gangs
        assert len(w.deck) == len(s.deck)
        assert Counter(fam.DECK[c].code for c in w.hands[1 - me]) == Counter(req["opp_codes"])
        cards = w.deck + w.street + w.discard + [c for h in w.hands + w.gangs for c in h]
        assert sorted(cards) == list(range(60))  # every card exactly once
