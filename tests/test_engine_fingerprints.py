"""Engine and bot behaviour is pinned: seeded matches of every game must replay exactly.

Issue 14 ("Engine speed") makes the engines, views, bots and the simulator faster; none
of that may change what happens in a match. For every registered game this plays seeded
matches through :func:`shared.sim.play_match` (the game's own bots, and random bots,
which reach more corners of the rules) and hashes (sha256):

* **matches** -- per match the action log ``(seat, action.to_dict())``, every event
  (``type``, ``data``, ``to``, ``secret``, ``secret_to``), every bot decision (action,
  ``delay_ms``, ``claim``), the number of applies, the virtual duration and ``scores``;
* **views** -- for fewer matches, after every action: every seat's and the spectator's
  view (``json.dumps`` in key order, so a view must stay byte-identical), every seat's
  legal actions, ``awaiting``, the open reaction window and, at the end, ``full_view``.

The expected digests are :data:`EXPECTED`. A digest that changes means a behaviour
change: find it, don't re-record. Only a change of the rules made on purpose (and said
so) re-records them::

    .venv/bin/python tests/test_engine_fingerprints.py     # prints the current digests
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

if __name__ == "__main__":  # run as a script: make ``shared`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared import games as registry
from shared.bots import make_bot
from shared.sim import play_match

#: Matches per game and kind of digest.
SMART_MATCHES = 30
RANDOM_MATCHES = 10
VIEW_MATCHES = 4


def _dumps(obj: Any) -> str:
    return json.dumps(obj, default=repr, separators=(",", ":"))


class _Recording:
    """Wraps a bot and records its decisions (seat, action, delay, claim)."""

    def __init__(self, bot: Any, log: list):
        self._bot, self._log = bot, log
        self.seat = bot.seat

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        self._bot.observe(events, view)

    def decide(self, view: dict[str, Any], legal: list[Any]) -> Any:
        d = self._bot.decide(view, legal)
        self._log.append(None if d is None else
                         (self.seat, d.action.to_dict(), d.delay_ms, d.claim))
        return d


def _config(game: str, i: int) -> dict[str, Any]:
    d = registry.game_def(game)
    span = d.max_seats - d.min_seats + 1
    seats = d.default_seats if i % 3 == 0 else d.min_seats + (i % span)
    return {"seats": seats}


def _settings(i: int) -> dict[str, Any]:
    return {"think_ms": 0} if i % 2 == 0 else {"think_ms": 700}


def match_digest(game: str, i: int, kind: str, views: bool = False) -> str:
    """sha256 of match ``i`` of ``game`` between ``kind`` bots (see the module doc)."""
    rules = registry.game_def(game).rules
    config = _config(game, i)
    seats = int(config["seats"])
    decisions: list = []
    bots = [_Recording(make_bot(game, p, f"fp{i}/{p}", _settings(i), kind=kind), decisions)
            for p in range(seats)]
    h = hashlib.sha256()
    on_apply = None
    if views:
        def hash_views(state: Any, seat: Any, action: Any, events: Any) -> None:
            for p in [*range(seats), None]:
                h.update(_dumps(rules.view(state, p)).encode())
                if p is not None:
                    h.update(_dumps([a.to_dict() for a in rules.legal_actions(state, p)]).encode())
            h.update(_dumps(sorted(rules.awaiting(state))).encode())
            h.update(repr(rules.reaction_window(state)).encode())
        on_apply = hash_views
    record = play_match(rules, config, 1000 + i, bots, on_apply=on_apply)
    h.update(_dumps([(s, a.to_dict()) for s, a in record.log]).encode())
    h.update(_dumps([(e.type, dict(e.data), e.to, None if e.secret is None else dict(e.secret),
                      e.secret_to) for e in record.events]).encode())
    h.update(_dumps(decisions).encode())
    h.update(_dumps([record.applies, record.virtual_ms, rules.scores(record.state)]).encode())
    if views:
        h.update(_dumps(rules.full_view(record.state)).encode())
    return h.hexdigest()


def game_digest(game: str, kind: str) -> str:
    """One sha256 over the match digests of ``game``'s matches of ``kind`` (``smart``,
    ``random`` or ``views``)."""
    h = hashlib.sha256()
    if kind == "views":
        for i in range(VIEW_MATCHES):
            h.update(match_digest(game, i, "smart" if i % 2 == 0 else "random", views=True).encode())
    else:
        for i in range(SMART_MATCHES if kind == "smart" else RANDOM_MATCHES):
            h.update(match_digest(game, i, kind).encode())
    return h.hexdigest()


#: (game, kind) -> digest, recorded before the issue 14 speed work.
EXPECTED: dict[tuple[str, str], str] = {
    ('famiglia', 'smart'): 'e51ae3c6a7bbbe103392b5c8bc47bbe2abab3e1e071d00e41f16b51f76e0ddf6',
    ('famiglia', 'random'): '0a52a167ace70e6d6c49ea475076df0a349dd06a99dd1a7b6f750338a217df72',
    ('famiglia', 'views'): 'f38020a4fc0468efc72e0b287761485452b8560079f7108a2ad6a9bd2b2af71b',
    ('family_business', 'smart'): '9b3d2db10ca6e4bcf6db64d58738afddbcdfe3fa78b77293942e785b84a342c8',
    ('family_business', 'random'): '302881e8eec4dbee631dc98404cdb18d10199ea2d5c8e97c43c44a3ffded7d4d',
    ('family_business', 'views'): '0346c6a34ec44a150e3238a6dc007421efb93d31498e5e1d0bac43c50d63ff92',
    ('mafiosi', 'smart'): '99154621c9bb13da34947a2c3c10803fda022235ead5ca9ab6a7c50a3295d0fa',
    ('mafiosi', 'random'): 'e85a52e9fa1db5b631d8b68b75df50c3cbc9b853447ec4abc0ab28ef2f605c65',
    ('mafiosi', 'views'): '6a9ca8c3037b9ba90dcd8de178b35248ae517f2cced170226f5d5aefbc11a2db',
    ('omerta', 'smart'): '4f1875e7a9f223a068e339b93ede9af4485fb23d9b8a5f28285fd298f816cd47',
    ('omerta', 'random'): 'cddde97d10885f5c49b8e6ad3200b6139b9d1e4a570c3657144b013d762841c5',
    ('omerta', 'views'): '7b64bae9ba5ee2ff7699cdae1b877f4b68a52a039871fc7e6d2aabe09cd25e12',
}

KINDS = ("smart", "random", "views")
#: The four games of the suite (not a fake game a test may register).
GAMES = ("famiglia", "family_business", "mafiosi", "omerta")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", KINDS)
def test_fingerprint(game: str, kind: str) -> None:
    assert (game, kind) in EXPECTED, f"no recorded fingerprint for {game}/{kind}"
    assert game_digest(game, kind) == EXPECTED[(game, kind)], (
        f"{game} {kind} matches no longer replay as recorded: a behaviour change")


def test_fingerprint_sees_a_changed_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that decides differently once changes the digest (the digest is not blind)."""
    game = "omerta"
    before = match_digest(game, 0, "smart")
    from shared.games.omerta import bot as omerta_bot
    original = omerta_bot.OmertaBot.decide
    calls = [0]

    def decide(self: Any, view: Any, legal: Any) -> Any:
        calls[0] += 1
        d = original(self, view, legal)
        if calls[0] == 40 and d is not None:
            return type(d)(d.action, d.delay_ms + 1.0, d.claim)
        return d

    monkeypatch.setattr(omerta_bot.OmertaBot, "decide", decide)
    assert match_digest(game, 0, "smart") != before


