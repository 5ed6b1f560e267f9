"""Property tests over whole random bot matches of Family Business (hypothesis), at 2-6
players, both deck variants:

* every card is in exactly one zone after every action;
* no view or event sent to a seat (or a spectator) names another seat's hand card or a
  draw-pile card, and ``visible_cards`` covers all that is shown;
* every window's eligible seats are all players in game but the attacker, whoever holds
  counters; ``apply`` never mutates its input; ``legal_actions`` all apply;
* a match replays exactly from its seed and its log.
"""
from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.bots.random_bot import RandomBot
from shared.games import family_business as fb
from shared.rules import IllegalAction, events_for
from shared.sim import play_match, replay

_REVEAL = ("play", "void", "counter", "eliminated", "window_opened")


class Checker:
    def __init__(self, n: int):
        self.n = n
        self.rng = random.Random(n)
        self.count = 0
        self.windows = 0

    def __call__(self, state, seat, action, events):
        self.count += 1
        z = fb.zones(state)
        assert sorted(c for v in z.values() for c in v) == sorted(fb.all_ids(state))
        public = fb.wire_cards(events_for([e for e in events if e.type in _REVEAL], None))
        hidden_all = set(state.draw_pile) | {c for h in state.hands for c in h}
        spectator = fb.wire_cards(events_for(events, None)) | fb.wire_cards(fb.view(state, None))
        assert not (spectator & hidden_all) - public, action
        assert spectator <= fb.visible_cards(state, None, events)
        for p in range(self.n):
            seen = fb.wire_cards(events_for(events, p)) | fb.wire_cards(fb.view(state, p))
            hidden = hidden_all - set(state.hands[p])
            assert not (seen & hidden) - public, (p, action, (seen & hidden) - public)
            assert seen <= fb.visible_cards(state, p, events)
            v = fb.view(state, p)
            assert all(set(pl) == {"seat", "gang", "gang_name", "in_game", "front", "alive",
                                   "hand", "dead"} for pl in v["players"])
        for e in events:
            if e.type == "window_opened":
                self.windows += 1
                w = fb.reaction_window(state)
                assert set(e.data["eligible"]) == set(state.players_in()) - {e.data["attacker"]}
                if w is not None and w.id == e.data["window"]:
                    for q in w.eligible:
                        legal = fb.legal_actions(state, q)
                        assert fb.NoCounter() in legal
                        assert all(fb.action(a.card).code in w.data["counters"]
                                   for a in legal if a.TYPE == "counter")
        if self.count % 7 == 0:
            self.check_legal(state)

    def check_legal(self, state):
        before = pickle.dumps(state)
        for p in range(self.n):
            legal = fb.legal_actions(state, p)
            assert (p in fb.awaiting(state)) == bool(legal)
            for a in self.rng.sample(legal, min(3, len(legal))):
                fb.apply(state, p, a)  # must not raise
            for a in (fb.Void(self.rng.randrange(54, 112)), fb.Place(self.rng.randrange(54)),
                      fb.Order(self.rng.randrange(54)), fb.NoCounter(),
                      fb.Counter(self.rng.randrange(54, 112)), fb.MobWar(self.rng.randrange(54, 112))):
                if a not in legal:
                    try:
                        fb.apply(state, p, a)
                    except IllegalAction:
                        continue
                    raise AssertionError(f"unlisted {a} applied for seat {p}")
        assert pickle.dumps(state) == before  # apply never mutates its input


def bots_for(seed: int, kinds: list[str]):
    out = []
    for p, k in enumerate(kinds):
        rng = random.Random(f"{seed}/{p}")
        out.append(RandomBot(p, rng) if k == "random" else fb.make_bot(p, rng))
    return out


def play(seed: int, kinds: list[str], variant: str):
    n = len(kinds)
    checker = Checker(n)
    config = {"seats": n, "deck_variant": variant}
    record = play_match(fb, config, seed, bots_for(seed, kinds), on_apply=checker)
    return config, record, checker


@settings(max_examples=12)
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(["1989", "2006"]),
       kinds=st.lists(st.sampled_from(["smart", "random"]), min_size=2, max_size=6))
def test_random_bot_matches_keep_every_invariant(seed, variant, kinds):
    config, record, checker = play(seed, kinds, variant)
    s = record.state
    assert fb.is_over(s) and checker.count == record.applies
    result = fb.scores(s)
    assert result["reason"] == "last_gang" and len(result["winners"]) == 1
    w = result["winners"][0]
    assert s.in_game[w] and sum(s.in_game) == 1 and result["scores"][w] > 0
    claims = [e for e in record.events if e.type == "counter"]
    assert all(e.data["success"] is True for e in claims)


@settings(max_examples=6)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 6))
def test_a_match_replays_from_its_seed_and_log(seed, n):
    config, record, _ = play(seed, ["smart", "random"] * 3, "2006") if n == 6 else \
        play(seed, (["smart", "random"] * 3)[:n], "1989")
    again = replay(fb, config, seed, record.log)
    assert fb.scores(again) == fb.scores(record.state)
    assert fb.zones(again) == fb.zones(record.state)
    assert pickle.dumps(again.rng.getstate()) == pickle.dumps(record.state.rng.getstate())
