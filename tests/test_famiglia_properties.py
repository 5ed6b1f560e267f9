"""Famiglia property tests over whole matches played by bots (RandomBot, FamigliaBot and
an "eager" random player that rarely passes, so that matches reach the reshuffle and the
end of the deck).

Checked after every action: every card in exactly one zone; no card a seat may not see
(the opponent's never-shown hand cards, the deck) in that seat's view or events, nor in
the spectator's (``fam.visible_cards``, itself checked against the cards ever face up, and
``fam.wire_cards``, checked against ``all_ids``); every listed legal action applies, a
sample of unlisted ones is refused.
At the end: the match ended, and the scores are the VP-table sums of hand + gang.
"""
from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.bots.base import Decision
from shared.games.famiglia.bot import FamigliaBot
from shared.bots.random_bot import RandomBot
from shared.games import famiglia as fam
from shared.rules import Action, IllegalAction, events_for
from tests.test_famiglia_helpers import all_ids

MAX_ACTIONS = 3000


class EagerBot:
    """Random, but takes a card 70 % of the time when it can and passes only when it
    must: long matches that reach the reshuffle and the end of the deck."""

    def __init__(self, seat: int, rng: random.Random):
        self.seat, self.rng = seat, rng

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        pass

    def decide(self, view: dict[str, Any], legal: list[Action]) -> Decision:
        takes = [a for a in legal if a.TYPE.startswith("take")]
        if takes and self.rng.random() < 0.7:
            return Decision(self.rng.choice(takes), 0)
        others = [a for a in legal if a.TYPE != "pass"]
        return Decision(self.rng.choice(others) if others else legal[-1], 0)


POLICIES = {
    "random": lambda seat, rng: RandomBot(seat, rng),
    "eager": EagerBot,
    "famiglia": FamigliaBot,
}


def _candidates(s: fam.FamigliaState, rng: random.Random, k: int) -> list[Action]:
    """Plausible-looking actions, mostly made of cards near the active seat."""
    near = s.street + s.hands[0] + s.hands[1] + s.gangs[0] + s.gangs[1] + s.discard + s.deck[-3:]

    def c() -> int:
        return rng.choice(near) if near and rng.random() < 0.9 else rng.randrange(-1, 61)

    makers = [
        lambda: fam.Renew(c()),
        lambda: fam.Accountant(c()),
        lambda: fam.Swap(c(), c()),
        lambda: fam.Brute(c(), c(), rng.randrange(0, 6)),
        lambda: fam.TakeFree(c()),
        lambda: fam.TakePair(c(), c(), c()),
    ]
    return [rng.choice(makers)() for _ in range(k)]


def play_checked(seed: int, policies: tuple[str, str], first: int) -> tuple[fam.FamigliaState, list]:
    """Play one match, checking the invariants after every action; returns the final
    state and the log of (seat, action dict)."""
    s = fam.new_match({"first_player": first}, seed)
    bots = {p: POLICIES[policies[p]](p, random.Random(f"{seed}/{p}")) for p in (0, 1)}
    for p, bot in bots.items():
        bot.observe([], fam.view(s, p))
    check_rng = random.Random(seed)
    public: set[int] = set(s.street)
    log = []
    for _ in range(MAX_ACTIONS):
        if fam.is_over(s):
            break
        seat = s.turn
        legal = fam.legal_actions(s, seat)
        assert legal and legal[-1] == fam.Pass()
        assert fam.legal_actions(s, 1 - seat) == []
        assert len(set(legal)) == len(legal)
        # every listed action applies (all of them, or a sample of the long lists)
        sample = legal if len(legal) <= 30 else check_rng.sample(legal, 30)
        for a in sample:
            fam.apply(s, seat, a)
        # unlisted actions are refused, and so is any action of the other seat
        listed = set(legal)
        for a in _candidates(s, check_rng, 12):
            if a not in listed:
                try:
                    fam.apply(s, seat, a)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"unlisted {a} was accepted")
        try:
            fam.apply(s, 1 - seat, legal[0])
        except IllegalAction:
            pass
        else:
            raise AssertionError("the other seat could act")

        action = bots[seat].decide(fam.view(s, seat), legal).action
        assert action in listed
        hands_before = [set(h) for h in s.hands]
        s, events = fam.apply(s, seat, action)
        log.append((seat, action.to_dict()))
        _check_zones(s)
        public |= set(s.street) | set(s.gangs[0]) | set(s.gangs[1]) | set(s.discard)
        for q in (0, 1, None):
            seen = [fam.view(s, q), events_for(events, q)]
            shown = all_ids(seen)
            assert fam.wire_cards(seen) == shown
            visible = fam.visible_cards(s, q, events)
            assert shown <= visible, (q, shown - visible)
            if not fam.is_over(s):
                allowed = set(public)
                if q is not None:
                    allowed |= hands_before[q] | set(s.hands[q])
                assert visible <= allowed, (q, visible - allowed)
        for p, bot in bots.items():
            bot.observe(events_for(events, p), fam.view(s, p))
    assert fam.is_over(s), "the match did not end"
    return s, log


