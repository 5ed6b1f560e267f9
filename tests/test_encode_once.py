"""Issue 14: the public stream is encoded once per message, the same bytes to every
spectator (``push_raw``); connections without the raw path still get ``push``."""
from __future__ import annotations

import json

from twisted.internet import task

from server.match.spectators import SpectatorFeed


class RawConn:
    def __init__(self):
        self.raw: list[bytes] = []

    def push_raw(self, data: bytes) -> None:
        self.raw.append(data)

    def push(self, msg_type, **fields):  # pragma: no cover - must not be used
        raise AssertionError("the raw path must be used")


class PlainConn:
    def __init__(self):
        self.msgs = []

    def push(self, msg_type, **fields):
        self.msgs.append({"type": msg_type, **fields})


def test_one_encoding_for_every_spectator():
    feed = SpectatorFeed(task.Clock(), 0)
    raws = [RawConn() for _ in range(5)]
    plain = PlainConn()
    for c in raws + [plain]:
        feed.add(c, lambda snap: snap)
    feed.send("update", table=1, events=[], view={"x": "é"}, legal=[], t_server=1.5, step=1, timer=None)
    first = raws[0].raw[0]
    assert all(c.raw[0] is first for c in raws)  # the very same bytes object
    assert json.loads(first) == {"v": 1, "type": "update", "table": 1, "events": [], "view": {"x": "é"},
                                 "legal": [], "t_server": 1.5, "step": 1, "timer": None}
    assert plain.msgs[0]["type"] == "update" and feed.snapshot["step"] == 1
