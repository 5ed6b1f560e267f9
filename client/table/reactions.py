"""Reaction windows and couch seats, for every game that has them (a snap, a counter
card...).

:class:`ReactionTableScene` is a :class:`~client.table.base.TableScene` that adds:

* **Local seats with key bindings** (couch play): every local seat is a connection of
  its own with its own :class:`~client.input.Binding`; the first one sits at the bottom
  of the screen. A seat's reveal key opens the hand-over screen
  (:class:`~client.table.handover.HandoverScene`) when the shared screen is a
  spectator; the game says what that seat may see (:meth:`private_info`,
  :meth:`private_groups`).
* **Claims and passes**: the claim types are the open window's ``claim_types`` (the
  ``shared.windows.Window`` wire form) and the game's :attr:`claim_types`; the snap key,
  a right click on a local seat's own card or a claim button claim with the card under
  that seat's cursor, the pass key passes. A claim is sent with ``t_press`` = the
  sampler's stamp of the key press or click (client ms) and ``t_shown`` = the client ms
  of the first frame that showed what opened the window (the game's effects call
  :meth:`window_seen` with the scene time its card lands).
* **The window's time bar** (:meth:`window_left`, drawn by
  :func:`client.table.draw.window_bar`) and the ``claim_result`` lines ("first by 14 ms").
* **The photo finish** of each ``race`` (:mod:`client.table.race`): the claimants'
  reaction times side by side with the winner's margin, one of the kit's
  :meth:`overlays` over the game's ``draw_table`` (set :attr:`race_overlay` false to
  place it yourself with :meth:`draw_race`), in
  :meth:`race_area`; :meth:`median_reaction` gives each seat's median for the results
  boards (``match_over.reactions``, else the races seen so far).
* **Cursor keys**: select / previous / next move a seat's cursor over its own cards
  (:meth:`own_cards`), confirm clicks the card under it.

A game supplies :meth:`own_cards`, the place kind of its cards (:attr:`card_place`), the
claim field (:attr:`claim_field`), and may override :meth:`_drop_choice` and the
hand-over hooks.
"""
from __future__ import annotations

from typing import Any, Callable

import pygame

from client.i18n import tr, labelled
from client.input import CONFIRM, NEXT, PASS, PREV, REVEAL, SELECT, SNAP, Binding, default_binding, now_ms
from client.narrate import BAD, INFO, NOTE, claim_result
from client.table.base import TableScene
from client.table.race import RACE_MS, PhotoFinish, draw_photo_finish, median


