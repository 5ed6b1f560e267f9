"""Idle pace (issue 13 "Idle cost"): the app draws at the full frame rate while a scene
animates or input just came, a few frames a second when nothing moves, and an input
event or a pushed message wakes it at once. Driven on a ``task.Clock`` reactor."""
from __future__ import annotations


import pygame
from twisted.internet import task

from client import pacing as app_mod
from client.app import App
from client.settings import Settings
from client.ui.scene import Scene
from shared.config import merge


class Counting(Scene):
    def __init__(self, app, moving=False, precise=False):
        super().__init__(app)
        self.moving = moving
        self.precise = precise
        self.draws = 0
        self.dts: list[float] = []
        self.events = 0

    def animating(self):
        return self.moving

    def precise_input(self):
        return self.precise

    def update(self, dt):
        self.dts.append(dt)

    def draw(self, surface):
        self.draws += 1

    def handle_event(self, event, t_ms):
        self.events += 1


def make(tmp_path, **kw):
    clock = task.Clock()
    app = App(merge({}), Settings(name="Idle", language="en"), clock, settings_path=str(tmp_path / "s.json"))
    app.open_window()
    scene = app.push(Counting(app, **kw))
    app.running = True
    polls = []
    real_poll = app.sampler.poll

    def poll(floor_ms=0.0):
        polls.append(clock.seconds())
        return real_poll(floor_ms)

    app.sampler.poll = poll
    app.start_loops()
    app.pacer.active_until = 0.0  # no input yet: the start-up burst is over
    return app, clock, scene, polls


def run(clock, seconds, step=0.001):
    for _ in range(int(seconds / step)):
        clock.advance(step)


def test_idle_scene_draws_a_few_frames_and_polls_slowly(tmp_path):
    app, clock, scene, polls = make(tmp_path)
    try:
        run(clock, 0.1)  # the first (start-up) frame's schedule passes
        scene.draws, polls[:] = 0, []
        run(clock, 2.0)
        assert scene.draws <= 2 * app_mod.IDLE_FPS + 1
        # one poll per 20 ms, plus two in each frame drawn (between its phases)
        assert len(polls) <= 2.0 / (app_mod.IDLE_POLL_MS / 1000.0) + 2 * scene.draws + 2
        assert not app.pacer.fast
    finally:
        app.quit()


def test_animating_scene_gets_60_fps(tmp_path):
    app, clock, scene, polls = make(tmp_path, moving=True)
    try:
        run(clock, 0.1)
        scene.draws, polls[:] = 0, []
        run(clock, 1.0)
        assert 57 <= scene.draws <= 61
        # nobody touches it (the TV view): two polls in each frame, and the poll loop
        # keeps its idle pace (every 20 ms) instead of adding one every 8 ms
        assert 2 * scene.draws <= len(polls) <= 2 * scene.draws + 1000 / app_mod.IDLE_POLL_MS + 2
        assert app.pacer.fast
    finally:
        app.quit()


def test_animating_scene_polls_every_8_ms_after_input(tmp_path):
    app, clock, scene, polls = make(tmp_path, moving=True)
    try:
        run(clock, 0.1)
        scene.draws, polls[:] = 0, []
        app.pacer.wake(60.0)  # a key was just pressed (menus, TV view)
        run(clock, 1.0)
        assert len(polls) >= 2 * scene.draws + 1000 / app_mod.BUSY_POLL_MS - 5  # every 8 ms + 2 per frame
    finally:
        app.quit()


def test_animating_table_with_a_local_seat_polls_every_2_ms(tmp_path):
    app, clock, scene, polls = make(tmp_path, moving=True, precise=True)
    try:
        run(clock, 0.1, step=0.0005)
        scene.draws, polls[:] = 0, []
        run(clock, 1.0, step=0.0005)
        assert 57 <= scene.draws <= 61
        assert len(polls) >= 450  # every 2 ms
    finally:
        app.quit()


def test_input_wakes_at_once_and_scene_catches_up(tmp_path):
    app, clock, scene, polls = make(tmp_path)
    try:
        run(clock, 1.3)
        assert not app.pacer.fast
        draws = scene.draws
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0)))
        run(clock, 0.025)  # the idle poll (20 ms) finds it
        assert scene.events == 1
        assert app.pacer.fast
        assert scene.draws > draws  # drawn at once, not at the next idle frame
        run(clock, 0.2)
        assert scene.draws >= draws + 10  # full pace while the hover settles
    finally:
        app.quit()


def test_message_wakes_and_precise_table_keeps_2_ms_polling(tmp_path):
    app, clock, scene, polls = make(tmp_path, precise=True)
    try:
        run(clock, 1.0)
        polls[:] = []
        draws = scene.draws
        run(clock, 0.5)
        assert len(polls) >= 150  # idle frames, but input polled every 2 ms (idle: 25 in 0.5 s)
        assert scene.draws <= draws + 2
        app.connections.route(object(), {"type": "chat"})  # any pushed message: drawn now
        assert scene.draws <= draws + 2
        run(clock, 0.002)
        assert scene.draws >= draws + 1
    finally:
        app.quit()
