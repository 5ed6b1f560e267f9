"""Input: the 2 ms event sampler that stamps every event, and per-seat bindings.

pygame-ce events carry no timestamp, and polling once per 16 ms frame would stamp a
key press up to a frame late. :class:`InputSampler` is polled every
``client.input_poll_ms`` (2 ms) and between a frame's drawing phases: an event found by
a poll happened since the previous one, and it is stamped in the middle of that
interval, in client-monotonic **ms** (``perf_counter_ns() / 1e6``, the same clock as
``client.net.now_ms``) -- within ~1 ms of the real press when the polls keep their
pace, and within half the gap, not the whole gap, when a busy machine delayed a poll
(ARCHITECTURE §6).

A :class:`Binding` maps keys (or one game controller) to a seat's commands, so several
local players can share a keyboard with different snap keys (couch play).
"""
from __future__ import annotations

import functools

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import pygame

try:  # the connection module owns the clock; fall back to the same formula
    from client.net import now_ms
except ImportError:  # pragma: no cover - until client.net exists
    def now_ms() -> float:
        """Client-monotonic milliseconds (``perf_counter_ns() / 1e6``)."""
        return time.perf_counter_ns() / 1e6


#: An event is never stamped more than this (ms) before the poll that found it: after a
#: long pause (a loading screen, a machine that did not run the client) the middle of the
#: gap says little; half the slowest regular poll period (``client.pacing.IDLE_POLL_MS``).
MAX_BACKDATE_MS = 10.0


class InputSampler:
    """Pumps the pygame event queue and stamps each event.

    ``source`` returns the pending events (``pygame.event.get``), ``clock`` the current
    client ms. :meth:`poll` returns ``[(event, t_ms)]`` in queue order, every event of one
    poll with the same stamp: the middle of the interval since the previous poll (the
    event arrived in it: an unbiased estimate, so a poll delayed by a busy machine costs
    the player half the delay on average instead of all of it), at most
    :data:`MAX_BACKDATE_MS` before the poll, and never before ``floor_ms`` (the instant
    the last frame was shown: a press is never stamped before what it answers).
    """

    def __init__(self, source: Callable[[], Iterable[pygame.event.Event]] = pygame.event.get,
                 clock: Callable[[], float] = now_ms):
        self.source = source
        self.clock = clock
        self.last_poll_ms = 0.0

    def poll(self, floor_ms: float = 0.0) -> list[tuple[pygame.event.Event, float]]:
        events = list(self.source())
        t = self.clock()
        prev, self.last_poll_ms = self.last_poll_ms, t
        if not events:
            return []
        stamp = t if prev <= 0.0 else max(t - min((t - prev) / 2.0, MAX_BACKDATE_MS), prev, floor_ms)
        return [(e, min(stamp, t)) for e in events]


#: Commands a binding can produce.
SELECT, PREV, NEXT, SNAP, PASS, REVEAL, CONFIRM = (
    "select", "prev", "next", "snap", "pass", "reveal", "confirm")


