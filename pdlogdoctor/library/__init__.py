"""The pattern library: the data every stage reads, loaded and checked once.

In: the TOML files under `patterns/` (and a user's `--patterns` directories).
Out: a `Library` (patterns, verdicts, the open-world layer, frames, the run profile's spec),
kept between runs in the user's cache. Nothing here reads a log.
"""
