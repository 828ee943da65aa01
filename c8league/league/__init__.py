"""Leagues: league files (``leagues/*.toml``, :mod:`~c8league.league.files`), importing
them into storage (:mod:`~c8league.league.leagues`), and the players entered in them
(:mod:`~c8league.league.players`).

The package re-exports nothing: import each name from its module
(``from c8league.league.files import load_league_file``), so that listing the players
of a database does not build the league file's models.
"""
