"""Screenshots of the rules help and of the Omerta confirmation before declaring.

Runs the real client (:class:`client.app.App`) on the current display (Xvfb) without a
server: the help screen of Omerta and Famiglia in English and French (the top of the
page and further down, where the cards are), the menu with its Rules button, an Omerta
table with the Rules button and a character's tip under the mouse, and the table after
one click on "Declare Omerta!" (the confirmation). Driven with :class:`tools.screenshots.Driver`.

    xvfb-run -a -s "-screen 0 1280x720x24" .venv/bin/python -m tools.screenshots_help --out /tmp/lan_shots
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir: never the player's replays)
import argparse
import os
import sys
import tempfile
from typing import Any

import pygame
from twisted.internet import defer


class _Conn:
    def __init__(self) -> None:
        self.sent: list[Any] = []

    def send_action(self, *a: Any, **kw: Any) -> Any:
        self.sent.append(a)
        return defer.Deferred()

    def request(self, *a: Any, **kw: Any) -> Any:
        return defer.Deferred()


class _Link:
    address = ("127.0.0.1", 7777)
    name = "Alice"
    reconnect = None

    def __init__(self) -> None:
        self.conn = _Conn()
        self.tokens: dict = {}
        self.watching: set = set()
        self.steps: dict = {}

    def request(self, *a: Any, **kw: Any) -> Any:
        return defer.Deferred()


DECK = ["7", "1", "2", "3", "4", "5", "6", "8", "9", "10", "1", "2", "2", "3", "4", "5", "7"]


def omerta_table(app: Any) -> Any:
    """An Omerta table at the start of seat 0's first turn (the mamma on the discard pile
    for the tip)."""
    from client.games.omerta.table import OmertaTableScene
    from shared.games import omerta

    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0}, 1)
    for p in range(3):
        s, _ = omerta.apply(s, p, omerta.Peek((4 * p, 4 * p + 1)))
    seats = [{"seat": i, "name": n, "bot": i > 0, "connected": True} for i, n in enumerate(["Alice", "Vito", "Sonny"])]
    app.tables[9] = {"id": 9, "name": "Friday night", "game": "omerta", "seats": seats, "spectators": 1}
    started = {"type": "match_started", "table": 9, "game": "omerta", "seat": 0, "view": omerta.view(s, 0),
               "legal": [a.to_dict() for a in omerta.legal_actions(s, 0)], "t_server": 0.0, "seats": seats}
    return app.reset(OmertaTableScene(app, _Link(), started))


def run(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/lan_shots")
    ap.add_argument("--size", default="1280x720")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    from twisted.internet import reactor

    from client.app import App
    from client.scenes.help import HelpScene
    from client.scenes.menu import MenuScene
    from client.settings import Settings
    from shared.config import merge
    from tools.screenshots import Driver

    w, h = (int(x) for x in args.size.split("x"))
    settings = Settings(name="Alice", width=w, height=h, language="en")
    app = App(merge({}), settings, reactor, settings_path=os.path.join(tempfile.mkdtemp(), "settings.json"))
    app.open_window()
    app.running = True
    d = Driver(app, args.out)
    for lang in ("en", "fr"):
        app.display.set_language(lang)
        app.reset(MenuScene(app))
        d.pump(0.2)
        d.shot(f"menu-{lang}")
        for game in ("omerta", "famiglia", "family_business", "mafiosi"):
            scene = app.reset(HelpScene(app, game))
            d.pump(0.2)
            d.shot(f"help-{game}-{lang}")
            scene.scroll_by(10 ** 6)
            d.pump(0.1)
            d.shot(f"help-{game}-{lang}-end")
        table = omerta_table(app)
        d.pump(0.4)
        table.view["discard"].append({"kind": "character", "name": "hitwoman", "value": None, "points": 15})
        centre = table.layout.discard.center
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=centre, rel=(0, 0), buttons=(0, 0, 0)))
        d.pump(0.2)
        d.shot(f"omerta-tip-{lang}")
        table.view["discard"].pop()
        b = table.buttons.get("0:declare_omerta")
        if b is None:
            print("no Declare Omerta button", file=sys.stderr)
            return 1
        d.click(b.rect.center)
        d.pump(0.3)
        d.shot(f"omerta-declare-confirm-{lang}")
        d.key(pygame.K_F1)
        d.pump(0.2)
        d.shot(f"omerta-table-help-{lang}")
    app.running = False
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(run())
