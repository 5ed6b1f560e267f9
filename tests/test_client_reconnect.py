"""Coming back after a lost connection, against a scripted fake server: the table stays
with a "reconnecting" overlay, tries come after 0.5 s, 1 s, 2 s ... (at most 10 s), the
seat is asked back with its token and last step, the resumed match_started's missed
events are told; an expired seat (or a server gone for good) sends the player to the
menu with a sentence. Also: held seats, spectators and the turn timer on the table."""
from __future__ import annotations

import pygame
from twisted.internet import defer, task

from client.app import App, Link
from client.i18n import tr
from client.net import ServerError
from client.reconnect import GIVE_UP_S, delay
from client.settings import Settings
from shared.config import merge
from shared.games import famiglia as fg
from shared.rules import events_for

SCENARIO = {"first_player": 0, "hands": [["B1", "B1", "M3", "A2", "F0"], ["F0"]],
            "gangs": [["F1", "M0"], ["A0"]], "deck": ["B2", "A3", "M2", "F2", "A1", "B3", "M1"]}


class FakeTransport:
    def loseConnection(self):
        pass


class FakeConn:
    """A connection to the scripted server: ``replies[type]`` is the reply dict (or an
    exception to fail with) of each request type."""

    def __init__(self, replies=None):
        self.replies = replies or {}
        self.requests = []
        self.sent = []
        self.transport = FakeTransport()

    def request(self, msg_type, **fields):
        self.requests.append((msg_type, fields))
        reply = self.replies.get(msg_type, {"type": "ok"})
        if isinstance(reply, Exception):
            return defer.fail(reply)
        return defer.succeed(dict(reply))

    def send_action(self, table, action, t_press=None, t_shown=None):
        self.sent.append(action)
        return defer.Deferred()

    def to_client_ms(self, server_ms):
        return None


class Server:
    """The scripted server: ``outcomes`` says what each connection try gives (an
    exception = refused, else the FakeConn)."""

    def __init__(self, outcomes):
        self.outcomes = list(outcomes)
        self.tries = []

    def connect(self, reactor, host, port, name, listener=None, timeout=5.0):
        self.tries.append(reactor.seconds())
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, Exception):
            return defer.fail(outcome)
        return defer.succeed(outcome)


def make(tmp_path, outcomes=()):
    clock = task.Clock()
    app = App(merge({}), Settings(name="Ann", language="en"), clock, settings_path=str(tmp_path / "s.json"))
    app.open_window()
    app.running = True
    from client.scenes.menu import MenuScene

    app.push(MenuScene(app))
    server = Server(outcomes)
    app.connections.connector = server.connect
    link = Link(app, "Ann", ("10.0.0.2", 7777))
    link.conn = FakeConn({"join": {"type": "joined", "table": 4, "seat": 0, "token": "tok-4"}})
    app.connections.links.append(link)
    app.connections.main_link = link
    return app, clock, server, link


def start_match(app, link, state, seat=0, **extra):
    link.request("join", table=4, seat=seat)
    msg = {"type": "match_started", "table": 4, "game": "famiglia", "seat": seat, "view": fg.view(state, seat),
           "legal": [a.to_dict() for a in fg.legal_actions(state, seat)], "t_server": 1000.0, "step": 0,
           "seats": [{"seat": 0, "name": "Ann", "bot": False, "connected": True, "away": False},
                     {"seat": 1, "name": "Bob", "bot": False, "connected": True, "away": False}], **extra}
    app.connections.route(link, msg)
    return app.top


def refused_back(tmp_path, error):
    """A Famiglia match whose connection drops; the first try reconnects, and the server
    answers the seat's ``reconnect`` with ``error``. Returns (app, link, the new conn)."""
    back = FakeConn({"reconnect": error})
    app, clock, server, link = make(tmp_path, [back])
    start_match(app, link, fg.new_match(SCENARIO, 5))
    link.on_disconnect(None)
    clock.advance(0.5)
    return app, link, back


def test_backoff_delays():
    assert [delay(n) for n in range(1, 9)] == [0.5, 1, 2, 4, 8, 10, 10, 10]


