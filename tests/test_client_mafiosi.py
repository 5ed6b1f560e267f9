"""The Mafiosi table: it opens for 3 and 5 players (and for a spectator), a pure layout
at TV and laptop sizes (13 cards fit, hand and trick never overlap), clicks on raised
cards send the one legal action (a card; a bouncer is selected, then confirmed), a card you may not play is not sent
and says why when hovered, the round-end board explains an elimination, every event is
told in English and French, the four-colour deck paints diamonds blue, couch players
pick their cards on their hand-over screen, and a replay of a finished match plays."""
from __future__ import annotations

import pygame
import pytest

from client.games.mafiosi.layout import areas, mafiosi_layout
from shared.games import mafiosi as maf
from shared.rules import events_for
from tests.mafiosi_helpers import staged
from tests.test_client_app import click, key, make_app
from tests.test_client_famiglia import FakeLink  # a link that records the actions sent

NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve"]


def legal(state, seat):
    return [a.to_dict() for a in maf.legal_actions(state, seat)] if seat is not None else []


def started_msg(state, seat):
    return {"type": "match_started", "table": 5, "game": "mafiosi", "seat": seat, "view": maf.view(state, seat),
            "legal": legal(state, seat), "t_server": 0.0,
            "seats": [{"seat": p, "name": NAMES[p], "bot": p > 0, "connected": True} for p in range(state.n)]}


def open_table(app, state, seat):
    from client.games.mafiosi.table import MafiosiTableScene

    link = FakeLink()
    return app.reset(MafiosiTableScene(app, link, started_msg(state, seat))), link


def update(scene, link, state, events, seat=0):
    scene.on_message({"type": "update", "table": 5, "events": events_for(events, seat),
                      "view": maf.view(state, seat), "legal": legal(state, seat), "t_server": 1.0}, link)


def visible(scene, place):
    """A point of a hand card no other card covers (its left edge)."""
    r = scene.layout.rect(place)
    return (r.x + 4, r.bottom - 8)


def render(app, n=2):
    for _ in range(n):
        app.display.render(1 / 30, flip=False)


# -- layout ---------------------------------------------------------------------------

@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("seats", [3, 4, 5])
def test_layout_fits_13_cards_and_nothing_overlaps(size, seats):
    state = staged(["7H", "2S", "3C", "4D", "5D"][:seats],
                   [["AH", "2H", "3H", "4H", "5H", "6H", "8H", "9H", "10H", "JH", "QH", "KH", "JK1"], ["AS"], ["AC"],
                    ["AD"], ["2D"]][:seats], leader=1)
    state, _ = maf.apply(state, 1, maf.PlayCard(maf.card_id("AS")))  # a card in the trick
    view = maf.view(state, 0)
    assert len(view["hand"]) == 13
    lay = mafiosi_layout(view, size)
    w, h = size
    rects = list(areas(lay))
    for name, r in rects:
        assert r.w > 0 and r.h > 0 and r.left >= 0 and r.top >= 0 and r.right <= w and r.bottom <= h, (name, r)
    for i, (a, ra) in enumerate(rects):
        for b, rb in rects[i + 1:]:
            assert not ra.colliderect(rb), (a, ra, b, rb)
    hand = [lay.cards[p] for p in lay.order]
    trick = [r for p, r in lay.cards.items() if p[0] == "trick"] + lay.trick_slots
    assert len(hand) == 13 and len([p for p in lay.cards if p[0] == "trick"]) == 1
    zone = lay.seats[0].zone
    for r in hand:
        assert zone.contains(r), (r, zone)
        assert r.h >= h * 0.18  # big enough on a TV and a laptop
        assert not any(r.colliderect(t) for t in trick)
        assert not r.colliderect(lay.banner)
    steps = [b.x - a.x for a, b in zip(hand, hand[1:])]
    assert min(steps) >= hand[0].w * 0.22  # every card's corner index shows
    for t in lay.trick_slots:
        assert lay.centre.contains(t)
    for seat, area in lay.seats.items():
        assert area.zone.contains(area.bouncer) and area.zone.contains(area.pile), seat
    # the hit test finds the card on top, the raised cards are the playable ones
    last = lay.order[-1]
    assert lay.hit(lay.cards[last].center) == last
    assert lay.raised == {("hand", c["id"]) for c in view["hand"] if c["playable"]}


