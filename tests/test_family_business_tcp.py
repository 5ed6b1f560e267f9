"""Family Business over real TCP (issue "Family Business", acceptance):

* two Family Influence counters claimed by a near client (direct) and a far one (behind
  an 80 ms relay each way) are ordered by reaction time -- the quicker reactor wins
  whichever of them it is, and the other is told by how much it was too slow;
* a 6-player match of ``mafia-bot`` bots finishes, and the seed fixes its result;
* a match killed with SIGKILL in the middle of a Mob War restarts from its log and ends
  with the result of the same seed played without a crash.
"""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from twisted.internet import defer, task

from client.net import now_ms
from shared import matchlog
from shared.games import family_business as fb
from tests.test_loopback import FarAndNear
from tests.test_loopback_processes import GENEROUS_CLAIM_BOUNDS, REAL_TIME
from tests.test_loopback_restart import Server, actions_in, bot, result_of

pytestmark = REAL_TIME

# seat 0 (far) and seat 1 (near) each hold a Family Influence; seat 2 (the dealer) holds
# contracts and plays first; the draw pile starts with one more contract.
HAND = ["family_influence", "lam", "lam", "police_protection", "substitution"]
DECK = ["family_influence", "lam", "lam", "police_protection", "substitution",
        "family_influence", "intrigue", "pay_off", "police_protection", "substitution",
        "contract", "contract", "contract", "contract", "contract", "contract"]


def _counter_window(msg: dict[str, Any]) -> bool:
    return msg["type"] == "update" and (msg["view"].get("window") or {}).get("kind") == "counter"


def _counter_card(msg: dict[str, Any]) -> int:
    """The card of the first counter claim among the seat's legal actions."""
    return next(a["card"] for a in msg["legal"] if a["type"] == "counter")


@pytest_twisted.inlineCallbacks
@pytest.mark.parametrize("far_reaction, near_reaction", [(200.0, 205.0), (205.0, 200.0)])
def test_two_counters_5_ms_apart_are_ordered_by_reaction_time(tmp_path, far_reaction, near_reaction):
    from twisted.internet import reactor

    setup = yield FarAndNear.start(reactor, tmp_path, 80.0)
    inboxes, clients = setup.inboxes, setup.clients
    far, near, dealer = clients
    try:
        reply = yield dealer.request("create_table", game="family_business", seats=3,
                                     options={"deck": DECK, "first_player": 2, "seed": 1})
        tid = reply["table"]["id"]
        for c in clients:
            yield c.request("join", table=tid)
        while far.offset_ms is None or near.offset_ms is None:  # clock sync settles
            yield task.deferLater(reactor, 0.05, lambda: None)
        yield task.deferLater(reactor, 0.4, lambda: None)
        turn = yield inboxes[2].wait(lambda m: m["type"] in ("update", "match_started")
                                     and any(a["type"] == "contract" for a in m["legal"]))
        contract = next(a for a in turn["legal"] if a["type"] == "contract" and a["target"] == 0)
        yield dealer.request("action", table=tid, action=contract)
        opened = yield defer.gatherResults([inboxes[i].wait(_counter_window) for i in range(2)])
        # each client "sees" the window when its update arrives: stamp that, then react
        sent = opened[0]["t_server"]

        def press(client, inbox_msg, one_way_ms, reaction_ms):
            shown_local = sent + one_way_ms - client.offset_ms
            local = shown_local + reaction_ms
            card_id = _counter_card(inbox_msg)
            return task.deferLater(
                reactor, max(0.0, local - now_ms()) / 1000.0,
                lambda: client.send_action(tid, {"type": "counter", "card": card_id},
                                           t_press=local, t_shown=shown_local))

        yield defer.gatherResults([press(far, opened[0], 80.0, far_reaction),
                                   press(near, opened[1], 1.0, near_reaction)])
        results = yield defer.gatherResults(
            [inboxes[i].wait(lambda m: m["type"] == "claim_result") for i in range(2)])
        quick, slow = (0, 1) if far_reaction < near_reaction else (1, 0)
        assert results[quick]["outcome"] == "won", results
        assert results[slow]["outcome"] == "too_slow", results
        assert abs(results[slow]["margin_ms"] - 5) < 3, results[slow]
        assert abs(results[quick]["reaction_ms"] - min(far_reaction, near_reaction)) < 3
        countered = yield inboxes[2].wait(lambda m: m["type"] == "update" and any(
            e["type"] == "counter" for e in m["events"]))
        event = next(e for e in countered["events"] if e["type"] == "counter")
        assert event["seat"] == quick and event["success"]
        # the photo finish lists only the applied counter: a late one would show a hand
        race = yield inboxes[2].wait(lambda m: m["type"] == "race")
        assert [c["seat"] for c in race["claims"]] == [quick]
    finally:
        yield setup.stop()


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text("server:\n  reconnect_grace_s: 40\n" + GENEROUS_CLAIM_BOUNDS +
                    "bots:\n  think_ms: 0\n  reaction_median_ms: 120\n  reaction_floor_ms: 90\n"
                    "  reaction_cap_ms: 200\n")
    return path


def _war_is_on(log_path: Path) -> bool:
    """Replay the match log so far and say whether a Mob War is under way."""
    try:
        log = matchlog.parse(log_path.read_bytes())
    except (FileNotFoundError, matchlog.LogError):
        return False
    state = None
    for state, _, _, _ in matchlog.replay(fb, log):
        pass
    return state is not None and state.war and not fb.is_over(state)


def test_six_bots_finish_and_a_kill_mid_war_keeps_the_result(tmp_path):
    config = _config(tmp_path)
    data = tmp_path / "data"
    server = Server(tmp_path, 0, data, config, 1)
    port = server.port
    seed = 4
    try:
        args = ("--create", "family_business", "--players", "6", "--seed", str(seed))
        clean, err = result_of(bot(port, config, *args), 120)
        assert clean["game"] == "family_business" and len(clean["scores"]) == 6 and not err
        assert clean["winners"] and all(0 <= w < 6 for w in clean["winners"])
        log = data / "matches" / f"table-2-{seed}.jsonl"
        crashing = bot(port, config, *args)
        deadline = time.monotonic() + 120
        while not _war_is_on(log):
            assert time.monotonic() < deadline and crashing.poll() is None, "no war broke out"
            time.sleep(0.01)
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(10)
        killed_at = actions_in(log)
        assert killed_at > 0 and b'"kind":"over"' not in log.read_bytes()
        server = Server(tmp_path, port, data, config, 2)
        after, err = result_of(crashing, 120)
        assert after == clean, (after, clean, err)
        assert err.count("back at step") == 6, err
    finally:
        server.stop()
