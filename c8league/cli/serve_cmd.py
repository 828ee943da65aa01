"""``c8league serve``: the league's pages for the players' phones, and the organiser's."""

from __future__ import annotations

import errno
import os
import socket
from typing import Annotated

import typer

from c8league.cli.db import database
from c8league.cli.output import err, out
from c8league.errors import C8LeagueError, UsageError

EVERYWHERE = "0.0.0.0"

STARTUP_FAILURE = 3
"""uvicorn's exit status when its server cannot start (not a bot's fault here)."""


class CannotListen(C8LeagueError):
    """The address and port serve was given are taken (exit 1, as a busy database), or
    are no address of this machine (``UsageError``)."""


def check_free(host: str, port: int) -> None:
    """Refuse, before anything is printed, an address serve cannot listen at."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        probe = socket.create_server((host, port), family=family)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise CannotListen(
                f"port {port} at {host} is taken (another server runs there?): choose "
                "another with --port"
            ) from None
        why = os.strerror(exc.errno) if exc.errno and exc.errno > 0 else "no such address"
        raise UsageError(
            f"cannot listen at {host}:{port} ({why}): --host takes an "
            "address of this machine (127.0.0.1, 0.0.0.0, or its network address)"
        ) from None
    probe.close()


def lan_address() -> str | None:
    """This machine's address on the local network (the one a route out would use; no
    packet is sent), or None without a network."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, nothing sent (UDP)
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def serve(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen at (0.0.0.0: every network).")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="Port to listen at.", min=1, max=65535)
    ] = 8000,
) -> None:
    """Serve the league to the players' phones: the round's tables, standings, ratings,
    replays, duels and ladders; the organiser's page with the token it prints."""
    try:
        import uvicorn

        from c8league.serve import ServeConfig, create_app
    except ImportError as exc:
        raise UsageError(
            f"serve needs the serve extra ({exc.name} is missing): pip install 'c8league[serve]'"
        ) from None
    db = database()
    check_free(host, port)
    shown = host
    if host == EVERYWHERE:
        shown = lan_address() or "127.0.0.1"
    hosts = {f"{shown}:{port}", f"{host}:{port}", f"127.0.0.1:{port}", f"localhost:{port}"}
    config = ServeConfig(db=db, hosts=tuple(sorted(hosts)))
    players = f"http://{shown}:{port}/"
    out.print(f"players: {players}", highlight=False, markup=False, soft_wrap=True)
    if host == EVERYWHERE:
        _print_qr(players)
    organiser = f"{players}organiser?token={config.token}"
    out.print(f"organiser: {organiser}", highlight=False, markup=False, soft_wrap=True)
    err.print("Ctrl-C stops the server.", style="dim")
    try:
        uvicorn.run(create_app(config), host=host, port=port, log_level="warning")
    except SystemExit as exc:
        if exc.code == STARTUP_FAILURE:  # taken in the meantime: uvicorn said why
            raise CannotListen(f"the server could not start at {host}:{port}") from None
        raise


def _print_qr(text: str) -> None:
    try:
        import segno
    except ImportError:
        return
    segno.make(text, error="m").terminal(compact=True)
