"""The history of a table, to scroll: the message column scrolls back with the mouse wheel
over it (and Page Up / Page Down), and **M** (or a click on the column) opens the full
history view -- every row of the match so far under its round and turn headers, in a
tall panel over the left of the table, above the column. The view scrolls with the
wheel, Page Up / Page Down, Home / End and its pygame_gui scroll bar; M or Esc closes it.
The table stays live under it: a seated player can still snap.

Only the rows in view are laid out and painted. A pygame_gui text box lays out all of
its text, which takes seconds for the few thousand rows of a long match, so here the
cost of opening and scrolling does not depend on the match's length. :meth:`draw` only
draws; the scroll position changes on input and in :meth:`HistoryView.update`.
"""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from client import text
from client.i18n import tr
from client.table.draw import wrapped
from client.table.history import HEADER

#: The key that opens and closes the full history view.
KEY = pygame.K_m
#: Rows one notch of the mouse wheel scrolls.
WHEEL_ROWS = 3
CREAM = (243, 232, 207)
DIM = (190, 178, 156)
EDGE = (150, 120, 70)


class HistoryView:
    """The scrolling of ``scene``'s history (a :class:`client.table.base.TableScene`):
    its message column (``scene.column``) and the full view.

    ``top``: the first row shown by the full view, None while it follows the newest."""

    def __init__(self, scene: Any):
        self.scene = scene
        self.open = False
        self.top: int | None = None
        self.bar: Any = None  # the pygame_gui scroll bar while the view is open
        self._bar_set = 0.0  # the bar's start as this view last set it

    # -- geometry (window px; a replay's table is drawn at the window's top left) -------
    def column_rect(self) -> pygame.Rect:
        """Where the message column writes (px): below the emote bar when the bar sits
        at the column's top."""
        return self.scene.emotes.message_box(self.scene.layout.info)

    def rect(self) -> pygame.Rect:
        """The full view's panel: from below the top bar down to just above the message
        column and its emote bar, as wide as a third of the table (at least the column)."""
        w, h = self.scene.table_size
        top_bar = getattr(self.scene.layout, "top_bar", None)
        top = (top_bar.bottom if isinstance(top_bar, pygame.Rect) else int(h * 0.05)) + max(4, h // 90)
        column = self.column_rect()
        gap = max(4, h // 120)
        bar = self.scene.emotes.bar_rect()
        bottom = min(column.top, bar.top if bar is not None else column.top) - gap
        width = max(int(w * 0.36), column.w)
        return pygame.Rect(column.left, top, min(width, w - column.left - gap), max(h // 4, bottom - top))

    def font_size(self) -> int:
        return max(12, int(self.scene.table_size[1] * 0.021))

    def _keys_lines(self) -> tuple[str, ...]:
        """The view's key help under its title, wrapped to the panel's width."""
        r = self.rect()
        return wrapped(tr("history.keys"), r.w - 2 * max(6, self.font_size() // 2), self._keys_size())

    def _keys_size(self) -> int:
        return max(11, int(self.font_size() * 0.8))

    def _title_h(self) -> int:
        """The height (px) of the title and the key help under it."""
        size = self.font_size()
        keys = len(self._keys_lines()) * text.font(self._keys_size()).get_linesize()
        return text.font(int(size * 1.05), True).get_linesize() + keys + max(6, size // 2)

    def _bar_w(self) -> int:
        return max(14, int(self.font_size() * 1.1))

    def body(self) -> pygame.Rect:
        """Where the rows are drawn: the panel less its title, padding and scroll bar."""
        r = self.rect()
        pad = max(4, self.font_size() // 2)
        return pygame.Rect(r.x + pad, r.y + self._title_h(), r.w - 2 * pad - self._bar_w(),
                           r.h - self._title_h() - pad)

    # -- opening --------------------------------------------------------------------------
    def toggle(self) -> None:
        if self.open:
            self.hide()
        else:
            self.show()

    def show(self) -> None:
        """Open the full view on the newest rows."""
        self.open = True
        self.top = None
        self.build()
        self.scene.app.display.invalidate()

    def hide(self) -> None:
        self.open = False
        self.drop_widgets()
        self.scene.app.display.invalidate()

    def build(self) -> None:
        """The scroll bar of an open view (again after a resize or a language switch)."""
        self.drop_widgets()
        manager = self.scene.app.manager
        if not self.open or manager is None:
            return
        r, body = self.rect(), self.body()
        rect = pygame.Rect(r.right - self._bar_w() - 2, body.top, self._bar_w(), body.h)
        self.bar = pygame_gui.elements.UIVerticalScrollBar(rect, 1.0, manager)
        self._sync_bar()

    def drop_widgets(self) -> None:
        if self.bar is not None:
            self.bar.kill()
            self.bar = None

    # -- input ----------------------------------------------------------------------------
    def key(self, key: int) -> bool:
        """A key press: True when it was the view's (M; while open also Esc, Page Up,
        Page Down, Home, End). Without the full view Page Up / Page Down scroll the
        column (:meth:`column_key`; not in a replay, where they seek)."""
        if key == KEY and not self._bound(key):
            self.toggle()
            return True
        if not self.open:
            return False
        if key == pygame.K_ESCAPE:
            self.hide()
        elif key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            page = max(1, self._fitting(self._first()) - 1)
            self.scroll(-page if key == pygame.K_PAGEUP else page)
        elif key == pygame.K_HOME:
            self.top = 0
        elif key == pygame.K_END:
            self.top = None
        else:
            return False
        return True

    def column_key(self, key: int) -> bool:
        """Page Up / Page Down on a table without the full view: the column scrolls."""
        if self.open or key not in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            return False
        self.scene.column.scroll_by(WHEEL_ROWS * (1 if key == pygame.K_PAGEUP else -1))
        return True

    def wheel(self, pos: tuple[int, int] | None, dy: int) -> bool:
        """The mouse wheel (``dy`` > 0: away from you, older rows) at ``pos``: it scrolls
        the full view or the column under the pointer; True when it did."""
        if pos is None or not dy:
            return False
        if self.open and self.rect().collidepoint(pos):
            if self.bar is None or not self.bar.rect.collidepoint(pos):  # the bar scrolls itself
                self.scroll(-dy * WHEEL_ROWS)
            return True
        if self.column_rect().collidepoint(pos):
            self.scene.column.scroll_by(dy * WHEEL_ROWS)
            return True
        return False

    def click(self, pos: tuple[int, int]) -> bool:
        """A left click: on the message column it opens (or closes) the full view."""
        if self.column_rect().collidepoint(pos):
            self.toggle()
            return True
        return False

    def scroll(self, rows: int) -> None:
        """Move the full view ``rows`` rows (> 0: towards the newest)."""
        n = len(self.scene.column.history)
        first = self._first() + rows
        if first >= self._follow_first():
            self.top = None
        else:
            self.top = max(0, min(n - 1, first))

    def update(self) -> None:
        """Follow a drag of the scroll bar, else set the bar from the rows shown."""
        bar = self.bar
        if bar is None:
            return
        if abs(bar.start_percentage - self._bar_set) > 1e-6:
            n = len(self.scene.column.history)
            self.top = int(round(bar.start_percentage * n))
            if self.top >= self._follow_first():
                self.top = None
            self._bar_set = bar.start_percentage
        else:
            self._sync_bar()

    def _sync_bar(self) -> None:
        bar = self.bar
        n = len(self.scene.column.history)
        if bar is None or n == 0:
            return
        first = self._first()
        visible = min(1.0, max(0.05, self._fitting(first) / n))
        if abs(bar.visible_percentage - visible) > 1e-6:
            bar.set_visible_percentage(visible)
        start = min(first / n, 1.0 - visible)
        if abs(bar.start_percentage - start) > 1e-6:
            bar.set_scroll_from_start_percentage(start)
        self._bar_set = bar.start_percentage

    def _bound(self, key: int) -> bool:
        """A local player's key binding uses ``key`` (couch play): it is his."""
        return any(key in b.keys() for b in getattr(self.scene, "bindings", {}).values())

    # -- rows -----------------------------------------------------------------------------
    def _row_height(self, k: int, width: int, size: int) -> int:
        """Row ``k``'s height in the view (px): its wrapped lines, a gap, and more room
        above a header."""
        history = self.scene.column.history
        lines = wrapped(history.rows[k][0], width - max(4, size // 2), size)
        gap = max(2, size // 4) + (max(2, size // 3) if history.marks[k].header else 0)
        return len(lines) * text.font(size).get_linesize() + gap

    def _follow_first(self) -> int:
        """The first row shown when the view follows the newest: as many of the last
        rows as fit."""
        rows = self.scene.column.history.rows
        body, size = self.body(), self.font_size()
        room = body.h
        first = len(rows)
        while first > 0:
            h = self._row_height(first - 1, body.w, size)
            if h > room:
                break
            room -= h
            first -= 1
        return first

    def _first(self) -> int:
        """The first row the full view shows (a replay seeking back may have dropped the
        row it was on)."""
        if self.top is None:
            return self._follow_first()
        return max(0, min(self.top, len(self.scene.column.history) - 1))

    def _fitting(self, first: int) -> int:
        """How many rows fit from ``first`` down."""
        rows = self.scene.column.history.rows
        body, size = self.body(), self.font_size()
        room, k = body.h, first
        while k < len(rows):
            room -= self._row_height(k, body.w, size)
            if room < 0:
                break
            k += 1
        return max(1, k - first)

    # -- drawing --------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """The open full view: its panel, title and the rows in view."""
        if not self.open:
            return
        r = self.rect()
        size = self.font_size()
        panel = pygame.Surface(r.size, pygame.SRCALPHA)
        panel.fill((14, 10, 8, 246))
        surface.blit(panel, r.topleft)
        pygame.draw.rect(surface, EDGE, r, 2, border_radius=max(4, size // 2))
        tx, y = r.x + max(6, size // 2), r.y + max(3, size // 4)
        title = text.render(tr("history.title"), int(size * 1.05), HEADER, bold=True)
        surface.blit(title, (tx, y))
        y += text.font(int(size * 1.05), True).get_linesize()
        for line in self._keys_lines():
            surface.blit(text.render(line, self._keys_size(), DIM), (tx, y))
            y += text.font(self._keys_size()).get_linesize()
        body = self.body()
        rows = self.scene.column.history.rows
        marks = self.scene.column.history.marks
        if not rows:
            empty = text.render(tr("history.empty"), size, DIM)
            surface.blit(empty, (body.x, body.y))
            return
        clip = surface.get_clip()
        surface.set_clip(body.clip(clip) if clip else body)
        first = self._first()
        y = body.y
        if self.top is None:  # following the newest: they end at the bottom
            y = body.bottom - sum(self._row_height(k, body.w, size) for k in range(first, len(rows)))
        indent = max(4, size // 2)
        line_h = text.font(size).get_linesize()
        for k in range(first, len(rows)):  # as :meth:`_row_height` measures them
            if y >= body.bottom:
                break
            message, colour, _until = rows[k]
            header = marks[k].header
            if header:
                y += max(2, size // 3)
            for i, line in enumerate(wrapped(message, body.w - indent, size)):
                img = text.render(line, size, colour, bold=header)
                surface.blit(img, (body.x + (indent if i else 0), y))
                y += line_h
            y += max(2, size // 4)
        surface.set_clip(clip)
