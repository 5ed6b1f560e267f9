"""Nothing on a table hides what a player must read: the emote bar leaves the Family
Business pile counts visible, a "to play" word never lingers on a plate whose turn is
over, and a card's tip is never drawn under a button (the widgets are painted over the
table). At 1280x720 and 1920x1080, in English and French; dummy SDL video."""
from __future__ import annotations

import random

import pytest

from client import i18n, text
from client.animation import Banner
from client.i18n import tr
from shared.games import family_business as fb
from tests.test_client_app import make_app
from tests.test_client_card_tips import famiglia_scene, fb_scene, mafiosi_scene, rest_mouse
from tests.test_client_family_business import open_fb, update

SIZES = [(1280, 720), (1920, 1080)]


@pytest.fixture(params=["en", "fr"])
def lang(request):
    i18n.setup(request.param)
    text.clear()
    yield request.param
    i18n.setup("en")
    text.clear()


@pytest.mark.parametrize("size", SIZES)
def test_the_emote_bar_leaves_the_pile_counts_readable(tmp_path, size, lang):
    from client.games.family_business.layout import pile_label_size

    app = make_app(tmp_path, size)
    state = fb.new_match({"seats": 4}, 4)
    for _ in range(30):  # a draw pile of two digits, a discard pile
        seat = state.turn
        state, _ev = fb.apply(state, seat, fb.legal_actions(state, seat)[0])
        if fb.reaction_window(state) is not None:
            for p in sorted(fb.reaction_window(state).pending):
                state, _ev = fb.apply(state, p, fb.NoCounter())
    scene, _link = open_fb(app, state, 0)
    app.display.render(1 / 60, flip=False)
    bar = scene.emotes.bar_rect()
    lay = scene.layout
    assert bar is not None
    size_px = pile_label_size(lay.font)
    labels = [(lay.draw_pile, tr("fb.table.draw_pile", n=str(state_count(scene, "draw_pile")))),
              (lay.discard, tr("fb.table.discard", n=str(len(scene.view.get("discard") or []))))]
    for pile, label in labels:
        img = text.render(label, size_px, shadow=True)
        shown = img.get_rect(midtop=(pile.centerx, pile.bottom + 2))
        assert not shown.colliderect(bar), f"{label!r} at {shown} under the emote bar {bar} ({size}, {lang})"
        assert lay.pile_labels.contains(shown.clip(app.display.screen.get_rect()))
    assert bar.bottom <= lay.info.top  # and the bar keeps its place over the message column


def state_count(scene, key):
    return int(scene.view.get(key, 0))


def test_no_to_play_word_lingers_after_the_turn_moved(tmp_path):
    """Bots play fast: each turn queues its effects, the "TO PLAY" word behind them. A
    word whose turn is over must never show (nor wait to show) on that plate."""
    app = make_app(tmp_path)
    state = fb.new_match({"seats": 4}, 7)
    scene, link = open_fb(app, state, 0)
    rng = random.Random(7)
    word = tr("fb.table.turn_pill")
    turns_seen = 0
    for _ in range(120):
        movers = [p for p in range(4) if fb.legal_actions(state, p)]
        if not movers or fb.is_over(state):
            break
        p = rng.choice(movers)
        state, events = fb.apply(state, p, rng.choice(fb.legal_actions(state, p)))
        update(scene, link, state, 0, events)
        scene.update(0.05)  # 50 ms between updates: the effects queue up
        turns_seen += sum(1 for e in events if e.type == "turn")
        current = scene.layout.seats.get(scene.view.get("turn"))
        for e in scene.anim.effects:
            if isinstance(e, Banner) and e.text == word and e.pending(scene.t):
                assert current is not None and e.centre == current.plate.center, \
                    f"a {word!r} for another seat than {scene.view.get('turn')} is still queued or shown"
    assert turns_seen >= 5


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("make", [famiglia_scene, fb_scene, mafiosi_scene])
def test_a_card_tip_is_never_drawn_under_a_button(tmp_path, size, make):
    app = make_app(tmp_path, size)
    scene = make(app)
    app.display.render(1 / 60, flip=False)
    shown = 0
    for place, rect in scene.card_rects().items():
        for point in (rect.center, (rect.right - 3, rect.bottom - 3), (rect.left + 3, rect.bottom - 3)):
            rest_mouse(app, scene, point)
            box = scene.tip.draw(app.display.screen)
            if box is None:
                continue
            shown += 1
            assert not box.collidepoint(point), "the tip hides the card it explains"
            for hidden_by in scene.tip.covered():
                assert not box.colliderect(hidden_by), f"the tip of {place} at {box} is under {hidden_by} ({size})"
    assert shown


def omerta_scene(app):
    from tests.test_client_accidents import _after_peeks
    from tests.test_client_app import open_table

    return open_table(app, _after_peeks(), 0)[0]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("make", [omerta_scene, famiglia_scene, fb_scene, mafiosi_scene])
def test_the_messages_are_never_written_under_the_emote_bar(tmp_path, size, make, monkeypatch):
    from client.table import draw as kit

    app = make_app(tmp_path, size)
    scene = make(app)
    for i in range(12):
        scene.column.say(f"message {i}: a line long enough to wrap in the column", (240, 235, 220), 60000)
    boxes = []
    real = kit._draw_messages
    monkeypatch.setattr(kit, "_draw_messages", lambda surf, box, *a: (boxes.append(box), real(surf, box, *a)))
    monkeypatch.setitem(kit._MESSAGES_CACHE, "key", None)  # drawn afresh, through the spy
    app.display.render(1 / 60, flip=False)
    bar = scene.emotes.bar_rect()
    box = scene.emotes.message_box(scene.layout.info)
    assert bar is not None and boxes and boxes[-1].size == box.size
    assert not box.colliderect(bar), f"messages in {box} under the emote bar {bar} ({size})"
