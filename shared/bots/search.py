"""Decisions that need a search (issue 35, the ``hard`` bots): the contract between a bot
and whoever runs its search.

A bot's ``decide`` may return a :class:`Think` instead of a :class:`Decision`: the search
``run(think.request)`` is pure, deterministic and importable in a fresh process, so the
server runs it in a worker process (:mod:`server.thinkers`) and the reactor never waits
for it; :func:`resolve` runs it in-process instead (tests, benchmarks, ``mafia-bot``).

This module is the minimal form of that contract: :func:`run` knows only the worker
pool's self-test request (``game == "_echo"``); the hard bots' own searches plug in here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from shared.bots.base import Decision

__all__ = ["ECHO", "Think", "resolve", "run"]

#: ``request["game"]`` of the worker pool's self-test: :func:`run` answers
#: ``request["answer"]`` after spinning the CPU for about ``request.get("spin_ms", 0)`` ms
#: (a stand-in for a search's cost in tests and benchmarks/bot_stall.py).
ECHO = "_echo"
#: Loop turns of the self-test's spin per ms (about; ``shared`` reads no clock).
SPIN_PER_MS = 11000


@dataclass(frozen=True)
class Think:
    """A decision that needs a search: run ``run(request)`` (in a worker process in
    production), then ``finish(result)`` gives the Decision.

    ``request``: picklable plain data (JSON types): ``game``, ``seat``, ``seed``,
    ``iterations``, ``budget_ms`` (the search's time budget, ms), ...; ``fallback``: what
    to play if the search fails or times out (the normal bot's choice)."""

    request: dict[str, Any]
    fallback: Decision
    finish: Callable[[Any], Decision]


def run(request: dict[str, Any]) -> Any:
    """The result of the search ``request`` asks for. Pure, top-level and deterministic
    (its randomness comes from ``request["seed"]``). Raises ``ValueError`` for a request
    it does not know."""
    if request.get("game") == ECHO:
        x = 1
        for _ in range(int(float(request.get("spin_ms", 0)) * SPIN_PER_MS)):  # CPU, not sleep
            x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        return request.get("answer")
    raise ValueError(f"no search for game {request.get('game')!r}")


def resolve(decision: Decision | Think | None) -> Decision | None:
    """``decision`` itself, or for a :class:`Think` its search run here, synchronously,
    and finished. An exception of the search propagates (in-process callers are tests
    and tools, which should see it)."""
    if isinstance(decision, Think):
        return decision.finish(run(decision.request))
    return decision
