"""Synthesises the client's sound cues into ``assets/sounds/*.wav`` (committed).

Pure Python (``wave`` + ``math``, a fixed random seed), so the files are reproducible:
``python assets/make_assets.py`` rewrites them byte for byte. 22 050 Hz, mono, 16-bit.
Cues (see ``client/sound.py``): turn, snap_won, snap_lost, omerta, deal, card, flip,
penalty, click.
"""
from __future__ import annotations

import math
import os
import random
import struct
import wave

RATE = 22050
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sounds")


def env(t: float, attack: float, decay: float) -> float:
    """Attack-then-exponential-decay envelope (seconds)."""
    if t < attack:
        return t / attack
    return math.exp(-(t - attack) / decay)


def tone(freqs: list[tuple[float, float]], dur: float, attack: float = 0.005, decay: float = 0.2,
         vibrato: float = 0.0) -> list[float]:
    """Sum of sines ``(frequency Hz, amplitude)`` under one envelope."""
    out = []
    for i in range(int(dur * RATE)):
        t = i / RATE
        v = sum(a * math.sin(2 * math.pi * f * t * (1 + vibrato * math.sin(2 * math.pi * 5 * t))) for f, a in freqs)
        out.append(v * env(t, attack, decay))
    return out


def noise(dur: float, rng: random.Random, lowpass: float = 0.5, attack: float = 0.002, decay: float = 0.03,
          sweep: float = 0.0) -> list[float]:
    """Filtered white noise (a card sliding, a thump); ``sweep`` opens the filter."""
    out, y = [], 0.0
    for i in range(int(dur * RATE)):
        t = i / RATE
        k = min(0.99, lowpass + sweep * t / dur)
        y = y + k * (rng.uniform(-1, 1) - y)
        out.append(y * env(t, attack, decay))
    return out


def mix(*parts: tuple[float, list[float]]) -> list[float]:
    """Overlay sample lists, each starting at a delay in seconds."""
    n = max(int(d * RATE) + len(p) for d, p in parts)
    out = [0.0] * n
    for d, p in parts:
        o = int(d * RATE)
        for i, v in enumerate(p):
            out[o + i] += v
    return out


def write(name: str, samples: list[float], gain: float = 0.8) -> None:
    peak = max(1e-9, max(abs(s) for s in samples))
    scale = gain * 32767 / peak
    with wave.open(os.path.join(OUT, f"{name}.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(s * scale)) for s in samples))


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(1862)
    write("turn", mix((0, tone([(659.3, 1), (1318.5, .3)], .45, decay=.18)),
                      (.11, tone([(880.0, 1), (1760, .25)], .5, decay=.22))), 0.55)
    write("snap_won", mix((0, tone([(1046.5, 1), (2093, .4)], .35, decay=.12)),
                          (.07, tone([(1318.5, 1), (2637, .3)], .4, decay=.14)),
                          (.14, tone([(1568, 1), (3136, .3)], .55, decay=.2))), 0.6)
    write("snap_lost", tone([(196, 1), (207.7, .8), (392, .3)], .45, attack=.01, decay=.16), 0.55)
    write("omerta", mix((0, tone([(98, 1), (146.8, .6), (196, .5), (233.1, .4)], 1.6, attack=.02, decay=.55,
                                 vibrato=.004)),
                        (0, noise(.25, rng, .08, decay=.08))), 0.8)
    write("deal", mix(*[(i * .055, noise(.09, rng, .25, decay=.025, sweep=.5)) for i in range(6)]), 0.45)
    write("card", noise(.12, rng, .35, decay=.03, sweep=.4), 0.45)
    write("flip", mix((0, noise(.08, rng, .5, decay=.02)), (.03, noise(.06, rng, .3, decay=.015))), 0.4)
    write("penalty", mix((0, tone([(82.4, 1), (123.5, .5)], .5, decay=.15)), (0, noise(.1, rng, .05, decay=.05))),
          0.6)
    write("click", tone([(1800, 1), (3600, .2)], .04, attack=.001, decay=.008), 0.3)


if __name__ == "__main__":
    main()
