"""The end of a match at a table on screen: its results board, and the next match when
every player asked to play again (the seats keep their reconnect tokens for it)."""
from __future__ import annotations

from typing import Any, Mapping


class MatchEnd:
    """The results board and the rematch of ``scene`` (a
    :class:`client.table.base.TableScene`)."""

    def __init__(self, scene: Any):
        self.scene = scene
        self._stash: list[tuple[Any, dict[str, Any]]] = []  # a rematch's starts on local seats
        self._seat_tokens: dict[int, str] = {}  # local seat -> its token, kept for a rematch

    # -- the results board ---------------------------------------------------------------
    def results_board(self) -> Any:
        """The results board of this table on the app's scene stack (an instance of the
        game's ``ClientGame.results_scene``), None when none is up."""
        sc = self.scene
        cls = sc.app.results_scene(sc.game)
        if cls is None:
            return None
        return next((s for s in sc.app.scenes if isinstance(s, cls) and s.table is sc), None)

    def open_results(self, *args: Any, **kwargs: Any) -> Any:
        """Push the game's results board, ``results_scene(app, scene, *args, **kwargs)``;
        when one of this table is already up it is handed the news instead
        (:meth:`client.table.results.ResultsOverlay.again` with the same arguments).
        Returns the board, None for a game without one."""
        sc = self.scene
        cls = sc.app.results_scene(sc.game)
        if cls is None:
            return None
        board = self.results_board()
        if board is not None:
            board.again(*args, **kwargs)
            return board
        return sc.app.push(cls(sc.app, sc, *args, **kwargs))

    # -- play again ----------------------------------------------------------------------
    def keep_token(self, seat: int | None, link: Any) -> None:
        """Note local ``seat``'s reconnect token, once (the app drops it at
        ``match_over``; the same seat keeps it in the next match at this table)."""
        if seat is None or seat in self._seat_tokens:
            return
        token = (getattr(link, "tokens", None) or {}).get(self.scene.table_id)
        if isinstance(token, str):
            self._seat_tokens[seat] = token

    def _tokens_back(self, msg: Mapping[str, Any]) -> None:
        """A rematch keeps every seat's token: give them back to the links (and to the
        player's kept seats) for the new match."""
        tid = self.scene.table_id
        for seat, other in self.scene.links.items():
            token = self._seat_tokens.get(seat)
            tokens = getattr(other, "tokens", None)
            if token is None or not isinstance(tokens, dict) or tid in tokens:
                continue
            tokens[tid] = token
            keep = getattr(other, "keep_seat", None)
            if keep is not None:
                keep(tid, seat, msg.get("game"))

    def is_next_match(self, msg: Mapping[str, Any]) -> bool:
        """A ``match_started`` that is a new match at this table (a rematch): the match
        shown here is over and this is no come-back."""
        sc = self.scene
        return not sc.replay and sc.match_result is not None and not msg.get("resumed")

    def next_match(self, msg: dict[str, Any], link: Any) -> None:
        """Every player asked to play again: the new match opens in a fresh table scene
        of the game (the same flow as a first start). Couch play: the local seats'
        starts wait for the shared screen's, then reach the new scene with their keys."""
        sc = self.scene
        if link is not sc.display:
            self._stash.append((link, msg))
            return
        bindings = getattr(sc, "bindings", {}) or {}
        self._tokens_back(msg)
        for seat, other in sc.links.items():
            if other is not link and seat in bindings:
                sc.app.pending_bindings[other] = bindings[seat]
        seat = msg.get("seat")
        scene = sc.app.table_scene(link, msg, binding=bindings.get(seat) if seat is not None else None)
        if scene is None:
            return
        sc.app.reset(scene)
        stash, self._stash = self._stash, []
        for other, started in stash:
            scene.on_message(started, other)
