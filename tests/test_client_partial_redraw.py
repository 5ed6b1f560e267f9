"""Partial redraws (issue 13 "Idle cost"): a table nobody plays on here (the TV view, a
spectator) repaints only what moved -- the cards in flight, the time bars, the turn
light -- over its cached base frame. What reaches the screen must be exactly what a
whole redraw paints: a real match is played to a spectator's table through the app, and
after every frame the screen is compared, pixel for pixel, with the same frame drawn
whole. Headless (``SDL_VIDEODRIVER=dummy``)."""
from __future__ import annotations

import random

import pygame

from client import display as app_mod
from client.animation import Animator, Banner
from client.games.omerta import draw as omerta_draw
from client.table.draw import BaseFrame, merge_rects
from shared.games import omerta
from shared.rules import events_for
from tests.test_client_app import FakeLink, make_app


def _spectator_table(app, state):
    """A spectator's table (no local seat), the app's start-up burst of whole frames over."""
    from client.games.omerta.table import OmertaTableScene

    link = FakeLink(0)
    started = {"type": "match_started", "table": 9, "game": "omerta", "seat": None,
               "view": omerta.view(state, None), "legal": [], "t_server": 0.0}
    scene = app.reset(OmertaTableScene(app, link, started))
    app.sample()  # the window's start-up events (shown, focus...)
    app.pacer.active_until = 0.0
    return scene, link


def whole_frame(app, scene, draw_module) -> bytes:
    """The frame drawn whole over a freshly painted base frame (``draw_module._base``:
    an input missing from the base frame's key then shows as a difference, where the
    cached one would be reused by the reference as well), the static layer as the frame
    shown has it (no lazy baking of cards come to rest: that is for the app's own whole
    frames), the scene's record of its top items left as it was. The RGB bytes."""
    kept = (draw_module._base, getattr(draw_module, "BAKE_DELAY_MS", None), scene.top_rects)
    draw_module._base = BaseFrame()
    if kept[1] is not None:
        draw_module.BAKE_DELAY_MS = float("inf")
    try:
        ref = pygame.Surface(app.size, 0, app.display.screen)
        scene.draw(ref)
        if app.manager is not None:
            app.manager.draw_ui(ref)
        return pygame.image.tobytes(ref, "RGB")
    finally:
        draw_module._base, scene.top_rects = kept[0], kept[2]
        if kept[1] is not None:
            draw_module.BAKE_DELAY_MS = kept[1]


def _whole(app, scene) -> bytes:
    return whole_frame(app, scene, omerta_draw)


def _play(app, scene, link, state, rng, actions, frames_per_action, check):
    for _ in range(actions):
        if state.phase == "over" or len(app.stack.visible()) > 1:
            break  # the round's results cover the table
        seat = min(omerta.awaiting(state))
        legal = omerta.legal_actions(state, seat)
        # as bots play: no early declaration (round results would cover the table), few snaps
        calm = [a for a in legal if a.to_dict()["type"] not in ("declare_omerta", "snap")] or legal
        state, events = omerta.apply(state, seat, rng.choice(legal if rng.random() < 0.1 else calm))
        app.connections.route(link, {"type": "update", "table": 9, "events": events_for(events, None),
                         "view": omerta.view(state, None), "legal": []})
        for _ in range(frames_per_action):
            app.display.render(1 / 60)
            check()
    return state


def test_partial_frames_show_exactly_what_a_whole_redraw_paints(tmp_path, monkeypatch):
    monkeypatch.setattr(app_mod, "WHOLE_FRAME_S", 1e9)  # only what the scene says brings a whole frame
    app = make_app(tmp_path)
    try:
        state = omerta.new_match({"seats": 4, "first_player": 0}, 11)
        scene, link = _spectator_table(app, state)
        mismatches: list[int] = []

        def check():
            if len(app.stack.visible()) > 1:
                return  # the round's results over the table: the reference draws the table only
            shown = pygame.image.tobytes(app.display.screen, "RGB")
            if shown != _whole(app, scene):
                mismatches.append(app.display.frames_partial)

        _play(app, scene, link, state, random.Random(5), 60, 40, check)
        shown = (app.display.frames_partial, app.display.frames_whole)
        assert app.display.frames_partial > 200, shown  # the path under test ran
        assert mismatches == []
    finally:
        app.running = False


