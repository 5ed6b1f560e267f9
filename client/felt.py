"""The table cloth: green felt with light falloff and grain, framed by a wooden rail.

:func:`table_surface` paints a full-window background once per size (cached): a radial
light (drawn small and smooth-scaled), a tiled grain texture, a vignette and the wooden
rail. Frames just blit it. Sizes are pixels.
"""
from __future__ import annotations

import random
from functools import lru_cache

import pygame

FELT_LIGHT = (38, 120, 72)
FELT_DARK = (10, 48, 30)
WOOD_LIGHT = (128, 78, 40)
WOOD_DARK = (62, 34, 16)


def _radial(size: tuple[int, int], inner, outer, small: int = 96) -> pygame.Surface:
    w, h = size
    sw, sh = small, max(8, int(small * h / max(1, w)))
    s = pygame.Surface((sw, sh))
    s.fill(outer)
    steps = 24
    for i in range(steps, 0, -1):
        f = i / steps
        col = tuple(int(o + (n - o) * (1 - f) ** 1.4) for n, o in zip(inner, outer))
        r = pygame.Rect(0, 0, int(sw * 1.25 * f), int(sh * 1.35 * f))
        r.center = (sw // 2, int(sh * 0.46))
        pygame.draw.ellipse(s, col, r)
    return pygame.transform.smoothscale(s, (w, h))


@lru_cache(maxsize=1)
def _grain() -> pygame.Surface:
    rng = random.Random(7)
    g = pygame.Surface((128, 128), pygame.SRCALPHA)
    for y in range(128):
        for x in range(128):
            v = rng.randint(0, 255)
            g.set_at((x, y), (v, v, v, 14))
    return g


@lru_cache(maxsize=4)
def table_surface(w: int, h: int) -> pygame.Surface:
    """The background of the card table for a ``w`` x ``h`` px window."""
    s = _radial((w, h), FELT_LIGHT, FELT_DARK)
    grain = _grain()
    for y in range(0, h, 128):
        for x in range(0, w, 128):
            s.blit(grain, (x, y))
    rail = max(6, int(min(w, h) * 0.012))
    for i in range(rail):
        f = i / rail
        col = tuple(int(d + (light - d) * (1 - abs(f - 0.4) * 1.6)) for light, d in zip(WOOD_LIGHT, WOOD_DARK))
        pygame.draw.rect(s, col, pygame.Rect(i, i, w - 2 * i, h - 2 * i), 1, border_radius=rail * 2)
    pygame.draw.rect(s, (20, 10, 4), pygame.Rect(rail, rail, w - 2 * rail, h - 2 * rail), 2,
                     border_radius=rail * 2)
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        s = s.convert()
    return s


@lru_cache(maxsize=4)
def menu_surface(w: int, h: int) -> pygame.Surface:
    """A darker felt for menus (the same cloth, lights dimmed)."""
    s = _radial((w, h), (30, 84, 56), (6, 22, 14))
    grain = _grain()
    for y in range(0, h, 128):
        for x in range(0, w, 128):
            s.blit(grain, (x, y))
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        s = s.convert()
    return s