# -- the scene ----------------------------------------------------------------------------

@pytest.mark.parametrize("seats", [3, 5])
@pytest.mark.parametrize("seat", [0, None])
def test_the_table_opens_for_3_and_5_players(tmp_path, seats, seat):
    app = make_app(tmp_path)
    state = maf.new_match({"seats": seats}, 3)
    scene, _ = open_table(app, state, seat)
    render(app)
    assert scene.view["seats"] == seats and len(scene.layout.seats) == seats
    if seat is None:
        assert scene.public and not scene.layout.order and scene.ui == []
        assert all(len(scene.layout.backs[p]) == maf.HAND_SIZE[seats] for p in range(seats))
    else:
        assert len(scene.layout.order) == maf.HAND_SIZE[seats]
        assert "bouncer" in scene.prompt[0]


def test_bouncer_choice_sends_choose_bouncer_and_a_face_card_is_refused(tmp_path):
    app = make_app(tmp_path)
    state = maf.new_match({"seats": 3, "deck": ["KH", "7S", "AD", "QC", "JK1"]}, 3)
    scene, link = open_table(app, state, 0)
    render(app)
    king = ("hand", maf.card_id("KH"))
    assert king not in scene.layout.raised and ("hand", maf.card_id("7S")) in scene.layout.raised
    click(visible(scene, king))
    app.sample()
    assert link.conn.sent == []
    assert any("muscle" in m[0] for m in scene.column.messages)
    seven = ("hand", maf.card_id("7S"))
    click(visible(scene, seven))
    app.sample()
    assert link.conn.sent == [] and scene.picked == {seven}  # selected, not placed: it asks first
    assert "7" in scene.prompt[0] and "onfirm" in scene.prompt[0]
    render(app)
    click(scene.buttons["bouncer"].rect.center)  # the Confirm button places it
    app.sample()
    assert link.conn.sent == [{"type": "choose_bouncer", "card": maf.card_id("7S")}]
    # the others' choices stay hidden: only "has chosen"
    s1, ev = maf.apply(state, 1, maf.ChooseBouncer(state.hands[1][0]))
    s1, ev2 = maf.apply(s1, 0, maf.ChooseBouncer(maf.card_id("7S")))
    update(scene, link, s1, ev + ev2)
    render(app)
    assert scene.view["players"][1]["has_chosen"] and scene.view["players"][1]["bouncer"] is None
    assert scene.seat_status(1) == "has chosen" and scene.seat_status(2) == "choosing…"
    assert any("Bob has chosen a bouncer" in m[0] for m in scene.column.visible())


def test_a_raised_card_is_played_and_an_illegal_one_says_why(tmp_path):
    app = make_app(tmp_path)
    state = staged(["7H", "2S", "3C"], [["5H", "KS", "2D"], ["4S", "9S", "QD"], ["AS", "8C", "3D"]], leader=2)
    state, _ = maf.apply(state, 2, maf.PlayCard(maf.card_id("AS")))  # an ace of spades is led
    assert maf.awaiting(state) == {0}
    scene, link = open_table(app, state, 0)
    render(app)
    heart = ("hand", maf.card_id("5H"))
    spade = ("hand", maf.card_id("KS"))
    assert spade in scene.layout.raised and heart not in scene.layout.raised
    # hovering the heart tells why; clicking it sends nothing
    r = scene.layout.rect(heart)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(r.x + 4, r.centery), rel=(0, 0), buttons=(0, 0, 0)))
    app.sample()
    render(app)
    assert scene.hover == heart
    assert scene.card_reason(scene.hover) == "an ace of spades was played: play a spade (or a Joker)"
    click((r.x + 4, r.centery))
    app.sample()
    assert link.conn.sent == []
    assert any("play a spade" in m[0] for m in scene.column.messages)
    s = scene.layout.rect(spade)
    click((s.right - 4, s.y + 6))
    app.sample()
    assert link.conn.sent == [{"type": "play", "card": maf.card_id("KS")}]


