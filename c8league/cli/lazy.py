"""The command registry: sub-commands imported when they are used.

A command typed at the prompt needs its own module only: ``c8league rules list`` has
no use for the modules of ``event run`` or ``bots check`` (and what they import). The
registry (``SUBCOMMANDS`` in ``c8league.cli.main``) names each sub-command of the root
by an :class:`Entry`: the ``"module:attribute"`` of a ``typer.Typer`` sub-app or of a
command function, imported the first time it runs or shows its own help, and the
summary that the root's ``--help`` and shell completion list without importing it. A
:class:`Noun` whose commands need different imports (``event standings`` reads the
database, ``event run`` starts the runner) names its group and each of its commands
apart, so that a command imports its own module only.

This is the one place where c8league imports lazily: every other module imports at
the top.

Click's documentation describes the pattern ("lazily loading subcommands"); here the
sub-command is converted by Typer exactly as ``app.add_typer(sub_app, name=...)`` or
``app.command(name)(function)`` on the root would convert it, so its help, options,
errors and exit statuses do not change.
"""

from __future__ import annotations

import copy
import functools
import importlib
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

import typer
from typer.core import TyperCommand, TyperGroup

Command = Any
"""A Click command as Typer builds it (Typer does not export the type)."""


Loader = Callable[[], Command]


@dataclass(frozen=True)
class Entry:
    """A sub-command of the root: ``target``, the ``"module:attribute"`` of a
    ``typer.Typer`` sub-app or of a command function; ``summary``, the first paragraph
    of its help, which the root's ``--help`` lists without importing it."""

    target: str
    summary: str


@dataclass(frozen=True)
class Noun:
    """A sub-app whose commands live in modules of their own: ``group`` is the
    ``"module:attribute"`` of its ``typer.Typer`` (help and options, no commands),
    ``summary`` as for an :class:`Entry`, and ``commands`` the ``"module:function"`` of
    each command, listed by ``--help`` in this order."""

    group: str
    summary: str
    commands: Mapping[str, str]


Target = Entry | Noun
"""What the registry names for each sub-command of the root."""


class LazyCommands(MutableMapping[str, Command]):
    """A group's sub-commands by name: those already built, and those built by their
    loader on first access. Their names (for suggestions on a typo, and the order of
    ``--help``) need nothing imported or built; while :meth:`listed`, a command not yet
    built is looked up as a stand-in that has its name and ``summaries`` only."""

    def __init__(
        self,
        built: Mapping[str, Command],
        lazy: Mapping[str, Loader],
        summaries: Mapping[str, str] | None = None,
    ) -> None:
        self._built: dict[str, Command] = dict(built)
        self._lazy = {name: load for name, load in lazy.items() if name not in built}
        self._summaries = dict(summaries or {})
        self._listing = False

    @contextmanager
    def listed(self) -> Iterator[None]:
        """Within the block, the commands not yet built are only listed (``--help``, shell
        completion): stand-ins with their names and summaries, nothing imported."""
        self._listing = True
        try:
            yield
        finally:
            self._listing = False

    def __getitem__(self, name: str) -> Command:
        if name not in self._built:
            if self._listing and name in self._summaries:
                return TyperCommand(name, help=self._summaries[name])
            self._built[name] = self._lazy[name]()  # KeyError for an unknown name
        return self._built[name]

    def __setitem__(self, name: str, command: Command) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._lazy.pop(name, None)
        self._built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        # The lazy ones in the order they are named, then any added as built commands.
        yield from self._lazy
        yield from (name for name in self._built if name not in self._lazy)

    def __len__(self) -> int:
        return len(self._lazy) + sum(1 for name in self._built if name not in self._lazy)

    def __contains__(self, name: object) -> bool:
        return name in self._lazy or name in self._built


class LazyGroup(TyperGroup):
    """A Typer group whose sub-commands in :attr:`subcommands` are imported when used
    (make one with :func:`lazy_group`). Sub-apps added with ``app.add_typer`` or
    ``app.command`` work as before, built when the group is."""

    subcommands: ClassVar[Mapping[str, Target]] = {}

    def __init__(self, *args: Any, commands: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, commands=commands, **kwargs)
        markup = self.rich_markup_mode
        self.commands = LazyCommands(
            self.commands,
            {
                name: functools.partial(_load, name, target, markup)
                for name, target in self.subcommands.items()
            },
            {name: target.summary for name, target in self.subcommands.items()},
        )

    def format_help(self, ctx: Any, formatter: Any) -> None:
        with self._listed():
            super().format_help(ctx, formatter)

    def shell_complete(self, ctx: Any, incomplete: str) -> Any:
        with self._listed():
            return super().shell_complete(ctx, incomplete)

    def _listed(self) -> AbstractContextManager[None]:
        assert isinstance(self.commands, LazyCommands)
        return self.commands.listed()


def lazy_group(subcommands: Mapping[str, Target]) -> type[LazyGroup]:
    """The group class (``typer.Typer(cls=...)``) of an app whose sub-commands are
    ``{name: Entry or Noun}``, listed by ``--help`` in this order."""
    return type("LazyRoot", (LazyGroup,), {"subcommands": dict(subcommands)})


def imported(target: str) -> Any:
    """The value named by ``"module:attribute"``, its module imported."""
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def _noun_command(
    build: Callable[[typer.models.CommandInfo], Command], name: str, target: str
) -> Command:
    """The command ``name`` of a :class:`Noun`: its function imported, built by ``build``."""
    return build(typer.models.CommandInfo(name=name, callback=imported(target)))


def _load(name: str, target: Target, markup: Any) -> Command:
    """Import ``target`` and build it as Typer builds a sub-app or command of a root.

    A sub-app's own commands are built when they are looked up in turn: the root's
    ``--help`` shows each sub-app's help without building its commands (nor, for a
    :class:`Noun`, importing their modules)."""
    value = imported(target.group if isinstance(target, Noun) else target.target)
    holder = typer.Typer(rich_markup_mode=markup)
    if not isinstance(value, typer.Typer):
        holder.command(name)(value)
        return typer.main.get_group(holder).commands[name]
    shell = copy.copy(value)  # the sub-app as a group, without its commands
    shell.registered_commands = []
    holder.add_typer(shell, name=name)
    group = typer.main.get_group(holder).commands[name]
    assert isinstance(group, TyperGroup)
    build = functools.partial(
        typer.main.get_command_from_info,
        pretty_exceptions_short=holder.pretty_exceptions_short,
        rich_markup_mode=markup,
    )
    lazy: dict[str, Loader] = {
        info.name or typer.main.get_command_name(info.callback.__name__): functools.partial(
            build, info
        )
        for info in value.registered_commands
        if info.callback is not None
    }
    if isinstance(target, Noun):
        for command, where in target.commands.items():
            lazy[command] = functools.partial(_noun_command, build, command, where)
    group.commands = LazyCommands(group.commands, lazy)  # its own sub-apps, if any, are built
    return group
