"""Omerta's card art draws every face and marker token (a regression: the markers'
painter was called with the wrong arguments after the art moved into the game folder,
and any Mamma or Police Patrol on the table stopped the frame loop)."""
from __future__ import annotations

import pygame
import pytest

from client.cards import CardArt
from client.games.omerta import cards as omerta_cards
from shared.games import omerta


@pytest.mark.parametrize("kind", ["mamma", "police_patrol"])
def test_marker_tokens_draw(kind):
    pygame.init()
    art = CardArt()
    token = omerta_cards.token(art, kind, 48)
    assert token.get_size() == (48, 48)
    assert token.get_at((24, 24)).a > 0  # something was painted in the middle


def test_every_omerta_face_draws():
    pygame.init()
    art = CardArt()
    for card in omerta.DECK:
        face = art.face(card.to_dict(), 60, 84)
        assert face.get_size()[0] >= 60
