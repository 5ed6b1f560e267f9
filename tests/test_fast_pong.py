"""The pong fast path of server/protocol.py (issue 14): a line it takes is exactly a
pong the general path (decode + check_fields) accepts, with the same id and tc; every
other line goes the general way and gets its usual error."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.protocol import fast_pong
from shared.protocol import ProtocolError, check_fields, decode, encode


def general(line: bytes) -> dict | None:
    try:
        msg = decode(line)
        check_fields(msg)
    except ProtocolError:
        return None
    return msg if msg["type"] == "pong" else None


def test_the_clients_pong_takes_the_fast_path():
    line = encode("pong", id=7, tc=1234.5).rstrip(b"\n")
    pong = fast_pong(line)
    assert pong is not None and (pong.id, pong.tc) == (7, 1234.5)
    assert fast_pong(encode("pong", id=8, tc=99).rstrip(b"\n")).tc == 99.0


@pytest.mark.parametrize("line", [
    b'{"v":1,"type":"pong","id":true,"tc":1.0}',
    b'{"v":1,"type":"pong","id":1,"tc":false}',
    b'{"v":1,"type":"pong","id":9007199254740993,"tc":1.0}',
    b'{"v":1,"type":"pong","id":1,"tc":1e16}',
    b'{"v":1,"type":"pong","id":1,"tc":NaN}',
    b'{"v":1,"type":"pong","id":1,"tc":1.0,"extra":2}',
    b'{"v":1,"type":"pong","id":1}',
    b'{"v":1,"type":"pong","id":"1","tc":1.0}',
    b'{"v":1,"type":"pong","id":1,"tc":1.0,"v":1.0}',
    b'{"v":1,"type":"pong","id":1,"tc":1.0,"type":"ping"}',
    b'{"v":1,"type":"pong","id":1,"tc":1.0',
    b'{"v":1,"type":"pong","id":1,"tc":1.0,"seq":3}',
])
def test_anything_but_a_valid_pong_goes_the_general_way(line):
    assert fast_pong(line) is None


values = st.one_of(st.none(), st.booleans(), st.integers(-2**60, 2**60),
                   st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=3))


@settings(max_examples=300, deadline=None)
@given(id_=values, tc=values, extra=st.dictionaries(st.sampled_from(["seq", "v", "x", "type"]), values, max_size=2))
def test_the_fast_path_agrees_with_the_general_path(id_, tc, extra):
    body = json.dumps({"v": 1, "type": "pong", "id": id_, "tc": tc}, separators=(",", ":"))
    if extra:
        body = body[:-1] + "," + json.dumps(extra, separators=(",", ":"))[1:]
    line = body.encode()
    fast, slow = fast_pong(line), general(line)
    if fast is not None:
        assert slow is not None, line
        assert (fast.id, fast.tc) == (slow["id"], float(slow["tc"]))
    elif "seq" not in extra and "x" not in extra:
        # the fast path may only decline what the general path refuses (or a seq'd pong)
        assert slow is None or not line.startswith(b'{"v":1,"type":"pong",'), line
