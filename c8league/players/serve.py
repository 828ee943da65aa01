"""Any Python player as an external bot: it plays over the bot protocol
(``docs/protocol.md``) on standard input and output, so that c8league runs it as it runs
a bot in any language, in a process of its own and in its sandbox::

    python -m c8league.players.serve PLAYER [KEY=VALUE ...]

``PLAYER`` is a registered player's name (``greedy``, ``montecarlo``) or the
``module:attribute`` of a player's factory importable from the working directory
(``mybot:EightsLast``), and the options are checked and converted as when a bot is
entered (``registry.check_options``). A bot's own file can end with the same in one
line, and then runs as ``python mybot.py``::

    if __name__ == "__main__":
        serve(EightsLast)

The player is told what the in-process match loop (``runner.loop``) tells it, in the
same order: each match gets a fresh player from the factory, then ``start_match`` (with
the seat, the table and the player's seed of the ``hello`` or ``match_start``),
``start_hand``, ``choose`` for every decision, ``end_hand``, ``end_match`` and
``close``. Each observation is an
:class:`~c8league.engine.observation.ObservationSnapshot` rebuilt from the seat's view,
the legal moves are read with ``Move.parse``, and the move chosen is answered by its
index. The bot announces ``match_start`` (one process plays match after match) and
takes its view as ``changes`` (each message holds what changed); not ``skip_forced``
(in its own process a player is asked even for a forced move, and may count on it) nor
``concurrent`` (c8league plays the matches of a Python player not its own one at a
time, since its players may share what their module keeps).

A player that raises ends the process with its traceback on standard error and exit
status 1: c8league charges a crash whose detail is the traceback's last line. What the
player writes to standard output goes to standard error, whose log c8league keeps:
standard output carries the protocol's lines only. A bad ``PLAYER`` or option is one
line on standard error and exit status 2.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import IO, Any, NoReturn

from c8league.engine import HandResult, MatchResult, Move, Rules, jsonform
from c8league.engine.observation import ObservationSnapshot
from c8league.errors import C8LeagueError, PluginError, WireError
from c8league.players import registry
from c8league.players.base import BasePlayer, Player, adapt
from c8league.players.registry import Factory

PROTOCOL_VERSION = 1
CAPABILITIES = ("match_start", "changes")
"""What a served player announces in its hello (see the module docstring)."""

EXIT_FAULT = 1
"""The exit status of a player that raised (or of a message that cannot be read)."""
EXIT_USAGE = 2
"""The exit status of a bad ``PLAYER`` or option."""

USAGE = "usage: python -m c8league.players.serve PLAYER [KEY=VALUE ...]"


@dataclass(frozen=True)
class ServedPlayer:
    """The player a bot process serves: its factory, its options checked, and what its
    hello says of it."""

    name: str
    """The name its hello gives (the player's in c8league, unless an option names it)."""
    version: str
    factory: Factory
    options: Mapping[str, Any]
    """The factory's keyword options, checked and converted."""

    def build(self) -> BasePlayer:
        """A fresh player, for one match."""
        player = self.factory(**self.options)
        if not isinstance(player, Player):
            raise PluginError(
                f"player {self.name!r}: its factory returned an object with no choose()"
            )
        return adapt(player)


def served_player(player: Factory | str, options: Mapping[str, Any]) -> ServedPlayer:
    """The player to serve: ``player`` is a factory (a class, or a function returning a
    player) or its name, registered or ``module:attribute`` (imported from the working
    directory); ``options`` its keyword options, as values or as text. Raises
    :class:`PluginError` naming what is wrong."""
    registered_here = True  # (its version is then unknown)
    if isinstance(player, str):
        spec = player.strip()
        module, colon, attribute = spec.partition(":")
        if colon:
            registry.register(spec, _imported(spec, module, attribute))
            hello_name = attribute.rpartition(".")[2]
        else:
            hello_name = spec
            registered_here = False
        name = spec
    else:
        if not isinstance(player, type) and hasattr(player, "choose"):
            raise PluginError(
                "serve() takes the player's factory (its class), not a player: each match "
                "is played by a fresh player"
            )
        if not callable(player):
            raise PluginError(f"serve() takes a player's factory, not {player!r}")
        name = hello_name = getattr(player, "__name__", type(player).__name__)
        registry.register(name, player)
    info = registry.get(name)
    checked = registry.check_options(name, options)
    assert info.factory is not None
    return ServedPlayer(hello_name, "" if registered_here else info.version, info.factory, checked)


def _imported(spec: str, module: str, attribute: str) -> Factory:
    """The factory ``module:attribute`` names, its module imported from the working
    directory (or wherever Python finds it)."""
    if not module.strip() or not attribute.strip():
        raise PluginError(f"{spec!r} is not a player: expected a player's name or module:attribute")
    folder = os.getcwd()
    if folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        value: Any = importlib.import_module(module)
    except Exception as exc:
        raise PluginError(
            f"{spec!r}: cannot import {module!r}: {type(exc).__name__}: {exc}"
        ) from None
    for part in attribute.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise PluginError(f"{spec!r}: module {module!r} has no {attribute!r}") from None
    if not callable(value):
        raise PluginError(f"{spec!r} is not a player's factory: it cannot be called")
    factory: Factory = value
    return factory


# -- the protocol ---------------------------------------------------------------------


class PlayerFailed(Exception):
    """The player raised (its traceback is on standard error): the bot exits at once, the
    player left as it is (c8league charges the crash when the process has ended)."""


@functools.lru_cache(maxsize=4096)
def _move(text: str) -> Move:
    """A legal move's text, read (the same few hundred texts come back match after match)."""
    return Move.parse(text)


class _Match:
    """One match of the bot: what its ``hello`` or ``match_start`` said, its player (made
    at its first hand), and the seat's view, kept from message to message."""

    def __init__(self, message: Mapping[str, Any]) -> None:
        what = f"the {message.get('type')}"
        self.seat = jsonform.whole(message, "seat", what)
        self.players = jsonform.whole(message, "players", what)
        self.seed = jsonform.whole(message, "seed", what)
        options = message.get("rules")
        if not isinstance(options, dict):
            raise WireError(f"{what}'s 'rules' must be an object", "rules")
        self.rules = Rules.from_options("pagat", options)
        self.player: BasePlayer | None = None
        self.view: dict[str, Any] = {}
        """The fields of the seat's view but its history, as JSON values."""
        self.history: list[tuple[int, Move]] = []
        """The hand's moves so far, read."""

    @property
    def seated(self) -> BasePlayer:
        """The match's player (made at its first message)."""
        assert self.player is not None
        return self.player

    def see(self, message: Mapping[str, Any]) -> ObservationSnapshot:
        """The observation a message shows: whole (``observation``), or what changed since
        the last one (``changes`` and ``new_history``)."""
        whole = message.get("observation")
        if isinstance(whole, dict):
            self.history = jsonform.moves(whole, "history", "an observation")
            self.view = whole
        else:
            changes = message.get("changes")
            if not isinstance(changes, dict):
                raise WireError(f"a {message.get('type')} without its view", "changes")
            self.view.update(changes)
            self.history += jsonform.moves(message, "new_history", "a message")
        return ObservationSnapshot.from_dict(self.view, self.rules, self.history)


class Server:
    """Plays the protocol's messages read from ``lines`` with the player ``served``,
    writing its answers with ``write`` (see the module docstring); ``errors`` takes the
    tracebacks."""

    def __init__(
        self,
        served: ServedPlayer,
        lines: Iterable[bytes],
        write: Callable[[bytes], object],
        errors: IO[str],
    ) -> None:
        self.served = served
        self.lines = lines
        self.write = write
        self.errors = errors
        self.match: _Match | None = None

    def run(self) -> int:
        """Answer every message until ``quit`` or the end of input; the exit status: 0,
        or :data:`EXIT_FAULT` once the player raised or a message cannot be read."""
        try:
            for line in self.lines:
                if not line.strip():
                    continue
                if not self.answer(json.loads(line)):
                    break
        except PlayerFailed:
            return EXIT_FAULT
        except (ValueError, KeyError, TypeError, C8LeagueError) as exc:
            self.errors.write(f"c8league sent a message this bot cannot read: {exc}\n")
            return EXIT_FAULT
        except BrokenPipeError:  # c8league stopped reading: it is ending the bot
            pass
        self.leave()
        return 0

    def answer(self, message: Any) -> bool:
        """Answer one message (if it asks for an answer); False after ``quit``."""
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "move":
            match = self._playing(message)
            observation = match.see(message)
            legal = [_move(text) for text in message["legal"]]
            assert match.player is not None
            chosen = self._call(match.player.choose, observation, legal)
            self.write(self._move_answer(chosen, legal))
        elif kind == "hand_start":
            match = self._playing(message)
            self._call(match.seated.start_hand, match.see(message))
        elif kind == "hand_end":
            match = self._playing(message)
            observation = match.see(message)
            self._call(match.seated.end_hand, observation, HandResult.from_dict(message["result"]))
        elif kind == "match_end":
            match = self._playing(message)
            result = MatchResult.from_dict(message["result"])
            self._finish(match.seated.end_match, result)
            self.leave()
        elif kind == "hello":
            self.leave()
            self.match = _Match(message)
            hello = {
                "type": "hello",
                "protocol": PROTOCOL_VERSION,
                "name": self.served.name,
                "version": self.served.version,
                "capabilities": list(CAPABILITIES),
            }
            self.write(json.dumps(hello).encode() + b"\n")
        elif kind == "match_start":
            self.leave()
            self.match = _Match(message)
            self.write(b'{"type":"match_start"}\n')
        elif kind == "error":
            self.leave()  # it is being stopped: its player is closed, as after a fault
        elif kind == "quit":
            return False
        return True  # (a message of a later version of the protocol: no answer)

    def leave(self) -> None:
        """Close the player of the match in hand, if it has one: the match is over."""
        match, self.match = self.match, None
        if match is not None and match.player is not None:
            self._finish(match.player.close)

    def _playing(self, message: Mapping[str, Any]) -> _Match:
        """The match in hand, its player made and told of it at its first message."""
        match = self.match
        if match is None:
            raise WireError(f"a {message.get('type')} before the hello", "type")
        if match.player is None:
            match.player = self._call(self.served.build)
            self._call(match.player.start_match, match.seat, match.players, match.seed)
        return match

    def _move_answer(self, chosen: object, legal: list[Move]) -> bytes:
        """The answer naming ``chosen``: by its index; a move that is not legal by its text
        (c8league charges it as an illegal move, as it would in its own process)."""
        if isinstance(chosen, Move):
            if chosen in legal:
                return b'{"type":"move","index":%d}\n' % legal.index(chosen)
            return json.dumps({"type": "move", "move": str(chosen)}).encode() + b"\n"
        self.errors.write(f"choose() returned {chosen!r}, not one of the legal moves\n")
        raise PlayerFailed

    def _finish(self, hook: Callable[..., None], *args: object) -> None:
        """A closing hook (``end_match``, ``close``): what it raises is written to standard
        error and ignored, as the match loop ignores it."""
        try:
            hook(*args)
        except BaseException:
            traceback.print_exc(file=self.errors)

    def _call(self, method: Callable[..., Any], *args: object) -> Any:
        """Call the player; whatever it raises ends the bot, its traceback written."""
        try:
            return method(*args)
        except BaseException:
            traceback.print_exc(file=self.errors)
            self.errors.flush()
            raise PlayerFailed from None


# -- the process --------------------------------------------------------------------


def serve(player: Factory | str, /, **options: Any) -> NoReturn:
    """Play the bot protocol on standard input and output with ``player``, a player's
    factory (``serve(EightsLast)``, the last line of a bot's own file) or its name
    (registered, or ``module:attribute``), with ``options`` for the factory; then exit
    (see the module docstring for the exit status)."""
    errors = sys.stderr
    lines, write = _take_streams()
    try:
        served = served_player(player, options)
    except C8LeagueError as exc:
        errors.write(f"{exc}\n")
        raise SystemExit(EXIT_USAGE) from None
    try:
        code = Server(served, lines, write, errors).run()
    except KeyboardInterrupt:
        code = 130
    errors.flush()
    raise SystemExit(code)


def _take_streams() -> tuple[IO[bytes], Callable[[bytes], object]]:
    """Keep standard input and output for the protocol's lines: what the process (the
    player, or a program it starts) writes to its standard output goes to standard error
    from now on, and it reads its standard input empty."""
    sys.stdout.flush()
    protocol_in, protocol_out = os.dup(0), os.dup(1)
    os.dup2(2, 1)
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (for the whole process)
    output = os.fdopen(protocol_out, "wb")

    def write(data: bytes) -> None:
        output.write(data)
        output.flush()

    return os.fdopen(protocol_in, "rb"), write


def main(argv: list[str] | None = None) -> NoReturn:
    """``python -m c8league.players.serve PLAYER [KEY=VALUE ...]``; ``PLAYER`` may also
    carry its options as a player spec does (``montecarlo:playouts=200,seed=3``)."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        sys.stderr.write(USAGE + "\n")
        raise SystemExit(0 if args else EXIT_USAGE)
    spec, items = args[0], args[1:]
    name, colon, rest = spec.partition(":")
    if colon and "=" in rest:  # name:key=value,key=value
        spec, items = name, [*rest.split(","), *items]
    try:
        options = registry.parse_options(items)
    except PluginError as exc:
        sys.stderr.write(f"{exc}\n")
        raise SystemExit(EXIT_USAGE) from None
    serve(spec, **options)


if __name__ == "__main__":
    main()
