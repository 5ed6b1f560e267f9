"""Partial redraws of the Mafiosi table (issue 13 "Idle cost"): a table nobody plays on
here (the TV view, a spectator) repaints only what moved -- the cards in flight, the
trick waiting to leave, the banners, the turn light, the turn timer, a hand re-fanning
-- over its cached base frame. What reaches the screen must be exactly what a whole
redraw paints: a real match (``shared.games.mafiosi``, random legal moves) is played to
a spectator's table through the app, and after every frame the screen is compared,
pixel for pixel, with the same frame drawn whole over a base frame painted afresh (so
a base key missing one of its inputs is caught too, not only a rect missing from the
things painted over it). Headless (``SDL_VIDEODRIVER=dummy``)."""
from __future__ import annotations

import random

import pygame

from client import display as app_mod
from client.games.mafiosi import draw as maf_draw
from shared.games import mafiosi as maf
from shared.rules import events_for
from tests.test_client_app import FakeLink, make_app
from tests.test_client_partial_redraw import whole_frame

NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve"]
TURN_S = 25.0  # the turn timer each update starts (s): shown, not yet blinking


class _Clock:
    """``now_ms`` for the table and its drawing, advanced by :func:`_play` one frame at
    a time: the turn timer then shows the same second in a frame and in its reference."""

    def __init__(self) -> None:
        self.ms = 1_000_000.0

    def __call__(self) -> float:
        return self.ms


def _frozen_clock(monkeypatch) -> _Clock:
    from client.table import draw as table_draw, timer as table_timer

    clock = _Clock()
    monkeypatch.setattr(table_timer, "now_ms", clock)
    monkeypatch.setattr(table_draw, "now_ms", clock)
    return clock


def _spectator_table(app, state, full=False):
    """A spectator's Mafiosi table (no local seat), the app's start-up burst of whole
    frames over. ``full``: fed the full view (every hand face up, as a finished match's
    replay shows it), so the bottom seat's hand re-fans as it plays."""
    from client.games.mafiosi.table import MafiosiTableScene

    link = FakeLink(0)
    started = {"type": "match_started", "table": 9, "game": "mafiosi", "seat": None,
               "view": _view(state, full), "legal": [], "t_server": 0.0,
               "seats": [{"seat": p, "name": NAMES[p], "bot": True, "connected": True} for p in range(state.n)]}
    scene = app.reset(MafiosiTableScene(app, link, started))
    app.sample()  # the window's start-up events (shown, focus...)
    app.pacer.active_until = 0.0
    return scene, link


def _view(state, full):
    return maf.full_view(state) if full else maf.view(state, None)


def _play(app, link, state, rng, actions, frames_per_action, check, clock, full=False):
    """``actions`` random legal moves (the lowest awaited seat plays), each sent to the
    table as the server would (with a turn timer), then ``frames_per_action`` frames of
    1/60 s (``clock`` too), ``check()`` after each. A round's results board covers the
    table: it is let close by itself (a spectator's closes after 12 s) and play goes on."""
    for _ in range(actions):
        waited = 0
        while len(app.stack.visible()) > 1 and waited < 20:
            app.display.render(1.0)  # the round's board over the table: not compared
            waited += 1
        if maf.is_over(state):
            break
        seat = min(maf.awaiting(state))
        state, events = maf.apply(state, seat, rng.choice(maf.legal_actions(state, seat)))
        on_clock = min(maf.awaiting(state), default=-1)
        app.connections.route(link, {"type": "update", "table": 9, "events": events_for(events, None),
                         "view": _view(state, full), "legal": [], "t_server": 0.0,
                         "timer": {"seat": on_clock, "deadline": TURN_S * 1000.0} if on_clock >= 0 else None})
        for _ in range(frames_per_action):
            clock.ms += 1000 / 60
            app.display.render(1 / 60)
            check()
    return state


def _reference(app, scene) -> bytes:
    return whole_frame(app, scene, maf_draw)


def _comparing(app, scene, mismatches):
    def check():
        if len(app.stack.visible()) > 1:
            return  # the round's board over the table: the reference draws the table only
        if pygame.image.tobytes(app.display.screen, "RGB") != _reference(app, scene):
            mismatches.append(app.display.frames_partial)
    return check


