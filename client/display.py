"""The client's window and its frames: the display mode, pygame_gui's widget manager
scaled to the window, and drawing the visible scenes each frame.

A frame is drawn whole, or -- when the last frame shown was a whole one of a single
scene and nothing else changed -- partly: the scene repaints only what moved
(:meth:`~client.ui.scene.Scene.draw_partial`). An overlay that freezes the scenes under
it (:meth:`~client.ui.scene.Scene.freezes_below`) has them drawn once, as a still
picture. A notice (one line, top of the window) goes over everything.
"""
from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Protocol

import pygame
import pygame_gui

from client import i18n, text
from client.input import now_ms
from client.ui.scene import Scene

CLIENT_DIR = os.path.dirname(os.path.abspath(__file__))
THEME_PATH = os.path.join(CLIENT_DIR, "theme.json")
#: Window height the theme's font sizes are written for (px).
THEME_BASE_HEIGHT = 720
#: ... and wide (px): a narrower window (5:4, 4:3) scales by its width instead.
THEME_BASE_WIDTH = 1280
#: While frames are partial (:meth:`~client.ui.scene.Scene.draw_partial`: only what
#: moved is repainted), a whole frame is still drawn at least this often (s): nothing
#: painted outside what a scene reports stays on screen longer.
WHOLE_FRAME_S = 1.0


def direct_framebuffer() -> None:
    """On X11, show frames through SDL's own X11 framebuffer (XShm) rather than an
    accelerated texture: the client draws in software surfaces anyway, and without a GPU
    (a virtual screen, a VM) the texture path costs ~5 ms of CPU per 1280x720 frame
    against ~0.1 ms (SDL makes the same choice itself on WSL and Windows). Only when the
    environment sets no ``SDL_FRAMEBUFFER_ACCELERATION`` of its own."""
    if not sys.platform.startswith("linux") or "SDL_FRAMEBUFFER_ACCELERATION" in os.environ:
        return
    if os.environ.get("SDL_VIDEODRIVER", "x11") == "x11" and os.environ.get("DISPLAY"):
        os.environ["SDL_FRAMEBUFFER_ACCELERATION"] = "0"


def click_through() -> None:
    """A click that brings the window to the front also acts (SDL's
    ``SDL_MOUSE_FOCUS_CLICKTHROUGH``). Without it SDL on X11 drops a button press that
    arrives with the window's focus (within 10 ms of it): with a window manager that
    focuses on click, the first click after playing in another window -- a second
    client, a browser -- is lost, and the player has to click every button twice when
    going back and forth. Only when the environment sets no value of its own."""
    os.environ.setdefault("SDL_MOUSE_FOCUS_CLICKTHROUGH", "1")


def scaled_theme(scale: float, path: str = THEME_PATH) -> dict[str, Any]:
    """The pygame_gui theme with font sizes and corner radii multiplied by ``scale``
    (the theme is written for a 720 px tall window)."""
    with open(path, encoding="utf-8") as f:
        theme = json.load(f)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if (k in ("size", "shape_corner_radius", "list_item_height", "shadow_width")
                        and isinstance(v, str) and v.isdigit()):
                    node[k] = str(max(1, round(int(v) * scale)))
                else:
                    walk(v)

    walk(theme)
    return theme


class DisplayOwner(Protocol):
    """What the display reads of the app."""

    settings: Any  # width, height, fullscreen, language, colour_blind, volume
    stack: Any  # client.scenestack.SceneStack
    pacer: Any  # client.pacing.FramePacer: active_until, gui_due(), wake()
    running: bool
    art: Any  # client.cards.CardArt (None before the window opens)

    def sample(self) -> None: ...