class ReactionTableScene(TableScene):
    """``link`` received ``started`` (a ``match_started``) and becomes the display link;
    when ``started["seat"]`` is a seat, that seat is local with ``binding``."""

    #: Claim and pass action types the game knows (an open window's own are added).
    claim_types: tuple[str, ...] = ()
    pass_types: tuple[str, ...] = ()
    #: The field of a claim action naming the card it is made with (None: no card).
    claim_field: str | None = "card"
    #: The kind of the table places (``layout.hit``) that are a seat's own cards.
    card_place = "card"
    #: The kit draws the photo finish over the game's ``draw_table`` (False: the game calls
    #: :meth:`draw_race` itself).
    race_overlay = True
    #: How long a photo finish stays up (ms).
    race_ms = RACE_MS

    def __init__(self, app: Any, link: Any, started: dict[str, Any], binding: Binding | None = None):
        super().__init__(app, link, started)
        self.bindings: dict[int, Binding] = {}
        self.seat_views: dict[int, dict[str, Any]] = {}
        self.cursor: dict[int, Any] = {}  # local seat -> the card its cursor is on
        self.window_face_t: dict[int, float] = {}  # window id -> scene ms its card is shown
        self.window_shown_ms: dict[int, float] = {}  # window id -> client ms of that frame
        self.window_open_t: dict[int, float] = {}  # window id -> scene ms it opened on screen
        self._shown_pending: set[int] = set()
        self.race: PhotoFinish | None = None  # the photo finish on screen (or last shown)
        self.races_seen: set[Any] = set()  # window ids whose race was shown
        self.race_reactions: dict[int, list[float]] = {}  # seat -> its reactions in the races seen
        seat = started.get("seat")
        if seat is not None:
            self._seat_joined(seat, link, started, binding)

    # -- what the game supplies ---------------------------------------------------------
    def own_cards(self, seat: int) -> list[Any]:
        """The cards of local ``seat`` its cursor moves over, in order (ids)."""
        return []

    def card_owner(self, card: Any) -> int | None:
        """The seat whose own card ``card`` is (None: nobody's)."""
        return next((s for s in self.links if card in self.own_cards(s)), None)

    def _drop_choice(self, seat: int) -> None:
        """An action of ``seat`` is being sent: forget the choice it was making."""

    def private_info(self, seat: int) -> dict[str, Any]:
        """What only ``seat`` may see now (the hand-over screen shows it); {} for nothing."""
        return {}

    def private_groups(self, seat: int, info: dict[str, Any]) -> list[tuple[str, list[tuple[Any, str]]]]:
        """``info`` as the hand-over screen shows it: ``[(title, [(card, label), ...])]``."""
        return []

    def private_shown(self, seat: int, info: dict[str, Any]) -> None:
        """The hand-over screen showed ``info`` to ``seat`` (forget what is shown once)."""

    # -- seats --------------------------------------------------------------------------
    def _seat_joined(self, seat: int, link: Any, msg: dict[str, Any], binding: Binding | None) -> None:
        self.links[seat] = link
        self._note_seat(seat, msg)
        self.bindings[seat] = binding or default_binding()

    def add_local_seat(self, link: Any, msg: dict[str, Any], binding: Binding | None = None) -> None:
        """Another local player (couch play): ``msg`` is its ``match_started``."""
        self._seat_joined(msg["seat"], link, msg, binding)
        if self.perspective is None:  # the first local seat sits at the bottom
            self.perspective = msg["seat"]
            self.on_resize(self.app.size)
        self.actions.invalidate()
        self._refresh()

    def _seat_arrived(self, link: Any, msg: dict[str, Any]) -> None:
        self.add_local_seat(link, msg, self.app.pending_bindings.pop(link, None))

    def _note_seat(self, seat: int, msg: dict[str, Any]) -> None:
        super()._note_seat(seat, msg)
        self.seat_views[seat] = msg.get("view", {})

    def _seat_lost(self, seat: int) -> None:
        """A couch player's connection is gone: the others play on."""
        self.links.pop(seat, None)
        self.bindings.pop(seat, None)
        self._drop_choice(seat)
        self._refresh()

    def player_help(self) -> str:
        if len(self.links) > 1:
            return tr("table.help_couch")
        keys = next(iter(self.bindings.values())).describe()
        return tr("table.help", snap=keys.get("snap", "?"), passkey=keys.get("pass", "?"))

    def keys_of(self, seat: int) -> dict[str, str]:
        """The key names of ``seat``'s binding (``{"snap": "Space", ...}``)."""
        return self.bindings.get(seat, default_binding()).describe()

    @property
    def cursor_picks(self) -> set[tuple[str, Any]]:
        return {(self.card_place, c) for c in self.cursor.values()}

    # -- the open window ----------------------------------------------------------------
    @property
    def window(self) -> dict[str, Any] | None:
        """The open reaction window of the view (its wire form), None without one."""
        w = self.view.get("window")
        return w if isinstance(w, dict) else None

    def window_claims(self) -> tuple[str, ...]:
        """Every action type that is a claim now (the game's and the open window's)."""
        w = self.window or {}
        return tuple(self.claim_types) + tuple(t for t in w.get("claim_types") or () if t not in self.claim_types)

    def window_passes(self) -> tuple[str, ...]:
        w = self.window or {}
        extra = (w["pass_type"],) if w.get("pass_type") and w.get("pass_type") not in self.pass_types else ()
        return tuple(self.pass_types) + extra

    def window_seen(self, wid: int, at: float) -> None:
        """What opened window ``wid`` is on screen from scene time ``at`` (ms): its first
        frame from then on gives the claims' ``t_shown``, and its time bar starts."""
        self.window_face_t[wid] = at
        self.window_open_t[wid] = at

    def window_left(self) -> float | None:
        """Fraction of the open window's time left (1 -> 0), None without a window."""
        w = self.window
        opened = self.window_open_t.get(w.get("window")) if w else None
        if opened is None:
            return None
        return min(1.0, max(0.0, 1.0 - (self.t - opened) / max(1.0, float(w.get("timeout_ms", 3000)))))

    def _window_moved_on(self, before: Any) -> None:
        """The view changed: when the window ``before`` (an id, None: none) is closed or
        replaced, the cards picked for it are dropped -- the next window never starts
        with a card (and its claim button) armed."""
        if before is not None and (self.window or {}).get("window") != before:
            if self.cursor:
                self.cursor.clear()
                self.actions.invalidate()

    def _apply(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        before = (self.window or {}).get("window")
        super()._apply(view, events)
        self._window_moved_on(before)

    def jump(self, view: dict[str, Any]) -> None:
        before = (self.window or {}).get("window")
        self.view = view
        self._window_moved_on(before)
        super().jump(view)

    # -- the photo finish ---------------------------------------------------------------
    def show_race(self, msg: dict[str, Any]) -> PhotoFinish | None:
        """A ``race`` message: show its photo finish (once per window, however many
        local connections received it) and note each claimant's reaction."""
        wid = msg.get("window")
        if wid in self.races_seen:
            return None
        race = PhotoFinish.from_message(msg, self.roster.seat_name, self.t, self.race_ms)
        if race is None:
            return None
        self.races_seen.add(wid)
        for r in race.runners:
            self.race_reactions.setdefault(r.seat, []).append(r.reaction_ms)
        self.race = race
        return race

    def median_reaction(self, seat: int) -> float | None:
        """``seat``'s median reaction (ms) this match: the server's (``match_over``
        ``reactions``) once the match is over, else the median of the races seen."""
        reactions = getattr(self, "match_reactions", None)
        if isinstance(reactions, list) and seat < len(reactions):
            v = reactions[seat]
            return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None
        return median(self.race_reactions.get(seat, []))

    def race_font(self) -> int:
        """The photo finish's type size (px): about 4 % of the table's height."""
        return max(16, int(self.table_size[1] * 0.042))

    def race_area(self) -> pygame.Rect:
        """Where the photo finish goes: beside the discard pile when the layout has one
        (it must never hide the card of the next window), else across the upper table."""
        w, h = self.table_size
        size = self.race_font()
        box_h = int(size * 4.4)
        margin = max(8, w // 100)
        disc = getattr(self.layout, "discard", None)
        if isinstance(disc, pygame.Rect):
            left, right = disc.right + margin * 2, w - margin * 2
            if right - left >= w * 0.3:
                return pygame.Rect(left, disc.centery - box_h // 2, right - left, box_h)
        return pygame.Rect(int(w * 0.18), int(h * 0.30) - box_h // 2, int(w * 0.64), box_h)

    def overlays(self) -> list[Callable[[pygame.Surface], Any]]:
        """The base table's overlays with the photo finish (unless :attr:`race_overlay`
        is false) under the card tip: a tip is asked for by the mouse and must be read
        whole, the photo finish stays a few seconds anyway."""
        layers = super().overlays()
        if not self.race_overlay:
            return layers
        tip = self.tip.draw_on_top
        at = next((i for i, paint in enumerate(layers) if paint == tip), len(layers))
        return [*layers[:at], self.draw_race, *layers[at:]]

    def draw_race(self, surface: pygame.Surface) -> pygame.Rect | None:
        """Paint the photo finish while it is up (not over the reconnecting veil)."""
        race = self.race
        if race is None or self.t >= race.until or self.reconnecting is not None:
            return None
        return draw_photo_finish(surface, self.race_area(), race, self.t, self.race_font())

    # -- network ------------------------------------------------------------------------
    def _game_message(self, msg: dict[str, Any], seat: int | None) -> None:
        if msg.get("type") == "race":
            self.show_race(msg)
            return
        if msg.get("type") == "claim_result" and seat is not None:
            text, colour, cue = claim_result(msg)
            self.column.say(text if len(self.links) == 1 else labelled(self.roster.seat_name(seat), text), colour, 5000)
            cue and self.app.sound and self.app.sound.play(cue)

    # -- sending ------------------------------------------------------------------------
    def send(self, seat: int | None, action: dict[str, Any], t_press: float | None = None,
             t_shown: float | None = None) -> None:
        link = self.links.get(seat) if seat is not None else None
        if link is None or link.conn is None:
            return
        self._drop_choice(seat)
        # a pass refused because the window closed meanwhile: nothing to say
        self.feed.send_now(seat, link, action, t_press=t_press, t_shown=t_shown,
                       quiet=action.get("type") in self.window_passes())

    def claim(self, seat: int, card: Any, t_press: float) -> None:
        """Claim the open window with ``card`` (None: the claim names no card);
        ``t_press`` is the stamp of the key press or click (client ms)."""
        legal = self.legal.get(seat, [])
        kind = next((k for k in self.window_claims() if any(a.get("type") == k for a in legal)), None)
        who = "" if len(self.links) == 1 else labelled(self.roster.seat_name(seat))
        if kind is None:
            w = self.window
            key = "claim.already" if w and seat in w.get("eligible", []) else "claim.no_window"
            self.column.say(who + tr(key), INFO, 2500)
            return
        options = [a for a in legal if a.get("type") == kind]
        if self.claim_field is not None and any(self.claim_field in a for a in options):
            if card is None:
                self.column.say(who + tr("claim.select_first"), NOTE, 3000)
                return
            action = {"type": kind, self.claim_field: card}
            if action not in legal:
                self.column.say(who + tr("claim.not_that_card"), BAD, 3000)
                return
        else:
            action = options[0]
        wid = (self.window or {}).get("window")
        self.send(seat, action, t_press=t_press, t_shown=self.window_shown_ms.get(wid))

    def pass_window(self, seat: int) -> None:
        passes = self.window_passes()
        for a in self.legal.get(seat, []):
            if a.get("type") in passes:
                self.send(seat, a)
                return

    # -- hand-over (couch play) ---------------------------------------------------------
    def reveal_request(self, seat: int) -> None:
        """A seat's reveal key: the hand-over screen (couch play only)."""
        if not self.public:
            return
        info = self.private_info(seat)
        if not any(info.values()):
            self.column.say(tr("handover.nothing", name=self.roster.seat_name(seat)), INFO, 3000)
            return
        from client.table.handover import HandoverScene

        self.app.push(HandoverScene(self.app, self, seat))

    # -- input --------------------------------------------------------------------------
    def _other_input(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type in (pygame.KEYDOWN, pygame.JOYBUTTONDOWN, pygame.JOYHATMOTION):
            for seat, binding in list(self.bindings.items()):
                cmd = binding.command(event)
                if cmd is not None:
                    self.command(seat, cmd, t_ms)
                    return

    def _right_click(self, pick: tuple[str, Any], t_ms: float) -> None:
        """Right click on a card: claim with it (a local seat's own card)."""
        if pick[0] == self.card_place:
            owner = self.card_owner(pick[1])
            if owner in self.links:
                self.cursor[owner] = pick[1]
                self.claim(owner, pick[1], t_ms)

    def command(self, seat: int, cmd: tuple[str, int], t_ms: float) -> None:
        """A key or controller command of local ``seat`` (see client.input)."""
        name, arg = cmd
        cards = self.own_cards(seat)
        if name == SELECT:
            if arg < len(cards):
                self.cursor[seat] = cards[arg]
                self.actions.build()
        elif name in (PREV, NEXT) and cards:
            cur = self.cursor.get(seat)
            i = cards.index(cur) if cur in cards else (-1 if name == NEXT else 0)
            self.cursor[seat] = cards[(i + (1 if name == NEXT else -1)) % len(cards)]
            self.actions.build()
        elif name == SNAP:
            self.claim(seat, self.cursor.get(seat), t_ms)
        elif name == PASS:
            self.pass_window(seat)
        elif name == CONFIRM:
            cur = self.cursor.get(seat)
            if cur is not None:
                self.click((self.card_place, cur), seat)
        elif name == REVEAL:
            self.reveal_request(seat)

    def click(self, pick: tuple[str, Any], seat: int | None = None) -> None:
        """A left click (or a Confirm key of ``seat``) on a place of the table."""

    def claim_now(self, seat: int) -> None:
        """A claim button: claim with the card under ``seat``'s cursor, stamped now."""
        self.claim(seat, self.cursor.get(seat), now_ms())

    def _forget_gone(self) -> None:
        for seat, card in list(self.cursor.items()):
            if card not in self.own_cards(seat):
                del self.cursor[seat]

    # -- frame --------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        super().update(dt)
        for wid, at in self.window_face_t.items():
            if wid not in self.window_shown_ms and self.t >= at:
                self._shown_pending.add(wid)
        if len(self.window_face_t) > 50:
            for wid in sorted(self.window_face_t)[:-10]:
                self.window_face_t.pop(wid, None)

    def presented(self, t_ms: float) -> None:
        for wid in self._shown_pending:
            self.window_shown_ms.setdefault(wid, t_ms)
        self._shown_pending.clear()
