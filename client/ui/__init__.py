"""What the screens are built of: the scene base (:mod:`.scene`), widgets (:mod:`.widgets`)
and the menus' title (:mod:`.title`). Nothing here imports a screen or the app."""
