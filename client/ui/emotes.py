"""Emotes: a handful of quick reactions instead of a chat: nothing to moderate,
and nothing to type in the middle of a snap.

A seated player sends one with a key (:data:`client.input.EMOTE_KEYS`, F5-F8) or a click
on the small emote bar of the table (:class:`EmoteBar`); the server checks it (a seated
player, at most 3 in 5 s: ``too_many_emotes``) and pushes ``emote {table, seat, name,
emote, t_server}`` to every seat and spectator (docs/PROTOCOL.md, Lobby). Every client
then shows it as a badge next to the sender's name plate for :data:`SHOW_MS`
(:class:`EmoteBoard`, :func:`draw_badge`).

The emotes are 👏 😂 😱 and "well played". The table font (Noto Sans) has no emoji, so a
glyph the font cannot draw is replaced by a short text in the player's language
("Bravo!", "Haha!", "Whoa!", "Well played!"); :func:`has_glyph` asks the font itself.

Drawing only here, plus the bar's hit test; the table scene owns the state
(:mod:`client.table.base`). Sizes are px, times ms on the scene clock.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any
import pygame

from client import text
from client.i18n import current as current_language, tr

#: The wire names of the emotes (``emote.emote``), in the bar's order.
EMOTES = ("clap", "laugh", "shock", "well_played")
#: Each emote's emoji (None: a text badge only).
GLYPHS: dict[str, str | None] = {"clap": "\U0001F44F", "laugh": "\U0001F602", "shock": "\U0001F631",
                                 "well_played": None}
#: How long a badge stays next to the sender's name (ms).
SHOW_MS = 4000.0
#: The badge pops in over this long and fades out over the last FADE_MS (ms).
POP_MS, FADE_MS = 180.0, 500.0

CREAM = (243, 232, 207)
GOLD = (240, 207, 121)
INK = (30, 20, 16)

#: A code point no font draws (a noncharacter): what "no glyph" looks like in a font.
_MISSING = "\U0010FFFE"


@lru_cache(maxsize=64)
def _has_glyph(path_key: tuple[int, bool], ch: str) -> bool:
    f = text.font(*path_key)
    try:
        img = f.render(ch, True, (255, 255, 255))
        tofu = f.render(_MISSING, True, (255, 255, 255))
    except (pygame.error, UnicodeError, ValueError):
        return False
    if img.get_width() == 0:
        return False
    return img.get_size() != tofu.get_size() or \
        pygame.image.tobytes(img, "RGBA") != pygame.image.tobytes(tofu, "RGBA")


def has_glyph(ch: str, size: int = 24, bold: bool = True) -> bool:
    """True when the table font (:func:`client.text.font`) draws ``ch`` itself, not
    its "missing glyph" box (compared with a code point no font has)."""
    return _has_glyph((int(size), bool(bold)), ch)


def label(emote: str, size: int = 24) -> str:
    """What a badge of ``emote`` shows: its emoji when the font has it, else its text in
    the current language (``emote.<name>``: "Bravo!" / "Bravo !")."""
    glyph = GLYPHS.get(emote)
    if glyph and has_glyph(glyph, size):
        return glyph
    return tr(f"emote.{emote}")


class EmoteBoard:
    """The badges on screen: seat -> (emote, shown since, until) on the scene clock (ms).
    A seat's new emote replaces its badge."""

    def __init__(self) -> None:
        self.shown: dict[int, tuple[str, float, float]] = {}

    def add(self, seat: int, emote: str, now: float) -> None:
        self.shown[seat] = (emote, now, now + SHOW_MS)

    def active(self, now: float) -> dict[int, tuple[str, float]]:
        """``{seat: (emote, age ms)}`` of the badges still up at ``now``; the others go."""
        for seat in [s for s, (_e, _t0, until) in self.shown.items() if until <= now]:
            del self.shown[seat]
        return {s: (e, now - t0) for s, (e, t0, _u) in self.shown.items()}


