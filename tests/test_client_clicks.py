"""A click acts once -- not zero times, not twice -- on a widget that appeared under a
mouse that has not moved, right after a drop-down choice, or while the server pushes a
table between the press and the release. Real pygame events (the mouse put in place
with ``pygame.mouse.set_pos``, no motion event) go through the app's own dispatch;
dummy SDL video, fake links."""
from __future__ import annotations

import pygame

from client.scenes.host import HostScene
from client.scenes.menu import MenuScene
from tests.test_client_emotes import FakeLink, make_app
from tests.test_client_host_controls import SEATS4, lobby

FULL = SEATS4[:3] + [{"seat": 3, "name": "Connie", "bot": True, "connected": True}]


def frames(app, n=3):
    for _ in range(n):
        app.sample()
        app.display.render(1 / 60, flip=False)


def press(app, pos):
    """The left button pressed at ``pos`` (the mouse already rests there)."""
    pygame.mouse.set_pos(pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.sample()


def release(app, pos):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.sample()


def click(app, pos):
    press(app, pos)
    release(app, pos)
    frames(app)


def host_screen(tmp_path):
    app = make_app(tmp_path)
    link = FakeLink()
    app.connections.main_link = link
    app.push(MenuScene(app))
    host = app.push(HostScene(app))
    frames(app)
    return app, host, link


def creates(link):
    return [r for r in link.requests if r[0] == "create_table"]


def test_the_window_acts_on_the_click_that_brings_it_forward(tmp_path, monkeypatch):
    """SDL drops a press that comes with the window's focus unless told otherwise:
    going back to the client from another window would cost a click."""
    import os

    monkeypatch.delenv("SDL_MOUSE_FOCUS_CLICKTHROUGH", raising=False)
    make_app(tmp_path)
    assert os.environ["SDL_MOUSE_FOCUS_CLICKTHROUGH"] == "1"


def test_open_the_table_after_choosing_the_game_shown_again(tmp_path):
    """Choosing the option a drop-down already shows closes it: its open list (over the
    dialog's buttons) must not take the next click for a choice."""
    app, host, link = host_screen(tmp_path)
    for dd in (host.dd_seats, host.dd_game):
        host.busy = False
        link.requests.clear()
        click(app, dd.rect.center)
        expanded = dd.menu_states["expanded"]
        assert dd.current_state is expanded
        shown = next(i for i in expanded.options_selection_list.item_list if i["selected"])
        click(app, shown["button_element"].rect.center)
        assert dd.current_state is not expanded
        click(app, host.b_create.rect.center)
        assert len(creates(link)) == 1, creates(link)
        assert creates(link)[0][1]["seats"] == 4 and creates(link)[0][1]["game"] == "omerta"


def test_open_the_table_right_after_a_new_game_was_chosen(tmp_path):
    """Choosing another game rebuilds the dialog under the still mouse: the first click
    on "Open the table" creates the table, once."""
    app, host, link = host_screen(tmp_path)
    click(app, host.dd_game.rect.center)
    items = host.dd_game.menu_states["expanded"].options_selection_list.item_list
    famiglia = next(i for i in items if i["text"] == "Famiglia")
    click(app, famiglia["button_element"].rect.center)
    assert host.game == "famiglia"
    click(app, host.b_create.rect.center)
    assert [r[1]["game"] for r in creates(link)] == ["famiglia"]


def test_start_and_fill_appearing_under_a_still_mouse_act_on_the_first_click(tmp_path):
    app = make_app(tmp_path)
    scene, link = lobby(app)
    frames(app)
    fill = scene.controls["fill"].rect.center
    pygame.mouse.set_pos(fill)
    scene.on_message({"type": "table", "table": dict(scene.table, seats=list(SEATS4))})  # a push: rebuilt
    frames(app)
    click(app, fill)
    assert [r[0] for r in link.requests] == ["add_bot"]
    start = scene.b_start.rect.center
    pygame.mouse.set_pos(start)
    link.requests.clear()
    scene.on_message({"type": "table", "table": dict(scene.table, seats=FULL)})  # the last seat taken
    frames(app)
    assert scene.b_start.is_enabled and scene.b_start.rect.collidepoint(start)
    click(app, start)
    assert link.requests == [("start", {"table": 7})]


def test_a_table_pushed_between_press_and_release_does_not_swallow_the_click(tmp_path):
    app = make_app(tmp_path)
    scene, link = lobby(app, seats=FULL)
    frames(app)
    start = scene.b_start.rect.center
    press(app, start)
    scene.on_message({"type": "table", "table": dict(scene.table, spectators=1)})
    assert scene.rebuild_due  # waits for the release
    release(app, start)
    assert link.requests == [("start", {"table": 7})]
    assert not scene.rebuild_due and scene.b_start.alive()  # rebuilt once released
    frames(app)
    assert link.requests == [("start", {"table": 7})]


def test_the_picked_table_stays_highlighted_when_the_join_list_is_made_again(tmp_path):
    """A search that ends or a pushed table summary makes the Join list again: the table
    the player picked must still look picked (Sit down takes it)."""
    from client.scenes.join import JoinScene
    from tests.test_client_app import make_app

    app = make_app(tmp_path)
    join = app.reset(JoinScene(app))
    seats = [{"seat": i, "name": f"P{i}", "bot": False, "connected": True} for i in range(3)]
    join.tables = [{"id": 3, "name": "Marco", "game": "omerta", "status": "waiting", "seats": seats},
                   {"id": 4, "name": "Friday", "game": "mafiosi", "status": "playing", "seats": seats}]
    join.selected_table = 4
    join.rebuild()
    app.display.render(1 / 60, flip=False)
    picked = [i["object_id"] for i in join.l_tables.item_list if i["selected"]]
    assert picked == ["4"]
    join.tables = join.tables[:1]  # that table closed: nothing is picked any more
    join.rebuild()
    assert join.selected_table is None
    assert not any(i["selected"] for i in join.l_tables.item_list)


def test_a_table_picked_as_the_join_list_is_made_again_is_picked(tmp_path):
    """The click on a row went to the list of a moment ago (the lists were made again
    between the click and its event): the pick counts all the same."""
    import pygame_gui

    from client.scenes.join import JoinScene
    from tests.test_client_app import make_app

    app = make_app(tmp_path)
    join = app.reset(JoinScene(app))
    seats = [{"seat": i, "name": f"P{i}", "bot": False, "connected": True} for i in range(3)]
    join.tables = [{"id": 4, "name": "Friday", "game": "mafiosi", "status": "playing", "seats": seats}]
    join.rebuild()
    old = join.l_tables
    row = old.item_list[0]
    row["selected"] = True  # what pygame_gui does on the click, before it posts its event
    join.rebuild()  # ... and the search ends: new lists
    assert join.l_tables is not old
    join.handle_event(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=old,
                                         text=row["text"]), 0.0)
    assert join.selected_table == 4
    assert [i["object_id"] for i in join.l_tables.item_list if i["selected"]] == ["4"]


