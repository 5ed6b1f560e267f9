"""The host's "Options…" dialog of the lobby (host controls): the table's
options -- the game's own from its ``GameDef``, the turn timer, the bots' kind -- each in
a drop-down, sent with ``set_options``. Its own module so that the lobby and the host
screen both use it without importing each other."""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from client import games
from client.i18n import tr
from client.ui.scene import Scene
from client.ui.widgets import button, choice_menu, dialog, label


OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "rounds": (None, 1, 2, 3, 4, 5, 6, 8, 10),
    "snap_timeout_ms": (None, 1500, 2000, 3000, 5000, 8000),
    "turn_timer_s": (0, 30, 60, 120, 300),
    "bot_kind": ("smart", "random"),
}


def option_keys(game: str) -> list[str]:
    """The options the dialog shows for ``game``: the game's own (``GameDef.options``,
    not the ``--testing`` ones) then the turn timer and the bots' kind."""
    d = games.rules_def(game)
    own = [o.key for o in (d.options if d is not None else ()) if not o.testing and
           (o.key in OPTION_CHOICES or o.kind == "choice")]
    return own + ["turn_timer_s", "bot_kind"]


def option_choices(game: str, key: str) -> tuple[Any, ...]:
    d = games.rules_def(game)
    o = d.option(key) if d is not None else None
    if o is not None and o.kind == "choice":
        return tuple(o.choices)
    return OPTION_CHOICES.get(key, ())


def choice_text(key: str, value: Any) -> str:
    """How an option's value reads in the drop-down ("3 s", "off", "Default")."""
    if value is None:
        return tr("hostctl.opt_rounds_per_player") if key == "rounds" else tr("hostctl.opt_default")
    if key == "snap_timeout_ms":
        v = value / 1000.0
        return tr("hostctl.seconds", n=str(int(v)) if v == int(v) else f"{v:.1f}")
    if key == "turn_timer_s":
        return tr("hostctl.seconds", n=str(value)) if value else tr("hostctl.off")
    if key == "bot_kind":
        return tr(f"hostctl.bot_{value}")
    return str(value)


class OptionsScene(Scene):
    """The host's options dialog over the lobby: one drop-down per option of
    :func:`option_keys`, starting at the table's current values (``Table.options``);
    Apply calls ``apply(options)`` with them (the other options, ``start`` or a fixed
    seed, are not sent: the server keeps them)."""

    overlay = True

    def __init__(self, app: Any, table: dict[str, Any], apply: Any):
        super().__init__(app)
        self.table = table
        self.apply_cb = apply
        self.game = str(table.get("game") or "")
        current = table.get("options") if isinstance(table.get("options"), dict) else {}
        self.values: dict[str, Any] = {}
        for k in option_keys(self.game):
            choices = option_choices(self.game, k)
            v = current.get(k)
            self.values[k] = v if v in choices else (choices[0] if choices else None)
        self.dropdowns: dict[str, Any] = {}

    def build(self, size: tuple[int, int]) -> None:
        s = self.app.ui_scale
        keys = list(self.values)
        rh, gap = int(40 * s), int(10 * s)
        h_frac = min(0.9, ((len(keys) + 2) * (rh + gap) + int(80 * s)) / size[1])
        box = dialog(self, size, 0.46, h_frac)
        x0, x1 = box.x + int(24 * s), box.x + int(box.w * 0.50)
        fw = box.right - int(24 * s) - x1
        y = box.y + int(16 * s)
        label(self, pygame.Rect(box.x, y, box.w, rh), "hostctl.opt_title", object_id="#heading", align="center")
        y += rh + gap
        self.dropdowns = {}
        for k in keys:
            label(self, pygame.Rect(x0, y, x1 - x0, rh), f"hostctl.opt_{k}")
            choices = option_choices(self.game, k)
            opts = [(choice_text(k, c), str(i)) for i, c in enumerate(choices)]
            cur = choices.index(self.values[k]) if self.values[k] in choices else 0
            self.dropdowns[k] = choice_menu(self, opts, opts[cur], pygame.Rect(x1, y, fw, rh))
            y += rh + gap
        bw = (box.w - int(72 * s)) // 2
        by = box.bottom - int(16 * s) - int(46 * s)
        button(self, pygame.Rect(box.x + int(24 * s), by, bw, int(46 * s)), "hostctl.cancel", command=self.app.pop)
        button(self, pygame.Rect(box.right - int(24 * s) - bw, by, bw, int(46 * s)), "hostctl.apply",
               object_id="#primary", command=self.apply)

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            for k, dd in self.dropdowns.items():
                if event.ui_element is dd:
                    choices = option_choices(self.game, k)
                    i = int(getattr(event, "selected_option_id", 0))
                    if 0 <= i < len(choices):
                        self.values[k] = choices[i]
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()

    def options(self) -> dict[str, Any]:
        """The ``set_options.options`` to send: this dialog's values (the server merges
        them into the table's options; ``None`` puts one back to its default)."""
        return dict(self.values)

    def apply(self) -> None:
        opts = self.options()
        self.app.pop()
        self.apply_cb(opts)

    def draw(self, surface: pygame.Surface) -> None:
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((0, 0, 0, 140))
        surface.blit(veil, (0, 0))
