"""``node-example``: a Crazy Eights bot written in Node.js, run through c8league's
``external`` player.

The bot itself is ``bot.js`` in this package; this module only tells c8league how to
start it. Copy the package to ship a bot in any language: change the command.
"""

from __future__ import annotations

from importlib import resources

from c8league.players.external import ExternalPlayer

__version__ = "0.1.0"

BOT = str(resources.files(__name__) / "bot.js")
"""The path of the bot's script."""


def node_example(
    node: str = "node",
    move_time: float = 5.0,
    startup_time: float = 10.0,
    memory_mb: int = 1024,
    log_dir: str | None = None,
) -> ExternalPlayer:
    """A Node.js bot: it follows suit, sheds the most cards, keeps its eights for last
    and nominates the suit it holds most of.

    Options: ``node`` (the Node.js executable), ``move_time``, ``startup_time``,
    ``memory_mb`` and ``log_dir`` (as for the ``external`` player).
    """
    return ExternalPlayer(
        [node, BOT],
        name="node-example",
        move_time=move_time,
        startup_time=startup_time,
        memory_mb=memory_mb,
        log_dir=log_dir,
    )
