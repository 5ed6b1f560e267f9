"""Partial redraws of the Family Business table (issue 13 "Idle cost"): a table nobody
plays on here (the TV view, a spectator) repaints only what moves -- the war strip while
a war runs, the turn light, the mobsters gliding to new places, the cards in flight, the
time bars -- over its cached base frame. What reaches the screen must be exactly what a
whole redraw paints: a real match (the rules engine, random legal moves) is played to a
spectator's table through the app, and after every frame the screen is compared, pixel
for pixel, with the same frame drawn whole. Headless (``SDL_VIDEODRIVER=dummy``)."""
from __future__ import annotations

import random

import pygame
import pytest

from client import display as app_mod
from client.games.family_business import draw as fb_draw
from client.table.draw import disjoint
from shared.games import family_business as fb
from shared.rules import events_for
from tests.test_client_app import make_app
from tests.test_client_family_business import open_fb
from tests.test_client_partial_redraw import whole_frame

TABLE = 5


def _whole(app, scene) -> bytes:
    return whole_frame(app, scene, fb_draw)


def _spectator_table(app, state):
    """A spectator's Family Business table (no local seat), the app's start-up burst of
    whole frames over."""
    scene, link = open_fb(app, state, None, table=TABLE)
    app.sample()  # the window's start-up events (shown, focus...)
    app.pacer.active_until = 0.0
    return scene, link


def _choose(state, seat, rng):
    """A legal action of ``seat`` as a lively bot would pick it: a card played for its
    effect rather than voided, seldom a counter (each window is answered, so the turns go
    on and mobsters walk to the wall, the war starts, executions happen)."""
    legal = fb.legal_actions(state, seat)
    kinds = {type(a).__name__ for a in legal}
    if "NoCounter" in kinds:
        counters = [a for a in legal if type(a).__name__ == "Counter"]
        return rng.choice(counters) if counters and rng.random() < 0.15 else next(
            a for a in legal if type(a).__name__ == "NoCounter")
    plays = [a for a in legal if type(a).__name__ != "Void"]
    return rng.choice(plays if plays and rng.random() < 0.85 else legal)


class FrameClock:
    """``client.input.now_ms`` as the turn timer reads it, advanced by the test one frame
    at a time (the timer's text and its blinking in the last 10 s follow it), so a
    partial frame and its whole reference see the same time."""

    def __init__(self, monkeypatch):
        self.ms = 1_000_000.0
        for mod in ("client.table.timer", "client.table.draw"):
            monkeypatch.setattr(f"{mod}.now_ms", self)

    def __call__(self) -> float:
        return self.ms


def _play(app, scene, link, state, rng, actions, frames_per_action, check, clock=None, timer_ms=10_200.0):
    """Apply up to ``actions`` actions, each routed to the app as the server's ``update``
    and followed by ``frames_per_action`` frames (``check()`` after each). With a
    ``clock`` (:class:`FrameClock`) each update puts the seat to play on a turn timer of
    ``timer_ms`` (its last 10 s blink)."""
    for _ in range(actions):
        if state.phase == "over" or len(app.stack.visible()) > 1:
            break  # the results board covers the table
        seat = min(fb.awaiting(state))
        state, events = fb.apply(state, seat, _choose(state, seat, rng))
        msg = {"type": "update", "table": TABLE, "events": events_for(events, None),
               "view": fb.view(state, None), "legal": []}
        if clock is not None and fb.awaiting(state):
            msg.update(timer={"seat": min(fb.awaiting(state)), "deadline": timer_ms}, t_server=0.0)
        app.connections.route(link, msg)
        for _ in range(frames_per_action):
            if clock is not None:
                clock.ms += 1000 / 60
            app.display.render(1 / 60)
            check()
    return state


def test_partial_frames_show_exactly_what_a_whole_redraw_paints(tmp_path, monkeypatch):
    monkeypatch.setattr(app_mod, "WHOLE_FRAME_S", 1e9)  # only what the scene says brings a whole frame
    app = make_app(tmp_path)
    try:
        state = fb.new_match({"seats": 4, "first_player": 0}, 11)
        scene, link = _spectator_table(app, state)
        mismatches: list[int] = []
        seen = {"war": 0, "glide": 0, "fx": 0, "blink": 0}
        clock = FrameClock(monkeypatch)

        def check():
            if len(app.stack.visible()) > 1:
                return  # the results board over the table: the reference draws the table only
            f = fb_draw.Frame(scene)
            seen["war"] += fb_draw._war_on(scene.view)
            seen["glide"] += bool(f.gliding)
            seen["fx"] += bool(scene.anim.bounds(scene.t, scene.art))
            left = scene.timer.left()
            seen["blink"] += left is not None and left[1] < 10
            if pygame.image.tobytes(app.display.screen, "RGB") != _whole(app, scene):
                mismatches.append(app.display.frames_partial)

        _play(app, scene, link, state, random.Random(3), 70, 24, check, clock)
        shown = (app.display.frames_partial, app.display.frames_whole)
        assert app.display.frames_partial > 500, shown  # the path under test ran
        shown = (app.display.frames_partial, app.display.frames_whole)
        assert app.display.frames_partial > 2 * app.display.frames_whole, shown
        assert all(seen.values()), seen  # what moves over the base frame was there
        assert mismatches == []
    finally:
        app.running = False


