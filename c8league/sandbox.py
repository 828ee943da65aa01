"""Sandboxes for bots that c8league did not write: bubblewrap (``bwrap``), the tool
Flatpak runs its applications in, on Linux.

An external bot sandboxed here runs

* in namespaces of its own: PID (no other process is visible, and all of its processes
  end with the sandbox), mount, IPC, UTS and network (no network but its own loopback,
  unless ``network``);
* as a user of its own: run by root, each bot process as a user id no account has
  (:data:`UID_BASE` and up, never 0, with no capabilities and ``no_new_privs``); run by
  anyone else, in a user namespace of its own mapped to that user;
* on a filesystem of its own: the system's programs and libraries (``/usr``, ``/etc``
  and the like), the bot's folder, what its command needs (an interpreter or virtual
  environment outside ``/usr``; for a Python interpreter, c8league's own package too)
  and ``ro_paths``, all read-only; a private writable
  scratch folder, ``/tmp`` (also its ``HOME``), and ``/dev/shm``, each limited to
  ``scratch_mb``; no view of the database, the logs, other bots' folders or the user's
  home. c8league's database and logs, if they lie in the bot's folder, are hidden
  (:func:`hide`);
* with a minimal environment: the bot's ``env`` option, ``PATH``, ``HOME`` and ``LANG``;
* under limits it cannot raise: ``max_processes`` processes and threads (its own user's
  ``RLIMIT_NPROC``, counted in its own user namespace or for its own user id alone),
  ``memory_mb`` of data memory per process (``RLIMIT_DATA``, as unsandboxed bots), and
  no core dumps. It sees no cgroup file system, so it cannot leave the cgroup c8league
  keeps it in (``containment``).

:func:`support` tells, once per process, whether this machine can do it (``bwrap``
installed and new enough, the kernel letting it make its namespaces) and how;
:func:`wrap` turns a bot's command into the command that runs it sandboxed.
A bot's ``sandbox`` option (or the run's ``--sandbox``, :func:`run_mode`) chooses:
``auto`` sandboxes where the machine can, ``required`` refuses to start a bot it cannot
sandbox, ``off`` runs it as c8league's own user, as unsandboxed bots always ran.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Literal

from c8league.errors import PluginError

Mode = Literal["auto", "required", "off"]
MODES: tuple[Mode, ...] = ("auto", "required", "off")

HIDE_VAR = "C8LEAGUE_SANDBOX_HIDE"
"""In the environment: paths (separated by ``os.pathsep``) that no sandbox may show, with
the files beside them whose names begin with theirs; set by :func:`hide` and inherited
by the processes that start bots."""

UID_BASE = 0x70000000
"""Run by root, each sandboxed bot process runs as a user id from here up (one per bot
process, no account's)."""

SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""What every sandbox shows read-only: the system's programs, libraries and settings."""

PATH = "/usr/local/bin:/usr/bin:/bin"
"""The ``PATH`` of a sandboxed bot (with its program's folder first, if elsewhere)."""

MIN_VERSION = (0, 5, 0)
"""The oldest bubblewrap with what a sandbox needs (``--size``, ``--perms``)."""

INSTALL_HINT = (
    "install bubblewrap from your distribution's packages (apt install bubblewrap, "
    "dnf install bubblewrap, pacman -S bubblewrap)"
)

_run_mode: ContextVar[Mode | None] = ContextVar("c8league_sandbox_run_mode", default=None)


@contextlib.contextmanager
def run_mode(mode: Mode | None) -> Iterator[None]:
    """Within the block, bots built take ``mode`` (the run's ``--sandbox``) in place of
    their own ``sandbox`` option; None: their own."""
    token = _run_mode.set(mode)
    try:
        yield
    finally:
        _run_mode.reset(token)


def effective(own: Mode) -> Mode:
    """A bot's mode: the run's (see :func:`run_mode`), else its own."""
    return _run_mode.get() or own


def check_mode(value: str, param: str = "sandbox") -> Mode:
    """``value`` as a mode; a :class:`PluginError` naming ``param`` otherwise."""
    for mode in MODES:
        if value == mode:
            return mode
    raise PluginError(f"`{param}` must be auto, required or off, not {value!r}", params=[param])


def hide(*paths: str | os.PathLike[str]) -> None:
    """Never show ``paths`` (files or folders), nor the files beside them whose names
    begin with theirs, in a sandbox started by this process or the processes it starts:
    c8league's database, its journal and its copies, say."""
    known = hidden()
    for path in paths:
        full = os.path.abspath(os.fspath(path))
        if full not in known:
            known.append(full)
    os.environ[HIDE_VAR] = os.pathsep.join(known)


def hidden() -> list[str]:
    """The paths no sandbox shows (see :func:`hide`)."""
    return [p for p in os.environ.get(HIDE_VAR, "").split(os.pathsep) if p]


# -- what this machine can do ---------------------------------------------------------------


@dataclass(frozen=True)
class Support:
    """Whether this machine can sandbox bots, and how (see :func:`support`)."""

    tool: str = ""
    """The path of ``bwrap`` ("" if not found)."""
    version: str = ""
    problem: str = ""
    """Why bots cannot be sandboxed here ("" when they can)."""
    hint: str = ""
    """How to make it possible."""
    own_user: bool = False
    """Whether each bot runs as a user id of its own (c8league runs as root); else in a
    user namespace of its own."""
    setpriv: str = ""
    prlimit: str = ""
    disable_userns: bool = False
    """Whether bubblewrap can forbid the bot user namespaces of its own (0.8 and newer)."""

    @property
    def available(self) -> bool:
        return not self.problem

    def text(self) -> str:
        """One line: ``bubblewrap 0.8.0 (...)``, or why not."""
        if self.problem:
            return f"none: {self.problem} ({self.hint})" if self.hint else f"none: {self.problem}"
        who = "a user id of its own" if self.own_user else "a user namespace of its own"
        limit = "processes limited" if self.own_user or self.prlimit else "processes not limited"
        return (
            f"bubblewrap {self.version} (namespaces: pid, mount, ipc, uts, network; {who}; "
            f"read-only files, scratch /tmp; {limit})"
        )


@functools.cache
def support() -> Support:
    """What this machine offers (probed once per process: a sandbox is made and a
    program run in it)."""
    if not sys.platform.startswith("linux"):
        return Support(
            problem=f"bots are sandboxed on Linux only (this is {sys.platform})",
            hint="run bots you did not write in a Linux virtual machine or container",
        )
    tool = shutil.which("bwrap") or ""
    if not tool:
        return Support(problem="bubblewrap (bwrap) is not installed", hint=INSTALL_HINT)
    try:
        said = subprocess.run(
            [tool, "--version"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return Support(tool=tool, problem=f"{tool} does not run: {exc}", hint=INSTALL_HINT)
    found = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", said)
    numbers = tuple(int(n or 0) for n in found.groups()) if found else (0, 0, 0)
    version = ".".join(map(str, numbers))
    if numbers < MIN_VERSION:
        return Support(
            tool=tool,
            version=version,
            problem=f"bubblewrap {version} is too old (0.5 or newer is needed)",
            hint="install a newer bubblewrap",
        )
    own_user = os.geteuid() == 0
    setpriv = shutil.which("setpriv") or ""
    if own_user and not setpriv:
        return Support(
            tool=tool,
            version=version,
            problem="setpriv (util-linux) is not installed: run as root, each bot needs it "
            "to run as a user of its own",
            hint="install util-linux",
        )
    found_support = Support(
        tool=tool,
        version=version,
        own_user=own_user,
        setpriv=setpriv,
        prlimit=shutil.which("prlimit") or "",
        disable_userns=numbers >= (0, 8, 0),
    )
    problem = _try(found_support)
    if problem:
        return Support(
            tool=tool,
            version=version,
            problem=f"bubblewrap cannot make a sandbox here: {problem}",
            hint=_kernel_hint(problem),
        )
    return found_support


def _try(found: Support) -> str:
    """Run ``true`` in a sandbox as :func:`wrap` makes them; what went wrong ("": none)."""
    true = shutil.which("true", path="/usr/bin:/bin") or "/bin/true"
    try:
        wrapped = wrap([true], settings=Settings(mode="required"), found=found, number=0)
    except (PluginError, OSError) as exc:
        return str(exc)
    read, write = os.pipe()
    try:
        os.write(write, wrapped.options)
        os.close(write)
        write = -1
        done = subprocess.run(
            wrapped.argv(read),
            pass_fds=(read,),
            capture_output=True,
            timeout=30,
            check=False,
            env=dict(os.environ),
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return str(exc)
    finally:
        os.close(read)
        if write >= 0:
            os.close(write)
    if done.returncode == 0:
        return ""
    lines = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if line]
    return lines[-1].strip() if lines else f"exit status {done.returncode}"


def _kernel_hint(problem: str) -> str:
    if "uid map" in problem or "user namespace" in problem.lower() or "Operation not" in problem:
        return (
            "the kernel does not let this user make user namespaces: allow them (on Ubuntu "
            "23.10 and newer, an AppArmor profile for bwrap, or sysctl "
            "kernel.apparmor_restrict_unprivileged_userns=0), or run c8league as root"
        )
    return "see bubblewrap's message"


# -- one bot's sandbox ------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """A bot's sandbox options (the ``external`` player's ``sandbox``, ``scratch_mb``,
    ``network``, ``ro_paths`` and ``max_processes``)."""

    mode: Mode = "auto"
    scratch_mb: int = 64
    network: bool = False
    ro_paths: tuple[str, ...] = ()
    max_processes: int = 256


@dataclass(frozen=True)
class Wrapped:
    """A bot's command made to run in its sandbox: bubblewrap's options (written to the
    descriptor :meth:`argv` names) and the command inside."""

    tool: str
    options: bytes
    """bubblewrap's options, NUL-separated (read from a pipe: ``--args``)."""
    inner: tuple[str, ...]
    folder: str
    """The bot's folder, read-only in the sandbox and its working directory."""
    shown: tuple[str, ...]
    """Every host path the sandbox shows (read-only)."""
    uid: int | None = None
    """The user id the bot runs as (run by root), else None."""
    max_processes: int = 0
    """``RLIMIT_NPROC`` set before bubblewrap runs (run by root: it counts the bot's own
    user id alone), 0: none (it is set inside, by ``prlimit``)."""
    notes: tuple[str, ...] = field(default=())

    def argv(self, options_fd: int) -> list[str]:
        """The command that starts the sandbox, its options read from ``options_fd``."""
        return [self.tool, "--args", str(options_fd), "--", *self.inner]


def wrap(
    command: Sequence[str],
    *,
    settings: Settings,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    found: Support | None = None,
    number: int = 0,
) -> Wrapped:
    """``command`` (the bot's program and arguments, as given), made to run in a sandbox
    (see the module docstring); ``cwd`` and ``env`` are the bot's options (``env``: the
    variables the bot is given, on top of ``PATH``, ``HOME`` and ``LANG``), ``number``
    tells apart the bot processes this process starts (run by root, each gets a user id
    of its own from it). Raises :class:`SandboxError` if the bot cannot run sandboxed
    (its program not found, its folder unreadable by the bot's user, or one that would
    show the user's home)."""
    found = found or support()
    if not found.available:
        raise SandboxError(f"the sandbox is required, but {found.problem}", hint=found.hint)
    where = locate(command, cwd=cwd, env=env)
    program, folder, runtimes = where.program, where.folder, where.runtimes
    _refuse_home(folder)
    uid = UID_BASE + (((os.getpid() & 0x3FFFFF) << 6) | (number & 0x3F)) if found.own_user else None
    ro = Options()
    ro.add("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try")
    if not settings.network:
        ro.add("--unshare-net")
    if found.own_user:
        ro.add("--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP")
    else:
        ro.add("--unshare-user")
        if found.disable_userns:
            ro.add("--disable-userns")
    ro.add("--die-with-parent", "--new-session")
    shown: list[str] = []
    for path in SYSTEM_PATHS:
        if os.path.islink(path):
            ro.add("--symlink", os.readlink(path), path)
        elif os.path.isdir(path):
            ro.bind(path)
            shown.append(path)
    ro.add("--proc", "/proc", "--dev", "/dev")
    size = str(settings.scratch_mb * 1024 * 1024)
    ro.add("--perms", "1777", "--size", size, "--tmpfs", "/tmp")
    ro.add("--perms", "1777", "--size", size, "--tmpfs", "/dev/shm")
    extra = [*runtimes, folder, *(_absolute(p, cwd) for p in settings.ro_paths)]
    if _python(program):  # c8league's own code, for a Python bot that serves a player with it
        extra += _package()
    for path in _outermost(p for p in extra if not _within(p, shown)):
        _check_readable(path, found.own_user, settings)
        ro.bind(path)
        shown.append(path)
    for path in _hidden_here(shown):
        if os.path.isdir(path):
            ro.add("--perms", "0000", "--size", "4096", "--tmpfs", path)
        else:
            ro.add("--ro-bind", os.devnull, path)
    ro.add("--remount-ro", "/dev", "--remount-ro", "/")
    ro.add("--chdir", folder, "--clearenv")
    program_dir = os.path.dirname(program)
    path_var = PATH if _within(program_dir, list(SYSTEM_PATHS)) else f"{program_dir}:{PATH}"
    variables = {
        "PATH": path_var,
        "HOME": "/tmp",
        "LANG": os.environ.get("LANG", "C.UTF-8") or "C.UTF-8",
        **(env or {}),
    }
    for key, value in variables.items():
        ro.add("--setenv", key, value)
    inner: list[str] = []
    limit = 0
    if uid is not None:
        inner += [
            found.setpriv,
            f"--reuid={uid}",
            f"--regid={uid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
        ]
        limit = settings.max_processes
    elif found.prlimit:
        n = settings.max_processes
        inner += [found.prlimit, f"--nproc={n}:{n}", "--"]
    base = os.path.abspath(cwd) if cwd else os.getcwd()
    inner += [program, *(_in_sandbox(arg, base) for arg in command[1:])]
    return Wrapped(
        tool=found.tool,
        options=ro.encoded(),
        inner=tuple(inner),
        folder=folder,
        shown=tuple(shown),
        uid=uid,
        max_processes=limit,
    )


class SandboxError(PluginError):
    """A bot that cannot run sandboxed as asked: the message says why, ``hint`` how to
    make it possible."""

    def __init__(self, message: str, *, hint: str = "", params: Sequence[str] = ()) -> None:
        super().__init__(f"{message} ({hint})" if hint else message, params=params)
        self.problem = message
        self.hint = hint


class Options:
    """bubblewrap's options, built in order."""

    def __init__(self) -> None:
        self.words: list[str] = []
        self._dirs: set[str] = {"/"}

    def add(self, *words: str) -> None:
        self.words.extend(words)

    def bind(self, path: str) -> None:
        """Show ``path`` read-only at the same place, its parents made traversable."""
        self._parents(path)
        self.add("--ro-bind", path, path)

    def _parents(self, path: str) -> None:
        parents = []
        parent = os.path.dirname(path)
        while parent not in self._dirs:
            parents.append(parent)
            parent = os.path.dirname(parent)
        for made in reversed(parents):
            self.add("--perms", "0755", "--dir", made)
            self._dirs.add(made)
        self._dirs.add(path)

    def encoded(self) -> bytes:
        return b"".join(os.fsencode(word) + b"\0" for word in self.words)


# -- where a bot lives --------------------------------------------------------------------


@dataclass(frozen=True)
class Located:
    """Where an external bot lives (see :func:`locate`)."""

    program: str
    """Its program, an absolute path (``/usr/bin/python3``, ``/srv/bots/alice/alice``)."""
    file: str
    """Its own file: the first argument of its command that names a file (its script),
    else its program."""
    folder: str
    """Its folder: the ``cwd`` option, else its file's folder (its program's, if that is
    no interpreter installed elsewhere), else the working directory."""
    runtimes: tuple[str, ...]
    """The folders its program needs, outside the system's: the installation prefix of
    an interpreter, a virtual environment and the Python it was made from, a script's
    interpreter."""


def locate(command: Sequence[str], *, cwd: str | None, env: Mapping[str, str] | None) -> Located:
    """Where the bot of ``command`` (with its ``cwd`` and ``env`` options) lives: see
    :class:`Located` and docs/protocol.md. Raises :class:`FileNotFoundError` where its
    program is not found (as starting it would)."""
    base = os.path.abspath(cwd) if cwd else os.getcwd()
    word = command[0]
    if os.sep in word:
        program = os.path.join(base, word)
    else:
        search = (env or {}).get("PATH") or os.environ.get("PATH") or PATH
        program = shutil.which(word, path=search) or ""
        if not program:  # as starting it would say
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), word)
    program = os.path.normpath(os.path.abspath(program))
    if not os.path.exists(program):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), word)
    runtimes = _runtime(program)
    script = next(
        (
            os.path.normpath(os.path.join(base, arg))
            for arg in command[1:]
            if not arg.startswith("-") and os.path.isfile(os.path.join(base, arg))
        ),
        None,
    )
    if cwd:
        folder = base
    elif script is not None:
        folder = os.path.dirname(script)
    elif not _within(program, list(SYSTEM_PATHS)) and not any(
        _within(program, r) for r in runtimes if r != os.path.dirname(program)
    ):
        folder = os.path.dirname(program)
    else:
        folder = base
    return Located(program, script or program, os.path.normpath(folder), tuple(runtimes))


