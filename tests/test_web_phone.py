"""Phones as private hands, end to end (issue 17; docs/PROTOCOL.md "Web controller").

A real ``mafia-server`` process with its phone page, two headless Chromium phones
(Debian's ``chromium`` and ``chromium-driver``, through selenium) that join by the room
code, bots in the other seats, and a whole match of Omerta and of Family Business played
by tapping the page's buttons: the Omerta match includes a snap from a phone, the Family
Business match a counter from a phone. Afterwards every ``match_started`` and ``update``
each page received (the page keeps them in ``window.__received``) is checked against the
game's visibility rules, replayed from the server's match log: no phone ever received a
card its seat may not see (the check of tests/test_conformance.py, on the real wire).

Skipped when Chromium, its driver or selenium is missing, except under CI (``CI=true``),
where ``.ci/run`` installs them: there it fails.
"""
from __future__ import annotations

import os
import random
import time
import urllib.request
import json
from pathlib import Path
from typing import Any

import pytest

from shared import matchlog
from shared.games import get_game
from server.web.rooms import room_code
from tests.test_conformance import card_api
from tests.test_loopback_processes import REAL_TIME
from tools.screenshots_phone import (Host, ServerProcess, buttons, chromium_available, close_phone,
                                     join_seat, open_phone, received)

if not chromium_available():
    if os.environ.get("CI"):
        raise RuntimeError("CI needs chromium, chromium-driver and selenium for tests/test_web_phone.py "
                           "(.ci/run installs them)")
    pytest.skip("needs chromium, chromium-driver and selenium", allow_module_level=True)

pytestmark = REAL_TIME



@pytest.fixture(scope="module")
def server():
    s = ServerProcess(testing=True)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def host(server):
    h = Host(server.port)
    yield h
    h.close()


@pytest.fixture(scope="module")
def phones():
    drivers = [open_phone(lang="en"), open_phone(lang="fr")]
    yield drivers
    for d in drivers:
        close_phone(d)


def click(phone: Any, button_id: str) -> bool:
    from selenium.common.exceptions import WebDriverException

    try:
        phone.find_element("id", button_id).click()
        return True
    except WebDriverException:  # re-rendered meanwhile: the next look sees the new buttons
        return False


