"""The worker pool that runs the bots' searches (:mod:`shared.bots.search`) in other
processes, so a hard bot's search never stalls the reactor (docs/ARCHITECTURE.md "Bots").

:class:`Thinkers` hands each request to an ``ampoule`` process pool (AMP over the
children's pipes, Twisted-native): :class:`SearchChild` runs
``shared.bots.search.run(request)`` and sends its result back. Requests and results cross
as pickles cut into AMP values (:class:`Pickled`), so a request is not limited to one AMP
value's 64 KiB.

* Workers start with the first search (a server with no hard bot starts none), up to
  ``size`` at once; an idle one stops after :data:`IDLE_S`. Searches beyond wait here,
  oldest first; one cancelled (its bot decided again) or late while waiting is dropped
  and costs no CPU.
* A search answers within its budget (``request["budget_ms"]``, default
  :data:`DEFAULT_BUDGET_MS`) plus :data:`MARGIN_MS`, or its Deferred fails with
  :class:`SearchTimeout`; a worker whose search ran that long itself (hung) is killed
  and replaced, as is a worker that crashed. A failed search
  fails its Deferred: the bot plays its fallback (``Think.fallback``) -- the table never
  waits forever and never sees the exception.
* :meth:`Thinkers.stop` stops every worker (the server calls it before the reactor shuts
  down), leaving no child process behind.
"""
from __future__ import annotations

import os
import pickle
from collections import deque
from typing import Any, Callable

from ampoule import main, pool
from ampoule.child import AMPChild
from twisted.internet import defer
from twisted.logger import Logger
from twisted.protocols import amp

log = Logger()

#: A search's time budget (ms) when its request gives none.
DEFAULT_BUDGET_MS = 1000.0
#: How long (ms) past its budget a search may take before its bot plays the fallback:
#: a worker's start-up, the pipes, a busy machine.
MARGIN_MS = 500.0
#: How long (s) the server's shutdown waits for the workers to stop before killing them.
STOP_S = 3.0
#: An idle worker stops after this many seconds (the next search starts one again).
IDLE_S = 300
#: Bytes of one AMP value (AMP allows at most 65,535).
_CHUNK = 60_000


class SearchTimeout(Exception):
    """A search did not answer within its budget plus :data:`MARGIN_MS`."""


class Pickled(amp.Argument):
    """Any picklable value, pickled and cut into AMP values of :data:`_CHUNK` bytes
    (keys ``name``, ``name.1``, ``name.2``...: AMP keys are at most 255 bytes, values at
    most 65,535). Only this server's own processes speak it."""

    def toBox(self, name: bytes, strings: dict, objects: dict, proto: Any) -> None:
        data = pickle.dumps(objects[name.decode()], protocol=pickle.HIGHEST_PROTOCOL)
        parts = [data[i:i + _CHUNK] for i in range(0, len(data), _CHUNK)] or [b""]
        strings[name] = str(len(parts)).encode()
        for i, part in enumerate(parts):
            strings[name + b"." + str(i).encode()] = part

    def fromBox(self, name: bytes, strings: dict, objects: dict, proto: Any) -> None:
        count = int(strings[name])
        data = b"".join(strings[name + b"." + str(i).encode()] for i in range(count))
        objects[name.decode()] = pickle.loads(data)


class Search(amp.Command):
    """Run ``shared.bots.search.run(request)`` in the worker; answer its ``result``."""

    arguments = [(b"request", Pickled())]
    response = [(b"result", Pickled())]
    errors = {ValueError: b"SEARCH_FAILED"}


class SearchChild(AMPChild):
    """A worker process (started by name in a fresh interpreter): answers :class:`Search`."""

    @Search.responder
    def search(self, request: Any) -> dict[str, Any]:
        import time

        from shared.bots import search as search_mod
        from shared.bots.search import run

        search_mod.CPU_CLOCK = time.thread_time  # each search's budget counts its own CPU
        try:
            return {"result": run(request)}
        except Exception as e:  # the parent logs it and plays the fallback
            raise ValueError(f"{type(e).__name__}: {e}") from None


#: The workers' start-up code: ampoule's, logging warnings and errors only (every child
#: line reaches the server's log as an error).
_BOOTSTRAP = main.BOOTSTRAP.replace("defaultLogLevel=logger.LogLevel.info",
                                    "defaultLogLevel=logger.LogLevel.warn")


def default_size(configured: int = 0, cores: int | None = None) -> int:
    """Workers of the pool: ``configured`` when above 0, else one per core minus one
    (the reactor's), at least 1."""
    if configured > 0:
        return configured
    cores = cores if cores is not None else (os.cpu_count() or 1)
    return max(1, cores - 1)


def ampoule_pool(size: int) -> Any:
    """A started ``ampoule`` pool of up to ``size`` :class:`SearchChild` workers, none
    running yet."""
    starter = main.ProcessStarter(bootstrap=_BOOTSTRAP, packages=("twisted", "shared", "server"))
    p = pool.ProcessPool(SearchChild, min=0, max=size, maxIdle=IDLE_S, recycleAfter=0,
                         starter=starter)
    p.start()
    return p


