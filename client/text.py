"""Fonts and a cache of rendered text surfaces for the card table.

The table uses the Noto Sans fonts shipped with pygame_gui (so accents render the same
on every machine, and the menus and the table share one typeface). Sizes are pixel
heights passed to ``pygame.font.Font``. Rendering text is slow compared with blitting
it, so every ``(text, size, colour, bold)`` is rendered once and kept (bounded cache).
"""
from __future__ import annotations

import os
from collections import OrderedDict
from functools import lru_cache

import pygame
import pygame_gui

_DATA = os.path.join(os.path.dirname(pygame_gui.__file__), "data")
REGULAR = os.path.join(_DATA, "NotoSans-Regular.ttf")
BOLD = os.path.join(_DATA, "NotoSans-Bold.ttf")

Colour = tuple[int, int, int]


class SizedFont:
    """One pixel size of a shared font face: the ``pygame.font.Font`` calls the table
    makes (:meth:`render`, :meth:`size`, :meth:`get_linesize`), each drawn at ``px``.

    Every open ``pygame.font.Font`` holds its own copy of the face's tables (about 0.5 MB
    for NotoSans), and a screen uses a few dozen sizes: one face per file, resized
    (``point_size``) before each call, keeps a single copy. The glyphs are the same
    pixels as a font opened at that size."""

    __slots__ = ("face", "px")

    def __init__(self, face: pygame.font.Font, px: int):
        self.face = face
        self.px = px

    def _sized(self) -> pygame.font.Font:
        if self.face.point_size != self.px:  # a resize drops the face's glyph cache: only when it changes
            self.face.point_size = self.px
        return self.face

    def render(self, text: str, antialias: bool, color: object, bgcolor: object = None) -> pygame.Surface:
        return self._sized().render(text, antialias, color, bgcolor)  # type: ignore[arg-type]

    def size(self, text: str) -> tuple[int, int]:
        return self._sized().size(text)

    def get_linesize(self) -> int:
        return self._sized().get_linesize()


#: bold -> (the face, its px per requested px): pygame's default font draws smaller.
_faces: dict[bool, tuple[pygame.font.Font, float]] = {}


def _face(bold: bool) -> tuple[pygame.font.Font, float]:
    got = _faces.get(bold)
    if got is None:
        try:
            got = (pygame.font.Font(BOLD if bold else REGULAR, 16), 1.0)
        except (OSError, FileNotFoundError):  # pragma: no cover - pygame_gui always ships it
            got = (pygame.font.Font(None, 16), 1.3)
        _faces[bold] = got
    return got


@lru_cache(maxsize=512)
def font(size: int, bold: bool = False) -> SizedFont:
    """The table font at ``size`` px (at least 6), bold or regular. Cheap: a size of the
    one shared face (:class:`SizedFont`)."""
    face, scale = _face(bold)
    return SizedFont(face, max(6, int(size * scale)) if scale != 1.0 else max(6, int(size)))


_cache: "OrderedDict[tuple, pygame.Surface]" = OrderedDict()
_CACHE_MAX = 1024
#: ... and at most this many bytes of pixels: a match's narration is hundreds of wide
#: lines, each rendered once, and a count alone let the cache hold 50 MB of them.
_CACHE_MAX_BYTES = 12 * 2**20
_cache_bytes = 0


def _bytes(surf: pygame.Surface) -> int:
    return surf.get_width() * surf.get_height() * surf.get_bytesize()


def render(text: str, size: int, colour: Colour = (240, 235, 220), bold: bool = False,
           shadow: bool = False) -> pygame.Surface:
    """``text`` rendered anti-aliased (alpha surface), cached. ``shadow`` adds a soft
    dark drop shadow under the glyphs so text reads on any background."""
    key = (text, int(size), tuple(colour), bold, shadow)
    surf = _cache.get(key)
    if surf is not None:
        _cache.move_to_end(key)
        return surf
    f = font(size, bold)
    fg = f.render(text, True, colour)
    if shadow:
        off = max(1, int(size) // 14)
        sh = f.render(text, True, (0, 0, 0))
        sh.set_alpha(170)
        surf = pygame.Surface((fg.get_width() + off, fg.get_height() + off), pygame.SRCALPHA)
        surf.blit(sh, (off, off))
        surf.blit(fg, (0, 0))
    else:
        surf = fg
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        surf = surf.convert_alpha()
    global _cache_bytes
    _cache[key] = surf
    _cache_bytes += _bytes(surf)
    while len(_cache) > 1 and (len(_cache) > _CACHE_MAX or _cache_bytes > _CACHE_MAX_BYTES):
        _cache_bytes -= _bytes(_cache.popitem(last=False)[1])
    return surf


@lru_cache(maxsize=2048)
def fit_size(text: str, max_width: int, size: int, bold: bool = False, min_size: int = 8) -> int:
    """The largest size <= ``size`` at which ``text`` is at most ``max_width`` px wide
    (remembered: the fonts never change, and tables ask again every frame)."""
    top = int(size)
    width = font(top, bold).size(text)[0]
    if width <= max_width or top <= min_size:
        return top
    # text width grows about in proportion to the size: start from that estimate rather
    # than opening a font at every size on the way down, then settle on the exact one
    size = max(min_size, min(top - 1, int(top * max_width / max(1, width))))
    while size > min_size and font(size, bold).size(text)[0] > max_width:
        size -= 1
    while size + 1 < top and font(size + 1, bold).size(text)[0] <= max_width:
        size += 1
    return size


def elide(text: str, max_width: int, size: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it is at most ``max_width`` px wide."""
    f = font(size, bold)
    if f.size(text)[0] <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.size(text[:mid] + "…")[0] <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def wrap(text: str, max_width: int, size: int, bold: bool = False) -> list[str]:
    """``text`` broken into lines (at spaces) no wider than ``max_width`` px."""
    f = font(size, bold)
    lines: list[str] = []
    for word in text.split(" "):
        if lines and f.size(lines[-1] + " " + word)[0] <= max_width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


_epoch = [0]


def cache_epoch() -> int:
    """Bumped by :func:`clear`: caches built from rendered text compare it."""
    return _epoch[0]


def clear() -> None:
    """Forget every rendered text (after a language change, or when the screens are
    cleared down to a new one: :meth:`client.app.App.reset`)."""
    global _cache_bytes
    _cache.clear()
    _cache_bytes = 0
    _epoch[0] += 1