def _check_zones(s: fam.FamigliaState) -> None:
    every = sum(fam.zones(s).values(), [])
    assert sorted(every) == list(range(60)), "a card is missing or in two zones"
    assert 0 <= s.exhaustion <= 2 and (s.exhaustion < 2 or not s.deck)
    if s.exhaustion >= 1:
        assert s.discard == []


def _check_final(s: fam.FamigliaState) -> None:
    result = fam.scores(s)
    for p in (0, 1):
        assert result["scores"][p] == sum(fam.card(c).vp for c in s.hands[p] + s.gangs[p])
    assert sum(result["scores"]) + sum(fam.card(c).vp for c in s.street + s.deck + s.discard) == 175
    best = max(result["scores"])
    assert result["winners"] and all(result["scores"][w] == best for w in result["winners"])
    assert result["reason"] in ("deck", "passes")
    if result["reason"] == "deck":
        assert s.exhaustion == 2 and s.turn_no == s.last_turn
        assert s.turn_no % 2 == 0  # both players had the same number of turns


policy_pairs = st.sampled_from([("random", "random"), ("eager", "eager"), ("random", "eager"),
                                ("eager", "random")])


@settings(max_examples=20)
@given(seed=st.integers(0, 2**32 - 1), policies=policy_pairs, first=st.integers(0, 1))
def test_random_matches_keep_every_invariant(seed, policies, first):
    s, _ = play_checked(seed, policies, first)
    _check_final(s)


@settings(max_examples=8)
@given(seed=st.integers(0, 2**32 - 1), other=st.sampled_from(["famiglia", "random", "eager"]),
       first=st.integers(0, 1), bot_seat=st.integers(0, 1))
def test_famiglia_bot_matches_keep_every_invariant(seed, other, first, bot_seat):
    policies = ("famiglia", other) if bot_seat == 0 else (other, "famiglia")
    s, _ = play_checked(seed, policies, first)
    _check_final(s)


def test_long_matches_reach_the_reshuffle_and_the_end_of_the_deck():
    """The eager players do exercise the deep rules (not a vacuous property run)."""
    seen = set()
    for seed in range(6):
        s, _ = play_checked(seed, ("eager", "eager"), seed % 2)
        _check_final(s)
        seen.add((s.exhaustion, s.end_reason))
    assert {(1, "passes"), (2, "deck")} <= seen


def test_a_match_replays_from_seed_and_action_log():
    s, log = play_checked(2024, ("famiglia", "eager"), 1)
    replay = fam.new_match({"first_player": 1}, 2024)
    for seat, data in log:
        replay, _ = fam.apply(replay, seat, fam.ACTIONS.parse(data))
    assert fam.zones(replay) == fam.zones(s)
    assert fam.scores(replay) == fam.scores(s)
    assert fam.view(replay, None) == fam.view(s, None)
    _, log2 = play_checked(2024, ("famiglia", "eager"), 1)
    assert log2 == log  # seeded bots: the same match again


def test_replay_diverges_with_another_seed():
    _, log = play_checked(77, ("eager", "eager"), 0)
    other = fam.new_match({"first_player": 0}, 78)
    try:
        for seat, data in log:
            other, _ = fam.apply(other, seat, fam.ACTIONS.parse(data))
    except IllegalAction:
        return
    raise AssertionError("a log replayed on another seed's deck should not fit")
