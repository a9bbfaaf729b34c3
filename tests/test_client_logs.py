"""A client's or load generator's log quotes the servers' errors it got back: its name says its role.

A load generator's JSON lines hold the decode's error body (`Decode transfer failed for request ...`)
inside each failed request's record; those quoted messages voted the file a decode log, and a JSON-lines
file's commas made it a table set aside. A file named as a harness's (`loadgen`, `client`, `bench`) is
the harness's, whatever it quotes; one named after nothing keeps the vote of its own messages.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Role
from pdlogdoctor.pipeline import run

FAILED = (
    'Internal Server Error: {"error":{"type":"Internal Server Error","code":"decode_internal_error",'
    '"message":"Decode transfer failed for request rank=0 decode_req.req.rid=\'9116a4a7bd7975e0765b\' '
    'decode_req.req.bootstrap_room=616641653096138722 with exception KVTransferError"}}'
)


def _records() -> list[str]:
    ok = {"ts": "2026-04-21T14:12:31.492+08:00", "req": 897, "status": 200, "latency_s": 2.998}
    bad = {"ts": "2026-04-21T14:12:31.222+08:00", "req": 303, "status": 500, "latency_s": 300.306, "error": FAILED}
    return [json.dumps(ok), json.dumps(bad), json.dumps({**ok, "req": 900}), json.dumps({**bad, "req": 304})]


@pytest.mark.parametrize("name", ["loadgen.jsonl", "client.log", "bench_client.txt"])
def test_a_harness_named_file_is_the_harness_whatever_it_quotes(tmp_path: Path, library: Library, name: str) -> None:
    (tmp_path / name).write_text("\n".join(_records()) + "\n")
    report = run([str(tmp_path)], library)
    (source,) = report.inputs
    assert source.role is Role.HARNESS
    assert not source.problems  # read as a log: JSON lines are no table


def test_an_unnamed_file_keeps_the_vote_of_its_messages(tmp_path: Path, library: Library) -> None:
    line = (
        "[2026-05-19 11:08:06 TP0] Decode transfer failed for request rank=0 "
        "decode_req.req.rid='8540051d74e5221a72a1c057397706bb' decode_req.req.bootstrap_room=616641653096138722 "
        "with exception KVTransferError(bootstrap_room=616641653096138722): "
        "Failed to get kvcache from prefill instance, it might be dead"
    )
    (tmp_path / "pod-7f9c.txt").write_text(line + "\n")
    (source,) = run([str(tmp_path)], library).inputs
    assert source.role is Role.DECODE
