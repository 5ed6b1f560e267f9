"""The table kit every game's table is built on.

* :mod:`.base` -- :class:`~client.table.base.TableScene`: seats and names, the message
  column, the turn timer, spectators, reconnection, showing updates, sending actions,
  action buttons, mouse and the double Esc;
* :mod:`.reactions` -- :class:`~client.table.reactions.ReactionTableScene`: reaction
  windows (claim and pass keys, ``t_press``/``t_shown`` stamping, the window's time bar,
  ``claim_result`` lines) and couch seats (a key binding per local seat, the hand-over
  screen);
* :mod:`.handover` -- the couch hand-over screen; :mod:`.results` -- the results
  overlay; :mod:`.draw` -- painting helpers; :mod:`.layout` -- card sizes and grids.

Nothing here names a game or imports the app, the screens or the registry.
"""
