"""The table kit every game's table is built on.

* :mod:`.base` -- :class:`~client.table.base.TableScene`: the template of a table
  (showing updates, sending actions, input, drawing) and the hooks a game fills; it
  holds its parts as collaborators, each in its own module:
  :mod:`.roster` (who sits where), :mod:`.timer` (the turn timer), :mod:`.messages` (the
  message column), :mod:`.motion` (cards gliding to their places), :mod:`.feed` (the
  server's messages in, actions out), :mod:`.buttons` (action and Rules buttons),
  :mod:`.emotes` (emote badges and bar), :mod:`.tips` (card tips), :mod:`.ending`
  (results board and next match), :mod:`.keys` (rules key, double Esc, leaving);
* :mod:`.reactions` -- :class:`~client.table.reactions.ReactionTableScene`: reaction
  windows (claim and pass keys, ``t_press``/``t_shown`` stamping, the window's time bar,
  ``claim_result`` lines, the photo finish of :mod:`.race`) and couch seats (a key
  binding per local seat, the hand-over screen);
* :mod:`.handover` -- the couch hand-over screen; :mod:`.results` -- the results
  overlay; :mod:`.draw` -- painting helpers; :mod:`.layout` -- card sizes and grids;
  :mod:`.kept` -- the drawing caches let go when a table is left.

Nothing here names a game or imports the app, the screens or the registry.
"""
