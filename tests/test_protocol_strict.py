"""Regression tests of the issue "A protocol nobody can break": each malformed value a
third-party client sent ends with a documented error code, nobody else is affected, and
the server only ever writes strict JSON."""
from __future__ import annotations

import json

import pytest

from server.lobby import Lobby
from shared.protocol import ProtocolError, decode, encode
from tests.test_protocol import DECK, Client, make_lobby, three_at_a_table


@pytest.fixture
def lobby() -> Lobby:
    return make_lobby()


def _strict(raw: bytes) -> list[dict]:
    """Every line the server wrote, parsed as strict JSON (NaN and friends refused)."""
    def no_constants(name: str) -> None:
        raise AssertionError(f"the server wrote the non-JSON constant {name}")
    return [json.loads(line, parse_constant=no_constants) for line in raw.split(b"\n") if line]


def _snap_window(lobby):
    """Three players; every seat peeked; seat 2 discarded a 7: a snap window is open."""
    table, (ann, bob, cy) = three_at_a_table(lobby, {"deck": DECK, "first_player": 2, "seed": 1})
    for seat, c in enumerate((ann, bob, cy)):
        c.request("action", table=table, action={"type": "peek", "slots": [4 * seat, 4 * seat + 1]})
    cy.request("action", table=table, action={"type": "draw_deck"})
    cy.request("action", table=table, action={"type": "discard_drawn"})
    assert lobby.tables[table].window is not None
    return table, (ann, bob, cy)


def test_a_nan_press_is_refused_and_the_window_goes_on(lobby):
    table, (ann, bob, cy) = _snap_window(lobby)
    ann.send_raw(b'{"type":"action","seq":99,"table":%d,"action":{"type":"snap","slot":0},'
                 b'"t_press":NaN}\n' % table)
    errors = [m for m in ann.read() if m["type"] == "error"]
    assert [(e["code"], e.get("re")) for e in errors] == [("bad_json", 99)]  # it answers the request
    # everybody else's pass and claim still work: the window is not poisoned
    assert cy.request("action", table=table, action={"type": "snap_pass"})["type"] == "ack"
    assert bob.request("action", table=table, action={"type": "snap", "slot": 4})["type"] == "ack"
    assert not [m for c in (ann, bob, cy) for m in c.inbox if m.get("code") == "internal"]


@pytest.mark.parametrize("line", [
    b'{"type":"action","seq":1,"table":1,"action":{"type":"snap","slot":0},"t_press":1e400}',
    b'{"type":"action","seq":1,"table":1,"action":{"type":"snap","slot":0},"t_press":' + b"9" * 400 + b"}",
    b'{"type":"pong","id":1,"tc":Infinity}',
    b'{"type":"list_tables","seq":1,"x":' + b"[" * 10_000 + b"]" * 10_000 + b"}",
    b'{"type":"hello","seq":1,"name":"\\ud800"}',
    b'{"type":"list_tables","seq":1,"n":-Infinity}',
])
def test_non_finite_huge_deep_and_surrogate_values_are_bad_json(line):
    with pytest.raises(ProtocolError) as e:
        decode(line)
    assert e.value.code == "bad_json"
    # the request is still answered (re) when its seq can be read (a pong has none; no
    # parser reads 10,000 levels)
    assert e.value.seq == (None if b'"pong"' in line or b"[[[" in line else 1)


@pytest.mark.parametrize("line, re", [
    (b'{"type":"list_tables","seq":7,"n":NaN}', 7),
    (b'{"type":"create_table","seq":8,"game":"famiglia","seats":2,"options":{"seed":Infinity}}', 8),
    (b'{"type":"list_tables","seq":NaN}', None),  # no usable seq: nothing to answer
    (b'{"type":"list_tables","seq":9,"n":NaN', None),  # not JSON at all
    (b'\xff{"type":"list_tables","seq":10}', None),  # invalid UTF-8
    (b'{"v":2,"type":"list_tables","seq":11}', 11),
])
def test_bad_json_and_bad_version_carry_the_requests_re_when_it_can_be_read(lobby, line, re):
    c = Client(lobby)
    c.send_raw(line + b"\n")
    (err,) = [m for m in c.read() if m["type"] == "error"]
    assert err["code"] in ("bad_json", "bad_version") and err.get("re") == re
    assert not c.closed and c.request("list_tables")["type"] == "tables"


