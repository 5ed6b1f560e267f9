"""The game client (``mafia-table``)."""
import os

# pygame prints its support banner ("pygame-ce 2.5.8 (SDL ...)") on import: it would come
# first on ``mafia-table --help`` and every run. This package is imported before any of
# its modules imports pygame, so hiding it here covers every entry point.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
