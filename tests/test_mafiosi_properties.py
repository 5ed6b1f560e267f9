"""Property tests over whole random Mafiosi matches at 3-5 players (hypothesis).

* every card is in exactly one zone after every action;
* no view or event sent to a seat (or a spectator) names a card that seat may not see;
  in particular no seat learns another's bouncer before all are chosen, nor another's
  won cards or point cards before the final reveal;
* ``legal_actions``, ``illegal_reasons`` and ``apply`` agree; illegal actions raise
  :class:`IllegalAction` and leave the state unchanged;
* a match replays exactly from its seed and its log.
"""
from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.games import mafiosi as maf
from shared.games.mafiosi.bot import MafiosiBot
from shared.rules import IllegalAction, events_for

ALL_IDS = list(range(54))


def snapshot(state):
    d = copy.deepcopy({k: v for k, v in state.__dict__.items() if k != "rng"})
    return d, state.rng.getstate()


def check(state, events, rng):
    n = state.n
    zones = maf.zones(state)
    assert sorted(c for z in zones.values() for c in z) == ALL_IDS, zones
    for p in [None, *range(n)]:
        view = maf.view(state, p)
        seen = maf.wire_cards(events_for(events, p)) | maf.wire_cards(view)
        allowed = maf.visible_cards(state, p, events)
        assert seen <= allowed, (p, seen - allowed)
        for q in range(n):
            if q == p:
                continue
            other = view["players"][q]
            assert other["won"] is None
            if state.phase != "over":
                assert other["point_cards"] is None
                for e in events_for(events, p):
                    if e["type"] == "point_card_kept" and e["seat"] == q:
                        assert "card" not in e
            if state.phase == "bouncer":
                assert other["bouncer"] is None and other["clan"] is None
                if state.bouncer[q] is not None:
                    assert state.bouncer[q] not in seen
    for p in range(n):
        legal = maf.legal_actions(state, p)
        assert (p in maf.awaiting(state)) == bool(legal)
        if state.phase in ("bouncer", "play") and legal:
            reasons = maf.illegal_reasons(state, p)
            assert {a.card for a in legal} == set(state.hands[p]) - set(reasons)
        for a in rng.sample(legal, min(2, len(legal))):
            maf.apply(state, p, a)  # must not raise
        before = snapshot(state)
        for cls in (maf.PlayCard, maf.ChooseBouncer, maf.KeepPointCard):
            a = cls(rng.randrange(-1, 56))
            if a in legal:
                continue
            try:
                maf.apply(state, p, a)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"unlisted {a} applied for seat {p}")
        assert snapshot(state) == before


def play(seed: int, n: int, rounds: int | None, smart: list[bool], checks: bool = True):
    config = {"seats": n} if rounds is None else {"seats": n, "rounds": rounds}
    rng = random.Random(seed)
    bots = [MafiosiBot(p, random.Random(f"{seed}/{p}")) if smart[p] else None for p in range(n)]
    state = maf.new_match(config, seed)
    log = []
    for p, bot in enumerate(bots):
        if bot:
            bot.observe([], maf.view(state, p))
    while not maf.is_over(state):
        seat = rng.choice(sorted(maf.awaiting(state)))  # simultaneous choices in any order
        legal = maf.legal_actions(state, seat)
        bot = bots[seat]
        action = bot.decide(maf.view(state, seat), legal).action if bot else rng.choice(legal)
        state, events = maf.apply(state, seat, action)
        log.append((seat, action))
        for p, b in enumerate(bots):
            if b:
                b.observe(events_for(events, p), maf.view(state, p))
        if checks:
            check(state, events, rng)
    return config, state, log


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(3, 5),
       rounds=st.sampled_from([None, 1, 20]), smart=st.lists(st.booleans(), min_size=5, max_size=5))
def test_random_matches_keep_every_invariant(seed, n, rounds, smart):
    config, state, log = play(seed, n, rounds, smart[:n])
    result = maf.scores(state)
    assert result["rounds"] <= (rounds or n)
    assert result["winners"] and all(result["scores"][w] == max(result["scores"]) for w in result["winners"])


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(3, 5))
def test_a_match_replays_from_its_seed_and_log(seed, n):
    config, state, log = play(seed, n, None, [True, False, True, False, False], checks=False)
    again = maf.new_match(config, seed)
    for seat, action in log:
        again, _ = maf.apply(again, seat, action)
    assert maf.scores(again) == maf.scores(state) and maf.zones(again) == maf.zones(state)
    assert maf.full_view(again) == maf.full_view(state)


def test_twenty_rounds_shrink_the_deal():
    config, state, log = play(11, 5, 20, [False] * 5, checks=False)
    kept = sum(len(p) for p in state.points)
    assert kept >= 20 and state.deck_size == 54 - kept + len(state.round_results[-1]["winners"])
    assert state.hand_size == min(9, state.deck_size // 5) < 9
