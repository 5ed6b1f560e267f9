"""Play again and the evening's scoreboard (issue 13) on the client, with fake links:
the results board of every game gets a "Play again" button once the match is over; it
sends ``rematch`` on each local seat's connection and says who asked; the next
``match_started`` opens a fresh table (the same flow as a first start, tokens kept);
the scoreboard of ``match_over`` shows on the board (Tab) and the ``tables`` reply's
in the join screen and the lobby. Dummy SDL video."""
from __future__ import annotations

import random

import pygame
import pytest
from twisted.internet import defer

from client import games
from client.games.omerta.table import OmertaTableScene
from client.net import ServerError
from client.table.results import ResultsOverlay
from shared.games import get_game, omerta
from tests.test_client_emotes import FakeLink, make_app, press

DECK = ["7", "1", "2", "3", "4", "5", "6", "8", "9", "10", "1", "2", "2", "3", "4", "5", "7"]
SEATS = [{"seat": 0, "name": "Alice", "bot": False, "connected": True},
         {"seat": 1, "name": "Vito", "bot": False, "connected": True},
         {"seat": 2, "name": "Sonny", "bot": True, "connected": True}]
BOARD = [{"name": "Alice", "game": "omerta", "played": 2, "won": 2},
         {"name": "Vito", "game": "omerta", "played": 2, "won": 0},
         {"name": "Vito", "game": "famiglia", "played": 1, "won": 1}]


def over_state():
    """An Omerta match of one round, over: peeks then seat 0 declares."""
    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0, "rounds": 1}, 1)
    for p in range(3):
        s, _ = omerta.apply(s, p, omerta.Peek((4 * p, 4 * p + 1)))
    s0 = s
    s, events = omerta.apply(s, 0, omerta.DeclareOmerta())
    assert omerta.is_over(s)
    return s0, s, events


def table_entry(**kw):
    return {"id": 9, "name": "Friday", "game": "omerta", "status": "over", "seats": SEATS, "spectators": 1,
            "host": 0, "host_name": "Alice", "locked": False, "options": {"start": "host"}, "rematch": [],
            "match_no": 1, **kw}


def finished_table(app, seat=0, scoreboard=BOARD):
    """An Omerta table whose match just ended (``match_over`` with ``scoreboard``)."""
    s0, s, events = over_state()
    link = FakeLink()
    link.tokens = {9: "tok-9"}
    app.tables[9] = table_entry(status="playing")
    started = {"type": "match_started", "table": 9, "game": "omerta", "seat": seat, "view": omerta.view(s0, seat),
               "legal": [a.to_dict() for a in omerta.legal_actions(s0, seat)] if seat is not None else [],
               "t_server": 0.0, "seats": SEATS}
    scene = app.reset(OmertaTableScene(app, link, started))
    from shared.rules import events_for

    scene.on_message({"type": "update", "table": 9, "events": events_for(events, seat), "view": omerta.view(s, seat),
                      "legal": [], "step": 4}, link)
    app.tables[9] = table_entry()
    link.tokens.pop(9)  # as the app does at match_over
    scene.on_message({"type": "match_over", "table": 9, "result": {"game": "omerta", "winners": [0], "scores": [0, 1, 2]},
                      "reactions": [None, None, None], "scoreboard": scoreboard}, link)
    for _ in range(3):
        app.display.render(1 / 60, flip=False)
    return scene, link


def board_of(app) -> ResultsOverlay:
    board = app.top
    assert isinstance(board, ResultsOverlay)
    return board


def click(app, pos):
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
    app.sample()
    app.display.render(1 / 60, flip=False)


def test_play_again_sends_rematch_and_says_who_asked(tmp_path):
    app = make_app(tmp_path)
    scene, link = finished_table(app)
    board = board_of(app)
    assert board.b_rematch is not None and board.b_rematch.is_enabled
    for other in board.ui:  # left of the board's own buttons, none overlapping
        assert other is board.b_rematch or not other.rect.colliderect(board.b_rematch.rect)
    assert board.box().contains(board.b_rematch.rect)
    table = dict(table_entry(rematch=[0]))
    link.replies["rematch"] = lambda f: defer.succeed({"type": "table", "table": table})
    click(app, board.b_rematch.rect.center)
    assert link.requests[-1] == ("rematch", {"table": 9})
    board = board_of(app)  # rebuilt with the news
    assert not board.b_rematch.is_enabled
    assert board.rematch_line() == "Play again: Alice (you) · Waiting for Vito"
    # the guest asks too: pushed table, then the server starts match 2
    app.connections.route(link, {"type": "table", "table": table_entry(rematch=[0, 1])})
    assert board_of(app).rematch_line() == "Play again: Alice (you), Vito"


