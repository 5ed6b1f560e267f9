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