def badge_rect(label_text: str, plate: pygame.Rect, size: int, bounds: pygame.Rect) -> pygame.Rect:
    """Where the badge of ``label_text`` goes beside the name plate ``plate``: right of
    it, else left of it, else above it; always inside ``bounds``."""
    w, h = text.font(size, True).size(label_text)
    r = pygame.Rect(0, 0, w + h, int(h * 1.25))
    gap = max(3, h // 4)
    r.midleft = (plate.right + gap, plate.centery)
    if r.right > bounds.right:
        r.midright = (plate.left - gap, plate.centery)
    if r.left < bounds.left:
        r.midbottom = (plate.right - plate.h, plate.top - gap)
    r.clamp_ip(bounds)
    return r


def draw_badge(surf: pygame.Surface, emote: str, age_ms: float, plate: pygame.Rect) -> pygame.Rect:
    """The badge of ``emote`` (shown ``age_ms`` ago) beside name plate ``plate``: a
    gold-rimmed bubble that pops in and fades out. Returns its rect."""
    size = max(11, int(plate.h * 0.60))
    shown = label(emote, size)
    r = badge_rect(shown, plate, size, surf.get_rect())
    k = min(1.0, age_ms / POP_MS)
    alpha = 255 if age_ms < SHOW_MS - FADE_MS else max(0, int(255 * (SHOW_MS - age_ms) / FADE_MS))
    bubble = _bubble(shown, r.w, r.h, size)
    if k < 1.0:
        bubble = pygame.transform.smoothscale(bubble, (max(1, int(r.w * (0.6 + 0.4 * k))),
                                                       max(1, int(r.h * (0.6 + 0.4 * k)))))
    bubble.set_alpha(alpha)
    surf.blit(bubble, bubble.get_rect(center=r.center))
    bubble.set_alpha(255)  # (None would drop its per-pixel alpha)
    return r


@lru_cache(maxsize=32)
def _bubble(shown: str, w: int, h: int, size: int) -> pygame.Surface:
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(s, (*INK, 240), s.get_rect(), border_radius=h // 2)
    pygame.draw.rect(s, GOLD, s.get_rect(), max(1, h // 14), border_radius=h // 2)
    img = text.render(shown, size, (255, 226, 140), bold=True)
    s.blit(img, img.get_rect(center=(w // 2, h // 2)))
    return s


class EmoteBar:
    """The row of emote chips a seated player clicks (F5-F8 do the same). ``place``
    lays it out in a rect (px); :meth:`hit` says which chip a point is on."""

    def __init__(self) -> None:
        self.rects: dict[str, pygame.Rect] = {}
        self.size = 12
        #: The chips as last drawn, composed once: (key, top-left px, surface). The bar
        #: is on every frame of a seated player's table; its look changes only with the
        #: hover, its place, its labels and key names.
        self._drawn: tuple[Any, tuple[int, int], pygame.Surface] | None = None
        self._placed: tuple[Any, int] | None = None

    def place(self, area: pygame.Rect, cols: int = 2) -> None:
        """The chips in a grid of ``cols`` columns filling ``area``."""
        if self._placed == (tuple(area), cols):
            return  # asked every frame
        self._placed = (tuple(area), cols)
        rows = (len(EMOTES) + cols - 1) // cols
        gap = max(3, area.h // 16)
        w = (area.w - gap * (cols - 1)) // cols
        h = (area.h - gap * (rows - 1)) // rows
        self.size = max(9, int(h * 0.56))
        self.rects = {e: pygame.Rect(area.x + (i % cols) * (w + gap), area.y + (i // cols) * (h + gap), w, h)
                      for i, e in enumerate(EMOTES)}

    def hit(self, pos: tuple[int, int]) -> str | None:
        return next((e for e, r in self.rects.items() if r.collidepoint(pos)), None)

    def draw(self, surf: pygame.Surface, hover: tuple[int, int] | None, keys: dict[str, str]) -> None:
        """The chips; ``keys`` (emote -> key name) is written small under each label's
        chip when there is room ("F5")."""
        if not self.rects:
            return
        over = self.hit(hover) if hover is not None else None
        key = (tuple(self.rects.values()), over, tuple(keys.items()), self.size, current_language(),
               text.cache_epoch())
        if self._drawn is None or self._drawn[0] != key:
            labels = tuple(label(e, self.size) for e in self.rects)
            box = pygame.Rect(next(iter(self.rects.values()))).unionall(list(self.rects.values()))
            bar = pygame.Surface(box.size, pygame.SRCALPHA)
            self._paint(bar, (-box.x, -box.y), over, labels, keys)
            self._drawn = (key, box.topleft, bar)
        surf.blit(self._drawn[2], self._drawn[1])

    def _paint(self, surf: pygame.Surface, offset: tuple[int, int], over: str | None, labels: tuple[str, ...],
               keys: dict[str, str]) -> None:
        """The chips onto ``surf``, each at its rect moved by ``offset`` (px)."""
        for (e, r0), shown in zip(self.rects.items(), labels):
            r = r0.move(offset)
            bg = (70, 18, 26, 235) if e == over else (22, 16, 14, 215)
            chip = pygame.Surface(r.size, pygame.SRCALPHA)
            pygame.draw.rect(chip, bg, chip.get_rect(), border_radius=r.h // 2)
            pygame.draw.rect(chip, (*(GOLD if e == over else (150, 120, 70)), 255), chip.get_rect(),
                             max(1, r.h // 14), border_radius=r.h // 2)
            surf.blit(chip, r.topleft)
            key = keys.get(e, "")
            line = f"{shown} {key}" if key else shown
            fs = text.fit_size(line, r.w - r.h // 2, self.size, bold=True, min_size=7)
            if text.font(fs, True).size(line)[0] > r.w - r.h // 2 and key:
                line = shown
                fs = text.fit_size(line, r.w - r.h // 2, self.size, bold=True, min_size=7)
            img = text.render(line, fs, CREAM, bold=True)
            surf.blit(img, img.get_rect(center=r.center))
