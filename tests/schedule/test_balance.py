from c8league.schedule import Round, balance_report


def test_tallies_of_a_small_schedule() -> None:
    schedule = [
        Round((("a", "b", "c"), ("d", "e")), ("f",)),
        Round((("c", "a", "f"), ("b", "d")), ("e",)),
    ]
    report = balance_report(schedule, ["a", "b", "c", "d", "e", "f"])
    assert report.rounds == 2
    assert report.meetings("a", "c") == report.meetings("c", "a") == 2
    assert report.meetings("a", "d") == 0
    assert report.pair_count == 15
    assert report.min_pair_meetings == 0
    assert report.max_pair_meetings == 2
    assert report.repeat_meetings == 1
    assert report.seat_counts["a"] == (1, 1, 0)
    assert report.seat_counts["c"] == (1, 0, 1)
    assert report.bye_counts == {"a": 0, "b": 0, "c": 0, "d": 0, "e": 1, "f": 1}
    assert report.short_table_counts["d"] == 2
    assert report.short_table_counts["a"] == 0
    assert report.games["f"] == 1
    # a plays before b and c plays before a in round 1; f before c in round 2
    assert report.before_counts[("a", "b")] == 1
    assert report.before_counts[("c", "a")] == 2
    assert report.max_before == 2
    assert report.common_seats == 2
    assert report.max_seat_imbalance == 1


def test_rows_and_summary() -> None:
    schedule = [Round(((1, 2), (3, 4))), Round(((2, 3), (4, 1)))]
    report = balance_report(schedule)
    rows = report.rows()
    header = ("entrant", "games", "byes", "short", "opponents", "most_meetings", "seat1", "seat2")
    assert rows[0] == header
    assert rows[1] == ("1", "2", "0", "0", "2", "1", "1", "1")
    assert len(rows) == 5
    assert all(len(r) == len(rows[0]) for r in rows)
    summary = dict(report.summary_rows())
    assert summary["repeat meetings"] == "0"
    assert summary["max pair meetings"] == "1"
    assert summary["pairs that met"] == "4"


def test_every_pair_met() -> None:
    schedule = [Round((("a", "b", "c"),))] * 2
    report = balance_report(schedule)
    assert report.min_pair_meetings == report.max_pair_meetings == 2
    assert report.repeat_meetings == 3


def test_empty_schedule() -> None:
    report = balance_report([], ["x", "y"])
    assert report.max_pair_meetings == 0
    assert report.min_pair_meetings == 0
    assert report.max_seat_imbalance == 0
    assert report.rows()[1][0] == "x"
