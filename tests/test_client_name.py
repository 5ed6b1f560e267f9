"""The first run asks for a name (the login name is only a default), saves it, and
re-opens the connection under it; the menu can change it later."""
from __future__ import annotations

import json

import pygame
from twisted.internet import defer

from client.app import Link
from client.scenes.menu import MenuScene
from client.scenes.name import NameScene
from tests.test_client_app import click, make_app


class Conn:
    def __init__(self):
        self.transport = self

    def loseConnection(self):
        self.closed = True


def test_first_run_name_is_saved_and_used(tmp_path):
    app = make_app(tmp_path)
    app.settings.name = ""
    opened = []

    def connector(reactor, host, port, name, listener=None, timeout=5.0):
        opened.append(name)
        return defer.succeed(Conn())

    app.connections.connector = connector
    link = Link(app, "root", ("127.0.0.1", 7777))
    link.conn = Conn()
    app.connections.links.append(link)
    app.connections.main_link = link
    menu = app.push(MenuScene(app))
    prompt = app.push(NameScene(app, first_run=True))
    app.display.render(1 / 60, flip=False)
    assert prompt.e_name.get_text() == app.settings.player_name()
    prompt.e_name.set_text("  Zoé   Bellini ")
    ok = next(b for b in prompt.ui if getattr(b, "text", "") == "mafia.name.ok")
    click(ok.rect.center)
    app.sample()
    assert app.top is menu
    assert app.settings.name == "Zoé Bellini"
    assert json.loads((tmp_path / "settings.json").read_text())["name"] == "Zoé Bellini"
    main = app.connections.main_link
    assert opened == ["Zoé Bellini"] and main is not link and main.name == "Zoé Bellini"
    # the menu's button opens the same prompt
    app.display.render(1 / 60, flip=False)
    change = next(b for b in menu.ui if getattr(b, "text", "") == "mafia.menu.change_name")
    click(change.rect.center)
    app.sample()
    assert isinstance(app.top, NameScene) and not app.top.first_run
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    app.sample()
    assert app.top is menu