def test_plays_fly_to_the_trick_and_the_trick_to_its_winner(tmp_path):
    app = make_app(tmp_path)
    state = staged(["7H", "2S", "3C"], [["5H", "2D"], ["KH", "3D"], ["JH", "4D"]], leader=0)
    scene, link = open_table(app, state, 0)
    s1, e1 = maf.apply(state, 0, maf.PlayCard(maf.card_id("5H")))
    update(scene, link, s1, e1)
    assert any(getattr(e, "hide_dst", None) == ("trick", maf.card_id("5H")) for e in scene.anim.effects)
    s2, e2 = maf.apply(s1, 1, maf.PlayCard(maf.card_id("KH")))
    s3, e3 = maf.apply(s2, 2, maf.PlayCard(maf.card_id("JH")))
    update(scene, link, s3, e2 + e3)
    pile = scene.layout.seats[0].pile
    sweeps = [e for e in scene.anim.effects if getattr(e, "dst", None) == pile]
    assert len(sweeps) == 3  # the trick slides to its winner's pile
    assert any("Ann (you) takes trick 1 with a trump" in m[0] for m in scene.column.visible())
    for _ in range(120):
        app.display.render(1 / 30, flip=False)
    assert not scene.anim.busy(scene.t)


def test_round_end_board_explains_an_elimination(tmp_path):
    from client.games.mafiosi.results import MafiosiBoard, elimination_owner

    app = make_app(tmp_path)
    # Ann (Hearts) takes the King and the Jack of hearts in her own pile: she is out
    state = staged(["7H", "2S", "3C"], [["5H", "2D"], ["KH", "3D"], ["JH", "4D"]], leader=0, rounds=1)
    scene, link = open_table(app, state, 0)
    events = []
    for seat, c in ((0, "5H"), (1, "KH"), (2, "JH"), (0, "2D"), (1, "3D"), (2, "4D")):
        state, ev = maf.apply(state, seat, maf.PlayCard(maf.card_id(c)))
        events += ev
    update(scene, link, state, events)
    board = app.top
    assert isinstance(board, MafiosiBoard) and not board.final
    res = board.round_result()
    assert res["eliminated"] == [True, False, False]
    piles = board.piles()
    assert piles is not None and elimination_owner("hearts", piles) == 0
    render(app)
    assert any("Eliminated: Ann (you)" in m[0] for m in scene.column.visible())
    # the round winner keeps a point card: the final reveal follows
    for winner in res["winners"]:
        state, ev = maf.apply(state, winner, maf.legal_actions(state, winner)[0])
        update(scene, link, state, ev)
    render(app)
    from tools.puppet import button_text, visible_buttons

    texts = [button_text(b) for b in visible_buttons(app)]
    assert "The final reveal" in texts and "Next round" not in texts  # no round comes after the last
    board.queue.insert(0, (2, False))  # a round's board waits before the final: that one comes next
    board.rebuild()
    texts = [button_text(b) for b in visible_buttons(app)]
    assert "Next round" in texts and "The final reveal" not in texts
    board.queue.pop(0)
    board.close()
    app.sample()
    render(app)
    assert isinstance(app.top, MafiosiBoard) and app.top.final
    assert any("The match is over" in m[0] for m in scene.column.visible())


def test_point_card_choice_is_clicked_on_the_table(tmp_path):
    app = make_app(tmp_path)
    state = staged(["7H", "2S", "3C"], [["8H"], ["4S"], ["2C"]], won=[["9H", "QS", "5D"], [], []], leader=0,
                   rounds=1)
    state, events = maf.apply(state, 0, maf.PlayCard(maf.card_id("8H")))
    for seat, c in ((1, "4S"), (2, "2C")):
        state, ev = maf.apply(state, seat, maf.PlayCard(maf.card_id(c)))
        events += ev
    assert state.phase == "point" and state.point_pending == [0]
    scene, link = open_table(app, state, 0)
    render(app)
    place = ("point", maf.card_id("9H"))
    assert place in scene.layout.cards and "point card" in scene.prompt[0]
    click(scene.layout.rect(place).center)
    app.sample()
    assert link.conn.sent == [{"type": "keep_point_card", "card": maf.card_id("9H")}]


