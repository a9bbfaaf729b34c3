"""The error layer's search keys never make a library anchor the layer's (issue 26).

The scan finds the library's anchors and the error layer's keys in one pass; a key that holds a
shorter anchor is searched by it (scan/index.py), and every line holding that anchor is then one the
layer reads. A layer key that holds a short library anchor (`lease_expired_before` holds `ase`,
`..._PROTECTION_...` holds `PR`) so made the layer read every line with `release` or `PR` in it: on a
dense log, thousands of lines read for nothing. Each key the layer is searched by must be one of its
own keys (or that key as JSON escapes it).
"""

from __future__ import annotations

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.scan.index import AnchorIndex


def test_every_key_the_layer_is_searched_by_is_its_own(library: Library) -> None:
    assert library.errors is not None
    own = {key.encode() for key in library.errors.anchors}
    own |= {key.replace(b'"', b'\\"') for key in own}
    index = AnchorIndex.of(library)
    borrowed = [index.by_anchor[number][0] for number in sorted(index.generic) if index.by_anchor[number][0] not in own]
    assert not borrowed, f"layer keys searched by library anchors they hold: {borrowed}"
