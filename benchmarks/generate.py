"""A deterministic, realistic bundle of a requested size, built around the seed incident.

Every line of fixtures/mori-mr-size-limit-seed is written in order into a file
of the same name, and the gaps between them are filled with the noise a PD
deployment prints all the time: Prefill/Decode batch lines with rank prefixes,
uvicorn health checks and /generate 200s, router request lines. Noise lines
carry the time of the incident line before them, so the timeline is unchanged.
The Prefill/Decode batch lines are the metrics lines the scan reads into time
series (every one of them: they cost the scan their matching); they are context,
never a failure, and no queue in them stays up, so the verdict must not change.
Noise is built from a few random template blocks (fixed seed) whose timestamp is
patched per gap: writing gigabytes stays at disk speed.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

GENERATOR_VERSION = "1"
SEED_FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "mori-mr-size-limit-seed"
SHARES = {"decode": 0.42, "prefill": 0.33, "router": 0.25}  # of the requested size; bench.log stays as is
BLOCK_BYTES = 64 << 10
BLOCKS_PER_KIND = 8
TS_HOLE = b"\x00TS\x00"
_STAMP = re.compile(rb"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
RANKS = [f"DP0 TP{i} EP0" for i in range(8)]


def parse_size(text: str) -> int:
    """`100M`, `1G`, `4G`, `3000000`: decimal units (1G = 10**9 bytes)."""
    units = {"K": 10**3, "M": 10**6, "G": 10**9}
    text = text.strip().upper().removesuffix("B")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def _server_line(rng: random.Random, role: str) -> str:
    rank = rng.choice(RANKS)
    if role == "prefill":
        n = rng.randint(1, 9000)
        msg = (
            f"Prefill batch. #new-seq: {rng.randint(1, 4)}, #new-token: {n}, #cached-token: {rng.randint(0, n)}, "
            f"token usage: {rng.random() * 0.05:.2f}, #running-req: {rng.randint(0, 3)}, "
            f"#queue-req: {rng.randint(0, 9)}"
        )
    else:
        msg = (
            f"Decode batch. #running-req: {rng.randint(1, 256)}, #token: {rng.randint(100, 900000)}, "
            f"token usage: {rng.random() * 0.8:.2f}, cuda graph: True, "
            f"gen throughput (token/s): {rng.uniform(50, 24000):.2f}, #queue-req: {rng.randint(0, 9)}"
        )
    roll = rng.random()
    if roll < 0.08:
        return f'[TS] INFO:     127.0.0.1:{rng.randint(30000, 60000)} - "GET /health HTTP/1.1" 200 OK'
    if roll < 0.16:
        return f'[TS] INFO:     10.24.3.9:{rng.randint(30000, 60000)} - "POST /generate HTTP/1.1" 200 OK'
    return f"[TS {rank}] {msg}"


def _router_line(rng: random.Random) -> str:
    rid = f"{rng.getrandbits(128):032x}"
    uri = rng.choice(["/health", "/health", "/generate", "/v1/chat/completions"])
    method = "GET" if uri == "/health" else "POST"
    head = f'TS  INFO http_request{{method={method} uri={uri} version=HTTP/1.1 module="smg" request_id="{rid}"'
    if rng.random() < 0.5:
        return head + "}: smg::request: src/middleware.rs:310: started processing request"
    tail = "smg::response: src/middleware.rs:340: finished processing request"
    return head + f" status_code=200 latency={rng.randint(300, 400000)}}}: {tail}"


def noise_blocks(kind: str, seed: int) -> list[bytes]:
    rng = random.Random(f"{seed}:{kind}")
    blocks = []
    for _ in range(BLOCKS_PER_KIND):
        lines: list[str] = []
        size = 0
        while size < BLOCK_BYTES:
            line = _router_line(rng) if kind == "router" else _server_line(rng, kind)
            lines.append(line)
            size += len(line) + 1
        blocks.append(("\n".join(lines) + "\n").encode().replace(b"TS", TS_HOLE))
    return blocks


def _fill(out: list[bytes], blocks: list[bytes], stamp: bytes, need: int, turn: int) -> int:
    """Append about `need` bytes of whole noise lines stamped `stamp`; return bytes written."""
    written = 0
    while written < need:
        block = blocks[turn % len(blocks)].replace(TS_HOLE, stamp)
        turn += 1
        if written + len(block) > need:
            block = block[: block.rfind(b"\n", 0, max(1, need - written)) + 1]
            if not block:
                break
        out.append(block)
        written += len(block)
    return written


def _kind(name: str) -> str | None:
    return next((kind for kind in SHARES if name.startswith(kind)), None)


def write_file(src: Path, dst: Path, target: int, seed: int) -> int:
    """Write `src`'s lines with noise between them to reach about `target` bytes."""
    kind = _kind(src.name)
    data = src.read_bytes()
    if kind is None or target <= len(data):
        dst.write_bytes(data)
        return len(data)
    blocks = noise_blocks(kind, seed)
    lines = data.splitlines(keepends=True)
    per_gap = (target - len(data)) // len(lines)
    first = _STAMP.search(data)
    stamp = first.group(0) if first else b"2026-07-02 10:00:00"
    noise = 0
    with dst.open("wb") as handle:
        for number, line in enumerate(lines):
            out: list[bytes] = []
            # Aim at the running target, so what one gap falls short is made up in the next.
            noise += _fill(out, blocks, stamp, (number + 1) * per_gap - noise, number)
            handle.write(b"".join(out))
            handle.write(line)
            found = _STAMP.search(line)
            stamp = found.group(0) if found else stamp
    return noise + len(data)


def generate(directory: Path, size: int, seed: int = 0, fixture: Path = SEED_FIXTURE) -> Path:
    """The bundle in `directory/bundle`, reused when a complete one of the same size exists."""
    bundle = directory / "bundle"
    marker = directory / "complete"
    label = f"{GENERATOR_VERSION} size={size} seed={seed} fixture={fixture.name}\n"
    if marker.exists() and marker.read_text() == label:
        return bundle
    if bundle.exists():
        shutil.rmtree(bundle)
    bundle.mkdir(parents=True)
    marker.unlink(missing_ok=True)
    for src in sorted(fixture.glob("*.log")):
        kind = _kind(src.name)
        write_file(src, bundle / src.name, int(size * SHARES[kind]) if kind else 0, seed)
    marker.write_text(label)
    return bundle
