"""Famiglia's card faces, drawn by code.

A Famiglia card is the wire dict ``{"id", "code", "family", "value", "vp"}`` (family
``"famiglia"|"accountant"|"brute"|"mercenary"``). Cards show their family's colour and
emblem, the value large (and again in the top-left corner, which stays visible when cards
overlap) and their victory points in the bottom-left corner. ``colour_blind`` switches to
the Okabe-Ito colours and adds the family's letter, so nothing depends on hue alone.
:data:`FACES` is the game's face painter for :class:`client.cards.CardArt`.
"""
from __future__ import annotations

from typing import Any, Mapping

import pygame

from client import text
from client.cards import GOLD, INK, PAPER, CardArt, Colour
from client.cards import blit_center as _blit_center, mix as _mix, rounded as _rounded, star as _star
from client.i18n import tr

#: Famiglia families (wire name): colour, colour-blind-safe colour, letter.
FAMILY_COLOURS: dict[str, Colour] = {
    "famiglia": (176, 32, 40),      # red
    "accountant": (36, 84, 170),    # blue
    "brute": (226, 178, 30),        # yellow
    "mercenary": (34, 130, 72),     # green
}
FAMILY_COLOURS_CB: dict[str, Colour] = {
    "famiglia": (213, 94, 0),       # vermillion
    "accountant": (0, 114, 178),    # blue
    "brute": (240, 228, 66),        # yellow
    "mercenary": (0, 158, 115),     # bluish green
}
FAMILY_LETTERS: dict[str, str] = {"famiglia": "F", "accountant": "A", "brute": "B", "mercenary": "M"}

def card_key(card: Mapping[str, Any]) -> str | None:
    """Short identity of a Famiglia face: ``"fam:B3"``; None for another game's card."""
    if "family" not in card:
        return None
    return f"fam:{FAMILY_LETTERS.get(str(card.get('family')), '?')}{card.get('value')}"


def family_name(family: str) -> str:
    """The player-facing (translated) name of a Famiglia family, singular."""
    return tr(f"family.{family}")


def family_colour(family: str, colour_blind: bool = False) -> Colour:
    """A Famiglia family's colour (the colour-blind-safe one when asked)."""
    table = FAMILY_COLOURS_CB if colour_blind else FAMILY_COLOURS
    return table.get(family, (90, 90, 90))


def paint_face(art: CardArt, s: pygame.Surface, card: Mapping[str, Any]) -> None:
    _draw_famiglia(art, s, str(card.get("family")), int(card.get("value", 0)), int(card.get("vp", 0)))


def _draw_famiglia(art: CardArt, s: pygame.Surface, family: str, value: int, vp: int) -> None:
    """A Famiglia card: family-coloured header with the value index (top-left, the part
    that shows when cards overlap), the family's name, the value large in the middle
    over the family emblem, and the VP badge in the bottom-left corner."""
    w, h = s.get_size()
    col = family_colour(family, art.colour_blind)
    light = sum(col) > 480  # yellow: dark ink on it
    fg = INK if light else (255, 255, 255)
    r, radius = art.frame(s, PAPER)
    head = pygame.Rect(int(w * 0.06), int(w * 0.06), int(w * 0.88), int(h * 0.21))
    _rounded(s, head, col, radius // 2)
    idx = text.font(int(h * 0.19), True).render(str(value), True, fg)
    s.blit(idx, idx.get_rect(midleft=(int(head.x + w * 0.05), head.centery)))
    label = family_name(family)
    if art.colour_blind:
        label = f"{FAMILY_LETTERS.get(family, '?')} · {label}"
    room = head.right - int(w * 0.04) - (head.x + int(w * 0.05) + idx.get_width() + int(w * 0.04))
    size = text.fit_size(label, max(10, room), int(h * 0.075), bold=True)
    lab = text.font(size, True).render(label, True, fg)
    s.blit(lab, lab.get_rect(midright=(head.right - int(w * 0.04), head.centery)))
    # the emblem, faint, behind the big value
    box = pygame.Rect(0, 0, int(w * 0.70), int(h * 0.44))
    box.center = (int(w / 2), int(h * 0.55))
    pygame.draw.ellipse(s, _mix(PAPER, col, 0.14), box.inflate(int(w * 0.06), int(w * 0.06)))
    _family_emblem(s, family, box, _mix(PAPER, col, 0.55))
    big = text.font(int(h * 0.40), True).render(str(value), True, _mix(col, INK, 0.55 if light else 0.15))
    _blit_center(s, big, (w / 2, h * 0.55))
    # victory points, bottom-left (visible in a fan)
    rad = int(w * 0.15)
    centre = (int(w * 0.06 + rad + w * 0.02), int(h - w * 0.06 - rad - h * 0.01))
    pygame.draw.circle(s, GOLD, centre, rad)
    pygame.draw.circle(s, INK, centre, rad, max(2, w // 60))
    pts = text.font(int(rad * (1.15 if vp < 10 else 0.95)), True).render(str(vp), True, INK)
    _blit_center(s, pts, (centre[0], centre[1] - rad * 0.12))
    vp_lab = text.font(max(6, int(rad * 0.52)), True).render(tr("family.vp"), True, INK)
    _blit_center(s, vp_lab, (centre[0], centre[1] + rad * 0.55))
    if art.colour_blind:  # the family letter again, bottom-right
        let = text.font(int(h * 0.13), True).render(FAMILY_LETTERS.get(family, "?"), True, INK)
        s.blit(let, let.get_rect(bottomright=(int(w * 0.91), int(h * 0.95))))


def _family_emblem(s: pygame.Surface, family: str, box: pygame.Rect, ink: Colour) -> None:
    """A distinct shape per Famiglia family inside ``box`` (so families differ by shape
    too): a crown (La Famiglia), a ledger (Accountants), a knuckle-duster (Brutes), a star
    (Mercenaries)."""
    cx, cy = box.center
    w, h = box.size
    lw = max(3, w // 16)
    if family == "famiglia":
        base = cy + h * 0.30
        pts = [(cx - w * 0.42, base), (cx - w * 0.42, cy - h * 0.20), (cx - w * 0.21, cy + h * 0.02),
               (cx, cy - h * 0.38), (cx + w * 0.21, cy + h * 0.02), (cx + w * 0.42, cy - h * 0.20),
               (cx + w * 0.42, base)]
        pygame.draw.polygon(s, ink, pts)
    elif family == "accountant":
        book = pygame.Rect(0, 0, int(w * 0.78), int(h * 0.78))
        book.center = (cx, cy)
        _rounded(s, book, ink, max(4, w // 14), lw)
        pygame.draw.line(s, ink, (cx, book.top), (cx, book.bottom), lw)
        for i in range(1, 4):
            y = book.top + book.h * i / 4
            pygame.draw.line(s, ink, (book.left + w * 0.07, y), (cx - w * 0.06, y), max(2, lw // 2))
            pygame.draw.line(s, ink, (cx + w * 0.06, y), (book.right - w * 0.07, y), max(2, lw // 2))
    elif family == "brute":
        rad = int(min(w * 0.11, h * 0.17))
        for i in range(4):
            pygame.draw.circle(s, ink, (int(cx - w * 0.33 + i * w * 0.22), int(cy - h * 0.12)), rad, lw)
        bar = pygame.Rect(0, 0, int(w * 0.86), int(h * 0.26))
        bar.midtop = (cx, int(cy + h * 0.08))
        _rounded(s, bar, ink, bar.h // 2)
    else:  # mercenary
        pygame.draw.polygon(s, ink, _star((cx, cy), min(w, h) * 0.48, 5, 0.42))


FACES = (card_key, paint_face)
