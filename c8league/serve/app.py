"""The web application: routes, the organiser's login and the pages' guards.

Every page reads through the library functions the command line uses; a mistake in a
request (an unknown league, event, match or duel) gets a clear page with the same one
line the command line would print, and a status of 4xx.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from c8league.club import pairing_sheet
from c8league.duel.reading import duel_report, list_duels
from c8league.errors import C8LeagueError
from c8league.events.ladder import ladder_table
from c8league.events.season import season_table
from c8league.events.status import event_standings, event_status, event_tiebreaks
from c8league.league.reading import list_leagues, show_league
from c8league.names import name_key
from c8league.ratings.leaderboard import league_leaderboard
from c8league.reports.game_html import render_game
from c8league.reports.games import read_game
from c8league.reports.views import leaderboard_view, season_view
from c8league.serve.llr import llr_path, llr_svg
from c8league.standings import TIEBREAKS, explain_tiebreaks
from c8league.storage.database import Database

REFRESH_SECONDS = 5
"""How often the live pages' script asks for the page again."""

LIVE_JS = f"""(function () {{
  var main = document.querySelector("main[data-live]");
  if (!main || !window.fetch || !window.DOMParser) return;
  setInterval(function () {{
    var busy = document.activeElement;
    if (busy && busy.form) return;
    fetch(location.href, {{ credentials: "same-origin" }})
      .then(function (r) {{ return r.ok ? r.text() : null; }})
      .then(function (text) {{
        if (!text) return;
        var fresh = new DOMParser().parseFromString(text, "text/html").querySelector("main");
        if (fresh) main.innerHTML = fresh.innerHTML;
      }})
      .catch(function () {{}});
  }}, {REFRESH_SECONDS * 1000});
}})();
"""

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src "
    "'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
"""On every page: scripts from this server only, no framing, no address leaked."""

GAME_HEADERS = {**SECURITY_HEADERS, "Content-Security-Policy": "default-src 'none'; "
                "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
                "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"}  # fmt: skip
"""The replay page is ``match show --format html`` as it is: one file with its script."""


@dataclass
class ServeConfig:
    """What ``c8league serve`` runs with: the database, and the organiser's token (made
    at start, printed once, never shown in a page)."""

    db: Database
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    hosts: tuple[str, ...] = ()
    """The addresses (``host:port``) the organiser's pages answer at; empty: any."""


