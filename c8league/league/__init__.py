"""Leagues: league files (``leagues/*.toml``, :mod:`~c8league.league.files`), importing
them into storage (:mod:`~c8league.league.leagues`), and the players entered in them
(:mod:`~c8league.league.players`).

This package's namespace holds the league file's models and loading, which import
nothing of storage; the services that read and write the database are imported by
module name.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

# The names above by module, imported on first use: listing the players of a database
# does not build the league file's models.
_HOMES = {
    "files": (
        "OPTIONS_DEPTH",
        "EntrantSpec",
        "EventSpec",
        "LeagueFile",
        "RulesSpec",
        "load_league_file",
        "options_json",
        "parse_league",
    ),
}

if not TYPE_CHECKING:
    from c8league._lazy import lazy_exports
    from c8league.names import NAME_MAX, check_name, name_problem, printable, same_name

    __getattr__, __dir__ = lazy_exports(__name__, _HOMES, globals())

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
