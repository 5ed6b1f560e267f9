"""Layout helpers every game table uses: the card ratio, a card's size for a height,
the biggest grid of cards that fits in an area, and the size of the emote bar a layout
leaves room for (pixels; no display needed)."""
from __future__ import annotations

from pygame import Rect

#: Width / height of a card.
CARD_RATIO = 5 / 7


def card_size(height: float) -> tuple[int, int]:
    """(w, h) px of a card ``height`` px tall."""
    h = max(14, int(height))
    return (max(10, int(h * CARD_RATIO)), h)


def grid(n: int, area: Rect, max_h: int, gap_ratio: float = 0.10,
         extra_ratio: float = 0.0) -> tuple[tuple[int, int], int, int]:
    """Biggest card size (w, h) and ``(cols, rows)`` placing ``n`` cards inside ``area``
    with a gap of ``gap_ratio`` card widths, cards at most ``max_h`` px tall; a single
    row also leaves ``extra_ratio`` card widths free (the gap before the hand)."""
    n = max(1, n)
    best = ((0, 0), n, 1)
    for rows in range(1, 4):
        cols = -(-n // rows)
        extra = extra_ratio if rows == 1 else 0.0
        # width constraint: cols*w + (cols-1)*gap*w + extra*w <= area.w
        w_by_width = area.w / (cols + (cols - 1) * gap_ratio + extra + gap_ratio)
        h_by_height = (area.h - (rows - 1) * gap_ratio * w_by_width) / rows
        h = min(max_h, w_by_width / CARD_RATIO, h_by_height)
        size = card_size(h)
        if size[1] > best[0][1]:
            best = (size, cols, rows)
    return best


def emote_bar_size(size: tuple[int, int]) -> tuple[int, int]:
    """(height, gap) px of the emote bar of a seated player's table in a ``size`` =
    (w, h) px window: it goes just above the message column when the layout leaves it
    free (:meth:`client.table.emotes.TableEmotes.bar_rect`)."""
    s = max(0.6, min(size[1] / 720, size[0] / 1280))  # the app's ui_scale
    return max(36, int(52 * s)), max(4, int(8 * s))