@pytest.mark.parametrize("game, seats, options, named", [
    ("family_business", 3, {"counter_timeout_ms": 1e308}, "counter_timeout_ms"),
    ("family_business", 3, {"counter_timeout_ms": 100}, "counter_timeout_ms"),
    ("family_business", 3, {"counter_timeout_ms": "3000"}, "counter_timeout_ms"),
    ("family_business", 3, {"counter_timeout_ms": True}, "counter_timeout_ms"),
    ("famiglia", 2, {"snap_timeout_ms": 1e308}, "snap_timeout_ms"),  # another game's option
    ("famiglia", 2, {"rounds": 0}, "rounds"),
    ("famiglia", 2, {"deck_variant": "1999"}, "deck_variant"),
    ("mafiosi", 3, {"counter_timeout_ms": 3000.5}, "counter_timeout_ms"),
    ("omerta", 3, {"bot_think_ms": -1}, "bot_think_ms"),
    ("omerta", 3, {"turn_timer_s": 1e9}, "turn_timer_s"),
    ("omerta", 3, {"spectator_delay_s": 0.5}, "spectator_delay_s"),
    ("omerta", 3, {"colour": "red"}, "colour"),
])
def test_every_option_is_checked_and_the_refusal_names_it(lobby, game, seats, options, named):
    c = Client(lobby)
    reply = c.request("create_table", game=game, seats=seats, options=options)
    assert reply["code"] == "bad_option" and repr(named) in reply["message"], reply
    # set_options checks the same way
    tid = c.request("create_table", game=game, seats=seats)["table"]["id"]
    c.request("join", table=tid)
    reply = c.request("set_options", table=tid, options=options)
    assert reply["code"] == "bad_option" and repr(named) in reply["message"], reply
    assert not lobby.tables[tid].host.options


def test_family_business_takes_its_documented_counter_timeout(lobby):
    c = Client(lobby)
    table = c.request("create_table", game="family_business", seats=2,
                      options={"counter_timeout_ms": 1500, "seed": 3, "rounds": 2, "snap_timeout_ms": 9000})
    assert table["type"] == "table" and table["table"]["options"]["counter_timeout_ms"] == 1500
    tid = table["table"]["id"]
    assert lobby.tables[tid].engine_config["counter_timeout_ms"] == 1500  # the other games' options: ignored
    assert "snap_timeout_ms" not in lobby.tables[tid].engine_config and "rounds" not in lobby.tables[tid].engine_config


@pytest.mark.parametrize("v", [b"true", b"1.0", b'"1"', b"2"])
def test_the_version_is_exactly_the_integer_1(v):
    with pytest.raises(ProtocolError) as e:
        decode(b'{"v":' + v + b',"type":"list_tables"}')
    assert e.value.code == "bad_version"
    assert decode(b'{"v":1,"type":"list_tables"}')["v"] == 1


def test_a_lone_surrogate_name_never_reaches_the_lobby(lobby):
    eve = Client(lobby, None)
    eve.send_raw(b'{"type":"hello","seq":1,"name":"eve\\ud800"}\n')
    assert eve.read()[0]["code"] == "bad_json"
    ann = Client(lobby, "ann")
    ann.request("create_table", game="omerta", seats=3)
    assert len(ann.request("list_tables")["tables"]) == 1
    _strict(ann.transport.value())


def test_a_nan_pong_never_makes_the_server_write_nan(lobby):
    c = Client(lobby, None)
    c.send_raw(b'{"type":"hello","seq":1,"name":"ann"}\n')
    raw = c.transport.value()
    pings = [m for m in _strict(raw) if m["type"] == "ping"]
    assert pings
    c.transport.clear()
    for p in pings:
        c.send_raw(b'{"type":"pong","id":%d,"tc":NaN}\n' % p["id"])
    for m in _strict(c.transport.value()):
        assert m["type"] == "error" and m["code"] == "bad_json"
    assert c.proto.clock_offset_ms is None  # no sample was taken from a NaN


