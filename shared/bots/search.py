"""The hard bots' search (ARCHITECTURE §3): determinized Monte Carlo over a seat's
information set, in a form a worker process can run.

A hard bot's ``decide(view, legal)`` returns a :class:`Think` when the decision is worth
a search: ``request`` is plain JSON data holding *only what the seat knows* (its view's
facts, what it inferred from the events it saw -- never the full state), ``fallback``
the normal bot's choice, ``finish`` the mapping from :func:`run`'s result to the
:class:`~shared.bots.base.Decision`. :func:`run` is pure and top-level, so production
runs it in a worker process; :func:`resolve` runs it in-process.

The search is **flat determinized Monte Carlo** (perfect-information Monte Carlo, as in
Buro et al. 2009 for Skat): each iteration samples one *determinization* -- a full state
consistent with the seat's information set (its own cards exact, public cards in place,
the voids and holdings revealed by play respected) -- and scores every candidate action
in that same world (common random numbers: the candidates differ by their own effect,
not by the luck of the sample) with a playout by a lean greedy policy, truncated where a
game needs it and scored by the game's evaluation. The candidate with the best mean
wins; ties go to the lowest index (the normal bot's choice is put first, so the search
departs from it only for a measured gain).

What is particular to a game is its **search model**, a module named by the game's
hard bot's choosing, named in its request (``request["model"]``, a module
``shared.games.<game>.search``: this module imports no game, so the games' bots may
import it) with::

    candidates(request) -> list            # the actions searched, index 0 = the fallback
    determinize(request, rng) -> world     # a full state sampled from the seat's knowledge
    value(world, request, candidate, rng) -> float   # play candidate, playout, evaluate

Request keys read here: ``game`` (wire name), ``seed`` (int), ``iterations`` (number of
determinizations), ``budget_ms`` (CPU cap, ms of :data:`CPU_CLOCK`). The iteration
count decides the result; the budget only caps a run on an overloaded machine. ``shared``
reads no clock itself: the processes that run searches (the server's workers, the
benchmarks, ``mafia-bot``) set :data:`CPU_CLOCK` to ``time.thread_time``; without it the
iteration count alone bounds a search.

The server runs :func:`run` in its worker processes (:mod:`server.thinkers`), so the
reactor never waits for a search; ``game == ECHO`` is that pool's self-test.
"""
from __future__ import annotations

import importlib
import random
from typing import Any, Callable

from shared.bots.base import Decision, Think

__all__ = ["ECHO", "ITERATION_SCALE", "Think", "iterations", "resolve", "run", "search_model"]

#: ``request["game"]`` of the worker pool's self-test: :func:`run` answers
#: ``request["answer"]`` after spinning the CPU for about ``request.get("spin_ms", 0)`` ms
#: (a stand-in for a search's cost in tests and benchmarks/bot_stall.py).
ECHO = "_echo"
#: The thread's CPU time in seconds (``time.thread_time``), set by the process that runs
#: searches; None: no budget, the iteration count alone bounds a search.
CPU_CLOCK: Callable[[], float] | None = None
#: Loop turns of the self-test's spin per ms (about: a spin, not a clock).
SPIN_PER_MS = 11000

#: factor on every hard bot's iteration count (tests lower it to play whole matches
#: quickly; 1.0 is the level as benchmarked)
ITERATION_SCALE = 1.0


def iterations(count: int) -> int:
    """``count`` determinizations scaled by :data:`ITERATION_SCALE` (at least 1)."""
    return max(1, round(count * ITERATION_SCALE))


def search_model(name: Any) -> Any:
    """The search model module ``name`` (``shared.games.<game>.search``); raises
    ``KeyError`` for any other name or one that does not import."""
    parts = name.split(".") if isinstance(name, str) else []
    if len(parts) != 4 or parts[:2] != ["shared", "games"] or parts[3] != "search" or not parts[2].isidentifier():
        raise KeyError(f"no search model {name!r}")
    try:
        return importlib.import_module(name)
    except ImportError:
        raise KeyError(f"no search model {name!r}") from None


def run(request: dict[str, Any]) -> Any:
    """Flat determinized Monte Carlo for ``request`` (see the module docstring).

    Returns ``{"choice": index of the best candidate, "values": mean value per
    candidate, "iterations": determinizations played}``. Deterministic given
    ``request`` unless the CPU budget (``budget_ms``, thread time) runs out first: the
    budget is checked after every playout, an unfinished iteration is dropped, and with
    no iteration finished the choice is candidate 0 (the normal bot's). Raises
    ``KeyError`` for an unknown search model. The pool's self-test (``game`` :data:`ECHO`)
    returns ``request["answer"]`` after its spin."""
    if request.get("game") == ECHO:
        x = 1
        for _ in range(int(float(request.get("spin_ms", 0)) * SPIN_PER_MS)):  # CPU, not sleep
            x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        return request.get("answer")
    model = search_model(request.get("model"))
    rng = random.Random(int(request["seed"]))
    candidates = model.candidates(request)
    totals = [0.0] * len(candidates)
    clock = CPU_CLOCK if CPU_CLOCK is not None else (lambda: 0.0)
    deadline = clock() + float(request.get("budget_ms", 400.0)) / 1000.0
    done = 0
    for _ in range(int(request["iterations"])):
        world = model.determinize(request, rng)
        seed = rng.getrandbits(32)
        # each candidate's playout draws from the same stream: common random numbers
        sample: list[float] = []
        for cand in candidates:
            sample.append(model.value(world, request, cand, random.Random(seed)))
            if clock() > deadline:
                break
        if len(sample) < len(candidates):
            break  # out of budget inside an iteration: it is dropped (samples stay paired)
        totals = [t + v for t, v in zip(totals, sample)]
        done += 1
        if clock() > deadline:
            break
    values = [t / done if done else 0.0 for t in totals]
    best = max(range(len(values)), key=lambda i: (values[i], -i)) if values else 0
    return {"choice": best, "values": values, "iterations": done}


def resolve(decision: Decision | Think | None) -> Decision | None:
    """The Decision of ``decision`` now, synchronously: a Think's search runs in this
    process (``finish(run(request))``, its fallback if the search raises); a Decision or
    None comes back unchanged."""
    if isinstance(decision, Think):
        try:
            result = run(decision.request)
        except Exception:  # a search must never cost the seat its turn
            return decision.fallback
        return decision.finish(result)
    return decision
