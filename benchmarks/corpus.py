"""Every case of the corpus through the pipeline: verdict, confidence, exit code, chain, fingerprint.

    python -m benchmarks.corpus --out before.json          # a snapshot
    python -m benchmarks.corpus --compare before.json      # what changed since it

The corpus is every directory with an `expected.toml` under `fixtures/` and `tests/data/` (fixture
bundles, real excerpts, blind cases). A change that should keep behaviour is checked against a
snapshot taken before it; a change that should move some verdicts lists exactly which moved.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def cases(roots: list[Path]) -> list[Path]:
    return sorted({path.parent for root in roots for path in root.rglob("expected.toml")})


def snapshot(case_dirs: list[Path]) -> dict[str, dict[str, Any]]:
    from pdlogdoctor.cli.behaviour import exit_code_for
    from pdlogdoctor.library.load import load_library
    from pdlogdoctor.pipeline import run
    from pdlogdoctor.reason.fingerprint import fingerprint

    library = load_library()
    taken: dict[str, dict[str, Any]] = {}
    for case in case_dirs:
        report = run([str(case)], library)
        taken[str(case.relative_to(ROOT))] = {
            "verdict": report.verdict.id,
            "confidence": round(report.verdict.confidence, 2),
            "exit": int(exit_code_for(report)),
            "chain": sorted({event.pattern for event in (*report.roots, *report.chain)}),
            "fingerprint": fingerprint(report),
        }
    return taken


def differences(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> list[str]:
    rows = []
    for case in sorted(before.keys() | after.keys()):
        old, new = before.get(case), after.get(case)
        if old is None or new is None:
            rows.append(f"{case}: {'new case' if old is None else 'case gone'}")
            continue
        changed = [key for key in ("verdict", "exit", "chain", "fingerprint", "confidence") if old[key] != new[key]]
        if changed:
            parts = [f"{key} {old[key]} -> {new[key]}" for key in changed]
            rows.append(f"{case}: " + "; ".join(parts))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write the snapshot here")
    parser.add_argument("--compare", type=Path, help="a snapshot to compare the corpus with")
    parser.add_argument("roots", nargs="*", type=Path, help="corpus roots (default: fixtures/ and tests/data/)")
    args = parser.parse_args(argv)
    roots = args.roots or [ROOT / "fixtures", ROOT / "tests" / "data"]
    taken = snapshot(cases([root.resolve() for root in roots]))
    if args.out:
        args.out.write_text(json.dumps(taken, indent=1, sort_keys=True) + "\n")
    if args.compare:
        rows = differences(json.loads(args.compare.read_text()), taken)
        print("\n".join(rows) if rows else f"no change in {len(taken)} cases")
        return 1 if rows else 0
    print(f"{len(taken)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
