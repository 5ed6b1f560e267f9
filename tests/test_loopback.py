"""Real TCP on loopback, in this process: a far client (behind a 40 ms relay) presses
first, its claim arrives last, and it still wins the snap."""
from __future__ import annotations

from typing import Any, Callable

import pytest_twisted
from twisted.internet import defer, task

from client.net import connect, now_ms
from server.app import start_server
from tools.relay import DelayRelay
from shared.config import merge
from tests.test_loopback_processes import REAL_TIME

pytestmark = REAL_TIME

# seat 0: 7 1 2 3, seat 1: 7 4 5 6, seat 2: 8 9 10 1, safe 2 3 4 5, draw pile: 7 first
DECK = ["7", "1", "2", "3", "7", "4", "5", "6", "8", "9", "10", "1", "2", "3", "4", "5", "7"]


class Inbox:
    """A listener that keeps pushed messages and lets a test wait for one."""

    def __init__(self) -> None:
        self.msgs: list[dict[str, Any]] = []
        self._waiting: list[tuple[Callable[[dict], bool], defer.Deferred]] = []

    def on_message(self, msg: dict[str, Any]) -> None:
        self.msgs.append(msg)
        for pred, d in list(self._waiting):
            if pred(msg):
                self._waiting.remove((pred, d))
                d.callback(msg)

    def on_disconnect(self, reason: Any) -> None:
        pass

    def wait(self, pred: Callable[[dict], bool], timeout: float = 5.0) -> defer.Deferred:
        for msg in self.msgs:
            if pred(msg):
                return defer.succeed(msg)
        from twisted.internet import reactor

        d: defer.Deferred = defer.Deferred()
        self._waiting.append((pred, d))
        return d.addTimeout(timeout, reactor)


class FarAndNear:
    """A real server on loopback, a far client behind a relay of ``delay_ms`` each way, a
    near client and a dealer (in that order in :attr:`clients` and :attr:`inboxes`)."""

    def __init__(self) -> None:
        self.server: Any = None
        self.relay_port: Any = None
        self.clients: list[Any] = []
        self.inboxes = [Inbox(), Inbox(), Inbox()]

    @classmethod
    @defer.inlineCallbacks
    def start(cls, reactor: Any, tmp_path: Any, delay_ms: float):
        self = cls()
        config = merge({"server": {"host": "127.0.0.1", "port": 0, "data_dir": str(tmp_path)}})
        self.server = yield start_server(reactor, config, testing=True, discovery=False)
        relay = DelayRelay(reactor, "127.0.0.1", self.server.port, lambda: delay_ms, lambda: delay_ms)
        self.relay_port = reactor.listenTCP(0, relay, interface="127.0.0.1")
        try:
            for name, port, inbox in (("far", self.relay_port.getHost().port, self.inboxes[0]),
                                      ("near", self.server.port, self.inboxes[1]),
                                      ("dealer", self.server.port, self.inboxes[2])):
                self.clients.append((yield connect(reactor, "127.0.0.1", port, name, inbox)))
        except Exception:
            yield self.stop()
            raise
        return self

    @defer.inlineCallbacks
    def stop(self):
        for c in self.clients:
            c.transport.loseConnection()
        yield self.relay_port.stopListening()
        yield self.server.stop()


def _window_open(msg: dict[str, Any]) -> bool:
    return msg["type"] == "update" and (msg["view"].get("window") or {}).get("kind") == "snap"


@pytest_twisted.inlineCallbacks
def test_quicker_reaction_wins_although_its_claim_arrives_later(tmp_path):
    from twisted.internet import reactor

    setup = yield FarAndNear.start(reactor, tmp_path, 40.0)
    server, inboxes, clients = setup.server, setup.inboxes, setup.clients
    far, near, dealer = clients
    try:
        reply = yield dealer.request("create_table", game="omerta", seats=3,
                                     options={"deck": DECK, "first_player": 2, "seed": 1})
        tid = reply["table"]["id"]
        table = server.lobby.tables[tid]
        arrivals: list[tuple[int, float]] = []
        submit = table.arbiter.submit
        table.arbiter.submit = lambda w, c, b, sent=0.0: (arrivals.append((c.seat, c.receive)),
                                                          submit(w, c, b, sent))[1]
        for c in clients:
            yield c.request("join", table=tid)
        for seat, c in enumerate(clients):
            yield c.request("action", table=tid, action={"type": "peek", "slots": [4 * seat, 4 * seat + 1]})
        # let the far client's clock sync settle (8 pings of ~80 ms RTT)
        while far.offset_ms is None or len(server.lobby.connections) < 3:
            yield task.deferLater(reactor, 0.05, lambda: None)
        yield task.deferLater(reactor, 0.3, lambda: None)
        yield dealer.request("action", table=tid, action={"type": "draw_deck"})
        yield dealer.request("action", table=tid, action={"type": "discard_drawn"})
        shown = yield defer.gatherResults([inboxes[i].wait(_window_open) for i in range(2)])
        opened = shown[0]["t_server"]
        yield dealer.request("action", table=tid, action={"type": "snap_pass"})

        def press_at(client, shown_ms, reaction_ms, slot):
            """Press ``reaction_ms`` after the card appeared on this client's screen at
            server time ``shown_ms`` (the far one sees it a one-way trip later)."""
            shown_local = shown_ms - client.offset_ms
            local = shown_local + reaction_ms
            return task.deferLater(reactor, max(0.0, local - now_ms()) / 1000.0,
                                   lambda: client.send_action(tid, {"type": "snap", "slot": slot},
                                                              t_press=local, t_shown=shown_local))

        # the far player reacts 10 ms quicker but presses 29 ms later in absolute time
        presses = [press_at(far, opened + 40, 200, 0), press_at(near, opened + 1, 210, 4)]
        yield defer.gatherResults(presses)
        won = yield inboxes[0].wait(lambda m: m["type"] == "claim_result")
        slow = yield inboxes[1].wait(lambda m: m["type"] == "claim_result")
        assert [seat for seat, _ in arrivals] == [1, 0], "the far claim should arrive last"
        assert arrivals[1][1] - arrivals[0][1] > 15
        assert won["outcome"] == "won", won
        assert slow["outcome"] == "too_slow", slow
        assert abs(slow["margin_ms"] - 10) < 4, slow
        assert won["latency_ms"] < 200
    finally:
        yield setup.stop()