def test_a_planted_miss_is_seen(tmp_path, monkeypatch):
    """The comparison above can fail: a partial redraw that forgets the cards in flight
    leaves them where they were."""
    monkeypatch.setattr(app_mod, "WHOLE_FRAME_S", 1e9)
    app = make_app(tmp_path)
    try:
        state = omerta.new_match({"seats": 4, "first_player": 0}, 11)
        scene, link = _spectator_table(app, state)
        monkeypatch.setattr(Animator, "items", lambda self, t, art: [])  # the cards in flight forgotten
        bad = []

        def check():
            if len(app.stack.visible()) == 1 and pygame.image.tobytes(app.display.screen, "RGB") != _whole(app, scene):
                bad.append(1)

        _play(app, scene, link, state, random.Random(5), 30, 14, check)
        assert bad
    finally:
        app.running = False


def test_a_player_table_is_drawn_whole(tmp_path):
    """A local seat (buttons, breathing choices, the emote bar) keeps whole frames."""
    from tests.test_client_app import open_table

    app = make_app(tmp_path)
    try:
        state = omerta.new_match({"seats": 3, "first_player": 0}, 2)
        scene, _link = open_table(app, state, 0)
        for _ in range(30):
            app.display.render(1 / 60)
        assert app.display.frames_partial == 0 and app.display.frames_whole == 30
    finally:
        app.running = False


def test_input_and_messages_bring_whole_frames_back(tmp_path):
    app = make_app(tmp_path)
    try:
        state = omerta.new_match({"seats": 4, "first_player": 0}, 11)
        scene, link = _spectator_table(app, state)
        state = _play(app, scene, link, state, random.Random(5), 3, 10, lambda: None)
        partial = app.display.frames_partial
        assert partial > 0
        app.pacer.wake()  # an input event: widgets may be hovered or pressed
        app.display.render(1 / 60)
        assert app.display.frames_partial == partial
        app.pacer.active_until = 0.0
        whole = app.display.frames_whole
        seat = min(omerta.awaiting(state))
        state, events = omerta.apply(state, seat, omerta.legal_actions(state, seat)[0])
        app.connections.route(link, {"type": "update", "table": 9, "events": events_for(events, None),
                         "view": omerta.view(state, None), "legal": []})
        app.display.render(1 / 60)
        assert app.display.frames_whole == whole + 1  # the message's frame is whole
    finally:
        app.running = False


def test_merge_rects_merges_overlaps_and_clips():
    screen = pygame.Rect(0, 0, 100, 100)
    out = merge_rects([pygame.Rect(0, 0, 10, 10), pygame.Rect(5, 5, 10, 10), pygame.Rect(50, 50, 10, 10),
                       pygame.Rect(95, 95, 20, 20), pygame.Rect(200, 200, 5, 5)], screen)
    assert sorted(map(tuple, out)) == [(0, 0, 15, 15), (50, 50, 10, 10), (95, 95, 5, 5)]
    # a long strip crossed by a card: merging would repaint a big box, so both stay
    strip, card = pygame.Rect(0, 40, 100, 4), pygame.Rect(45, 20, 10, 40)
    assert sorted(map(tuple, merge_rects([strip, card], screen))) == [(0, 40, 100, 4), (45, 20, 10, 40)]


def test_base_frame_caches_a_key_from_its_second_frame_and_repaints_only_when_it_changes():
    surf = pygame.Surface((40, 30))
    base = BaseFrame()
    calls = []

    def paint(target):
        calls.append(target is surf)
        target.fill((10, 20, 30))

    base.draw(surf, ("a",), 0.0, paint)  # a key seen once: straight onto the screen
    assert calls == [True] and base.key is None and not base.fresh(("a",), 0.0, (40, 30))
    base.draw(surf, ("a",), 16.0, paint)  # seen again: painted into the cache
    base.draw(surf, ("a",), 32.0, paint)
    assert calls == [True, False] and base.reused == 1 and base.fresh(("a",), 32.0, (40, 30))
    base.draw(surf, ("b",), 48.0, paint)
    base.draw(surf, ("b",), 64.0, paint)
    base.draw(surf, ("b",), 64.0 + BaseFrame.REFRESH_MS, paint)  # the safety net
    base.draw(surf, None, 80.0, paint)  # not cached: painted straight onto the screen
    assert calls == [True, False, True, False, True, True] and surf.get_at((0, 0))[:3] == (10, 20, 30)


