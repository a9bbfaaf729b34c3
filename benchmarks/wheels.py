"""Does `pip install pdlogdoctor[EXTRAS]` resolve to wheels only, on every platform we name?

    .venv/bin/python -m benchmarks.wheels [--extra fast] [--python 3.11]

For each target platform, the requirements of pyproject.toml are filtered by their
environment markers as that platform would evaluate them (pip download --platform
evaluates markers for the machine it runs on, so the filtering is done here), then
`pip download --only-binary=:all: --platform ...` must find a wheel for each of them
and their dependencies. Prints one line per target and which anchor matcher it gets.
Needs network access to the package index; exits 1 if any target fails.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


@dataclass(frozen=True)
class Target:
    name: str
    tags: tuple[str, ...]  # wheel platform tags such a machine accepts (pip does not widen manylinux)
    sys_platform: str
    platform_machine: str

    def environment(self, extra: str) -> dict[str, str]:
        system = {"linux": "Linux", "darwin": "Darwin", "win32": "Windows"}[self.sys_platform]
        return {
            "sys_platform": self.sys_platform,
            "platform_system": system,
            "platform_machine": self.platform_machine,
            "os_name": "nt" if self.sys_platform == "win32" else "posix",
            "extra": extra,
        }


TARGETS = (
    Target("linux x86_64 glibc 2.17", ("manylinux2014_x86_64",), "linux", "x86_64"),
    Target("linux x86_64 glibc 2.28", ("manylinux_2_28_x86_64", "manylinux2014_x86_64"), "linux", "x86_64"),
    Target("linux aarch64 glibc 2.17", ("manylinux2014_aarch64",), "linux", "aarch64"),
    Target("linux aarch64 glibc 2.28", ("manylinux_2_28_aarch64", "manylinux2014_aarch64"), "linux", "aarch64"),
    Target("macOS x86_64", ("macosx_11_0_x86_64",), "darwin", "x86_64"),
    Target("macOS arm64", ("macosx_11_0_arm64",), "darwin", "arm64"),
    Target("Windows AMD64", ("win_amd64",), "win32", "AMD64"),
    Target("Windows arm64", ("win_arm64",), "win32", "ARM64"),
)
MATCHER_PACKAGES = (("hyperscan", "hyperscan"), ("ahocorasick-rs", "ahocorasick"))


def requirements(extras: list[str], target: Target) -> list[Requirement]:
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    wanted = [(Requirement(text), "") for text in project["dependencies"]]
    for extra in extras:
        wanted += [(Requirement(text), extra) for text in project["optional-dependencies"][extra]]
    return [req for req, extra in wanted if req.marker is None or req.marker.evaluate(target.environment(extra))]


def check(target: Target, extras: list[str], python: str) -> tuple[bool, str, str]:
    reqs = requirements(extras, target)
    names = {req.name for req in reqs}
    matcher = next((label for package, label in MATCHER_PACKAGES if package in names), "pure")
    platforms = [arg for tag in target.tags for arg in ("--platform", tag)]
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:", *platforms]
        command += ["--python-version", python, "--dest", folder, *(str(req) for req in reqs)]
        done = subprocess.run(command, capture_output=True, text=True)
        wheels = sorted(path.name for path in Path(folder).glob("*.whl"))
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if "ERROR" in line]
        return False, matcher, lines[0] if lines else done.stderr.strip()[-200:]
    return True, matcher, f"{len(wheels)} wheels"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--extra", action="append", default=[], help="an extra to include (repeatable)")
    parser.add_argument("--python", default="3.11")
    args = parser.parse_args(argv)
    label = f"pdlogdoctor[{','.join(args.extra)}]" if args.extra else "pdlogdoctor"
    failed = 0
    for target in TARGETS:
        ok, matcher, detail = check(target, args.extra, args.python)
        failed += not ok
        print(f"{label:24} {target.name:26} {'wheels only' if ok else 'FAILS':12} matcher {matcher:12} {detail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
