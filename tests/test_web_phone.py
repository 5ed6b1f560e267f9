"""Phones as private hands, end to end (docs/PROTOCOL.md "Web controller").

A real ``mafia-server`` process with its phone page, two headless Chromium phones
(Debian's ``chromium`` and ``chromium-driver``, through selenium; one in English, one in
French) that join by the room code, bots in the other seats, and a whole match of each
of the four games played by tapping the page's buttons: Omerta with snaps from the
phones (a wrong one that gives a fifth card, then a race with the claim buttons checked
on screen at 360x640 and 390x844), Family Business with a counter and a reload,
Famiglia with pair recruits on both phones, a view that cannot be drawn and the seat's
token taken over on another device (the old phone is told, then takes it back),
Mafiosi with a reload, then its podium and Play again (a second match begins from the
phones); a Mafiosi table started by its host from a phone, with a spectator phone at the
full table, emotes (the fourth refused, in French) and Leave. The snap window counts
down on screen, and the French phone says the server's sentences in French. Afterwards
every ``match_started``, ``update`` and
``match_over`` each page received (the page keeps them in ``window.__received``) is
checked against the game's visibility rules, replayed from the server's match log: no
phone ever received a card its seat may not see (the check of tests/test_conformance.py,
on the real wire). Matches are kept short (one round, bots that do not think).

Skipped when Chromium, its driver or selenium is missing, except under CI (``CI=true``),
where ``.ci/run`` installs them: there it fails.
"""
from __future__ import annotations

import os
import random
import re
import time
import urllib.request
import json
from pathlib import Path
from typing import Any

import pytest

from shared import matchlog
from shared.games import get_game
from tests.test_conformance import card_api
from tests.test_loopback_processes import REAL_TIME
from tools.screenshots_phone import (JS_BUTTONS, PHONE_SIZE, Host, ServerProcess, buttons,
                                     chromium_available, close_phone, join_seat, open_phone, received)

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


def tap(phone: Any, button_id: str, timeout: float = 10.0) -> None:
    """Click the button ``button_id``, again if the page drew it anew meanwhile."""
    deadline = time.monotonic() + timeout
    while not click(phone, button_id):
        if time.monotonic() > deadline:
            raise AssertionError(f"could not tap #{button_id}")
        time.sleep(0.03)


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


#: What :func:`play_out` needs of a page, in one round trip: the buttons it offers
#: (:data:`tools.screenshots_phone.JS_BUTTONS`) and whether it shows the result.
JS_LOOK = ("return {over: window.__mafia.result !== null, buttons: (function () {"
           + JS_BUTTONS + "})()};")


