"""The Famiglia table: a pure layout at several window sizes, actions built from the
server's legal list by clicks (a recruit with a pair, an Accountant and its swap, a
Brute), a spectator never shown a hand, and a match against the embedded server's bot."""
from __future__ import annotations

import pytest
import pytest_twisted
from twisted.internet import defer

from client.games.famiglia.layout import areas, famiglia_layout
from client.games.famiglia.picker import Chooser
from shared.games import famiglia as fg
from tests.test_client_app import click, make_app, menu_app, until

SIZES = [(1280, 720), (1920, 1080), (1024, 600), (1366, 768), (2560, 1080), (3840, 2160)]

#: Seat 0 holds two Brute 1s, a Mercenary 3, an Accountant 2 and a Famiglia 0; the street
#: starts B2 A3 M2 F2 A1 B3 (ids 39 27 54 9 20 42).
SCENARIO = {"first_player": 0, "hands": [["B1", "B1", "M3", "A2", "F0"], ["F0"]],
            "gangs": [["F1", "M0"], ["A0"]], "deck": ["B2", "A3", "M2", "F2", "A1", "B3", "M1"]}
B2, A3, B1a, B1b, M3, A2, F1_GANG = 39, 27, 35, 36, 57, 24, 5


def legal(state, seat=0):
    return [a.to_dict() for a in fg.legal_actions(state, seat)]


def grown_view(seat):
    """Big gangs, a big hand and a long street (a late match)."""
    s = fg.new_match({"first_player": 0,
                      "hands": [["F0", "F0", "F1", "A0", "A1", "A1", "B0", "B1", "B2", "M0", "M1", "M2", "M3", "F2"],
                                ["F0", "A0", "B0", "M0", "M0"]],
                      "gangs": [["F0", "F1", "F3", "A0", "A2", "B0", "B1", "M0"],
                                ["A0", "A0", "A1", "A2", "A3", "B0", "B1", "B2", "B3", "M1", "M2", "F4"]],
                      "deck": ["A4", "B4", "M4", "F2", "F3", "A3", "B3", "M3", "F1", "A1", "B1", "M1", "F2"]}, 2)
    v = fg.view(s, seat)
    extra = [fg.card(c).to_dict() for c in s.deck[-8:]]  # eight more street cards
    v["street"] += [{**c, "effective": c["value"]} for c in extra]
    return v


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("which", ["start0", "start1", "spectator", "grown0", "grown_spectator"])
def test_layout_fits_and_nothing_overlaps(size, which):
    if which.startswith("grown"):
        view = grown_view(None if "spectator" in which else 0)
    else:
        view = fg.view(fg.new_match({}, 3), {"start0": 0, "start1": 1, "spectator": None}[which])
    lay = famiglia_layout(view, size)
    w, h = size
    rects = list(areas(lay))
    for name, r in rects:
        assert r.w > 0 and r.h > 0 and r.left >= 0 and r.top >= 0 and r.right <= w and r.bottom <= h, (name, r)
    for i, (a, ra) in enumerate(rects):
        for b, rb in rects[i + 1:]:
            assert not ra.colliderect(rb), (a, ra, b, rb, size)
    # every card of the view has a place inside its zone, and cards stay legible
    for c in view["street"]:
        r = lay.rect(("street", c["id"]))
        assert r is not None and lay.street.contains(r), (c, r)
        assert r.h >= h * 0.09
    for p in view["players"]:
        zone = lay.zones[p["seat"]]
        for c in p["gang"]:
            r = lay.rect(("gang", c["id"]))
            assert r is not None and zone.contains(r), (c, r, zone)
        if p["hand"] is None:
            assert len(lay.backs[p["seat"]]) == p["hand_count"]
            assert all(zone.contains(r) for r in lay.backs[p["seat"]])
        else:
            for c in p["hand"]:
                r = lay.rect(("hand", c["id"]))
                assert r is not None and zone.contains(r) and r.h >= h * 0.09
    assert lay.card_size["hand"][1] > lay.card_size["opp_hand"][1]  # your hand is the biggest
    assert lay.card_size["gang"][1] >= lay.card_size["opp_gang"][1]