def test_encode_never_writes_invalid_json():
    for bad in (float("nan"), float("inf"), float("-inf")):
        line = encode("clock", offset_ms=bad)
        assert line == b'{"v":1,"type":"clock","offset_ms":null}\n'
        assert decode(line.rstrip(b"\n"))["offset_ms"] is None  # our own strict gate accepts it
    with pytest.raises(UnicodeEncodeError):
        encode("table", name="\ud800")


def test_a_second_claim_after_the_window_closed_is_refused_not_acked(lobby):
    table, (ann, bob, cy) = _snap_window(lobby)
    cy.request("action", table=table, action={"type": "snap_pass"})
    assert ann.request("action", table=table, action={"type": "snap", "slot": 0})["type"] == "ack"
    assert bob.request("action", table=table, action={"type": "snap", "slot": 4})["type"] == "ack"
    lobby.clock.advance(1.0)  # decided: one of them won, the window is closed
    assert lobby.tables[table].window is None
    again = ann.request("action", table=table, action={"type": "snap", "slot": 1})
    assert again["type"] == "error" and again["code"] == "illegal_action"
    assert "already claimed" in again["message"]


def test_only_the_host_may_add_or_remove_bots(lobby):
    ann = Client(lobby, "ann")
    table = ann.request("create_table", game="omerta", seats=3)["table"]["id"]
    mallory = Client(lobby, "mallory")
    for request in (dict(type="add_bot"), dict(type="remove_bot", seat=0)):
        kind = request.pop("type")
        reply = mallory.request(kind, table=table, **request)
        assert reply["type"] == "error" and reply["code"] == "not_allowed", reply
    assert ann.request("add_bot", table=table)["type"] == "table"  # the host, not seated yet
    bob = Client(lobby, "bob")
    bob.request("join", table=table)
    reply = bob.request("add_bot", table=table)  # a seated player who is not the host (issue 13)
    assert reply["type"] == "error" and reply["code"] == "not_allowed", reply
    assert ann.request("remove_bot", table=table, seat=0)["type"] == "table"


def test_a_seed_chosen_by_a_client_is_announced(lobby):
    strict = Lobby(lobby.config, lobby.clock, testing=False)
    ann = Client(strict, "ann")
    summary = ann.request("create_table", game="omerta", seats=3, options={"seed": 5})["table"]
    assert summary["fixed_deal"] is True
    fair = ann.request("create_table", game="omerta", seats=3)["table"]
    assert fair["fixed_deal"] is False
    table = summary["id"]
    ann.request("join", table=table)
    ann.request("add_bot", table=table)
    ann.request("add_bot", table=table)
    lobby.clock.advance(1)
    started = ann.of("match_started")
    assert started and ann.of("table")[-1]["table"]["fixed_deal"] is True


def _table_snapshot(table) -> tuple:
    """What a failing request must leave exactly as it was."""
    import pickle

    w = table.window
    return (pickle.dumps(table.state), len(table.log), None if w is None else (w.id, w.pending),
            frozenset(table.claims.claimed), len(table.arbiter.claims))


@pytest.mark.parametrize("bad", [
    {"type": "snap", "slot": 999},            # not one of your cards
    {"type": "snap", "slot": 0, "x": 1},      # a field the action does not have
    {"type": "hitwoman", "slot": 0},          # a claim of another kind of window
    {"type": "draw_deck"},                    # not a window answer
    {"type": "window_timeout", "window": 1},  # the table's own action
])
def test_a_failing_request_in_a_window_leaves_the_table_as_it_was(lobby, bad):
    """Issue 15: an error in one request never touches another -- for each reaction-window
    path a bad request gets its own error and the window, the claims waiting in the
    arbiter and the state are exactly as before; the others still answer."""
    table_id, (ann, bob, cy) = _snap_window(lobby)
    table = lobby.tables[table_id]
    assert bob.request("action", table=table_id, action={"type": "snap", "slot": 4},
                       t_press=None)["type"] == "ack"  # a claim waits in the arbiter
    before = _table_snapshot(table)
    reply = ann.request("action", table=table_id, action=bad)
    assert reply["type"] == "error" and reply["code"] in ("illegal_action", "bad_action"), reply
    assert _table_snapshot(table) == before
    # a refused reaction (faster than anyone) and a malformed stamp: the same
    reply = ann.request("action", table=table_id, action={"type": "snap", "slot": 0},
                        t_press=1000.0, t_shown=990.0)
    assert reply["type"] == "error" and reply["code"] in ("claim_refused", "illegal_action"), reply
    reply = ann.request("action", table=table_id, action={"type": "snap", "slot": 0}, t_press="soon")
    assert reply["code"] == "bad_message"
    assert _table_snapshot(table) == before
    # and the window goes on for everybody else
    assert cy.request("action", table=table_id, action={"type": "snap_pass"})["type"] == "ack"
    lobby.clock.advance(2.0)
    assert table.window is None and bob.of("claim_result")


