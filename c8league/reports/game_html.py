"""A stored match as one self-contained HTML page: every hand drawn with its cards, and
buttons (or the arrow keys) that step through it move by move. Styles and a short
script inline, the moves as JSON in the page, nothing fetched; without scripts the page
still lists each hand's deal and moves."""

from __future__ import annotations

import json
from typing import Any

from c8league.reports.games import Game, Step
from c8league.results import forfeit_at

__all__ = ["render_game", "steps_of"]

TEMPLATE = "game.html.j2"
HOW = {"out": "went out", "blocked": "blocked", "turn_cap": "turn cap"}


def _state(step: Step) -> dict[str, Any]:
    return {
        "hands": [list(cards) for cards in step.hands],
        "top": step.top,
        "suit": step.suit,
        "stock": step.stock,
        "pending": step.pending,
        "current": step.current,
    }


def steps_of(game: Game) -> list[dict[str, Any]]:
    """Every position of the match in order: each hand as dealt, then after each move,
    with what happened in words (``text``)."""
    names = game.players
    steps: list[dict[str, Any]] = []
    for hand in game.hands:
        steps.append(
            {
                "hand": hand.number,
                "move": 0,
                "moves": len(hand.steps),
                "seat": hand.dealer,
                "text": f"Hand {hand.number}: {names[hand.dealer]} deals; the starter is "
                f"{hand.starter}",
                **_state(hand.start),
            }
        )
        for number, step in enumerate(hand.steps, start=1):
            text = f"{names[step.seat]}: {step.move}"
            if number == len(hand.steps) and hand.result is not None:
                winners = ", ".join(names[w] for w in hand.result.winners)
                text += (
                    f". The hand is over ({HOW[hand.result.kind]}: {winners}); points "
                    f"{list(hand.result.points)}, totals {list(hand.totals)}"
                )
            steps.append(
                {
                    "hand": hand.number,
                    "move": number,
                    "moves": len(hand.steps),
                    "seat": step.seat,
                    "text": text,
                    **_state(step),
                }
            )
    f = game.forfeit
    if f is not None and steps:
        steps[-1] = {
            **steps[-1],
            "text": steps[-1]["text"]
            + f". {names[f.seat]} forfeits: {f.reason} at its {forfeit_at(f)}: {f.detail}",
            "forfeit": f.seat,
        }
    return steps


def render_game(game: Game) -> str:
    """The page (a complete document, UTF-8)."""
    import jinja2  # jinja2: only for the HTML page

    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("c8league.reports", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    steps = steps_of(game)
    # In a <script> element only "</" could end it early: escape it.
    data = json.dumps({"players": list(game.players), "steps": steps}, ensure_ascii=False)
    data = data.replace("</", "<\\/")
    order = sorted(range(len(game.players)), key=lambda s: game.placements[s])
    return environment.get_template(TEMPLATE).render(
        game=game,
        data=data,
        order=order,
        how=HOW,
        forfeit=game.forfeit,
        forfeit_at=None if game.forfeit is None else forfeit_at(game.forfeit),
        rules=" ".join(game.rule_options[1:]).replace("--set ", ""),
    )
