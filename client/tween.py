"""Tweens: easing curves and time-based interpolation for card animations.

Everything here is pure arithmetic on floats; times are **milliseconds** on the scene's
own clock (a float advanced by ``update(dt)``), positions are pixels. A tween never
sleeps and nothing waits for one: the scene asks "where is this card at time t?" each
frame.
"""
from __future__ import annotations

import math
from typing import Callable

Easing = Callable[[float], float]


def ease_out_quad(p: float) -> float:
    return 1.0 - (1.0 - p) * (1.0 - p)


def ease_in_out_cubic(p: float) -> float:
    if p < 0.5:
        return 4.0 * p * p * p
    q = -2.0 * p + 2.0
    return 1.0 - q * q * q / 2.0


def ease_out_cubic(p: float) -> float:
    q = 1.0 - p
    return 1.0 - q * q * q


def ease_out_back(p: float, overshoot: float = 1.70158) -> float:
    """Ends slightly past 1 then settles: a card that "lands"."""
    c3 = overshoot + 1.0
    q = p - 1.0
    return 1.0 + c3 * q * q * q + overshoot * q * q


def progress(t_ms: float, start_ms: float, duration_ms: float) -> float:
    """Fraction of a tween done at ``t_ms``, clamped to [0, 1] (1 for a zero duration)."""
    if duration_ms <= 0:
        return 1.0 if t_ms >= start_ms else 0.0
    return min(1.0, max(0.0, (t_ms - start_ms) / duration_ms))


def lerp(a: float, b: float, p: float) -> float:
    return a + (b - a) * p


def lerp_point(a: tuple[float, float], b: tuple[float, float], p: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * p, a[1] + (b[1] - a[1]) * p)


def arc_point(a: tuple[float, float], b: tuple[float, float], p: float,
              lift: float) -> tuple[float, float]:
    """Point at fraction ``p`` on a path from ``a`` to ``b`` bowed upwards by ``lift``
    pixels at its middle (a card tossed rather than slid)."""
    x, y = lerp_point(a, b, p)
    return (x, y - lift * 4.0 * p * (1.0 - p))


def flip_scale(p: float) -> tuple[float, bool]:
    """A card flip at fraction ``p``: ``(x_scale, face_up)``.

    The card squashes horizontally to its edge (scale 0 at p = 0.5) showing its back,
    then widens again showing its face. ``x_scale`` is in [0, 1].
    """
    return abs(math.cos(math.pi * p)), p >= 0.5


class Follower:
    """A point that glides towards a moving target (critically damped, frame-rate
    independent): card slots sliding into place when the layout changes.

    ``half_life_ms`` is the time to halve the remaining distance.
    """

    __slots__ = ("x", "y", "half_life_ms")

    def __init__(self, x: float, y: float, half_life_ms: float = 45.0):
        self.x, self.y = x, y
        self.half_life_ms = half_life_ms

    def step(self, tx: float, ty: float, dt_ms: float) -> None:
        k = 1.0 - 0.5 ** (dt_ms / self.half_life_ms) if self.half_life_ms > 0 else 1.0
        self.x += (tx - self.x) * k
        self.y += (ty - self.y) * k
        if abs(tx - self.x) < 0.5 and abs(ty - self.y) < 0.5:
            self.x, self.y = tx, ty
