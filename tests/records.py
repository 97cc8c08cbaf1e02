"""Records read back as the standard library reads them: what every `--format table|csv|tsv|json|ndjson` test
parses the CLI's output with (values come back as text for csv / tsv)."""
from __future__ import annotations

import csv
import io
import json


def parse_records(fmt: str, text: str) -> list[dict]:
    if fmt == "json":
        return json.loads(text)
    if fmt == "ndjson":
        return [json.loads(line) for line in text.splitlines()]
    return list(csv.DictReader(io.StringIO(text), delimiter="," if fmt == "csv" else "\t"))