def _refuse_home(folder: str) -> None:
    """A bot whose folder would show the user's home (or ``/``) is not sandboxed."""
    home = os.path.expanduser("~")
    if folder in ("/", os.path.normpath(home)) or _within(home, [folder]):
        raise SandboxError(
            f"the bot's folder would be {folder}, which holds your home folder: give the bot "
            "a folder of its own (its program's, or the `cwd` option)",
            params=["cwd"],
        )


def _runtime(program: str) -> list[str]:
    """The folders ``program`` needs to run, outside the system's: for each step of its
    symbolic links, and for a script's interpreter, the installation prefix (the folder
    above ``bin``) or the folder; a virtual environment's base Python too."""
    found: list[str] = []
    seen: set[str] = set()
    todo = [program]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if not _within(path, list(SYSTEM_PATHS)):
            parent = os.path.dirname(path)
            prefix = (
                os.path.dirname(parent) if os.path.basename(parent) in ("bin", "sbin") else parent
            )
            if prefix not in found and prefix != "/":
                found.append(prefix)
            config = os.path.join(prefix, "pyvenv.cfg")
            home = _venv_home(config)
            if home:
                todo.append(os.path.join(home, "python3"))
        if os.path.islink(path):
            target = os.readlink(path)
            todo.append(os.path.normpath(os.path.join(os.path.dirname(path), target)))
        else:
            interpreter = _shebang(path)
            if interpreter:
                todo.append(interpreter)
    return found


