"""Clock sync per connection: the offset estimator and the ping schedule."""
from __future__ import annotations

import random

from twisted.internet import task

from server.clocksync import ClockSync, OffsetEstimator, ping_wheel
from shared.config import merge


def test_offset_estimator_combines_the_fastest_trips_each_way():
    # True offset 1000 ms, an 80 ms path each way with ±10 ms of independent jitter.
    rng = random.Random(1)
    worst_best_rtt = worst = 0.0
    for _ in range(50):
        est = OffsetEstimator()
        t = 0.0
        for _ in range(32):
            up, down = 80 + rng.uniform(-10, 10), 80 + rng.uniform(-10, 10)
            est.add(t, t + up + down, t + up - 1000.0)
            t += 100
        worst = max(worst, abs(est.offset_ms - 1000.0))
        best = sorted(est.samples)[:3]  # what picking low-RTT samples alone would give
        worst_best_rtt = max(worst_best_rtt, abs(sorted(s[1] for s in best)[1] - 1000.0))
    assert worst < 2.0
    assert worst < worst_best_rtt


def test_offset_estimator_falls_back_to_low_rtt_samples_when_bounds_contradict():
    # The client's clock jumped by 50 ms between samples: no offset fits every sample;
    # the three fastest samples (after the jump) win.
    est = OffsetEstimator()
    for k in range(10):
        est.add(k * 100.0, k * 100.0 + 20, k * 100.0 + 10 - 1000.0)  # offset 1000, slow
    for k in range(10, 13):
        est.add(k * 100.0, k * 100.0 + 0.4, k * 100.0 + 0.2 - 1050.0)  # offset 1050, fast
    assert abs(est.offset_ms - 1050.0) < 1e-6


def test_offset_estimator_forgets_old_samples_and_ignores_time_travel():
    est = OffsetEstimator(window=4)
    est.add(0, 0.1, -50)  # a very good but old sample (offset 50.05)
    for k in range(4):
        est.add(1000 + k, 1000 + k + 2, 1000 + k + 1 - 7)
    assert abs(est.offset_ms - 7) < 1e-9
    est.add(10, 5, 0)  # pong before ping: ignored
    assert len(est.samples) == 4


def test_rtt_percentiles_and_bound():
    est = OffsetEstimator()
    assert est.rtt_bound(5, 150) == 150  # no sample yet: the cap
    for r in [1.0] * 30 + [40.0, 300.0]:
        est.add(0, r, 0)
    assert est.rtt_percentile(50) == 1.0
    assert est.rtt_percentile(99) == 300.0
    assert est.rtt_bound(5, 150) == 150
    est2 = OffsetEstimator()
    for _ in range(10):
        est2.add(0, 0.3, 0)
    assert est2.rtt_bound(5, 150) == 5  # the floor


def _sync(timing=None):
    clock = task.Clock()
    sent = []
    cfg = merge({"timing": timing or {}})["timing"]
    sync = ClockSync(lambda t, **f: sent.append({"type": t, **f}), clock, cfg)
    return clock, sent, sync


def test_burst_then_one_ping_a_second_and_fast_only_while_a_window_is_open():
    clock, sent, sync = _sync({"ping_burst": 8, "ping_interval_ms": 1000,
                               "ping_interval_round_ms": 1000, "ping_interval_window_ms": 100})
    sync.start()
    clock.advance(0.05)
    assert [m["type"] for m in sent] == ["ping"] * 8
    sent.clear()
    for _ in range(100):
        clock.advance(0.1)
    assert 9 <= len(sent) <= 11  # 10 s outside a match: about one a second
    sync.set_playing(True)
    assert len(sent) in (10, 11, 12)  # a match starting pings at once
    sent.clear()
    for _ in range(100):
        clock.advance(0.1)
    assert 9 <= len(sent) <= 11  # 10 s of a match without a window: still one a second
    sync.set_window(True)
    sent.clear()
    for _ in range(20):
        clock.advance(0.1)
    assert 18 <= len(sent) <= 21  # 2 s of an open reaction window: every 100 ms
    sync.set_window(False)
    sent.clear()
    for _ in range(50):
        clock.advance(0.1)
    assert 4 <= len(sent) <= 6  # closed: back to one a second
    sync.set_window(True)
    sync.set_playing(False)  # the match ended: no fast pings whatever the window said
    sent.clear()
    for _ in range(30):
        clock.advance(0.1)
    assert 2 <= len(sent) <= 4
    sync.stop()
    clock.advance(10)
    assert len([m for m in sent if m["type"] == "ping"]) <= 4
    assert not clock.getDelayedCalls()