# -- narration, faces ------------------------------------------------------------------

def sample_events():
    c = maf.DECK[maf.card_id("QH")].to_dict()
    return [
        {"type": "round_started", "round": 1, "rounds": 3, "hand_size": 13, "deck_size": 54, "aside": 15},
        {"type": "deal", "seat": 0, "cards": [c]},
        {"type": "no_bouncer", "seat": 1},
        {"type": "bouncer_chosen", "seat": 0, "card": c},
        {"type": "bouncer_chosen", "seat": 1},
        {"type": "bouncers_revealed", "bouncers": [c, None, c], "clans": ["hearts", None, "hearts"]},
        {"type": "leader", "seat": 2, "tied": [0, 2], "draws": [{"seat": 0, "card": c, "total": 7},
                                                              {"seat": 2, "card": None, "total": 9}]},
        {"type": "leader", "seat": 2, "tied": [], "draws": []},
        {"type": "play", "seat": 1, "card": c, "trick": 1},
        {"type": "trick_won", "seat": 1, "trick": 1, "trump": True, "cards": [c]},
        {"type": "round_scored", "round": 1, "clans": ["hearts", None, "hearts"], "scores": [3, 0, -2],
         "faces": [1, 0, 2], "eliminated": [False, False, True], "winners": [0]},
        {"type": "round_scored", "round": 2, "clans": ["hearts", None, "hearts"], "scores": [3, 0, -2],
         "faces": [1, 0, 2], "eliminated": [True, False, True], "winners": []},
        {"type": "point_card_kept", "seat": 0, "round": 1, "card": c},
        {"type": "point_card_kept", "seat": 2, "round": 1},
        {"type": "match_over", "point_cards": [[c], [], []], "totals": [12, 0, 12], "winners": [0, 2],
         "round_winners": [[0]]},
    ]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_event_of_the_appendix_is_told(lang):
    from client import i18n
    from client.games.mafiosi.narrate import EVENT_TYPES, narrate

    evs = sample_events()
    assert {e["type"] for e in evs} == set(EVENT_TYPES)
    i18n.setup(lang)
    try:
        told = {}
        for ev in evs:
            line = narrate(ev, lambda s: NAMES[s], {0})
            assert line is not None, ev
            assert "mafia." not in line[0] and "%{" not in line[0], line
            told.setdefault(ev["type"], line[0])
        if lang == "fr":
            assert "Dame de cœur" in told["play"] and "pli 1" in told["trick_won"]
        else:
            assert "the Queen of hearts" in told["play"]
    finally:
        i18n.setup("en")


def _colour_counts(surface):
    red = blue = 0
    w, h = surface.get_size()
    for x in range(0, w, 2):
        for y in range(0, h, 2):
            r, g, b, a = surface.get_at((x, y))
            if a > 200 and r > b + 80 and r > g + 60:
                red += 1
            elif a > 200 and b > r + 80:
                blue += 1
    return red, blue


def test_four_colour_setting_paints_diamonds_blue(tmp_path):
    from client.cards import CardArt
    from client.settings import Settings
    from shared.config import DEFAULTS

    assert DEFAULTS["display"]["four_colour_suits"] is False and Settings().four_colour_suits is False
    assert Settings.from_config({"display": {"four_colour_suits": True}}).four_colour_suits is True
    diamond = maf.DECK[maf.card_id("7D")].to_dict()
    art = CardArt()
    red, blue = _colour_counts(art.face(diamond, 70, 98))
    assert red > 50 and blue == 0
    art.four_colour_suits = True
    art.clear()
    red, blue = _colour_counts(art.face(diamond, 70, 98))
    assert blue > 50 and red == 0
    # the table follows the player's setting
    app = make_app(tmp_path)
    app.settings.four_colour_suits = True
    open_table(app, maf.new_match({"seats": 3}, 1), 0)
    assert app.art.four_colour_suits is True