def test_hit_testing_finds_the_card_on_top():
    view = grown_view(0)
    lay = famiglia_layout(view, (1280, 720))
    c = view["street"][3]
    assert lay.hit(lay.rect(("street", c["id"])).center) == ("street", c["id"])
    hand = [p for p in lay.order if p[0] == "hand"]
    r = lay.rect(hand[-1])
    assert lay.hit((r.right - 3, r.centery)) == hand[-1]  # the last card overlaps the one before
    assert lay.hit(lay.deck.center) == ("deck", 0)
    assert lay.hit(lay.plates[1].center) == ("player", 1)


# -- building actions from legal ----------------------------------------------------------

def test_chooser_recruit_with_a_pair_asks_then_fills_in_order():
    s = fg.new_match(SCENARIO, 5)
    ch = Chooser(legal(s))
    assert ch.click(("street", B2)) is None
    assert ch.asking == (("street", B2), ["renew", "brute", "take_pair"])
    assert ch.choose("take_pair") is None
    assert ch.needs() == "to_gang" and ch.offered() == {("hand", B1a), ("hand", B1b), ("hand", M3)}
    assert ch.click(("hand", M3)) is None  # the Mercenary joker goes to the gang ...
    assert ch.offered() == {("hand", B1a), ("hand", B1b)}
    action = ch.click(("hand", B1b))  # ... and we keep this Brute 1
    assert action == {"type": "take_pair", "card": B2, "to_gang": M3, "keep": B1b}
    assert action in legal(s)


def test_chooser_fills_what_every_legal_action_agrees_on():
    s = fg.new_match(SCENARIO, 5)
    ch = Chooser(legal(s))
    ch.click(("street", A3))  # renew, lower it with a Brute, or recruit it
    assert ch.asking[1] == ["renew", "brute", "take_pair"]
    assert ch.choose("take_pair") is None
    assert ch.offered() == {("hand", M3), ("hand", A2)}
    assert ch.click(("hand", A2)) == {"type": "take_pair", "card": A3, "to_gang": A2, "keep": M3}
    # a click on a chosen card un-chooses it, with what was asked after it
    ch.clear()
    ch.click(("street", A3))
    ch.choose("take_pair")
    ch.click(("hand", M3))
    assert ch.filled == {"card": A3, "to_gang": M3, "keep": A2}
    ch.click(("street", A3))
    assert ch.kind is None and ch.filled == {}
    # a click that fits nothing starts over from that card (here: nothing to do with it)
    ch.click(("street", B2))
    ch.choose("take_pair")
    assert ch.click(("gang", F1_GANG)) is None and ch.kind is None and ch.asking is None


def test_chooser_accountant_then_swap():
    s = fg.new_match(SCENARIO, 5)
    ch = Chooser(legal(s))
    # one thing it can do: still asked (issue 13: a single click never acts), sent once chosen
    assert ch.click(("hand", A2)) is None and ch.asking == (("hand", A2), ["accountant"])
    assert ch.choose("accountant") == {"type": "accountant", "card": A2}
    s, _ = fg.apply(s, 0, fg.Accountant(A2))
    ch = Chooser(legal(s))
    assert ("gang", A2) not in ch.offered()  # the Accountant just played cannot come back
    assert ch.click(("gang", F1_GANG)) is None and ch.asking == (("gang", F1_GANG), ["swap"])
    assert ch.choose("swap") is None
    assert ch.kind == "swap" and ch.needs() == "from_hand"
    action = ch.click(("hand", M3))
    assert action == {"type": "swap", "from_gang": F1_GANG, "from_hand": M3}
    assert action in legal(s)


def test_chooser_brute_amount_from_a_button():
    s = fg.new_match({**SCENARIO, "hands": [["B2", "F0"], ["F0"]]}, 5)
    b2 = s.hands[0][0]
    ch = Chooser(legal(s))
    assert ch.click(("hand", b2)) is None and ch.asking == (("hand", b2), ["brute"])
    assert ch.choose("brute") is None and ch.kind == "brute" and ch.needs() == "target"
    assert ch.click(("street", 9)) is None
    assert ch.amounts() == [1, 2]
    assert ch.click(("amount", 2)) == {"type": "brute", "card": b2, "target": 9, "amount": 2}


