"""What every bot is, and the human-like reaction model (ARCHITECTURE §1): bots stand in
for people at a table, so they must race them at human speed, not at machine speed.

A bot decides from what its seat may see -- the seat's view, the events sent to it and
its legal actions -- never from the full state, so the same bot runs in-process on the
server and as a TCP client (``mafia-bot``). Its randomness is its own seeded
``random.Random``.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol

from shared.rules import Action


@dataclass(frozen=True)
class ReactionModel:
    """Human reaction times: log-normal around ``median_ms`` with shape ``sigma``,
    clipped to ``[floor_ms, cap_ms]`` (milliseconds). No bot reacts faster than
    ``floor_ms``. Human visual reaction is about 200-250 ms at best; the defaults put
    90 % of bot snaps between ~370 and ~670 ms."""

    median_ms: float = 500.0
    sigma: float = 0.18
    floor_ms: float = 300.0
    cap_ms: float = 900.0

    @classmethod
    def from_config(cls, bots: Mapping[str, Any]) -> "ReactionModel":
        """From the ``bots`` section of the config (``reaction_*`` keys)."""
        return cls(
            median_ms=float(bots.get("reaction_median_ms", cls.median_ms)),
            sigma=float(bots.get("reaction_sigma", cls.sigma)),
            floor_ms=float(bots.get("reaction_floor_ms", cls.floor_ms)),
            cap_ms=float(bots.get("reaction_cap_ms", cls.cap_ms)),
        )

    def sample(self, rng: random.Random) -> float:
        """One reaction time in ms, drawn from ``rng``."""
        ms = self.median_ms * math.exp(self.sigma * rng.gauss(0.0, 1.0))
        return min(self.cap_ms, max(self.floor_ms, ms))


@dataclass(frozen=True)
class Decision:
    """A bot's next action and when to send it.

    ``delay_ms`` counts from the update that led to the decision. For a claim in a
    reaction window (``claim`` true) it is the bot's reaction time: the press is stamped
    at (moment the window's card appeared) + ``delay_ms``, through the same arbiter as a
    human press.
    """

    action: Action
    delay_ms: float
    claim: bool = False

    def __init__(self, action: Action, delay_ms: float, claim: bool = False):
        # the dataclass's own __init__ without its object.__setattr__ calls (hot path)
        d = self.__dict__
        d["action"] = action
        d["delay_ms"] = delay_ms
        d["claim"] = claim


@dataclass(frozen=True)
class Think:
    """A decision that needs a search (the hard bots, ``shared.bots.search``): run
    ``run(request)`` (in a worker process in production), then ``finish(result)`` gives
    the Decision."""

    request: dict[str, Any]  # picklable plain data (JSON types): game, model, seat, seed, iterations, budget_ms, ...
    fallback: Decision  # what to play if the search fails or times out (the normal bot's choice)
    finish: Callable[[Any], Decision]  # maps run()'s result to the Decision (with the bot's human delay)


class Bot(Protocol):
    """A player program for one seat of one game."""

    seat: int

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """Learn from an update: the wire-form events this seat received and its view."""

    def decide(self, view: dict[str, Any], legal: list[Action]) -> "Decision | Think | None":
        """The next action among ``legal`` (non-empty), or None to wait; a hard bot may
        return a :class:`Think` to be searched first (the search module resolves it)."""
