"""Esc on a confirmation only cancels it (it never starts leaving the table), and the
Mafiosi bouncer -- secret, for the whole round -- is selected first and placed only when
confirmed (the Confirm button, Enter), on a player's own screen as on the couch's
hand-over screen, whose key lists name the confirm key. Real key and mouse events,
dummy SDL video, fake links."""
from __future__ import annotations

import pygame

from client.i18n import tr
from shared.games import omerta
from tests.test_client_accidents import _after_peeks
from tests.test_client_app import DECK, click, key, make_app, open_table


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
