"""A table's action buttons and its Rules button.

The action buttons are stacked at the bottom of the layout's ``actions`` column, one per
``controls.button_specs(scene)`` tuple; the game's scene makes each one
(``_button(spec, rect)``), says what of the specs changes them (``_buttons_key``) and
may give each a fixed row (``_button_rows``) and a width (``_button_width``). The Rules
button sits at the right end of the top bar and stays while the action buttons change.
"""
from __future__ import annotations

from typing import Any

import pygame

from client.i18n import tr
from client.ui.scene import Scene


class ActionButtons:
    """The buttons of ``scene`` (a :class:`client.table.base.TableScene`): :attr:`buttons`
    by id, the widgets that stay (:attr:`fixed_ui`: the Rules button)."""

    def __init__(self, scene: Any):
        self.scene = scene
        self.buttons: dict[str, Any] = {}
        self.fixed_ui: list[Any] = []
        self.rules_button: Any = None
        self.hint_button: Any = None
        self._sig: tuple | None = None  # what the buttons on screen were made for

    def invalidate(self) -> None:
        """The next :meth:`build` remakes the buttons, whatever they offer."""
        self._sig = None

    def build(self) -> None:
        """The action buttons, stacked at the bottom of the layout's ``actions`` column;
        remade only when what they offer (or the window size) changes. None while the
        table's connection is being re-opened."""
        sc = self.scene
        app = sc.app
        specs = [] if sc.reconnecting is not None else sc.controls.button_specs(sc)
        sig = (sc._buttons_key(specs), app.size)
        if sig == self._sig:
            return
        self._sig = sig
        Scene.clear_ui(sc)  # the action buttons only (the Rules button stays)
        self.buttons.clear()
        box = sc.layout.actions
        n = max(1, len(specs))
        gap = max(4, int(box.h * 0.03))
        bh = min(int(44 * app.ui_scale), (box.h - gap * (n - 1)) // n)
        bw = sc._button_width(box)
        y = box.bottom - n * bh - (n - 1) * gap
        rows = sc._button_rows(specs)
        if rows is None:
            for spec in specs:
                self.buttons[spec[0]] = sc._button(spec, pygame.Rect(box.centerx - bw // 2, y, bw, bh))
                y += bh + gap
        else:  # fixed places, counted from the bottom of the column
            n = max(rows) + 1 if rows else 1
            bh = min(int(44 * app.ui_scale), (box.h - gap * (n - 1)) // n)
            for spec, row in zip(specs, rows):
                yy = box.bottom - (row + 1) * bh - row * gap
                self.buttons[spec[0]] = sc._button(spec, pygame.Rect(box.centerx - bw // 2, yy, bw, bh))
        if not self.fixed_ui:
            self._add_rules_button()
        if self.hint_button is None and self.rules_button is not None and sc.hint.allowed():
            self._add_hint_button()

    def rules_rect(self) -> pygame.Rect | None:
        """Where the Rules button sits: the right end of the top bar (None: no button,
        a replay or a layout without a top bar)."""
        sc = self.scene
        bar = getattr(sc.layout, "top_bar", None)
        if sc.replay or not isinstance(bar, pygame.Rect):
            return None
        s = sc.app.ui_scale
        h = max(16, bar.h - max(4, bar.h // 6))
        w = int(124 * s)
        return pygame.Rect(bar.right - w - max(4, bar.h // 6), bar.centery - h // 2, w, h)

    def hint_rect(self) -> pygame.Rect | None:
        """Where the Hint button sits: left of the Rules button (None: no Rules button)."""
        r = self.rules_rect()
        if r is None:
            return None
        return r.move(-(r.w + max(4, r.h // 4)), 0)

    def hint_right(self, bar: pygame.Rect) -> int:
        """The right end (x px) of the top bar's key help: left of the Rules button, and
        of the Hint button when there is one."""
        r = self.hint_rect() if self.hint_button is not None else self.rules_rect()
        return int(r.left - bar.h * 0.4) if r is not None else int(bar.right - bar.h * 0.6)

    def _add_rules_button(self) -> None:
        from client.ui.widgets import button, call, fitted

        sc = self.scene
        r = self.rules_rect()
        if r is None:
            return
        label, cls = fitted(tr("help.table_button"), r.w, sc.app.ui_scale)
        b = button(sc, r, label, raw=True, class_id=cls or "@compact", command=call(sc.keys.open_help))
        sc.ui.remove(b)  # not an action button: kept in ``fixed_ui``
        self.fixed_ui.append(b)
        self.rules_button = b

    def _add_hint_button(self) -> None:
        """The Hint button (F2), at a table whose host allows hints."""
        from client.ui.widgets import button, call, fitted

        sc = self.scene
        r = self.hint_rect()
        if r is None:
            return
        label, cls = fitted(tr("hint.button"), r.w, sc.app.ui_scale)
        b = button(sc, r, label, raw=True, class_id=cls or "@compact", command=call(sc.hint.ask))
        sc.ui.remove(b)
        self.fixed_ui.append(b)
        self.hint_button = b

    def clear_fixed(self) -> None:
        """The Rules and Hint buttons go too (the scene's widgets are being cleared)."""
        for element in self.fixed_ui:
            element.kill()
        self.fixed_ui = []
        self.rules_button = None
        self.hint_button = None
