"""server.thinkers: the bots' searches run in worker processes -- lazily started, answered
or failed within their budget, stopped with the server leaving no child behind."""
from __future__ import annotations

import os

import pytest
import pytest_twisted
from twisted.internet import defer, task

from server import thinkers
from server.thinkers import SearchTimeout, Thinkers, default_size


class FakePool:
    """An ampoule pool's ``doWork``/``startAWorker``/``stop``: each call waits in
    ``calls`` until the test answers it."""

    def __init__(self, size):
        self.size = size
        self.calls: list[tuple[dict, float, defer.Deferred]] = []
        self.processes: set = set()
        self.stopped = False

    def doWork(self, command, request, _timeout):
        d = defer.Deferred()
        self.calls.append((request, _timeout, d))
        return d

    def startAWorker(self):
        self.processes.add(object())

    def stop(self):
        self.stopped = True
        return defer.succeed(None)


def make(clock):
    made: list[FakePool] = []

    def pool(size):
        made.append(FakePool(size))
        return made[-1]

    return Thinkers(clock, 3, make_pool=pool), made


def outcome(d):
    got: list = []
    d.addBoth(got.append)
    return got


def test_the_pool_starts_with_the_first_search_and_answers_it():
    clock = task.Clock()
    pool, made = make(clock)
    assert made == []  # no search, no worker
    got = outcome(pool.think({"game": "_echo", "answer": 7, "budget_ms": 200}))
    assert len(made) == 1 and made[0].size == 3
    request, timeout_s, d = made[0].calls[0]
    assert request["answer"] == 7 and timeout_s == pytest.approx(0.7)  # budget + margin
    d.callback({"result": 7})
    assert got == [7]
    clock.advance(10)  # the deadline was cancelled
    assert got == [7] and pool.failures == 0


def test_a_search_over_its_budget_fails_and_its_late_answer_is_ignored():
    clock = task.Clock()
    pool, made = make(clock)
    got = outcome(pool.think({"game": "_echo", "budget_ms": 100}))
    clock.advance(0.599)
    assert got == []
    clock.advance(0.002)
    assert len(got) == 1 and got[0].check(SearchTimeout) and pool.failures == 1
    made[0].calls[0][2].callback({"result": "late"})  # the worker answers after all
    assert len(got) == 1


def test_a_failed_search_fails_its_deferred():
    clock = task.Clock()
    pool, made = make(clock)
    got = outcome(pool.think({"game": "nope"}))
    made[0].calls[0][2].errback(ValueError("ValueError: no search for game 'nope'"))
    assert got[0].check(ValueError) and pool.failures == 1
    clock.advance(5)
    assert len(got) == 1


def test_a_stopped_pool_fails_at_once_and_warm_starts_one_worker():
    clock = task.Clock()
    pool, made = make(clock)
    pool.warm()
    pool.warm()
    assert len(made[0].processes) == 1
    outcome(pool.stop())
    assert made[0].stopped
    got = outcome(pool.think({"game": "_echo"}))
    assert got[0].check(RuntimeError) and len(made) == 1


def test_the_size_is_one_per_core_but_the_reactors():
    assert default_size(0, cores=2) == 1 and default_size(0, cores=1) == 1
    assert default_size(0, cores=8) == 7 and default_size(3, cores=8) == 3


def test_big_requests_cross_as_several_amp_values():
    box: dict = {}
    value = {"events": [str(i) * 1000 for i in range(200)]}
    thinkers.Pickled().toBox(b"request", box, {"request": value}, None)
    assert int(box[b"request"]) > 1 and all(len(v) <= 65535 for v in box.values())
    back: dict = {}
    thinkers.Pickled().fromBox(b"request", box, back, None)
    assert back["request"] == value


@pytest_twisted.inlineCallbacks
def test_a_real_worker_answers_from_another_process_and_stops_leaving_no_child():
    from twisted.internet import reactor

    pool = Thinkers(reactor, 1)
    try:
        answer = yield pool.think({"game": "_echo", "answer": {"x": [1, 2]}, "spin_ms": 20,
                                   "budget_ms": 3000})
        assert answer == {"x": [1, 2]}
        pids = [child.transport.transport.pid for child in pool.pool.processes]
        assert len(pids) == 1 and pids[0] != os.getpid()
        assert os.path.exists(f"/proc/{pids[0]}")
    finally:
        yield pool.stop()
    for _ in range(100):  # the child's exit is reaped by the reactor (SIGCHLD)
        if not os.path.exists(f"/proc/{pids[0]}"):
            break
        yield task.deferLater(reactor, 0.01, lambda: None)
    assert not os.path.exists(f"/proc/{pids[0]}")  # no zombie either: it was reaped


def test_searches_wait_for_a_free_worker_and_are_dropped_when_cancelled_or_late():
    clock = task.Clock()
    pool, made = make(clock)  # 3 workers
    got = [outcome(pool.think({"game": "_echo", "answer": i, "budget_ms": 100})) for i in range(5)]
    assert [c[0]["answer"] for c in made[0].calls] == [0, 1, 2]  # two wait for a worker
    pool_answer = outcome(pool.think({"game": "_echo", "answer": 5, "budget_ms": 100}))
    d = pool.think({"game": "_echo", "answer": 6, "budget_ms": 100})
    d.addErrback(lambda f: None)
    d.cancel()  # its bot decided again: never given to a worker
    made[0].calls[0][2].callback({"result": 0})
    assert got[0] == [0] and [c[0]["answer"] for c in made[0].calls] == [0, 1, 2, 3]
    clock.advance(0.601)  # the rest are late: the waiting ones are never run
    assert all(g and not isinstance(g[0], int) for g in got[1:]) and pool_answer[0].check(SearchTimeout)
    for call in made[0].calls[1:]:
        call[2].callback({"result": "late"})
    assert [c[0]["answer"] for c in made[0].calls] == [0, 1, 2, 3]


def test_the_stall_benchmark_fails_when_it_measured_nothing():
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, str(root / "benchmarks" / "bot_stall.py"), "--tables", "0",
                          "--seconds", "0.05"], cwd=root, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "measured nothing" in out.stderr
