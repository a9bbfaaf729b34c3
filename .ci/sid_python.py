"""Unpack Debian sid's newest CPython into a private root, leaving the machine's own packages alone.

Usage: python3 .ci/sid_python.py ROOT CACHE [VERSION]

Reads sid's Packages index (fetched fresh every run, so an unreachable sid fails here, loudly),
takes python3.X, its -minimal, libpython3.X-stdlib/-minimal and python3-pip-whl (pip as a wheel)
at the version sid lists, and every
shared library they depend on (Depends and Pre-Depends, recursively, libraries only: data packages
such as tzdata or media-types are not needed to run the tests), checks each .deb's SHA256 against
the index and `dpkg -x`es it into ROOT. The .debs are kept in CACHE by SHA256, on this machine
only. Prints the interpreter's path and the root's loader, one per line, for .ci/newest-python.
sid's glibc is newer than bookworm's, so the interpreter runs through ROOT's own loader
(`ld.so --library-path`), never the system's.
"""

from __future__ import annotations

import hashlib
import lzma
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

MIRROR = "http://deb.debian.org/debian"
INDEX = f"{MIRROR}/dists/sid/main/binary-amd64/Packages.xz"
DEFAULT_VERSION = "3.15"
TIMEOUT = 60  # seconds per request: a hung mirror fails the leg instead of eating CI's 10 minutes


def fetch(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            data: bytes = response.read()
    except OSError as exc:  # URLError, a timeout, a reset: the leg cannot run, and says so
        sys.exit(f"cannot fetch {url}: {exc}: the newest-CPython leg needs deb.debian.org (docs/ci.md)")
    return data


def parse_index(text: str) -> dict[str, dict[str, str]]:
    """Package name -> its stanza's fields (Depends etc. as one line each)."""
    packages: dict[str, dict[str, str]] = {}
    for stanza in text.split("\n\n"):
        fields: dict[str, str] = {}
        key = ""
        for line in stanza.splitlines():
            if line[:1] in (" ", "\t") and key:
                fields[key] += " " + line.strip()  # continuation of a multi-line field
            elif ":" in line:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        if "Package" in fields:
            packages[fields["Package"]] = fields
    return packages


def dependencies(fields: dict[str, str]) -> list[str]:
    """The packages a stanza needs: the first alternative of each Depends / Pre-Depends item."""
    names = []
    for field in ("Pre-Depends", "Depends"):
        for item in filter(None, (part.strip() for part in fields.get(field, "").split(","))):
            first = item.split("|")[0]
            names.append(re.split(r"[\s(:]", first.strip(), maxsplit=1)[0])
    return names


def closure(packages: dict[str, dict[str, str]], roots: list[str]) -> list[str]:
    """The roots and every shared library (a `lib*` package) they need, recursively."""
    wanted: list[str] = []
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in wanted:
            continue
        if name not in packages:
            sys.exit(f"sid lists no package {name!r} (needed by the {roots[0]} closure)")
        wanted.append(name)
        todo += [dep for dep in dependencies(packages[name]) if dep.startswith("lib")]
    return sorted(wanted)


def deb(fields: dict[str, str], cache: Path) -> Path:
    """The package's .deb in the cache, downloaded if missing, its SHA256 checked against the index."""
    sha256 = fields["SHA256"]
    path = cache / f"{sha256}.deb"
    if path.exists() and hashlib.sha256(path.read_bytes()).hexdigest() == sha256:
        return path
    data = fetch(f"{MIRROR}/{fields['Filename']}")
    got = hashlib.sha256(data).hexdigest()
    if got != sha256:
        sys.exit(f"{fields['Filename']}: SHA256 {got}, the index says {sha256}")
    path.write_bytes(data)
    return path


def main(argv: list[str]) -> None:
    root, cache = Path(argv[1]), Path(argv[2])
    version = argv[3] if len(argv) > 3 else DEFAULT_VERSION
    packages = parse_index(lzma.decompress(fetch(INDEX)).decode("utf-8"))
    names = closure(
        packages,
        [
            f"python{version}",
            f"python{version}-minimal",
            f"libpython{version}-minimal",
            f"libpython{version}-stdlib",
            "python3-pip-whl",  # pip as a wheel (usr/share/python-wheels), run from the wheel itself
        ],
    )
    cache.mkdir(parents=True, exist_ok=True)
    root.mkdir(parents=True, exist_ok=True)
    total = 0
    for name in names:
        path = deb(packages[name], cache)
        total += path.stat().st_size
        subprocess.run(["dpkg-deb", "-x", str(path), str(root)], check=True)
    listed = ", ".join(f"{name} {packages[name]['Version']}" for name in names)
    print(f"sid: {len(names)} packages, {total / 1e6:.1f} MB: {listed}", file=sys.stderr)
    print(root / "usr" / "bin" / f"python{version}")
    print(next(path for path in sorted(root.glob("usr/lib*/x86_64-linux-gnu/ld-linux-x86-64.so.2"))))


if __name__ == "__main__":
    main(sys.argv)
