"""Replays: a match log (docs/MATCHLOG.md) played back on the game's own table.

``mafia-table --replay FILE`` opens this scene. The log is parsed with
``shared.matchlog.parse`` and rebuilt step by step with ``shared.matchlog.replay`` and the
game's rules module (``shared.games.get_game``); step 0 is the new match, step *k* the
state after the *k*-th logged action. The table shows the **public view**
(``view(state, None)``) of an unfinished match, and **every card face up**
(``full_view(state)``) when the log is finished (it has an ``over`` record).

The table is the game's normal table scene (from the client registry, ``client.games``;
a log of a game this client cannot show is refused with a clear message) with no connection
(``replay`` set): playing forward animates each step's public events and tells them in
the message column; seeking shows the step at once. Controls (bottom bar):

* Space play / pause; → / ← one step; PgDn / PgUp ten steps; Home / End; a click (or a
  drag) on the progress bar seeks there; − / + speed 0.5×, 1×, 2×, 4×, 8×; Esc: back.
* The table's history (:mod:`client.table.history_view`) holds the lines of every step
  up to the one shown, seeking included; M opens its full view, whose keys (Esc, PgUp /
  PgDn, Home / End) then go to it; the wheel scrolls it, or the message column.
* While playing, step *k* + 1 comes ``(t[k+1] - t[k]) / speed`` ms after step *k* (``t``
  = the records' ms since the match started), a pause longer than ``MAX_GAP_MS`` being
  shortened to it.

The log's warnings (a damaged last line dropped) stay on screen in the bar.
"""
from __future__ import annotations

import re
from typing import Any

import pygame

from client import games, text
from client.i18n import tr
from client.ui.scene import Scene
from client.ui.widgets import button
from shared import matchlog
from shared.games import get_game
from shared.rules import events_for

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
#: The longest pause between two steps while playing (ms of match time, before speed).
MAX_GAP_MS = 3000.0
CREAM = (243, 232, 207)
GOLD = (240, 207, 121)
DIM = (190, 178, 156)
WARN = (255, 170, 140)


class ReplayError(Exception):
    """A file that cannot be replayed; the message is for people."""


def load(path: str) -> matchlog.MatchLog:
    """Read and parse a match log file; raises :class:`ReplayError` with the reason."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ReplayError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        log = matchlog.parse(data)
        get_game(str(log.header.get("game")))
    except matchlog.LogError as e:
        raise ReplayError(f"{path} is not a usable match log: {e}") from None
    except KeyError:
        raise ReplayError(f"{path}: unknown game {log.header.get('game')!r}") from None
    if games.get(log.header.get("game")) is None:
        raise ReplayError(f"{path}: this client cannot show the game {log.header.get('game')!r}") from None
    return log


def warning_text(warning: str) -> str:
    """A ``MatchLog.warnings`` entry in the player's language."""
    n = re.search(r"\((\d+) bytes\)", warning)
    size = n.group(1) if n else "?"
    if "unterminated" in warning:
        return tr("replay.warn_unterminated", n=size)
    if "damaged" in warning:
        return tr("replay.warn_damaged", n=size)
    return tr("replay.warn_other", reason=warning)


class _NoLink:
    """The replay's stand-in for a connection: nothing can be sent."""

    conn = None
    reconnect = None
    address = ("", 0)
    name = ""

    def request(self, *a: Any, **kw: Any) -> Any:  # pragma: no cover - never called by a replay table
        from twisted.internet import defer

        return defer.succeed({})


