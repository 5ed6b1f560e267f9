"""Omerta's card faces, drawn by code: bottles and characters, and the marker tokens.

An Omerta card is the wire dict ``{"kind": "bottle"|"character", "name", "value",
"points"}``. Bottles show their value huge in the middle (it is what a snap is about);
characters show their name, an emblem and their points. ``colour_blind`` switches to the
Okabe-Ito palette and adds a value strip of pips, so nothing depends on hue alone.
:data:`FACES` is the game's face painter for :class:`client.cards.CardArt`.
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import pygame

from client import text
from client.cards import GOLD, INK, OKABE_ITO, PAPER, CardArt, Colour
from client.cards import blit_center as _blit_center, mix as _mix, rounded as _rounded, star as _star
from client.i18n import tr

#: Bottle colours by value 1..10 (glass colours: ambers, greens, wine, blues).
BOTTLE_COLOURS: tuple[Colour, ...] = (
    (196, 132, 48), (120, 150, 52), (60, 120, 80), (40, 110, 130), (52, 82, 150),
    (96, 64, 150), (150, 52, 110), (170, 40, 50), (120, 70, 40), (70, 70, 80),
)
#: Header colour of each character.
CHARACTER_COLOURS: dict[str, Colour] = {
    "henchman": (70, 70, 78),
    "lady": (150, 40, 90),
    "mole": (110, 85, 55),
    "snitch": (40, 110, 120),
    "driver": (35, 80, 140),
    "safecracker": (95, 95, 40),
    "hitwoman": (160, 25, 30),
    "witness": (90, 110, 60),
    "alibi": (120, 120, 130),
    "mamma": (190, 70, 110),
    "police_patrol": (25, 55, 120),
}

def character_name(name: str) -> str:
    """The player-facing (translated) name of a character."""
    return tr(f"char.{name}")


def card_key(card: Mapping[str, Any]) -> str | None:
    """Short identity of an Omerta face: ``"7"`` or ``"henchman"``; None for another
    game's card."""
    if card.get("kind") not in ("bottle", "character"):
        return None
    return str(card.get("value")) if card.get("kind") == "bottle" else str(card.get("name"))


def paint_face(art: CardArt, s: pygame.Surface, card: Mapping[str, Any]) -> None:
    if card.get("kind") == "bottle":
        _draw_bottle(art, s, int(card.get("value", 0)))
    else:
        _draw_character(art, s, str(card.get("name")), int(card.get("points", 0)))


def token(art: CardArt, kind: str, d: int) -> pygame.Surface:
    """A round marker token of diameter ``d`` px: ``"mamma"`` or ``"police_patrol"``."""
    return art.cached(("token", kind, d), (d, d), lambda s: _draw_token(art, s, kind))


def _bottle_colour(art: CardArt, value: int) -> Colour:
    palette = OKABE_ITO if art.colour_blind else BOTTLE_COLOURS
    return palette[(value - 1) % len(palette)]


def points_badge(w: int, h: int) -> tuple[tuple[int, int], int]:
    """Centre and radius (px) of a character's points disc on a ``w`` x ``h`` face."""
    return (int(w * 0.5), int(h * 0.86)), int(w * 0.14)


def value_rects(card: Mapping[str, Any], w: int, h: int) -> list[pygame.Rect]:
    """Where a ``w`` x ``h`` face shows what the card is worth (face coordinates, px):
    a bottle's big value and its two corner indices, a character's name band and
    points disc. Nothing drawn over a face (the slot keys) may cover them."""
    if card.get("kind") == "bottle":
        value = str(card.get("value", ""))
        bw, bh = text.font(int(h * 0.40), True).size(value)
        big = pygame.Rect(0, 0, bw, bh)
        big.center = (int(w / 2), int(h * 0.33))
        iw, ih = text.font(int(h * 0.13), True).size(value)
        top = pygame.Rect(int(w * 0.09), int(h * 0.035), iw, ih)
        bottom = pygame.Rect(w - iw - int(w * 0.09), h - ih - int(h * 0.035), iw, ih)
        return [big, top, bottom]
    (cx, cy), rad = points_badge(w, h)
    head = pygame.Rect(int(w * 0.06), int(w * 0.06), int(w * 0.88), int(h * 0.20))
    return [head, pygame.Rect(cx - rad, cy - rad, 2 * rad, 2 * rad)]


