"""``mafia-table``: the game client -- an :class:`App` over a scene stack
(:mod:`client.scenestack`), a window (:mod:`client.display`), a frame pacer
(:mod:`client.pacing`) and the connections (:mod:`client.links`).

The Twisted reactor runs on the main thread (ARCHITECTURE §6). The pacer drives the
client: frames at ``client.fps`` (60 Hz) update and draw the scenes, and input is pumped
every ``client.input_poll_ms`` (2 ms): :meth:`App.sample` stamps each event with the
client clock (ms) and hands it to the top scene at once -- a snap key press reaches the
server within a few ms, whatever the frame is doing. When nothing moves the client
idles (:mod:`client.pacing`).
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import pygame

from client import i18n
from client.config import ConfigError, load_config
from client.display import Display
from client.i18n import tr
from client.input import InputSampler
from client.links import Connections, Link
from client.net import parse_address
from client.pacing import FramePacer
from client.scenestack import SceneStack
from client.settings import Settings
from client import settings as settings_mod
from client.ui.scene import Scene

__all__ = ["App", "Link", "build_app", "main", "parse_args"]


#: At least this often (s) the client collects everything, when no live table is on screen.
FULL_COLLECTION_S = 600.0


class App:
    """The client application. ``config`` is the merged config dict; ``settings`` the
    player's settings; ``reactor`` the Twisted reactor (a fake one in tests);
    ``connect_to`` the server of ``--connect`` (None: start one in-process);
    ``settings_path`` where the settings are saved (None: the user's config folder).

    It holds its collaborators -- :attr:`stack` (the scenes), :attr:`display` (window,
    widgets and frames), :attr:`pacer` (when frames and polls run) and
    :attr:`connections` (the links to servers) -- and the state the scenes share: the
    tables the server told about, couch play's pending key bindings, the card art and
    the sound."""

    def __init__(self, config: dict[str, Any], settings: Settings, reactor: Any,
                 connect_to: tuple[str, int] | None = None, settings_path: str | None = None):
        self.config = config
        self.settings = settings
        self.settings_path = settings_path
        self.reactor = reactor
        self.running = False
        self.stack = SceneStack()
        self.scenes: list[Scene] = self.stack.scenes  # bottom first; read by the scenes
        self.art: Any = None  # CardArt, created with the window
        self.sound: Any = None
        self.display = Display(self)
        #: The garbage collector's pacing, once :meth:`pace_collector` started it.
        self.collector: Any = None
        self.pacer = FramePacer(self, reactor)
        self.frame_times_ms = self.pacer.frame_times_ms  # how long the last frames took (ms)
        self.connections = Connections(self, connect_to)
        self.sampler = InputSampler()
        #: table id -> the latest ``Table`` the server pushed (lobby lists, names, seats).
        self.tables: dict[int, dict[str, Any]] = {}
        #: which of this machine's LAN addresses friends and phones are given
        #: (``client.ui.roomcode.lan_addresses``, cycling; the lobby's address line)
        self.lan_choice = 0
        #: Couch play: key binding of each local player's link, and per table id the
        #: spectator link that drives the shared screen (``{"display", "stash"}``).
        self.pending_bindings: dict[Any, Any] = {}
        self.couch_groups: dict[int, dict[str, Any]] = {}
        self.start_error: str | None = None
        self.joysticks: dict[int, Any] = {}  # instance id -> pygame.joystick.Joystick
        self.keys_down: set[int] = set()  # keys held now: a KEYDOWN of one of them is a key repeat
        self.buttons_down: set[int] = set()  # mouse buttons held now (a scene's rebuild waits for them)
        from client.seats_store import SeatStore

        #: The player's kept seats (``seats.json``); None: none kept (tests may set one).
        self.seat_store: SeatStore | None = SeatStore()
        self._quit_asked = False
        self.tv = False  # --tv: watch a table as soon as connected
        self.replay_log: Any = None  # --replay: (MatchLog, file name) to open first

    # -- what the scenes read of the window ---------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """The window's (w, h) px."""
        return self.display.size

    @property
    def ui_scale(self) -> float:
        """Widget size multiplier (1.0 for a 1280x720 window, :attr:`Display.ui_scale`)."""
        return self.display.ui_scale

    @property
    def manager(self) -> Any:
        """pygame_gui's ``UIManager`` of the window (None before it opens)."""
        return self.display.manager

    def open_window(self) -> None:
        """Open the window in the settings' language, with the card art and the sound."""
        lang = i18n.setup(self.settings.language)
        from client.cards import CardArt
        from client.sound import Sound

        self.display.open(lang)
        pygame.joystick.init()
        self.art = CardArt(self.settings.colour_blind)
        self.sound = Sound(self.settings.volume)

    def start_loops(self) -> None:
        """Start the frame and input loops (:meth:`client.pacing.FramePacer.start`)."""
        self.pacer.start(self.config)

    def notify(self, message: str, seconds: float = 6.0, error: bool = True) -> None:
        """Show a one-line message at the top of the window for ``seconds``."""
        self.display.notify(message, seconds, error)

    # -- scene stack ------------------------------------------------------------------
    @property
    def top(self) -> Scene:
        return self.stack.top

    def push(self, scene: Scene) -> Scene:
        return self.stack.push(scene)

    def pop(self) -> Scene | None:
        return self.stack.pop()

    def replace(self, scene: Scene) -> Scene:
        return self.stack.replace(scene)

    def reset(self, scene: Scene) -> Scene:
        """Clear the stack down to nothing and show ``scene``; what the old screens held
        goes back to the system (:func:`client.allocator.trim`), the card art and the
        drawing caches and rendered texts of the last table with it
        (:mod:`client.table.kept`: the next table deals other cards, or at other sizes)."""
        from client.allocator import trim

        from client import text
        from client.table import kept

        shown = self.stack.reset(scene)
        self.art.clear()
        kept.release()
        text.clear()  # a table's narration, hundreds of lines: the next screen renders its own
        if self.collector is not None:
            self.collector.full()  # the old screens' cycles, frozen meanwhile: freed while nothing moves
        trim()
        return shown

    def pace_collector(self) -> Any:
        """Short garbage-collector pauses for the window's frame loop (and the embedded
        server's reactor, the same process): :class:`server.pacing.CollectorPacing`,
        its full collection done at :meth:`reset`, and every :data:`FULL_COLLECTION_S`
        when no table with a local seat is on screen (a TV view may watch match after
        match without a reset). A full collection of a hosting client takes tens of ms: a stutter, and
        late key-press stamps, when it falls in a snap race. Returns the pacing (started)."""
        from server.pacing import CollectorPacing

        def calm() -> bool:  # no table with a local seat on screen (a TV view or a replay is)
            return not (self.stack.scenes and any(s.precise_input() for s in self.stack.visible()))

        self.collector = CollectorPacing(self.reactor, full_s=FULL_COLLECTION_S, calm=calm)
        self.collector.start()
        return self.collector

    def open_help(self, game: str | None = None) -> None:
        """The rules help (:mod:`client.scenes.help`) of ``game`` over the current screen."""
        from client.scenes.help import HelpScene

        self.push(HelpScene(self, game))

    def go_menu(self) -> None:
        from client.scenes.menu import MenuScene

        self.reset(MenuScene(self))

    # -- input ------------------------------------------------------------------------
    @property
    def pressing(self) -> bool:
        """A mouse button is held: a scene's rebuild waits for its release
        (:attr:`client.ui.scene.Scene.rebuild_due`)."""
        return bool(self.buttons_down)

    def sample(self) -> None:
        """Pump and stamp input (every ``input_poll_ms``); dispatch at once."""
        events = self.sampler.poll(getattr(self.display, "shown_ms", 0.0))
        if events:
            self.pacer.wake()
        for event, t_ms in events:
            self.dispatch(event, t_ms)

    def dispatch(self, event: pygame.event.Event, t_ms: float) -> None:
        """One input event (``t_ms``: its client stamp): the window's own keys (F11),
        then the widgets, then the top scene. The top scene's rebuild that waited for a
        held mouse button runs once its release has reached the widgets."""
        if event.type == pygame.MOUSEBUTTONDOWN:
            self.buttons_down.add(event.button)
        self._dispatch(event, t_ms)
        if not self.buttons_down:
            return
        if event.type == pygame.MOUSEBUTTONUP:
            self.buttons_down.discard(event.button)
        elif event.type == pygame.WINDOWFOCUSLOST or (event.type == pygame.MOUSEMOTION
                                                      and not any(getattr(event, "buttons", ()))):
            self.buttons_down.clear()  # released elsewhere: its MOUSEBUTTONUP never came here
        if not self.buttons_down and self.scenes and self.top.rebuild_due:
            self.top.rebuild()

    def _dispatch(self, event: pygame.event.Event, t_ms: float) -> None:
        display = self.display
        if event.type == pygame.QUIT:
            self.request_quit()
            return
        if event.type == pygame.KEYDOWN:
            if event.key in self.keys_down and not display.typing():
                return  # a held key repeating: one press is one command (couch play's reveal key)
            self.keys_down.add(event.key)
        elif event.type == pygame.KEYUP:
            self.keys_down.discard(event.key)
        elif event.type == pygame.WINDOWFOCUSLOST:
            self.keys_down.clear()  # a key released elsewhere never sends its KEYUP here
        if event.type == pygame.VIDEORESIZE and not display.fullscreen:
            if (event.w, event.h) != display.size:
                display.resize((event.w, event.h))
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            display.toggle_fullscreen()
            return
        if event.type == pygame.JOYDEVICEADDED:
            try:
                js = pygame.joystick.Joystick(event.device_index)
                self.joysticks[js.get_instance_id()] = js
            except pygame.error:
                pass
        elif event.type == pygame.JOYDEVICEREMOVED:
            self.joysticks.pop(getattr(event, "instance_id", None), None)
        if display.manager is not None:
            consumed = display.manager.process_events(event)
            if consumed and event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                return
            if event.type == pygame.KEYDOWN and display.typing():
                return
        if self.scenes:
            self.top.handle_event(event, t_ms)

    # -- quitting ---------------------------------------------------------------------
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

        self.connections.hosted_friends().addCallbacks(ask, lambda _f: ask([]))

    def set_bot_level(self, level: str) -> None:
        """The level of the bots this player seats from now on (``shared.bots.LEVELS``),
        kept in the settings file at once; an unknown level is ignored."""
        if level in settings_mod.BOT_LEVELS and level != self.settings.bot_level:
            self.settings.bot_level = level
            settings_mod.save(self.settings, self.settings_path)

    def quit(self) -> None:
        """Stop the loops, close the connections, save the settings, stop the reactor."""
        self.running = False
        self.pacer.stop()
        self.connections.close_all()
        settings_mod.save(self.settings, self.settings_path)
        try:
            self.reactor.stop()
        except Exception:
            pass

    # -- tables on screen ---------------------------------------------------------------
    def seated_tables(self) -> set[int]:
        """Live tables on screen where a local player sits."""
        from client.table.base import TableScene

        return {s.table_id for s in self.scenes if isinstance(s, TableScene) and not s.replay and s.links}

    def open_tables(self) -> set[int]:
        """Ids of the tables on screen (live matches, not replays)."""
        from client.table.base import TableScene

        return {s.table_id for s in self.scenes if isinstance(s, TableScene) and not s.replay}

    def lobby_tables(self) -> set[int]:
        """Ids of the tables whose lobby is on screen (seated, the match not started)."""
        from client.scenes.lobby import LobbyScene

        return {s.table.get("id") for s in self.scenes
                if isinstance(s, LobbyScene) and not s.spectator and isinstance(s.table.get("id"), int)}

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

    from client.allocator import return_freed_memory

    return_freed_memory()  # a long evening's rebuilt widgets must not pile up in the heap
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
    app.pace_collector()
    def started(link: Link) -> None:
        if app.tv:
            from client.scenes.join import watch_any

            watch_any(app, link)

    reactor.callWhenRunning(lambda: app.connections.start().addCallbacks(started, app.connections.start_failed))
    reactor.run()
    pygame.quit()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