def _venv_home(config: str) -> str:
    try:
        with open(config, encoding="utf-8") as file:
            for line in file:
                key, _, value = line.partition("=")
                if key.strip() == "home":
                    return value.strip()
    except OSError:
        pass
    return ""


def _shebang(path: str) -> str:
    """The interpreter a script names on its first line (``#!``), if an absolute path."""
    try:
        with open(path, "rb") as file:
            head = file.read(256)
    except OSError:
        return ""
    if not head.startswith(b"#!"):
        return ""
    words = head[2:].split(b"\n", 1)[0].split()
    return os.fsdecode(words[0]) if words and words[0].startswith(b"/") else ""


def _hidden_here(shown: Sequence[str]) -> list[str]:
    """The hidden paths (see :func:`hide`) that a sandbox showing ``shown`` would show."""
    found: list[str] = []
    for path in hidden():
        folder, name = os.path.split(path)
        if not any(_within(folder, [top]) for top in shown):
            continue
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        found += [os.path.join(folder, e) for e in sorted(entries) if e.startswith(name)]
    return found


PACKAGE = os.path.dirname(os.path.abspath(__file__))
"""c8league's own package folder, shown to a bot whose program is Python: a Python player
served over the protocol imports it (``python -m c8league.players.serve``), from an
editable install too."""


