"""What a long evening must not pile up in the client: rendered text is bounded in bytes,
a burst of pushed table summaries costs one rebuild of the lobby, and freed surfaces go
back to the system."""
from __future__ import annotations

import pygame

from client import allocator, text


def test_the_text_cache_is_bounded_in_bytes(monkeypatch):
    pygame.font.init()
    text.clear()
    monkeypatch.setattr(text, "_CACHE_MAX_BYTES", 2 * 2**20)
    for i in range(600):  # a long match's narration: wide lines, each rendered once
        text.render(f"Round {i // 40 + 1} · Turn {i} — Marco plays the {i}th card of the evening, face up", 28)
    held = sum(s.get_width() * s.get_height() * s.get_bytesize() for s in text._cache.values())
    assert held <= 2 * 2**20 and held == text._cache_bytes
    assert len(text._cache) < 600  # the oldest lines went
    text.clear()
    assert text._cache_bytes == 0


def test_the_allocator_settings_apply_or_say_they_cannot():
    assert isinstance(allocator.return_freed_memory(), bool)
    assert isinstance(allocator.trim(), bool)


def test_every_size_shares_one_face_and_draws_what_its_own_font_draws():
    """Each open font holds its own copy of the font file (about 0.5 MB): the table's
    dozens of sizes are sizes of one face per weight, drawn exactly as a font opened at
    that size would draw them, whatever size was used just before."""
    pygame.font.init()
    sample = "Famiglia · Família — Éé 7♠ gyQ"
    sizes = [31, 6, 72, 13, 31, 19, 44]
    for bold in (False, True):
        own = {px: pygame.font.Font(text.BOLD if bold else text.REGULAR, px) for px in set(sizes)}
        for px in sizes:
            f = text.font(px, bold)
            img = f.render(sample, True, (255, 255, 255))
            ref = own[px].render(sample, True, (255, 255, 255))
            assert img.get_size() == ref.get_size() == f.size(sample)
            assert pygame.image.tobytes(img, "RGBA") == pygame.image.tobytes(ref, "RGBA")
            assert f.get_linesize() == own[px].get_linesize()
    faces = {id(text.font(px, bold).face) for px in range(6, 80) for bold in (False, True)}
    assert len(faces) == 2


def test_fitting_text_settles_on_the_largest_size_that_fits():
    pygame.font.init()
    text.fit_size.cache_clear()
    size = text.fit_size("Famiglia · Family Business · Mafiosi · Omerta", 400, 72)
    assert text.font(size).size("Famiglia · Family Business · Mafiosi · Omerta")[0] <= 400
    assert text.font(size + 1).size("Famiglia · Family Business · Mafiosi · Omerta")[0] > 400


def test_leaving_a_table_lets_its_card_art_go(tmp_path):
    from client.scenes.menu import MenuScene
    from tests.test_client_app import make_app

    app = make_app(tmp_path)
    app.art.back(80, 120)
    app.art.face({"id": 3}, 80, 120)
    assert app.art._cache
    app.reset(MenuScene(app))
    assert not app.art._cache


def test_leaving_a_table_lets_its_drawing_caches_go(tmp_path):
    """Each game's base frame and layers are whole-window surfaces kept between frames
    at module level: once the table is left they must go, not stay for the evening."""
    from client.games.omerta import draw as omerta_draw
    from client.scenes.menu import MenuScene
    from client.table import draw
    from shared.games import omerta
    from tests.test_client_app import make_app
    from tests.test_client_partial_redraw import _spectator_table  # a TV's table: drawn over its base frame

    app = make_app(tmp_path)
    scene, _link = _spectator_table(app, omerta.new_match({"seats": 3, "first_player": 0}, 2))
    for _ in range(3):
        app.display.render(1 / 60)
    assert omerta_draw._base.surf is not None and omerta_draw._chrome["surf"] is not None
    assert draw.panel.cache_info().currsize > 0
    app.reset(MenuScene(app))
    del scene
    assert omerta_draw._base.surf is None and omerta_draw._base.key is None
    assert omerta_draw._chrome == {"key": None, "surf": None}
    assert omerta_draw._layer["surf"] is None and omerta_draw._layer["baked"] == {}
    assert draw.panel.cache_info().currsize == 0
    assert text._cache_bytes == 0  # the table's narration too
