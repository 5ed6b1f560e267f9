"""Family Business's card faces, drawn by code, and the gangs' colours and emblems.

A mobster is the wire dict ``{"id", "kind": "mobster", "gang", "gang_name", "name"}``:
its face is the gang's colour with the gang's *emblem* (a distinct shape per gang --
circle, square, triangle, diamond, star, hexagon -- so that a gang is told apart by shape
as well as by hue) and, when the card is big enough, the mobster's name. An action card
``{"id", "kind": "action", "code", "name", "category"}`` shows its (translated) name on
a band of its category's colour, a category icon and its one-line effect. With
``colour_blind`` the gangs take the Okabe-Ito palette (the shapes stay).

:data:`FACES` is the game's face painter for :class:`client.cards.CardArt`.
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import pygame

from client import text
from client.cards import GOLD, INK, OKABE_ITO, PAPER, CardArt, Colour
from client.cards import blit_center, mix, rounded, star
from client.i18n import tr

#: Gang colours (seat p plays gang p), the normal palette.
GANG_COLOURS: tuple[Colour, ...] = (
    (196, 52, 46),    # Capone Mob: red
    (52, 104, 190),   # Moran Gang: blue
    (44, 140, 84),    # New York Mob: green
    (222, 152, 30),   # Murder Inc.: amber
    (132, 76, 172),   # Purple Gang: purple
    (40, 160, 170),   # Bank Robbers: teal
)
#: The colour-blind palette (Okabe-Ito), same order.
GANG_COLOURS_CB: tuple[Colour, ...] = (
    OKABE_ITO[5], OKABE_ITO[4], OKABE_ITO[2], OKABE_ITO[3], OKABE_ITO[6], OKABE_ITO[1],
)
#: Gang emblems by gang: a shape each, never only a colour.
EMBLEMS = ("circle", "square", "triangle", "diamond", "star", "hexagon")
#: Action-card categories: header colour.
CATEGORY_COLOURS: dict[str, Colour] = {
    "contract": (150, 28, 36),
    "attack": (44, 40, 40),
    "counter": (36, 84, 150),
    "rescue": (40, 118, 66),
}


def gang_colour(gang: int, colour_blind: bool = False) -> Colour:
    palette = GANG_COLOURS_CB if colour_blind else GANG_COLOURS
    return palette[int(gang) % len(palette)]


def card_name(card: Mapping[str, Any] | None) -> str:
    """The player-facing (translated) name of an action card, or a mobster's name."""
    if not isinstance(card, Mapping):
        return "?"
    if card.get("kind") == "mobster":
        return str(card.get("name") or "?")
    return tr(f"fb.card.{card.get('code')}")


def effect_text(code: str) -> str:
    """An action card's one-line effect (translated)."""
    return tr(f"fb.effect.{code}")


def emblem_points(shape: str, centre: tuple[float, float], r: float) -> list[tuple[float, float]] | None:
    """The polygon of an emblem (None for the circle)."""
    cx, cy = centre
    if shape == "square":
        k = r * 0.86
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    if shape == "triangle":
        return [(cx, cy - r * 1.05), (cx + r * 1.0, cy + r * 0.75), (cx - r * 1.0, cy + r * 0.75)]
    if shape == "diamond":
        return [(cx, cy - r * 1.1), (cx + r * 0.85, cy), (cx, cy + r * 1.1), (cx - r * 0.85, cy)]
    if shape == "star":
        return star((cx, cy + r * 0.08), r * 1.12, 5, 0.45)
    if shape == "hexagon":
        return [(cx + r * math.cos(math.radians(30 + 60 * i)), cy + r * math.sin(math.radians(30 + 60 * i)))
                for i in range(6)]
    return None


def draw_emblem(s: pygame.Surface, gang: int, centre: tuple[float, float], r: float, fill: Colour,
                edge: Colour = INK, width: int = 0) -> None:
    """Gang ``gang``'s emblem of radius ``r`` px at ``centre``, filled, with an edge."""
    shape = EMBLEMS[int(gang) % len(EMBLEMS)]
    pts = emblem_points(shape, centre, r)
    ew = width or max(1, int(r * 0.16))
    if pts is None:
        pygame.draw.circle(s, fill, (int(centre[0]), int(centre[1])), int(r))
        pygame.draw.circle(s, edge, (int(centre[0]), int(centre[1])), int(r), ew)
    else:
        pygame.draw.polygon(s, fill, pts)
        pygame.draw.polygon(s, edge, pts, ew)


