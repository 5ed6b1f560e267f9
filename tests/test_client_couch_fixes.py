"""Couch play and the small things seen on screen (issue 13): a held key is one press,
"1 spectator(s)", the round named in the top bar while the results are up, the replay's
Play button at the end, what spectators and replays are told during the peek, and the
French strings."""
from __future__ import annotations

import pygame

from client import i18n
from client.ui.scene import Scene
from shared.games import omerta
from tests.test_client_app import DECK, key, make_app, open_table


class Recorder(Scene):
    def __init__(self, app):
        super().__init__(app)
        self.keys = []

    def handle_event(self, event, t_ms):
        if event.type == pygame.KEYDOWN:
            self.keys.append(event.key)


def _down(k):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def _up(k):
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))


def test_a_held_key_is_one_press(tmp_path):
    app = make_app(tmp_path)
    rec = app.push(Recorder(app))
    _down(pygame.K_TAB)
    _down(pygame.K_TAB)  # the key repeating while held
    _down(pygame.K_TAB)
    app.sample()
    assert rec.keys == [pygame.K_TAB]
    _up(pygame.K_TAB)
    _down(pygame.K_TAB)  # a second press
    app.sample()
    assert rec.keys == [pygame.K_TAB, pygame.K_TAB]


def test_holding_reveal_does_not_flip_through_the_handover(tmp_path):
    from client.table.handover import HandoverScene

    app = make_app(tmp_path)
    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0}, 1)
    table, _link = open_table(app, s, 0)
    table.public = True  # a couch table's shared screen
    table.secrets[0] = {"slots": [0, 1], "cards": [{"kind": "bottle", "value": 7, "points": 7}] * 2,
                        "reason": "peek"}
    reveal = table.bindings[0].reveal
    _down(reveal)
    for _ in range(5):
        _down(reveal)  # held: repeats
    app.sample()
    top = app.top
    assert isinstance(top, HandoverScene) and not top.showing  # the cover, still
    _up(reveal)
    key(reveal)  # a second press shows the cards
    app.sample()
    assert app.top is top and top.showing
    key(reveal)  # and the next one goes back to the table, not to a new cover
    app.sample()
    assert app.top is table


def test_spectator_count_wording(tmp_path):
    app = make_app(tmp_path)
    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0}, 1)
    table, _link = open_table(app, s, 0)
    entry = {"id": 9, "name": "T", "seats": [], "spectators": 0}
    app.tables[9] = entry
    assert table.roster.spectator_line() == ""
    entry["spectators"] = 1
    assert table.roster.spectator_line() == "1 watching"
    i18n.setup("fr")
    try:
        assert table.roster.spectator_line() == "1 spectateur"
        entry["spectators"] = 3
        assert table.roster.spectator_line() == "3 spectateurs"
        assert "(s)" not in table.roster.spectator_line()
    finally:
        i18n.setup("en")


def test_the_top_bar_names_the_round_whose_results_are_shown(tmp_path):
    from client.games.omerta.results import ResultsScene

    app = make_app(tmp_path)
    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0}, 1)
    table, _link = open_table(app, s, 0)
    table.view = dict(table.view, round=2, last_round={"round": 1, "scores": [0, 0, 0]})
    assert table.shown_round() == 2
    app.push(ResultsScene(app, table, table.view["last_round"]))
    assert table.shown_round() == 1
    app.display.render(1 / 60, flip=False)
    app.pop()
    assert table.shown_round() == 2


def test_the_replay_button_says_play_at_the_end(tmp_path):
    from client.scenes.replay import ReplayScene, load
    from tests.test_client_replay import write_log

    path, _record = write_log(tmp_path, "omerta", 3, seed=2, finished=False)
    app = make_app(tmp_path)
    scene = app.push(ReplayScene(app, load(str(path))))
    scene.toggle()
    assert scene.playing and any(b.text == "mafia.replay.pause" for b in scene.ui)
    key(pygame.K_END)
    app.sample()
    app.display.render(1 / 60, flip=False)
    assert not scene.playing
    assert any(b.text == "mafia.replay.play" for b in scene.ui)
    assert not any(b.text == "mafia.replay.pause" for b in scene.ui)


def test_spectators_and_replays_are_not_told_the_others_are_looking(tmp_path):
    from client.games.omerta import controls

    app = make_app(tmp_path)
    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0}, 1)
    table, _link = open_table(app, s, 0)
    table.links.clear()  # a spectator's screen (TV view)
    table.legal.clear()
    assert "others" not in controls.prompt(table)[0]
    table.replay = True
    assert "others" not in controls.prompt(table)[0]


def test_french_strings():
    i18n.setup("fr")
    try:
        assert i18n.tr("menu.couch") == "À plusieurs sur un écran"
        assert "canapé" not in i18n.tr("couch.title") and "canapé" not in i18n.tr("couch.table_name")
        assert i18n.tr("handover.remember_one").startswith("Retenez-la")
        assert i18n.labelled("Vito", "clac") == "Vito\u00a0: clac"
        assert i18n.tr("table.help_spectator").count("\u00a0:") >= 1
    finally:
        i18n.setup("en")
    assert i18n.labelled("Vito", "snap") == "Vito: snap"
