"""A new game's client is one folder: Fake Snap (``tests/fakegame/``) registers its rules
and its client, and the unchanged app opens its table from a ``match_started``, draws
it, and a claim key sends a claim stamped by the table kit (``t_press``, ``t_shown``)."""
from __future__ import annotations

import pygame
import pytest

from tests.test_client_app import FakeLink, StampClock, key, make_app

rules = pytest.importorskip("tests.fakegame.rules", reason="the fake game's rules (tests/fakegame/rules) are not there yet")


@pytest.fixture
def fake_game():
    from tests.fakegame import client as fake_client

    rules.register()
    fake_client.register()
    try:
        yield fake_client
    finally:
        fake_client.unregister()
        rules.unregister()


def window_state():
    """Seat 0 has flipped a card: a snap window is open for every seat."""
    state = rules.new_match({"seats": 2}, 3)
    state, events = rules.apply(state, 0, rules.Flip())
    assert rules.reaction_window(state) is not None
    return state, events


def started(state, seat):
    return {"type": "match_started", "table": 5, "game": rules.NAME, "seat": seat,
            "view": rules.view(state, seat), "t_server": 0.0,
            "legal": [a.to_dict() for a in rules.legal_actions(state, seat)]}


def test_the_app_opens_the_fake_game_from_the_registry(tmp_path, fake_game):
    from client import games

    assert games.get(rules.NAME) is fake_game.GAME
    assert rules.NAME in dict(games.hostable())
    assert games.seat_range(rules.NAME) == (2, 4, 2) and games.title(rules.NAME) == "Fake Snap"
    app = make_app(tmp_path)
    state, _ = window_state()
    link = FakeLink(1)
    app.connections.route(link, started(state, 1))
    scene = app.top
    assert isinstance(scene, fake_game.FakeSnapTable) and scene.local_seats == {1}
    for _ in range(5):
        app.display.render(1 / 60, flip=False)
    assert scene.window_left() is not None and scene.window_shown_ms


def test_a_claim_key_is_stamped_by_the_kit(tmp_path, fake_game):
    from shared.rules import events_for

    app = make_app(tmp_path)
    state, events = window_state()
    link = FakeLink(1)
    app.connections.route(link, started(rules.new_match({"seats": 2}, 3), 1))
    scene = app.top
    app.connections.route(link, {"type": "update", "table": 5, "events": events_for(events, 1), "view": rules.view(state, 1),
                     "legal": [a.to_dict() for a in rules.legal_actions(state, 1)]})
    for _ in range(5):
        app.display.render(1 / 60, flip=False)
    wid = state.window.id
    assert wid in scene.window_shown_ms, "the window was never shown"
    clock = app.sampler = StampClock()
    key(pygame.K_1)  # the cursor on our first card
    key(pygame.K_SPACE)  # snap
    app.sample()
    assert len(link.conn.sent) == 1
    sent = link.conn.sent[0]
    first = scene.own_cards(1)[0]
    assert sent["action"] == {"type": "fake_snap_claim", "card": first}
    assert sent["t_press"] == clock.stamps[-1]
    assert sent["t_shown"] == scene.window_shown_ms[wid] <= sent["t_press"]


def test_the_pass_key_passes_and_an_unknown_game_is_refused(tmp_path, fake_game):
    app = make_app(tmp_path)
    state, _ = window_state()
    link = FakeLink(1)
    app.connections.route(link, started(state, 1))
    key(pygame.K_RETURN)  # pass (the default binding)
    app.sample()
    assert [s["action"] for s in link.conn.sent] == [{"type": "fake_snap_pass"}]
    fake_game.unregister()
    app.connections.route(FakeLink(0), {**started(state, 0), "table": 6})
    assert app.top is not None and app.display.notice is not None and rules.NAME in app.display.notice[0]
