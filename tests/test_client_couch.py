"""Couch play and the TV view: two local seats with their own snap keys each claim for
their own seat; the shared screen shows no private card; the hand-over screen does;
a whole couch table starts on the real embedded server; LAN discovery lists it."""
from __future__ import annotations

import pygame
import pytest_twisted

from client.input import binding_for
from tests.test_client_app import FakeLink, StampClock, key, make_app, menu_app, snap_window_state, until
from shared.games import omerta
from shared.rules import events_for


def couch_table(app, state, events, seats=(0, 1), zones=("left", "right")):
    """A table whose screen is a spectator link, with local ``seats`` on their own links."""
    from client.games.omerta.table import OmertaTableScene

    screen = FakeLink(None)
    started = {"type": "match_started", "table": 9, "game": "omerta", "seat": None,
               "view": omerta.view(state, None), "legal": []}
    scene = app.reset(OmertaTableScene(app, screen, started))
    links = {}
    for seat, zone in zip(seats, zones):
        link = FakeLink(seat)
        links[seat] = link
        app.pending_bindings[link] = binding_for(zone)
        scene.on_message({"type": "match_started", "table": 9, "game": "omerta", "seat": seat,
                          "view": omerta.view(state, seat),
                          "legal": [a.to_dict() for a in omerta.legal_actions(state, seat)]}, link)
    if events:
        scene.on_message({"type": "update", "table": 9, "events": events_for(events, None),
                          "view": omerta.view(state, None), "legal": []}, screen)
        for seat, link in links.items():
            scene.on_message({"type": "update", "table": 9, "events": events_for(events, seat),
                              "view": omerta.view(state, seat),
                              "legal": [a.to_dict() for a in omerta.legal_actions(state, seat)]}, link)
    return scene, screen, links


def test_two_local_seats_claim_with_their_own_keys(tmp_path):
    app = make_app(tmp_path)
    state, events = snap_window_state()
    scene, screen, links = couch_table(app, state, events)
    assert scene.public and scene.local_seats == {0, 1} and scene.perspective == 0
    for _ in range(30):
        app.display.render(1 / 60, flip=False)
    clock = app.sampler = StampClock()
    key(pygame.K_d)  # seat 0 ("left" keys): next card -> its first card
    key(pygame.K_s)  # seat 0 snaps
    app.sample()
    t0 = clock.stamps[-1]
    key(pygame.K_RIGHT)  # seat 1 ("arrows"): next card
    key(pygame.K_RIGHT)  # ... its second card
    key(pygame.K_DOWN)  # seat 1 snaps
    app.sample()
    t1 = clock.stamps[-1]
    assert [s["action"] for s in links[0].conn.sent] == [{"type": "snap", "slot": 0}]
    assert [s["action"] for s in links[1].conn.sent] == [{"type": "snap", "slot": 5}]
    assert links[0].conn.sent[0]["t_press"] == t0 and links[1].conn.sent[0]["t_press"] == t1
    assert screen.conn.sent == []  # the shared screen never acts


def test_shared_screen_hides_private_cards_and_handover_shows_them(tmp_path):
    from client.table.handover import HandoverScene

    app = make_app(tmp_path)
    s = omerta.new_match({"seats": 3, "first_player": 0}, 5)
    scene, screen, links = couch_table(app, s, [])
    # seat 1 peeks at two cards by clicking them
    mine = scene.own_slots(1)
    s2, events = omerta.apply(s, 1, omerta.Peek((mine[0], mine[1])))
    scene.on_message({"type": "update", "table": 9, "events": events_for(events, None),
                      "view": omerta.view(s2, None), "legal": []}, screen)
    scene.on_message({"type": "update", "table": 9, "events": events_for(events, 1),
                      "view": omerta.view(s2, 1), "legal": []}, links[1])
    assert not [e for e in scene.anim.effects if getattr(e, "private", False)]  # nothing on the TV
    assert scene.private_info(1)["look"]["slots"] == [mine[0], mine[1]]
    key(pygame.K_RSHIFT)  # seat 1's reveal key ("arrows" zone): the cover first
    app.sample()
    assert isinstance(app.top, HandoverScene) and not app.top.showing
    key(pygame.K_RSHIFT)  # again: show
    app.sample()
    assert app.top.showing and app.top.info["look"]["cards"] == [c for c in events[0].secret["cards"]]
    app.display.render(1 / 60, flip=False)
    assert scene.private_info(1)["look"] is None  # shown once: the game keeps no memory
    key(pygame.K_RSHIFT)
    app.sample()
    assert app.top is scene


