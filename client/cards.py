"""Card art drawn by code: backs, shadows, outlines, and each game's faces.

Every surface is drawn once per ``(card, width, height, options)`` at twice the size and
smooth-scaled down (cheap anti-aliasing), converted once, then cached: a frame only
blits. Sizes are pixels.

The back and everything around a card are the same for every game; a card's *face* is
drawn by the game it belongs to. A game registers a face painter (:func:`register_faces`,
done by the client registry ``client.games``): ``(card_key, paint)`` where
``card_key(card)`` is a short identity of the face (the cache key) or None when the card
is not the game's, and ``paint(art, surface, card)`` draws it at the surface's size. A
card no painter claims gets a plain face (its kind and value). ``colour_blind`` asks the
painters for the Okabe-Ito palette and for marks that do not depend on hue alone.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Mapping

import pygame

from client import text

Colour = tuple[int, int, int]
#: A game's face painter: (card_key(card) -> str | None, paint(art, surface, card)).
FacePainter = tuple[Callable[[Mapping[str, Any]], "str | None"], Callable[[Any, pygame.Surface, Mapping[str, Any]], None]]

PAPER = (246, 239, 222)
INK = (38, 28, 24)
GOLD = (214, 175, 84)
BACK_RED = (124, 22, 34)
BACK_DARK = (86, 12, 22)

#: Okabe-Ito (colour-blind safe) palette, cycled over values.
OKABE_ITO: tuple[Colour, ...] = (
    (230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (0, 114, 178),
    (213, 94, 0), (204, 121, 167), (0, 0, 0), (150, 150, 150), (120, 60, 20),
)

#: The registered face painters, by game name.
FACES: dict[str, FacePainter] = {}


def register_faces(game: str, painter: FacePainter | None) -> None:
    """Let ``game``'s painter draw the faces of its cards (None: remove it)."""
    if painter is None:
        FACES.pop(game, None)
    else:
        FACES[game] = painter