def test_a_planted_miss_is_seen(tmp_path, monkeypatch):
    """The comparison above can fail: a partial redraw that forgets the gliding mobsters
    leaves them where they were."""
    monkeypatch.setattr(app_mod, "WHOLE_FRAME_S", 1e9)
    app = make_app(tmp_path)
    try:
        state = fb.new_match({"seats": 4, "first_player": 0}, 11)
        scene, link = _spectator_table(app, state)
        real = fb_draw._top_items

        def no_gliders(sc, f):
            items = real(sc, f)
            return None if items is None else [it for it in items if "_glider" not in it[1].__code__.co_names]
        monkeypatch.setattr(fb_draw, "_top_items", no_gliders)

        class Seen(Exception):
            pass

        def check():
            if len(app.stack.visible()) == 1 and pygame.image.tobytes(app.display.screen, "RGB") != _whole(app, scene):
                raise Seen  # caught: no need to play on

        with pytest.raises(Seen):
            _play(app, scene, link, state, random.Random(3), 40, 20, check)
    finally:
        app.running = False


def test_a_still_table_repaints_nothing_and_the_base_frame_is_reused(tmp_path, monkeypatch):
    """Between two moves of a bot (the turn light breathing only), each partial frame
    repaints just the turn light's four strips, and the base frame is not repainted."""
    monkeypatch.setattr(app_mod, "WHOLE_FRAME_S", 1e9)
    app = make_app(tmp_path)
    try:
        state = fb.new_match({"seats": 4, "first_player": 0}, 11)
        scene, link = _spectator_table(app, state)
        for _ in range(90):  # the opening animations end
            app.display.render(1 / 60)
        painted = fb_draw._base.painted
        damage = []
        real = scene.draw_partial
        scene.draw_partial = lambda surf: damage.append(real(surf)) or damage[-1]
        for _ in range(20):
            app.display.render(1 / 60)
        assert fb_draw._base.painted == painted
        assert damage and all(d is not None for d in damage)
        zone = scene.layout.seats[scene.view["turn"]].zone.inflate(4, 4)
        for d in damage:
            assert d and all(zone.contains(r) for r in d)
            assert sum(r.w * r.h for r in d) < zone.w * zone.h // 2  # strips, not the whole zone
    finally:
        app.running = False


def test_a_player_table_is_drawn_whole(tmp_path):
    """A local seat (buttons, breathing choices, the emote bar) keeps whole frames."""
    app = make_app(tmp_path)
    try:
        state = fb.new_match({"seats": 3, "first_player": 0}, 2)
        open_fb(app, state, 0)
        for _ in range(30):
            app.display.render(1 / 60)
        assert app.display.frames_partial == 0 and app.display.frames_whole == 30
    finally:
        app.running = False


def test_the_base_key_changes_with_what_the_base_frame_shows(tmp_path):
    """A new view, a message, a seat going away and a card starting to glide each change
    the base frame's key; the same frame twice keeps it."""
    app = make_app(tmp_path)
    try:
        state = fb.new_match({"seats": 4, "first_player": 0}, 11)
        scene, link = _spectator_table(app, state)
        for _ in range(90):
            app.display.render(1 / 60)

        def key():
            return fb_draw._base_key(scene, fb_draw.Frame(scene))

        k0 = key()
        assert k0 is not None and key() == k0
        scene.column.say("Hello")
        k1 = key()
        assert k1 != k0
        scene.roster.seat_info[2]["away"] = True
        assert key() != k1
        k2 = key()
        place = next(p for p in scene.layout.cards if p[0] == "mob")
        scene.motion.pos[place].x += 30
        assert key() != k2 and place in fb_draw.Frame(scene).gliding
    finally:
        app.running = False


def test_the_regions_given_to_the_app_do_not_overlap_and_cover_the_same_pixels():
    """The app paints the widgets once per region: overlapping regions would blend a
    translucent widget edge twice (the comparison above caught it at the Rules button)."""
    rng = random.Random(1)
    for _ in range(200):
        rects = [pygame.Rect(rng.randrange(60), rng.randrange(60), rng.randrange(1, 40), rng.randrange(1, 40))
                 for _ in range(rng.randrange(1, 6))]
        out = disjoint(rects)
        covered = {(x, y) for r in rects for x in range(r.left, r.right) for y in range(r.top, r.bottom)}
        pieces = [(x, y) for r in out for x in range(r.left, r.right) for y in range(r.top, r.bottom)]
        assert len(pieces) == len(set(pieces)) and set(pieces) == covered
