"""The reference of the Python player API, written from the code's own docstrings.

``docs/python-players.md`` holds it between two markers; a test fails when the page and
the code drift apart. ``python -m c8league.players.reference`` prints it, and ``--write
FILE`` puts it in place in the page. The source files are read (with ``ast``), not the
imported modules, so that the compiled engine, which keeps no docstrings, is described
as its source says.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

BEGIN = "<!-- reference: written by python -m c8league.players.reference --write; do not edit -->"
END = "<!-- end of reference -->"

PACKAGE = Path(__file__).resolve().parents[1]

#: (source file, class, members to leave out), in the order the page shows them.
CLASSES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("players/base.py", "Player", ()),
    (
        "players/base.py",
        "BasePlayer",
        (
            "name",
            "options_model",
            "answers_later",
            "stderr_path",
            "plays_at_once",
            "hooks",
            "implementation",
            "hook",
        ),
    ),
    ("players/base.py", "PlayerOptions", ("model_config",)),
    ("engine/observation.py", "Observation", ()),
    ("engine/observation.py", "_Conveniences", ()),
    ("engine/moves.py", "Move", ("play", "nominate")),
    ("engine/scoring.py", "HandResult", ()),
    ("engine/match.py", "MatchResult", ()),
)
TITLES = {"_Conveniences": "Observation (conveniences)"}


def _first_paragraph(text: str | None) -> str:
    if not text:
        return ""
    lines = []
    for line in text.strip().splitlines():
        if not line.strip():
            break
        lines.append(line.strip())
    return " ".join(lines).replace("|", "\\|")


def _members(node: ast.ClassDef, skip: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(name, type or signature, first paragraph of its docstring) of each public member."""
    found: list[tuple[str, str, str]] = []
    body = node.body
    for index, item in enumerate(body):
        if isinstance(item, ast.FunctionDef):
            name = item.name
            if name.startswith("_") or name in skip:
                continue
            doc = _first_paragraph(ast.get_docstring(item))
            returns = "" if item.returns is None else ast.unparse(item.returns)
            if any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list):
                found.append((name, returns, doc))
                continue
            args = [a.arg for a in item.args.args if a.arg != "self"]
            signature = f"({', '.join(args)})" + (f" -> {returns}" if returns else "")
            found.append((f"{name}()", signature, doc))
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            name = item.target.id
            if name.startswith("_") or name in skip:
                continue
            doc = ""
            after = body[index + 1] if index + 1 < len(body) else None
            if (
                isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                doc = _first_paragraph(after.value.value)
            found.append((name, ast.unparse(item.annotation), doc))
    return found


def reference() -> str:
    """The reference, as markdown."""
    parts: list[str] = []
    for path, name, skip in CLASSES:
        tree = ast.parse((PACKAGE / path).read_text(encoding="utf-8"))
        node = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == name)
        module = "c8league." + path.removesuffix(".py").replace("/", ".")
        title = TITLES.get(name, name)
        parts.append(f"### {title}\n\n`{module}`\n")
        doc = ast.get_docstring(node)
        if doc and not name.startswith("_"):
            parts.append(doc.strip() + "\n")
        members = _members(node, skip)
        if members:
            parts.append("| member | type | what it is |\n| --- | --- | --- |")
            for member, kind, text in members:
                kind = kind.replace("|", "\\|")
                parts.append(
                    f"| `{member}` | `{kind}` | {text} |" if kind else f"| `{member}` | | {text} |"
                )
            parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def block() -> str:
    """The reference between its markers, as the page holds it."""
    return f"{BEGIN}\n\n{reference()}\n{END}"


def write(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    page.write_text(text[:start] + block() + text[end:], encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--write"]:
        write(Path(sys.argv[2]))
    else:
        sys.stdout.write(reference())
