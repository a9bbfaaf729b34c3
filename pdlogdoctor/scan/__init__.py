"""Stage 2, scan: byte sources in, events out.

In: the `LogInput`s ingest found, and the library's anchor index.
Out: one `Source` per input (its role, size, problems) and the `Event`s of its lines that a
pattern or the open-world layer names, each with its time, role and captures, placed on one
timeline. Nothing here decides what an event means for the run.
"""
