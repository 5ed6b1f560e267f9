"""``mafia-table``: the game client -- window, scene stack, input sampler, connections.

The Twisted reactor runs on the main thread (ARCHITECTURE §6). Two ``LoopingCall``s
drive the client: :meth:`App.frame` at ``client.fps`` (60 Hz) updates and draws the
scenes, and :meth:`App.sample` every ``client.input_poll_ms`` (2 ms) pumps pygame's
event queue, stamps each event with the client clock (ms) and hands it to the top scene
at once -- a snap key press reaches the server within a few ms, whatever the frame is
doing.

When nothing moves (no scene :meth:`~client.ui.scene.Scene.animating`, no input or
network message for :data:`ACTIVE_S`) the client idles: it draws :data:`IDLE_FPS` frames a
second and polls input every :data:`IDLE_POLL_MS` ms, so a still menu or TV view costs a
few % of a core (``benchmarks/idle_cpu.py``). The first input event or message wakes it
at once: full frame rate, and after input, input every :data:`BUSY_POLL_MS` ms. A table with a local seat
(:meth:`~client.ui.scene.Scene.precise_input`) keeps the 2 ms polling even when idle, so
a snap press is always stamped within ~2 ms.

By default the client starts the server in-process (``server.start_embedded``) and
connects to it; ``--connect HOST:PORT`` joins another server instead. Every connection
is a :class:`Link` (one player); couch play opens one link per local seat.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import pygame
import pygame_gui

from client import i18n, text
from client.i18n import tr
from client.config import ConfigError, load_config
from client.input import InputSampler, now_ms
from client.net import parse_address  # noqa: F401 (the app's address parser, kept importable here)
from client.ui.scene import Scene
from client.settings import Settings
from client import settings as settings_mod

CLIENT_DIR = os.path.dirname(os.path.abspath(__file__))
THEME_PATH = os.path.join(CLIENT_DIR, "theme.json")
#: Window height the theme's font sizes are written for (px).
THEME_BASE_HEIGHT = 720
#: ... and wide (px): a narrower window (5:4, 4:3) scales by its width instead.
THEME_BASE_WIDTH = 1280
#: Idle pace: frames drawn per second and input poll period (ms) while nothing moves.
IDLE_FPS = 2
IDLE_POLL_MS = 20
#: Input poll period (ms) for :data:`ACTIVE_S` after an input event on a screen without
#: a local seat (menus, the TV view, replays): no press there is timed against a clock.
#: Frames at full pace poll input themselves (between their phases), so an animation
#: that nobody touches (the TV view) needs no poll loop of its own.
BUSY_POLL_MS = 8
#: pygame_gui's update rate (Hz) while no input came for ACTIVE_S (else every frame).
GUI_IDLE_HZ = 2
#: Full pace lasts this long (s) after an input event or a pushed message (pygame_gui
#: hover and press states, a notice appearing).
ACTIVE_S = 0.6
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


class Link:
    """One connection to a server, as one player. ``conn`` is the
    ``client.net.ClientProtocol`` once connected (None while it is being re-opened);
    ``address`` is ``(host, port)``.

    To come back after a lost connection (:mod:`client.reconnect`) it keeps ``tokens``
    (table id -> the seat's reconnect token from ``joined``), ``watching`` (tables it
    watches as a spectator) and ``steps`` (table id -> the ``step`` of the last update
    it received); ``reconnect`` is the running :class:`~client.reconnect.Reconnector`."""

    def __init__(self, app: "App", name: str, address: tuple[str, int]):
        self.app = app
        self.name = name
        self.address = address
        self.conn: Any = None
        self.tokens: dict[int, str] = {}
        self.watching: set[int] = set()
        self.steps: dict[int, int] = {}
        self.reconnect: Any = None

    def on_message(self, msg: dict[str, Any]) -> None:
        self.app.route(self, msg)

    def on_disconnect(self, reason: Any) -> None:
        self.app.link_lost(self, reason)

    def request(self, msg_type: str, **fields: Any):
        """Send a request (Deferred of the reply); the seats it is given are noted.
        While the connection is being re-opened it fails (``disconnected``)."""
        if self.conn is None:
            from twisted.internet import defer

            from client.net import ServerError

            return defer.fail(ServerError("disconnected", tr("reconnect.lost")))
        d = self.conn.request(msg_type, **fields)
        if msg_type == "join":
            d.addCallback(self._joined, bool(fields.get("spectate")))
        elif msg_type == "leave":
            self.forget(fields.get("table"))
        return d

    def _joined(self, reply: dict[str, Any], spectate: bool) -> dict[str, Any]:
        table = reply.get("table")
        if isinstance(table, int):
            if reply.get("token"):
                self.tokens[table] = str(reply["token"])
                self.keep_seat(table, reply.get("seat"))
            elif spectate:
                self.watching.add(table)
        return reply

    @property
    def server(self) -> str:
        """``"host:port"`` of this link's server (the key of its kept seats)."""
        from client.seats_store import server_key

        return server_key(self.address)

    def keep_seat(self, table: int, seat: Any, game: str | None = None) -> None:
        """Write ``table``'s token to the player's ``seats.json`` (a restarted client
        can sit back down, :mod:`client.seats_store`)."""
        store = self.app.seat_store
        token = self.tokens.get(table)
        if store is None or token is None or not isinstance(seat, int):
            return
        info = self.app.tables.get(table) or {}
        kept = store.get(self.server, table) or {}
        store.remember(self.server, table, seat, token,
                       table_name=str(info.get("name") or kept.get("table_name") or ""),
                       game=str(game or info.get("game") or kept.get("game") or ""),
                       step=self.steps.get(table, kept.get("step")))

    def forget(self, table: Any) -> None:
        """This link no longer sits at (or watches) ``table``. Its kept seat in
        ``seats.json`` goes too, unless the match is running: the token stays valid
        (a bot plays the seat) and the menu offers to sit back down."""
        had = self.tokens.pop(table, None)
        self.watching.discard(table)
        self.steps.pop(table, None)
        store = self.app.seat_store
        if had is not None and store is not None and table not in self.app.open_tables():
            store.forget(self.server, table)


