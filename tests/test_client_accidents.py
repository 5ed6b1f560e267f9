"""No accidents (issue 13): the Omerta buttons keep their places from turn to turn and
"Declare Omerta!" takes a second click; the card picked for a snap is dropped when its
window closes; the start-of-round peek works with the keyboard; a Famiglia card always
asks what it is for."""
from __future__ import annotations

import pygame

from shared.games import omerta
from tests.test_client_app import DECK, click, key, make_app, open_table, snap_window_state


def _after_peeks(seats=3):
    s = omerta.new_match({"seats": seats, "deck": DECK, "first_player": 0}, 1)
    for p in range(seats):
        s, _ = omerta.apply(s, p, omerta.Peek((4 * p, 4 * p + 1)))
    return s


def _second_turn():
    """Seat 1 starts its turn with a card on the discard pile (seat 0 discarded a 7,
    nobody snapped)."""
    s = _after_peeks()
    s, _ = omerta.apply(s, 0, omerta.DrawDeck())
    s, _ = omerta.apply(s, 0, omerta.DiscardDrawn())
    for p in sorted(s.window.eligible if hasattr(s.window, "eligible") else range(3)):
        try:
            s, _ = omerta.apply(s, p, omerta.SnapPass())
        except Exception:
            pass
    assert s.window is None and s.turn == 1
    return s


def _texts(scene):
    return {ident.split(":", 1)[1]: b for ident, b in scene.buttons.items() if ":" in ident}


def test_draw_keeps_its_place_and_declare_never_takes_it(tmp_path):
    app = make_app(tmp_path)
    first, _ = open_table(app, _after_peeks(), 0)  # empty discard pile: no "Take the discard"
    b1 = _texts(first)
    assert set(b1) == {"declare_omerta", "draw_deck"}
    draw_1, declare_1 = b1["draw_deck"].rect.copy(), b1["declare_omerta"].rect.copy()
    second, _ = open_table(app, _second_turn(), 1)
    b2 = _texts(second)
    assert set(b2) == {"declare_omerta", "draw_deck", "take_discard"}
    assert b2["draw_deck"].rect == draw_1  # same place, turn after turn
    assert b2["declare_omerta"].rect == declare_1
    for rects in ({k: b.rect for k, b in b1.items()}, {k: b.rect for k, b in b2.items()}):
        assert not rects["declare_omerta"].colliderect(draw_1)
        # and not right above it either: one free row in between
        assert rects["declare_omerta"].bottom < draw_1.top - draw_1.h // 2


def test_declaring_omerta_asks_for_a_second_click(tmp_path):
    app = make_app(tmp_path)
    scene, link = open_table(app, _after_peeks(), 0)
    app.display.render(1 / 60, flip=False)
    rect = scene.buttons["0:declare_omerta"].rect.copy()
    click(rect.center)
    app.sample()
    assert link.conn.sent == []  # not yet
    assert scene.declare_armed(0)
    assert scene.buttons["0:declare_omerta"].text == "mafia.act.declare_confirm"
    assert scene.buttons["0:declare_omerta"].rect == rect  # the confirmation is where the click was
    assert "again" in scene.prompt[0]
    key(pygame.K_ESCAPE)  # Esc takes it back (and does not start leaving the table)
    app.sample()
    assert not scene.declare_armed(0) and scene.keys._esc_until == 0.0
    assert scene.buttons["0:declare_omerta"].text == "mafia.act.declare_omerta"
    click(rect.center)
    app.sample()
    click(rect.center)
    app.sample()
    assert [m["action"] for m in link.conn.sent] == [{"type": "declare_omerta"}]


def test_an_armed_declaration_times_out(tmp_path):
    app = make_app(tmp_path)
    scene, link = open_table(app, _after_peeks(), 0)
    scene._press(0, {"type": "declare_omerta"})
    assert scene.declare_armed(0)
    for _ in range(7):
        scene.update(1.0)
    assert not scene.declare_armed(0)
    assert scene.buttons["0:declare_omerta"].text == "mafia.act.declare_omerta"
    scene._press(0, {"type": "declare_omerta"})
    assert link.conn.sent == []


def test_the_card_picked_for_a_snap_is_dropped_when_the_window_closes(tmp_path):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, link = open_table(app, state, 0, events)
    key(pygame.K_1)
    app.sample()
    assert scene.cursor == {0: scene.own_slots(0)[0]}
    assert scene.buttons["0:snap"].is_enabled
    s = state
    for p in range(3):
        try:
            s, _ = omerta.apply(s, p, omerta.SnapPass())
        except Exception:
            pass
    assert s.window is None
    scene.on_message({"type": "update", "table": 9, "events": [], "view": omerta.view(s, 0),
                      "legal": [a.to_dict() for a in omerta.legal_actions(s, 0)]}, link)
    assert scene.cursor == {}
    # the next window starts with nothing picked: SNAP is not armed
    s2, events2 = snap_window_state()  # a window opens again
    from shared.rules import events_for

    scene.on_message({"type": "update", "table": 9, "events": events_for(events2, 0), "view": omerta.view(s2, 0),
                      "legal": [a.to_dict() for a in omerta.legal_actions(s2, 0)]}, link)
    assert scene.window is not None
    assert scene.cursor == {}
    assert not scene.buttons["0:snap"].is_enabled
    key(pygame.K_SPACE)
    app.sample()
    assert link.conn.sent == []


def test_the_start_of_round_peek_with_the_keyboard(tmp_path):
    app = make_app(tmp_path)
    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0}, 1)
    scene, link = open_table(app, s, 0)
    mine = scene.own_slots(0)
    key(pygame.K_1)
    key(pygame.K_SPACE)
    app.sample()
    assert link.conn.sent == [] and ("slot", mine[0]) in scene.picked
    key(pygame.K_3)
    key(pygame.K_RETURN)
    app.sample()
    assert [m["action"] for m in link.conn.sent] == [{"type": "peek", "slots": [mine[0], mine[2]]}]


def test_space_without_a_chosen_card_during_the_peek_says_how(tmp_path):
    app = make_app(tmp_path)
    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0}, 1)
    scene, link = open_table(app, s, 0)
    key(pygame.K_SPACE)
    app.sample()
    assert link.conn.sent == []
    assert any("1-9" in m[0] for m in scene.column.messages)


def test_a_famiglia_street_card_with_one_use_still_asks():
    from client.games.famiglia.picker import Chooser

    legal = [{"type": "renew", "card": 7}, {"type": "pass"}]
    ch = Chooser(legal)
    assert ch.click(("street", 7)) is None  # the Accountant 3 of the street is not thrown away
    assert ch.asking == (("street", 7), ["renew"])
    assert ch.choose("renew") == {"type": "renew", "card": 7}
