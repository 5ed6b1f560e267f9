"""Esc on a confirmation only cancels it (it never starts leaving the table), and the
Mafiosi bouncer -- secret, for the whole round -- is selected first and placed only when
confirmed (the Confirm button, Enter), on a player's own screen as on the couch's
hand-over screen, whose key lists name the confirm key. Real key and mouse events,
dummy SDL video, fake links."""
from __future__ import annotations

import pygame

from client.i18n import tr
from shared.games import mafiosi as maf
from shared.games import omerta
from tests.test_client_accidents import _after_peeks
from tests.test_client_app import DECK, click, key, make_app, open_table
from tests.test_client_mafiosi import open_table as open_mafiosi, render, visible


def said_leave(scene) -> bool:
    """The message column says a second Esc leaves."""
    return any(m[0] in (tr("rejoin.esc_seat"), tr("table.esc_again")) for m in scene.column.messages)


# -- Omerta ----------------------------------------------------------------------------

def test_esc_on_the_declare_confirmation_only_cancels_it(tmp_path):
    app = make_app(tmp_path)
    scene, link = open_table(app, _after_peeks(), 0)
    app.display.render(1 / 60, flip=False)
    key(pygame.K_ESCAPE)  # a first Esc: "again to leave"
    app.sample()
    assert said_leave(scene)
    scene.column.messages.clear()
    click(scene.buttons["0:declare_omerta"].rect.center)
    app.sample()
    assert scene.declare_armed(0)
    key(pygame.K_ESCAPE)  # within the 2.5 s: cancels the confirmation, nothing more
    app.sample()
    assert not scene.declare_armed(0) and not said_leave(scene) and app.top is scene
    key(pygame.K_ESCAPE)  # the next Esc starts over: it says so, it does not leave
    app.sample()
    assert app.top is scene and said_leave(scene) and link.conn.sent == []


def test_esc_drops_the_cards_picked_before_their_confirmation(tmp_path):
    app = make_app(tmp_path)
    s = omerta.new_match({"seats": 3, "deck": DECK, "first_player": 0}, 1)  # the start-of-round peek
    scene, link = open_table(app, s, 0)
    app.display.render(1 / 60, flip=False)
    mine = scene.own_slots(0)
    click(scene.layout.slot_rect(mine[0]).center)  # one card of the two
    app.sample()
    assert scene.pickers[0].selection
    key(pygame.K_ESCAPE)
    app.sample()
    assert not scene.pickers[0].selection and not said_leave(scene) and link.conn.sent == []


# -- Mafiosi: the bouncer on a player's own screen ---------------------------------------

def _bouncer_table(tmp_path):
    app = make_app(tmp_path)
    state = maf.new_match({"seats": 3, "deck": ["KH", "7S", "AD", "QC", "JK1"]}, 3)
    scene, link = open_mafiosi(app, state, 0)
    render(app)
    return app, scene, link


def test_enter_alone_never_places_a_bouncer(tmp_path):
    app, scene, link = _bouncer_table(tmp_path)
    seven = maf.card_id("7S")
    scene.cursor[0] = seven  # a keyboard cursor left on a card is not a choice
    for k in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_UP):
        key(k)
        app.sample()
    assert link.conn.sent == [] and scene.picked == set()
    assert any(m[0] == tr("maf.msg.pick_bouncer") for m in scene.column.messages)


def test_keys_select_a_bouncer_and_enter_places_it(tmp_path):
    app, scene, link = _bouncer_table(tmp_path)
    key(pygame.K_RIGHT)  # the cursor on the first card that may be a bouncer: selected
    app.sample()
    (place,) = scene.picked
    assert link.conn.sent == [] and "bouncer" in scene.buttons
    key(pygame.K_RETURN)
    app.sample()
    assert link.conn.sent == [{"type": "choose_bouncer", "card": place[1]}]
    assert scene.picked == set()


def test_esc_drops_the_selected_bouncer_only(tmp_path):
    app, scene, link = _bouncer_table(tmp_path)
    seven = ("hand", maf.card_id("7S"))
    click(visible(scene, seven))
    app.sample()
    assert scene.picked == {seven}
    key(pygame.K_ESCAPE)
    app.sample()
    assert scene.picked == set() and "bouncer" not in scene.buttons
    assert not said_leave(scene) and app.top is scene and link.conn.sent == []
    click(visible(scene, seven))  # chosen again, then confirmed
    app.sample()
    render(app)
    click(scene.buttons["bouncer"].rect.center)
    app.sample()
    assert link.conn.sent == [{"type": "choose_bouncer", "card": seven[1]}]


# -- couch: the keys listed -----------------------------------------------------------

def test_the_couch_key_lists_name_the_confirm_key(tmp_path):
    from client.scenes.couch import CouchScene
    from client.scenes.settings import zone_keys
    from client.ui.widgets import shown_text

    app = make_app(tmp_path)
    assert "E confirm" in zone_keys("left") and "Enter confirm" in zone_keys("right")
    assert "O confirm" in zone_keys("middle") and "9 confirm" in zone_keys("numpad")
    scene = app.reset(CouchScene(app))
    shown = {shown_text(e) for e in scene.ui if hasattr(e, "text")}
    assert zone_keys("left") in shown  # player 1 on the left keys: A/D ... E confirm