def test_base_frame_keys_mostly_skipped_while_every_frame_brings_a_new_one():
    """A deal: the key changes every frame. After STORM such frames the key is built on
    every STORM-th frame only, until a key is seen twice (the storm is over)."""
    surf = pygame.Surface((40, 30))
    base = BaseFrame()
    for i in range(BaseFrame.STORM):
        assert base.wants_key()
        base.draw(surf, (i,), 16.0 * i, lambda target: None)
    asked = [base.wants_key() for _ in range(3 * BaseFrame.STORM)]
    assert asked.count(True) == 3 and asked[BaseFrame.STORM - 1]
    base.draw(surf, ("still",), 500.0, lambda target: None)
    while not base.wants_key():
        base.draw(surf, None, 510.0, lambda target: None)
    base.draw(surf, ("still",), 520.0, lambda target: None)  # the same key again: cached
    assert base.key == ("still",) and all(base.wants_key() for _ in range(10))


def test_a_table_left_in_a_storm_leaves_none_to_the_next_one():
    """The left table's deal (a storm of new keys) must not keep the next table from
    caching its frame: its first frames build their key."""
    surf = pygame.Surface((40, 30))
    base = BaseFrame()
    for i in range(2 * BaseFrame.STORM):
        base.draw(surf, (i,), 16.0 * i, lambda target: None)
    assert not all(base.wants_key() for _ in range(BaseFrame.STORM))
    base.release()
    assert all(base.wants_key() for _ in range(BaseFrame.STORM - 1))


def test_round_results_show_the_table_still_and_let_the_app_idle(tmp_path):
    """Under the round's results (a dark veil, a big box) the table is drawn once into a
    still picture: its end-of-round animations no longer keep 60 frames a second going
    (the TV view between rounds), and a message draws it again."""
    from client.games.omerta.results import ResultsScene

    app = make_app(tmp_path)
    try:
        state = omerta.new_match({"seats": 4, "first_player": 0}, 11)
        scene, link = _spectator_table(app, state)
        scene.anim.add(Banner(scene.t, scene.t + 60_000, text="SNAP!", centre=(300, 300)))  # a long animation
        results = ResultsScene(app, scene, {"round": 1, "games": []})
        app.push(results)
        draws = []
        real = scene.draw
        scene.draw = lambda surf: (draws.append(1), real(surf))
        app.display.render(1 / 60)
        assert app.pacer.busy() or results.t < 0.25  # the veil darkens first
        results.t = 1.0
        app.pacer.active_until = 0.0
        assert not app.pacer.busy()  # the table's 60 s banner no longer counts
        for _ in range(5):
            app.display.render(1 / 60)
        assert len(draws) == 2  # once before the veil was dark, once for the still picture
        app.connections.route(link, {"type": "emote_none", "table": 9})
        app.display.render(1 / 60)
        assert len(draws) == 3
    finally:
        app.running = False


def test_round_results_close_by_themselves_on_a_spectators_screen_only(tmp_path):
    """The TV view goes back to the table for the next round (nobody there presses
    "Next round"); a player's results and the final results stay until dismissed."""
    from client.games.omerta.results import ResultsScene
    from tests.test_client_app import open_table

    app = make_app(tmp_path)
    try:
        state = omerta.new_match({"seats": 4, "first_player": 0}, 11)
        scene, _link = _spectator_table(app, state)
        results = app.push(ResultsScene(app, scene, {"round": 1, "games": []})) or app.top
        app.display.render(1 / 60)
        assert abs(results.auto_close_left() - (ResultsScene.spectator_close_s - 1 / 60)) < 1e-6
        app.display.render(ResultsScene.spectator_close_s - 1.0)
        assert app.top is results and 0.0 < results.auto_close_left() <= 1.0
        app.display.render(1.0)
        assert app.top is scene  # closed: the table is live again

        final = app.push(ResultsScene(app, scene, {"round": 4, "games": []}, final=True)) or app.top
        app.display.render(60.0)
        assert app.top is final and final.auto_close_left() is None

        player, _link = open_table(app, state, 0)
        mine = app.push(ResultsScene(app, player, {"round": 1, "games": []})) or app.top
        app.display.render(60.0)
        assert app.top is mine and mine.auto_close_left() is None
    finally:
        app.running = False
