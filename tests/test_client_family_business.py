"""The Family Business table: it opens for 2 and 6 players, a pure layout without
overlaps, plays and choices built from the server's legal list by clicks, the counter
window's keys (a stamped ``counter`` claim; every eligible seat, with or without a
counter card, sees the same prompt), narration of every event type in both languages,
the hand-over screen's private hand, a spectator never shown a hand, and the replay of a
finished match."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pygame
import pytest

from client import i18n
from client.games.family_business.layout import areas, fb_layout
from client.games.family_business.narrate import KEYS, narrate
from shared.games import family_business as fb
from shared.rules import events_for
from tests import family_business_helpers as H
from tests.test_client_app import FakeLink, StampClock, click, key, make_app

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Ann", "Bob", "Cleo", "Dino", "Enzo", "Fay"]
SIZES = [(1280, 720), (1920, 1080)]


def legal(state, seat):
    return [a.to_dict() for a in fb.legal_actions(state, seat)]


def open_fb(app, state, seat, events=(), table=5):
    from client.games.family_business.table import FamilyBusinessTableScene

    link = FakeLink(seat)
    seats = [{"seat": i, "name": NAMES[i], "bot": i != seat, "connected": True} for i in range(state.n)]
    started = {"type": "match_started", "table": table, "game": "family_business", "seat": seat,
               "view": fb.view(state, seat), "legal": legal(state, seat) if seat is not None else [],
               "t_server": 0.0, "seats": seats}
    scene = app.reset(FamilyBusinessTableScene(app, link, started))
    if events:
        update(scene, link, state, seat, events, table)
    return scene, link


def update(scene, link, state, seat, events, table=5):
    scene.on_message({"type": "update", "table": table, "events": events_for(events, seat),
                      "view": fb.view(state, seat), "legal": legal(state, seat) if seat is not None else []}, link)


def sent(link):
    return [s["action"] for s in link.conn.sent]


def busy_state(n):
    """A war at rate 2 with a long hit list, some dead, and a Double Cross collecting."""
    s = H.deal([["contract"]] + [[] for _ in range(n - 1)])
    for p in range(n):
        H.to_list(s, H.mob(p, 0), H.mob(p, 1))
        H.bury(s, H.mob(p, 2))
    s.war, s.rate = True, 2
    return s


# -- the table opens --------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 6])
def test_the_table_opens_and_draws_for_two_and_six_players(tmp_path, n):
    app = make_app(tmp_path)
    s = busy_state(n)
    scene, _ = open_fb(app, s, 0)
    for _ in range(3):
        app.display.render(1 / 60, flip=False)
    assert set(scene.layout.seats) == set(range(n))
    assert scene.layout.seats[0].bottom and len(scene.layout.hand) == 6  # the first player holds six
    assert scene.prompt[0] == "Your turn: play a card"
    assert len(scene.layout.wall_slots) == 2 * n
    scene2, _ = open_fb(app, s, None)  # a spectator
    app.display.render(1 / 60, flip=False)
    assert scene2.public and not scene2.layout.hand and len(scene2.layout.backs) == 6
    assert scene2.prompt[0] == "Ann to play"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seat", [0, None, "picks"])
def test_layout_fits_and_nothing_overlaps(size, n, seat):
    s = busy_state(n)
    v = fb.view(s, 0 if seat == "picks" else seat)
    picks = v["players"][0]["front"] if seat == "picks" else ()
    lay = fb_layout(v, size, picks=picks)
    w, h = size
    rects = list(areas(lay))
    for name, r in rects:
        assert r.w > 0 and r.h > 0 and r.left >= 0 and r.top >= 0 and r.right <= w and r.bottom <= h, (name, r)
    for i, (a, ra) in enumerate(rects):
        for b, rb in rects[i + 1:]:
            assert not ra.colliderect(rb), (a, ra, b, rb)
    for area in lay.seats.values():  # every front mobster is in its seat's zone
        assert all(area.zone.contains(r) for r in area.front.values())
    assert all(lay.wall.contains(r) for r in lay.wall_slots)
    if seat == 0:  # your cards are big enough to read their effect
        assert min(r.h for r in lay.hand.values()) >= h * 0.2
    if seat == "picks":
        assert set(lay.picks) == {m["id"] for m in picks} and not lay.hand


def test_a_long_hit_list_takes_two_rows_and_stays_inside_the_wall():
    s = H.deal([[] for _ in range(6)])
    for p in range(6):
        H.to_list(s, *[H.mob(p, i) for i in range(4)])
    lay = fb_layout(fb.view(s, 0), (1280, 720))
    assert len(lay.wall_slots) == 24
    assert len({r.y for r in lay.wall_slots}) >= 2
    assert all(lay.wall.contains(r) for r in lay.wall_slots)
    assert lay.hit(lay.wall_slots[5].center) == ("mob", s.hit_list[5])


# -- clicks build legal actions ---------------------------------------------------------

def test_clicking_a_card_then_a_player_sends_the_contract(tmp_path):
    app = make_app(tmp_path)
    s = H.deal([["contract"], [], []])
    c = H.card(s, 0, "contract")
    scene, link = open_fb(app, s, 0)
    click(scene.layout.hand[c].center)
    app.sample()
    assert ("player", 1) in scene.offered and ("player", 2) in scene.offered
    assert "Contract" in scene.prompt[0] and set(scene.buttons) == {"0:void", "0:cancel"}
    click(scene.layout.mob_rect(H.mob(2, 4)).center)  # one of Cleo's mobsters stands for Cleo
    app.sample()
    assert sent(link) == [{"type": "contract", "card": c, "target": 2}]
    assert scene.ui == []  # nothing to press until the server answers


def test_a_hit_targets_a_mobster_and_a_turncoat_revives_from_the_strip(tmp_path):
    app = make_app(tmp_path)
    s = H.deal([["hit", "turncoat"], []])
    H.bury(s, H.mob(0, 8))  # Ann has fewer alive: one of hers can come back
    H.to_list(s, H.mob(1, 0))
    hit, tc = H.card(s, 0, "hit"), H.card(s, 0, "turncoat")
    scene, link = open_fb(app, s, 0)
    click(scene.layout.hand[hit].center)
    app.sample()
    click(scene.layout.mob_rect(H.mob(1, 0)).center)  # the first in line
    app.sample()
    assert sent(link) == [{"type": "hit", "card": hit, "victim": H.mob(1, 0)}]
    scene, link = open_fb(app, s, 0)
    click(scene.layout.hand[tc].center)
    app.sample()
    click(scene.layout.mob_rect(H.mob(1, 3)).center)
    app.sample()
    assert scene.layout.picks and set(scene.layout.picks) == {H.mob(0, 8)}  # the dead, in the strip
    assert "comes back" in scene.prompt[1]
    click(scene.layout.picks[H.mob(0, 8)].center)
    app.sample()
    assert sent(link) == [{"type": "turncoat", "card": tc, "victim": H.mob(1, 3), "revived": H.mob(0, 8)}]


def test_a_card_with_no_target_waits_for_play_and_any_card_can_be_voided(tmp_path):
    app = make_app(tmp_path)
    s = H.deal([["mob_war", "contract"], []])
    mw = H.card(s, 0, "mob_war")
    scene, link = open_fb(app, s, 0)
    click(scene.layout.hand[mw].center)
    app.sample()
    assert set(scene.buttons) == {"0:play", "0:void", "0:cancel"}
    click(scene.buttons["0:play"].rect.center)
    app.sample()
    assert sent(link) == [{"type": "mob_war", "card": mw}]
    scene, link = open_fb(app, s, 0)
    key(pygame.K_2)  # the second card, by its key, then Confirm
    key(pygame.K_UP)
    app.sample()
    assert scene.choosers[0].card == scene.own_cards(0)[1]
    click(scene.buttons["0:void"].rect.center)
    app.sample()
    assert sent(link) == [{"type": "void", "card": scene.own_cards(0)[1]}]


def test_the_owner_chooses_which_mobster_goes_on_the_list(tmp_path):
    app = make_app(tmp_path)
    s = H.deal([["contract"], []])
    c = H.card(s, 0, "contract")
    s, ev = H.act(s, 0, fb.Contract(c, 1))
    s, ev2 = H.pass_all(s)
    assert {a.TYPE for a in fb.legal_actions(s, 1)} == {"place"}
    scene, link = open_fb(app, s, 1, ev + ev2)
    assert set(scene.layout.picks) == {m["id"] for m in scene.view["players"][1]["front"]}
    assert scene.prompt[0] == "Choose which of your mobsters goes on the hit list"
    click(scene.layout.picks[H.mob(1, 5)].center)
    app.sample()
    assert sent(link) == [{"type": "place", "mobster": H.mob(1, 5)}]
    # on the table too: a click on the mobster in Bob's front
    scene, link = open_fb(app, s, 1)
    click(scene.layout.mob_rect(H.mob(1, 2)).center)
    app.sample()
    assert sent(link) == [{"type": "place", "mobster": H.mob(1, 2)}]


# -- the counter window -----------------------------------------------------------------

def counter_window(cleo_counters=False):
    """Ann plays a Contract on Bob; Bob holds a Family Influence, Cleo no counter (or,
    ``cleo_counters``, a Mob Power)."""
    cleo = ["mob_power"] if cleo_counters else []
    s = H.deal([["contract"], ["family_influence"], cleo + ["hit", "lam", "truce", "intrigue", "pay_off"][len(cleo):]])
    c = H.card(s, 0, "contract")
    s, ev = H.act(s, 0, fb.Contract(c, 1))
    assert fb.reaction_window(s) is not None
    return s, ev


def test_the_counter_key_sends_a_stamped_counter_claim(tmp_path):
    app = make_app(tmp_path)
    s, ev = counter_window()
    fi = H.card(s, 1, "family_influence")
    scene, link = open_fb(app, s, 1, ev)
    for _ in range(40):  # the contract lands face up: t_shown is recorded
        app.display.render(1 / 60, flip=False)
    wid = s.window.id
    assert scene.window_shown_ms.get(wid) is not None
    assert scene.window_left() is not None  # the time bar runs
    clock = app.sampler = StampClock()
    key(pygame.K_SPACE)  # the counter card is ready under the cursor
    app.sample()
    assert len(link.conn.sent) == 1
    out = link.conn.sent[0]
    assert out["action"] == {"type": "counter", "card": fi}
    assert out["t_press"] == clock.stamps[-1]
    assert out["t_shown"] == scene.window_shown_ms[wid] <= out["t_press"]


def test_a_seat_without_a_counter_sees_the_same_prompt(tmp_path):
    app = make_app(tmp_path)
    s1, ev1 = counter_window(cleo_counters=True)
    assert {"counter", "no_counter"} == {a.TYPE for a in fb.legal_actions(s1, 2)}
    with_counter, _ = open_fb(app, s1, 2, ev1)
    for _ in range(20):
        app.display.render(1 / 60, flip=False)
    prompt1, buttons1 = with_counter.prompt, {k.split(":")[1] for k in with_counter.buttons}
    s, ev = counter_window()
    assert {"no_counter"} == {a.TYPE for a in fb.legal_actions(s, 2)}
    without, link = open_fb(app, s, 2, ev)
    for _ in range(20):
        app.display.render(1 / 60, flip=False)
    assert without.prompt == prompt1 == ("Ann plays Contract on Bob: counter?",
                                         "Space: counter with your chosen card (1-6) · Enter: no counter", True)
    assert {k.split(":")[1] for k in without.buttons} == buttons1 == {"counter", "no_counter"}
    assert without.window_left() is not None  # the same time bar
    assert without.buttons["2:counter"].is_enabled is False
    key(pygame.K_SPACE)  # nothing chosen: the same words as for anybody
    app.sample()
    assert link.conn.sent == [] and "Choose one of your cards" in without.column.messages[-1][0]
    key(pygame.K_1)
    key(pygame.K_SPACE)  # a card that cannot counter
    app.sample()
    assert link.conn.sent == [] and without.column.messages[-1][0] == "You cannot use that card now."
    key(pygame.K_RETURN)
    app.sample()
    assert sent(link) == [{"type": "no_counter"}]


def test_couch_seats_get_the_same_buttons_whatever_they_hold(tmp_path):
    from client.input import binding_for

    app = make_app(tmp_path)
    s, ev = counter_window()
    scene, _ = open_fb(app, s, None, ev)  # the shared screen watches
    for seat, zone in ((1, "left"), (2, "right")):
        msg = {"type": "match_started", "table": 5, "game": "family_business", "seat": seat,
               "view": fb.view(s, seat), "legal": legal(s, seat)}
        scene.add_local_seat(FakeLink(seat), msg, binding_for(zone))
    app.display.render(1 / 60, flip=False)
    assert set(scene.buttons) == {"1:no_counter", "2:no_counter"}  # no Counter button to give it away
    assert scene.prompt[0] == "Counter? Bob, Cleo"
    assert scene.private_groups(1, scene.private_info(1))[0][1][0][0]["code"] == "family_influence"
    drawn = []
    real = app.art.shadowed

    def spy(card, w, h):
        drawn.append(card)
        return real(card, w, h)

    app.art.shadowed = spy
    app.display.render(1 / 60, flip=False)
    hands = {c for p in range(3) for c in s.hands[p]}
    assert not [c for c in drawn if c is not None and c["id"] in hands]  # no hand on the shared screen


def test_a_counter_flies_in_and_the_turn_passes_to_the_counterer(tmp_path):
    app = make_app(tmp_path)
    s, ev = counter_window()
    scene, link = open_fb(app, s, 0, ev)
    s2, ev2 = H.act(s, 1, fb.Counter(H.card(s, 1, "family_influence")))
    update(scene, link, s2, 0, ev2)
    assert any(getattr(e, "glow", None) == (255, 214, 102) for e in scene.anim.effects)  # the counter card
    assert any("counters with Family Influence" in m[0] for m in scene.column.visible())
    assert s2.turn == 1 and scene.prompt[0] == "Bob to play"
    for _ in range(120):
        app.display.render(1 / 30, flip=False)
    assert not scene.anim.busy(scene.t)


def test_events_animate_a_walk_to_the_wall_and_executions(tmp_path):
    app = make_app(tmp_path)
    s = H.deal([["contract"], []], pile=["contract"])
    H.to_list(s, H.mob(1, 0), H.mob(0, 0))
    s.war, s.rate = True, 1
    c = H.card(s, 0, "contract")
    scene, link = open_fb(app, s, 0)
    s1, ev = H.act(s, 0, fb.Contract(c, 1))
    s1, ev2 = H.pass_all(s1)
    s1, ev3 = H.act(s1, 1, fb.Place(H.mob(1, 4)))  # placed; then Bob's turn: one execution
    assert "killed" in H.types(ev3)
    update(scene, link, s1, 0, ev + ev2 + ev3)
    hides = {getattr(e, "hide_dst", None) for e in scene.anim.effects}
    assert ("mob", H.mob(1, 4)) in hides and ("rip", 0) in hides and ("discard", 0) in hides
    assert any("Executed" in m[0] for m in scene.column.visible())


# -- narration ---------------------------------------------------------------------------

def appendix_event_types():
    doc = (ROOT / "docs/protocol/family_business.md").read_text(encoding="utf-8")
    section = doc.split("## Events", 1)[1].split("## The view", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.M)


def _flat(d, prefix=""):
    for k, v in d.items():
        if isinstance(v, dict):
            yield from _flat(v, prefix + k + ".")
        else:
            yield prefix + k


SAMPLE = {
    "turn": {"seat": 1, "turn_no": 3}, "turn_void": {"seat": 1}, "draw": {"seat": 1, "reason": "turn"},
    "no_draw": {"seat": 1}, "reshuffle": {"draw_pile": 20},
    "play": {"seat": 0, "card": {"id": 54, "kind": "action", "code": "contract", "name": "Contract",
                                 "category": "contract"}, "play": "contract", "target": 1},
    "void": {"seat": 0, "card": {"id": 90, "kind": "action", "code": "truce", "name": "Truce", "category": "rescue"}},
    "window_opened": {"window": 1, "attacker": 0, "card": {"id": 54, "kind": "action", "code": "contract",
                                                           "name": "Contract", "category": "contract"}},
    "pass": {"seat": 2, "window": 1},
    "counter": {"seat": 1, "card": {"id": 80, "kind": "action", "code": "family_influence",
                                    "name": "Family Influence", "category": "counter"}, "success": True},
    "window_closed": {"window": 1, "kind": "counter", "reason": "timeout"},
    "choice": {"seat": 1, "count": 1, "mode": "append", "card": "contract"},
    "placed": {"seat": 1, "mobster": 9, "index": 0}, "collected": {"seat": 1, "mobster": 9},
    "moved": {"mobster": 9, "index": 1}, "reordered": {"hit_list": [9, 0]},
    "returned": {"seat": 1, "mobster": 9, "index": 0}, "swapped": {"mobster": 9, "other": 0, "index": 1,
                                                                   "other_index": 0},
    "substituted": {"mobster": 9, "other": 0, "index": 0}, "revived": {"seat": 1, "mobster": 9, "index": None},
    "killed": {"seat": 1, "mobster": 9, "cause": "war"}, "eliminated": {"seat": 1, "discarded": []},
    "war_started": {"rate": 2, "cause": "ambush"}, "war_rate": {"rate": 1, "cause": "mob_war"},
    "war_ended": {"cause": "truce"}, "match_over": {"winners": [0], "reason": "last_gang", "alive": [3, 0]},
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_event_type_is_told_in_both_languages(lang):
    types = appendix_event_types()
    assert len(types) >= 25 and set(types) <= set(KEYS) and set(types) <= set(SAMPLE)
    here = ROOT / "client/games/family_business"
    strings = set(_flat(json.loads((here / f"mafia.{lang}.json").read_text(encoding="utf-8"))[lang]))
    strings |= set(_flat(json.loads((ROOT / f"client/mafia.{lang}.json").read_text(encoding="utf-8"))[lang]))
    missing = sorted(k for t in types for k in KEYS[t] if k not in strings)
    assert not missing, missing
    i18n.setup(lang)
    try:
        for t in types:
            line = narrate({"type": t, **SAMPLE[t]}, lambda p: NAMES[p], set())
            assert line is not None and line[0] and "mafia." not in line[0] and "%{" not in line[0], (t, line)
        for cause in ("war", "hit", "massacre", "turncoat"):
            assert "mafia." not in narrate({"type": "killed", "mobster": 3, "cause": cause}, str, set())[0]
    finally:
        i18n.setup("en")


def test_the_card_effects_and_names_exist_for_every_card_in_both_languages():
    for lang in ("en", "fr"):
        here = ROOT / "client/games/family_business"
        strings = set(_flat(json.loads((here / f"mafia.{lang}.json").read_text(encoding="utf-8"))[lang]))
        for code in fb.ACTION_TYPES:
            assert f"fb.card.{code}" in strings and f"fb.effect.{code}" in strings, (lang, code)
    assert "game.family_business" in strings


# -- replay, results, registry -----------------------------------------------------------

def write_log(path, seats=3, seed=4):
    from shared import matchlog
    from shared.bots import make_bot
    from shared.sim import play_match

    bots = [make_bot("family_business", p, f"{seed}/{p}", {"think_ms": 0}) for p in range(seats)]
    record = play_match(fb, {"seats": seats}, seed, bots)
    players = [{"seat": p, "name": NAMES[p], "bot": True, "token": "-"} for p in range(seats)]
    lines = [matchlog.line(matchlog.header("family_business", {"seats": seats}, seed, 3, "Night", players))]
    lines += [matchlog.line(matchlog.action_record(i, seat, action, i * 900.0))
              for i, (seat, action) in enumerate(record.log, start=1)]
    lines.append(matchlog.line({"kind": "over", "result": {"game": "family_business", **fb.scores(record.state)},
                                "t": (len(record.log) + 1) * 900.0}))
    path.write_text("".join(lines), encoding="utf-8")
    return record


def test_the_replay_of_a_finished_match_opens_and_plays(tmp_path):
    from client.games.family_business.table import FamilyBusinessTableScene
    from client.scenes.replay import ReplayScene, load

    app = make_app(tmp_path)
    path = tmp_path / "fb.jsonl"
    write_log(path)
    replay = app.push(ReplayScene(app, load(str(path)), "fb.jsonl"))
    table = replay.table
    assert isinstance(table, FamilyBusinessTableScene) and table.replay and not table.links
    replay.seek(replay.last // 2)
    for _ in range(10):
        replay.forward()
        app.display.render(1 / 30, flip=False)
    assert table.column.history.rows  # told in the message column
    replay.seek(replay.last)
    app.display.render(1 / 60, flip=False)
    assert table.view["phase"] == "over" and app.top is replay  # no results pop-up in a replay
    assert table.layout.hand  # a finished match shows the hand at the bottom face up


def test_the_end_shows_the_results_board(tmp_path):
    from client.games.family_business.results import FBResultsScene

    app = make_app(tmp_path)
    s = H.deal([["hit"], []])
    for i in range(1, 9):
        H.bury(s, H.mob(1, i))
    hit = H.card(s, 0, "hit")
    scene, link = open_fb(app, s, 0)
    s1, ev = H.act(s, 0, fb.Hit(hit, H.mob(1, 0)))
    assert s1.phase == "over"
    update(scene, link, s1, 0, ev)
    scene.on_message({"type": "match_over", "table": 5, "result": {"winners": [0], "reason": "last_gang",
                                                                   "scores": [9, 0], "turns": 1}}, link)
    results = app.top
    assert isinstance(results, FBResultsScene) and results.outcome()["winners"] == [0]
    app.display.render(1 / 60, flip=False)
    assert any("wins" in m[0] for m in scene.column.visible())


def test_it_is_registered_and_hostable():
    from client import games

    assert games.get("family_business").couch and not games.get("family_business").quick_game
    assert "family_business" in dict(games.hostable())
    assert games.title("family_business") == "Family Business"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_string_of_the_game_resolves(lang):
    """python-i18n takes a dict with two plural keys ("one", "many"...) for a plural form:
    every key of the game's files must come back translated."""
    here = ROOT / "client/games/family_business"
    keys = list(_flat(json.loads((here / f"mafia.{lang}.json").read_text(encoding="utf-8"))[lang]))
    i18n.setup(lang)
    try:
        bad = [k for k in keys if i18n.tr(k).startswith("mafia.")]
    finally:
        i18n.setup("en")
    assert not bad, bad
