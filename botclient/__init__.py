"""``mafia-bot``: a headless player program that plays seats of a match over TCP with
the games' own bots (:mod:`botclient.main`). No pygame: it runs on any server box."""