def _draw_bottle(art: CardArt, s: pygame.Surface, value: int) -> None:
    w, h = s.get_size()
    col = _bottle_colour(art, value)
    r, radius = art.frame(s, PAPER)
    inner = r.inflate(-int(w * 0.10), -int(w * 0.10))
    _rounded(s, inner, _mix(PAPER, col, 0.45), radius // 2, width=max(2, w // 70))
    # bottle silhouette, lower half
    bw, bh = w * 0.30, h * 0.34
    bx, by = w / 2 - bw / 2, h * 0.58
    body = pygame.Rect(int(bx), int(by + bh * 0.30), int(bw), int(bh * 0.70))
    neck = pygame.Rect(int(w / 2 - bw * 0.17), int(by), int(bw * 0.34), int(bh * 0.34))
    _rounded(s, body, col, int(bw * 0.22))
    shoulder = pygame.Rect(int(bx), int(by + bh * 0.18), int(bw), int(bh * 0.30))
    pygame.draw.ellipse(s, col, shoulder)
    _rounded(s, neck, col, int(bw * 0.06))
    cap = pygame.Rect(neck.left - 2, neck.top - int(bh * 0.06), neck.width + 4, int(bh * 0.09))
    _rounded(s, cap, INK, 3)
    label = pygame.Rect(0, 0, int(bw * 0.80), int(bh * 0.30))
    label.center = (int(w / 2), int(body.centery + bh * 0.05))
    _rounded(s, label, PAPER, 4)
    tiny = text.font(max(6, int(label.height * 0.8)), True).render(str(value), True, col)
    _blit_center(s, tiny, label.center)
    pygame.draw.line(s, (255, 255, 255), (body.left + bw * 0.16, body.top + bh * 0.08),
                     (body.left + bw * 0.16, body.bottom - bh * 0.12), max(2, w // 60))
    # the big value, upper half
    big = text.font(int(h * 0.40), True).render(str(value), True, INK)
    _blit_center(s, big, (w / 2, h * 0.33))
    # corner indices
    idx = text.font(int(h * 0.13), True).render(str(value), True, col if not art.colour_blind else INK)
    s.blit(idx, (int(w * 0.09), int(h * 0.035)))
    s.blit(pygame.transform.rotate(idx, 180),
           (w - idx.get_width() - int(w * 0.09), h - idx.get_height() - int(h * 0.035)))
    if art.colour_blind:  # pips: value without colour
        pr = max(3, w // 40)
        for i in range(value):
            px = w * 0.86
            py = h * 0.20 + i * (h * 0.60 / 10)
            pygame.draw.circle(s, INK, (int(px), int(py)), pr)

def _draw_character(art: CardArt, s: pygame.Surface, name: str, points: int) -> None:
    w, h = s.get_size()
    palette_i = list(CHARACTER_COLOURS).index(name) if name in CHARACTER_COLOURS else 0
    col = OKABE_ITO[palette_i % len(OKABE_ITO)] if art.colour_blind else CHARACTER_COLOURS.get(name, (90, 90, 90))
    r, radius = art.frame(s, PAPER)
    head = pygame.Rect(int(w * 0.06), int(w * 0.06), int(w * 0.88), int(h * 0.20))
    _rounded(s, head, col, radius // 2)
    label = character_name(name)
    fg = (20, 20, 20) if sum(col) > 480 else (255, 255, 255)
    size = text.fit_size(label, int(head.width * 0.90), int(h * 0.095), bold=True)
    lab = text.font(size, True).render(label, True, fg)
    _blit_center(s, lab, head.center)
    # emblem
    box = pygame.Rect(0, 0, int(w * 0.62), int(h * 0.40))
    box.center = (int(w / 2), int(h * 0.52))
    pygame.draw.ellipse(s, _mix(PAPER, col, 0.16), box.inflate(int(w * 0.08), int(w * 0.08)))
    _emblem(s, name, box, col)
    # points badge
    centre, rad = points_badge(w, h)
    pygame.draw.circle(s, GOLD, centre, rad)
    pygame.draw.circle(s, INK, centre, rad, max(2, w // 60))
    pts = text.font(int(rad * 1.25), True).render(str(points), True, INK)
    _blit_center(s, pts, centre)


def _draw_token(art: CardArt, s: pygame.Surface, kind: str) -> None:
    d = s.get_width()
    c = d // 2
    col = CHARACTER_COLOURS.get(kind, (90, 90, 90))
    pygame.draw.circle(s, (20, 12, 10), (c, c), c)
    pygame.draw.circle(s, GOLD, (c, c), c - max(2, d // 30))
    pygame.draw.circle(s, col, (c, c), int(c * 0.84))
    box = pygame.Rect(0, 0, int(d * 0.56), int(d * 0.56))
    box.center = (c, c)
    _emblem(s, kind, box, (255, 255, 255), light=True)


def _emblem(s: pygame.Surface, name: str, box: pygame.Rect, col: Colour, light: bool = False) -> None:
    """A simple drawn emblem for a character inside ``box``."""
    ink = (255, 255, 255) if light else INK
    cx, cy = box.center
    w, h = box.size
    lw = max(3, w // 14)
    if name == "henchman":  # two arrows swapping
        for dy, sign in ((-h * 0.18, 1), (h * 0.18, -1)):
            y = cy + dy
            x0, x1 = cx - w * 0.36 * sign, cx + w * 0.36 * sign
            pygame.draw.line(s, ink, (x0, y), (x1, y), lw)
            pygame.draw.polygon(s, ink, [(x1, y), (x1 - sign * w * 0.14, y - h * 0.12),
                                         (x1 - sign * w * 0.14, y + h * 0.12)])
    elif name == "lady":  # three fanned cards
        for ang in (-22, 0, 22):
            card = pygame.Surface((int(w * 0.30), int(h * 0.62)), pygame.SRCALPHA)
            _rounded(card, card.get_rect(), ink, max(3, w // 20))
            _rounded(card, card.get_rect().inflate(-lw, -lw), col if not light else (200, 80, 130), max(2, w // 24))
            rot = pygame.transform.rotate(card, ang)
            s.blit(rot, rot.get_rect(center=(cx + ang * w * 0.006, cy)))
    elif name in ("mole", "witness"):  # an eye
        eye = pygame.Rect(0, 0, int(w * 0.80), int(h * 0.46))
        eye.center = (cx, cy)
        pygame.draw.ellipse(s, ink, eye, lw)
        pygame.draw.circle(s, ink, (cx, cy), int(h * 0.16))
        pygame.draw.circle(s, PAPER if not light else col, (int(cx - h * 0.05), int(cy - h * 0.05)), int(h * 0.05))
        if name == "witness":  # magnifying-glass handle
            pygame.draw.line(s, ink, (cx + w * 0.25, cy + h * 0.22), (cx + w * 0.40, cy + h * 0.42), lw + 2)
    elif name == "snitch":  # a speech bubble
        bub = pygame.Rect(0, 0, int(w * 0.76), int(h * 0.56))
        bub.center = (cx, int(cy - h * 0.06))
        pygame.draw.ellipse(s, ink, bub, lw)
        pygame.draw.polygon(s, ink, [(cx - w * 0.12, bub.bottom - lw), (cx - w * 0.26, cy + h * 0.40),
                                     (cx + w * 0.02, bub.bottom - lw)])
        for dx in (-0.18, 0, 0.18):
            pygame.draw.circle(s, ink, (int(cx + w * dx), bub.centery), max(3, w // 18))
    elif name == "driver":  # a steering wheel
        rad = int(min(w, h) * 0.42)
        pygame.draw.circle(s, ink, (cx, cy), rad, lw + 1)
        pygame.draw.circle(s, ink, (cx, cy), rad // 4)
        for ang in (90, 210, 330):
            a = math.radians(ang)
            pygame.draw.line(s, ink, (cx, cy), (cx + rad * math.cos(a), cy + rad * math.sin(a)), lw)
    elif name == "safecracker":  # a safe with its dial
        safe = pygame.Rect(0, 0, int(w * 0.66), int(h * 0.80))
        safe.center = (cx, cy)
        _rounded(s, safe, ink, max(4, w // 16), lw)
        rad = int(min(safe.w, safe.h) * 0.26)
        pygame.draw.circle(s, ink, safe.center, rad, lw)
        for ang in range(0, 360, 45):
            a = math.radians(ang)
            pygame.draw.line(s, ink, (cx + rad * 0.5 * math.cos(a), cy + rad * 0.5 * math.sin(a)),
                             (cx + rad * math.cos(a), cy + rad * math.sin(a)), max(2, lw // 2))
    elif name == "hitwoman":  # crosshair
        rad = int(min(w, h) * 0.42)
        pygame.draw.circle(s, ink, (cx, cy), rad, lw)
        pygame.draw.circle(s, ink, (cx, cy), rad // 2, max(2, lw // 2))
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            pygame.draw.line(s, ink, (cx + dx * rad * 0.25, cy + dy * rad * 0.25),
                             (cx + dx * rad * 1.2, cy + dy * rad * 1.2), lw)
    elif name == "alibi":  # a clock
        rad = int(min(w, h) * 0.42)
        pygame.draw.circle(s, ink, (cx, cy), rad, lw)
        pygame.draw.line(s, ink, (cx, cy), (cx, cy - rad * 0.7), lw)
        pygame.draw.line(s, ink, (cx, cy), (cx + rad * 0.5, cy + rad * 0.1), lw)
    elif name == "mamma":  # a heart
        rad = min(w, h) * 0.22
        pygame.draw.circle(s, ink if not light else (255, 255, 255), (int(cx - rad * 0.9), int(cy - rad * 0.4)), int(rad))
        pygame.draw.circle(s, ink if not light else (255, 255, 255), (int(cx + rad * 0.9), int(cy - rad * 0.4)), int(rad))
        pygame.draw.polygon(s, ink if not light else (255, 255, 255),
                            [(cx - rad * 1.85, cy - rad * 0.15), (cx + rad * 1.85, cy - rad * 0.15),
                             (cx, cy + rad * 1.9)])
    elif name == "police_patrol":  # a sheriff star
        rad = min(w, h) * 0.46
        pygame.draw.polygon(s, ink if not light else GOLD, _star((cx, cy), rad, 6, 0.55))
        pygame.draw.circle(s, col if not light else (25, 55, 120), (cx, cy), int(rad * 0.25))


FACES = (card_key, paint_face)
