"""server/match/spectators.py: a crowd of spectators gets the table's stream in batches (one
write per spectator per BATCH_MS, each message encoded once, nothing lost or
reordered); a few spectators get each message at once."""
from __future__ import annotations

import json

from twisted.internet import task

from server.match import spectators as sp


class Conn:
    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def push_raw(self, data: bytes) -> None:
        self.writes.append(data)

    def push(self, msg_type: str, **fields) -> None:  # a late joiner's snapshot
        self.writes.append(json.dumps({"type": msg_type, **fields}).encode() + b"\n")

    def messages(self) -> list[dict]:
        return [json.loads(line) for w in self.writes for line in w.splitlines()]


def test_a_crowd_gets_one_write_per_batch_in_order_and_a_few_get_each_message_at_once():
    clock = task.Clock()
    feed = sp.SpectatorFeed(clock, 0)
    few = [Conn() for _ in range(sp.BATCH_FROM - 1)]
    for c in few:
        feed.add(c, lambda snap: snap)
    feed.send("update", step=1)
    assert all(c.messages() == [{"v": 1, "type": "update", "step": 1}] for c in few)  # at once
    crowd = few + [Conn()]
    feed.add(crowd[-1], lambda snap: {**snap, "late": True})
    assert crowd[-1].messages() == [{"type": "match_started", "step": 1, "late": True}]
    for step in (2, 3, 4):
        feed.send("update", step=step)
    feed.send("match_over", result={"winners": [0]})
    assert all(len(c.writes) == 1 for c in crowd)  # nothing more yet
    clock.advance(sp.BATCH_MS / 1000.0)
    for c in crowd:
        got = [m.get("step", "over") for m in c.messages() if m["type"] != "match_started"]
        assert got[-4:] == [2, 3, 4, "over"] and len(c.writes) == 2  # one more write, all four
    assert feed.snapshot == {"step": 4} and feed.over == {"result": {"winners": [0]}}
    feed.send("update", step=5)
    feed.stop()  # the table closes: the batch goes out, not lost
    assert all(c.messages()[-1]["step"] == 5 for c in crowd)
    assert not clock.getDelayedCalls()