@pytest_twisted.inlineCallbacks
def test_couch_game_starts_with_one_connection_per_player(tmp_path):
    from client.scenes.couch import start_couch
    from client.games.omerta.table import OmertaTableScene

    with menu_app(tmp_path) as app:
        yield app.connections.start()
        tid = yield start_couch(app, [("Ann", binding_for("left")), ("Bob", binding_for("right"))], 3)
        yield until(app, lambda: isinstance(app.top, OmertaTableScene) and len(app.top.local_seats) == 2)
        table = app.top
        assert table.table_id == tid and table.public
        assert {table.links[0].name, table.links[1].name} == {"Ann", "Bob"}
        assert table.links[0] is not table.links[1] is not table.display
        assert table.bindings[0].snap == pygame.K_s and table.bindings[1].snap == pygame.K_DOWN
        assert table.view["seat"] is None  # the screen is a spectator


@pytest_twisted.inlineCallbacks
def test_join_screen_lists_a_server_found_on_loopback(tmp_path):
    import socket

    from client.scenes.join import JoinScene

    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    port = udp.getsockname()[1]
    udp.close()
    app = make_app(tmp_path)
    app.config["server"]["discovery_port"] = port
    try:
        yield app.connections.start()
        join = app.push(JoinScene(app))
        yield until(app, lambda: join.servers, timeout=5)
        assert any(s["tcp_port"] == app.connections.server_port for s in join.servers)
        lines = [item["text"] for item in join.l_servers.item_list]
        assert any(f":{app.connections.server_port}" in line for line in lines)
    finally:
        for link in list(app.connections.links):
            app.connections.close_link(link)


@pytest_twisted.inlineCallbacks
def test_tv_view_watches_a_running_table_with_public_information_only(tmp_path):
    from client.scenes.join import watch_any
    from client.scenes.menu import MenuScene, quick_game
    from client.games.omerta.table import OmertaTableScene

    player = make_app(tmp_path)  # somebody plays a quick game on this server...
    player.push(MenuScene(player))
    tv = None
    try:
        yield player.connections.start()
        yield quick_game(player.connections.main_link)
        yield until(player, lambda: isinstance(player.top, OmertaTableScene))
        from client.app import App
        from client.settings import Settings

        tv = App(player.config, Settings(name="TV"), player.reactor, connect_to=player.connections.server_address,
                 settings_path=str(tmp_path / "tv.json"))
        tv.open_window = lambda: None  # one window per process: the TV shares it
        tv.display.screen, tv.display.manager, tv.art, tv.sound, tv.display.size = (
            player.display.screen, player.manager, player.art, None, player.size)
        tv.running = True
        link = yield tv.connections.start()
        watch_any(tv, link)
        yield until(player, lambda: bool(tv.scenes) and isinstance(tv.top, OmertaTableScene))
        table = tv.top
        assert table.public and not table.local_seats and table.view["seat"] is None
        assert table.view["safe_cards"] is None and table.keys.help_line.startswith("Watching")
    finally:
        for app in (player, tv):
            for link in list(getattr(getattr(app, "connections", None), "links", [])):
                app.connections.close_link(link)


def test_couch_setup_offers_every_couch_game_and_starts_the_chosen_one(tmp_path, monkeypatch):
    """Couch play is not Omerta only: the setup lists every game with couch play, and
    choosing one sets its seat range and creates its table."""
    import pygame_gui
    from twisted.internet import defer

    from client import games
    from client.scenes import couch as couch_mod

    names = [g.name for g in games.couch_games()]
    assert names[0] == games.couch_game().name and "family_business" in names
    started = []
    monkeypatch.setattr(couch_mod, "start_couch", lambda app, players, seats, options=None, game=None:
                        started.append((game, seats)) or defer.succeed(1))
    with menu_app(tmp_path) as app:
        app.connections.main_link = object()  # start() only needs a link to exist
        scene = couch_mod.CouchScene(app)
        app.push(scene)
        app.display.render(0.02)
        event = pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=scene.dd_game,
                                   text=games.title("family_business"),
                                   selected_option_id="family_business")
        scene.handle_event(event, 0.0)
        assert (scene.lo, scene.hi) == games.seat_range("family_business")[:2]
        scene.start()
    assert started == [("family_business", max(2, games.seat_range("family_business")[2]))]
