"""Partial redraws of the Famiglia table (issue 13 "Idle cost"): a table nobody plays on
here (the TV view, a spectator) repaints only what moved -- the cards gliding to new
places, the cards in flight, the turn timer -- over its cached base frame. A real match
(``shared.games.famiglia``, random legal moves) is played to a spectator's table through
the app, with a turn timer counting down on a controlled clock, and after every frame the
screen is compared, pixel for pixel, with the same frame drawn whole. Headless
(``SDL_VIDEODRIVER=dummy``)."""
from __future__ import annotations

import random

import pygame

from client import display as app_mod
from client.games.famiglia import draw as famiglia_draw
from shared.games import famiglia as fg
from shared.rules import events_for
from tests.test_client_app import make_app
from tests.test_client_famiglia import FakeLink
from tests.test_client_partial_redraw import whole_frame

TIMER_MS = 12_000.0  # each turn's clock: its last 10 s blink (and keep frames coming)


class Clock:
    """``now_ms`` of the turn timer, advanced by the test with the frames (the real clock
    would move between a frame and its reference drawing)."""

    def __init__(self) -> None:
        self.ms = 1_000_000.0

    def __call__(self) -> float:
        return self.ms


def _whole(app, scene) -> bytes:
    return whole_frame(app, scene, famiglia_draw)


def _spectator_table(app, state, monkeypatch):
    """A spectator's Famiglia table (no local seat), the start-up burst of whole frames over."""
    from client.games.famiglia.table import FamigliaTableScene

    clock = Clock()
    monkeypatch.setattr("client.table.timer.now_ms", clock)
    monkeypatch.setattr("client.table.draw.now_ms", clock)
    link = FakeLink()
    started = {"type": "match_started", "table": 4, "game": "famiglia", "seat": None,
               "view": fg.view(state, None), "legal": [], "t_server": 0.0,
               "seats": [{"seat": 0, "name": "Ann", "bot": True, "connected": True},
                         {"seat": 1, "name": "Bob", "bot": True, "connected": True}]}
    scene = app.reset(FamigliaTableScene(app, link, started))
    app.sample()  # the window's start-up events (shown, focus...)
    app.pacer.active_until = 0.0
    return scene, link, clock


def _play(app, link, clock, state, rng, actions, frames_per_action, check):
    """Play up to ``actions`` random legal moves (no pass, which brings the end closer,
    while another move is possible), each followed by ``frames_per_action`` frames and
    ``check()``. Returns the state reached."""
    for _ in range(actions):
        if state.phase == "over" or len(app.stack.visible()) > 1:
            break  # the results cover the table
        seat = min(fg.awaiting(state))
        legal = fg.legal_actions(state, seat)
        calm = [a for a in legal if a.to_dict()["type"] != "pass"] or legal
        state, events = fg.apply(state, seat, rng.choice(calm))
        deadline = clock.ms + TIMER_MS
        app.connections.route(link, {"type": "update", "table": 4, "events": events_for(events, None),
                         "view": fg.view(state, None), "legal": [], "t_server": clock.ms,
                         "timer": {"seat": int(fg.view(state, None).get("turn", 0)), "deadline": deadline}})
        for _ in range(frames_per_action):
            clock.ms += 1000 / 60
            app.display.render(1 / 60)
            check()
    return state