def emblem_badge(art: CardArt, gang: int, d: int) -> pygame.Surface:
    """A round badge of diameter ``d`` px: the gang's emblem on its colour (plates, the
    cemetery's counts, the results)."""
    return art.cached(("fb-badge", int(gang), d, art.colour_blind), (d, d), lambda s: _paint_badge(art, s, gang))


def _paint_badge(art: CardArt, s: pygame.Surface, gang: int) -> None:
    d = s.get_width()
    c = d / 2
    col = gang_colour(gang, art.colour_blind)
    pygame.draw.circle(s, (20, 12, 10), (int(c), int(c)), int(c))
    pygame.draw.circle(s, col, (int(c), int(c)), int(c * 0.88))
    draw_emblem(s, gang, (c, c), c * 0.50, PAPER, INK)


def card_key(card: Mapping[str, Any]) -> str | None:
    """Short identity of a Family Business face; None for another game's card."""
    kind = card.get("kind")
    if kind == "mobster" and "gang" in card and "gang_name" in card:
        return f"fb:m:{card.get('id')}"
    if kind == "action" and "code" in card and "category" in card:
        return f"fb:a:{card.get('code')}"
    return None


def paint_face(art: CardArt, s: pygame.Surface, card: Mapping[str, Any]) -> None:
    if card.get("kind") == "mobster":
        _draw_mobster(art, s, card)
    else:
        _draw_action(art, s, card)


