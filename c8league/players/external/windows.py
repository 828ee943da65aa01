"""What the ``external`` player does differently on Windows.

* **Waiting on the bot's streams.** Windows cannot wait on pipes (``select`` takes
  sockets only), so each of the bot's three standard streams is relayed through a
  local socket pair by a thread (:class:`Relay`): the player waits on, reads from and
  writes to its end of the sockets exactly as it does with the pipes elsewhere. The
  module's :func:`read`, :func:`write` and :func:`close` stand in for ``os.read``,
  ``os.write`` and ``os.close`` on those sockets.
* **Killing the bot and what it started.** The bot starts in a process group of its own
  and is put in a job object (:class:`Job`) that kills every process in it when the
  job is closed: by the player when the match ends, or by Windows when the process
  that started the bot ends, however it ends (the reaper's part on POSIX). Where no
  job can be made, ``taskkill /T /F`` kills the bot's process tree.
* **No memory limit**: the bot runs without one (``resource`` limits are POSIX).

The relay is plain sockets and threads, and runs (and is tested) anywhere; the job
object is Windows only.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from typing import IO, Any

_CHUNK = 65536

_sockets: dict[int, socket.socket] = {}
"""The player's ends of the relays, by file number (what :func:`read` and the others
are given)."""
_lock = threading.Lock()


class _End:
    """The player's end of a relayed stream, in place of the pipe's file object: its
    ``fileno()`` is waited on, read and written with this module's functions."""

    def __init__(self, sock: socket.socket) -> None:
        self._fd = sock.fileno()
        with _lock:
            _sockets[self._fd] = sock

    def fileno(self) -> int:
        return self._fd

    def close(self) -> None:
        close(self._fd)


def read(fd: int, size: int) -> bytes:
    """``os.read`` for a relayed stream (and for any other file descriptor)."""
    sock = _sockets.get(fd)
    return os.read(fd, size) if sock is None else sock.recv(size)


def write(fd: int, data: bytes | memoryview) -> int:
    """``os.write`` for a relayed stream (and for any other file descriptor)."""
    sock = _sockets.get(fd)
    return os.write(fd, data) if sock is None else sock.send(data)


def close(fd: int) -> None:
    """``os.close`` for a relayed stream (and for any other file descriptor). Closing
    the player's end of the bot's input ends the bot's input."""
    with _lock:
        sock = _sockets.pop(fd, None)
    if sock is None:
        os.close(fd)
        return
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


class Relay:
    """The bot's standard input, output and error relayed through socket pairs.

    ``stdin`` and ``stdout`` replace the pipes' file objects and ``errors`` the file
    descriptor of the error pipe's reading end; ``stdin`` and ``errors`` do not block
    (writing to a full ``stdin`` raises ``BlockingIOError``, as on a pipe set not to
    block). Each thread ends when its stream ends, and closes the other side: the bot's
    input when the player closes ``stdin``, the player's ends when the bot closes its
    output or error (when it exits, or is killed)."""

    def __init__(self, bot_in: IO[bytes], bot_out: IO[bytes], bot_errors: int) -> None:
        ours, theirs = socket.socketpair()
        ours.setblocking(False)
        self.stdin = _End(ours)
        _thread(_to_pipe, theirs, bot_in)
        ours, theirs = socket.socketpair()
        self.stdout = _End(ours)
        _thread(_from_pipe, lambda: bot_out.read(_CHUNK), bot_out.close, theirs)
        ours, theirs = socket.socketpair()
        ours.setblocking(False)
        self.errors = _End(ours).fileno()
        _thread(
            _from_pipe, lambda: os.read(bot_errors, _CHUNK), lambda: os.close(bot_errors), theirs
        )


def _thread(target: Any, *args: Any) -> None:
    threading.Thread(target=target, args=args, daemon=True, name="c8league-relay").start()


def _to_pipe(source: socket.socket, pipe: IO[bytes]) -> None:
    try:
        while chunk := source.recv(_CHUNK):
            view = memoryview(chunk)
            while view:
                view = view[pipe.write(view) or 0 :]
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError):
            pipe.close()
        source.close()


def _from_pipe(read_pipe: Any, close_pipe: Any, sink: socket.socket) -> None:
    try:
        while chunk := read_pipe():
            sink.sendall(chunk)
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError):
            close_pipe()
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)
        sink.close()


def popen_options() -> dict[str, Any]:
    """How the bot's process is started: in a process group of its own."""
    if sys.platform == "win32":
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
    return {"start_new_session": True}