def test_a_lost_connection_comes_back_and_the_missed_moves_are_told(tmp_path, monkeypatch):
    from client.games.famiglia.table import FamigliaTableScene

    back = FakeConn({"reconnect": {"type": "joined", "table": 4, "seat": 0, "token": "tok-4"}})
    app, clock, server, link = make(tmp_path, [ConnectionRefusedError(), ConnectionRefusedError(), back])
    s0 = fg.new_match(SCENARIO, 5)
    scene = start_match(app, link, s0)
    assert isinstance(scene, FamigliaTableScene) and link.tokens == {4: "tok-4"}
    s1, ev1 = fg.apply(s0, 0, fg.TakePair(39, 35, 57))  # recruit the Brute 2 with a pair
    app.connections.route(link, {"type": "update", "table": 4, "events": events_for(ev1, 0), "view": fg.view(s1, 0),
                     "legal": [], "t_server": 1100.0, "step": 1})
    assert link.steps[4] == 1

    shown = []
    monkeypatch.setattr("client.games.famiglia.draw.draw_reconnecting", lambda surf, attempt, now: shown.append(
        (attempt.attempt, attempt.connecting, round(attempt.next_at - now, 2))))
    link.on_disconnect(None)  # the connection drops
    assert app.top is scene and scene.reconnecting is link.reconnect and link.conn is None
    app.display.render(1 / 60, flip=False)
    assert shown[-1] == (1, False, 0.5)  # "attempt 1, next try in 0.5 s" over the table
    clock.advance(0.5)
    app.display.render(1 / 60, flip=False)
    assert shown[-1] == (2, False, 1.0)  # refused: next try in 1 s
    clock.advance(1.0)
    assert link.reconnect.attempt == 3 and link.reconnect.next_at - clock.seconds() == 2.0
    clock.advance(2.0)
    assert server.tries == [0.5, 1.5, 3.5]
    assert back.requests == [("reconnect", {"token": "tok-4", "step": 1})]
    assert link.conn is back and not link.reconnect.active and link in app.connections.links
    assert scene.reconnecting is None and app.display.notice[0] == tr("reconnect.ok")

    # the server pushes the resumed match with what we missed
    s2, ev2 = fg.apply(s1, 1, fg.Pass())  # Bob's turn, while we were away
    app.connections.route(link, {"type": "match_started", "table": 4, "game": "famiglia", "seat": 0, "view": fg.view(s2, 0),
                     "legal": [a.to_dict() for a in fg.legal_actions(s2, 0)], "t_server": 9000.0, "step": 2,
                     "resumed": True, "missed": events_for(ev2, 0)})
    assert app.top is scene  # the same table, brought up to date
    assert scene.view == fg.view(s2, 0) and scene.legal[0]
    lines = [m[0] for m in scene.column.visible()]
    assert "Bob passes." in lines
    assert lines[-1] == tr("reconnect.back_missed")
    assert link.steps[4] == 2


def test_an_expired_seat_sends_the_player_to_the_menu(tmp_path):
    from client.scenes.menu import MenuScene

    app, link, back = refused_back(tmp_path, ServerError("bad_token", "unknown or expired reconnect token"))
    assert isinstance(app.top, MenuScene)
    assert app.display.notice[0] == tr("reconnect.expired") == "The table is gone: the server no longer holds your seat."
    assert link.tokens == {} and not link.reconnect.active
    assert link in app.connections.links and link.conn is back  # still connected, for the lobby


def test_a_seat_taken_over_on_another_device_is_left_and_not_asked_back(tmp_path):
    from client.scenes.menu import MenuScene

    app, clock, server, link = make(tmp_path, [FakeConn()])
    start_match(app, link, fg.new_match(SCENARIO, 5))
    app.connections.route(link, {"type": "taken_over", "table": 4, "seat": 0, "message": "taken over"})
    assert isinstance(app.top, MenuScene) and link.tokens == {}
    assert app.display.notice[0] == tr("reconnect.taken_over")
    link.on_disconnect(None)  # the server closes the connection after it
    clock.advance(30)
    assert server.tries == []  # the seat is the other device's now: no reconnection
    assert app.display.notice[0] == tr("reconnect.taken_over")  # still saying why


def test_a_server_without_reconnection_says_so(tmp_path):
    from client.scenes.menu import MenuScene

    app, link, back = refused_back(tmp_path, ServerError("unknown_type", "no such message type"))
    assert isinstance(app.top, MenuScene) and app.display.notice[0] == tr("reconnect.unsupported")