def _templates() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("c8league.serve", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    env.globals["is_cell"] = lambda value: not isinstance(value, str)
    return env


Handler = Callable[[Request], Awaitable[Response]]


class Pages:
    """The routes' handlers, over one database."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.db = config.db
        self.env = _templates()

    # --- helpers ---

    def page(self, name: str, code: int = 200, **values: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(refresh=REFRESH_SECONDS, **values)
        return HTMLResponse(html, status_code=code, headers=SECURITY_HEADERS)

    def refused(self, message: str, status: int = 400, title: str = "Refused") -> HTMLResponse:
        return self.page("message.html.j2", code=status, title=title, message=message)

    # --- read-only pages ---

    def index(self, request: Request) -> Response:
        return self.page(
            "index.html.j2",
            leagues=list_leagues(self.db),
            duels=[(d.name, d.status, d.short_outcome) for d in list_duels(self.db)],
        )

    def league(self, request: Request) -> Response:
        name = request.path_params["league"]
        data = show_league(self.db, name)
        season = season_view(season_table(self.db, name))
        board = league_leaderboard(self.db, name)
        ratings = leaderboard_view(board.rows, 10, bots=board.bots)
        return self.page(
            "league.html.j2",
            league=data,
            season=season,
            ratings=ratings,
            ladder=any(e["format"] == "ladder" for e in data["events"]),
        )

    def event(self, request: Request) -> Response:
        league = request.path_params["league"]
        name = request.path_params["event"]
        status = event_status(self.db, name, league)
        sheet = None
        if status.rounds_paired:
            sheet = pairing_sheet(self.db, f"{league}/{name}")
        query = request.query_params.get("name", "").strip()[:100]
        found = []
        if sheet is not None and query:
            key = name_key(query)
            found = [seat for seat in sheet.where() if key in name_key(seat.name)]
        rows = event_standings(self.db, name, league)
        tiebreaks = event_tiebreaks(self.db, name, league)
        return self.page(
            "event.html.j2",
            league=league,
            status=status,
            sheet=sheet if sheet is not None and sheet.published else None,
            query=query,
            found=found,
            standings=rows,
            tiebreaks=[TIEBREAKS[t] for t in tiebreaks],
            order=explain_tiebreaks(tiebreaks),
        )

    def match(self, request: Request) -> Response:
        game = read_game(self.db, request.path_params["match"])
        return HTMLResponse(render_game(game), headers=GAME_HEADERS)

    def duel(self, request: Request) -> Response:
        report = duel_report(self.db, request.path_params["duel"])
        path = llr_path(report)
        return self.page(
            "duel.html.j2",
            d=report,
            stats=report.stats,
            sprt=report.stats.sprt,
            chart=None if path is None else llr_svg(path),
            running=report.status == "running",
        )

    def ladder(self, request: Request) -> Response:
        return self.page("ladder.html.j2", t=ladder_table(self.db, request.path_params["league"]))

    async def live_js(self, request: Request) -> Response:
        return Response(
            LIVE_JS,
            media_type="text/javascript",
            headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "max-age=60"},
        )

    # --- the organiser ---

    def is_organiser(self, request: Request) -> bool:
        """The organiser's cookie, set after a login with the token, at an address the
        server was given."""
        if not self.from_given_address(request):
            return False
        cookie = request.cookies.get(ORGANISER_COOKIE, "")
        return hmac.compare_digest(cookie.encode(), self.organiser_cookie().encode())

    def organiser_cookie(self) -> str:
        return hmac.new(self.config.token.encode(), b"organiser", "sha256").hexdigest()

    def from_given_address(self, request: Request) -> bool:
        hosts = self.config.hosts
        return not hosts or request.headers.get("host", "") in hosts

    def login(self, request: Request) -> Response:
        """``/organiser?token=…``: a valid token sets the organiser's cookie and sends the
        browser on to the page without the token in its address."""
        token = request.query_params.get("token", "")
        if not self.from_given_address(request):
            return self.refused("the organiser's page answers only at the address serve printed",
                                status=403, title="Forbidden")  # fmt: skip
        if token:
            if not hmac.compare_digest(token.encode(), self.config.token.encode()):
                return self.refused("that organiser's token is not the one serve printed",
                                    status=403, title="Forbidden")  # fmt: skip
            response = RedirectResponse("/organiser", status_code=303)
            response.set_cookie(
                ORGANISER_COOKIE,
                self.organiser_cookie(),
                httponly=True,
                samesite="strict",
                path="/",
            )
            return response
        if not self.is_organiser(request):
            return self.refused(
                "the organiser's page needs the token serve printed at start "
                "(open the address it printed, with ?token=)",
                status=403,
                title="Forbidden",
            )
        return self.page("organiser.html.j2", leagues=list_leagues(self.db))


ORGANISER_COOKIE = "c8league_organiser"


def _guarded(pages: Pages, handler: Callable[[Request], Response]) -> Handler:
    async def endpoint(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        try:
            return await run_in_threadpool(handler, request)
        except C8LeagueError as exc:
            return pages.refused(exc.worded(lambda p: p), status=404, title="Not found")

    return endpoint


def create_app(config: ServeConfig) -> Starlette:
    """The application serving ``config.db``."""
    pages = Pages(config)
    routes = [
        Route("/", _guarded(pages, pages.index)),
        Route("/league/{league}", _guarded(pages, pages.league)),
        Route("/league/{league}/event/{event}", _guarded(pages, pages.event)),
        Route("/league/{league}/ladder", _guarded(pages, pages.ladder)),
        Route("/match/{match}", _guarded(pages, pages.match)),
        Route("/duel/{duel}", _guarded(pages, pages.duel)),
        Route("/organiser", _guarded(pages, pages.login)),
        Route("/static/live.js", pages.live_js),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        return pages.refused("no such page", status=404, title="Not found")

    async def bad_method(request: Request, exc: Exception) -> Response:
        return PlainTextResponse("method not allowed", status_code=405)

    return Starlette(routes=routes, exception_handlers={404: not_found, 405: bad_method})