def kill_tree(pid: int, job: Job | None) -> None:
    """Kill the bot and every process it started: through its job, or ``taskkill``."""
    if job is not None and job.terminate():
        return
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(
            ["taskkill", "/T", "/F", "/PID", str(pid)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=10,
            check=False,
        )


class Job:
    """A Windows job object holding a bot's process and every process it starts, killed
    together by :meth:`terminate`, or by Windows when the last handle to the job closes
    (``JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE``): when this process ends, however it ends."""

    def __init__(self, handle: int) -> None:
        self.handle = handle

    @classmethod
    def holding(cls, pid: int) -> Job | None:
        """A new job holding the process ``pid``; None where it cannot be made (then
        :func:`kill_tree` uses ``taskkill``)."""
        return _make_job(pid)

    def terminate(self) -> bool:
        """Kill every process in the job and close it; False if the job was gone."""
        if not self.handle:
            return False
        handle, self.handle = self.handle, 0
        ended = bool(_kernel32.TerminateJobObject(handle, 1))
        _kernel32.CloseHandle(handle)
        return ended

    def close(self) -> None:
        """Close the job (which kills what is still in it)."""
        self.terminate()


if sys.platform == "win32":
    import ctypes
    from ctypes import wintypes

    _kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    _kernel32.CreateJobObjectW.restype = wintypes.HANDLE
    _kernel32.CreateJobObjectW.argtypes = (wintypes.LPVOID, wintypes.LPCWSTR)
    _kernel32.SetInformationJobObject.restype = wintypes.BOOL
    _kernel32.SetInformationJobObject.argtypes = (
        wintypes.HANDLE,
        ctypes.c_int,
        wintypes.LPVOID,
        wintypes.DWORD,
    )
    _kernel32.OpenProcess.restype = wintypes.HANDLE
    _kernel32.OpenProcess.argtypes = (wintypes.DWORD, wintypes.BOOL, wintypes.DWORD)
    _kernel32.AssignProcessToJobObject.restype = wintypes.BOOL
    _kernel32.AssignProcessToJobObject.argtypes = (wintypes.HANDLE, wintypes.HANDLE)
    _kernel32.TerminateJobObject.restype = wintypes.BOOL
    _kernel32.TerminateJobObject.argtypes = (wintypes.HANDLE, wintypes.UINT)
    _kernel32.CloseHandle.restype = wintypes.BOOL
    _kernel32.CloseHandle.argtypes = (wintypes.HANDLE,)

    _EXTENDED_LIMIT_INFORMATION = 9  # JobObjectExtendedLimitInformation
    _KILL_ON_JOB_CLOSE = 0x2000  # JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    _PROCESS_SET_QUOTA = 0x0100
    _PROCESS_TERMINATE = 0x0001

    class _BasicLimits(ctypes.Structure):
        _fields_ = (
            ("PerProcessUserTimeLimit", ctypes.c_int64),
            ("PerJobUserTimeLimit", ctypes.c_int64),
            ("LimitFlags", wintypes.DWORD),
            ("MinimumWorkingSetSize", ctypes.c_size_t),
            ("MaximumWorkingSetSize", ctypes.c_size_t),
            ("ActiveProcessLimit", wintypes.DWORD),
            ("Affinity", ctypes.c_size_t),
            ("PriorityClass", wintypes.DWORD),
            ("SchedulingClass", wintypes.DWORD),
        )

    class _IoCounters(ctypes.Structure):
        _fields_ = tuple(
            (name, ctypes.c_uint64)
            for name in (
                "ReadOperationCount",
                "WriteOperationCount",
                "OtherOperationCount",
                "ReadTransferCount",
                "WriteTransferCount",
                "OtherTransferCount",
            )
        )

    class _ExtendedLimits(ctypes.Structure):
        _fields_ = (
            ("BasicLimitInformation", _BasicLimits),
            ("IoInfo", _IoCounters),
            ("ProcessMemoryLimit", ctypes.c_size_t),
            ("JobMemoryLimit", ctypes.c_size_t),
            ("PeakProcessMemoryUsed", ctypes.c_size_t),
            ("PeakJobMemoryUsed", ctypes.c_size_t),
        )

    def _make_job(pid: int) -> Job | None:
        job = _kernel32.CreateJobObjectW(None, None)
        if not job:
            return None
        limits = _ExtendedLimits()
        limits.BasicLimitInformation.LimitFlags = _KILL_ON_JOB_CLOSE
        process = _kernel32.OpenProcess(_PROCESS_SET_QUOTA | _PROCESS_TERMINATE, False, pid)
        ok = bool(process) and bool(
            _kernel32.SetInformationJobObject(
                job, _EXTENDED_LIMIT_INFORMATION, ctypes.byref(limits), ctypes.sizeof(limits)
            )
        )
        ok = ok and bool(_kernel32.AssignProcessToJobObject(job, process))
        if process:
            _kernel32.CloseHandle(process)
        if not ok:
            _kernel32.CloseHandle(job)
            return None
        return Job(job)

else:
    _kernel32: Any = None

    def _make_job(pid: int) -> Job | None:
        return None