def _draw_mobster(art: CardArt, s: pygame.Surface, card: Mapping[str, Any]) -> None:
    w, h = s.get_size()  # twice the shown size
    gang = int(card.get("gang", 0))
    col = gang_colour(gang, art.colour_blind)
    r, radius = art.frame(s, mix(col, (0, 0, 0), 0.15))
    inner = r.inflate(-max(4, w // 10), -max(4, w // 10))
    rounded(s, inner, col, max(3, radius - 3))
    big = h >= 150  # shown at 75 px or more: room for the name
    cy = h * (0.40 if big else 0.5)
    rad = min(w * 0.34, h * (0.22 if big else 0.30))
    pygame.draw.circle(s, mix(col, PAPER, 0.35), (int(w / 2), int(cy)), int(rad * 1.32))
    draw_emblem(s, gang, (w / 2, cy), rad, PAPER, INK, max(2, int(rad * 0.14)))
    if big:
        band = pygame.Rect(inner.x + 2, int(h * 0.70), inner.w - 4, int(h * 0.24))
        rounded(s, band, PAPER, max(3, radius // 2))
        name = str(card.get("name") or "")
        size = int(band.h * 0.36)
        lines = text.wrap(name, int(band.w * 0.92), size, bold=True)
        if len(lines) > 2:
            size = int(band.h * 0.30)
            lines = text.wrap(name, int(band.w * 0.94), size, bold=True)[:2]
        lh = text.font(size, True).get_linesize()
        y = band.centery - lh * len(lines) / 2 + lh / 2
        for line in lines:
            fs = text.fit_size(line, int(band.w * 0.94), size, bold=True)
            blit_center(s, text.font(fs, True).render(line, True, INK), (band.centerx, y))
            y += lh


def _draw_action(art: CardArt, s: pygame.Surface, card: Mapping[str, Any]) -> None:
    w, h = s.get_size()
    code = str(card.get("code") or "")
    cat = str(card.get("category") or "rescue")
    col = CATEGORY_COLOURS.get(cat, (90, 90, 90))
    r, radius = art.frame(s, PAPER)
    head = pygame.Rect(int(w * 0.06), int(w * 0.06), int(w * 0.88), int(h * 0.27))
    rounded(s, head, col, radius // 2)
    # the name, one or two lines, as big as fits
    name = card_name(card)
    size = int(head.h * 0.34)
    lines = text.wrap(name, int(head.w * 0.92), size, bold=True)
    if len(lines) > 2:
        size = int(head.h * 0.27)
        lines = text.wrap(name, int(head.w * 0.94), size, bold=True)[:3]
    lh = text.font(size, True).get_linesize()
    y = head.centery - lh * len(lines) / 2 + lh / 2
    for line in lines:
        fs = text.fit_size(line, int(head.w * 0.94), size, bold=True)
        blit_center(s, text.font(fs, True).render(line, True, (255, 255, 255)), (head.centerx, y))
        y += lh
    # the category: a small icon and its word
    word = tr(f"fb.cat.{cat}").upper()
    ws = text.fit_size(word, int(w * 0.62), int(h * 0.06), bold=True)
    wimg = text.font(ws, True).render(word, True, col)
    icon = pygame.Rect(0, 0, int(h * 0.085), int(h * 0.085))
    total = icon.w + int(w * 0.04) + wimg.get_width()
    icon.midleft = (int((w - total) / 2), int(h * 0.375))
    _icon(s, cat, icon, col)
    s.blit(wimg, wimg.get_rect(midleft=(icon.right + int(w * 0.04), icon.centery)))
    # the effect, as big as fits the lower half
    box = pygame.Rect(int(w * 0.07), int(h * 0.45), int(w * 0.86), int(h * 0.52))
    eff = effect_text(code)
    fs = int(h * 0.092)
    while fs > 8:
        lines = text.wrap(eff, box.w, fs, bold=True)
        if len(lines) * text.font(fs, True).get_linesize() <= box.h:
            break
        fs -= 1
    lines = text.wrap(eff, box.w, fs, bold=True)
    lh = text.font(fs, True).get_linesize()
    y = box.y + (box.h - lh * len(lines)) / 2 + lh / 2
    for line in lines:
        blit_center(s, text.font(fs, True).render(line, True, INK), (box.centerx, y))
        y += lh


def _icon(s: pygame.Surface, cat: str, box: pygame.Rect, col: Colour) -> None:
    cx, cy = box.center
    rad = box.w / 2
    lw = max(2, int(rad * 0.14))
    if cat == "contract":  # a crosshair
        pygame.draw.circle(s, col, (cx, cy), int(rad), lw)
        pygame.draw.circle(s, col, (cx, cy), int(rad * 0.45), max(2, lw // 2))
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            pygame.draw.line(s, col, (cx + dx * rad * 0.2, cy + dy * rad * 0.2),
                             (cx + dx * rad * 1.15, cy + dy * rad * 1.15), lw)
    elif cat == "attack":  # a bomb
        pygame.draw.circle(s, col, (int(cx - rad * 0.1), int(cy + rad * 0.15)), int(rad * 0.72))
        pygame.draw.line(s, col, (cx + rad * 0.3, cy - rad * 0.4), (cx + rad * 0.7, cy - rad * 0.85), lw)
        pygame.draw.polygon(s, GOLD, star((cx + rad * 0.78, cy - rad * 0.92), rad * 0.3, 6, 0.45))
    elif cat == "counter":  # a shield
        pts = [(cx - rad * 0.8, cy - rad * 0.8), (cx + rad * 0.8, cy - rad * 0.8), (cx + rad * 0.8, cy),
               (cx, cy + rad), (cx - rad * 0.8, cy)]
        pygame.draw.polygon(s, col, pts)
        pygame.draw.polygon(s, GOLD, pts, lw)
    else:  # rescue: a life ring
        pygame.draw.circle(s, col, (cx, cy), int(rad), int(rad * 0.42))
        for ang in (45, 135, 225, 315):
            a = math.radians(ang)
            p0 = (cx + rad * 0.58 * math.cos(a), cy + rad * 0.58 * math.sin(a))
            p1 = (cx + rad * 1.0 * math.cos(a), cy + rad * 1.0 * math.sin(a))
            pygame.draw.line(s, PAPER, p0, p1, max(2, int(rad * 0.2)))


FACES = (card_key, paint_face)
