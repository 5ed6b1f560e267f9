"""The hint at a table (client.table.hint): F2 or the Hint button asks the server, the
answer is said in the message column and its places outlined until the table moves on;
a table whose host does not allow hints says so. Fake links, dummy SDL video."""
from __future__ import annotations

import importlib

import pygame
from twisted.internet import defer

from tests.test_client_app import key, make_app, open_table, snap_window_state


class AskingLink:
    """A link whose requests are kept with their Deferreds, to answer by hand."""

    def __init__(self, link):
        self.link = link
        self.asked: list[tuple[str, dict, defer.Deferred]] = []

    def request(self, kind, **fields):
        d = defer.Deferred()
        self.asked.append((kind, fields, d))
        return d


def hint_table(tmp_path, hints=True):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    app.tables[9] = {"id": 9, "name": "Friday", "game": "omerta", "status": "playing", "seats": [],
                     "hints": hints, "options": {}}
    scene, link = open_table(app, state, 0, events)
    asking = AskingLink(link)
    link.request = asking.request
    return app, scene, asking


def said(scene) -> list[str]:
    return [m[0] for m in scene.column.messages]


def test_f2_asks_and_the_answer_is_said_and_outlined_until_it_is_no_longer_legal(tmp_path):
    app, scene, asking = hint_table(tmp_path)
    app.display.render(1 / 60, flip=False)
    assert scene.actions.hint_button is not None  # the host allows hints: the button is there
    key(pygame.K_F2)
    app.sample()
    assert [(k, f) for k, f, _ in asking.asked] == [("hint", {"table": 9})]
    snap = next(a for a in scene.legal[0] if a["type"] == "snap")
    asking.asked[0][2].callback({"type": "hint", "table": 9, "seat": 0, "step": 3, "action": snap})
    assert any(t.startswith("Hint: snap with the highlighted card") for t in said(scene))
    # the card to snap with, and the Snap button
    assert scene.hint.rects(0, snap) == [scene.card_rects()[snap["slot"]], pygame.Rect(scene.buttons["0:snap"].rect)]
    app.display.render(1 / 60, flip=False)  # drawn without fault
    scene.legal[0] = [a for a in scene.legal[0] if a != snap]  # the table moved on
    assert scene.hint.current() is None


def test_a_hint_for_a_pass_outlines_its_button(tmp_path):
    app, scene, asking = hint_table(tmp_path)
    app.display.render(1 / 60, flip=False)
    passing = next(a for a in scene.legal[0] if a["type"] == "snap_pass")
    scene.hint.show(0, passing)
    assert scene.hint.rects(0, passing) == [pygame.Rect(scene.buttons["0:snap_pass"].rect)]


def test_an_answer_that_is_not_legal_any_more_is_not_shown(tmp_path):
    app, scene, asking = hint_table(tmp_path)
    scene.hint.show(0, {"type": "snap", "slot": 999})
    assert scene.hint.current() is None and not any(t.startswith("Hint:") for t in said(scene))


def test_a_table_without_hints_says_so_and_asks_nothing(tmp_path):
    app, scene, asking = hint_table(tmp_path, hints=False)
    app.display.render(1 / 60, flip=False)
    assert scene.actions.hint_button is None
    key(pygame.K_F2)
    app.sample()
    assert asking.asked == []
    assert any("Hints are off at this table" in t for t in said(scene))


def test_every_game_says_every_action_of_its_own_in_both_languages():
    """A hint names its action in words: no action type of a game falls back to the
    generic "the highlighted move" for want of a string."""
    from client import i18n
    from client.games.famiglia.table import FamigliaTableScene
    from client.games.family_business.table import FamilyBusinessTableScene
    from client.games.mafiosi.table import MafiosiTableScene
    from client.games.omerta.table import OmertaTableScene
    from client.table.hint import TableHint

    for lang in ("en", "fr"):
        i18n.setup(lang)
        try:
            for cls in (OmertaTableScene, FamigliaTableScene, FamilyBusinessTableScene, MafiosiTableScene):
                hint = TableHint(type("S", (), {"HINT_PREFIX": cls.HINT_PREFIX})())
                actions = importlib.import_module(f"shared.games.{cls.game_name}.actions").ACTIONS
                for kind in actions.types():
                    if getattr(actions._by_type[kind], "SYSTEM_ONLY", False):
                        continue  # applied by the table, never a player's
                    assert hint.describe({"type": kind}) != i18n.tr("hint.highlighted"), (cls.game_name, kind, lang)
        finally:
            i18n.setup("en")
