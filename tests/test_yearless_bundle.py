"""A bundle whose every stamp lacks a year (vLLM's `MM-DD HH:MM:SS`, glog's) keeps its order in time.

No year can be told, but the files share month, day and clock: a restarted pod's new log is after
its crash, a failure minutes before a ready line is before it. The times stay in the epoch's first
year and no report prints that year (model/moments.py).
"""

from __future__ import annotations

import calendar
import io
import json
from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Event, Kind, Severity
from pdlogdoctor.model.moments import second_text, year_unknown
from pdlogdoctor.pipeline import analyse, run
from pdlogdoctor.reason.clocks import within
from pdlogdoctor.render import json_format
from pdlogdoctor.render.document import format_time
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions
from pdlogdoctor.scan.timeline import parse_stamp, place_on_timeline

CRASH = "(EngineCore_DP0 pid=183) ERROR 11-04 02:17:17 [core.py:708] EngineCore failed to start."
READY = "(APIServer pid=1) INFO 11-04 02:18:56 [api_server.py:1912] Starting vLLM API server 0 on http://0.0.0.0:20005"


def _event(text: str, source: str, line: int) -> Event:
    stamp = parse_stamp(text)
    assert stamp is not None and not stamp.year_known
    return Event("p", source, line, stamp.seconds, stamp.text, text, (), Severity.INFO, Kind.CONTEXT, False)


def test_year_less_times_with_no_dated_line_keep_their_order() -> None:
    crash, ready = _event(CRASH, "decode-previous.log", 36), _event(READY, "decode.log", 15)
    placed = place_on_timeline([ready, crash])
    assert [e.source for e in placed] == ["decode-previous.log", "decode.log"]
    first, second = placed
    assert first.time is not None and second.time is not None
    assert second.time - first.time == 99  # 02:17:17 -> 02:18:56
    assert year_unknown(first.time)


def test_a_time_of_unknown_year_is_shown_without_one() -> None:
    crash = place_on_timeline([_event(CRASH, "decode.log", 1)])[0]
    assert crash.time is not None
    assert format_time(crash.time) == "--11-04T02:17:17.000Z"
    assert second_text(int(crash.time), " ") == "--11-04 02:17:17"
    assert second_text(1_767_225_600) == "2026-01-01T00:00:00"


def test_a_dated_line_still_gives_the_year(tmp_path: Path, library: Library) -> None:
    dated = "[2026-11-04 02:17:20] Received sigquit from a child process. It usually means the child failed."
    (tmp_path / "decode.log").write_text(f"{CRASH}\n{dated}\n")
    events = analyse([str(tmp_path)], library).events
    crash = next(e for e in events if e.line == 1)
    assert crash.time is not None and not year_unknown(crash.time)
    assert second_text(int(crash.time)) == "2026-11-04T02:17:17"


def test_no_report_prints_the_epochs_year(tmp_path: Path, library: Library) -> None:
    (tmp_path / "decode.log").write_text(CRASH + "\n")
    report = run([str(tmp_path)], library)
    out = io.StringIO()
    json_format.render(report, out)
    chain = json.loads(out.getvalue())["chain"]
    assert [item["time"] for item in chain] == ["--11-04T02:17:17.000Z"]
    markdown = markdown_report(report, RenderOptions(redact=False))
    assert "1970" not in out.getvalue() and "1970" not in markdown


def test_a_window_with_a_year_reads_year_less_times_by_month_day_and_clock() -> None:
    crash = place_on_timeline([_event(CRASH, "decode.log", 1)])[0]
    before, after = calendar.timegm((2026, 11, 4, 2, 0, 0)), calendar.timegm((2026, 11, 4, 3, 0, 0))
    assert within([crash], before, after) == [crash]
    assert within([crash], after, None) == []
    assert within([crash], None, before) == []
