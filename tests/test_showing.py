"""The bots' idea of how long a step takes to show (shared/games/<game>/showing.py) is the
client's: for every step of seeded bot matches of each game, the real table scene of a
spectator animates the step's public events from an idle screen, and its effects end
exactly when :func:`shared.showing.Stage` says (the queue too, which the next step
follows). Steps are checked until each kind of event was seen in a few of them."""
from __future__ import annotations

import collections
import functools
import importlib

import pytest

from client import games
from client.animation import Animator
from shared.bots import make_bot
from shared.games import get_game
from shared.rules import events_for
from shared.showing import Stage
from shared.sim import play_match
from tests.test_client_app import make_app
from tests.test_client_fit import _Link, _seats

#: (seats, seed) of the seeded bot matches played for each game (the rare events -- an
#: Omerta reshuffle or Hitwoman, a Family Business swap -- come up in these).
MATCHES = {"omerta": [(s, seed) for s in (3, 4, 5) for seed in range(3)],
           "famiglia": [(2, seed) for seed in range(6)],
           "family_business": [(s, seed) for s in (3, 4, 6) for seed in range(3)],
           "mafiosi": [(3, 6), (5, 1)]}
#: A step is checked while one of its kinds of event was checked fewer times than this.
ENOUGH = 12


@functools.lru_cache(maxsize=None)
def steps(name: str, seats: int, seed: int) -> list[tuple[dict, dict, list[dict]]]:
    """``(view before, view after, public events)`` of every step of a seeded bot match."""
    rules = get_game(name)
    bots = [make_bot(name, p, f"{seed}/{p}", {"think_ms": 0}) for p in range(seats)]
    record = play_match(rules, {"seats": seats}, seed, bots)
    state = rules.new_match({"seats": seats}, seed)
    out = []
    for seat, action in record.log:
        before = rules.view(state, None)
        state, events = rules.apply(state, seat, action)
        out.append((before, rules.view(state, None), events_for(events, None)))
    return out


def spectator_table(app, name: str, seats: int, view: dict):
    n = seats
    started = {"type": "match_started", "table": 3, "game": name, "seat": None, "view": view, "legal": [],
               "t_server": 0.0, "seats": _seats(n), "name": "Friday night"}
    return app.reset(games.get(name).table_scene(app, _Link(), started))


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_each_step_shows_as_long_as_the_bots_wait(tmp_path, name):
    app = make_app(tmp_path)
    shown = importlib.import_module(f"shared.games.{name}.showing").shown
    checked: collections.Counter = collections.Counter()
    animated = 0
    for seats, seed in MATCHES[name]:
        scene = None
        for before, after, events in steps(name, seats, seed):
            kinds = {e["type"] for e in events if shown(e) is not None}
            if not kinds or min(checked[k] for k in kinds) >= ENOUGH:
                continue
            checked.update(kinds)
            if scene is None:
                scene = spectator_table(app, name, seats, before)
            animated += check_step(scene, shown, before, after, events)
    assert animated > 50
    assert set(checked) >= EXPECTED[name], EXPECTED[name] - set(checked)


#: The kinds of event each game animates that these matches must have checked.
EXPECTED = {
    "omerta": {"round_started", "look", "draw", "replace", "discard", "snap", "counter", "give", "swap", "shuffle",
               "driver", "safe_swap", "marker_placed", "marker_removed", "reshuffle", "omerta"},
    "famiglia": {"street_draw", "renew", "reshuffle", "accountant", "brute", "swap", "recruit", "end_triggered"},
    "family_business": {"turn", "draw", "play", "void", "counter", "placed", "collected", "returned", "moved",
                        "substituted", "swapped", "revived", "killed", "eliminated", "war_started", "war_rate",
                        "war_ended", "reshuffle"},
    "mafiosi": {"play", "trick_won", "bouncer_chosen", "bouncers_revealed", "round_started", "point_card_kept",
                "round_scored", "match_over", "leader"},
}


def check_step(scene, shown, before, after, events) -> int:
    """Animate one step on an idle screen and compare, then each of its events alone
    (a long effect may hide a short one's end in the whole step): 1 when the step
    animated anything."""
    for ev in events:
        if shown(ev) is not None and len(events) > 1:
            check_events(scene, shown, before, after, [ev])
    return check_events(scene, shown, before, after, events)


def check_events(scene, shown, before, after, events) -> int:
    scene.anim = Animator()  # an idle screen: nothing left to show
    scene.t = 0.0
    scene.view, scene.layout = before, scene._layout()
    scene._apply(after, events)
    ends = [e.t1 for e in scene.anim.effects]
    stage = Stage(shown)
    end = stage.show(events, 0.0)
    kinds = [e["type"] for e in events]
    assert scene.anim.cursor == pytest.approx(max(0.0, stage.cursor)), kinds
    if not ends:
        assert end == float("-inf"), kinds
        return 0
    assert max(ends) == pytest.approx(end), kinds
    return 1
