"""Property tests over whole random bot matches of Omerta (hypothesis).

* every card is in exactly one zone after every action;
* no view or event sent to a seat (or a spectator) names a card that seat may not see;
* scores follow the RULES.md §2.8 table, recomputed here independently;
* ``legal_actions`` and ``apply`` agree;
* a match replays exactly from its seed and its log.
"""
from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.bots import make_bot
from shared.games import omerta as om
from shared.rules import IllegalAction, events_for
from shared.sim import play_match, replay

ALL_IDS = list(range(len(om.DECK)))


def card_ids(obj: Any) -> set[int]:
    """Ids of every card dict (``{"id", "kind", ...}``) anywhere inside ``obj``."""
    found: set[int] = set()
    if isinstance(obj, dict):
        if "id" in obj and "kind" in obj:
            found.add(obj["id"])
        for v in obj.values():
            found |= card_ids(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            found |= card_ids(v)
    return found


def public_ids(state: om.OmertaState, events) -> set[int]:
    """Cards everybody may see after these events: the discard pile, a card taken from
    it, the attack card held aside, cards revealed at round end, and cards a public
    reveal event shows (wrong snap or Hitwoman, Driver)."""
    ids = set(state.discard)
    if state.drawn is not None and state.drawn_from == "discard":
        ids.add(state.drawn)
    if state.attack_card is not None:
        ids.add(state.attack_card)
    if state.last_round:
        ids |= card_ids(state.last_round["games"])
    for e in events:
        if e.type in ("snap", "counter", "driver", "round_over", "replace", "discard",
                      "draw", "marker_removed"):
            ids |= card_ids(dict(e.data))
    return ids


def own_ids(state: om.OmertaState, seat: int) -> set[int]:
    """Cards ``seat`` may see privately: its own slots (looks, swaps into them), its drawn
    card, and the safe during its own Safecracker look."""
    ids = {cid for _, cid in state.games[seat]}
    if state.turn == seat and state.drawn is not None:
        ids.add(state.drawn)
    if state.turn == seat and state.step == "safe":
        ids |= set(state.safe)
    return ids


class Checker:
    def __init__(self, n: int):
        self.n = n
        self.rng = random.Random(n)
        self.count = 0

    def __call__(self, state, seat, action, events):
        self.count += 1
        zones = om.zones(state)
        assert sorted(c for z in zones.values() for c in z) == ALL_IDS, zones
        public = public_ids(state, events)
        spectator = card_ids(events_for(events, None)) | card_ids(om.view(state, None))
        assert spectator <= public, (action, spectator - public)
        for p in range(self.n):
            seen = card_ids(events_for(events, p)) | card_ids(om.view(state, p))
            assert seen <= public | own_ids(state, p), (p, action, seen - public - own_ids(state, p))
        if self.count % 5 == 0:
            self.check_legal(state)

    def check_legal(self, state):
        """Every listed action applies; a random unlisted one is refused."""
        for p in range(self.n):
            legal = om.legal_actions(state, p)
            for a in self.rng.sample(legal, min(4, len(legal))):
                om.apply(state, p, a)  # must not raise
            candidates = [om.Replace(self.rng.randrange(80)), om.Snap(self.rng.randrange(80)),
                          om.DrawDeck(), om.DeclareOmerta(), om.TakeDiscard(), om.DiscardDrawn(),
                          om.Lady(self.rng.randrange(6)), om.Mole(self.rng.randrange(80)),
                          om.SnapPass(), om.Decline(), om.EndTurn()]
            for a in candidates:
                if a not in legal:
                    try:
                        om.apply(state, p, a)
                    except IllegalAction:
                        continue
                    raise AssertionError(f"unlisted {a} applied for seat {p}")


def expected_round_scores(stocks: list[int], declarer: int | None) -> list[int]:
    """RULES.md §2.8 and D-OM-25, written again from the table."""
    n = len(stocks)
    if declarer is None:
        return [0 if s == min(stocks) else s for s in stocks]
    others = [stocks[q] for q in range(n) if q != declarer]
    if stocks[declarer] <= 7 and stocks[declarer] <= min(others):
        return [0 if q == declarer else stocks[q] for q in range(n)]
    return [stocks[q] + 20 if q == declarer else (0 if stocks[q] == min(others) else stocks[q])
            for q in range(n)]


def play(seed: int, kinds: list[str]):
    n = len(kinds)
    bots = [make_bot("omerta", p, f"{seed}/{p}", {"think_ms": 0}, kind=k) for p, k in enumerate(kinds)]
    checker = Checker(n)
    config = {"seats": n, "cap_turns_per_player": 25}
    record = play_match(om, config, seed, bots, on_apply=checker)
    return config, record, checker


@settings(max_examples=20)
@given(seed=st.integers(0, 2**31), kinds=st.lists(st.sampled_from(["smart", "random"]), min_size=3, max_size=5))
def test_random_bot_matches_keep_every_invariant(seed, kinds):
    config, record, checker = play(seed, kinds)
    state = record.state
    assert om.is_over(state) and checker.count == record.applies
    rounds = [e.data for e in record.events if e.type == "round_over"]
    assert len(rounds) == len(kinds)
    totals = [0] * len(kinds)
    for r in rounds:
        assert r["stocks"] == [sum(slot["card"]["points"] for slot in g) for g in r["games"]]
        assert r["round_scores"] == expected_round_scores(r["stocks"], r["declarer"])
        totals = [t + s for t, s in zip(totals, r["round_scores"])]
        assert r["totals"] == totals
    result = om.scores(state)
    assert result["scores"] == totals
    assert result["winners"] == [p for p in range(len(kinds)) if totals[p] == min(totals)]


@settings(max_examples=5)
@given(seed=st.integers(0, 2**31))
def test_a_match_replays_from_its_seed_and_log(seed):
    config, record, _ = play(seed, ["smart", "random", "smart", "random"])
    again = replay(om, config, seed, record.log)
    assert om.scores(again) == om.scores(record.state)
    assert om.zones(again) == om.zones(record.state)
