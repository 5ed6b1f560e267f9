"""A minimal fake game for the tests: "a new game is one folder per layer".

``tests.fakegame.rules`` is a complete, tiny game (``fake_snap``) that generic code must
run without naming it: it registers itself with :func:`tests.fakegame.rules.register`
and then gets the conformance suite (``tests/test_conformance.py``) and a real server
(``tests/test_fakegame_server.py``).
"""