def test_a_failing_pass_or_late_claim_leaves_the_next_window_alone(lobby):
    table_id, (ann, bob, cy) = _snap_window(lobby)
    table = lobby.tables[table_id]
    assert cy.request("action", table=table_id, action={"type": "snap_pass"})["type"] == "ack"
    before = _table_snapshot(table)
    again = cy.request("action", table=table_id, action={"type": "snap_pass"})
    assert again["type"] == "error" and again["code"] == "illegal_action"
    assert _table_snapshot(table) == before


def _reference_check(obj, depth=0):
    """The rule of ``shared.protocol._check_values`` written plainly: every value of the
    message (scalars too) at most MAX_DEPTH deep, every integer within ±MAX_INT; the
    first offence in document order decides the sentence."""
    from shared.protocol import MAX_DEPTH, MAX_INT

    if depth > MAX_DEPTH:
        return "deep"
    if isinstance(obj, dict):
        obj = list(obj.values())
    if isinstance(obj, list):
        for value in obj:
            found = _reference_check(value, depth + 1)
            if found:
                return found
    elif type(obj) is int and not -MAX_INT <= obj <= MAX_INT:
        return "int"
    return None


def _nested(draw_depth, leaf):
    """A JSON value nested ``draw_depth`` levels (lists and objects alternating)."""
    value = leaf
    for level in range(draw_depth):
        value = [value] if level % 2 else {"k": value}
    return value


def test_value_checks_hold_at_every_depth_and_integer_bound():
    """``decode`` refuses exactly the lines whose values lie deeper than MAX_DEPTH or
    whose integers leave ±MAX_INT, at the boundaries and in random trees, with the
    sentence of the first offence (``_check_values`` checks scalars in its loops)."""
    from hypothesis import given, settings, strategies as st

    from shared.protocol import MAX_DEPTH, MAX_INT, _check_values

    def verdict(value):
        try:
            _check_values(value, 0)
        except ProtocolError as e:
            assert e.code == "bad_json"
            return "deep" if "nested" in e.message else "int"
        return None

    for depth in range(MAX_DEPTH - 2, MAX_DEPTH + 3):
        for leaf in (1, MAX_INT, MAX_INT + 1, -MAX_INT - 1, "x", True, None, [], {}, 2.5):
            value = _nested(depth, leaf)
            assert verdict(value) == _reference_check(value), (depth, leaf)
    assert verdict(_nested(MAX_DEPTH, 5)) is None and verdict(_nested(MAX_DEPTH + 1, 5)) == "deep"

    ints = st.one_of(st.integers(-MAX_INT - 2, MAX_INT + 2), st.sampled_from([MAX_INT, MAX_INT + 1, -MAX_INT - 1]))
    leaves = st.one_of(ints, st.text(max_size=3), st.booleans(), st.none(), st.floats(allow_nan=False, allow_infinity=False))
    trees = st.recursive(leaves, lambda kids: st.one_of(st.lists(kids, max_size=3),
                                                        st.dictionaries(st.text(max_size=2), kids, max_size=3)),
                         max_leaves=40)

    @settings(max_examples=300, deadline=None)
    @given(trees, st.integers(0, MAX_DEPTH + 2))
    def check(tree, extra):
        value = _nested(extra, tree)
        assert verdict(value) == _reference_check(value)
        line = json.dumps({"type": "list_tables", "x": value}).encode()
        try:
            decode(line)
        except ProtocolError as e:
            assert e.code == "bad_json" and _reference_check({"x": value}, 0) is not None
        else:
            assert _reference_check({"x": value}, 0) is None

    check()
