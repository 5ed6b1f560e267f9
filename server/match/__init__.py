"""One table and its match, as named collaborators (:mod:`server.match.table`)."""
