"""Benchmarks (`make bench`, i.e. `python -m benchmarks`): each line times our code against a baseline
measured in the same process, so the ratio means something on any machine.

`harness` holds the timing and the line format; each other module covers one slug (a game, or
`companion` for the toolkit) and returns its `benchmarks(...)`.
"""