def test_a_pick_survives_its_list_refilled_before_the_event_and_a_second_click(tmp_path):
    """A table summary refilled the same list between the click and its event (its
    selection cleared): the row's text still says which table was picked. A second
    click on the picked row (pygame_gui drops the selection) keeps it picked."""
    import pygame_gui

    from client.scenes.join import JoinScene
    from tests.test_client_app import make_app

    app = make_app(tmp_path)
    join = app.reset(JoinScene(app))
    seats = [{"seat": i, "name": f"P{i}", "bot": False, "connected": True} for i in range(3)]
    join.tables = [{"id": 3, "name": "Marco", "game": "omerta", "status": "waiting", "seats": seats},
                   {"id": 4, "name": "Friday", "game": "mafiosi", "status": "playing", "seats": seats}]
    join.rebuild()
    lst = join.l_tables
    row = lst.item_list[1]
    lst.set_item_list([(i["text"], i["object_id"]) for i in lst.item_list])  # refilled: nothing selected
    assert lst.get_single_selection() is None
    join.handle_event(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=lst,
                                         text=row["text"]), 0.0)
    assert join.selected_table == 4
    assert [i["object_id"] for i in join.l_tables.item_list if i["selected"]] == ["4"]
    for i in join.l_tables.item_list:
        i["selected"] = False  # what pygame_gui does on a click on the selected row
    join.handle_event(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION, ui_element=lst,
                                         text=row["text"]), 0.0)
    assert join.selected_table == 4
    assert [i["object_id"] for i in join.l_tables.item_list if i["selected"]] == ["4"]


