"""One followed stream's scan, kept from poll to poll (`analyze --follow`).

The searcher and its sink (search.Search) are fed each stream's bytes as they are written and
never see the same bytes twice; memory stays the window (about FOLLOW_CHUNK and the lines held
back) and the sink's capped events, however long the stream runs. `result` is what a post-mortem
scan of the stream as it is now would find: the lines held back for what may follow them (the
stamps below a line, a traceback's end) are scanned as if the stream ended here, apart, and the
search goes on from where it was when more arrives.
"""

from __future__ import annotations

from dataclasses import replace

from ..ingest import ByteSource
from ..ingest.tail import KEPT_SEGMENTS
from .events import ScanResult, merge_partials
from .index import AnchorIndex
from .reader import Window
from .search import Search
from .series import MAX_BUCKETS

# A followed file that went (truncated, replaced, deleted) is kept as a segment, at most KEPT_SEGMENTS
# per name: each keeps its metrics tracks at this many buckets, so together they hold no more
# than one live stream's track (MAX_BUCKETS). At full width each kept segment of a busy server's
# log held ~0.5 MiB of buckets and charted points: the follower's RSS rose by ~16 MiB while they
# filled (benchmarks/follow.py, rotating every 64 MiB).
KEPT_BUCKETS = MAX_BUCKETS // KEPT_SEGMENTS

# Read size of a followed stream's window: several streams are followed at once, each with its own
# window, where a post-mortem scan has one of CHUNK_BYTES. What is found does not depend on it.
FOLLOW_CHUNK = 1 << 20


class GrowingScan:
    """The scan of one stream that is still being written."""

    def __init__(self, name: str, index: AnchorIndex) -> None:
        self.search = Search(name, index, Window(FOLLOW_CHUNK))
        self._result: ScanResult | None = None

    @property
    def bytes(self) -> int:
        """Bytes read so far."""
        return self.search.total

    def read(self, stream: ByteSource) -> int:
        """Read what `stream` has now (until it gives nothing) and scan the lines it completes."""
        search = self.search
        got = 0
        while piece := search.window.read(stream, search.problems):
            search.took(piece)
            got += piece
        if got:
            self._result = None
        return got

    def result(self) -> ScanResult:
        """What a scan of the stream would find if it ended now (kept until more is read)."""
        if self._result is None:
            search = self.search
            self._result = merge_partials(search.state.sink.name, [search.ended_here()], search.index.limits())
        return self._result


def kept(result: ScanResult) -> ScanResult:
    """The scan of a file that went, as its kept segment keeps it: its events, counts and head as they
    are, its metrics tracks in at most KEPT_BUCKETS buckets each (the same lines and numbers, in
    wider buckets)."""
    return replace(result, series=result.series.coarsened(KEPT_BUCKETS))
