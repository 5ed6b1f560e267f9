"""The fan-out's shared deltas (server/match/delivery.py ``Delivery.fan_out`` with
``GameDef.seat_keys``). Four Omerta seats that all ask for ``delta`` play random legal
moves (turns, peeks, claims and passes) on ServerProtocols; after every reactor turn
each seat's rebuilt view must be exactly ``game.view(state, seat)`` and its legal
actions the table's. Seats' own keys (the card a seat drew, the safe during its
Safecracker look) change for one seat at a time: a delta that forgot them, or a seat
given the others' shared line, shows here."""
from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest
from twisted.internet import task
from twisted.internet.testing import StringTransport

from server.lobby import Lobby
from server.protocol import ServerProtocol
from shared.config import merge
from shared.protocol import encode
from shared.rules import events_for


def norm(value: Any) -> Any:
    return json.loads(json.dumps(value))

_dec = msgspec.json.Decoder()


class DeltaSeat:
    def __init__(self, lobby: Lobby, name: str, features: tuple[str, ...] = ("delta",)):
        self.proto = ServerProtocol(lobby)
        self.transport = StringTransport()
        self.proto.makeConnection(self.transport)
        self.seq = 0
        self.view: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] = []
        self.inflight = False
        self.step: int | None = None
        self.events: list[dict[str, Any]] = []  # every update's events, in order
        self.merged = 0  # updates that covered several steps (feature "steps")
        self.markers = 0
        self.send("hello", name=name, features=list(features))

    def send(self, kind: str, **fields: Any) -> None:
        self.seq += 1
        self.proto.dataReceived(json.dumps({"type": kind, "seq": self.seq, **fields}).encode() + b"\n")

    def read(self) -> list[dict[str, Any]]:
        raw, out = self.transport.value(), []
        self.transport.clear()
        for line in raw.split(b"\n"):
            if not line:
                continue
            m = _dec.decode(line)
            if m["type"] == "ping":
                self.proto.dataReceived(b'{"type":"pong","id":%d,"tc":%r}\n' % (m["id"], m["ts"]))
            elif m["type"] == "match_started":
                self.view, self.legal, self.step = m["view"], m["legal"], m["step"]
            elif m["type"] == "update":
                first = m.get("from_step", m["step"])  # PROTOCOL.md: no gap, no overlap
                assert first == self.step + 1 and m["step"] >= first, (self.step, first, m["step"])
                self.step = m["step"]
                self.merged += m["step"] > first
                self.events += m["events"]
                # the lines spliced from parts encoded once (server.match.delivery.UpdateLines) are
                # byte for byte what encoding the whole message writes
                fields = {k: v for k, v in m.items() if k not in ("v", "type")}
                assert encode("update", **fields) == line + b"\n", line
                if "view_set" in m:
                    self.view = {**self.view, **m["view_set"]}
                    for k in m.get("view_unset", ()):
                        del self.view[k]
                    self.legal = m.get("legal", self.legal)
                else:
                    self.view, self.legal = m["view"], m["legal"]
            elif m["type"] == "marker":  # pushed right after step m["step"] was released
                assert self.step >= m["step"], (self.step, m["step"])
                self.markers += 1
            elif m.get("re") == self.seq:
                self.inflight = False
            out.append(m)
        return out


def seated_table(data_dir: Any, game: str, n: int, features: Any, options: dict[str, Any]):
    """``(clock, lobby, seats, table_id, table)``: a lobby on a ``task.Clock`` (match logs
    in ``data_dir``; None: no logs) and ``n`` :class:`DeltaSeat` s, seat ``i`` asking for
    ``features(i)``, seated at a new table of ``game`` with ``options``."""
    clock = task.Clock()
    clock.advance(1000)
    lobby = Lobby(merge({"server": {"name": "T"}}), clock, testing=True, data_dir=data_dir)
    seats = [DeltaSeat(lobby, f"p{i}", features(i)) for i in range(n)]
    seats[0].send("create_table", game=game, seats=n, options=options)
    table_id = next(m for m in seats[0].read() if m.get("re") == 2)["table"]["id"]
    for s in seats:
        s.send("join", table=table_id)
    return clock, lobby, seats, table_id, lobby.tables[table_id]


def play_turns(clock: Any, table: Any, seats: list[Any], turns: int = 3000) -> Any:
    """Every 50 ms of the test clock each seat reads what it was sent; yields while the
    match plays (the caller checks and acts), at most ``turns`` times."""
    for _ in range(turns):
        clock.advance(0.05)
        for s in seats:
            s.read()
        if table.status != "playing":
            return
        yield


