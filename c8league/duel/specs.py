"""Who plays in a duel: a player spec, one line of text.

A spec names a bot in one of three ways (the syntax ``c8league duel --help`` shows):

* ``PLUGIN`` or ``PLUGIN:key=value,key=value``: an installed player plugin with
  options, as ``players add --bot PLUGIN --option key=value`` takes them
  (``montecarlo:playouts=200``, ``random:playable_first=true``).
* ``cmd:COMMAND``: a bot in any language, run as a subprocess speaking the line
  protocol (the ``external`` plugin; ``cmd:node mybot.js``). The rest of the line is
  the command, split as a shell would; it may hold commas and colons.
  ``cmd[move_time=0.05,memory_mb=512]:COMMAND`` gives the external player's other
  options (``external:command=…,move_time=2`` is the same).
* An option's value may be quoted (``"…"`` or ``'…'``) to hold commas:
  ``external:command="./bot --weights a,b",move_time=2``.
* ``@NAME`` or ``@LEAGUE/NAME``: a bot registered in the database (an entrant of a
  league), with its plugin and stored options.

:func:`parse_spec` reads the text (no plugin is loaded); :func:`resolve` checks the
plugin and its options, and looks an entrant up, giving a :class:`Bot`: the plugin and
its options as canonical JSON, which is what a match is played with.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from c8league.errors import NotFoundError, PluginError, UsageError
from c8league.league.files import options_json
from c8league.names import printable, same_name
from c8league.players import registry
from c8league.storage import Session
from c8league.storage import leagues as stored_leagues

SYNTAX = (
    "PLUGIN[:key=value,…] (a plugin with options, e.g. montecarlo:playouts=200), "
    "cmd:COMMAND or cmd[key=value,…]:COMMAND (an external bot, e.g. 'cmd:node bot.js') "
    "or @NAME / @LEAGUE/NAME (a registered entrant)"
)


@dataclass(frozen=True, slots=True)
class ParsedSpec:
    """A spec as written: a plugin with options (text values), or an entrant's name."""

    text: str
    plugin: str | None
    options: dict[str, Any]
    entrant: str | None = None
    league: str | None = None


@dataclass(frozen=True, slots=True)
class Bot:
    """A seat's player as matches are played with it: a plugin and its options (JSON),
    and the label the summary shows."""

    label: str
    plugin: str
    options: str = "{}"

    def to_dict(self) -> dict[str, str]:
        return {"label": self.label, "plugin": self.plugin, "options": self.options}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Bot:
        return cls(str(data["label"]), str(data["plugin"]), str(data.get("options", "{}")))


def parse_spec(text: str, who: str) -> ParsedSpec:
    """Read one spec (see the module); ``who`` names it in errors (``A``, ``--field``)."""
    spec = text.strip()
    if not spec:
        raise UsageError(f"{who}: an empty player spec; expected {SYNTAX}")
    if spec.startswith("@"):
        rest = spec[1:].strip()
        league, slash, name = rest.rpartition("/")
        if not name.strip() or (slash and not league.strip()):
            raise UsageError(f"{who}: {printable(spec)!r} names no entrant; expected @NAME")
        return ParsedSpec(
            text=spec, plugin=None, options={}, entrant=name.strip(), league=league.strip() or None
        )
    if spec.startswith("cmd["):
        inner, close, command = spec[4:].partition("]:")
        if not close:
            raise UsageError(
                f"{who}: {printable(spec)!r}: options of a command go in cmd[key=value,…]:COMMAND"
            )
        given = _options(inner, spec, who) if inner.strip() else {}
        if "command" in given:
            raise UsageError(f"{who}: the command of {printable(spec)!r} goes after ']:'")
        return _command(spec, command, given, who)
    head, sep, rest = spec.partition(":")
    plugin = head.strip()
    if not plugin or any(c.isspace() for c in plugin) or "=" in plugin:
        raise UsageError(f"{who}: {printable(spec)!r} is not a player spec; expected {SYNTAX}")
    if plugin == "cmd":
        return _command(spec, rest, {}, who)
    options: dict[str, Any] = {}
    if sep:
        if not rest.strip():
            raise UsageError(f"{who}: {printable(spec)!r} has no options after ':'")
        options = _options(rest, spec, who)
    return ParsedSpec(spec, plugin, options)


