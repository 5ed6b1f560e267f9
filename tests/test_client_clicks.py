"""A click acts once -- not zero times, not twice -- on a widget that appeared under a
mouse that has not moved, right after a drop-down choice, or while the server pushes a
table between the press and the release. Real pygame events (the mouse put in place
with ``pygame.mouse.set_pos``, no motion event) go through the app's own dispatch;
dummy SDL video, fake links."""
from __future__ import annotations

import pygame

from client.scenes.host import HostScene
from client.scenes.menu import MenuScene
from tests.test_client_emotes import FakeLink, make_app
from tests.test_client_host_controls import SEATS4

FULL = SEATS4[:3] + [{"seat": 3, "name": "Connie", "bot": True, "connected": True}]


def frames(app, n=3):
    for _ in range(n):
        app.sample()
        app.display.render(1 / 60, flip=False)


def press(app, pos):
    """The left button pressed at ``pos`` (the mouse already rests there)."""
    pygame.mouse.set_pos(pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.sample()


def release(app, pos):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.sample()


def click(app, pos):
    press(app, pos)
    release(app, pos)
    frames(app)


def host_screen(tmp_path):
    app = make_app(tmp_path)
    link = FakeLink()
    app.connections.main_link = link
    app.push(MenuScene(app))
    host = app.push(HostScene(app))
    frames(app)
    return app, host, link


def creates(link):
    return [r for r in link.requests if r[0] == "create_table"]


def test_the_window_acts_on_the_click_that_brings_it_forward(tmp_path, monkeypatch):
    """SDL drops a press that comes with the window's focus unless told otherwise:
    going back to the client from another window would cost a click."""
    import os

    monkeypatch.delenv("SDL_MOUSE_FOCUS_CLICKTHROUGH", raising=False)
    make_app(tmp_path)
    assert os.environ["SDL_MOUSE_FOCUS_CLICKTHROUGH"] == "1"
