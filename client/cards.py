"""Card art drawn by code: backs, bottle and character faces, marker tokens, shadows.

An Omerta card is the wire dict ``{"kind": "bottle"|"character", "name", "value",
"points"}``; a Famiglia card ``{"id", "code", "family", "value", "vp"}`` (family
``"famiglia"|"accountant"|"brute"|"mercenary"``). Every surface is drawn once per ``(card, width, height, options)`` at twice the size and
smooth-scaled down (cheap anti-aliasing), converted once, then cached: a frame only
blits. Sizes are pixels.

Bottles show their value huge in the middle (it is what a snap is about); characters
show their name, an emblem and their points. Famiglia cards show their family's
colour and emblem, the value large (and again in the top-left corner, which stays
visible when cards overlap) and their victory points in the bottom-left corner.
``colour_blind`` switches to the Okabe-Ito palette and adds a value strip of pips (Omerta)
or the family's letter (Famiglia), so nothing depends on hue alone.
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import pygame

from client import text
from client.i18n import tr

Colour = tuple[int, int, int]

PAPER = (246, 239, 222)
INK = (38, 28, 24)
GOLD = (214, 175, 84)
BACK_RED = (124, 22, 34)
BACK_DARK = (86, 12, 22)

#: Bottle colours by value 1..10 (glass colours: ambers, greens, wine, blues).
BOTTLE_COLOURS: tuple[Colour, ...] = (
    (196, 132, 48), (120, 150, 52), (60, 120, 80), (40, 110, 130), (52, 82, 150),
    (96, 64, 150), (150, 52, 110), (170, 40, 50), (120, 70, 40), (70, 70, 80),
)
#: Okabe-Ito (colour-blind safe) palette, cycled over values.
OKABE_ITO: tuple[Colour, ...] = (
    (230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (0, 114, 178),
    (213, 94, 0), (204, 121, 167), (0, 0, 0), (150, 150, 150), (120, 60, 20),
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


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    """Colour ``t`` of the way from ``a`` to ``b`` (drawing with alpha on an alpha
    surface replaces pixels instead of blending, so tints are mixed by hand)."""
    return tuple(int(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def card_key(card: Mapping[str, Any]) -> str:
    """Short identity of a card face: ``"7"``, ``"henchman"`` or (Famiglia) ``"fam:B3"``."""
    if "family" in card:
        return f"fam:{FAMILY_LETTERS.get(str(card.get('family')), '?')}{card.get('value')}"
    return str(card.get("value")) if card.get("kind") == "bottle" else str(card.get("name"))


def family_name(family: str) -> str:
    """The player-facing (translated) name of a Famiglia family, singular."""
    return tr(f"family.{family}")


def family_colour(family: str, colour_blind: bool = False) -> Colour:
    """A Famiglia family's colour (the colour-blind-safe one when asked)."""
    table = FAMILY_COLOURS_CB if colour_blind else FAMILY_COLOURS
    return table.get(family, (90, 90, 90))


def character_name(name: str) -> str:
    """The player-facing (translated) name of a character."""
    return tr(f"char.{name}")


def _rounded(surf: pygame.Surface, rect: pygame.Rect, colour, radius: int, width: int = 0) -> None:
    pygame.draw.rect(surf, colour, rect, width, border_radius=radius)