def test_pings_of_many_connections_come_due_together():
    clock = task.Clock()
    sent = []
    cfg = merge({})["timing"]
    syncs = []
    for k in range(200):  # connections greeted at scattered moments
        clock.pump([0.001] * (3 + k % 7))
        sync = ClockSync(lambda t, **f: sent.append(clock.seconds()), clock, cfg)
        sync.start()
        sync.set_playing(True)
        syncs.append(sync)
    clock.pump([0.001] * 2000)
    sent.clear()
    clock.pump([0.001] * 5000)
    assert 950 <= len(sent) <= 1050
    # on a 50 ms grid: at most 20 moments a second (each connection's own: about 200)
    assert len({round(t, 6) for t in sent}) <= 105
    # one reactor timer per grid slot with pings due, not one per connection
    assert len(clock.getDelayedCalls()) <= 21 and len(ping_wheel(clock)) == 200
    for sync in syncs[:100]:
        sync.set_window(True)  # 250 ms now: moved to an earlier slot
    assert len(ping_wheel(clock)) == 200 and len(clock.getDelayedCalls()) <= 26
    for sync in syncs:
        sync.stop()
    assert len(ping_wheel(clock)) == 0 and not clock.getDelayedCalls()  # no timer left behind


def test_percentiles_are_kept_incrementally_and_match_a_full_sort():
    rng = random.Random(3)
    est = OffsetEstimator(rtt_window=50)
    seen = []
    for k in range(400):
        r = rng.expovariate(1 / 5.0)
        est.add(k * 10.0, k * 10.0 + r, k * 10.0 + r / 2)
        seen.append((k * 10.0 + r) - k * 10.0)
        last = sorted(seen[-50:])
        for p in (50, 90, 99):
            rank = max(1, min(len(last), -(-len(last) * p // 100)))
            assert est.rtt_percentile(p) == last[int(rank) - 1]


def test_offset_bounds_are_kept_incrementally_and_match_the_whole_window():
    """The highest low bound and the lowest high bound of the last ``window`` samples
    (kept as sliding-window extremes) are those a scan of the window finds, whatever
    the order the bounds come in; so is the offset (the middle of the intersection, or
    the fallback when it is empty)."""
    rng = random.Random(7)
    for window in (1, 4, 32):
        est = OffsetEstimator(window=window)
        samples = []
        for k in range(600):
            t0 = k * 10.0
            up, down = rng.expovariate(1 / 3.0), rng.expovariate(1 / 3.0)
            drift = rng.choice([0.0, 0.0, 0.0, rng.uniform(-20, 20)])  # a clock that jumps
            tc = t0 + up - 1000.0 + drift
            est.add(t0, t0 + up + down, tc)
            samples.append((t0 - tc, t0 + up + down - tc))
            last = samples[-window:]
            low, high = max(lo for lo, _ in last), min(hi for _, hi in last)
            if low <= high:
                assert est.offset_ms == (low + high) / 2.0
            else:
                best = sorted(est.samples)[:3]
                offsets = sorted(s[1] for s in best)
                mid = len(offsets) // 2
                assert est.offset_ms == (offsets[mid] if len(offsets) % 2
                                         else (offsets[mid - 1] + offsets[mid]) / 2.0)


def test_pong_gives_offset_and_pushes_clock():
    clock, sent, sync = _sync({"ping_burst": 1})
    clock.advance(500.0)  # server time 500 000 ms
    sync.start()
    ping = sent[-1]
    clock.advance(0.002)  # 2 ms RTT; the client clock reads 1000 at the midpoint
    sync.on_pong(ping["id"], 1000.0)
    assert abs(sync.offset_ms - (500_001.0 - 1000.0)) < 1e-6
    clock_msgs = [m for m in sent if m["type"] == "clock"]
    assert clock_msgs and abs(clock_msgs[-1]["offset_ms"] - sync.offset_ms) < 1e-9
    assert abs(clock_msgs[-1]["rtt_ms"] - 2.0) < 1e-6
    sync.on_pong(ping["id"], 5.0)  # a duplicate or unknown pong is ignored
    assert len(sync.estimator.samples) == 1
    sync.stop()