def _package() -> list[str]:
    """c8league's package folder, and the library of its compiled engine beside it (mypyc
    puts it next to the package: in an editable install, outside the environment)."""
    beside = os.path.dirname(PACKAGE)
    try:
        names = os.listdir(beside)
    except OSError:
        names = []
    return [PACKAGE] + [
        os.path.join(beside, name)
        for name in sorted(names)
        if name.startswith("c8league_engine__mypyc") and name.endswith((".so", ".pyd"))
    ]


def _python(program: str) -> bool:
    """Whether ``program`` is a Python interpreter (``python``, ``python3.11``…)."""
    return re.fullmatch(r"python[0-9.]*", os.path.basename(os.path.realpath(program))) is not None


def _in_sandbox(arg: str, base: str) -> str:
    """A command's argument as the sandbox must see it: one that names a file relative to
    the bot's working directory outside, absolute (the sandbox's is the bot's folder)."""
    if arg.startswith("-") or os.path.isabs(arg):
        return arg
    full = os.path.join(base, arg)
    return os.path.normpath(full) if os.path.exists(full) else arg


def _absolute(path: str, cwd: str | None) -> str:
    return os.path.normpath(os.path.join(os.path.abspath(cwd) if cwd else os.getcwd(), path))


def _within(path: str, tops: Sequence[str]) -> bool:
    """Whether ``path`` is one of ``tops`` or inside one."""
    return any(path == top or path.startswith(top.rstrip("/") + "/") for top in tops)