class Display:
    """The window (:attr:`screen`, :attr:`size` px, :attr:`fullscreen`), the widget
    :attr:`manager`, and the frames drawn on them (counted in :attr:`frames_whole` and
    :attr:`frames_partial`)."""

    def __init__(self, owner: DisplayOwner):
        self.owner = owner
        settings = owner.settings
        self.screen: pygame.Surface | None = None
        self.manager: pygame_gui.UIManager | None = None
        self.size = (settings.width, settings.height)
        self.fullscreen = settings.fullscreen
        #: (text, until client ms, RGB) of the notice shown, or None.
        self.notice: tuple[str, float, tuple[int, int, int]] | None = None
        #: Frames shown so far: drawn whole, or partly (only what moved: ``draw_partial``).
        self.frames_whole = 0
        self.frames_partial = 0
        #: client ms at which the last frame was shown (the floor of an input stamp)
        self.shown_ms = 0.0
        self._gui_dt = 0.0  # seconds not yet given to pygame_gui's update
        self._whole_at = 0.0  # perf_counter s of the last whole frame shown
        self._whole_of: Scene | None = None  # the scene alone on it (None: several, or a change since)
        self._still: tuple | None = None  # (key, picture, scenes, overlay) of _draw_still

    # -- the window ---------------------------------------------------------------------
    def open(self, lang: str | None) -> None:
        """Open the window and the widget manager (``lang``: the interface language)."""
        direct_framebuffer()
        click_through()
        pygame.init()
        pygame.display.set_caption("Mafia Table")
        self._set_mode()
        self._make_manager(lang)

    def _set_mode(self) -> None:
        self._whole_of = None  # a new screen: the next frame is drawn whole
        if self.fullscreen:
            self.screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            self.screen = pygame.display.set_mode(self.size, pygame.RESIZABLE)
        self.size = self.screen.get_size()

    def _make_manager(self, lang: str | None = None) -> None:
        scale = self.ui_scale
        self.manager = pygame_gui.UIManager(
            self.size, scaled_theme(scale), starting_language=lang or i18n.current(),
            translation_directory_paths=i18n.folders())
        self.manager.set_locale(lang or i18n.current())

    @property
    def ui_scale(self) -> float:
        """Widget size multiplier: 1.0 for a 1280x720 window (the smaller of height / 720 and
        width / 1280, so a 5:4 or 4:3 window keeps its text inside its buttons; at least 0.6)."""
        return max(0.6, min(self.size[1] / THEME_BASE_HEIGHT, self.size[0] / THEME_BASE_WIDTH))

    def resize(self, size: tuple[int, int]) -> None:
        """Relayout everything for a new window size (px; at least 640x400)."""
        if not self.fullscreen:
            self.size = (max(640, size[0]), max(400, size[1]))
            self.owner.settings.width, self.owner.settings.height = self.size
        self.rebuild()

    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)

    def set_fullscreen(self, on: bool) -> None:
        settings = self.owner.settings
        self.fullscreen = on
        settings.fullscreen = on
        if not on:
            self.size = (settings.width, settings.height)
        self.rebuild()

    def rebuild(self) -> None:
        """New display mode and widget manager, then every scene relayouts."""
        stack = self.owner.stack
        for s in stack.scenes:
            s.clear_ui()
        self._set_mode()
        self._make_manager()
        for s in stack.scenes:
            s.on_resize(self.size)
        if stack.scenes:
            stack.top.build(self.size)

    def set_language(self, lang: str) -> None:
        """Switch every string to ``lang`` (``"en"``, ``"fr"`` or ``"auto"``)."""
        self.owner.settings.language = lang
        code = i18n.setup(lang)
        text.clear()
        if self.owner.art is not None:
            self.owner.art.clear()
        if self.manager is not None:
            self.manager.set_locale(code)
        self.rebuild()

    def typing(self) -> bool:
        """A text box has the focus (keys go to it, not to the scene)."""
        focus = self.manager.get_focus_set() if self.manager is not None else None
        return bool(focus) and any(isinstance(e, pygame_gui.elements.UITextEntryLine) for e in focus)

    # -- frames -------------------------------------------------------------------------
    def invalidate(self) -> None:
        """The next frame is drawn whole, the scenes under an overlay too (a pushed
        message may change widgets as well as the table)."""
        self._whole_of = None
        self._still = None

    def notify(self, message: str, seconds: float = 6.0, error: bool = True) -> None:
        """Show a one-line message at the top of the window for ``seconds``."""
        colour = (255, 170, 140) if error else (240, 225, 170)
        self.notice = (message, now_ms() + seconds * 1000.0, colour)
        self.owner.pacer.wake()

    def render(self, dt: float, flip: bool = True) -> None:
        """Advance by ``dt`` seconds and draw (``flip`` = show on screen)."""
        stack = self.owner.stack
        if not stack.scenes or self.screen is None:
            return
        top = stack.top
        if getattr(top, "rebuild_due", False) and not getattr(self.owner, "pressing", False):
            top.rebuild()  # asked by rebuild_soon(): once per frame at most
        visible = stack.visible()
        for s in visible:
            s.update(dt)
        self._gui_dt += dt
        if self.manager is not None and (not self.owner.running or self.owner.pacer.gui_due()):
            self.manager.update(self._gui_dt)
            self._gui_dt = 0.0
        self._sample_mid_frame()
        partial = self._draw_partial(visible) if flip else None
        if partial is None:
            live = self.live(visible)
            if len(live) < len(visible):
                self._draw_still(visible[:len(visible) - len(live)], live[0])
            else:
                self._still = None
            for s in live:
                s.draw(self.screen)
            self._sample_mid_frame()
            if self.manager is not None:
                self.manager.draw_ui(self.screen)
            self._draw_notice(self.screen)
            if flip:
                pygame.display.flip()
                self.frames_whole += 1
                self._whole_at = time.perf_counter()
                self._whole_of = visible[0] if len(visible) == 1 and self.notice is None else None
        elif partial:  # a short frame: the poll before it is enough
            if self.manager is not None:
                for r in partial:  # the widgets over the regions repainted
                    self.screen.set_clip(r)
                    self.manager.draw_ui(self.screen)
                self.screen.set_clip(None)
            pygame.display.update(partial)
        if partial is not None:
            self.frames_partial += 1
        t = self.shown_ms = now_ms()
        for s in visible:
            s.presented(t)

    @staticmethod
    def live(visible: list[Scene]) -> list[Scene]:
        """The visible scenes drawn afresh each frame: from the topmost overlay that
        :meth:`~client.ui.scene.Scene.freezes_below` up (all of them without one)."""
        for i in range(len(visible) - 1, 0, -1):
            if visible[i].freezes_below():
                return visible[i:]
        return visible

    def _draw_still(self, below: list[Scene], over: Scene) -> None:
        """Show ``below`` (the scenes under ``over``, bottom first) as a still picture,
        drawn once while ``over`` freezes them (again for a new window size)."""
        key = (tuple(map(id, below)), id(over), self.size)
        if self._still is None or self._still[0] != key or self._still[1].get_size() != self.screen.get_size():
            surf = pygame.Surface(self.screen.get_size(), 0, self.screen)
            for s in below:
                s.draw(surf)
            self._still = (key, surf, below, over)  # the scenes kept: their ids stay theirs
        self.screen.blit(self._still[1], (0, 0))

    def _draw_partial(self, visible: list[Scene]) -> list[pygame.Rect] | None:
        """Let the scene repaint only what moved (:meth:`Scene.draw_partial`) when the
        last frame shown was a whole one of that scene alone or its partial successor,
        with no notice, no recent input (hovered and pressed widgets), no text being
        typed, and a whole frame less than :data:`WHOLE_FRAME_S` ago. Returns the
        regions repainted (px), or None: draw the frame whole."""
        now = time.perf_counter()
        if (len(visible) != 1 or visible[0] is not self._whole_of or self.notice is not None
                or now < self.owner.pacer.active_until or now - self._whole_at >= WHOLE_FRAME_S
                or self.typing()):
            return None
        partial = visible[0].draw_partial(self.screen)
        if partial is None:
            self._whole_of = None
        return partial

    def _sample_mid_frame(self) -> None:
        """Poll input between the phases of a frame, so a key press is stamped within
        a few ms even when a frame's work is long (between two draws, never inside one)."""
        if self.owner.running:
            self.owner.sample()

    def _draw_notice(self, surf: pygame.Surface) -> None:
        if self.notice is None:
            return
        message, until, colour = self.notice
        if now_ms() > until:
            self.notice = None
            return
        size = max(14, int(self.size[1] * 0.028))
        lines = text.wrap(message, int(self.size[0] * 0.86), size, bold=True)
        imgs = [text.render(line, size, colour, bold=True) for line in lines]
        box = pygame.Rect(0, 0, max(i.get_width() for i in imgs), sum(i.get_height() for i in imgs))
        box.inflate_ip(size * 1.4, size * 0.8)
        box.midtop = (self.size[0] // 2, int(self.size[1] * 0.06))
        stack = self.owner.stack
        place = getattr(stack.top, "notice_rect", None) if stack.scenes else None
        over = place() if callable(place) else None
        if over is not None:  # a table: over its prompt banner, not over the plate of the seat at the top
            box.center = over.center
        pygame.draw.rect(surf, (20, 10, 8), box, border_radius=size // 2)
        pygame.draw.rect(surf, colour, box, 2, border_radius=size // 2)
        y = box.top + int(size * 0.4)
        for img in imgs:
            surf.blit(img, img.get_rect(midtop=(box.centerx, y)))
            y += img.get_height()