def scaled_theme(scale: float, path: str = THEME_PATH) -> dict[str, Any]:
    """The pygame_gui theme with font sizes and corner radii multiplied by ``scale``
    (the theme is written for a 720 px tall window)."""
    import json

    with open(path, encoding="utf-8") as f:
        theme = json.load(f)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("size", "shape_corner_radius", "list_item_height", "shadow_width") and isinstance(v, str) and v.isdigit():
                    node[k] = str(max(1, round(int(v) * scale)))
                else:
                    walk(v)

    walk(theme)
    return theme


class App:
    """The client application. ``config`` is the merged config dict; ``settings`` the
    player's settings; ``reactor`` the Twisted reactor (a fake one in tests)."""

    def __init__(self, config: dict[str, Any], settings: Settings, reactor: Any,
                 connect_to: tuple[str, int] | None = None, settings_path: str | None = None):
        self.config = config
        self.settings = settings
        self.settings_path = settings_path
        self.reactor = reactor
        self.connect_to = connect_to
        self.scenes: list[Scene] = []
        self.screen: pygame.Surface | None = None
        self.manager: pygame_gui.UIManager | None = None
        self.size = (settings.width, settings.height)
        self.fullscreen = settings.fullscreen
        self.sampler = InputSampler()
        self.links: list[Link] = []
        self.main_link: Link | None = None
        self.server_port: int | None = None
        self.server_address: tuple[str, int] | None = None
        self.tables: dict[int, dict[str, Any]] = {}
        #: Couch play: key binding of each local player's link, and per table id the
        #: spectator link that drives the shared screen (``{"display", "stash"}``).
        self.pending_bindings: dict[Any, Any] = {}
        self.couch_groups: dict[int, dict[str, Any]] = {}
        self.notice: tuple[str, float, tuple[int, int, int]] | None = None
        self.art = None  # CardArt, created with the window
        self.sound = None
        self._last_frame = time.perf_counter()
        self._loops: list[Any] = []
        self._calls: dict[str, Any] = {}  # "frame"/"sample" -> the pending reactor call
        self._frame_s = 1.0 / 60
        self._poll_s = 0.002
        self._active_until = 0.0  # perf_counter s until which the full pace holds
        self._whole_at = 0.0  # perf_counter s of the last whole frame shown
        self._whole_of: Scene | None = None  # the scene alone on it (None: several, or a change since)
        self._still: tuple | None = None  # (key, picture, scenes, overlay) of _draw_still
        #: Frames shown so far: drawn whole, or partly (only what moved: ``draw_partial``).
        self.frames_whole = 0
        self.frames_partial = 0
        self.fast = True  # the pace of the last scheduled frame: full (True) or idle
        self._gui_dt = 0.0  # seconds not yet given to pygame_gui's update
        self._gui_at = 0.0  # perf_counter s of its last update
        self.frame_times_ms: list[float] = []
        self.running = False
        self.start_error: str | None = None
        self.joysticks: dict[int, Any] = {}  # instance id -> pygame.joystick.Joystick
        self.keys_down: set[int] = set()  # keys held now: a KEYDOWN of one of them is a key repeat
        from client import net

        self.connector = net.connect  # opens connections (a fake one in tests)
        from client.seats_store import SeatStore

        #: The player's kept seats (``seats.json``); None: none kept (tests may set one).
        self.seat_store: SeatStore | None = SeatStore()
        self._quit_asked = False
        self.tv = False  # --tv: watch a table as soon as connected
        self.replay_log: Any = None  # --replay: (MatchLog, file name) to open first

    # -- window -----------------------------------------------------------------------
    def open_window(self) -> None:
        direct_framebuffer()
        pygame.init()
        pygame.display.set_caption("Mafia Table")
        self._set_mode()
        lang = i18n.setup(self.settings.language)
        from client.cards import CardArt
        from client.sound import Sound

        pygame.joystick.init()
        self.art = CardArt(self.settings.colour_blind)
        self.sound = Sound(self.settings.volume)
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
        """Relayout everything for a new window size (px)."""
        if not self.fullscreen:
            self.size = (max(640, size[0]), max(400, size[1]))
            self.settings.width, self.settings.height = self.size
        self._rebuild()

    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)

    def set_fullscreen(self, on: bool) -> None:
        self.fullscreen = on
        self.settings.fullscreen = on
        if not on:
            self.size = (self.settings.width, self.settings.height)
        self._rebuild()

    def _rebuild(self) -> None:
        """New display mode and widget manager, then every scene relayouts."""
        for s in self.scenes:
            s.clear_ui()
        self._set_mode()
        self._make_manager()
        for s in self.scenes:
            s.on_resize(self.size)
        if self.scenes:
            self.top.build(self.size)

    def set_language(self, lang: str) -> None:
        """Switch every string to ``lang`` (``"en"``, ``"fr"`` or ``"auto"``)."""
        self.settings.language = lang
        code = i18n.setup(lang)
        text.clear()
        if self.art is not None:
            self.art.clear()
        if self.manager is not None:
            self.manager.set_locale(code)
        self._rebuild()

    # -- scene stack ------------------------------------------------------------------
    @property
    def top(self) -> Scene:
        return self.scenes[-1]

    def push(self, scene: Scene) -> Scene:
        if self.scenes:
            self.top.leave()
        self.scenes.append(scene)
        scene.enter()
        return scene

    def _end_top(self) -> Scene:
        """Take the top scene off the stack for good (its widgets go)."""
        scene = self.scenes.pop()
        scene.leave()
        scene.dispose()
        return scene

    def pop(self) -> Scene | None:
        if not self.scenes:
            return None
        scene = self._end_top()
        if self.scenes:
            self.top.enter()
        return scene

    def replace(self, scene: Scene) -> Scene:
        if self.scenes:
            self._end_top()
        self.scenes.append(scene)
        scene.enter()
        return scene

    def reset(self, scene: Scene) -> Scene:
        """Clear the stack down to nothing and show ``scene``."""
        while self.scenes:
            self._end_top()
        return self.push(scene)

    def open_help(self, game: str | None = None) -> None:
        """The rules help (:mod:`client.scenes.help`) of ``game`` over the current screen."""
        from client.scenes.help import HelpScene

        self.push(HelpScene(self, game))

    def go_menu(self) -> None:
        from client.scenes.menu import MenuScene

        self.reset(MenuScene(self))

    # -- notices ----------------------------------------------------------------------
    def notify(self, message: str, seconds: float = 6.0, error: bool = True) -> None:
        """Show a one-line message at the top of the window for ``seconds``."""
        colour = (255, 170, 140) if error else (240, 225, 170)
        self.notice = (message, now_ms() + seconds * 1000.0, colour)
        self.wake()

    # -- main loop --------------------------------------------------------------------
    def sample(self) -> None:
        """Pump and stamp input (every ``input_poll_ms``); dispatch at once."""
        events = self.sampler.poll()
        if events:
            self.wake()
        for event, t_ms in events:
            self.dispatch(event, t_ms)

    # -- pace -------------------------------------------------------------------------
    def wake(self, seconds: float = ACTIVE_S) -> None:
        """Something happened (input, a message): full pace for at least ``seconds`` s.
        From idle, the scenes first catch up with the time spent idle (so an animation
        starting now starts from now) and the next frame is drawn at once."""
        now = time.perf_counter()
        self._active_until = max(self._active_until, now + seconds)
        if not self.running:
            return
        if self.fast:
            if seconds > 0 and "sample" not in self._calls:  # input: poll between frames again
                self._reschedule("sample", max(self._poll_s, BUSY_POLL_MS / 1000.0))
            return
        self.fast = True
        self._advance(min(1.0, now - self._last_frame))
        self._last_frame = now
        self._reschedule("frame", 0.0)
        self._reschedule("sample", self._poll_s)

    def _advance(self, dt: float) -> None:
        """Advance the visible scenes by ``dt`` s without drawing."""
        if self.scenes:
            for s in self.visible():
                s.update(dt)

    def visible(self) -> list[Scene]:
        """The scenes drawn now: the top one and those under overlays (bottom first)."""
        visible = [self.top]
        i = len(self.scenes) - 1
        while i > 0 and self.scenes[i].overlay:
            i -= 1
            visible.insert(0, self.scenes[i])
        return visible

    def busy(self) -> bool:
        """Whether the full frame rate is needed: a visible scene animates, input or a
        message came less than :data:`ACTIVE_S` ago, or the player types in a text box."""
        if time.perf_counter() < self._active_until:
            return True
        if self.scenes and any(s.animating() for s in self._live(self.visible())):
            return True
        return self.manager is not None and self._typing()

    def _gui_due(self) -> bool:
        """Whether pygame_gui's update runs this frame: every frame while input is
        recent (hover, presses) or a text box has the focus; else at most
        :data:`GUI_IDLE_HZ` times a second (its queued redraws still happen), and on
        the frame after a pushed message (which may change widgets): an animating table
        without local input (the TV view) is spared its cost (0.2-0.5 ms a call)."""
        now = time.perf_counter()
        if now < self._active_until or self._typing() or now - self._gui_at >= 1.0 / GUI_IDLE_HZ:
            self._gui_at = now
            return True
        return False

    def precise(self) -> bool:
        """Whether input must be polled every ``input_poll_ms`` even when idle (a table
        where a local player may press a key against the clock)."""
        return bool(self.scenes) and any(s.precise_input() for s in self.visible())

    def dispatch(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame.QUIT:
            self.request_quit()
            return
        if event.type == pygame.KEYDOWN:
            if event.key in self.keys_down and not self._typing():
                return  # a held key repeating: one press is one command (couch play's reveal key)
            self.keys_down.add(event.key)
        elif event.type == pygame.KEYUP:
            self.keys_down.discard(event.key)
        elif event.type == pygame.WINDOWFOCUSLOST:
            self.keys_down.clear()  # a key released elsewhere never sends its KEYUP here
        if event.type == pygame.VIDEORESIZE and not self.fullscreen:
            if (event.w, event.h) != self.size:
                self.resize((event.w, event.h))
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return
        if event.type == pygame.JOYDEVICEADDED:
            try:
                js = pygame.joystick.Joystick(event.device_index)
                self.joysticks[js.get_instance_id()] = js
            except pygame.error:
                pass
        elif event.type == pygame.JOYDEVICEREMOVED:
            self.joysticks.pop(getattr(event, "instance_id", None), None)
        if self.manager is not None:
            consumed = self.manager.process_events(event)
            if consumed and event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                return
            if event.type == pygame.KEYDOWN and self._typing():
                return
        if self.scenes:
            self.top.handle_event(event, t_ms)

    def _typing(self) -> bool:
        focus = self.manager.get_focus_set() if self.manager is not None else None
        return bool(focus) and any(isinstance(e, pygame_gui.elements.UITextEntryLine) for e in focus)

    def frame(self) -> None:
        """Update and draw one frame (the 60 Hz LoopingCall)."""
        t0 = time.perf_counter()
        dt = min(0.1 if self.fast else 1.0, t0 - self._last_frame)
        self._last_frame = t0
        self.render(dt)
        self.frame_times_ms.append((time.perf_counter() - t0) * 1000.0)
        if len(self.frame_times_ms) > 600:
            del self.frame_times_ms[:300]

    def render(self, dt: float, flip: bool = True) -> None:
        """Advance by ``dt`` seconds and draw (``flip`` = show on screen)."""
        if not self.scenes or self.screen is None:
            return
        visible = self.visible()
        for s in visible:
            s.update(dt)
        self._gui_dt += dt
        if self.manager is not None and (not self.running or self._gui_due()):
            self.manager.update(self._gui_dt)
            self._gui_dt = 0.0
        self.sample_mid_frame()
        partial = self._draw_partial(visible) if flip else None
        if partial is None:
            live = self._live(visible)
            if len(live) < len(visible):
                self._draw_still(visible[:len(visible) - len(live)], live[0])
            else:
                self._still = None
            for s in live:
                s.draw(self.screen)
            self.sample_mid_frame()
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
        t = now_ms()
        for s in visible:
            s.presented(t)

    @staticmethod
    def _live(visible: list[Scene]) -> list[Scene]:
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
        with no notice, no input for :data:`ACTIVE_S` (hovered and pressed widgets), no
        text being typed, and a whole frame less than :data:`WHOLE_FRAME_S` ago.
        Returns the regions repainted (px), or None: draw the frame whole."""
        now = time.perf_counter()
        if (len(visible) != 1 or visible[0] is not self._whole_of or self.notice is not None
                or now < self._active_until or now - self._whole_at >= WHOLE_FRAME_S or self._typing()):
            return None
        partial = visible[0].draw_partial(self.screen)
        if partial is None:
            self._whole_of = None
        return partial

    def sample_mid_frame(self) -> None:
        """Poll input between the phases of a frame, so a key press is stamped within
        a few ms even when a frame's work is long (between two draws, never inside one)."""
        if self.running:
            self.sample()

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
        pygame.draw.rect(surf, (20, 10, 8), box, border_radius=size // 2)
        pygame.draw.rect(surf, colour, box, 2, border_radius=size // 2)
        y = box.top + int(size * 0.4)
        for img in imgs:
            surf.blit(img, img.get_rect(midtop=(box.centerx, y)))
            y += img.get_height()

    def start_loops(self) -> None:
        """Start the frame and input loops on the reactor: frames at ``client.fps``
        (60 Hz) and input every ``client.input_poll_ms`` (2 ms) while :meth:`busy`; else
        :data:`IDLE_FPS` and :data:`IDLE_POLL_MS` (input stays at 2 ms while
        :meth:`precise`). Frames keep a fixed cadence (the next is due one period after
        the previous one started, as a ``LoopingCall``)."""
        fps = max(10, int(self.config["client"].get("fps", 60)))
        poll = max(1, int(self.config["client"].get("input_poll_ms", 2)))
        self._frame_s = 1.0 / fps
        self._poll_s = poll / 1000.0
        self.fast = True
        self._active_until = time.perf_counter() + ACTIVE_S
        self._tick_frame()
        self._tick_sample()

    def _reschedule(self, name: str, delay: float) -> None:
        call = self._calls.get(name)
        if call is not None and call.active():
            call.cancel()
        tick = self._tick_frame if name == "frame" else self._tick_sample
        self._calls[name] = self.reactor.callLater(max(0.0, delay), tick)

    def _tick_frame(self) -> None:
        self._calls.pop("frame", None)
        if not self.running:
            return
        start = time.perf_counter()
        try:
            self.frame()
        except Exception:
            self._loop_failed(None)
            return
        if not self.running:
            return
        self.fast = self.busy()
        if "sample" not in self._calls and (not self.fast or self.precise()):
            self._reschedule("sample", self._poll_s if self.precise() else IDLE_POLL_MS / 1000.0)
        period = self._frame_s if self.fast else 1.0 / IDLE_FPS
        self._reschedule("frame", period - (time.perf_counter() - start))

    def _tick_sample(self) -> None:
        self._calls.pop("sample", None)
        if not self.running:
            return
        try:
            self.sample()
        except Exception:
            self._loop_failed(None)
            return
        if not self.running or "sample" in self._calls:
            return  # stopped, or a wake already planned the next poll
        if self.precise():
            period = self._poll_s
        elif time.perf_counter() < self._active_until:
            period = max(self._poll_s, BUSY_POLL_MS / 1000.0)
        elif self.fast:
            return  # frames at full pace poll input themselves; the loop resumes when they slow
        else:
            period = IDLE_POLL_MS / 1000.0
        self._reschedule("sample", period)

    def _loop_failed(self, failure: Any) -> None:
        import traceback

        if failure is None:
            traceback.print_exc()
        else:
            traceback.print_exception(failure.value)
        self.quit()

    def request_quit(self) -> None:
        """The player closes the window (or picks Quit): when a match of his is running
        -- his own seat, or friends playing on his embedded server, whose table pauses
        while it is gone -- ask first (:class:`~client.scenes.confirm.ConfirmScene`);
        a second close quits."""
        from client.scenes.confirm import ConfirmScene

        if self._quit_asked or any(isinstance(s, ConfirmScene) and s.tag == "quit" for s in self.scenes):
            self.quit()
            return
        self._quit_asked = True

        def ask(friends: list[str]) -> None:
            self._quit_asked = False
            if not self.running:
                return
            if friends:
                message = tr("rejoin.quit_host", table=friends[0])
            elif self.seated_tables():
                message = tr("rejoin.quit_seat")
            else:
                self.quit()
                return
            self.push(ConfirmScene(self, message, tr("rejoin.quit_yes"), tr("rejoin.quit_no"), self.quit,
                                   tag="quit"))

        self.hosted_friends().addCallbacks(ask, lambda _f: ask([]))

    def seated_tables(self) -> set[int]:
        """Live tables on screen where a local player sits."""
        from client.table.base import TableScene

        return {s.table_id for s in self.scenes if isinstance(s, TableScene) and not s.replay and s.links}

    def hosted_friends(self):
        """Deferred list of the names of the tables of the embedded server whose match
        is running with a connected player other than this client's (empty without an
        embedded server, or when it cannot tell within 1 s)."""
        from twisted.internet import defer

        link = self.main_link
        if self.server_port is None or link is None or link.conn is None or \
                link.address != ("127.0.0.1", self.server_port):
            return defer.succeed([])
        mine = {t: e.get("seat") for t, e in ((e["table"], e) for e in self._kept_here(link))}
        local = {(getattr(s, "table_id", None), seat) for s in self.scenes for seat in getattr(s, "links", {}) or {}}

        def listed(reply: dict[str, Any]) -> list[str]:
            out = []
            for t in reply.get("tables", []):
                if t.get("status") != "playing":
                    continue
                for entry in t.get("seats", []):
                    seat = entry.get("seat")
                    if entry.get("bot") or not entry.get("connected") or mine.get(t.get("id")) == seat \
                            or (t.get("id"), seat) in local:
                        continue
                    out.append(str(t.get("name") or t.get("id")))
                    break
            return out

        d = link.request("list_tables").addCallback(listed)
        timeout = self.reactor.callLater(1.0, lambda: d.called or d.cancel())
        d.addBoth(lambda r: (timeout.active() and timeout.cancel(), r)[1])
        return d

    def _kept_here(self, link: Any) -> list[dict[str, Any]]:
        from client.seats_store import server_key

        address = getattr(link, "address", None)
        if self.seat_store is None or not address:
            return []
        here = server_key(address)
        return [e for e in self.seat_store.entries() if e["server"] == here]

    def kept_seats(self) -> list[dict[str, Any]]:
        """The player's kept seats on the main link's server (``seats.json``), newest first."""
        link = self.main_link
        return self._kept_here(link) if link is not None else []

    def rejoin(self, entry: dict[str, Any]):
        """Sit back down at ``entry``'s seat (``reconnect`` with its token on the main
        link); the server's ``match_started`` (``resumed``) opens the table. A refused
        token forgets the entry. Deferred of the ``joined`` reply."""
        link = self.main_link
        if link is None or link.conn is None:
            from twisted.internet import defer

            return defer.fail(ConnectionError(tr("error.not_connected")))
        table = entry["table"]
        link.tokens[table] = entry["token"]
        if isinstance(entry.get("step"), int):
            link.steps.setdefault(table, entry["step"])

        def ok(reply: dict[str, Any]) -> dict[str, Any]:
            if reply.get("token"):
                link.tokens[table] = str(reply["token"])
            return reply

        def refused(f: Any) -> Any:
            link.tokens.pop(table, None)
            code = getattr(f.value, "code", "")
            if code in ("bad_token", "unknown_table") and self.seat_store is not None:
                self.seat_store.forget(link.server, table)
            return f

        return link.request("reconnect", token=entry["token"], step=entry.get("step")).addCallbacks(ok, refused)

    def quit(self) -> None:
        for link in list(self.links):  # the last step seen, for a restarted client
            for table in list(link.tokens):
                if self.seat_store is not None and table in link.steps:
                    self.seat_store.note_step(link.server, table, link.steps[table], force=True)
        self.running = False
        for loop in self._loops:
            if loop.running:
                loop.stop()
        for call in self._calls.values():
            if call.active():
                call.cancel()
        self._calls.clear()
        for link in list(self.links):
            if link.conn is not None:
                link.conn.transport.loseConnection()
        settings_mod.save(self.settings, self.settings_path)
        try:
            self.reactor.stop()
        except Exception:
            pass

    # -- connections ------------------------------------------------------------------
    def start(self):
        """Start the embedded server (unless ``--connect``) and connect the main
        player. Returns a Deferred firing with the main :class:`Link`."""
        from twisted.internet import defer

        if self.connect_to is not None:
            self.server_address = self.connect_to
            return self.open_link(self.settings.player_name(), self.connect_to, main=True)
        if not self.config["client"].get("embedded_server", True):
            host, port = parse_address(self.settings.last_address)
            self.server_address = (host, port)
            return self.open_link(self.settings.player_name(), (host, port), main=True)

        def started(port: int):
            self.server_port = port
            self.server_address = ("127.0.0.1", port)
            return self.open_link(self.settings.player_name(), self.server_address, main=True)

        try:
            from server import start_embedded
        except ImportError as e:
            return defer.fail(e)
        return defer.maybeDeferred(start_embedded, self.reactor, self.config).addCallback(started)

    def start_failed(self, failure: Any) -> None:
        """The first connection failed: say why and what to do (the menu stays)."""
        reason = failure.value
        message = str(reason) if isinstance(reason, ConnectionError) else tr("error.server_start", reason=str(reason))
        self.start_error = message
        self.notify(message + " " + tr("error.try_join"), 20)

    def open_link(self, name: str, address: tuple[str, int], main: bool = False):
        """Connect one player to ``address``; Deferred firing with the :class:`Link`
        (or failing with a player-readable ``ConnectionError``)."""
        from client import net

        link = Link(self, name, address)

        def ok(conn):
            link.conn = conn
            self.links.append(link)
            if main:
                if self.main_link is not None and self.main_link.conn is not None:
                    old = self.main_link
                    self.links.remove(old)
                    old.conn.transport.loseConnection()
                self.main_link = link
            return link

        def bad(f):
            host, port = address
            if isinstance(f.value, net.ServerError):
                raise ConnectionError(f.value.message)
            raise ConnectionError(tr("error.cannot_reach", address=f"{host}:{port}"))

        d = self.connector(self.reactor, address[0], address[1], name, listener=link, timeout=5.0)
        return d.addCallbacks(ok, bad)

    def close_link(self, link: Link) -> None:
        if link in self.links:
            self.links.remove(link)
        if link.reconnect is not None:
            link.reconnect.cancel()
        if link.conn is not None:
            link.conn.listener = None
            link.conn.transport.loseConnection()

    def route(self, link: Link, msg: dict[str, Any]) -> None:
        """A pushed message from ``link``'s server."""
        self.wake(0.0)  # drawn at once; the scene's animating() says how long to keep on
        self._whole_of = None  # drawn whole: a message may change widgets as well as the table
        self._still = None  # ... and the table under an overlay
        self._gui_at = 0.0  # ... and pygame_gui redraws them in that frame
        kind = msg.get("type")
        tokens = getattr(link, "tokens", None) or {}  # the seats this link holds (none: a test's stand-in)
        if kind == "table" and isinstance(msg.get("table"), dict):
            self.tables[msg["table"]["id"]] = msg["table"]
        if kind in ("update", "match_started") and isinstance(msg.get("step"), int):
            link.steps[msg.get("table")] = msg["step"]
            if self.seat_store is not None and msg.get("table") in tokens:
                self.seat_store.note_step(link.server, msg.get("table"), msg["step"])
        elif kind == "match_over":
            # the link keeps the token: the server keeps it for the table's life, and
            # "Play again" starts the next match with the same seats and tokens; only the
            # menu's "Rejoin" entry goes (nothing to come back to until a rematch)
            if msg.get("table") in tokens and self.seat_store is not None:
                self.seat_store.forget(link.server, msg.get("table"))
        if kind == "match_started" and msg.get("table") in tokens:
            link.keep_seat(msg.get("table"), msg.get("seat"), msg.get("game"))  # with the game and table name
        if kind == "match_started":
            self._match_started(link, msg)
            return
        for s in list(self.scenes):
            s.on_message(msg, link)

    def _match_started(self, link: Link, msg: dict[str, Any]) -> None:
        """Open the table of the match's game, found in the registry (or hand the message
        to the table already open: a couch seat joining, a connection coming back)."""
        from client import games
        from client.table.base import TableScene

        tid = msg.get("table")
        for s in self.scenes:
            if isinstance(s, TableScene) and s.table_id == tid and not s.replay:
                s.on_message(msg, link)
                return
        game = games.get(msg.get("game"))
        group = self.couch_groups.get(tid) if game is not None and game.couch else None
        if group is not None and link is not group["display"]:
            group["stash"].append((link, msg))  # wait for the shared screen's own start
            return
        scene = self.table_scene(link, msg, binding=self.pending_bindings.pop(link, None))
        if scene is None:
            return
        self.reset(scene)
        if group is not None:
            for other, started in group["stash"]:
                scene.on_message(started, other)
            del self.couch_groups[tid]

    def table_scene(self, link: Link, msg: dict[str, Any], binding: Any = None) -> Any:
        """A new table scene for the ``match_started`` ``msg`` of ``link``, from the game
        registry (the table kit asks here rather than import every game); None, with a
        notice, for a game this client does not know."""
        from client import games

        game = games.get(msg.get("game"))
        if game is None:
            self.notify(tr("error.unknown_game", game=str(msg.get("game"))))
            return None
        return game.table_scene(self, link, msg, binding=binding)

    def results_scene(self, game: str) -> Any:
        """The results board class of ``game`` (``ClientGame.results_scene``), None for
        an unknown game or one without a board (the table kit asks here rather than
        import every game)."""
        from client import games

        found = games.get(game)
        return found.results_scene if found is not None else None

    def open_tables(self) -> set[int]:
        """Ids of the tables on screen (live matches, not replays)."""
        from client.table.base import TableScene

        return {s.table_id for s in self.scenes if isinstance(s, TableScene) and not s.replay}

    def lobby_tables(self) -> set[int]:
        """Ids of the tables whose lobby is on screen (seated, the match not started)."""
        from client.scenes.lobby import LobbyScene

        return {s.table.get("id") for s in self.scenes
                if isinstance(s, LobbyScene) and not s.spectator and isinstance(s.table.get("id"), int)}

    def link_lost(self, link: Link, reason: Any) -> None:
        """A connection closed. During a match it is re-opened by a
        :class:`~client.reconnect.Reconnector` (the table says so); else the player is
        told and the screens that used it go back to the menu."""
        from client.reconnect import Reconnector

        if link.reconnect is not None and link.reconnect.active:
            link.reconnect.dropped()  # the re-opened connection closed again
            return
        if link not in self.links:
            return
        self.links.remove(link)
        if not self.running:
            return
        link.conn = None
        tables = self.open_tables()
        lobbies = self.lobby_tables() & set(link.tokens)  # joined, the match not started yet
        if lobbies or any(t in tables for t in list(link.tokens) + list(link.watching)):
            link.reconnect = Reconnector(self, link, self.connector)
            if lobbies:
                self.notify(tr("reconnect.lost"), 130)
            for s in list(self.scenes):
                table = getattr(s, "table", None)
                if isinstance(table, dict) and table.get("id") in lobbies:
                    continue  # the lobby stays while the seat is asked back
                if hasattr(s, "on_link_lost"):
                    s.on_link_lost(link)
            return
        host, port = link.address
        self.notify(tr("error.lost", address=f"{host}:{port}"), 10)
        for s in list(self.scenes):
            if hasattr(s, "on_link_lost"):
                s.on_link_lost(link)

    def rename(self, name: str) -> None:
        """Save ``name`` as the player's name; the main connection is re-opened under
        it when no table is open (the server takes the name from ``hello``)."""
        self.settings.name = name
        settings_mod.save(self.settings, self.settings_path)
        link = self.main_link
        if link is None or link.conn is None or link.name == name or self.open_tables() or link.tokens:
            return

        def failed(f: Any) -> None:
            self.notify(str(f.value), 10)

        self.open_link(name, link.address, main=True).addErrback(failed)

    def link_back(self, link: Link) -> None:
        """``link``'s connection is open again and its seats are back (the server's
        ``match_started`` with ``resumed: true`` follows)."""
        if link not in self.links:
            self.links.append(link)
        self.notify(tr("reconnect.ok"), 4, error=False)

    def seat_lost(self, link: Link) -> None:
        """The server will not give ``link``'s seats back: leave those tables."""
        from client.table.base import TableScene

        if link.conn is not None and link not in self.links:
            self.links.append(link)  # connected again, only without its seats
        tables = set(link.tokens) | link.watching
        for t in list(tables):
            link.forget(t)
        if tables & self.lobby_tables():
            self.go_menu()  # the lobby of a table we could not sit at again
            return
        for s in list(self.scenes):
            if isinstance(s, TableScene) and s.table_id in tables:
                s.leave_for_good(link)
                return


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="mafia-table", description="Mafia Table: card games on your LAN")
    p.add_argument("--config", help="configuration file (default: config.yaml of the repository)")
    p.add_argument("--connect", metavar="HOST:PORT", help="join this server instead of starting one")
    p.add_argument("--name", help="your name at the table")
    p.add_argument("--fullscreen", action="store_true", help="start fullscreen (F11 toggles)")
    p.add_argument("--windowed", metavar="WxH", help="start in a window of this size, e.g. 1920x1080")
    p.add_argument("--language", choices=["auto", "en", "fr"], help="language of the interface")
    p.add_argument("--settings", help="settings file (default: in your user config directory)")
    p.add_argument("--tv", action="store_true",
                   help="TV view: watch a table of the server as a spectator (public information only)")
    p.add_argument("--replay", metavar="FILE",
                   help="play back a match log (<data dir>/matches/table-<id>-<seed>.jsonl)")
    return p.parse_args(argv)


def build_app(argv: list[str] | None, reactor: Any) -> App:
    """An :class:`App` from command-line arguments (window not opened yet)."""
    args = parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as e:
        raise SystemExit(f"mafia-table: {e}") from None
    settings = settings_mod.load(config, args.settings)
    if args.name:
        settings.name = args.name
    if args.fullscreen:
        settings.fullscreen = True
    if args.windowed:
        try:
            w, h = (int(x) for x in args.windowed.lower().split("x"))
        except ValueError:
            raise SystemExit("mafia-table: --windowed expects WxH, e.g. 1280x720")
        settings.width, settings.height, settings.fullscreen = w, h, False
    if args.language:
        settings.language = args.language
    connect_to = None
    if args.connect:
        try:
            connect_to = parse_address(args.connect, int(config["server"]["port"]))
        except ValueError:
            raise SystemExit(f"mafia-table: --connect expects HOST:PORT, got {args.connect!r}")
    app = App(config, settings, reactor, connect_to, args.settings)
    app.tv = args.tv
    if args.replay:
        from client.scenes.replay import ReplayError, load

        try:
            app.replay_log = (load(args.replay), os.path.basename(args.replay))
        except ReplayError as e:
            raise SystemExit(f"mafia-table: {e}")
    return app


def main(argv: list[str] | None = None) -> int:
    from twisted.internet import reactor

    app = build_app(argv, reactor)
    app.open_window()
    from client.scenes.menu import MenuScene

    app.push(MenuScene(app))
    if not app.settings.name.strip() and app.replay_log is None and not app.tv:
        from client.scenes.name import NameScene

        app.push(NameScene(app, first_run=True))  # the login name is only a default
    if app.replay_log is not None:
        from client.scenes.replay import ReplayScene

        app.push(ReplayScene(app, *app.replay_log))
    app.running = True
    app.start_loops()
    def started(link: Link) -> None:
        if app.tv:
            from client.scenes.join import watch_any

            watch_any(app, link)

    reactor.callWhenRunning(lambda: app.start().addCallbacks(started, app.start_failed))
    reactor.run()
    pygame.quit()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