def test_partial_frames_show_exactly_what_a_whole_redraw_paints(tmp_path, monkeypatch):
    """Two rounds of a four-player match (bouncers, reveals, tricks flying in, held and
    swept to their winner, round banners, deals): every frame equals the whole one."""
    monkeypatch.setattr(app_mod, "WHOLE_FRAME_S", 1e9)  # only what the scene says brings a whole frame
    clock = _frozen_clock(monkeypatch)
    app = make_app(tmp_path)
    try:
        state = maf.new_match({"seats": 4, "first_player": 0, "rounds": 2}, 7)
        scene, link = _spectator_table(app, state)
        mismatches: list[int] = []
        painted = maf_draw._base.painted
        state = _play(app, link, state, random.Random(3), 110, 24, _comparing(app, scene, mismatches), clock)
        assert state.round == 2 and state.trick_no > 1  # both rounds were played to the table
        shown = (app.display.frames_partial, app.display.frames_whole)
        assert app.display.frames_partial > 1000, shown  # the path under test ran
        assert app.display.frames_partial > 2 * app.display.frames_whole  # mostly partial
        assert maf_draw._base.painted - painted < app.display.frames_whole  # the base frame is reused
        assert mismatches == []
    finally:
        app.running = False


def test_a_gliding_hand_and_face_up_hands_are_redrawn_exactly(tmp_path, monkeypatch):
    """Fed the full view, the bottom seat's hand is face up and re-fans (its cards glide)
    after each of its plays: it is then painted over the base frame, every frame equal
    to the whole one."""
    monkeypatch.setattr(app_mod, "WHOLE_FRAME_S", 1e9)
    clock = _frozen_clock(monkeypatch)
    app = make_app(tmp_path)
    try:
        state = maf.new_match({"seats": 3, "first_player": 0, "rounds": 1}, 4)
        scene, link = _spectator_table(app, state, full=True)
        mismatches: list[int] = []
        glided = []
        real = maf_draw._own_hand_rects

        def rects(f):
            glided.append(1)
            return real(f)
        monkeypatch.setattr(maf_draw, "_own_hand_rects", rects)
        _play(app, link, state, random.Random(8), 24, 24, _comparing(app, scene, mismatches), clock, full=True)
        assert glided  # the hand glided and was painted over the base frame
        shown = (app.display.frames_partial, app.display.frames_whole)
        assert app.display.frames_partial > 300, shown
        assert mismatches == []
    finally:
        app.running = False


def test_a_planted_miss_is_seen(tmp_path, monkeypatch):
    """The comparison above can fail: a partial redraw that forgets the cards in flight
    leaves them where they were."""
    monkeypatch.setattr(app_mod, "WHOLE_FRAME_S", 1e9)
    clock = _frozen_clock(monkeypatch)
    app = make_app(tmp_path)
    try:
        state = maf.new_match({"seats": 4, "first_player": 0, "rounds": 1}, 7)
        scene, link = _spectator_table(app, state)
        real = maf_draw._top_items

        def no_effects(sc, f):  # the effects' item paints ``f.moving``
            items = real(sc, f)
            return None if items is None else [it for it in items if "moving" not in it[1].__code__.co_names]
        monkeypatch.setattr(maf_draw, "_top_items", no_effects)
        bad: list[int] = []
        _play(app, link, state, random.Random(3), 24, 14, _comparing(app, scene, bad), clock)
        assert bad
    finally:
        app.running = False


def test_a_player_table_is_drawn_whole(tmp_path):
    """A local seat (buttons, breathing playable cards, the emote bar) keeps whole frames."""
    from tests.test_client_mafiosi import open_table

    app = make_app(tmp_path)
    try:
        state = maf.new_match({"seats": 4, "first_player": 0}, 7)
        scene, _link = open_table(app, state, 0)
        for _ in range(30):
            app.display.render(1 / 60)
        assert app.display.frames_partial == 0 and app.display.frames_whole == 30
    finally:
        app.running = False