# -- the scene ----------------------------------------------------------------------------

class FakeConn:
    def __init__(self):
        self.sent = []

    def send_action(self, table, action, t_press=None, t_shown=None):
        self.sent.append(action)
        return defer.Deferred()

    def request(self, *a, **kw):
        return defer.Deferred()


class FakeLink:
    address = ("127.0.0.1", 1)
    name = "P"
    reconnect = None

    def __init__(self):
        self.conn = FakeConn()

    def request(self, *a, **kw):
        return defer.Deferred()


def open_famiglia(app, state, seat):
    from client.games.famiglia.table import FamigliaTableScene

    link = FakeLink()
    started = {"type": "match_started", "table": 4, "game": "famiglia", "seat": seat,
               "view": fg.view(state, seat), "legal": legal(state, seat) if seat is not None else [],
               "t_server": 0.0, "seats": [{"seat": 0, "name": "Ann", "bot": False, "connected": True},
                                          {"seat": 1, "name": "Bob", "bot": True, "connected": True}]}
    return app.reset(FamigliaTableScene(app, link, started)), link


def press(scene, ident):
    click(scene.buttons[ident].rect.center)


def test_scene_sends_the_pair_recruit_built_from_clicks(tmp_path):
    app = make_app(tmp_path)
    state = fg.new_match(SCENARIO, 5)
    scene, link = open_famiglia(app, state, 0)
    app.display.render(1 / 60, flip=False)
    assert scene.roster.seat_name(1) == "Bob" and scene.roster.seat_name(0) == "Ann (you)"  # names from match_started
    click(scene.layout.rect(("street", B2)).center)
    app.sample()
    assert set(scene.buttons) == {"intent:renew", "intent:brute", "intent:take_pair", "cancel", "pass"}
    assert {b.text for b in scene.ui} >= {"Renew (draw 2)", "Recruit it with a pair", "Pass (take nothing)"}
    press(scene, "intent:take_pair")
    app.sample()
    click(scene.layout.rect(("hand", B1a)).center)
    app.sample()
    click(scene.layout.rect(("hand", M3)).center)
    app.sample()
    assert link.conn.sent == [{"type": "take_pair", "card": B2, "to_gang": B1a, "keep": M3}]
    assert scene.legal[0] == [] and scene.ui == []  # nothing to press until the server answers


def test_scene_accountant_swap_and_pass(tmp_path):
    app = make_app(tmp_path)
    state, _ = fg.apply(fg.new_match(SCENARIO, 5), 0, fg.Accountant(A2))
    scene, link = open_famiglia(app, state, 0)
    app.display.render(1 / 60, flip=False)
    assert "Accountant" in scene.prompt[0]
    click(scene.layout.rect(("hand", M3)).center)
    app.sample()
    assert link.conn.sent == [] and set(scene.buttons) >= {"intent:swap", "cancel"}  # asked, even for one use
    press(scene, "intent:swap")
    app.sample()
    click(scene.layout.rect(("gang", F1_GANG)).center)
    app.sample()
    assert link.conn.sent == [{"type": "swap", "from_gang": F1_GANG, "from_hand": M3}]
    scene, link = open_famiglia(app, state, 0)
    press(scene, "pass")
    app.sample()
    assert link.conn.sent == [{"type": "pass"}]


def test_update_animates_and_narrates(tmp_path):
    from shared.rules import events_for

    app = make_app(tmp_path)
    s0 = fg.new_match(SCENARIO, 5)
    scene, link = open_famiglia(app, s0, 0)
    s1, events = fg.apply(s0, 0, fg.TakePair(B2, B1a, M3))
    scene.on_message({"type": "update", "table": 4, "events": events_for(events, 0), "view": fg.view(s1, 0),
                      "legal": [], "t_server": 1.0, "step": 1}, link)
    assert any(getattr(e, "hide_dst", None) == ("hand", B2) for e in scene.anim.effects)  # the recruit flies
    assert any("recruits the Brute 2 with a pair" in m[0] for m in scene.column.visible())
    for _ in range(90):
        app.display.render(1 / 30, flip=False)
    assert not scene.anim.busy(scene.t)