def _star(centre: tuple[float, float], rad: float, tips: int, inner: float) -> list[tuple[float, float]]:
    """The points of a star with ``tips`` tips, the first straight up: ``rad`` px to a
    tip, ``inner`` of that to the notches between them."""
    cx, cy = centre
    pts = []
    for i in range(2 * tips):
        a = math.radians(-90 + i * 180 / tips)
        rr = rad if i % 2 == 0 else rad * inner
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def _blit_center(dst: pygame.Surface, src: pygame.Surface, center: tuple[float, float]) -> None:
    dst.blit(src, src.get_rect(center=(int(center[0]), int(center[1]))))


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

    def token(self, kind: str, d: int) -> pygame.Surface:
        """A round marker token of diameter ``d`` px: ``"mamma"`` or ``"police_patrol"``."""
        return self._get(("token", kind, d), (d, d), lambda s: self._draw_token(s, kind))

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

    def _frame(self, s: pygame.Surface, fill: Colour) -> tuple[pygame.Rect, int]:
        w, h = s.get_size()
        radius = max(6, w // 11)
        r = s.get_rect()
        _rounded(s, r, (30, 22, 18), radius)
        _rounded(s, r.inflate(-max(2, w // 70) * 2, -max(2, w // 70) * 2), fill, radius - 2)
        return r, radius

    def _draw_back(self, s: pygame.Surface) -> None:
        w, h = s.get_size()
        r, radius = self._frame(s, BACK_RED)
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

    def _bottle_colour(self, value: int) -> Colour:
        palette = OKABE_ITO if self.colour_blind else BOTTLE_COLOURS
        return palette[(value - 1) % len(palette)]

    def _draw_face(self, s: pygame.Surface, card: Mapping[str, Any]) -> None:
        if "family" in card:
            self._draw_famiglia(s, str(card.get("family")), int(card.get("value", 0)), int(card.get("vp", 0)))
        elif card.get("kind") == "bottle":
            self._draw_bottle(s, int(card.get("value", 0)))
        else:
            self._draw_character(s, str(card.get("name")), int(card.get("points", 0)))

    def _draw_bottle(self, s: pygame.Surface, value: int) -> None:
        w, h = s.get_size()
        col = self._bottle_colour(value)
        r, radius = self._frame(s, PAPER)
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
        idx = text.font(int(h * 0.13), True).render(str(value), True, col if not self.colour_blind else INK)
        s.blit(idx, (int(w * 0.09), int(h * 0.035)))
        s.blit(pygame.transform.rotate(idx, 180),
               (w - idx.get_width() - int(w * 0.09), h - idx.get_height() - int(h * 0.035)))
        if self.colour_blind:  # pips: value without colour
            pr = max(3, w // 40)
            for i in range(value):
                px = w * 0.86
                py = h * 0.20 + i * (h * 0.60 / 10)
                pygame.draw.circle(s, INK, (int(px), int(py)), pr)

    def _draw_character(self, s: pygame.Surface, name: str, points: int) -> None:
        w, h = s.get_size()
        palette_i = list(CHARACTER_COLOURS).index(name) if name in CHARACTER_COLOURS else 0
        col = OKABE_ITO[palette_i % len(OKABE_ITO)] if self.colour_blind else CHARACTER_COLOURS.get(name, (90, 90, 90))
        r, radius = self._frame(s, PAPER)
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
        rad = int(w * 0.14)
        centre = (int(w * 0.5), int(h * 0.86))
        pygame.draw.circle(s, GOLD, centre, rad)
        pygame.draw.circle(s, INK, centre, rad, max(2, w // 60))
        pts = text.font(int(rad * 1.25), True).render(str(points), True, INK)
        _blit_center(s, pts, centre)

    def _draw_famiglia(self, s: pygame.Surface, family: str, value: int, vp: int) -> None:
        """A Famiglia card: family-coloured header with the value index (top-left, the part
        that shows when cards overlap), the family's name, the value large in the middle
        over the family emblem, and the VP badge in the bottom-left corner."""
        w, h = s.get_size()
        col = family_colour(family, self.colour_blind)
        light = sum(col) > 480  # yellow: dark ink on it
        fg = INK if light else (255, 255, 255)
        r, radius = self._frame(s, PAPER)
        head = pygame.Rect(int(w * 0.06), int(w * 0.06), int(w * 0.88), int(h * 0.21))
        _rounded(s, head, col, radius // 2)
        idx = text.font(int(h * 0.19), True).render(str(value), True, fg)
        s.blit(idx, idx.get_rect(midleft=(int(head.x + w * 0.05), head.centery)))
        label = family_name(family)
        if self.colour_blind:
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
        if self.colour_blind:  # the family letter again, bottom-right
            let = text.font(int(h * 0.13), True).render(FAMILY_LETTERS.get(family, "?"), True, INK)
            s.blit(let, let.get_rect(bottomright=(int(w * 0.91), int(h * 0.95))))

    def _draw_token(self, s: pygame.Surface, kind: str) -> None:
        d = s.get_width()
        c = d // 2
        col = CHARACTER_COLOURS.get(kind, (90, 90, 90))
        pygame.draw.circle(s, (20, 12, 10), (c, c), c)
        pygame.draw.circle(s, GOLD, (c, c), c - max(2, d // 30))
        pygame.draw.circle(s, col, (c, c), int(c * 0.84))
        box = pygame.Rect(0, 0, int(d * 0.56), int(d * 0.56))
        box.center = (c, c)
        _emblem(s, kind, box, (255, 255, 255), light=True)


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