def test_omerta_henchman_listing_is_what_check_power_accepts() -> None:
    """``powers._power_actions`` and ``_has_power_action`` take the Henchman's candidates
    without checking each (a speed-up): every one must pass ``_check_power``, as for the
    other powers."""
    from shared.games import omerta as om
    from shared.games.omerta import powers
    from shared.rules import IllegalAction

    checked = 0

    def on_apply(state: Any, seat: Any, action: Any, events: Any) -> None:
        nonlocal checked
        if state.phase != "turn":
            return
        listed = powers._power_actions(state, "henchman")
        accepted = []
        for a in powers._power_candidates(state, "henchman"):
            try:
                powers._check_power(state, state.turn, a)
            except IllegalAction:
                continue
            accepted.append(a)
        assert listed == accepted
        assert powers._has_power_action(state, "henchman") == bool(accepted)
        checked += len(listed)

    for i in range(3):
        bots = [make_bot("omerta", p, f"hench{i}/{p}", {"think_ms": 0}) for p in range(4)]
        play_match(om, {"seats": 4}, 50 + i, bots, on_apply=on_apply)
    assert checked > 1000


def test_omerta_views_reusing_the_previous_states_lists_equal_fresh_ones() -> None:
    """``views._public`` reuses the ``players``, ``discard``, ``totals`` and
    ``round_scores`` lists of the state a state was cloned from when they would come out
    equal: every view equals one built afresh (from an unpickled copy, which has no
    previous state), byte for byte, and a state changed by hand after its view was built
    is not mistaken for its copy."""
    import pickle

    from shared.games import omerta as om

    reused = reused_scores = kept_slots = 0
    kept_seats: set[int] = set()

    def on_apply(state: Any, seat: Any, action: Any, events: Any) -> None:
        nonlocal reused, reused_scores, kept_slots
        prev = state._prev
        fresh = pickle.loads(pickle.dumps(state))
        for p in [*range(state.n), None]:
            assert _dumps(om.view(state, p)) == _dumps(om.view(fresh, p))
        if prev is not None and om.view(state, None)["players"] is prev[5]:
            reused += 1
        elif prev is not None and len(prev[5]) == state.n:  # rebuilt: the seats that show the same keep theirs
            players = om.view(state, None)["players"]
            kept_seats.update(p for p in range(state.n) if players[p] is prev[5][p])
            kept_slots += sum(players[p]["slots"] is prev[5][p]["slots"] and players[p] != prev[5][p]
                              for p in range(state.n))
        if prev is not None and state.round_scores and om.view(state, None)["round_scores"] is prev[10]:
            reused_scores += 1
        if prev is not None and state.window is not None and state.window is prev[11]:
            assert om.view(state, None)["window"] is prev[12]  # the same window, not rebuilt

    for i in range(3):
        bots = [make_bot("omerta", p, f"reuse{i}/{p}", {"think_ms": 0}) for p in range(4)]
        play_match(om, {"seats": 4}, 70 + i, bots, on_apply=on_apply)
    assert reused > 500  # the reuse happens (most actions change no slot)
    assert reused_scores > 500  # and most actions end no round
    assert kept_seats == {0, 1, 2, 3} and kept_slots > 20, (kept_seats, kept_slots)  # per seat too

    s = om.new_match({"seats": 3}, 5)
    om.view(s, 0)
    s.totals[0] += 5  # by hand, after the view was built
    s.discard.append(s.draw_pile.pop())
    s.round_scores.append([5, 0, 0])
    c = s.clone()
    assert _dumps(om.view(c, 0)) == _dumps(om.view(pickle.loads(pickle.dumps(c)), 0))
    assert om.view(c, 0)["players"][0]["total"] == 5
    assert om.view(c, 0)["totals"] == [5, 0, 0] and om.view(c, 0)["round_scores"] == [[5, 0, 0]]


if __name__ == "__main__":
    for g in GAMES:
        for k in KINDS:
            print(f"    ({g!r}, {k!r}): {game_digest(g, k)!r},")