class _Job:
    """One search: its request, when its answer is due (the clock's seconds), its budget
    plus margin (s), its Deferred and its deadline call."""

    def __init__(self, request: dict[str, Any], due: float, budget_s: float):
        self.request = request
        self.due = due
        self.budget_s = budget_s
        self.answer: defer.Deferred = defer.Deferred()
        self.deadline: Any = None


class Thinkers:
    """Searches run in worker processes: ``think(request)`` returns a Deferred firing with
    the search's result, failing with :class:`SearchTimeout` after its budget plus
    :data:`MARGIN_MS`, or with the worker's failure. ``clock``: the server's
    ``IReactorTime`` (a ``task.Clock`` in tests); ``size``: the most workers at once
    (:func:`default_size`); ``make_pool(size)``: the process pool (:func:`ampoule_pool`;
    a fake in tests), made at the first search."""

    def __init__(self, clock: Any, size: int, make_pool: Callable[[int], Any] = ampoule_pool):
        self.clock = clock
        self.size = max(1, int(size))
        self._make_pool = make_pool
        self.pool: Any = None  # made at the first search
        self.stopped = False
        self.searches = 0  # asked so far
        self.failures = 0  # failed or timed out
        self._waiting: deque[_Job] = deque()  # searches waiting for a free worker
        self._running = 0  # searches given to the pool

    def think(self, request: dict[str, Any]) -> defer.Deferred:
        """The result of ``shared.bots.search.run(request)``, computed in a worker.
        Cancelling the Deferred (its bot decided again) drops a search still waiting for
        a worker."""
        if self.stopped:
            return defer.fail(RuntimeError("the server is stopping"))
        self.searches += 1
        budget_s = (float(request.get("budget_ms", DEFAULT_BUDGET_MS)) + MARGIN_MS) / 1000.0
        job = _Job(request, self.clock.seconds() + budget_s, budget_s)
        job.answer = defer.Deferred(lambda _: self._drop(job))

        def late() -> None:
            if not job.answer.called:
                self.failures += 1
                log.warn("a search over its budget ({ms:.0f} ms): its bot plays its fallback",
                         ms=budget_s * 1000.0)
                self._drop(job)
                job.answer.errback(SearchTimeout(f"no answer within {budget_s * 1000.0:.0f} ms"))

        job.deadline = self.clock.callLater(budget_s, late)
        self._waiting.append(job)
        self._next()
        return job.answer

    def _drop(self, job: "_Job") -> None:
        """``job`` is answered or abandoned: out of the queue, its deadline cancelled."""
        if job in self._waiting:
            self._waiting.remove(job)
        if job.deadline is not None and job.deadline.active():
            job.deadline.cancel()

    def _next(self) -> None:
        """Give the waiting searches to the free workers, oldest first. A search waits
        here, not in the pool, so one abandoned or late meanwhile costs no CPU. A worker
        is killed only when its own search runs longer than its whole budget (hung): a
        search that waited in the queue is let finish, its answer dropped if late --
        killing it would make a busy pool restart workers, each start costing CPU."""
        while self._waiting and self._running < self.size and not self.stopped:
            job = self._waiting.popleft()
            if job.due <= self.clock.seconds():
                continue  # its deadline fires now
            if self.pool is None:
                self.pool = self._make_pool(self.size)
            self._running += 1
            self.pool.doWork(Search, request=job.request, _timeout=job.budget_s).addBoth(self._done, job)

    def _done(self, result: Any, job: "_Job") -> None:
        self._running -= 1
        self._drop(job)
        answer = job.answer
        if not answer.called:  # else the bot played its fallback already
            if isinstance(result, dict):
                answer.callback(result["result"])
            else:
                self.failures += 1
                log.warn("a search failed: {why}; its bot plays its fallback", why=result.getErrorMessage())
                answer.errback(result)
        self._next()

    def warm(self) -> None:
        """Start a worker now if none runs (a hard bot sat down): its first search need
        not wait for a Python process to start."""
        if self.stopped:
            return
        if self.pool is None:
            self.pool = self._make_pool(self.size)
        if not self.pool.processes:
            self.pool.startAWorker()

    def stop(self) -> defer.Deferred:
        """Stop every worker; later searches fail at once. Fires once they are gone, or
        after :data:`STOP_S` at the latest, the workers still there then killed (the
        server's shutdown never waits on a stuck child)."""
        self.stopped = True
        for job in list(self._waiting):
            self._drop(job)
            job.answer.errback(RuntimeError("the server is stopping"))
        pool, self.pool = self.pool, None
        if pool is None:
            return defer.succeed(None)
        stopped = defer.maybeDeferred(pool.stop)
        done: defer.Deferred = defer.Deferred()

        def kill() -> None:
            for child in list(getattr(pool, "processes", ())):
                try:
                    child.transport.signalProcess("KILL")
                except Exception:  # gone already
                    pass
            if not done.called:
                done.callback(None)

        timer = self.clock.callLater(STOP_S, kill)

        def gone(_: Any) -> None:
            if timer.active():
                timer.cancel()
            if not done.called:
                done.callback(None)

        stopped.addBoth(gone)
        return done
