"""Names of people, bots, leagues and events: what a name may hold, and the one form in
which names are stored and looked up.

Neutral ground: league files, storage and the command line all use it.
"""

from __future__ import annotations

import unicodedata

NAME_MAX = 64
"""The longest name (in characters) of a person, a bot, a league or an event."""

_RESERVED = {
    "=": "it separates a name from its score in --scores and --hands",
    ",": "it separates the entries of --scores and --hands",
    ";": "it separates the hands of --hands",
    ":": "it marks a blocked hand in --hands",
    "/": "it separates league and event in LEAGUE/EVENT",
    "[": "the terminal would read it as markup",
    "]": "the terminal would read it as markup",
    "\\": "the terminal would read it as markup",
}
"""Characters of the command line's own syntax, with the reason each is refused."""

_JOINERS = frozenset("\u200c\u200d")
"""Zero-width (non-)joiners: invisible, but part of how some scripts write words."""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a name, or None if it can.

    Names are written as people write them: any letters (``Zoë``, ``José García``),
    digits, spaces, apostrophes, hyphens, dots (``O'Brien``, ``Anne-Marie``,
    ``J. R. R.``). Refused: the empty name, spaces at either end, a leading ``-``
    (it would read as an option), the characters of the command line's own syntax
    (``= , ; : /`` and the terminal's markup ``[ ] \\``), control and other
    invisible characters, and spaces other than the plain space.
    """
    if not name:
        return "a name cannot be empty"
    if name != name.strip():
        return "a name cannot start or end with a space"
    if name.startswith("-"):
        return "a name cannot start with '-': it would read as a command-line option"
    if len(name) > NAME_MAX:
        return f"a name is at most {NAME_MAX} characters (this one has {len(name)})"
    for char in name:
        reason = _RESERVED.get(char)
        if reason is not None:
            return f"a name cannot hold {char!r}: {reason}"
        category = unicodedata.category(char)
        if category == "Zs" and char != " ":
            return f"a name's spaces must be plain spaces (it holds U+{ord(char):04X})"
        if (category[0] == "C" and char not in _JOINERS) or category in ("Zl", "Zp"):
            code = f"U+{ord(char):04X}"
            return f"a name cannot hold control or invisible characters (it holds {code})"
    return None


def check_name(name: str) -> str:
    """``name`` in its canonical form (Unicode NFC, so that ``Zoë`` is one name however
    it was typed); raises ``ValueError`` saying why a name is refused."""
    name = unicodedata.normalize("NFC", name)
    problem = name_problem(name)
    if problem is not None:
        raise ValueError(problem)
    return name


def same_name(name: str) -> str:
    """The form a name is stored and looked up in (Unicode NFC)."""
    return unicodedata.normalize("NFC", name)


_UNACCENTED = str.maketrans(
    {
        "ł": "l",
        "đ": "d",
        "ð": "d",
        "ø": "o",
        "ħ": "h",
        "ı": "i",
        "ŧ": "t",
        "þ": "th",
        "æ": "ae",
        "œ": "oe",
    }
)
"""Letters that are a base letter with a stroke or a ligature rather than a letter with
an accent: Unicode does not decompose them, people still type them plainly."""


def name_key(name: str) -> str:
    """The one rule by which two names are the same name: whatever their case, accents
    and Unicode form (``Zoë``, ``ZOË`` and ``zoe``; ``Łukasz`` and ``lukasz``;
    ``Straße`` and ``STRASSE``). Names whose keys are equal cannot both be registered,
    in a league file or in the database, and a name typed is found by its key."""
    folded = unicodedata.normalize("NFKD", name.casefold())
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", plain.translate(_UNACCENTED))


def printable(text: str) -> str:
    """``text`` with control and invisible characters escaped, so it stays one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
