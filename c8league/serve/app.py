"""The web application: routes, the organiser's login and the pages' guards.

Every page reads through the library functions the command line uses; a mistake in a
request (an unknown league, event, match or duel) gets a clear page with the same one
line the command line would print, and a status of 4xx.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from c8league.club import Entry, edit_result, pairing_sheet, parse_scores, publish
from c8league.club.reporting import (
    CodedTable,
    CodeRefused,
    ReportConflict,
    RoundCode,
    accept_report,
    coded_table,
    confirm_at,
    dispute_at,
    refuse_report,
    report_at,
    round_codes,
    table_at,
)
from c8league.duel.reading import duel_report, list_duels
from c8league.errors import C8LeagueError, ResultError
from c8league.events.ladder import ladder_table
from c8league.events.pairing import pair_round
from c8league.events.season import season_table
from c8league.events.status import event_standings, event_status, event_tiebreaks
from c8league.league.reading import list_leagues, show_league
from c8league.names import name_key
from c8league.ratings.leaderboard import league_leaderboard
from c8league.reports.game_html import render_game
from c8league.reports.games import read_game
from c8league.reports.views import leaderboard_view, season_view
from c8league.serve.guards import CSRF_COOKIE, CSRF_FIELD, Guesses, Tickets, csrf_ok, new_csrf
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
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}
"""On every page: scripts from this server only, no framing, no address leaked to
another site (a form sent to this server names its origin)."""

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
    env.filters["points"] = lambda value: f"{value:.2f}".rstrip("0").rstrip(".")
    return env


Handler = Callable[[Request], Awaitable[Response]]


class Pages:
    """The routes' handlers, over one database."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.db = config.db
        self.env = _templates()
        self.guesses = Guesses()
        self.tickets = Tickets()

    # --- helpers ---

    def page(self, name: str, code: int = 200, **values: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(refresh=REFRESH_SECONDS, **values)
        return HTMLResponse(html, status_code=code, headers=SECURITY_HEADERS)

    def form_page(self, request: Request, name: str, code: int = 200, **values: Any) -> Response:
        """A page with a form: its CSRF token, the same as the browser's cookie (set here
        when the browser has none)."""
        token = request.cookies.get(CSRF_COOKIE) or new_csrf()
        response = self.page(name, code, csrf=token, **values)
        if request.cookies.get(CSRF_COOKIE) != token:
            response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="strict", path="/")
        return response

    def write_refused(self, request: Request, form: Form) -> Response | None:
        """Why a write is refused before it is read (a clear page), or None."""
        if not self.from_given_address(request):
            return self.refused(
                "this server answers writes only at the address it printed", status=403
            )
        if not same_origin(request):
            return self.refused(
                "this form was sent from a page of another site: nothing was stored", status=403
            )
        if not csrf_ok(request.cookies.get(CSRF_COOKIE), form.get(CSRF_FIELD)):
            return self.refused(
                "the form's security token is missing or stale: open the page again and "
                "send the form from there (nothing was stored)",
                status=403,
            )
        return None

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
            running=report.status == "playing",
        )

    def ladder(self, request: Request) -> Response:
        return self.page("ladder.html.j2", t=ladder_table(self.db, request.path_params["league"]))

    # --- results reported from the table ---

    def report_form(self, request: Request) -> Response:
        return self.form_page(request, "report.html.j2", problem=None)

    def report_code(self, request: Request, form: Form) -> Response:
        """A code typed at the table: the form of that table's scores (a ticket names the
        table in it, not the code)."""
        refused = self.write_refused(request, form)
        if refused is not None:
            return refused
        client = request.client.host if request.client else "?"
        if self.guesses.blocked(client):
            return self.form_page(request, "report.html.j2", 429,
                                  problem="too many wrong codes from this device: wait a few "
                                  "minutes, or ask the organiser")  # fmt: skip
        try:
            table = coded_table(self.db, form.get("code", ""))
        except CodeRefused as exc:
            self.guesses.wrong(client)
            return self.form_page(request, "report.html.j2", 403, problem=_said(exc))
        return self.scores_page(request, table)

    def scores_page(
        self,
        request: Request,
        table: CodedTable,
        code: int = 200,
        problem: str | None = None,
        values: dict[str, str] | None = None,
        player: str = "",
    ) -> Response:
        return self.form_page(
            request,
            "scores.html.j2",
            code,
            t=table,
            ticket=self.tickets.make(table.match_id),
            problem=problem,
            values=values or {},
            player=player,
        )

    def ticketed(self, request: Request, form: Form) -> tuple[int, CodedTable] | Response:
        """The table a form's ticket names (its match id and table), or the page that
        refuses the form: a write refused, a ticket this server did not make, a code that
        no longer works."""
        refused = self.write_refused(request, form)
        if refused is not None:
            return refused
        match_id = self.tickets.read(form.get("ticket"))
        if match_id is None:
            return self.refused("this form is not one this server made: type the code again",
                                status=403)  # fmt: skip
        try:
            return match_id, table_at(self.db, match_id)
        except CodeRefused as exc:
            return self.refused(_said(exc), status=403)

    def report_scores(self, request: Request, form: Form) -> Response:
        """The scores of a table found by its code: stored as reported, or refused with
        the same line as ``result add`` gives."""
        opened = self.ticketed(request, form)
        if isinstance(opened, Response):
            return opened
        match_id, table = opened
        values = {n: form.get(f"score{i}", "").strip() for i, n in enumerate(table.info.seats)}
        player = form.get("player", "").strip()[:128]
        try:
            scores = parse_scores(",".join(f"{n}={v}" for n, v in values.items()))
            checked = report_at(
                self.db, match_id, scores, by=player or None, device=device_of(request)
            )
        except ReportConflict as exc:
            return self.page("reported.html.j2", 409, t=table, conflict=True, tried=values,
                             reported=exc.reported, message=_said(exc))  # fmt: skip
        except CodeRefused as exc:
            return self.refused(_said(exc), status=403)
        except ResultError as exc:
            return self.scores_page(
                request, table, 400, problem=_said(exc), values=values, player=player
            )
        reported = dict(zip(checked.seats, checked.result.scores, strict=True))
        return self.page("reported.html.j2", t=table, conflict=False, tried=values,
                         reported=reported, message="")  # fmt: skip

    def second_player(self, request: Request, form: Form) -> Response:
        """A second player of the table confirms the reported result, or disputes it
        with the scores they hold true (when the league says a second player may)."""
        opened = self.ticketed(request, form)
        if isinstance(opened, Response):
            return opened
        match_id, table = opened
        player = form.get("player", "").strip()[:128]
        action = form.get("action", "")
        values = {n: form.get(f"score{i}", "").strip() for i, n in enumerate(table.info.seats)}
        try:
            if action == "confirm":
                change = confirm_at(self.db, match_id, by=player, device=device_of(request))
                assert change.checked is not None
                final = dict(zip(change.checked.seats, change.checked.result.scores, strict=True))
                return self.page("confirmed.html.j2", t=table, final=final, by=player)
            if action != "dispute":
                return self.refused("unknown action", status=400)
            scores = parse_scores(",".join(f"{n}={v}" for n, v in values.items()))
            dispute_at(self.db, match_id, scores, by=player, device=device_of(request))
        except CodeRefused as exc:
            return self.refused(_said(exc), status=403)
        except ResultError as exc:
            return self.scores_page(
                request, table_at(self.db, match_id), 400, problem=_said(exc), values=values,
                player=player,
            )  # fmt: skip
        return self.scores_page(request, table_at(self.db, match_id))

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

    def organiser_refused(self) -> Response:
        return self.refused(
            "the organiser's page needs the token serve printed at start "
            "(open the address it printed, with ?token=)",
            status=403,
            title="Forbidden",
        )

    def organiser_event(self, request: Request) -> Response:
        if not self.is_organiser(request):
            return self.organiser_refused()
        league = request.path_params["league"]
        name = request.path_params["event"]
        status = event_status(self.db, name, league)
        sheet = pairing_sheet(self.db, f"{league}/{name}") if status.rounds_paired else None
        number, codes = 0, list[RoundCode]()
        if status.rounds_paired and status.played_by == "people":
            # The codes of a round are made when the organiser first sees them (none
            # before a round is published).
            with contextlib.suppress(ResultError):
                number, codes = round_codes(self.db, f"{league}/{name}")
        # The final results of a published round, to correct: the round asked for, or
        # the latest published one.
        results = None
        asked = request.query_params.get("round", "")
        if status.rounds_paired and status.played_by == "people":
            wanted = int(asked) if asked.isdigit() and len(asked) < 5 else None
            with contextlib.suppress(C8LeagueError):
                results = pairing_sheet(self.db, f"{league}/{name}", wanted or number or None)
            if results is not None and not results.published:
                results = None
        return self.form_page(
            request,
            "organiser_event.html.j2",
            league=league,
            status=status,
            sheet=sheet,
            round_number=number,
            codes=codes,
            results=results,
            done=request.query_params.get("done", "")[:200],
        )

    def organiser_act(self, request: Request, form: Form) -> Response:
        """Pair, publish, accept or refuse a reported result: the organiser's writes."""
        if not self.is_organiser(request):
            return self.organiser_refused()
        refused = self.write_refused(request, form)
        if refused is not None:
            return refused
        league = request.path_params["league"]
        name = request.path_params["event"]
        event = f"{league}/{name}"
        action = form.get("action", "")
        table = form.get("table", "")
        number = table if table.isdigit() and len(table) < 6 else ""
        by = "the organiser (serve)"
        try:
            if action == "pair":
                done = f"round {pair_round(self.db, name, league).round} paired (a draft)"
            elif action == "publish":
                done = f"round {publish(self.db, event)} published"
            elif action in ("accept", "accept-dispute") and number:
                dispute = action == "accept-dispute"
                change = accept_report(self.db, event, int(number), by=by, dispute=dispute)
                done = f"table {change.table}: the reported result is final"
                if dispute:
                    done = f"table {change.table}: the disputed scores are final"
            elif action == "refuse" and number:
                refuse_report(self.db, event, int(number))
                done = f"table {number}: the reported result is forgotten"
            elif action == "correct" and number:
                done = self.correct(event, int(number), form, by)
            else:
                return self.refused("unknown action", status=400)
        except C8LeagueError as exc:
            return self.refused(_said(exc), status=400)
        url = request.url_for("organiser_event", league=league, event=name)
        return RedirectResponse(f"{url.path}?{urlencode({'done': done})}", status_code=303)

    def correct(self, event: str, table: int, form: Form, by: str) -> str:
        """A final result corrected as ``result edit`` corrects one (checked alike,
        kept in the audit trail with its note and who corrected it)."""
        round_text = form.get("round", "")
        if not round_text.isdigit() or len(round_text) > 4:
            raise ResultError("`round`: not a round this page sends", params=["round"])
        seats = [form.get(f"name{i}", "") for i in range(16) if f"name{i}" in form]
        scores = parse_scores(
            ",".join(f"{n}={form.get(f'score{i}', '').strip()}" for i, n in enumerate(seats))
        )
        note = form.get("note", "").strip()[:300]
        note = f"{note} (corrected by {by})" if note else f"corrected by {by}"
        change = edit_result(
            self.db, event, table, Entry(scores=scores, note=note), round_number=int(round_text)
        )
        return f"round {change.round}, table {change.table}: the result is corrected"