def test_a_spectator_sees_no_hand(tmp_path):
    app = make_app(tmp_path)
    state = fg.new_match(SCENARIO, 5)
    scene, _ = open_famiglia(app, state, None)
    assert scene.public and scene.my_seat is None and scene.ui == []
    assert not [p for p in scene.layout.cards if p[0] == "hand"]
    assert [len(scene.layout.backs[s]) for s in (0, 1)] == [5, 1]
    drawn = []
    real = app.art.shadowed

    def spy(card, w, h):
        drawn.append(card)
        return real(card, w, h)

    app.art.shadowed = spy
    app.display.render(1 / 60, flip=False)
    hand_ids = set(state.hands[0]) | set(state.hands[1])
    assert not [c for c in drawn if c is not None and c["id"] in hand_ids]


@pytest_twisted.inlineCallbacks
def test_a_famiglia_match_against_the_embedded_bot_starts(tmp_path):
    from client.games.famiglia.table import FamigliaTableScene

    with menu_app(tmp_path) as app:
        link = yield app.connections.start()
        reply = yield link.request("create_table", game="famiglia", seats=2, name="Duel",
                                   options={"seed": 3})
        tid = reply["table"]["id"]
        yield link.request("join", table=tid, seat=0)
        yield link.request("add_bot", table=tid)
        yield until(app, lambda: isinstance(app.top, FamigliaTableScene))
        table = app.top
        assert table.view["game"] == "famiglia" and table.my_seat == 0
        assert table.view["street"] and table.view["players"][0]["hand"] is not None
        yield until(app, lambda: bool(table.legal.get(0)))  # our turn comes (the bot may start)
        turn = table.view["turn_no"]
        press(table, "pass")
        yield until(app, lambda: table.view["turn_no"] > turn)
        assert any("passes" in m[0] for m in table.column.visible())


@pytest.mark.parametrize("size", [(1280, 720), (1024, 600), (1280, 1024), (1920, 1080)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_button_label_fits_its_button(tmp_path, size, lang):
    from client import i18n
    from client.ui.widgets import fitted

    app = make_app(tmp_path, size)
    try:
        i18n.setup(lang)
        scene, _ = open_famiglia(app, fg.new_match(SCENARIO, 5), 0)
        width = scene.layout.actions.w - 8
        keys = [f"fam.intent.{t}" for t in ("renew", "accountant", "swap", "brute", "brute_card", "take_free",
                                              "take_pair")] + ["fam.act.lower", "fam.act.cancel", "fam.act.pass"]
        for k in keys:
            label, _cls = fitted(i18n.tr(k, n="4"), width, app.ui_scale)
            assert "…" not in label, (lang, size, k, label)
    finally:
        i18n.setup("en")


def test_the_end_shows_the_results_and_the_table_can_show_them_again(tmp_path):
    from client.games.famiglia.results import FamigliaResultsScene
    from shared.rules import events_for

    app = make_app(tmp_path)
    s0 = fg.new_match(SCENARIO, 5)
    scene, link = open_famiglia(app, s0, 0)
    s1, e1 = fg.apply(s0, 0, fg.Pass())
    s2, e2 = fg.apply(s1, 1, fg.Pass())  # two passes in a row: the match ends
    scene.on_message({"type": "update", "table": 4, "events": events_for(e1 + e2, 0), "view": fg.view(s2, 0),
                      "legal": [], "t_server": 1.0, "step": 2}, link)
    results = app.top
    assert isinstance(results, FamigliaResultsScene)
    assert results.outcome()["reason"] == "passes" and scene.view["players"][1]["hand"] is not None
    app.display.render(1 / 60, flip=False)  # both hands face up, VP per card
    click(next(b for b in results.ui if b.text == "mafia.fam.results.see_table").rect.center)
    app.sample()
    assert app.top is scene and set(scene.buttons) == {"results"}
    press(scene, "results")
    app.sample()
    assert isinstance(app.top, FamigliaResultsScene)
