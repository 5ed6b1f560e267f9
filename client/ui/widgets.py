"""Small helpers to create themed pygame_gui widgets with translated text.

Texts are i18n keys (``"quick_game"`` -> ``"mafia.quick_game"``): pygame_gui translates
them itself, so a language switch re-translates live widgets. ``text_kwargs`` fill
``%{x}`` placeholders. Rects are window pixels.
"""
from __future__ import annotations

from typing import Any, Callable

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from client.i18n import key


def call(fn: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    """A no-argument command for a button (pygame_gui refuses callables whose
    signature has more than one parameter, as ``functools.partial`` objects may)."""
    def command() -> Any:
        return fn(*args)
    return command


def _oid(object_id: str | None, class_id: str | None) -> ObjectID | None:
    if object_id is None and class_id is None:
        return None
    return ObjectID(object_id=object_id, class_id=class_id)


def _room(el: Any) -> int:
    """The px a widget's text may use: its width less border, shadow and text padding."""
    def n(v: Any) -> int:
        return max([int(x) for x in v.values()] or [0]) if isinstance(v, dict) else int(v or 0)

    return el.rect.w - 2 * (n(getattr(el, "border_width", 0)) + n(getattr(el, "shadow_width", 0))
                            + n(getattr(el, "text_horiz_alignment_padding", 0)))


def shown_text(el: Any) -> str:
    """The text a pygame_gui widget shows (its key translated, ``%{x}`` filled)."""
    from pygame_gui.core.utility import translate

    return translate(el.text, **(getattr(el, "text_kwargs", None) or {}))


def text_fits(el: Any) -> bool:
    """True when a label's or button's text, in its own font, fits inside its box."""
    font = getattr(el, "font", None)
    return font is None or font.size(shown_text(el))[0] <= _room(el)


def button(scene: Any, rect: pygame.Rect, text: str, object_id: str | None = None,
           class_id: str | None = None, raw: bool = False, **kw: Any) -> pygame_gui.elements.UIButton:
    """A button; a label too wide for it (a long translation) takes the compact size,
    then, as a last resort, is cut with an ellipsis -- it is never clipped."""
    text_kwargs = kw.pop("text_kwargs", None)
    b = pygame_gui.elements.UIButton(
        rect, text if raw else key(text), scene.app.manager,
        object_id=_oid(object_id, class_id), text_kwargs=text_kwargs, **kw)
    if not text_fits(b) and class_id in (None, "@menu"):
        full = shown_text(b)
        b.kill()
        b = pygame_gui.elements.UIButton(rect, full, scene.app.manager, object_id=_oid(object_id, "@compact"), **kw)
        if not text_fits(b):

            cut = full
            while len(cut) > 1 and b.font.size(cut + "…")[0] > _room(b):
                cut = cut[:-1]
            b.set_text(cut.rstrip() + "…")
    return scene.add(b)


class ChoiceMenu(pygame_gui.elements.UIDropDownMenu):
    """A drop-down that closes on every choice, the option already shown included.

    pygame_gui keeps its list open when the current option is clicked again (the list
    only drops that selection); the open list, often over the dialog's buttons, then
    takes the player's next click -- meant for "Open the table" -- as a choice."""

    def process_event(self, event: pygame.event.Event) -> bool:
        consumed = super().process_event(event)
        expanded = self.menu_states.get("expanded")
        if (event.type == pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION and expanded is not None
                and self.current_state is expanded and event.ui_element is expanded.options_selection_list):
            expanded.should_transition = True  # closed as it was: the same option stays chosen
        return consumed


def choice_menu(scene: Any, options: list[Any], current: Any, rect: pygame.Rect, **kw: Any) -> ChoiceMenu:
    """A drop-down of ``options`` (texts, or ``(text, id)`` pairs) showing ``current``
    (see :class:`ChoiceMenu`); ``rect`` in window pixels."""
    return scene.add(ChoiceMenu(options, current, rect, scene.app.manager, **kw))


def level_menu(scene: Any, rect: pygame.Rect) -> Any:
    """A drop-down of the bot levels (easy, normal, hard) starting at the player's
    (``settings.bot_level``); its ``UI_DROP_DOWN_MENU_CHANGED`` event's
    ``selected_option_id`` is the level chosen (``App.set_bot_level``)."""
    from client.i18n import tr
    from client.settings import BOT_LEVELS

    choices = [(tr(f"level.{lv}").capitalize(), lv) for lv in BOT_LEVELS]
    current = next(c for c in choices if c[1] == scene.app.settings.bot_level)
    return choice_menu(scene, choices, current, rect)


def label(scene: Any, rect: pygame.Rect, text: str, object_id: str | None = None,
          raw: bool = False, align: str = "left", **kw: Any) -> pygame_gui.elements.UILabel:
    """A label; ``align`` is ``"left"``, ``"center"`` or ``"right"``."""
    lab = pygame_gui.elements.UILabel(
        rect, text if raw else key(text), scene.app.manager, object_id=_oid(object_id, None),
        text_kwargs=kw.pop("text_kwargs", None), **kw)
    if align != "left":
        lab.text_horiz_alignment = align
        lab.rebuild()
    return scene.add(lab)


def entry(scene: Any, rect: pygame.Rect, initial: str = "", **kw: Any) -> pygame_gui.elements.UITextEntryLine:
    e = pygame_gui.elements.UITextEntryLine(rect, scene.app.manager, initial_text=initial, **kw)
    return scene.add(e)


def panel(scene: Any, rect: pygame.Rect, **kw: Any) -> pygame_gui.elements.UIPanel:
    p = pygame_gui.elements.UIPanel(rect, manager=scene.app.manager, **kw)
    return scene.add(p)


def centred(size: tuple[int, int], width_frac: float, height_frac: float,
            top_frac: float | None = None) -> pygame.Rect:
    """A rect ``width_frac`` x ``height_frac`` of a ``size`` window, centred in it (or
    centred across and hanging from ``top_frac`` of its height)."""
    w, h = size
    r = pygame.Rect(0, 0, int(w * width_frac), int(h * height_frac))
    if top_frac is None:
        r.center = (w // 2, h // 2)
    else:
        r.midtop = (w // 2, int(h * top_frac))
    return r


def dialog(scene: Any, size: tuple[int, int], width_frac: float, height_frac: float,
           top_frac: float | None = None) -> pygame.Rect:
    """A menu screen's panel (see :func:`centred`); returns its rect."""
    box = centred(size, width_frac, height_frac, top_frac)
    panel(scene, box)
    return box


#: Button font sizes of the theme (client/theme.json) at a 720 px tall window.
BUTTON_FONT, COMPACT_FONT = 19, 15


def fitted(label: str, width: int, scale: float) -> tuple[str, str | None]:
    """A button label that fits ``width`` px: ``(label, None)`` when it fits at the
    theme's button size, ``(label, "@compact")`` at the compact size, else the label cut
    with an ellipsis at the compact size. ``scale`` is the app's ``ui_scale``."""
    from client import text

    room = width - int(24 * scale)
    if text.font(round(BUTTON_FONT * scale), True).size(label)[0] <= room:
        return label, None
    size = round(COMPACT_FONT * scale)
    return text.elide(label, room, size, bold=True), "@compact"


def column(size: tuple[int, int], width_frac: float, top_frac: float, row_h: int, gap: int,
           n: int, centre_x: float = 0.5) -> list[pygame.Rect]:
    """``n`` stacked rects (px) of one column centred at ``centre_x`` of the window."""
    w, h = size
    cw = int(w * width_frac)
    x = int(w * centre_x - cw / 2)
    y = int(h * top_frac)
    return [pygame.Rect(x, y + i * (row_h + gap), cw, row_h) for i in range(n)]