ORGANISER_COOKIE = "c8league_organiser"


def same_origin(request: Request) -> bool:
    """A form's ``Origin`` (when the browser names one) is this server's: a page of
    another site cannot send its forms here even with the browser's cookies (``null``,
    an origin a browser hides, leaves it to the CSRF token)."""
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return True
    return origin in (f"http://{request.headers.get('host', '')}",
                      f"https://{request.headers.get('host', '')}")  # fmt: skip


def device_of(request: Request) -> str | None:
    """What tells one phone from another: a digest of its browser's CSRF cookie (the
    cookie itself is a secret, and is not stored)."""
    cookie = request.cookies.get(CSRF_COOKIE)
    return None if not cookie else hashlib.sha256(cookie.encode()).hexdigest()[:24]


Form = dict[str, str]
"""A form's text fields (a file sent in a form is dropped)."""


def _said(exc: C8LeagueError) -> str:
    """An error's one line, each parameter named as the form's field."""
    return exc.worded(lambda param: param)


def _posted(pages: Pages, handler: Callable[[Request, Form], Response]) -> Handler:
    async def endpoint(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        try:
            data = await request.form(max_files=0, max_fields=64)
        except Exception:  # a body that is no form (or too big): nothing is read
            return pages.refused("the request is not a form this page sends", status=400)
        form = {k: v for k, v in data.items() if isinstance(v, str)}
        try:
            return await run_in_threadpool(handler, request, form)
        except C8LeagueError as exc:
            return pages.refused(_said(exc), status=400)

    return endpoint


def _guarded(pages: Pages, handler: Callable[[Request], Response]) -> Handler:
    async def endpoint(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        try:
            return await run_in_threadpool(handler, request)
        except C8LeagueError as exc:
            return pages.refused(_said(exc), status=404, title="Not found")

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
        Route(
            "/organiser/league/{league}/event/{event}",
            _guarded(pages, pages.organiser_event),
            name="organiser_event",
        ),
        Route(
            "/organiser/league/{league}/event/{event}",
            _posted(pages, pages.organiser_act),
            methods=["POST"],
        ),
        Route("/report", _guarded(pages, pages.report_form)),
        Route("/report", _posted(pages, pages.report_code), methods=["POST"]),
        Route("/report/scores", _posted(pages, pages.report_scores), methods=["POST"]),
        Route("/report/second", _posted(pages, pages.second_player), methods=["POST"]),
        Route("/static/live.js", pages.live_js),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        return pages.refused("no such page", status=404, title="Not found")

    async def bad_method(request: Request, exc: Exception) -> Response:
        return PlainTextResponse("method not allowed", status_code=405)

    return Starlette(routes=routes, exception_handlers={404: not_found, 405: bad_method})