class ReplayScene(Scene):
    """Plays ``log`` (a parsed :class:`shared.matchlog.MatchLog`); ``title`` names it
    (the file name)."""

    def __init__(self, app: Any, log: matchlog.MatchLog, title: str = ""):
        super().__init__(app)
        self.log = log
        self.title = title
        self.rules = get_game(str(log.header["game"]))
        self.finished = log.finished
        self.warnings = [warning_text(w) for w in log.warnings]
        self.states: list[Any] = []
        self.events: list[list[dict[str, Any]]] = []
        self.times: list[float] = []
        try:
            for (state, _seat, _action, events), rec in zip(matchlog.replay(self.rules, log), [None] + log.actions):
                self.states.append(state)
                self.events.append(events_for(events, None))
                self.times.append(float(rec.get("t", 0.0)) if rec else 0.0)
        except matchlog.LogError as e:  # keep what replays; say where it stops
            self.warnings.append(tr("replay.warn_stops", reason=str(e)))
            self.finished = False
        self._views: dict[int, dict[str, Any]] = {}
        self.step = 0
        self.playing = False
        self.speed_i = SPEEDS.index(1.0)
        self.wait_ms = 0.0
        self.dragging = False
        self.mouse: tuple[int, int] | None = None  # the last pointer position (the history's wheel)
        self.table = self._make_table()
        self._told = [0]  # history rows ever added once steps 0..k were told, for each k told
        for w in self.warnings:
            app.notify(w, 10)

    # -- the match --------------------------------------------------------------------
    @property
    def last(self) -> int:
        """The last step (the number of replayed actions)."""
        return len(self.states) - 1

    @property
    def speed(self) -> float:
        return SPEEDS[self.speed_i]

    def view_at(self, k: int) -> dict[str, Any]:
        """The view shown at step ``k``: the full view of a finished match, else the
        public view."""
        v = self._views.get(k)
        if v is None:
            state = self.states[k]
            v = self.rules.full_view(state) if self.finished else self.rules.view(state, None)
            self._views[k] = v
            if len(self._views) > 64:
                self._views.pop(next(iter(self._views)))
        return v

    def bar_height(self, size: tuple[int, int] | None = None) -> int:
        w, h = size or self.app.size
        return max(40, int(h * 0.075))

    def table_area(self) -> tuple[int, int]:
        w, h = self.app.size
        return (w, h - self.bar_height())

    def _make_table(self) -> Any:
        seats = [{"seat": s.get("seat"), "name": s.get("name"), "bot": s.get("bot", False), "connected": True}
                 for s in self.log.header.get("seats") or [] if isinstance(s, dict)]
        for change in self.log.seats:  # the names as they ended up (a bot took a seat...)
            for s in seats:
                if s["seat"] == change.get("seat"):
                    s.update(name=change.get("name") or s["name"], bot=change.get("bot", s["bot"]))
        started = {"type": "match_started", "table": None, "game": str(self.log.header["game"]), "seat": None,
                   "view": self.view_at(0), "legal": [], "seats": seats,
                   "name": tr("replay.title", name=str(self.log.header.get("name") or self.title))}
        game = games.get(str(self.log.header["game"]))
        if game is None:
            raise ReplayError(tr("replay.no_client", game=str(self.log.header["game"])))
        cls = game.table_scene
        table = cls.__new__(cls)
        table.replay = True  # set before the constructor lays the table out and deals
        table.area = self.table_area()
        table.__init__(self.app, _NoLink(), started)
        return table

    # -- moving -----------------------------------------------------------------------
    def seek(self, k: int) -> None:
        """Show step ``k`` at once (no animation, the message column cleared)."""
        k = max(0, min(self.last, int(k)))
        self.step = k
        self.table.column.messages.clear()
        self._tell_upto(k)
        self.table.jump(self.view_at(k))
        self.wait_ms = self._gap()
        if k >= self.last:
            self.playing = False

    def forward(self) -> None:
        """One step forward, its events animated and told."""
        if self.step >= self.last:
            self.playing = False
            return
        self._tell_upto(self.step)
        self.step += 1
        self.table.show(self.view_at(self.step), self.events[self.step], animate=True)
        self._told.append(self.table.column.history.total)
        self.wait_ms = self._gap()
        if self.step >= self.last:
            self.playing = False

    def _tell_upto(self, k: int) -> None:
        """Make the table's history hold the lines of steps 1..``k``: forget those of
        later steps, tell those of missing ones (each under the round and turn of the
        public view before it)."""
        history = self.table.column.history
        if k < len(self._told) - 1:
            if not history.truncate(self._told[k]):  # rows dropped meanwhile: tell afresh
                history.clear()
                del self._told[1:]
            del self._told[k + 1:]
            self.table.column.scroll = 0
        for j in range(len(self._told), k + 1):
            self.table.tell(self.events[j], self.rules.view(self.states[j - 1], None))
            self._told.append(history.total)

    def back(self, n: int = 1) -> None:
        self.seek(self.step - n)

    def _gap(self) -> float:
        """ms to wait before the next step while playing."""
        if self.step >= self.last:
            return 0.0
        gap = max(0.0, self.times[self.step + 1] - self.times[self.step])
        return min(gap, MAX_GAP_MS) / self.speed

    def toggle(self) -> None:
        if not self.playing and self.step >= self.last:
            self.seek(0)
        self.playing = not self.playing
        self.wait_ms = min(self.wait_ms, 400.0)
        self.rebuild()

    def set_speed(self, delta: int) -> None:
        self.speed_i = max(0, min(len(SPEEDS) - 1, self.speed_i + delta))
        self.rebuild()

    def close(self) -> None:
        self.app.pop()

    # -- layout of the bar ------------------------------------------------------------
    def bar_rect(self) -> pygame.Rect:
        w, h = self.app.size
        bh = self.bar_height()
        return pygame.Rect(0, h - bh, w, bh)

    def progress_rect(self) -> pygame.Rect:
        """The clickable progress bar (px)."""
        bar = self.bar_rect()
        x0 = int(bar.w * 0.475)
        return pygame.Rect(x0, bar.y + int(bar.h * 0.22), int(bar.w * 0.27), max(6, int(bar.h * 0.20)))

    def seek_at(self, x: int) -> None:
        r = self.progress_rect()
        frac = min(1.0, max(0.0, (x - r.x) / max(1, r.w)))
        self.seek(round(frac * self.last))

    def clear_ui(self) -> None:
        super().clear_ui()
        self.table.history.drop_widgets()

    def build(self, size: tuple[int, int]) -> None:
        self.table.history.build()
        self._built_playing = self.playing  # what the Play/Pause button says
        bar = self.bar_rect()
        pad = max(4, int(bar.h * 0.12))
        bh = bar.h - 2 * pad
        x = pad
        entries = [("replay.back", self.close, int(bar.w * 0.07)),
                   ("replay.start", lambda: self.seek(0), int(bar.w * 0.035)),
                   ("replay.step_back", self.back, int(bar.w * 0.035)),
                   ("replay.pause" if self.playing else "replay.play", self.toggle, int(bar.w * 0.08)),
                   ("replay.step", self.forward, int(bar.w * 0.035)),
                   ("replay.end", lambda: self.seek(self.last), int(bar.w * 0.035)),
                   ("replay.speed", lambda: self.set_speed(1 if self.speed < SPEEDS[-1] else -len(SPEEDS)),
                    int(bar.w * 0.11))]
        for key, cmd, bw in entries:
            kw = {"text_kwargs": {"x": _speed_text(self.speed)}} if key == "replay.speed" else {}
            b = button(self, pygame.Rect(x, bar.y + pad, bw, bh), key, command=cmd,
                       object_id="#primary" if key in ("replay.play", "replay.pause") else None, **kw)
            b.set_hold_range((0, 0))
            x += bw + pad // 2

    # -- input ------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        et = event.type
        if et == pygame.KEYDOWN and self.table.history.key(event.key):
            return  # M, and the full history view's own keys while it is open
        if et == pygame.KEYDOWN:
            k = event.key
            if k == pygame.K_SPACE:
                self.toggle()
            elif k == pygame.K_RIGHT:
                self.playing = False
                self.forward()
            elif k == pygame.K_LEFT:
                self.playing = False
                self.back()
            elif k == pygame.K_PAGEDOWN:
                self.seek(self.step + 10)
            elif k == pygame.K_PAGEUP:
                self.seek(self.step - 10)
            elif k == pygame.K_HOME:
                self.seek(0)
            elif k == pygame.K_END:
                self.seek(self.last)
            elif k in (pygame.K_MINUS, pygame.K_KP_MINUS):
                self.set_speed(-1)
            elif k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                self.set_speed(1)
            elif k == pygame.K_ESCAPE:
                self.close()
        elif et == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.progress_rect().inflate(0, self.bar_height() // 2).collidepoint(event.pos):
                self.dragging = True
                self.seek_at(event.pos[0])
            else:
                self.table.history.click(event.pos)
        elif et == pygame.MOUSEBUTTONUP and event.button == 1:
            self.dragging = False
        elif et == pygame.MOUSEWHEEL:
            self.table.history.wheel(self.mouse, event.y)
        elif et == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self.dragging:
                self.seek_at(event.pos[0])

    def on_resize(self, size: tuple[int, int]) -> None:
        self.table.area = self.table_area()
        self.table.on_resize(self.table.area)

    # -- frame --------------------------------------------------------------------------
    def animating(self) -> bool:
        """Playing (or its table moving): full frame rate."""
        return bool(self.playing or self.table.animating())

    def update(self, dt: float) -> None:
        if self.table.area != self.table_area():
            self.on_resize(self.app.size)
        self.table.update(dt)
        if self.playing:
            self.wait_ms -= dt * 1000.0
            while self.playing and self.wait_ms <= 0:
                self.forward()
        if getattr(self, "_built_playing", self.playing) != self.playing:
            self.rebuild()  # "Play" again at the end (or after a seek / a step stopped it)

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        bar = self.bar_rect()
        self.table.draw(surface.subsurface(pygame.Rect(0, 0, w, bar.top)))
        pygame.draw.rect(surface, (18, 12, 10), bar)
        pygame.draw.line(surface, GOLD, bar.topleft, bar.topright, 2)
        pr = self.progress_rect()
        pygame.draw.rect(surface, (60, 48, 40), pr, border_radius=pr.h // 2)
        done = pr.copy()
        done.w = int(pr.w * (self.step / max(1, self.last)))
        pygame.draw.rect(surface, GOLD, done, border_radius=pr.h // 2)
        pygame.draw.circle(surface, CREAM, (done.right, pr.centery), max(5, pr.h))
        fs = max(11, int(bar.h * 0.26))
        info = tr("replay.position", step=str(self.step), steps=str(self.last),
                  time=_clock(self.times[self.step]), total=_clock(self.times[-1]))
        img = text.render(info, fs, CREAM)
        surface.blit(img, img.get_rect(midleft=(pr.x, pr.bottom + (bar.bottom - pr.bottom) // 2)))
        status = tr("replay.finished") if self.finished else tr("replay.unfinished")
        room = bar.right - bar.h // 3 - (pr.right + bar.h // 2)
        second, colour, bold = self._result_line(), GOLD, True
        if self.warnings:  # the log's warnings stay on screen (in full in the notice at the start)
            second, colour, bold = "  ·  ".join(self.warnings), WARN, False
        ss = text.fit_size(status, room, fs)
        simg = text.render(status, ss, DIM)
        cy = bar.centery - (fs // 2 + 1 if second else 0)
        surface.blit(simg, simg.get_rect(midleft=(pr.right + bar.h // 2, cy)))
        if second:
            size = text.fit_size(second, room, fs, bold=bold, min_size=max(9, fs * 2 // 3))
            rimg = text.render(text.elide(second, room, size, bold=bold), size, colour, bold=bold)
            surface.blit(rimg, rimg.get_rect(midleft=(pr.right + bar.h // 2, bar.centery + fs // 2 + 1)))

    def _result_line(self) -> str:
        res = self.log.result
        if not res or self.step < self.last:
            return ""
        winners = res.get("winners") or []
        names = ", ".join(self.table.roster.seat_name(int(p)) for p in winners)
        return tr("replay.winner", names=names) if names else ""


def _speed_text(speed: float) -> str:
    return ("%g" % speed) + "×"


def _clock(ms: float) -> str:
    s = int(max(0.0, ms) // 1000)
    return f"{s // 60}:{s % 60:02d}"
