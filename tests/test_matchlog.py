"""The match log: records, damage at the end, replay (shared/matchlog.py, issue 5)."""
from __future__ import annotations

import pytest

from shared import matchlog
from shared.bots import make_bot
from shared.games import omerta as om
from shared.sim import play_match


def recorded_match(seed: int = 4):
    config = {"seats": 3}
    bots = [make_bot("omerta", p, f"{seed}/{p}", {"think_ms": 0}) for p in range(3)]
    record = play_match(om, config, seed, bots)
    seats = [{"seat": p, "name": f"P{p}", "bot": False, "token": f"t{p}"} for p in range(3)]
    text = matchlog.line(matchlog.header("omerta", config, seed, 7, "Friday", seats))
    for step, (seat, action) in enumerate(record.log, start=1):
        text += matchlog.line(matchlog.action_record(step, seat, action, step * 10.0))
    return record, text


def test_a_log_replays_to_the_same_final_state():
    record, text = recorded_match()
    log = matchlog.parse(text.encode())
    assert not log.warnings and not log.finished and len(log.actions) == len(record.log)
    states = list(matchlog.replay(om, log))
    assert len(states) == len(record.log) + 1
    assert om.scores(states[-1][0]) == om.scores(record.state)
    assert om.zones(states[-1][0]) == om.zones(record.state)


def test_a_truncated_last_line_is_dropped_with_a_warning():
    record, text = recorded_match()
    cut = text[:-25]  # the crash left half a line
    log = matchlog.parse(cut.encode())
    assert len(log.actions) == len(record.log) - 1
    assert log.warnings and "unterminated" in log.warnings[0]
    assert cut.encode()[:log.good_bytes].endswith(b"\n")
    assert len(list(matchlog.replay(om, log))) == len(record.log)


def test_a_garbled_terminated_last_line_is_dropped_too():
    _, text = recorded_match()
    log = matchlog.parse((text + '{"kind": "act\n').encode())
    assert "damaged" in log.warnings[0]


def test_damage_in_the_middle_keeps_the_valid_prefix_and_says_what_was_dropped():
    """Issue "nothing lost": a garbled middle line, a record whose checksum fails or a
    duplicated step ends the valid prefix instead of discarding the whole match."""
    _, text = recorded_match()
    lines = text.splitlines(keepends=True)
    garbled = lines[:3] + ["garbage\n"] + lines[4:]
    log = matchlog.parse("".join(garbled).encode())
    assert len(log.actions) == 2 and log.good_bytes == len("".join(lines[:3]).encode())
    assert "line 4" in log.warnings[0] and f"{len(lines) - 4} line(s) after it" in log.warnings[0]
    flipped = lines[:5] + [lines[5].replace('"t":', '"t":1', 1)] + lines[6:]  # a bit flipped
    log = matchlog.parse("".join(flipped).encode())
    assert len(log.actions) == 4 and "checksum" in log.warnings[0]
    duplicated = lines[:4] + [lines[3]] + lines[4:]
    log = matchlog.parse("".join(duplicated).encode())
    assert len(log.actions) == 3 and "step 3 where step 4" in log.warnings[0]
    with pytest.raises(matchlog.LogError, match="header"):
        matchlog.parse(b"")
    with pytest.raises(matchlog.LogError, match="header"):
        matchlog.parse(lines[0][:20].encode() + b"\n" + "".join(lines[1:]).encode())  # torn header


def test_every_line_carries_a_checksum_and_old_lines_without_one_are_accepted():
    line = matchlog.line({"kind": "closed", "t": 1.5})
    assert line.endswith('"}\n') and '"crc":"' in line
    assert matchlog.check_line(line.rstrip("\n").encode()) == {"kind": "closed", "t": 1.5}
    assert matchlog.check_line(b'{"kind":"closed","t":1.5}') == {"kind": "closed", "t": 1.5}
    with pytest.raises(ValueError, match="checksum"):
        matchlog.check_line(line.replace("1.5", "2.5").rstrip("\n").encode())


def test_a_log_that_does_not_fit_the_rules_is_refused():
    _, text = recorded_match()
    lines = text.splitlines(keepends=True)
    bad = matchlog.line({"kind": "action", "step": 1, "seat": 0, "action": {"type": "draw_deck"}, "t": 1})
    log = matchlog.parse((lines[0] + bad).encode())
    with pytest.raises(matchlog.LogError, match="step 1"):
        list(matchlog.replay(om, log))


def test_finished_log_and_full_view_show_every_card():
    record, text = recorded_match()
    text += matchlog.line({"kind": "over", "result": om.scores(record.state), "t": 1})
    log = matchlog.parse(text.encode())
    assert log.finished and log.result["scores"] == om.scores(record.state)["scores"]
    state = om.new_match({"seats": 3}, 4)
    full = om.full_view(state)
    shown = [s["card"]["id"] for p in full["players"] for s in p["slots"]]
    shown += [c["id"] for c in full["safe_cards"]] + [c["id"] for c in full["draw_pile_cards"]]
    assert sorted(shown) == list(range(60))
    assert all("card" not in s for p in om.view(state, None)["players"] for s in p["slots"])


def test_famiglia_full_view_shows_both_hands_and_the_deck():
    from shared.games import famiglia as fam
    state = fam.new_match({"seats": 2}, 3)
    full = fam.full_view(state)
    ids = [c["id"] for p in full["players"] for c in p["hand"] + p["gang"]]
    ids += [c["id"] for c in full["street"] + full["deck_cards"] + full["discard"]]
    assert sorted(ids) == sorted(c for z in fam.zones(state).values() for c in z)
    assert fam.view(state, None)["players"][0]["hand"] is None


def test_checksums_cover_the_bytes_written_whatever_library_wrote_them():
    import json
    import zlib
    # as servers before msgspec wrote it: 1e+16 where msgspec writes 1e16
    body = json.dumps({"kind": "closed", "t": 1e16}, separators=(",", ":"))
    crc = f"{zlib.crc32(body.encode()) & 0xFFFFFFFF:08x}"
    old = body[:-1] + f',"crc":"{crc}"}}'
    assert "1e+16" in old
    assert matchlog.check_line(old.encode()) == {"kind": "closed", "t": 1e16}
    # a crc that is not last (a line tidied by hand) is checked the old way
    moved = '{"crc":"%s","kind":"closed","t":1e+16}' % crc
    assert matchlog.check_line(moved.encode()) == {"kind": "closed", "t": 1e16}
    with pytest.raises(ValueError, match="checksum"):
        matchlog.check_line(old.replace("1e+16", "2e+16").encode())
    with pytest.raises(ValueError, match="not JSON"):
        matchlog.check_line(b'{"kind":"closed","t":NaN}')
    assert matchlog.line_bytes({"kind": "closed", "t": 1e16}) == matchlog.line({"kind": "closed", "t": 1e16}).encode()
