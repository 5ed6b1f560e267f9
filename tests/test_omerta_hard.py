"""The hard Omerta bot's declaration search: legal choices, a reproducible ``run``,
a request made of what its seat saw only, and the sampled stocks it weighs."""
from __future__ import annotations

import random

from shared.bots import make_bot
from shared.bots.search import Think, resolve, run
from shared.games import omerta as om
from shared.games.omerta import search as model
from shared.games.omerta.hard import HardOmertaBot
from shared.rules import events_for
from shared.sim import play_match
from tests.omerta_helpers import deal, slot

LOW = [["1", "2", "alibi", "3"], ["5", "6", "9", "8"], ["9", "10", "4", "2"]]


def _peeked(hands):
    """Every seat peeked its slots 0 and 1; hard bots that saw it."""
    s = deal(hands, peek=False)
    bots = [HardOmertaBot(p, random.Random(p)) for p in range(len(hands))]
    events = []
    for p in range(len(hands)):
        s, ev = om.apply(s, p, om.Peek((slot(p, 0), slot(p, 1))))
        events += ev
    for b in bots:
        b.observe(events_for(events, b.seat), om.view(s, b.seat))
    return s, bots


def _knows_slot(bot, s, seat, i):
    bot.known[slot(seat, i)] = om.DECK[s.games[seat][i][1]].to_dict()


def test_hard_bots_play_a_round_with_legal_moves_only(light_search):
    bots = [make_bot("omerta", p, f"3/{p}", level="hard") for p in range(3)]
    record = play_match(om, {"seats": 3, "rounds": 1}, seed=3, bots=bots)  # raises on an illegal move
    assert om.is_over(record.state)


def test_one_unknown_card_and_a_low_known_game_make_a_search():
    s, bots = _peeked(LOW)
    _knows_slot(bots[0], s, 0, 2)  # 1 + 2 + alibi known, slot 3 unknown
    d = bots[0].decide(om.view(s, 0), om.legal_actions(s, 0))
    assert isinstance(d, Think)
    assert d.request["unknown"][0] == 1 and d.request["unknown"][1] == 4
    assert run(d.request) == run(dict(d.request))  # deterministic given its request
    assert resolve(d).action in om.legal_actions(s, 0)


def test_the_request_never_depends_on_cards_the_seat_has_not_seen():
    """Two deals identical from seat 0's view (seats 1 and 2 trade unseen cards): the
    same request, the same decision."""
    swapped = [list(h) for h in LOW]
    swapped[1][2], swapped[2][3] = swapped[2][3], swapped[1][2]
    thinks = []
    for hands in (LOW, swapped):
        s, bots = _peeked(hands)
        _knows_slot(bots[0], s, 0, 2)
        thinks.append(bots[0].decide(om.view(s, 0), om.legal_actions(s, 0)))
    a, b = thinks
    assert a.request == b.request and resolve(a) == resolve(b)


def test_sampled_stocks_keep_known_cards_and_draw_unknown_ones_from_the_unseen():
    req = {"seat": 0, "n": 3, "known": [[1, 2], [5], []], "unknown": [1, 2, 4],
           "unseen": [1, 2, 3, 20, 20, 20, 20], "stay": 0.9}
    rng = random.Random(1)
    for _ in range(30):
        stocks = model.determinize(req, rng)
        assert 4 <= stocks[0] <= 23 and stocks[1] >= 5 + 1 + 2
    # a declaration with a known 3 that beats every possible opponent always succeeds
    sure = {**req, "known": [[1, 2], [], []], "unknown": [0, 4, 3]}
    assert model.value(model.determinize(sure, rng), sure, 1, rng) == 1.0
    assert model.value([3, 2, 30], sure, 1, rng) == 0.0  # someone lower: it fails (§2.8)
    assert model.value([8, 20, 30], sure, 1, rng) == 0.0  # lowest but above 7: it fails too
    assert model.value([8, 20, 30], sure, 0, rng) == 0.9  # playing on is worth the bar