def _outermost(paths: Iterator[str] | Sequence[str]) -> list[str]:
    """``paths`` without those inside another of them, in order."""
    unique = list(dict.fromkeys(paths))
    return [p for p in unique if not any(o != p and _within(p, [o]) for o in unique)]


def _check_readable(path: str, own_user: bool, settings: Settings) -> None:
    """Refuse a path the bot's user could not read in its sandbox: run by root, the bot
    runs as a user of its own, who reads only what all may read."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise SandboxError(f"{path} cannot be shown to the bot: {exc.strerror}") from None
    if not own_user:
        return
    need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(info.st_mode) else 0)
    if info.st_mode & need != need:
        raise SandboxError(
            f"the sandbox runs the bot as a user of its own, who cannot read {path} "
            f"(mode {stat.filemode(info.st_mode)})",
            hint=f"make it readable by all: chmod -R a+rX {path}",
        )


@dataclass(frozen=True)
class Need:
    """What a sandboxed bot's error says it lacked: ``read`` a path outside its sandbox
    (``path``: what it looked for, which exists outside), ``write`` (``path``, on its
    read-only folder), or the ``network``."""

    kind: Literal["read", "write", "network"]
    path: str = ""


_NETWORK = re.compile(
    r"Network is unreachable|Temporary failure in name resolution|Name or service not known"
    r"|getaddrinfo|ENETUNREACH|EAI_AGAIN|UnknownHostException"
)
_LOG_NOTE = re.compile(r"\(stderr log: [^)]*\)")
"""The note of a fault's detail that names the bot's log (a path c8league wrote)."""
_PATH = re.compile(r"""(?:['"`]|\s|^)(/[^'"`\s:,;)]+)""")


def needs(text: str) -> Need | None:
    """What the words of a sandboxed bot's failure (its last line of standard error, say)
    tell it lacked, if they tell: see :class:`Need`."""
    text = _LOG_NOTE.sub("", text)
    if _NETWORK.search(text):
        return Need("network")
    paths = _PATH.findall(text)
    if "Read-only file system" in text or "EROFS" in text:
        return Need("write", paths[0] if paths else "")
    for path in paths:
        if os.path.exists(path) and not _within(path, list(SYSTEM_PATHS)):
            return Need("read", path)
    return None


def describe(found: Support | None = None) -> str:
    """One line on how external bots run here (for ``--version``)."""
    return (found or support()).text()


def exit_status(code: int) -> int:
    """A sandboxed bot's exit status as bubblewrap reports it (128 + N for a bot killed by
    signal N), as a process's own would be (minus the signal)."""
    if 128 < code <= 128 + 64:
        return -(code - 128)
    return code
