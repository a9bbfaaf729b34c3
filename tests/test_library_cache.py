"""The parsed library kept between runs (library_cache.py): the same library as from the files, never a
stale one, and no harm from a cache that is missing, corrupt, foreign or cannot be written."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pdlogdoctor.library import cache as library_cache
from pdlogdoctor.library.cache import CODE, KEEP, user_cache_dir
from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.scan.index import PLAN, AnchorIndex, AnchorPlan, make_plan

from .test_user_patterns import good, write_pattern


def _stored(cache: Path) -> list[Path]:
    return sorted(cache.glob("library-*.pickle"))


def _from_cache(library: Library) -> bool:
    """A library read back from the cache has compiled none of its regexes yet."""
    return all(pattern.regex._compiled is None for pattern in library.patterns)


def test_the_cached_library_is_the_library_and_compiles_regexes_on_first_use(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    fresh = load_library(cache=cache)
    assert len(_stored(cache)) == 1 and not _from_cache(fresh)
    again = load_library(cache=cache)
    assert _from_cache(again)
    assert again == fresh == load_library()
    assert again.errors is not None and again.errors == fresh.errors
    pattern = again.patterns[0]
    assert pattern.regex.search(pattern.examples.match[0]) is not None  # compiled now, from its source
    assert pattern.regex._compiled is not None


def test_what_is_derived_with_the_library_is_kept_with_it_and_the_same_as_made_afresh(tmp_path: Path) -> None:
    """The scan's anchor plan is made as the library is read (load_library's `derive`) and kept in
    the cache with it: a run that finds the library cached builds its index from the kept plan, and
    that index is the one a plan made now gives, but for the matcher it builds at run time."""
    cache = tmp_path / "cache"
    load_library(cache=cache, derive={PLAN: make_plan})
    kept = load_library(cache=cache)  # no deriving asked: what is in the cache is what was stored
    assert _from_cache(kept) and isinstance(kept.derived.get(PLAN), AnchorPlan)
    fresh = make_plan(load_library())
    assert kept.derived[PLAN] == fresh and kept.derived[PLAN].stop_afters == fresh.stop_afters
    assert len(fresh.by_anchor) > 500 and fresh.sampled and fresh.generic  # a plan of the whole library
    built = AnchorIndex.build(kept, matcher="pure")
    assert built.by_anchor == fresh.by_anchor and built.slots == fresh.slots and built.numbers == fresh.numbers
    assert AnchorIndex.build(load_library(), matcher="pure") == built


def test_the_cache_holds_regex_sources_not_compiled_regexes(tmp_path: Path) -> None:
    """A compiled regex would be compiled again while unpickling: every regex of the library is a LazyRegex."""
    load_library(cache=tmp_path)
    modules: set[str] = set()

    class Recorder(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            modules.add(module)
            return super().find_class(module, name)

    with _stored(tmp_path)[0].open("rb") as handle:
        Recorder(handle).load()
    assert "pdlogdoctor.library.lazyregex" in modules
    assert not [module for module in modules if module.split(".")[0] == "regex"]


def test_an_edited_pattern_file_is_read_again(tmp_path: Path) -> None:
    cache, mine = tmp_path / "cache", tmp_path / "mine"
    path = write_pattern(mine, "user-thing", good())
    assert load_library([mine], cache).pattern("user-thing").title == "a user pattern"
    path.write_text(good().replace('title = "a user pattern"', 'title = "renamed"'))
    edited = load_library([mine], cache)
    assert edited.pattern("user-thing").title == "renamed" and not _from_cache(edited)
    assert len(_stored(cache)) == 2  # the old one stays for a while: another project may use it
    assert load_library(cache=cache).patterns == load_library().patterns  # without the user's directory


def test_a_settled_file_is_keyed_by_what_stat_says_and_an_edit_still_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files changed more than RACY_SECONDS ago are not read for the key (every run read ~140); an
    edit that keeps the size and puts the modification time back changes the inode's change time,
    which nobody can set back: the key changes."""
    mine = tmp_path / "mine"
    path = write_pattern(mine, "user-thing", good())
    monkeypatch.setattr(library_cache, "RACY_SECONDS", 0)  # every file counts as settled
    if not library_cache.CHANGE_TIME_KNOWN:
        pytest.skip("st_ctime is the creation time here: content is always in the key")
    before = library_cache._key([path])

    def unread(self: Path) -> bytes:
        raise AssertionError(f"{self} read for the key")

    with monkeypatch.context() as reading:
        reading.setattr(Path, "read_bytes", unread)
        assert library_cache._key([path]) == before
    times = path.stat()
    path.write_text(good().replace("a user pattern", "a user pattErn"))  # the same size
    os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert path.stat().st_size == times.st_size and path.stat().st_mtime_ns == times.st_mtime_ns
    assert library_cache._key([path]) != before


def test_a_file_changed_within_a_clock_tick_is_keyed_by_its_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a file system whose clock ticks every 2 s, two edits of the same size within one tick keep
    every time stat shows: a recently changed file's content is in the key."""
    path = write_pattern(tmp_path / "mine", "user-thing", good())
    frozen = path.stat()
    real_stat = Path.stat

    def coarse(self: Path, **kwargs: Any) -> os.stat_result:
        return frozen if self == path else real_stat(self, **kwargs)

    monkeypatch.setattr(Path, "stat", coarse)
    before = library_cache._key([path])
    path.write_text(good().replace("a user pattern", "a user pattErn"))
    assert library_cache._key([path]) != before