def play_out(phones: list[Any], rng: random.Random, prefer: tuple[str, ...], timeout: float = 150.0) -> None:
    """Tap random legal actions on every phone until both show the match result; an
    action whose type is in ``prefer`` is taken with probability 1/2 when offered (so
    that the match ends in reasonable time); reaction windows are mostly passed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        looks = [p.execute_script(JS_LOOK) for p in phones]  # one round trip per phone
        if all(look["over"] for look in looks):
            return
        for p, look in zip(phones, looks):
            offered = look["buttons"]
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
    code = table["room"]  # the host is told its table's code
    with urllib.request.urlopen(f"http://127.0.0.1:{server.web_port}/api/room/{code.lower()}") as r:
        body = json.loads(r.read())
    assert body["room"] == code and body["table"]["id"] == table["id"] and body["ws"] == "/ws"
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(f"http://127.0.0.1:{server.web_port}/api/room/{'BCDFG' if code != 'BCDFG' else 'BCDFH'}")
    assert e.value.code == 404
    assert host.welcome["web_port"] == server.web_port


#: The claim bar's buttons as laid out now, and whether each is the element under its
#: own centre (nothing covers it): ``{buttons: [...], vw, vh}``, null without a bar.
JS_CLAIM_BAR = """const bar = document.querySelector('#claimbar');
if (!bar) return null;
const out = [];
for (const b of bar.querySelectorAll('button[data-action]')) {
  const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  out.push({type: b.dataset.type, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            height: r.height, hit: hit === b || b.contains(hit)});
}
return {buttons: out, vw: window.innerWidth, vh: window.innerHeight};"""


def set_viewport(phone: Any, size: tuple[int, int]) -> None:
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": True})
    wait_for(phone, f"return window.innerWidth === {size[0]} && window.innerHeight === {size[1]}")


def claim_bar_on_screen(phone: Any, sizes: tuple[tuple[int, int], ...] = ((360, 640), (390, 844)),
                        claims: int = 1) -> None:
    """At each viewport size, scrolled to the top and to the bottom of the page, every
    claim and pass button of the open window is inside the screen, uncovered and big
    enough to tap; at least ``claims`` claim buttons and one pass."""
    try:
        for size in sizes:
            set_viewport(phone, size)
            for scroll in ("0", "document.documentElement.scrollHeight"):
                phone.execute_script(f"window.scrollTo(0, {scroll});")
                bar = phone.execute_script(JS_CLAIM_BAR)
                assert bar is not None, "no claim bar during the window"
                kinds = [b["type"] for b in bar["buttons"]]
                assert sum(k.endswith("pass") or k == "no_counter" for k in kinds) == 1, kinds
                assert len(kinds) - 1 >= claims, kinds
                for b in bar["buttons"]:
                    where = f"{b['type']} at {size}, scrolled to {scroll}: {b}"
                    assert 0 <= b["top"] and b["bottom"] <= bar["vh"], where
                    assert 0 <= b["left"] and b["right"] <= bar["vw"], where
                    assert b["hit"] and b["height"] >= 44, where
    finally:
        set_viewport(phone, PHONE_SIZE)


def test_omerta_match_from_two_phones_with_snaps_and_the_claims_on_screen(server, host, phones):
    # seat 0 (phone) draws a 5 and discards it: seat 0 snaps a wrong card (a fifth card and
    # a notice); seat 1 (phone) draws the next 5: seat 1 snaps its 5 while seat 0 looks
    deck = ["7", "8", "9", "10", "5", "1", "2", "3", "4", "6", "6", "4", "1", "2", "3", "4",
            "5", "8", "5"]
    table = host.create("omerta", 3, {"seed": 11, "rounds": 1, "bot_think_ms": 0, "deck": deck,
                                      "first_player": 0, "snap_timeout_ms": 8000}, bots=[2])
    url = server.url(table["room"])
    join_seat(phones[0], url, "Lena", 0)
    join_seat(phones[1], url, "Marc", 1)
    first = wait_for(phones[1], "return window.__mafia.view && window.__mafia.view.players[1].slots[0].slot")
    seven = wait_for(phones[0], "return window.__mafia.view && [window.__mafia.view.players[0].slots[0].slot]")[0]
    # the peeks: seat 1 looks at its first card (the 5)
    press(phones[1], "peek", lambda a: first in a["slots"])
    press(phones[0], "peek", lambda a: seven in a["slots"])
    wait_for(phones[1], f"return window.__mafia.memory[{first}] && window.__mafia.memory[{first}].value === 5")
    press(phones[0], "draw_deck")
    press(phones[0], "discard_drawn")
    human_pause(phones[0])
    press(phones[0], "snap", lambda a: a["slot"] == seven)  # a 7 is no 5: a penalty card
    wrong = wait_for(phones[0], "return window.__received.find(m => m.type === 'claim_result')")
    assert wrong["outcome"] == "wrong", wrong
    press(phones[1], "snap_pass")
    wait_for(phones[0], "return window.__mafia.view.players[0].slots.length === 5 && !window.__mafia.view.window")
    press(phones[1], "draw_deck")
    press(phones[1], "discard_drawn")
    wait_for(phones[0], "return document.querySelectorAll('#claimbar button[data-claim]').length === 5")
    assert phones[0].execute_script("return document.querySelector('.notice').textContent")  # and a notice
    # the window counts down in its bar: its 8 s (snap_timeout_ms), in each phone's language
    shown = wait_for(phones[0], "const b = document.querySelector('#wincount b'); return b && b.textContent")
    assert re.fullmatch(r"[1-8] s", shown), shown
    shown = wait_for(phones[1], "const b = document.querySelector('#wincount b'); return b && b.textContent")
    assert re.fullmatch("[1-8]\u00a0s", shown), shown
    claim_bar_on_screen(phones[0], claims=5)
    human_pause(phones[1])
    snap = press(phones[1], "snap", lambda a: a["slot"] == first)
    assert snap == {"type": "snap", "slot": first}
    result = wait_for(phones[1], "return window.__received.find(m => m.type === 'claim_result')")
    assert result["outcome"] == "won", result
    # the French phone says the server's sentence in French (sent as a code with its params)
    assert result["sentence"]["code"] in ("first", "first_by"), result
    notice = wait_for(phones[1], "const n = document.querySelector('.notice'); return n && n.textContent")
    assert notice.startswith("Vous étiez le premier ! (premier") and "first" not in notice, notice
    assert wait_for(phones[1], "return window.__received.find(m => m.type === 'update' && "
                               "m.events.some(e => e.type === 'snap' && e.seat === 1 && e.success))")
    # the claim carried both stamps from the page's clock: a human reaction time
    assert 0 < result["reaction_ms"] < 20000
    wait_for(phones[0], "return !document.querySelector('#claimbar')")  # the window closed: no bar
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
    table = host.create("family_business", 3, {"seed": 12, "bot_think_ms": 0, "deck": deck,
                                               "first_player": 0, "counter_timeout_ms": 6000}, bots=[2])
    url = server.url(table["room"])
    join_seat(phones[0], url, "Lena", 0)
    join_seat(phones[1], url, "Marc", 1)
    press(phones[0], "contract", lambda a: a["target"] == 1)
    prompt = wait_for(phones[1], "const p = document.querySelector('.prompt.hot'); return p && p.textContent")
    assert "Lena" in prompt  # the counter prompt names the attacker (in French on this phone)
    window = phones[1].execute_script("return window.__mafia.view.window")
    assert window["timeout_ms"] == 6000  # the table's counter_timeout_ms
    claim_bar_on_screen(phones[1], sizes=(PHONE_SIZE,))
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


def _lines_until(sock_host: Host, kind: str) -> dict[str, Any]:
    """Read ``sock_host``'s connection until a ``kind`` message (pings are not answered:
    the server may have closed the connection after it)."""
    while True:
        msg = sock_host._line()
        if msg["type"] == kind:
            return msg


#: A page update whose view the Famiglia screen cannot draw (no ``players``), offering
#: the seat's real actions: the page must still show them.
BROKEN = ("const S = window.__mafia; const last = window.__received.filter(m => m.table === S.table && "
          "(m.type === 'update' || m.type === 'match_started')).pop(); "
          "S.ws.onmessage({data: JSON.stringify({type: 'update', table: S.table, step: S.step, events: [], "
          "view: {game: 'famiglia', seat: S.seat, turn: S.seat, street: 'not a list'}, legal: last.legal, "
          "injected: true})}); return last;")


def test_famiglia_match_with_pair_recruits_a_broken_view_and_a_token_taken_over(server, host, phones):
    # the street: two 0s of La Famiglia (taken free), then two 1s (recruited with a pair of 0s)
    table = host.create("famiglia", 2, {"seed": 13, "bot_think_ms": 0, "first_player": 0,
                                        "deck": ["F0", "F0", "F1", "F1", "A0", "A1"]}, bots=[])
    url = server.url(table["room"])
    join_seat(phones[0], url, "Lena", 0)
    join_seat(phones[1], url, "Marc", 1)
    zeros, ones = range(0, 5), range(5, 9)  # card ids of La Famiglia's 0s and 1s
    press(phones[0], "take_free", lambda a: a["card"] in zeros)
    press(phones[1], "take_free", lambda a: a["card"] in zeros)
    for phone, seat in zip(phones, (0, 1)):
        wait_for(phone, "return window.__mafia.legal.some(a => a.type === 'take_pair')")
        # the button names the card recruited, the one to the gang and the one kept
        label = phone.execute_script("return Array.from(document.querySelectorAll('button[data-type=take_pair]'))"
                                     ".map(b => b.textContent)[0]")
        assert label.count("0") >= 2 and "1" in label and "undefined" not in label, label
        pair = press(phone, "take_pair", lambda a: a["card"] in ones)
        assert isinstance(pair["keep"], int) and pair["keep"] in zeros and pair["to_gang"] in zeros
        recruit = wait_for(phone, "return window.__received.map(m => (m.events || []).find(e => e.type === "
                                  f"'recruit' && e.mode === 'pair' && e.seat === {seat})).find(e => e)")
        assert recruit["kept"]["id"] == pair["keep"]  # the kept card, told to its owner
    assert not phones[0].execute_script("return window.__renderErrors.length")
    # a view the page cannot draw: the screen still offers the seat's actions
    wait_for(phones[0], "return window.__mafia.legal.length > 0")
    last = phones[0].execute_script(BROKEN)
    assert phones[0].execute_script("return window.__renderErrors.length") >= 1
    shown = sorted(b["action"]["type"] for b in buttons(phones[0]))
    assert shown and shown == sorted(a["type"] for a in last["legal"])
    phones[0].execute_script("const S = window.__mafia; S.ws.onmessage({data: JSON.stringify(arguments[0])}); "
                             "window.__received = window.__received.filter(m => !m.injected); "
                             "window.__received.pop();", last)  # the real view again
    wait_for(phones[0], "return document.querySelector('.card.fam') !== null")
    # Marc's seat token used on another device: his phone is told, keeps no live button
    token = phones[1].execute_script("return window.__mafia.token")
    tablet = Host(server.port, "Marc's tablet")
    try:
        assert tablet.request("reconnect", token=token)["seat"] == 1
        told = wait_for(phones[1], "const p = document.querySelector('#taken-over'); return p && p.textContent")
        assert told == "Votre place a été reprise sur un autre appareil."
        assert not buttons(phones[1]) and phones[1].execute_script(
            "return !document.querySelector('#claimbar') && window.__mafia.view === null && "
            "window.__received.some(m => m.type === 'taken_over' && m.seat === 1)")
        for lang_text in ("Your seat was taken over on another device.", told):  # either language
            phones[1].find_element("id", "lang").click()
            wait_for(phones[1], "const p = document.querySelector('#taken-over'); "
                                f"return p && p.textContent === {json.dumps(lang_text)}")
        phones[1].find_element("id", "take-back").click()  # and takes it back
        wait_for(phones[1], "return window.__mafia.playing && document.querySelector('.card.fam') !== null")
        assert _lines_until(tablet, "taken_over")["seat"] == 1  # now the tablet is told
    finally:
        tablet.close()
    before = {1: received(phones[1])}
    play_out(phones, random.Random(7), prefer=("pass",))
    assert check_visibility(server, "famiglia", table["id"], phones, [0, 1]) > 5
    assert not phones[1].execute_script("return window.__renderErrors.length")
    assert before  # the page was never reloaded: its frames are all in window.__received


def test_mafiosi_match_from_a_phone_with_a_reload(server, host, phones):
    table = host.create("mafiosi", 3, {"seed": 14, "rounds": 1, "bot_think_ms": 0}, bots=[2])
    url = server.url(table["room"])
    join_seat(phones[0], url, "Lena", 0)
    join_seat(phones[1], url, "Marc", 1)
    rng = random.Random(8)
    for _ in range(3):  # a few moves, then the page is reloaded mid-match
        for p in phones:
            offered = buttons(p)
            if offered:
                click(p, rng.choice(offered)["id"])
        time.sleep(0.2)
    before = received(phones[0])
    phones[0].refresh()
    resumed = wait_for(phones[0], "return window.__received.find(m => m.type === 'match_started')")
    assert resumed["resumed"] is True and resumed["seat"] == 0
    play_out(phones, rng, prefer=())
    assert check_visibility(server, "mafiosi", table["id"], phones, [0, 1], {0: before}) > 10
    assert all(p.execute_script("return window.__mafia.result.game") == "mafiosi" for p in phones)
    # the end: a podium of the three seats, the winner first, and Play again on both phones
    for p in phones:
        places = p.execute_script("return Array.from(document.querySelectorAll('.podium .place .pname'))"
                                  ".map(e => e.textContent)")
        assert len(places) == 3, places
        winners = p.execute_script("return window.__mafia.result.winners.map(s => "
                                   "s === window.__mafia.seat ? 'me' : s)")
        assert winners, winners
    tap(phones[0], "play-again")
    wait_for(phones[1], "return (window.__mafia.summary.rematch || []).indexOf(0) >= 0 && "
                        "document.querySelector('.result .info') !== null")  # Marc sees Lena asked
    ended = len(received(phones[1]))
    tap(phones[1], "play-again")
    for p in phones:  # a second match at the same table, from the phones
        second = wait_for(p, f"return window.__received.slice({ended if p is phones[1] else 0})"
                             ".find(m => m.type === 'match_started' && !m.resumed && "
                             "window.__received.indexOf(m) > window.__received.findIndex(x => x.type === 'match_over'))")
        assert second["table"] == table["id"] and second["step"] == 0
        wait_for(p, "return window.__mafia.result === null && !document.querySelector('.podium')")
        press(p, "choose_bouncer")  # both play the new match's first move
    assert wait_for(phones[1], "return window.__received.filter(m => m.type === 'table' && "
                               "m.table.match_no === 2).length > 0 || window.__mafia.summary.match_no === 2")


COUNTDOWN = "const b = document.querySelector('#countdown'); return !b.hidden && b.textContent"


def test_phones_count_down_to_a_held_seats_stand_in_and_to_a_restarted_servers_wait(server, host, phones):
    import re

    table = host.create("mafiosi", 3, {"seed": 2, "bot_think_ms": 0}, bots=[])
    url = server.url(table["room"])
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


def test_host_starts_from_a_phone_a_spectator_watches_the_full_table_emotes_and_leave(server, phones):
    fr, en = phones[1], phones[0]  # the French phone plays (and hosts), the English one watches
    creator = Host(server.port, "Vito")
    try:
        table = creator.create("mafiosi", 3, {"seed": 15, "rounds": 1, "bot_think_ms": 0, "start": "host"},
                               bots=[2])
        url = server.url(table["room"])
        join_seat(fr, url, "Léa", 0)
    finally:
        creator.close()  # the host leaves before the match: the seated phone is the host now
    wait_for(fr, "return window.__mafia.summary.host === 0 && document.querySelector('#add-bot') !== null")
    assert fr.execute_script("return document.querySelector('#start').disabled")  # a seat is free
    tap(fr, "add-bot")
    wait_for(fr, "const b = document.querySelector('#start'); return b && !b.disabled")
    # the table is full: a second phone is offered to watch it, and does
    en.get(url)
    wait_for(en, "return document.querySelector('#watch') !== null && document.querySelector('button.seat')")
    assert en.execute_script("return document.querySelectorAll('button.seat:not([disabled])').length") == 0
    tap(en, "watch")
    wait_for(en, "return window.__mafia.spectator && window.__received.some(m => m.type === 'joined')")
    assert not en.execute_script("return document.querySelector('#start')")  # only the host starts
    tap(fr, "start")
    started = wait_for(en, "return window.__received.find(m => m.type === 'match_started')")
    assert started["seat"] is None and started["legal"] == []
    wait_for(fr, "return window.__mafia.playing && window.__mafia.legal.length > 0")
    wait_for(en, "return document.querySelector('.players') !== null")
    assert not buttons(en) and not en.execute_script("return document.querySelector('.emote')")
    # an emote from the player reaches the spectator; a fourth within 5 s is refused, in French
    for _ in range(3):
        tap(fr, "emote-clap")
    wait_for(en, "return window.__received.filter(m => m.type === 'emote' && m.emote === 'clap' && "
                 "m.seat === 0).length === 3")
    assert wait_for(en, "const t = document.querySelector('#toast'); return !t.hidden && t.textContent") == "Léa: Bravo!"
    tap(fr, "emote-laugh")
    refused = wait_for(fr, "const n = document.querySelector('.notice'); return n && n.textContent")
    assert refused == "Refusé : au plus 3 réactions en 5 s ; patientez un peu", refused
    play_out([fr, en], random.Random(9), prefer=())
    assert check_visibility(server, "mafiosi", table["id"], [fr, en], [0, None]) > 10
    assert en.execute_script("return document.querySelectorAll('.podium .place').length") == 3
    assert not en.execute_script("return document.querySelector('#play-again')")  # a spectator does not ask
    # Leave: two taps; the phone forgets the seat and is back on the join screen
    tap(fr, "leave")
    assert fr.execute_script("return window.__received.every(m => m.type !== 'left')")  # the first tap arms it
    tap(fr, "leave")
    wait_for(fr, "return document.querySelector('#room-code') !== null && "
                 "document.querySelector('#join-message').textContent === 'Vous avez quitté la table.'")
    assert fr.execute_script(f"return localStorage.getItem('mafia.room.{table['room']}')") is None


def test_a_phone_asks_for_a_hint_and_sees_its_button_outlined_in_its_language(server, host, phones):
    """At a table whose host allows hints, the French phone's Hint button gets the
    server's suggestion: said above the table in French, its action's button outlined --
    one of the seat's legal actions."""
    table = host.create("mafiosi", 3, {"seed": 21, "rounds": 1, "bot_think_ms": 0, "hints": True}, bots=[1, 2])
    assert table["hints"] is True
    phone = phones[1]
    join_seat(phone, server.url(table["room"]), "Marc", 0)
    wait_for(phone, "return window.__mafia.legal.length > 0 && document.querySelector('#hint') !== null")
    tap(phone, "hint")
    line = wait_for(phone, "const l = document.querySelector('#hintline'); return l && l.textContent")
    assert line.startswith("Conseil") and re.search(r"(🃏|[0-9JQKA]+[♥♦♠♣])$", line), line  # the card itself
    hinted = wait_for(phone, "const b = document.querySelector('button.act.hinted'); "
                             "return b && JSON.parse(b.dataset.action)")
    assert hinted in phone.execute_script("return window.__mafia.legal")
    # one answer, to this page's one request
    assert [m["type"] for m in received(phone) if m.get("type") == "hint"] == ["hint"]
