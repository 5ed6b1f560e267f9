"""The client's frame pacer: when frames are drawn and input is polled, on the Twisted
reactor (ARCHITECTURE §6).

Frames run at ``client.fps`` (60 Hz) and input is polled every ``client.input_poll_ms``
(2 ms) while something moves; when nothing does (no scene animating, no input or
network message for :data:`ACTIVE_S`) the client idles at :data:`IDLE_FPS` frames a
second, polling input every :data:`IDLE_POLL_MS` ms, so a still menu or TV view costs a
few % of a core. The first input event or message wakes it at once: full frame rate,
and after input, input every :data:`BUSY_POLL_MS` ms. A table with a local seat
(:meth:`~client.ui.scene.Scene.precise_input`) keeps the 2 ms polling even when idle, so
a snap press is always stamped within ~2 ms. Frames keep a fixed cadence (the next is
due one period after the previous one started, as a ``LoopingCall``).
"""
from __future__ import annotations

import time
from typing import Any, Protocol

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


class PacedApp(Protocol):
    """What the pacer drives: the app's loop state, its scenes and its display."""

    running: bool
    stack: Any  # client.scenestack.SceneStack
    display: Any  # client.display.Display: render(dt), live(visible), typing()

    def sample(self) -> None: ...

    def quit(self) -> None: ...


class FramePacer:
    """Schedules ``owner``'s frames and input polls on ``reactor`` (``callLater``)."""

    def __init__(self, owner: PacedApp, reactor: Any):
        self.owner = owner
        self.reactor = reactor
        self.frame_s = 1.0 / 60  # full-pace frame period (s)
        self.poll_s = 0.002  # precise input poll period (s)
        #: perf_counter s until which the full pace holds.
        self.active_until = 0.0
        #: The pace of the last scheduled frame: full (True) or idle.
        self.fast = True
        self.last_frame = time.perf_counter()
        #: perf_counter s of pygame_gui's last update (0: update it in the next frame).
        self.gui_at = 0.0
        #: How long the last frames took (ms), the newest last.
        self.frame_times_ms: list[float] = []
        self._calls: dict[str, Any] = {}  # "frame"/"sample" -> the pending reactor call

    def start(self, config: dict[str, Any]) -> None:
        """Start the frame and input loops at ``config["client"]``'s ``fps`` and
        ``input_poll_ms``."""
        fps = max(10, int(config["client"].get("fps", 60)))
        poll = max(1, int(config["client"].get("input_poll_ms", 2)))
        self.frame_s = 1.0 / fps
        self.poll_s = poll / 1000.0
        self.fast = True
        self.active_until = time.perf_counter() + ACTIVE_S
        self._tick_frame()
        self._tick_sample()

    def stop(self) -> None:
        """Cancel the pending frame and poll."""
        for call in self._calls.values():
            if call.active():
                call.cancel()
        self._calls.clear()

    def wake(self, seconds: float = ACTIVE_S) -> None:
        """Something happened (input, a message): full pace for at least ``seconds`` s.
        From idle, the scenes first catch up with the time spent idle (so an animation
        starting now starts from now) and the next frame is drawn at once."""
        now = time.perf_counter()
        self.active_until = max(self.active_until, now + seconds)
        if not self.owner.running:
            return
        if self.fast:
            if seconds > 0 and "sample" not in self._calls:  # input: poll between frames again
                self._reschedule("sample", max(self.poll_s, BUSY_POLL_MS / 1000.0))
            return
        self.fast = True
        self._advance(min(1.0, now - self.last_frame))
        self.last_frame = now
        self._reschedule("frame", 0.0)
        self._reschedule("sample", self.poll_s)

    def _advance(self, dt: float) -> None:
        """Advance the visible scenes by ``dt`` s without drawing."""
        stack = self.owner.stack
        if stack.scenes:
            for s in stack.visible():
                s.update(dt)

    def busy(self) -> bool:
        """Whether the full frame rate is needed: a visible scene animates, input or a
        message came less than :data:`ACTIVE_S` ago, or the player types in a text box."""
        if time.perf_counter() < self.active_until:
            return True
        owner = self.owner
        if owner.stack.scenes and any(s.animating() for s in owner.display.live(owner.stack.visible())):
            return True
        return owner.display.typing()

    def gui_due(self) -> bool:
        """Whether pygame_gui's update runs this frame: every frame while input is
        recent (hover, presses) or a text box has the focus; else at most
        :data:`GUI_IDLE_HZ` times a second (its queued redraws still happen), and on
        the frame after a pushed message (which may change widgets): an animating table
        without local input (the TV view) is spared its cost (0.2-0.5 ms a call)."""
        now = time.perf_counter()
        if now < self.active_until or self.owner.display.typing() or now - self.gui_at >= 1.0 / GUI_IDLE_HZ:
            self.gui_at = now
            return True
        return False

    def precise(self) -> bool:
        """Whether input must be polled every ``input_poll_ms`` even when idle (a table
        where a local player may press a key against the clock)."""
        stack = self.owner.stack
        return bool(stack.scenes) and any(s.precise_input() for s in stack.visible())

    def frame(self) -> None:
        """Update and draw one frame (``dt``: the time since the last one, at most 0.1 s
        at full pace, 1 s idle)."""
        t0 = time.perf_counter()
        dt = min(0.1 if self.fast else 1.0, t0 - self.last_frame)
        self.last_frame = t0
        self.owner.display.render(dt)
        self.frame_times_ms.append((time.perf_counter() - t0) * 1000.0)
        if len(self.frame_times_ms) > 600:
            del self.frame_times_ms[:300]

    def _reschedule(self, name: str, delay: float) -> None:
        call = self._calls.get(name)
        if call is not None and call.active():
            call.cancel()
        tick = self._tick_frame if name == "frame" else self._tick_sample
        self._calls[name] = self.reactor.callLater(max(0.0, delay), tick)

    def _tick_frame(self) -> None:
        self._calls.pop("frame", None)
        if not self.owner.running:
            return
        start = time.perf_counter()
        try:
            self.frame()
        except Exception:
            self._loop_failed()
            return
        if not self.owner.running:
            return
        self.fast = self.busy()
        if "sample" not in self._calls and (not self.fast or self.precise()):
            self._reschedule("sample", self.poll_s if self.precise() else IDLE_POLL_MS / 1000.0)
        period = self.frame_s if self.fast else 1.0 / IDLE_FPS
        self._reschedule("frame", period - (time.perf_counter() - start))

    def _tick_sample(self) -> None:
        self._calls.pop("sample", None)
        if not self.owner.running:
            return
        try:
            self.owner.sample()
        except Exception:
            self._loop_failed()
            return
        if not self.owner.running or "sample" in self._calls:
            return  # stopped, or a wake already planned the next poll
        if self.precise():
            period = self.poll_s
        elif time.perf_counter() < self.active_until:
            period = max(self.poll_s, BUSY_POLL_MS / 1000.0)
        elif self.fast:
            return  # frames at full pace poll input themselves; the loop resumes when they slow
        else:
            period = IDLE_POLL_MS / 1000.0
        self._reschedule("sample", period)

    def _loop_failed(self) -> None:
        """A frame or a poll raised: print it and quit (a broken loop must not hang)."""
        import traceback

        traceback.print_exc()
        self.owner.quit()