def test_the_same_files_at_another_path_are_another_library(tmp_path: Path) -> None:
    """Pattern paths are in the library (its messages name them): a copy elsewhere is not served from the cache."""
    cache = tmp_path / "cache"
    for name in ("a", "b"):
        write_pattern(tmp_path / name, "user-thing", good())
        assert load_library([tmp_path / name], cache).pattern("user-thing").path == str(
            tmp_path / name / "user-thing.toml"
        )
    assert len(_stored(cache)) == 2


def test_a_broken_user_pattern_is_reported_and_nothing_is_stored(tmp_path: Path) -> None:
    from pdlogdoctor.model.errors import PatternError

    cache, mine = tmp_path / "cache", tmp_path / "mine"
    write_pattern(mine, "user-thing", good().replace("regex = '''USERANCHOR'''", "regex = '''(unclosed'''"))
    with pytest.raises(PatternError, match="does not compile"):
        load_library([mine], cache)
    assert _stored(cache) == []


@pytest.mark.parametrize("damage", [b"", b"not a pickle", b"\x80\x05garbage"])
def test_a_corrupt_cache_file_is_ignored_and_replaced(tmp_path: Path, damage: bytes) -> None:
    cache = tmp_path / "cache"
    load_library(cache=cache)
    (stored,) = _stored(cache)
    stored.write_bytes(damage)
    library = load_library(cache=cache)
    assert not _from_cache(library) and library == load_library()
    assert _from_cache(load_library(cache=cache))  # written whole again


def test_a_file_others_may_write_is_not_unpickled(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    load_library(cache=cache)
    (stored,) = _stored(cache)
    stored.chmod(0o666)
    assert not _from_cache(load_library(cache=cache))


def test_a_cache_that_cannot_be_written_is_left_alone(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    library = load_library(cache=blocker / "cache")
    assert library == load_library() and blocker.read_text() == "not a directory"


def test_a_missing_home_is_not_made(tmp_path: Path) -> None:
    """HOME=/nonexistent (a service account): the cache would be /nonexistent/.cache/pdlogdoctor."""
    cache = tmp_path / "nonexistent" / ".cache" / "pdlogdoctor"
    assert load_library(cache=cache) == load_library()
    assert not (tmp_path / "nonexistent").exists()
    (tmp_path / "nonexistent").mkdir()
    load_library(cache=cache)
    assert len(_stored(cache)) == 1  # a home that exists gets its .cache made


def test_only_the_newest_libraries_are_kept(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    for index in range(KEEP + 2):
        write_pattern(tmp_path / "mine", "user-thing", good().replace("a user pattern", f"version {index}"))
        load_library([tmp_path / "mine"], cache)
        newest = max(_stored(cache), key=lambda p: p.stat().st_mtime_ns)
        os.utime(newest, ns=(index * 10**9, index * 10**9))  # file times: one a second, whatever the clock's grain
    assert len(_stored(cache)) == KEEP
    assert not list(cache.glob("*.tmp"))


def test_the_key_covers_every_module_that_reads_the_library() -> None:
    """Editing the code that reads pattern files must change the key: each module `load_library` runs."""
    probe = (
        "import json, sys, pdlogdoctor.library.load, pdlogdoctor.library.cache; print(json.dumps(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    ours = {name.removeprefix("pdlogdoctor.") for name in json.loads(done.stdout) if name.startswith("pdlogdoctor.")}
    assert ours <= set(CODE), f"add {sorted(ours - set(CODE))} to library_cache.CODE"


def test_the_user_cache_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if sys.platform in ("win32", "darwin"):
        pytest.skip("XDG_CACHE_HOME is the Linux and BSD convention")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert user_cache_dir() == tmp_path / "pdlogdoctor"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")  # the spec says: ignore a relative path
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_cache_dir() == tmp_path / "home" / ".cache" / "pdlogdoctor"


def test_no_home_means_no_cache_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", no_home)
    assert user_cache_dir() is None
    assert load_library(cache=user_cache_dir()) == load_library()


def test_the_command_uses_the_cache_and_can_be_told_not_to(tmp_path: Path) -> None:
    (tmp_path / "one.log").write_text("2026-07-01 12:00:00 INFO server started\n")
    command = [sys.executable, "-m", "pdlogdoctor", "analyze", "-q", "one.log"]
    # Kept: the library, and the shipped catalogue of line formats that the renderers and the
    # fingerprint read lines with (formats.shipped): two files, made once.
    for switch, expected in (({"PDLOGDOCTOR_NO_CACHE": "1"}, 0), ({}, 2), ({}, 2)):
        env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg"), **switch}
        done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 3 and done.stdout.startswith("no-failure-seen"), done.stderr
        assert len(_stored(tmp_path / "xdg" / "pdlogdoctor")) == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.log", "xdg"]  # nothing beside the logs


def test_the_pattern_files_are_those_rglob_lists(tmp_path: Path) -> None:
    """load.toml_files lists what `sorted(rglob("*.toml"))` listed, faster: nested and hidden
    directories, a directory named like a file, other names left out, a linked directory not entered."""
    from pdlogdoctor.library.load import builtin_library_dir, toml_files

    root = tmp_path / "mine"
    for name in ("a.toml", "sub/b.toml", "sub/deeper/c.toml", ".hidden/d.toml", "e.toml.bak", "f.TOML", "notes.md"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("")
    (root / "dir.toml").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "g.toml").write_text("")
    (root / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    for directory in (root, builtin_library_dir()):
        assert toml_files(directory) == sorted(directory.rglob("*.toml"))
    assert len(toml_files(builtin_library_dir())) > 100