@pytest.mark.parametrize("steps", [False, True], ids=["one_update_per_step", "steps_feature"])
def test_every_delta_seat_rebuilds_its_own_view_at_every_step(tmp_path, steps, monkeypatch):
    """With ``steps`` (match logs on disk: the group commit releases the actions each
    reactor turn received together), seats 0 and 1 ask for the feature and get one
    update for several steps; seats 2 and 3 do not, at the same table: every seat still
    rebuilds its exact view, its step never skips or repeats, and the events it got are
    exactly those of every step, in order."""
    from server.match.table import Table

    release = Table._release

    def release_then_mark(self, events, now=None, state=None, step=None, public=None):
        if step is not None and step % 7 == 0:
            # as if the seats' last update had another public view (a seat that was
            # resuming, say): each delta is then worked out from the whole view the seat
            # was sent, rebuilt from the seat's own part (GameDef.own_view) and its public view
            self.delivery.last_public = None
        # something else pushed to seat 0 right after a step went out (a claim_result,
        # say): with "steps" it must come after the update that covers that step
        release(self, events, now, state, step, public)
        if step is not None and step % 3 == 0 and self.seats[0].conn is not None:
            self.seats[0].conn.push("marker", step=step)

    monkeypatch.setattr(Table, "_release", release_then_mark)
    rng = random.Random(7)
    clock, lobby, seats, table_id, table = seated_table(
        tmp_path if steps else None, "omerta", 4,
        lambda i: ("delta", "steps") if steps and i < 2 else ("delta",), {"rounds": 2, "seed": 11})
    own_changes = 0
    for _ in play_turns(clock, table, seats):
        for i, s in enumerate(seats):
            expected = json.loads(json.dumps(table.game.view(table.state, i)))
            assert s.view == expected, f"seat {i} rebuilt another view at step {len(table.log)}"
            # what the table keeps as the base of the seat's next delta stands for that view
            # (its own part alone, GameDef.own_view, over the public view it went with)
            assert json.loads(json.dumps(table.delivery.sent_view(table.delivery.sent_views[i]))) == expected, i
            assert s.legal == [a.to_dict() for a in table.legal(i)], f"seat {i}: legal at {len(table.log)}"
            own_changes += s.view.get("drawn") is not None and s.view["drawn"]["card"] is not None
        for s in seats:
            if s.legal and not s.inflight:
                # rounds long enough to draw cards: declare Omerta now and then only
                options = [a for a in s.legal if a["type"] != "declare_omerta" or rng.random() < 0.03]
                s.inflight = True
                s.send("action", table=table_id, action=rng.choice(options or s.legal),
                       t_press=clock.seconds() * 1000, t_shown=clock.seconds() * 1000 - 300)
    assert table.status == "over", "the match did not end"
    assert len(table.log) > 100, len(table.log)
    assert own_changes > 20  # seats did see cards of their own (the path under test)
    for i, s in enumerate(seats):
        assert s.events == norm([e for h in table.history for e in events_for(h, i)]), f"seat {i}"
        assert s.merged == 0 if not steps or i >= 2 else s.merged > (20 if i else 5), (i, s.merged)
    assert seats[0].markers > 50


def test_update_lines_share_the_public_part_and_add_each_seats_own():
    """server.match.delivery.UpdateLines: every line decodes to the fields it was given; only a
    seat with nothing of its own gets the shared bytes."""
    from server.match.delivery import UpdateLines

    events = [{"type": "turn", "seat": 1}]
    lines = UpdateLines(7, events, {"turn": 1, "players": [1, 2]}, ["gone"], 1234.5, 9, None)
    plain = lines.line(None, {}, [], None)
    assert lines.line(None, {}, [], None) is plain  # encoded once
    assert _dec.decode(plain) == {"v": 1, "type": "update", "table": 7, "events": events,
                                  "view_set": {"turn": 1, "players": [1, 2]}, "view_unset": ["gone"],
                                  "t_server": 1234.5, "step": 9, "timer": None}
    own = _dec.decode(lines.line(None, {"drawn": {"card": 3}}, ["safe_cards"], [{"type": "snap", "slot": 2}]))
    assert own["view_set"] == {"turn": 1, "players": [1, 2], "drawn": {"card": 3}}
    assert own["view_unset"] == ["gone", "safe_cards"] and own["legal"] == [{"type": "snap", "slot": 2}]
    assert _dec.decode(lines.line(None, {"drawn": None}, [], None))["view_set"]["drawn"] is None
    private = [{"type": "look", "card": 4}]
    assert _dec.decode(lines.line(private, {}, [], None))["events"] == private
    assert lines.line(None, {}, [], None) is plain
    bare = UpdateLines(7, None, {}, [], 1.0, 1, {"deadline": 3.0})
    line = _dec.decode(bare.line([], {"hand": [1]}, [], []))
    assert line["view_set"] == {"hand": [1]} and "view_unset" not in line and line["legal"] == []
    assert line["timer"] == {"deadline": 3.0} and line["events"] == []


