"""``c8league serve``: the league's pages for the players' phones, and the organiser's."""

from __future__ import annotations

import socket
from typing import Annotated

import typer

from c8league.cli.db import database
from c8league.cli.output import err, out
from c8league.errors import UsageError

EVERYWHERE = "0.0.0.0"


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
    uvicorn.run(create_app(config), host=host, port=port, log_level="warning")


def _print_qr(text: str) -> None:
    try:
        import segno
    except ImportError:
        return
    segno.make(text, error="m").terminal(compact=True)