@dataclass
class Binding:
    """The keys of one local seat.

    ``slot_keys[i]`` selects the seat's (i+1)-th card directly; ``prev``/``next`` move
    the selection; ``snap`` claims with the selected card (snap or Hitwoman);
    ``pass_`` answers "no snap"/"no counter"; ``reveal`` shows that seat's private
    cards on the hand-over screen; ``confirm`` acts on the selected card as a click.
    ``joystick`` is a joystick instance id: its buttons and d-pad drive the same
    commands (A snap, B pass, X confirm, Y reveal, d-pad left/right select).
    """

    name: str
    slot_keys: tuple[int, ...] = ()
    prev: int | None = None
    next: int | None = None
    snap: int | None = None
    pass_: int | None = None
    reveal: int | None = None
    confirm: int | None = None
    joystick: int | None = None
    _keymap: dict[int, tuple[str, int]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._keymap = {}
        for i, k in enumerate(self.slot_keys):
            self._keymap[k] = (SELECT, i)
        for cmd, k in ((PREV, self.prev), (NEXT, self.next), (SNAP, self.snap),
                       (PASS, self.pass_), (REVEAL, self.reveal), (CONFIRM, self.confirm)):
            if k is not None:
                self._keymap[k] = (cmd, 0)

    def keys(self) -> set[int]:
        return set(self._keymap)

    def command(self, event: pygame.event.Event) -> tuple[str, int] | None:
        """``(command, argument)`` for an event of this binding, else None."""
        if event.type == pygame.KEYDOWN:
            return self._keymap.get(event.key)
        if self.joystick is None or getattr(event, "instance_id", None) != self.joystick:
            return None
        if event.type == pygame.JOYBUTTONDOWN:
            return {0: (SNAP, 0), 1: (PASS, 0), 2: (CONFIRM, 0), 3: (REVEAL, 0)}.get(event.button)
        if event.type == pygame.JOYHATMOTION:
            x = event.value[0]
            return (PREV, 0) if x < 0 else (NEXT, 0) if x > 0 else None
        return None

    def describe(self) -> dict[str, str]:
        """Key names for the help line, in the player's language: ``{"snap": "Space", ...}``."""
        out = {}
        for cmd, k in (("snap", self.snap), ("pass", self.pass_), ("reveal", self.reveal),
                       ("prev", self.prev), ("next", self.next), ("confirm", self.confirm)):
            if k is not None:
                out[cmd] = key_label(k)
        if self.slot_keys:
            out["select"] = f"{key_label(self.slot_keys[0])}-{key_label(self.slot_keys[-1])}"
        if self.joystick is not None:
            out["controller"] = str(self.joystick)
        return out


def key_label(key: int) -> str:
    """A key's name as the player reads it ("Space" / "Espace", "Keypad 5"...)."""
    from client.i18n import current

    return _key_label(key, current())


@functools.lru_cache(maxsize=512)
def _key_label(key: int, language: str) -> str:
    """:func:`key_label` in ``language`` (the current one): the help line asks for
    a dozen key names every frame."""
    from client.i18n import NAMESPACE, tr

    name = pygame.key.name(key)
    if name.startswith("[") and name.endswith("]"):  # keypad keys: "[5]"
        return tr("keyname.keypad", n=name[1:-1])
    label = tr(f"keyname.{name.replace(' ', '_')}")
    return name.upper() if len(name) == 1 else (name.title() if label.startswith(NAMESPACE + ".") else label)


def default_binding() -> Binding:
    """One player at the keyboard: 1-9 select, arrows move, Space snaps, Enter passes."""
    return Binding("keyboard", slot_keys=tuple(range(pygame.K_1, pygame.K_9 + 1)),
                   prev=pygame.K_LEFT, next=pygame.K_RIGHT, snap=pygame.K_SPACE,
                   pass_=pygame.K_RETURN, reveal=pygame.K_TAB, confirm=pygame.K_UP)


#: Keyboard zones for couch play: each local seat gets its own corner of the keyboard.
ZONE_PRESETS: dict[str, dict[str, Any]] = {
    "keyboard": {},
    "left": dict(prev=pygame.K_a, next=pygame.K_d, snap=pygame.K_s, pass_=pygame.K_w,
                 reveal=pygame.K_q, confirm=pygame.K_e),
    "right": dict(prev=pygame.K_LEFT, next=pygame.K_RIGHT, snap=pygame.K_DOWN,
                  pass_=pygame.K_UP, reveal=pygame.K_RSHIFT, confirm=pygame.K_RETURN),
    "middle": dict(prev=pygame.K_j, next=pygame.K_l, snap=pygame.K_k, pass_=pygame.K_i,
                   reveal=pygame.K_u, confirm=pygame.K_o),
    "numpad": dict(prev=pygame.K_KP4, next=pygame.K_KP6, snap=pygame.K_KP5,
                   pass_=pygame.K_KP8, reveal=pygame.K_KP7, confirm=pygame.K_KP9),
}


def binding_for(zone: str, joystick: int | None = None) -> Binding:
    """The binding of a keyboard zone (``ZONE_PRESETS``) or of a controller."""
    if zone == "keyboard" or zone not in ZONE_PRESETS:
        b = default_binding()
        if joystick is not None:
            b = Binding("controller", joystick=joystick)
        return b
    return Binding(zone, joystick=joystick, **ZONE_PRESETS[zone])


#: Emote keys (:mod:`client.ui.emotes`): F5-F8, used by no binding, zone or
#: screen (F1 is the rules, F11 full screen).
EMOTE_KEYS: dict[int, str] = {pygame.K_F5: "clap", pygame.K_F6: "laugh", pygame.K_F7: "shock",
                              pygame.K_F8: "well_played"}
