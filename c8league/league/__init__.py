"""Leagues: league files (``leagues/*.toml``, :mod:`~c8league.league.files`), importing
them into storage (:mod:`~c8league.league.leagues`), and the players entered in them
(:mod:`~c8league.league.players`).

This package's namespace holds the league file's models and loading, which import
nothing of storage; the services that read and write the database are imported by
module name.
"""

from c8league.league.files import (
    OPTIONS_DEPTH,
    EntrantSpec,
    EventSpec,
    LeagueFile,
    RulesSpec,
    load_league_file,
    options_json,
    parse_league,
)
from c8league.names import NAME_MAX, check_name, name_problem, printable, same_name

__all__ = [
    "NAME_MAX",
    "OPTIONS_DEPTH",
    "EntrantSpec",
    "EventSpec",
    "LeagueFile",
    "RulesSpec",
    "check_name",
    "load_league_file",
    "name_problem",
    "options_json",
    "parse_league",
    "printable",
    "same_name",
]