def test_every_card_has_a_face_of_its_own(tmp_path):
    from client.cards import CardArt, card_key

    art = CardArt()
    keys = {card_key(c.to_dict()) for c in maf.DECK}
    assert len(keys) == 54 and all(k.startswith("maf:") for k in keys)
    for c in (maf.card_id("AS"), maf.card_id("10C"), maf.card_id("KD"), 52, 53):
        assert art.face(maf.DECK[c].to_dict(), 60, 84).get_size() == (60, 84)


# -- couch play, replays --------------------------------------------------------------------

def test_couch_player_picks_the_bouncer_on_the_handover_screen(tmp_path):
    from client.games.mafiosi.handover import MafiosiHandover
    from client.games.mafiosi.table import MafiosiTableScene
    from client.input import binding_for

    app = make_app(tmp_path)
    state = maf.new_match({"seats": 3, "deck": ["KH", "7S", "AD"]}, 3)
    display = FakeLink()
    scene = app.reset(MafiosiTableScene(app, display, started_msg(state, None)))
    ann = FakeLink()
    scene.add_local_seat(ann, started_msg(state, 0), binding_for("left"))
    bob = FakeLink()
    scene.add_local_seat(bob, started_msg(state, 1), binding_for("right"))
    render(app)
    assert scene.public and scene.single is None and not scene.layout.order  # nothing private on the TV
    assert "Ann" in scene.prompt[0] and "Bob" in scene.prompt[0]
    key(pygame.K_q)  # Ann's reveal key: the cover
    app.sample()
    assert isinstance(app.top, MafiosiHandover) and not app.top.showing
    key(pygame.K_q)  # again: her cards, nothing selected yet
    app.sample()
    render(app)
    ho = app.top
    assert ho.showing and ho.cursor is None and not ho.b_confirm.is_enabled
    key(pygame.K_e)  # her confirm key alone places nothing
    app.sample()
    assert ann.conn.sent == [] and app.top is ho
    offered = {a["card"] for a in legal(state, 0)}
    target = next(cid for cid in ho.card_rects(app.size) if cid in offered)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=ho.card_rects(app.size)[target].center,
                                         rel=(0, 0), buttons=(0, 0, 0)))
    app.sample()
    assert ho.cursor is None  # the pointer passing over a card selects nothing
    key(pygame.K_d)  # her next key selects a card
    app.sample()
    assert ho.cursor in offered and ho.b_confirm.is_enabled and ann.conn.sent == []
    key(pygame.K_ESCAPE)  # Esc drops the selection, the hand stays shown
    app.sample()
    assert ho.cursor is None and app.top is ho and scene.keys._esc_until == 0.0
    click(ho.card_rects(app.size)[target].center)  # a click selects...
    app.sample()
    assert ho.cursor == target and ann.conn.sent == []
    key(pygame.K_e)  # ...and her confirm key places it
    app.sample()
    assert ann.conn.sent == [{"type": "choose_bouncer", "card": target}] and app.top is scene


def test_a_finished_mafiosi_match_replays(tmp_path):
    from client.games.mafiosi.table import MafiosiTableScene
    from client.scenes.replay import ReplayScene, load
    from tests.test_client_replay import write_log

    path, record = write_log(tmp_path, game="mafiosi", seats=3, seed=2)
    app = make_app(tmp_path)
    scene = app.push(ReplayScene(app, load(str(path)), path.name))
    assert isinstance(scene.table, MafiosiTableScene) and scene.table.replay
    assert scene.table.layout.order  # finished: seat 0's hand face up
    for _ in range(6):
        key(pygame.K_RIGHT)
        app.sample()
        render(app)
    key(pygame.K_END)
    app.sample()
    render(app)
    assert scene.table.view["phase"] == "over" and app.top is scene
