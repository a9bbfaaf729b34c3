"""Throughput benchmark: `python -m benchmarks.run --size 1G` (see benchmarks/README.md)."""
