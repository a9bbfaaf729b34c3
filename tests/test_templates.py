"""The templater: Drain's semantics, the shapes of messages that defeated it, the masks as data,
and `pdlogdoctor templates`.

The message lines of the failure shapes are real: Loghub's 2k samples (github.com/logpai/loghub,
`<System>/<System>_2k.log_structured.csv`, the `Content` column; the line id is given beside each).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path

from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.library.templates import Mask, Miner, check_masks, fits, message_of, mine, template_of

runner = CliRunner()


def _groups(library: Library, lines: list[str]) -> list[tuple[str, list[str]]]:
    """The lines grouped as the report and `pdlogdoctor templates` group them."""
    assert library.errors is not None
    masks = library.errors.masks
    return mine(lines, lambda line: template_of(message_of(line), masks))


# ---------------------------------------------------------------- Drain's semantics


def test_a_message_joins_the_template_it_is_most_like_not_the_first_above_the_threshold() -> None:
    # A and B share 9 of 20 tokens (below the threshold: two templates); L equals A in 14 tokens
    # and B in 15. First fit put L with A, the older; best fit puts it with B.
    common = [f"k{i}" for i in range(9)]
    a = [*common, *(f"a{i}" for i in range(11))]
    b = [*common, *(f"b{i}" for i in range(11))]
    line = [*common, *a[9:14], *b[14:]]
    miner: Miner[int] = Miner(similarity=0.7)
    for index, tokens in enumerate((a, b, line)):
        miner.add(" ".join(tokens), index)
    first, second = miner.drained()
    assert first == " ".join(a)  # untouched: L did not join it
    assert second == " ".join([*common, *["<*>"] * 5, *b[14:]])


def test_a_wildcard_left_by_a_merge_does_not_count_as_likeness() -> None:
    # The code review's three lines (shared/reviews/code-review.md, 5.3): line 3 shares 5 of 10
    # words with the template of lines 1 and 2; counting its 3 wildcards as equal made it 8 of 10.
    miner: Miner[int] = Miner(similarity=0.7)
    for index, line in enumerate(["a b c d e f g h i j", "a X c d e Y g h Z j", "a Q c P e R g S T j"]):
        miner.add(line, index)
    assert miner.drained() == ["a <*> c d e <*> g h <*> j", "a Q c P e R g S T j"]


# ---------------------------------------------------------------- the shapes that defeated it


def test_a_message_whose_length_varies_with_its_values_is_one_template(library: Library) -> None:
    # Proxifier 4, 8, 11, 14: the size is restated in KB past 1 KB, the lifetime is `<1 sec` or mm:ss.
    closes = [
        "proxy.cse.cuhk.edu.hk:5070 close, 0 bytes sent, 0 bytes received, lifetime 00:01",
        "proxy.cse.cuhk.edu.hk:5070 close, 403 bytes sent, 426 bytes received, lifetime <1 sec",
        "proxy.cse.cuhk.edu.hk:5070 close, 451 bytes sent, 18846 bytes (18.4 KB) received, lifetime <1 sec",
        "proxy.cse.cuhk.edu.hk:5070 close, 1190 bytes (1.16 KB) sent, 1671 bytes (1.63 KB) received, lifetime 00:02",
    ]
    # Proxifier 1 and 384: the other event of the same connections (a look-alike host and port).
    opens = [
        "proxy.cse.cuhk.edu.hk:5070 open through proxy proxy.cse.cuhk.edu.hk:5070 HTTPS",
        "182.254.114.110:80 open through proxy proxy.cse.cuhk.edu.hk:5070 HTTPS",
    ]
    groups = _groups(library, [*closes, *opens])
    assert [members for _, members in groups] == [closes, opens]
    assert library.errors is not None
    masked = [template_of(line, library.errors.masks) for line in [*closes, *opens]]
    assert [fits(groups[0][0], line) for line in masked] == [True] * 4 + [False] * 2  # what a count is read back by


def test_a_word_that_takes_a_few_forms_is_the_kind_of_event_not_a_value(library: Library) -> None:
    # OpenStack 7, 8, 23, 92, 93, 113: three lifecycle events of two instances.
    started = [
        "[instance: b9000564-fe1a-409b-b8cc-1e88b294cd1d] VM Started (Lifecycle Event)",
        "[instance: 96abccce-8d1f-4e07-b6d1-4b2ab87e23b4] VM Started (Lifecycle Event)",
    ]
    paused = [
        "[instance: b9000564-fe1a-409b-b8cc-1e88b294cd1d] VM Paused (Lifecycle Event)",
        "[instance: 96abccce-8d1f-4e07-b6d1-4b2ab87e23b4] VM Paused (Lifecycle Event)",
    ]
    resumed = [
        "[instance: b9000564-fe1a-409b-b8cc-1e88b294cd1d] VM Resumed (Lifecycle Event)",
        "[instance: 96abccce-8d1f-4e07-b6d1-4b2ab87e23b4] VM Resumed (Lifecycle Event)",
    ]
    # Proxifier 1 and 225: the same connection event through an HTTPS and a SOCKS5 proxy.
    https = "proxy.cse.cuhk.edu.hk:5070 open through proxy proxy.cse.cuhk.edu.hk:5070 HTTPS"
    socks = "183.62.156.108:22 open through proxy socks.cse.cuhk.edu.hk:5070 SOCKS5"
    lines = [started[0], paused[0], resumed[0], started[1], paused[1], resumed[1], https, socks]
    groups = _groups(library, lines)
    assert sorted(members for _, members in groups) == sorted([started, paused, resumed, [https], [socks]])


def test_a_quoted_request_line_keeps_its_method(library: Library) -> None:
    # OpenStack 1, 2, 22, 61: the quoted request is a phrase, not one value: GET and POST stay apart.
    gets = [
        '10.11.10.1 "GET /v2/54fadb412c4e40cdbaed9335e4c35a9e/servers/detail HTTP/1.1" status: 200 len: 1893 '
        "time: 0.2477829",
        '10.11.10.1 "GET /v2/54fadb412c4e40cdbaed9335e4c35a9e/servers/detail HTTP/1.1" status: 200 len: 1893 '
        "time: 0.2577181",
    ]
    posts = [
        '10.11.10.1 "POST /v2/e9746973ac574c6b8a9e8857f56a7608/os-server-external-events HTTP/1.1" status: 200 '
        "len: 380 time: 0.0913219",
        '10.11.10.1 "POST /v2/e9746973ac574c6b8a9e8857f56a7608/os-server-external-events HTTP/1.1" status: 404 '
        "len: 296 time: 0.0793190",
    ]
    groups = _groups(library, [gets[0], posts[0], gets[1], posts[1]])
    assert [members for _, members in groups] == [gets, posts]


def test_a_first_word_that_takes_many_forms_is_a_value(library: Library) -> None:
    # Mac 16, 19, 30, 60, 106: five jobs' names lead the same message.
    jobs = [
        "com.apple.icloud.fmfd.heartbeat",
        "com.apple.Safari.SafeBrowsing.Update",
        "com.apple.EscrowSecurityAlert.daily",
        "com.apple.CacheDelete.daily",
        "com.apple.suggestions.harvest",
    ]
    seconds = [439034, 2450, 13090, 12119, 16227]
    lines = [
        f"{job}: scheduler_evaluate_activity told me to run this job; however, but the start time isn't for "
        f"{wait} seconds.  Ignoring."
        for job, wait in zip(jobs, seconds, strict=True)
    ]
    # Linux: the same words after a first word that names the event's subject: two kinds, apart.
    services = ["syslogd startup succeeded", "klogd startup succeeded"]
    groups = _groups(library, [*lines, *services])
    assert [members for _, members in groups] == [lines, services[:1], services[1:]]
    assert groups[0][0].startswith("<*>: scheduler_evaluate_activity told me to run this job;")


def test_a_value_inside_a_token_is_masked_and_the_key_kept(library: Library) -> None:
    # OpenSSH 5 and 12: rhost= an address or a host name; Linux 83 and 94: ctime dates, reverse names.
    rhost = [
        "pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost=173.234.31.186",
        "pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= "
        "rhost=ec2-52-80-34-196.cn-north-1.compute.amazonaws.com.cn",
    ]
    connections = [
        "connection from 24.54.76.216 (24-54-76-216.bflony.adelphia.net) at Fri Jun 17 07:07:00 2005",
        "connection from 82.252.162.81 (lns-vlq-45-tou-82-252-162-81.adsl.proxad.net) at Fri Jun 17 20:55:06 2005",
    ]
    # Windows 24 and 25: a session id of two numbers joined by an underscore.
    sessions = [
        "Session: 30546173_4261722401 initialized by client WindowsUpdateAgent.",
        "Session: 30546173_4262462443 initialized by client WindowsUpdateAgent.",
    ]
    groups = _groups(library, [*rhost, *connections, *sessions])
    assert [members for _, members in groups] == [rhost, connections, sessions]
    assert groups[0][0].endswith("ruser= rhost=<*>")
    assert groups[1][0] == "connection from <ip> (<host>) at <date>"


# ---------------------------------------------------------------- the masks as data


def test_the_shipped_masks_pass_their_own_examples(library: Library) -> None:
    assert library.errors is not None and len(library.errors.masks) >= 10
    assert check_masks(library.errors.masks) == []


def test_a_mask_that_takes_a_word_or_misses_a_value_is_reported(library: Library) -> None:
    assert library.errors is not None
    number = next(mask for mask in library.errors.masks if mask.name == "num")
    broken: list[Mask] = [replace(number, no_match=("port 42",)), replace(number, match=("42 ms",))]
    problems = check_masks(broken)
    assert len(problems) == 2
    assert "no_match example is masked: 'port 42'" in problems[0]
    assert "not one whole value: '42 ms'" in problems[1]


# ---------------------------------------------------------------- bounded memory


def test_past_its_budget_the_miner_counts_lines_without_keeping_them() -> None:
    miner: Miner[int] = Miner(keep_total=3)
    for index in range(10):
        miner.add("worker <num> stopped after step <num>", index)
    (group,) = miner.groups()
    assert group.count == 10 and group.members == [0, 1, 2] and miner.cut


# ---------------------------------------------------------------- the command


def _invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["templates", *args])
    return result.exit_code, result.stdout, result.stderr


def test_templates_of_a_directory_most_frequent_first_with_every_line(tmp_path: Path) -> None:
    # SGLang's prefix (time, TP rank) is stripped as the report strips it: the ranks are one template.
    (tmp_path / "prefill.log").write_text(
        "[2026-02-26 05:35:08 TP0] Load weight end. elapsed=887.93 s, avail mem=194.04 GB\n"
        "[2026-02-26 05:35:09 TP1] Load weight end. elapsed=880.12 s, avail mem=193.10 GB\n"
        "[2026-02-26 05:36:00 TP0] KV Cache is allocated. #tokens: 1048576\n"
    )
    with gzip.open(tmp_path / "decode.log.gz", "wt") as handle:
        handle.write("\n[2026-02-26 05:35:10 TP0] Load weight end. elapsed=901.00 s, avail mem=190.00 GB\n")
    code, out, _ = _invoke("--format", "json", str(tmp_path))
    assert code == 0
    templates = json.loads(out)["templates"]
    assert [t["count"] for t in templates] == [3, 1]
    load, kv = templates
    assert load["template"].startswith("Load weight end.")
    assert load["first"] == {"file": str(tmp_path / "decode.log.gz"), "line": 2}
    assert {(Path(x["file"]).name, x["line"]) for x in load["lines"]} == {
        ("decode.log.gz", 2), ("prefill.log", 1), ("prefill.log", 2)
    }  # fmt: skip
    assert kv["lines"] == [{"file": str(tmp_path / "prefill.log"), "line": 3}]

    code, out, _ = _invoke("--min-count", "2", str(tmp_path))
    assert code == 0 and len(out.splitlines()) == 1
    count, first, template = out.split(maxsplit=2)
    assert (count, first) == ("3", f"{tmp_path / 'decode.log.gz'}:2") and template.startswith("Load weight end.")


def test_errors_keeps_the_error_lines_no_pattern_names(tmp_path: Path) -> None:
    # glog's E lines (Mooncake's transfer engine; the line of tests/test_open_world.py), on two
    # ranks' files; an INFO line beside them; and a line a library pattern names (MORI's
    # registration failure: patterns/mori/) which the report explains, so it is no template here.
    etcd = (
        "E20260521 08:44:1{n}.320911   412 transfer_metadata.cpp:74] Error from etcd client, "
        "etcd uri: 192.168.30.5:2379 error: 14 message: connections to all backends failing"
    )
    mori = (
        "[2026-07-02 10:16:03.412] [48211] [application] [error] RegisterRdmaMemoryRegion failed! "
        "addr:0x7f2a80000000, size:6002442240, accessFlag:15, errno:22 (Invalid argument)"
    )
    (tmp_path / "prefill_0.log").write_text(f"{etcd.format(n=6)}\nI20260521 08:44:16.1 412 x.cpp:1] ok\n{mori}\n")
    (tmp_path / "prefill_1.log").write_text(f"{etcd.format(n=7)}\n")
    code, out, _ = _invoke("--errors", "--format", "json", str(tmp_path))
    assert code == 0
    (only,) = json.loads(out)["templates"]
    assert only["count"] == 2 and "Error from etcd client" in only["template"]
    code, out, _ = _invoke("--format", "json", str(tmp_path))
    assert len(json.loads(out)["templates"]) == 3  # every line has a template without --errors


def test_templates_reads_standard_input() -> None:
    result = runner.invoke(app, ["templates", "-"], input="worker 1 stopped\nworker 2 stopped\n")
    assert result.exit_code == 0 and result.stdout.split(maxsplit=2) == ["2", "<stdin>:1", "worker <num> stopped\n"]


def test_an_unknown_format_is_a_usage_error() -> None:
    code, _, err = _invoke("--format", "yaml", "x.log")
    assert code == 2 and "choose one of: text, json" in err