def test_partial_frames_show_exactly_what_a_whole_redraw_paints(tmp_path, monkeypatch):
    monkeypatch.setattr(app_mod, "WHOLE_FRAME_S", 1e9)  # only what the scene says brings a whole frame
    app = make_app(tmp_path)
    try:
        state = fg.new_match({"first_player": 0}, 7)
        scene, link, clock = _spectator_table(app, state, monkeypatch)
        mismatches: list[int] = []
        seen = {"gliders": 0, "flights": 0, "timer": 0}  # partial frames where each moved
        partial_before = [0]

        def check():
            if len(app.stack.visible()) > 1:
                return  # the results over the table: the reference draws the table only
            if app.display.frames_partial > partial_before[0]:  # this frame was partial: what moved in it
                partial_before[0] = app.display.frames_partial
                seen["gliders"] += bool(famiglia_draw._glider_items(famiglia_draw.Frame(scene)))
                seen["flights"] += bool(scene.anim.bounds(scene.t, scene.art))
                seen["timer"] += scene.timer.left() is not None
            shown = pygame.image.tobytes(app.display.screen, "RGB")
            if shown != _whole(app, scene):
                mismatches.append(app.display.frames_partial)

        state = _play(app, link, clock, state, random.Random(3), 70, 30, check)
        shown = (app.display.frames_partial, app.display.frames_whole)
        assert app.display.frames_partial > 600, shown  # the path under test ran
        shown = (app.display.frames_partial, app.display.frames_whole)
        assert app.display.frames_partial > 2 * app.display.frames_whole, shown
        assert all(n > 20 for n in seen.values()), seen  # cards glided and flew, the timer ran
        assert mismatches == []
    finally:
        app.running = False


def _planted(tmp_path, monkeypatch, drop=None, key=None):
    """Play with ``_top_items`` leaving out the items ``drop(paint)`` picks, or with the
    base frame's key made by ``key(real_key)``; whether a frame shown then differs from
    the whole one."""
    monkeypatch.setattr(app_mod, "WHOLE_FRAME_S", 1e9)
    app = make_app(tmp_path)
    try:
        state = fg.new_match({"first_player": 0}, 7)
        scene, link, clock = _spectator_table(app, state, monkeypatch)
        real_items, real_key = famiglia_draw._top_items, famiglia_draw._base_key
        if drop is not None:
            def leaky(sc, f, gliders):
                items = real_items(sc, f, gliders)
                return None if items is None else [it for it in items if not drop(it[1])]
            monkeypatch.setattr(famiglia_draw, "_top_items", leaky)
        if key is not None:
            monkeypatch.setattr(famiglia_draw, "_base_key", lambda sc, f: key(real_key(sc, f)))
        bad = []

        def check():
            if len(app.stack.visible()) == 1 and pygame.image.tobytes(app.display.screen, "RGB") != _whole(app, scene):
                bad.append(1)

        _play(app, link, clock, state, random.Random(3), 30, 20, check)
        return bool(bad)
    finally:
        app.running = False


def test_a_planted_miss_of_the_flying_cards_is_seen(tmp_path, monkeypatch):
    """The comparison above can fail: a partial redraw that forgets the cards in flight
    leaves them where they were."""
    assert _planted(tmp_path, monkeypatch, drop=lambda paint: "anim" in paint.__code__.co_names)


def test_a_planted_miss_of_the_gliding_cards_is_seen(tmp_path, monkeypatch):
    """... one that forgets the cards gliding to their new places ..."""
    assert _planted(tmp_path, monkeypatch, drop=lambda paint: "_glide" in paint.__code__.co_names)


def test_a_planted_gap_in_the_base_frames_key_is_seen(tmp_path, monkeypatch):
    """... and a base frame kept while an input of it changed (here the hidden places:
    a card landing on the discard pile would not show)."""
    assert _planted(tmp_path, monkeypatch, key=lambda k: None if k is None else k[:3] + k[4:])


def test_a_player_table_is_drawn_whole(tmp_path):
    """A local seat (buttons, breathing choices) keeps whole frames; its base frame is
    not cached while offered cards breathe."""
    from tests.test_client_famiglia import open_famiglia

    app = make_app(tmp_path)
    try:
        scene, _link = open_famiglia(app, fg.new_match({"first_player": 0}, 7), 0)
        for _ in range(20):
            app.display.render(1 / 60)
        assert app.display.frames_partial == 0 and app.display.frames_whole == 20
        assert scene.offered and famiglia_draw._base.key is None and scene.top_rects is None
    finally:
        app.running = False