def test_the_next_match_opens_a_fresh_table_with_the_token_back(tmp_path):
    app = make_app(tmp_path)
    scene, link = finished_table(app)
    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0, "rounds": 1}, 2)
    started = {"type": "match_started", "table": 9, "game": "omerta", "seat": 0, "view": omerta.view(s, 0),
               "legal": [a.to_dict() for a in omerta.legal_actions(s, 0)], "t_server": 0.0, "step": 0,
               "seats": SEATS}
    app.tables[9] = table_entry(status="playing", match_no=2)
    app.connections.route(link, started)
    new = app.top
    assert isinstance(new, OmertaTableScene) and new is not scene
    assert app.scenes == [new]  # the results board went with the old table
    assert new.match_result is None and new.view["phase"] == "peek" and new.links == {0: link}
    assert link.tokens == {9: "tok-9"}  # the seat keeps its token in the next match
    # a come-back to the new match is no rematch
    app.connections.route(link, {**started, "resumed": True})
    assert app.top is new


def test_a_resumed_start_after_the_end_is_not_a_new_match(tmp_path):
    app = make_app(tmp_path)
    scene, link = finished_table(app)
    s0, s, _ = over_state()
    app.connections.route(link, {"type": "match_started", "table": 9, "game": "omerta", "seat": 0, "view": omerta.view(s, 0),
                     "legal": [], "t_server": 0.0, "step": 4, "resumed": True, "missed": []})
    assert scene in app.scenes


def test_spectator_sees_who_asked_but_has_no_button(tmp_path):
    app = make_app(tmp_path)
    finished_table(app, seat=None)
    board = board_of(app)
    assert board.b_rematch is None
    app.connections.route(board.table.display, {"type": "table", "table": table_entry(rematch=[1])})
    assert board_of(app).rematch_line() == "Play again: Vito · Waiting for Alice"


def test_r_asks_and_a_refusal_is_one_sentence(tmp_path):
    app = make_app(tmp_path)
    scene, link = finished_table(app)
    board = board_of(app)
    board.t = 2.0
    link.replies["rematch"] = lambda f: defer.fail(ServerError("not_over", "the match is not over"))
    press(app, pygame.K_r)
    assert link.requests[-1] == ("rematch", {"table": 9})
    assert app.display.notice[0] == "The match is not over yet."


def test_scoreboard_on_the_board_with_tab(tmp_path, monkeypatch):
    import client.table.results as results

    app = make_app(tmp_path)
    finished_table(app)
    board = board_of(app)
    board.t = 2.0
    seen = []
    real = results.draw_scoreboard
    monkeypatch.setattr(results, "draw_scoreboard", lambda surf, area, rows, size: seen.append((area, rows))
                        or real(surf, area, rows, size))
    app.display.render(1 / 60, flip=False)
    assert seen == []  # the board first
    press(app, pygame.K_TAB)
    app.display.render(1 / 60, flip=False)
    area, rows = seen[-1]
    assert rows == BOARD and board_of(app).box().contains(area)
    assert not area.colliderect(board_of(app).main_button())
    click(app, board_of(app).b_scoreboard.rect.center)
    seen.clear()
    app.display.render(1 / 60, flip=False)
    assert seen == []  # toggled off with the button


def test_emote_keys_work_on_the_results_board(tmp_path):
    app = make_app(tmp_path)
    scene, link = finished_table(app)
    press(app, pygame.K_F8)
    assert link.requests[-1] == ("emote", {"table": 9, "emote": "well_played"})


def test_couch_seats_wait_for_the_shared_screen(tmp_path):
    app = make_app(tmp_path)
    scene, link = finished_table(app, seat=None)  # the shared screen: a spectator link
    seat_link = FakeLink("Vito")
    scene.add_local_seat(seat_link, {"type": "match_started", "table": 9, "seat": 1, "view": scene.view, "legal": []})
    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0}, 2)

    def start(seat):
        return {"type": "match_started", "table": 9, "game": "omerta", "seat": seat, "view": omerta.view(s, seat),
                "legal": [], "t_server": 0.0, "step": 0, "seats": SEATS}

    app.connections.route(seat_link, start(1))  # the seat's start first: kept until the screen's
    assert app.top is not scene or scene in app.scenes
    app.connections.route(link, start(None))
    new = next(x for x in app.scenes if isinstance(x, OmertaTableScene))
    assert new is not scene and new.links == {1: seat_link} and new.public


