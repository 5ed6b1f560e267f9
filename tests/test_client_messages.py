"""The message column wraps long lines instead of cutting them (the lead could not read
"root (you) plays the Lady: a Hitwo…" at 1280x720), in both languages."""
from __future__ import annotations

import pygame
import pytest

from client import i18n, text
from client.games.omerta.layout import table_layout
from client.games.famiglia.layout import famiglia_layout
from client.table.draw import wrapped
from shared.games import famiglia as fg
from shared.games import omerta


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_long_narration_lines_wrap_in_the_message_column(lang):
    pygame.font.init()
    i18n.setup(lang)
    try:
        lay = table_layout(omerta.view(omerta.new_match({"seats": 4}, 1), 0), (1280, 720))
        size = max(11, int(lay.font * 0.82))
        width = lay.info.w - 8 - max(4, size // 2)
        for line in (i18n.tr("msg.counter_window", name="root (you)", card="Lady"),
                     i18n.tr("msg.driver_wrong", name="Alexandra (you)", cards="the 10, the Henchman (15)"),
                     i18n.tr("fam.msg.take_pair_kept", name="Bob", card="the Brute 3", gang="the Brute 2",
                             kept="the Mercenary 4")):
            lines = wrapped(line, width, size)
            assert len(lines) >= 2 and " ".join(lines) == line  # nothing dropped, no ellipsis
            assert all(text.font(size).size(part)[0] <= width for part in lines)
    finally:
        i18n.setup("en")


def test_the_famiglia_message_column_is_as_wide_as_omertas():
    v = fg.view(fg.new_match({}, 1), 0)
    assert famiglia_layout(v, (1280, 720)).info.w >= table_layout(
        omerta.view(omerta.new_match({"seats": 4}, 1), 0), (1280, 720)).info.w * 0.9
