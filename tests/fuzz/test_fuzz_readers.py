"""The readers on fuzzed text: every format forced, and detected, with and without a box size; only Parsed and
FormatError come back (fuzz_harness.reader_problems). A short, fixed run: see docs/reliability.md for the long one."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.formats import FORMATS, FormatError, from_line, from_txt

from fuzz_harness import reader_problems
from fuzz_inputs import inputs

SHORT = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))


@SHORT
@given(case=inputs(), box=st.sampled_from([None, None, 2, 3, 4, 5]))
def test_every_reader_returns_grids_or_format_errors(case, box):
    family, data = case
    text = data.decode("utf-8", errors="replace")
    found = []
    for fmt in (None, *FORMATS):
        found += reader_problems(text, fmt, box)
    assert not found, f"{family} input {data[:200]!r}: {found}"


@SHORT
@given(case=inputs(("mutant", "edge", "number", "long", "unicode")))
def test_one_grid_readers_raise_format_error_only(case):
    _, data = case
    text = data.decode("utf-8", errors="replace")
    for read in (from_line, from_txt):
        try:
            read(text)
        except FormatError as e:
            assert "\n" not in e.message
