"""The table says when the server cannot save the match (a full disk) and when it can
again, and tells a player who comes back that moves were lost in a crash (issue
"Nothing lost, whatever fails")."""
from __future__ import annotations

from tests.test_client_app import make_app, open_table, snap_window_state


def _lines(scene) -> list[str]:
    return [text for text, _, _ in scene.column.messages]


def test_paused_and_resumed_are_shown_to_the_player(tmp_path):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    scene.on_message({"type": "table_paused", "table": 9,
                      "message": "the server cannot save this match: no space left on device"}, link)
    assert any("paused" in t and "no space left on device" in t for t in _lines(scene))
    assert app.display.notice and "no space left" in app.display.notice[0]
    scene.on_message({"type": "table_resumed", "table": 9}, link)
    assert any("saves the match again" in t for t in _lines(scene))
    scene.on_message({"type": "table_paused", "table": 8, "message": "other table"}, link)
    assert not any("other table" in t for t in _lines(scene))  # another table's pause


def test_a_rewound_match_is_said_never_silent(tmp_path):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    from shared.games import omerta

    scene.on_message({"type": "match_started", "table": 9, "game": "omerta", "seat": 0,
                      "view": omerta.view(state, 0), "legal": [], "t_server": 0.0, "step": 7,
                      "resumed": True, "missed": [], "rewound_from": 9}, link)
    assert any("lost the last 2 move" in t for t in _lines(scene))


def test_a_held_seat_counts_down_to_its_stand_in_on_its_plate(tmp_path, monkeypatch):
    from client.table import pause

    now = [100_000.0]
    monkeypatch.setattr(pause, "now_ms", lambda: now[0])
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    link.conn.to_client_ms = lambda server_ms: server_ms - 40_000.0  # the clock sync's offset
    seats = [{"seat": p, "name": f"P{p}", "bot": False, "connected": p != 2, "away": p == 2}
             for p in range(4)]
    seats[2]["stand_in_at"] = 143_500.0  # server ms: 103.5 s on this client's clock
    app.tables[9] = {"id": 9, "name": "t", "seats": seats}
    assert scene.seat_status(2) == "away — a bot plays in 4 s"
    now[0] = 102_600.0
    assert scene.seat_status(2) == "away — a bot plays in 1 s"
    now[0] = 103_600.0  # the time is up: no count, the server says what happens next
    assert scene.seat_status(2) == "away — reconnecting"
    del seats[2]["stand_in_at"]
    seats[2]["bot"] = True
    assert scene.seat_status(2) == "away — a bot plays meanwhile"
    assert scene.roster.seat_away(1) == ""


def test_a_restarted_servers_wait_for_the_players_is_counted_down(tmp_path, monkeypatch):
    from client.table import pause

    now = [100_000.0]
    monkeypatch.setattr(pause, "now_ms", lambda: now[0])
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    link.conn.to_client_ms = lambda server_ms: server_ms - 40_000.0
    scene.on_message({"type": "table_paused", "table": 9, "until": 154_000.0,
                      "message": "the server restarted: waiting up to 20 s for the players"}, link)
    scene.update(0.016)
    assert app.display.notice[0] == ("The server restarted and waits for the players to come "
                                     "back: the match goes on in 14 s.")
    now[0] = 105_000.0
    scene.update(0.016)
    assert app.display.notice[0].endswith("goes on in 9 s.")
    scene.on_message({"type": "table_resumed", "table": 9}, link)
    assert app.display.notice[0] == "The match goes on."
    now[0] = 106_000.0
    scene.update(0.016)
    assert app.display.notice[0] == "The match goes on."  # the count stopped with the pause


def test_the_wait_of_a_restarted_server_is_counted_on_its_own_clock(tmp_path, monkeypatch):
    """Back on a restarted server, the clock sync still held may be the former process's:
    the count comes from the server's own wait (``until - t_server``), and the history
    says the fact without a count that would stay frozen there."""
    from client.table import pause

    now = [100_000.0]
    monkeypatch.setattr(pause, "now_ms", lambda: now[0])
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    link.conn.to_client_ms = lambda server_ms: server_ms - 9_000_000.0  # the former server's
    scene.on_message({"type": "table_paused", "table": 9, "until": 21_000.0, "t_server": 1_500.0,
                      "message": "the server restarted: waiting up to 20 s for the players"}, link)
    scene.update(0.016)
    assert app.display.notice[0].endswith("goes on in 20 s.")
    now[0] = 104_000.0
    scene.update(0.016)
    assert app.display.notice[0].endswith("goes on in 16 s.")
    assert "The server restarted and waits for the players to come back." in _lines(scene)
    assert not any("goes on in" in t for t in _lines(scene))
