"""Club evenings, played by people at real tables: pairing sheets
(:mod:`~c8league.club.sheets`), check-in (:mod:`~c8league.club.checkin`), changes to a
drafted round before it is published (:mod:`~c8league.club.changes`), results entered
by hand (:mod:`~c8league.club.entry`,
read and checked) and corrected with an audit trail (:mod:`~c8league.club.corrections`),
and a person's match against the league's bots (:mod:`~c8league.club.person`).

A round of an event played by people is paired as a draft; the organiser may swap two
entrants or move one to another table, or discard the draft to pair it again (after a
withdrawal or a late entry), and then publishes it. Results can be entered
for the tables of a published round only.
"""

from c8league.club.changes import ChangeResult, move, publish, swap, unpair, unpublish
from c8league.club.checkin import CheckIn, absent, present
from c8league.club.corrections import (
    Change,
    TableInfo,
    add_result,
    audit_trail,
    edit_result,
    table_info,
    void_result,
)
from c8league.club.entry import (
    SCORE_MAX,
    CheckedResult,
    EnteredHand,
    Entry,
    check_result,
    parse_hands,
    parse_names,
    parse_places,
    parse_scores,
)
from c8league.club.person import SeatedMatch, person_match, store_played
from c8league.club.sheets import (
    Sheet,
    SheetTable,
    check_out,
    pairing_sheet,
    sheet_csv,
    sheet_format,
    sheet_html,
)

__all__ = [
    "SCORE_MAX",
    "Change",
    "ChangeResult",
    "CheckIn",
    "CheckedResult",
    "EnteredHand",
    "Entry",
    "SeatedMatch",
    "Sheet",
    "SheetTable",
    "TableInfo",
    "absent",
    "add_result",
    "audit_trail",
    "check_out",
    "check_result",
    "edit_result",
    "move",
    "pairing_sheet",
    "parse_hands",
    "parse_names",
    "parse_places",
    "parse_scores",
    "person_match",
    "present",
    "publish",
    "sheet_csv",
    "sheet_format",
    "sheet_html",
    "store_played",
    "swap",
    "table_info",
    "unpair",
    "unpublish",
    "void_result",
]