def wait_for(phone: Any, script: str, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = phone.execute_script(script)
        if value:
            return value
        time.sleep(0.03)
    raise AssertionError(f"timed out waiting for: {script}")


def press(phone: Any, kind: str, pick=lambda a: True, timeout: float = 20.0) -> dict[str, Any]:
    """Wait until the page offers an action of type ``kind`` accepted by ``pick``, tap it;
    returns the action."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for b in buttons(phone):
            if b["action"]["type"] == kind and pick(b["action"]) and click(phone, b["id"]):
                return b["action"]
        time.sleep(0.03)
    raise AssertionError(f"the page never offered {kind}")


def human_pause(phone: Any, reaction_s: float = 0.25) -> None:
    """Wait until the page stamped the open window's card as shown, then a human
    reaction time (a tap within 80 ms of the card would be refused as impossible)."""
    wait_for(phone, "return window.__mafia.tShown !== null && window.__mafia.shownFor === "
                    "(window.__mafia.view.window || {}).window")
    time.sleep(reaction_s)


def play_out(phones: list[Any], rng: random.Random, prefer: tuple[str, ...], timeout: float = 150.0) -> None:
    """Tap random legal actions on every phone until both show the match result; an
    action whose type is in ``prefer`` is taken with probability 1/2 when offered (so
    that the match ends in reasonable time); reaction windows are mostly passed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(p.execute_script("return window.__mafia.result !== null") for p in phones):
            return
        for p in phones:
            offered = buttons(p)
            if not offered:
                continue
            preferred = [b for b in offered if b["action"]["type"] in prefer]
            passes = [b for b in offered if b["action"]["type"] in ("snap_pass", "hitwoman_pass", "no_counter")]
            if preferred and rng.random() < 0.5:
                choice = rng.choice(preferred)
            elif passes and rng.random() < 0.8:
                choice = passes[0]
            else:
                choice = rng.choice(offered)
            click(p, choice["id"])
        time.sleep(0.02)
    raise AssertionError("the match did not end in time")


def check_visibility(server: ServerProcess, game: str, table_id: int, phones: list[Any],
                     seats: list[int], earlier: dict[int, list[dict[str, Any]]] | None = None) -> int:
    """Every card each phone received was visible to its seat at that step (the events a
    resumed ``match_started`` lists as ``missed``: at one of the steps it missed);
    returns how many messages were checked. ``earlier[seat]``: what that phone's page
    received before it was reloaded."""
    rules = get_game(game)
    _, visible, wire = card_api(rules)
    assert visible is not None and wire is not None
    paths = sorted((Path(server.data_dir) / "matches").glob(f"table-{table_id}-*.jsonl"))
    assert paths, "the server logged no match"
    log = matchlog.parse(paths[-1].read_bytes())
    steps = [(state, events) for state, _seat, _action, events in matchlog.replay(rules, log)]
    checked = 0
    for phone, seat in zip(phones, seats):
        last_step = 0
        for msg in (earlier or {}).get(seat, []) + received(phone):
            if msg.get("table") != table_id:
                continue
            if msg["type"] in ("match_started", "update"):
                assert msg.get("seat", seat) == seat, "a phone got another seat's match_started"
                state, events = steps[msg["step"]]
                shown = wire(msg["view"]) | wire(msg.get("events", []))
                allowed = visible(state, seat, events)
                if msg.get("missed"):
                    shown |= wire(msg["missed"])
                    for k in range(last_step + 1, msg["step"] + 1):
                        allowed |= visible(steps[k][0], seat, steps[k][1])
                last_step = msg["step"]
                leaked = shown - allowed
                assert not leaked, (f"seat {seat} received hidden card(s) {sorted(leaked)} "
                                    f"at step {msg['step']}")
                assert msg["view"]["seat"] == seat
                checked += 1
            elif msg["type"] == "match_over":
                state, events = steps[-1]
                assert not (wire(msg["result"]) - visible(state, seat, events))
    return checked


def test_room_api(server, host):
    table = host.create("omerta", 3, {"seed": 3}, bots=[])
    code = room_code(table["id"])
    with urllib.request.urlopen(f"http://127.0.0.1:{server.web_port}/api/room/{code.lower()}") as r:
        body = json.loads(r.read())
    assert body["room"] == code and body["table"]["id"] == table["id"] and body["ws"] == "/ws"
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(f"http://127.0.0.1:{server.web_port}/api/room/{room_code(table['id'] + 1)}")
    assert e.value.code == 404
    assert host.welcome["web_port"] == server.web_port


def test_omerta_match_from_two_phones_with_a_snap(server, host, phones):
    # seat 0 (phone) draws a 5 and discards it; seat 1 (phone) holds a 5 in its first slot
    deck = ["7", "8", "9", "10", "5", "1", "2", "3", "4", "6", "6", "4", "1", "2", "3", "4", "5"]
    table = host.create("omerta", 3, {"seed": 11, "rounds": 1, "bot_think_ms": 20, "deck": deck,
                                      "first_player": 0, "snap_timeout_ms": 4000}, bots=[2])
    url = server.url(room_code(table["id"]))
    join_seat(phones[0], url, "Lena", 0)
    join_seat(phones[1], url, "Marc", 1)
    first = wait_for(phones[1], "return window.__mafia.view && window.__mafia.view.players[1].slots[0].slot")
    # the peeks: seat 1 looks at its first card (the 5)
    press(phones[1], "peek", lambda a: first in a["slots"])
    press(phones[0], "peek")
    wait_for(phones[1], f"return window.__mafia.memory[{first}] && window.__mafia.memory[{first}].value === 5")
    press(phones[0], "draw_deck")
    press(phones[0], "discard_drawn")
    human_pause(phones[1])
    snap = press(phones[1], "snap", lambda a: a["slot"] == first)
    assert snap == {"type": "snap", "slot": first}
    result = wait_for(phones[1], "return window.__received.find(m => m.type === 'claim_result')")
    assert result["outcome"] == "won", result
    sent = wait_for(phones[1], "return window.__received.find(m => m.type === 'update' && "
                               "m.events.some(e => e.type === 'snap' && e.seat === 1 && e.success))")
    assert sent
    # the claim carried both stamps from the page's clock: a human reaction time
    assert 0 < result["reaction_ms"] < 20000
    play_out(phones, random.Random(5), prefer=("declare_omerta",))
    assert check_visibility(server, "omerta", table["id"], phones, [0, 1]) > 10
    # the check is able to fail: seat 1's 5 (bottle ids 16-19) planted in seat 0's step 1
    phones[0].execute_script(
        "window.__received.push({type: 'update', table: arguments[0], step: 1, events: [], "
        "view: {seat: 0, planted: [16, 17, 18, 19].map(i => ({id: i, kind: 'bottle', value: 5}))}})",
        table["id"])
    with pytest.raises(AssertionError, match="hidden card"):
        check_visibility(server, "omerta", table["id"], phones, [0, 1])
    # the phones' clocks were synchronised: the server sent each a clock estimate
    for p in phones:
        assert p.execute_script("return window.__received.some(m => m.type === 'clock')")


def test_family_business_match_from_two_phones_with_a_counter(server, host, phones):
    # seat 0 (phone) holds contracts, seat 1 (phone) a Family Influence
    deck = (["contract"] * 5 + ["family_influence", "mob_power", "lam", "intrigue", "truce"]
            + ["contract_no_mp", "contract_no_mp", "priority_contract", "double_contract", "ambush"])
    table = host.create("family_business", 3, {"seed": 12, "bot_think_ms": 20, "deck": deck,
                                               "first_player": 0}, bots=[2])
    url = server.url(room_code(table["id"]))
    join_seat(phones[0], url, "Lena", 0)
    join_seat(phones[1], url, "Marc", 1)
    press(phones[0], "contract", lambda a: a["target"] == 1)
    prompt = wait_for(phones[1], "const p = document.querySelector('.prompt.hot'); return p && p.textContent")
    assert "Lena" in prompt  # the counter prompt names the attacker (in French on this phone)
    human_pause(phones[1])
    counter = press(phones[1], "counter")
    result = wait_for(phones[1], "return window.__received.find(m => m.type === 'claim_result')")
    assert result["outcome"] == "won", result
    wait_for(phones[1], "return window.__received.some(m => m.type === 'update' && "
                        f"m.events.some(e => e.type === 'counter' && e.seat === 1 && e.card.id === {counter['card']}))")
    # a reloaded page takes its seat back with the token kept in localStorage
    before = received(phones[1])
    phones[1].refresh()
    resumed = wait_for(phones[1], "return window.__received.find(m => m.type === 'match_started')")
    assert resumed["resumed"] is True and resumed["seat"] == 1
    wait_for(phones[1], "return document.querySelector('.fbcard') !== null")
    play_out(phones, random.Random(6), prefer=("hit", "massacre", "contract"))
    assert check_visibility(server, "family_business", table["id"], phones, [0, 1], {1: before}) > 10


COUNTDOWN = "const b = document.querySelector('#countdown'); return !b.hidden && b.textContent"


def test_phones_count_down_to_a_held_seats_stand_in_and_to_a_restarted_servers_wait(server, host, phones):
    import re

    table = host.create("mafiosi", 3, {"seed": 2, "bot_think_ms": 0}, bots=[])
    url = server.url(room_code(table["id"]))
    join_seat(phones[0], url, "Lena", 0)
    join_seat(phones[1], url, "Marc", 1)
    other = Host(server.port, "Zoe")
    other.request("join", table=table["id"], seat=2)
    for phone in phones:
        wait_for(phone, "return window.__mafia.playing && window.__mafia.offset !== null")
    other.close()  # Zoe's Wi-Fi blip: her seat is held, no stand-in for server.drop_grace_s (5 s)
    en, fr = (wait_for(phone, COUNTDOWN) for phone in phones)
    assert re.fullmatch(r"Zoe is away — a bot plays in [345] s", en), en
    assert re.fullmatch("Zoe est absent — un bot joue dans [345]\u00a0s", fr), fr
    later = wait_for(phones[0], "const b = document.querySelector('#countdown'); "
                                f"return !b.hidden && b.textContent !== {json.dumps(en)} && b.textContent")
    assert re.fullmatch(r"Zoe is away — a bot plays in [234] s", later), later  # it counts
    wait_for(phones[0], "return document.querySelector('#countdown').hidden", timeout=10)  # a bot plays
    # a restarted server's wait for its players, as its table_paused says it
    push = ("const S = window.__mafia; S.ws.onmessage({data: JSON.stringify({type: 'table_paused', "
            "table: S.table, message: 'the server restarted', until: performance.now() + S.offset + %d})})")
    phones[0].execute_script(push % 12_500)
    assert wait_for(phones[0], COUNTDOWN) == ("The server restarted and waits for the players: "
                                              "the match goes on in 13 s.")
    phones[0].execute_script("const S = window.__mafia; S.ws.onmessage({data: JSON.stringify("
                             "{type: 'table_resumed', table: S.table})})")
    wait_for(phones[0], "return document.querySelector('#countdown').hidden")
