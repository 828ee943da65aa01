"""``external``: a bot in any language, run as a subprocess speaking JSON lines.

c8league writes one JSON object per line to the bot's standard input and reads one
JSON object per line from its standard output; ``docs/protocol.md`` describes every
message with a transcript. In short: a ``hello`` exchange at the start of a match,
a ``move`` request answered by a ``move`` for each decision, notices that need no
answer (``hand_start``, ``hand_end``, ``match_end``), then ``quit``; or, for a bot
that announces ``match_start``, the next match's ``match_start`` (:mod:`.keep`).

A bot that answers too slowly, dies, runs out of memory or breaks the protocol
raises :class:`~c8league.errors.PlayerFault`, so the match loop records a forfeit
with the reason. The bot's standard error goes to a log file (``stderr_path``),
named in every fault's detail, capped at :data:`LOG_HEAD` + :data:`LOG_TAIL` bytes a
match. The memory limit is POSIX's (``resource``); on Windows a bot runs without one,
in a job object that kills it and what it started, its pipes relayed through sockets.

The modules, one job each:

- :mod:`.player`: :class:`ExternalPlayer` and its options, :class:`ExternalOptions`;
- :mod:`.keep`: bot processes kept between matches;
- :mod:`.process`: starting the bot's process with its limits, the reaper that kills
  its process group whatever happens to c8league, waiting, killing, and why it ended;
- :mod:`.framing`: lines over the pipes within time limits, and the capped log of
  the bot's standard error;
- :mod:`.protocol`: the messages, written and read;
- :mod:`.windows`: what differs on Windows (the job object, the relay through sockets).
"""

from c8league.players.external.framing import LOG_HEAD, LOG_TAIL, MAX_LINE
from c8league.players.external.player import ExternalOptions, ExternalPlayer
from c8league.players.external.protocol import PROTOCOL_VERSION

__all__ = [
    "LOG_HEAD",
    "LOG_TAIL",
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "ExternalOptions",
    "ExternalPlayer",
]