def _painter(card: Mapping[str, Any]) -> tuple[str, Any]:
    for key_of, paint in FACES.values():
        k = key_of(card)
        if k is not None:
            return k, paint
    return f"plain:{card.get('kind')}:{card.get('value')}", _paint_plain


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """Colour ``t`` of the way from ``a`` to ``b`` (drawing with alpha on an alpha
    surface replaces pixels instead of blending, so tints are mixed by hand)."""
    return tuple(int(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def card_key(card: Mapping[str, Any]) -> str:
    """Short identity of a card face (the game's painter says it): ``"7"``,
    ``"henchman"``, ``"fam:B3"``..."""
    return _painter(card)[0]


def rounded(surf: pygame.Surface, rect: pygame.Rect, colour, radius: int, width: int = 0) -> None:
    pygame.draw.rect(surf, colour, rect, width, border_radius=radius)


def star(centre: tuple[float, float], rad: float, tips: int, inner: float) -> list[tuple[float, float]]:
    """The points of a star with ``tips`` tips, the first straight up: ``rad`` px to a
    tip, ``inner`` of that to the notches between them."""
    cx, cy = centre
    pts = []
    for i in range(2 * tips):
        a = math.radians(-90 + i * 180 / tips)
        rr = rad if i % 2 == 0 else rad * inner
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def blit_center(dst: pygame.Surface, src: pygame.Surface, center: tuple[float, float]) -> None:
    dst.blit(src, src.get_rect(center=(int(center[0]), int(center[1]))))


_mix, _rounded = mix, rounded


class CardArt:
    """Renders and caches card surfaces. Create after ``pygame.display.set_mode`` so
    surfaces are converted to the display format (works without a display too)."""

    def __init__(self, colour_blind: bool = False):
        self.colour_blind = colour_blind
        self._cache: dict[tuple, Any] = {}  # surfaces; (surface, margin) for shadowed cards

    def set_colour_blind(self, on: bool) -> None:
        if on != self.colour_blind:
            self.colour_blind = on
            self.clear()

    def clear(self) -> None:
        """Forget every surface (after a language or palette change)."""
        self._cache.clear()

    # -- public ---------------------------------------------------------------------
    def back(self, w: int, h: int) -> pygame.Surface:
        return self._get(("back", w, h), (w, h), self._draw_back)

    def face(self, card: Mapping[str, Any], w: int, h: int) -> pygame.Surface:
        key = ("face", card_key(card), w, h, self.colour_blind)
        return self._get(key, (w, h), lambda s: self._draw_face(s, card))

    def surface(self, card: Mapping[str, Any] | None, w: int, h: int) -> pygame.Surface:
        """The face of ``card``, or the back when ``card`` is None (unknown)."""
        return self.back(w, h) if card is None else self.face(card, w, h)

    def squashed(self, card: Mapping[str, Any] | None, w: int, h: int, x_scale: float) -> pygame.Surface:
        """The card scaled horizontally by ``x_scale`` (a flip frame). Not cached."""
        base = self.surface(card, w, h)
        sw = max(1, int(w * max(0.0, min(1.0, x_scale))))
        return pygame.transform.scale(base, (sw, h)) if sw != w else base

    def shadowed(self, card: Mapping[str, Any] | None, w: int, h: int) -> tuple[pygame.Surface, int]:
        """The card (None = back) with its drop shadow baked in, and the margin (px)
        to subtract from the card's top-left: one blit instead of two."""
        key = ("shadowed", card_key(card) if card is not None else None, w, h, self.colour_blind)
        hit = self._cache.get(key)
        return hit if hit is not None else self._keep(key, self._paint_shadowed(card, w, h))

    def rotated(self, card: Mapping[str, Any] | None, w: int, h: int, angle: float) -> pygame.Surface:
        """The card (None = back) turned by ``angle`` degrees, smoothed, cached."""
        key = ("rot", card_key(card) if card is not None else None, w, h, round(angle, 1), self.colour_blind)
        hit = self._cache.get(key)
        return hit if hit is not None else self._keep(key, self._convert(
            pygame.transform.rotozoom(self.surface(card, w, h), angle, 1.0)))

    def shadow(self, w: int, h: int) -> pygame.Surface:
        """A soft dark shadow the size of a card plus its blur margin."""
        hit = self._cache.get(("shadow", w, h))
        return hit if hit is not None else self._keep(("shadow", w, h), self._paint_shadow(w, h))

    def outline(self, w: int, h: int, colour: Colour, thickness: int) -> pygame.Surface:
        """A glowing rounded outline around a card (selection / clickable / turn)."""
        key = ("outline", w, h, colour, thickness)
        hit = self._cache.get(key)
        return hit if hit is not None else self._keep(key, self._paint_outline(w, h, colour, thickness))

    def slot_outline(self, w: int, h: int) -> pygame.Surface:
        """The faint place-holder of an empty place on the felt."""
        hit = self._cache.get(("slot", w, h))
        return hit if hit is not None else self._keep(("slot", w, h), self._paint_slot_outline(w, h))

    def cached(self, key: tuple, size: tuple[int, int], draw) -> pygame.Surface:
        """A game's own cached drawing (a marker token...): the surface for ``key``,
        ``draw(surface)`` painting it at twice ``size`` the first time."""
        return self._get(key, size, draw)

    # -- drawing ----------------------------------------------------------------------
    def _keep(self, key: tuple, made: Any) -> Any:
        """Cache what was just made for ``key`` and return it (every public method looks
        its key up first: a frame's calls only find, they make nothing, not even a
        closure)."""
        self._cache[key] = made
        return made

    def _get(self, key: tuple, size: tuple[int, int], draw) -> pygame.Surface:
        """Cached surface for ``key``; ``draw(surface)`` paints it at twice ``size``."""
        hit = self._cache.get(key)
        return hit if hit is not None else self._keep(key, self._paint_scaled(size, draw))

    def _paint_scaled(self, size: tuple[int, int], draw) -> pygame.Surface:
        w, h = size
        big = pygame.Surface((w * 2, h * 2), pygame.SRCALPHA)
        draw(big)
        return self._convert(pygame.transform.smoothscale(big, (w, h)))

    def _paint_shadowed(self, card: Mapping[str, Any] | None, w: int, h: int) -> tuple[pygame.Surface, int]:
        sh = self.shadow(w, h)
        m = (sh.get_width() - w) // 2
        surf = pygame.Surface((w + 2 * m + 3, h + 2 * m + 5), pygame.SRCALPHA)
        surf.blit(sh, (3, 5))
        surf.blit(self.surface(card, w, h), (m, m))
        return (self._convert(surf), m)

    def _paint_shadow(self, w: int, h: int) -> pygame.Surface:
        m = max(2, w // 12)
        surf = pygame.Surface((w + 2 * m, h + 2 * m), pygame.SRCALPHA)
        for i in range(m, 0, -1):
            a = int(60 * (1 - i / (m + 1)) ** 2) + 4
            r = pygame.Rect(m - i, m - i, w + 2 * i, h + 2 * i)
            _rounded(surf, r, (0, 0, 0, a), max(4, w // 10) + i)
        return self._convert(surf)

    def _paint_outline(self, w: int, h: int, colour: Colour, thickness: int) -> pygame.Surface:
        t = max(2, thickness)
        surf = pygame.Surface((w + 4 * t, h + 4 * t), pygame.SRCALPHA)
        for i in range(2 * t, 0, -1):
            a = int(220 * (1 - i / (2 * t + 1)))
            r = pygame.Rect(2 * t - i, 2 * t - i, w + 2 * i, h + 2 * i)
            _rounded(surf, r, (*colour, a), max(4, w // 10) + i, width=2)
        _rounded(surf, pygame.Rect(2 * t - 1, 2 * t - 1, w + 2, h + 2), (*colour, 255),
                 max(4, w // 10), width=max(2, t // 2))
        return self._convert(surf)

    def _paint_slot_outline(self, w: int, h: int) -> pygame.Surface:
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        _rounded(surf, surf.get_rect(), (0, 0, 0, 40), max(4, w // 10))
        _rounded(surf, surf.get_rect(), (255, 255, 255, 60), max(4, w // 10), width=2)
        return self._convert(surf)

    @staticmethod
    def _convert(surf: pygame.Surface) -> pygame.Surface:
        if pygame.display.get_init() and pygame.display.get_surface() is not None:
            return surf.convert_alpha()
        return surf

    def frame(self, s: pygame.Surface, fill: Colour) -> tuple[pygame.Rect, int]:
        """A card's dark edge and ``fill`` inside; returns (the card rect, corner radius)."""
        w, h = s.get_size()
        radius = max(6, w // 11)
        r = s.get_rect()
        _rounded(s, r, (30, 22, 18), radius)
        _rounded(s, r.inflate(-max(2, w // 70) * 2, -max(2, w // 70) * 2), fill, radius - 2)
        return r, radius

    def _draw_back(self, s: pygame.Surface) -> None:
        w, h = s.get_size()
        r, radius = self.frame(s, BACK_RED)
        inner = r.inflate(-int(w * 0.14), -int(w * 0.14))
        # diamond lattice clipped to the inner panel
        lattice = pygame.Surface(s.get_size(), pygame.SRCALPHA)
        step = max(8, w // 7)
        for k in range(-h, w + h, step):
            pygame.draw.line(lattice, (*BACK_DARK, 255), (k, 0), (k + h, h), max(2, w // 90))
            pygame.draw.line(lattice, (*BACK_DARK, 255), (k + h, 0), (k, h), max(2, w // 90))
        mask = pygame.Surface(s.get_size(), pygame.SRCALPHA)
        _rounded(mask, inner, (255, 255, 255, 255), radius // 2)
        lattice.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        s.blit(lattice, (0, 0))
        _rounded(s, inner, GOLD, radius // 2, width=max(3, w // 60))
        _rounded(s, inner.inflate(-w // 28, -w // 28), _mix(BACK_RED, GOLD, 0.55), radius // 3, width=max(1, w // 140))
        # medallion with a fedora
        cx, cy = w / 2, h / 2
        rx, ry = w * 0.30, h * 0.17
        med = pygame.Rect(0, 0, int(2 * rx), int(2 * ry))
        med.center = (int(cx), int(cy))
        pygame.draw.ellipse(s, (52, 8, 14), med)
        pygame.draw.ellipse(s, GOLD, med, max(3, w // 50))
        brim = pygame.Rect(0, 0, int(rx * 1.35), int(ry * 0.38))
        brim.center = (int(cx), int(cy + ry * 0.30))
        pygame.draw.ellipse(s, GOLD, brim)
        crown = pygame.Rect(0, 0, int(rx * 0.78), int(ry * 0.80))
        crown.midbottom = (int(cx), int(cy + ry * 0.36))
        _rounded(s, crown, GOLD, int(rx * 0.25))
        pygame.draw.line(s, (52, 8, 14), (crown.left + 2, crown.bottom - crown.height // 3),
                         (crown.right - 2, crown.bottom - crown.height // 3), max(3, w // 40))
        pygame.draw.line(s, (52, 8, 14), (cx, crown.top + crown.height * 0.12),
                         (cx, crown.top + crown.height * 0.45), max(2, w // 60))
        # corner flourishes
        for fx, fy in ((inner.left, inner.top), (inner.right, inner.top),
                       (inner.left, inner.bottom), (inner.right, inner.bottom)):
            pygame.draw.circle(s, GOLD, (fx, fy), max(3, w // 22))
            pygame.draw.circle(s, BACK_RED, (fx, fy), max(2, w // 34))

    def _draw_face(self, s: pygame.Surface, card: Mapping[str, Any]) -> None:
        _painter(card)[1](self, s, card)


def _paint_plain(art: CardArt, s: pygame.Surface, card: Mapping[str, Any]) -> None:
    """The face of a card no game painter claims: its value large, its kind above."""
    w, h = s.get_size()
    art.frame(s, PAPER)
    value = card.get("value")
    big = text.font(int(h * 0.40), True).render("?" if value is None else str(value), True, INK)
    blit_center(s, big, (w / 2, h * 0.55))
    kind = str(card.get("kind") or "")
    if kind:
        size = text.fit_size(kind, int(w * 0.8), int(h * 0.09), bold=True)
        blit_center(s, text.font(size, True).render(kind, True, INK), (w / 2, h * 0.18))