def _command(spec: str, command: str, options: dict[str, Any], who: str) -> ParsedSpec:
    if not command.strip():
        raise UsageError(f"{who}: cmd: needs a command, as in 'cmd:node bot.js'")
    return ParsedSpec(spec, "external", {"command": command.strip(), **options})


def _options(text: str, spec: str, who: str) -> dict[str, Any]:
    """``key=value,key=value``; a value quoted with ``"`` or ``'`` may hold commas."""
    options: dict[str, Any] = {}
    for item in _split(text, spec, who):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise UsageError(
                f"{who}: {printable(item.strip())!r} in {printable(spec)!r} is not "
                "key=value (options are separated by commas)"
            )
        if key in options:
            raise UsageError(f"{who}: option {key!r} is given twice in {printable(spec)!r}")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        options[key] = value
    return options


def _split(text: str, spec: str, who: str) -> list[str]:
    """Split at the commas outside quotes."""
    items: list[str] = []
    current: list[str] = []
    quote = ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == ",":
            items.append("".join(current))
            current = []
            continue
        current.append(char)
    if quote:
        raise UsageError(f"{who}: a quote is not closed in {printable(spec)!r}")
    items.append("".join(current))
    return items


def spec_text(plugin: str, options: str) -> str:
    """A spec that names ``plugin`` with ``options`` (JSON), as :func:`parse_spec` reads
    it back: ``greedy``, ``montecarlo:playouts=200``, ``'cmd:./bot --fast'``,
    ``cmd[move_time=0.05]:./bot``."""
    values: dict[str, Any] = json.loads(options or "{}")
    if plugin == "external" and isinstance(values.get("command"), str):
        command = values.pop("command")
        return f"cmd[{_option_text(values)}]:{command}" if values else f"cmd:{command}"
    return f"{plugin}:{_option_text(values)}" if values else plugin


def _option_text(values: dict[str, Any]) -> str:
    parts = []
    for key, value in values.items():
        text = json.dumps(value) if not isinstance(value, str) else value
        if any(c in text for c in ",\"'") or text != text.strip():
            quote = "'" if '"' in text else '"'
            text = f"{quote}{text}{quote}"
        parts.append(f"{key}={text}")
    return ",".join(parts)


def resolve(session: Session | None, parsed: ParsedSpec, who: str) -> Bot:
    """The bot ``parsed`` names, its plugin found and its options checked (and
    converted, as on ``players add``). ``session`` is needed for an ``@entrant``."""
    if parsed.entrant is not None:
        if session is None:
            raise UsageError(f"{who}: {parsed.text!r} needs the database")
        return _entrant(session, parsed, who)
    assert parsed.plugin is not None
    try:
        options = registry.check_options(parsed.plugin, parsed.options)
    except PluginError as exc:
        raise PluginError(f"{who} ({printable(parsed.text)}): {exc}") from None
    return Bot(parsed.text, parsed.plugin, options_json(options))


def _entrant(session: Session, parsed: ParsedSpec, who: str) -> Bot:
    assert parsed.entrant is not None
    entrant = stored_leagues.find_entrant(session, parsed.entrant)
    if entrant is None:
        raise NotFoundError(
            f"{who}: no player named {same_name(parsed.entrant)!r} (c8league players list)"
        )
    if parsed.league is not None:
        league = stored_leagues.get_league(session, parsed.league)
        assert league.id is not None and entrant.id is not None
        if stored_leagues.membership(session, league.id, entrant.id) is None:
            raise NotFoundError(f"{who}: {entrant.name!r} is not in league {league.name!r}")
    if entrant.plugin is None:
        raise UsageError(f"{who}: {entrant.name!r} is a person; a duel is played by bots")
    try:
        options = registry.validate_options(
            registry.get(entrant.plugin), json.loads(entrant.options or "{}")
        )
    except PluginError as exc:
        raise PluginError(f"{who} ({entrant.name}): {exc}") from None
    return Bot(entrant.name, entrant.plugin, options_json(options))