@pytest.mark.parametrize("game,seats", [("family_business", 4), ("mafiosi", 3)])
def test_the_steps_feature_in_every_game(tmp_path, game, seats):
    """Feature ``steps`` in the games whose seats' own keys (a hand) change while others
    play (Famiglia's two players never act at once: nothing to merge): every seat asks
    for it and plays at random, the match logs on disk (so each reactor turn's actions
    are released together); each seat's rebuilt view and legal actions are exactly the
    table's after every turn, its steps never skip or repeat, its events are those of
    every step, and merged updates that changed the seat's own keys did occur
    (``server.match.delivery.Delivery.flush_merged``)."""
    from shared.games import game_def

    rng = random.Random(3)
    clock, lobby, players, table_id, table = seated_table(
        tmp_path, game, seats, lambda i: ("delta", "steps"), {"seed": 5})
    keys = game_def(game).seat_keys
    own_merged = 0
    for _ in range(5000):
        clock.advance(0.05)
        for s in players:
            before, step = {k: s.view.get(k) for k in keys}, s.step
            s.read()
            own_merged += s.step is not None and step is not None and s.step > step + 1 and any(
                s.view.get(k) != before[k] for k in keys if k != "seat")
        if table.status != "playing":
            break
        for i, s in enumerate(players):
            assert s.view == norm(table.game.view(table.state, i)), f"seat {i} at step {len(table.log)}"
            assert s.legal == [a.to_dict() for a in table.legal(i)], f"seat {i} at {len(table.log)}"
        for s in players:
            if s.legal and not s.inflight:
                s.inflight = True
                s.send("action", table=table_id, action=rng.choice(s.legal),
                       t_press=clock.seconds() * 1000, t_shown=clock.seconds() * 1000 - 300)
    assert table.status == "over", "the match did not end"
    for i, s in enumerate(players):
        assert s.events == norm([e for h in table.history for e in events_for(h, i)]), f"seat {i}"
    assert sum(s.merged for s in players) > 5 and own_merged > 0, (
        [s.merged for s in players], own_merged)


def test_the_group_commit_keeps_omertas_views_reusing_the_previous_states_lists(tmp_path, monkeypatch):
    """With the match log on disk a table applies the actions a reactor turn brings
    before the group commit releases the first (the passes of a snap window): the
    public view is built when each action is applied, so the next state's view still
    reuses its ``players`` list (``shared.games.omerta.views._public``). Rebuilds happen
    exactly when a seat's slots, markers, peek flag or total changed."""
    import shared.games.omerta.views as omerta_views
    from server.match.table import Table

    built = []
    players = omerta_views._players
    monkeypatch.setattr(omerta_views, "_players", lambda s, *prev: built.append(id(s)) or players(s, *prev))
    applied = []
    apply = Table.apply

    def recording(self, seat, action):
        events = apply(self, seat, action)
        applied.append(self.state)
        return events

    monkeypatch.setattr(Table, "apply", recording)
    rng = random.Random(5)
    clock, lobby, seats, table_id, table = seated_table(
        tmp_path, "omerta", 4, lambda i: ("delta", "steps"), {"rounds": 6, "seed": 13})
    first = table.state
    batched = 0
    for _ in play_turns(clock, table, seats):
        before = len(applied)
        for s in seats:  # every seat that may act does, in the same reactor turn
            if s.legal and not s.inflight:
                options = [a for a in s.legal if a["type"] != "declare_omerta" or rng.random() < 0.03]
                s.inflight = True
                s.send("action", table=table_id, action=rng.choice(options or s.legal))
        batched += len(applied) - before > 1
    assert table.status == "over" and batched > 20, batched

    def data(s):
        return (s.games, s.patrol, s.mamma, s.peeked, s.totals)

    needed = sum(data(a) != data(b) for a, b in zip([first] + applied, applied))
    ids = {id(s) for s in applied}  # (all alive: their ids are their own)
    rebuilt = [i for i in built if i in ids]
    assert needed > 50 and len(rebuilt) == needed, (needed, len(rebuilt))