def _play_out(name, seed=5):
    rules = get_game(name)
    n = games.rules_def(name).default_seats
    cfg = {"seats": n}
    if games.rules_def(name).option("rounds") is not None:
        cfg["rounds"] = 1
    state = rules.new_match(cfg, seed)
    rng = random.Random(seed)
    for _ in range(6000):
        movers = [p for p in range(n) if rules.legal_actions(state, p)]
        p = rng.choice(movers)
        prev = state
        state, events = rules.apply(state, p, rng.choice(rules.legal_actions(state, p)))
        if rules.is_over(state):
            return prev, state, events, n
    raise AssertionError(f"{name} did not end")


def _finished_table(app, name):
    """``name``'s table scene at seat 0 of table 3, shown the last update and the
    ``match_over`` of a random match; returns ``(scene, link)``."""
    from shared.rules import events_for

    prev, state, events, n = _play_out(name)
    rules = get_game(name)
    seats = [{"seat": i, "name": ["Alice", "Vito", "Sonny", "Connie", "Tom", "Fredo"][i], "bot": i > 0,
              "connected": True} for i in range(n)]
    app.tables[3] = {"id": 3, "name": "Friday", "game": name, "status": "over", "seats": seats, "rematch": []}
    link = FakeLink()
    started = {"type": "match_started", "table": 3, "game": name, "seat": 0, "view": rules.view(prev, 0),
               "legal": [], "t_server": 0.0, "seats": seats}
    scene = app.reset(games.get(name).table_scene(app, link, started))
    scene.on_message({"type": "update", "table": 3, "events": events_for(events, 0), "view": rules.view(state, 0),
                      "legal": []}, link)
    app.connections.route(link, {"type": "match_over", "table": 3, "result": {"game": name, "winners": [0]},
                     "scoreboard": BOARD})
    return scene, link


@pytest.mark.parametrize("name", ["famiglia", "family_business", "mafiosi"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_games_final_board_gets_play_again(tmp_path, name, lang):
    from tests.test_client_fit import overflows

    app = make_app(tmp_path)
    app.display.set_language(lang)
    scene, link = _finished_table(app, name)
    for _ in range(3):
        app.display.render(1 / 60, flip=False)
    boards = [s for s in app.scenes if isinstance(s, ResultsOverlay)]
    assert boards, "no results board"
    while not boards[-1].b_rematch and getattr(boards[-1], "queue", None):
        boards[-1].close()  # Mafiosi: round boards first
        boards = [s for s in app.scenes if isinstance(s, ResultsOverlay)]
    board = boards[-1]
    assert app.top is board and board.b_rematch is not None and board.b_scoreboard is not None
    for other in board.ui:
        assert other is board.b_rematch or not other.rect.colliderect(board.b_rematch.rect), other.text
    assert not overflows(app)
    click(app, board.b_rematch.rect.center)
    assert link.requests[-1] == ("rematch", {"table": 3})
    app.display.set_language("en")


def test_join_screen_lists_the_scoreboard_and_host(tmp_path):
    from client.scenes.join import JoinScene, table_line

    app = make_app(tmp_path)
    link = FakeLink()
    link.replies["list_tables"] = lambda f: defer.succeed(
        {"type": "tables", "tables": [table_entry(status="waiting", locked=True)], "scoreboard": BOARD})
    app.connections.main_link = link
    scene = app.reset(JoinScene(app))
    texts = {getattr(e, "text", "") for e in scene.ui}
    assert {"Alice", "Vito", "Omerta", "Famiglia", "2", "0", "1"} <= texts
    assert table_line(table_entry(locked=True)).endswith("· host Alice · locked")


@pytest.mark.parametrize("name", ["famiglia", "family_business", "mafiosi"])
def test_r_at_the_table_brings_back_the_board_after_see_the_table(tmp_path, name):
    """"See the table" closes the final board; R at the finished table opens it again,
    so "Play again" is never out of reach."""
    app = make_app(tmp_path)
    scene, link = _finished_table(app, name)
    app.display.render(1 / 60, flip=False)
    while any(isinstance(s, ResultsOverlay) for s in app.scenes):
        board = [s for s in app.scenes if isinstance(s, ResultsOverlay)][-1]
        board.close() if hasattr(board, "close") else app.pop()  # "See the table"
        app.display.render(1 / 60, flip=False)
    assert app.top is scene
    scene.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, mod=0, unicode="r", scancode=0), 0.0)
    boards = [s for s in app.scenes if isinstance(s, ResultsOverlay)]
    assert boards and boards[-1].b_rematch is not None
