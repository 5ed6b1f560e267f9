"""What the screens say, read as a player would: couch players keep the names they
typed (no "Lena (2)"), the spectator count counts people (not the couch screen itself),
French counts agree in number ("1 place prise"), and no possessive is built on a name
that may carry "(you)". Dummy SDL video; the couch game on the real embedded server."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pygame
import pytest_twisted

from client import i18n
from client.input import binding_for
from client.scenes.lobby import LobbyScene
from tests.test_client_app import menu_app, until
from tests.test_client_emotes import FakeLink, make_app

ROOT = Path(__file__).resolve().parent.parent


@pytest_twisted.inlineCallbacks
def test_couch_players_keep_their_names_and_the_screen_is_no_spectator(tmp_path):
    from client.games.omerta.table import OmertaTableScene
    from client.scenes.couch import start_couch

    with menu_app(tmp_path) as app:  # this client's own connection is "Tester"
        yield app.connections.start()
        tid = yield start_couch(app, [("Tester", binding_for("left")), ("Bob", binding_for("right"))], 3)
        yield until(app, lambda: isinstance(app.top, OmertaTableScene) and len(app.top.local_seats) == 2)
        table = app.top
        yield until(app, lambda: app.tables[tid].get("spectators") == 1)  # the shared screen
        assert [table.roster.seat_name(p) for p in (0, 1)] == ["Tester", "Bob"]
        assert table.links[0] is app.connections.main_link  # Tester plays on his own connection
        assert table.roster.spectator_line() == ""  # nobody watches
        app.tables[tid] = dict(app.tables[tid], spectators=2)  # somebody does
        assert table.roster.spectator_line() == "1 watching"


def test_french_seat_counts_agree_in_number(tmp_path):
    from client.ui.widgets import shown_text

    seats = [{"seat": i, "name": "Marco" if i == 0 else None, "bot": False, "connected": True} for i in range(2)]
    table = {"id": 7, "name": "Table de Marco", "game": "famiglia", "status": "waiting", "seats": seats,
             "spectators": 0, "host": 0, "host_name": "Marco", "options": {"start": "host"}}
    app = make_app(tmp_path, language="fr")
    try:
        app.display.set_language("fr")
        expected = {0: "0 place prise sur 2", 1: "1 place prise sur 2", 2: "2 places prises sur 2"}
        for filled, words in expected.items():
            t = dict(table, seats=[dict(s, name=f"P{s['seat']}" if s["seat"] < filled else None) for s in seats])
            scene = app.reset(LobbyScene(app, FakeLink(), t, my_seat=0 if filled else None))
            app.display.render(1 / 60, flip=False)
            texts = {shown_text(e) for e in scene.ui if hasattr(e, "text")}
            assert f"Famiglia — {words}" in texts, texts
        assert i18n.tr(i18n.plural_key("table.spectators", 1), n="1") == "1 spectateur"
        assert i18n.tr(i18n.plural_key("hostctl.seats_free", 1), n="1") == "1 place libre"
    finally:
        app.display.set_language("en")


def _strings(lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in [ROOT / "client" / f"mafia.{lang}.json", *sorted((ROOT / "client" / "games").glob(f"*/mafia.{lang}.json"))]:
        def walk(node, prefix):
            for k, v in node.items():
                if isinstance(v, dict):
                    walk(v, f"{prefix}{k}.")
                else:
                    out[f"{path.parent.name}:{prefix}{k}"] = str(v)
        walk(json.loads(path.read_text(encoding="utf-8"))[lang], "")
    return out


def test_no_possessive_is_built_on_a_players_name():
    """A seat's name may read "Marco (you)": "%{name}'s gang" would say "Marco (you)'s
    gang". Only the player's own name from the settings (the default table name) may
    take one."""
    allowed = {"client:host.default_name"}
    bad = {k: v for k, v in _strings("en").items()
           if re.search(r"%\{\w+\}['’]s\b", v) and k not in allowed}
    assert not bad, bad


SCOREBOARD = [{"name": "Marco", "game": "omerta", "played": 3, "won": 2, "by_stand_in": 1},
              {"name": "Bots", "game": "omerta", "played": 3, "won": 1, "by_stand_in": 0, "bot": True},
              {"name": "Lena", "game": "famiglia", "played": 1, "won": 0},  # an older server: no new keys
              {"name": "Odd", "game": "omerta", "played": "x", "won": None, "by_stand_in": "?"}]


def test_the_scoreboard_shows_the_bots_row_and_stand_in_wins(tmp_path):
    from client.scenes.lobby import scoreboard_panel
    from client.table.results import draw_scoreboard
    from client.ui.scene import Scene
    from client.ui.scoreboard import score_rows
    from client.ui.widgets import shown_text

    rows = score_rows(SCOREBOARD)
    assert [(r.name, r.played, r.won, r.bot) for r in rows] == [
        ("Marco", "3", "2 +1", False), ("Bots", "3", "1", True), ("Lena", "1", "0", False), ("Odd", "0", "0", False)]
    for lang, bots in (("en", "Bots"), ("fr", "Robots")):
        app = make_app(tmp_path, language=lang)
        try:
            app.display.set_language(lang)
            scene = app.reset(Scene(app))
            scoreboard_panel(scene, pygame.Rect(800, 300, 440, 380), SCOREBOARD)
            shown = [shown_text(e) for e in scene.ui if hasattr(e, "text")]
            assert "2 +1" in shown and bots in shown and i18n.tr("score.stand_in_note") in shown
            draw_scoreboard(app.display.screen, pygame.Rect(100, 100, 600, 400), SCOREBOARD, 18)
            scoreboard_panel(scene, pygame.Rect(800, 300, 440, 380), [{"name": "Ann", "game": "omerta"}])
        finally:
            app.display.set_language("en")


def test_the_join_screen_counts_servers_and_tables_in_words(tmp_path):
    from client.scenes.join import server_line

    app = make_app(tmp_path, language="fr")
    try:
        app.display.set_language("fr")
        one = {"name": "Mafia Table", "host": "192.0.2.2", "tcp_port": 7791, "tables": [{"id": 1}]}
        assert server_line(one).endswith("— 1 table") and "(s)" not in server_line(one)
        assert server_line(dict(one, tables=[])).endswith("— 0 table")
        assert i18n.tr(i18n.plural_key("join.found", 1), n="1").startswith("1 serveur trouvé.")
    finally:
        app.display.set_language("en")
    assert server_line(dict(one, tables=[{}, {}])).endswith("— 2 tables")