def test_a_table_name_typed_as_the_host_screen_is_made_again_counts(tmp_path):
    """Choosing the game rebuilds the Host screen; on a slow frame loop the rebuild can
    come between the typing and its event, which then comes from the replaced entry:
    the name typed still counts."""
    import pygame_gui

    from client.scenes.host import HostScene
    from tests.test_client_app import make_app

    app = make_app(tmp_path)
    host = app.reset(HostScene(app))
    old = host.e_name
    host.rebuild()  # the game was chosen meanwhile
    assert host.e_name is not old
    host.handle_event(pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_CHANGED, ui_element=old,
                                         text="Night 002"), 0.0)
    assert host.name == "Night 002"
    host.rebuild()
    assert host.e_name.get_text() == "Night 002"


def test_a_row_half_scrolled_out_of_the_join_list_is_clicked_where_it_shows(tmp_path):
    """The benchmarks' puppet clicks a list row where a person would: in the part of it
    the list shows. The centre of the last row, cut by the list's bottom edge, may lie
    outside the list (a click there picks nothing)."""
    from client.scenes.join import JoinScene
    from tests.test_client_app import make_app
    from tools.puppet import visible_centre

    app = make_app(tmp_path)
    join = app.reset(JoinScene(app))
    seats = [{"seat": i, "name": f"P{i}", "bot": False, "connected": True} for i in range(3)]
    join.tables = [{"id": n, "name": f"Night {n:03d}", "game": "omerta", "status": "waiting", "seats": seats}
                   for n in range(1, 30)]
    join.rebuild()
    join.l_tables.scroll_bar.set_scroll_from_start_percentage(0.1)  # rows cut at both edges
    frames(app)
    inner = join.l_tables.list_and_scroll_bar_container.get_container().get_rect()
    rows = [i for i in join.l_tables.item_list if i.get("button_element") is not None]
    cut = [i for i in rows if not inner.collidepoint(i["button_element"].rect.center)]
    assert cut, "no row shows less than its half: scroll the list elsewhere"
    for row in cut:
        assert inner.collidepoint(visible_centre(row["button_element"]))
    row = cut[-1]
    click(app, visible_centre(row["button_element"]))
    assert join.selected_table == int(row["object_id"])


def test_a_row_pressed_just_before_the_join_list_is_made_again_is_picked(tmp_path):
    """The row's button says it was pressed (an event for the next frame); before its
    list turns that into a selection, the search ends and the lists are made again: the
    old list, gone, never says anything. The row's own press event still picks."""
    from client.scenes.join import JoinScene
    from tests.test_client_app import make_app

    app = make_app(tmp_path)
    join = app.reset(JoinScene(app))
    seats = [{"seat": i, "name": f"P{i}", "bot": False, "connected": True} for i in range(3)]
    join.tables = [{"id": n, "name": f"Night {n:03d}", "game": "omerta", "status": "waiting", "seats": seats}
                   for n in (3, 4)]
    join.rebuild()
    frames(app)
    row = join.l_tables.item_list[1]
    pos = row["button_element"].rect.center
    press(app, pos)
    release(app, pos)  # the button posts its press for the next frame
    join.rebuild()  # the search ended in between
    frames(app)
    assert join.selected_table == 4
    assert [i["object_id"] for i in join.l_tables.item_list if i["selected"]] == ["4"]


def test_the_join_screen_lists_the_tables_once_the_connection_comes_up(tmp_path):
    """On a busy machine the client's connection to its server may come up after the
    player opened Join: the list must fill then, not wait for a press on Refresh."""
    from twisted.internet import defer

    from client.scenes.join import JoinScene
    from tests.test_client_app import make_app
    from tests.test_client_emotes import FakeLink

    app = make_app(tmp_path)
    app.connections.main_link = None
    join = app.reset(JoinScene(app))
    assert join.link is None and join.tables == []
    # the connection comes up: the links tell the screen on top
    connected: defer.Deferred = defer.Deferred()
    app.connections.connector = lambda *a, **kw: connected
    told = []
    join.on_main_link = told.append  # type: ignore[method-assign]
    got = app.connections.open_link("Alice", ("127.0.0.1", 1), main=True)
    connected.callback(object())
    assert told == [app.connections.main_link] and got.called
    # ... and the screen lists that server's tables
    del join.on_main_link
    link = FakeLink()
    seats = [{"seat": 0, "name": "Ann", "bot": False, "connected": True}]
    link.replies["list_tables"] = lambda fields: defer.succeed(
        {"type": "tables", "tables": [{"id": 5, "name": "Night 005", "game": "omerta", "status": "waiting",
                                       "seats": seats}]})
    join.on_main_link(link)
    assert join.link is link and [t["id"] for t in join.tables] == [5]
