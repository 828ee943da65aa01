"""``c8league serve``: the league on the players' phones. Read-only pages (leagues,
events, the current round's tables, standings, ratings, a match's replay, a duel's
figures and its LLR graph, a ladder's table) made for a narrow screen first, plain HTML
that a small script refreshes while an evening or a run goes on.

Starlette and uvicorn come with the ``serve`` extra; nothing else in c8league imports
this package but the command line.
"""

from c8league.serve.app import ServeConfig, create_app

__all__ = ["ServeConfig", "create_app"]