def test_a_server_gone_for_good_is_given_up(tmp_path):
    from client.scenes.menu import MenuScene

    app, clock, server, link = make(tmp_path, [ConnectionRefusedError()] * 40)
    start_match(app, link, fg.new_match(SCENARIO, 5))
    link.on_disconnect(None)
    for _ in range(int(GIVE_UP_S) + 15):
        clock.advance(1.0)
    assert isinstance(app.top, MenuScene) and app.display.notice[0] == tr("reconnect.gave_up")
    gaps = [b - a for a, b in zip(server.tries, server.tries[1:])]
    assert gaps[:5] == [1, 2, 4, 8, 10] and max(gaps) == 10
    assert len(server.tries) < 20


def test_a_spectator_screen_watches_again(tmp_path):
    back = FakeConn({"join": {"type": "joined", "table": 4, "seat": None, "token": None}})
    app, clock, server, link = make(tmp_path, [back])
    link.conn.replies["join"] = {"type": "joined", "table": 4, "seat": None, "token": None}
    scene = start_match(app, link, fg.new_match(SCENARIO, 5), seat=None)
    link.request("join", table=4, spectate=True)
    assert link.watching == {4} and not link.tokens
    link.on_disconnect(None)
    clock.advance(0.5)
    assert back.requests == [("join", {"table": 4, "spectate": True})] and app.top is scene


def test_away_seats_spectators_and_the_turn_timer_show(tmp_path):
    app, clock, server, link = make(tmp_path)
    scene = start_match(app, link, fg.new_match(SCENARIO, 5), timer={"seat": 0, "deadline": 31000.0})
    seat, left = scene.timer.left()
    assert seat == 0 and 29.0 < left <= 30.0  # 30 s after the match_started's t_server
    app.tables[4] = {"id": 4, "name": "Duel", "game": "famiglia", "status": "playing", "spectators": 2,
                     "seats": [{"seat": 0, "name": "Ann", "bot": False, "connected": True},
                               {"seat": 1, "name": "Bob", "bot": False, "connected": False, "away": True}]}
    assert scene.roster.seat_away(1) == "away — reconnecting" and scene.roster.seat_away(0) == ""
    assert scene.roster.spectator_line() == "2 watching"
    app.tables[4]["seats"][1]["bot"] = True
    assert scene.roster.seat_away(1) == "away — a bot plays meanwhile"
    app.display.render(1 / 60, flip=False)
    from client.games.famiglia import draw as famiglia_draw

    assert "2 watching" in famiglia_draw._chrome["key"]
    assert "away — a bot plays meanwhile" in str(famiglia_draw._chrome["key"])


def test_an_omerta_table_waits_for_its_connection_too(tmp_path):
    from shared.games import omerta

    app, clock, server, link = make(tmp_path, [ConnectionRefusedError()] * 3)
    link.request("join", table=4, seat=0)
    s = omerta.new_match({"seats": 3}, 1)
    app.connections.route(link, {"type": "match_started", "table": 4, "game": "omerta", "seat": 0, "view": omerta.view(s, 0),
                     "legal": [a.to_dict() for a in omerta.legal_actions(s, 0)], "t_server": 0.0, "step": 0})
    scene = app.top
    link.on_disconnect(None)
    assert app.top is scene and scene.reconnecting is not None
    app.display.render(1 / 60, flip=False)
    pygame.event.clear()


def test_a_join_whose_reply_was_lost_is_asked_again_with_its_key(tmp_path):
    from client.net import ServerError

    back = FakeConn({"join": {"type": "joined", "table": 4, "seat": 2, "token": "tok-2"}})
    app, clock, server, link = make(tmp_path, [ConnectionRefusedError(), back])
    link.conn = FakeConn({"join": ServerError("disconnected", "the connection to the server was lost")})
    first = link.conn
    got = []
    link.request("join", table=4).addCallback(got.append)
    key = first.requests[0][1]["key"]
    assert len(key) >= 16 and not got  # the reply was lost with the connection
    link.on_disconnect(None)
    clock.advance(0.5)  # refused
    clock.advance(1.0)  # back: the same join, the same key
    assert back.requests == [("join", {"table": 4, "key": key})]
    assert got and got[0]["seat"] == 2 and link.tokens == {4: "tok-2"} and not link.joining
    # a join at another table gets its own key
    link.request("join", table=5)
    assert back.requests[-1][1]["key"] != key
