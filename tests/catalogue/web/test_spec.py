"""The OpenAPI spec says what the server really answers: every route's 200 body has a schema, errors are our
`{"error", "status", "parameter"}` with 400 / 404 (never FastAPI's 422), and real answers of a real server
validate against the spec's own schemas (jsonschema, draft 2020-12, which OpenAPI 3.1 uses)."""
from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from conftest import running_server
from typer.testing import CliRunner

from catalogue.cli import app as cli_app

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("spec") / "c.db"
    assert CliRunner().invoke(cli_app, ["fill", "--count", "20", "--seed", "2", "--db", str(db)]).exit_code == 0
    with running_server(str(db)) as base:
        yield base


def get(url: str) -> tuple[int, object]:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def validator(spec: dict, path: str, status: int):
    """The schema the spec gives for ``status`` of GET ``path`` (a route's template), as a jsonschema validator
    that resolves the spec's own ``#/components`` references."""
    schema = spec["paths"][path]["get"]["responses"][str(status)]["content"]["application/json"]["schema"]
    return jsonschema.Draft202012Validator({**schema, "components": spec["components"]})


CASES = [  # (route template, address, status)
    ("/api/puzzles", "/api/puzzles?limit=3&order_by=score", 200),
    ("/api/puzzles", "/api/puzzles?sample=2", 200),
    ("/api/puzzles", "/api/puzzles?min_clue=3", 400),
    ("/api/puzzles/{number}", "/api/puzzles/4", 200),
    ("/api/puzzles/{number}", "/api/puzzles/9999", 404),
    ("/api/boards/{number}", "/api/boards/4", 200),
    ("/api/daily", "/api/daily?date=2026-11-26", 200),
    ("/api/daily", "/api/daily?date=someday", 400),
    ("/api/stats", "/api/stats", 200),
    ("/api/choices", "/api/choices", 200),
    ("/api/hint", "/api/hint?grid=" + "." * 81, 200),
    ("/api/hint", "/api/hint?grid=xyz", 400),
    ("/api/hint", "/api/hint?grid=" + "." * 36 + "&shape=2x3", 200),
    ("/api/hint", "/api/hint?grid=" + "." * 81 + "&shape=3x3%2Bx", 200),
    ("/api/hint", "/api/hint?grid=" + "." * 81 + "&shape=hexagon", 400),
]


@pytest.mark.parametrize("path, address, status", CASES)
def test_real_answers_validate_against_the_spec(server, path, address, status):
    _, spec = get(server + "/openapi.json")
    got, body = get(server + address)
    assert got == status, body
    errors = sorted(validator(spec, path, status).iter_errors(body), key=str)
    assert not errors, [e.message for e in errors[:3]]


def test_the_spec_has_typed_answers_and_our_errors(server):
    _, spec = get(server + "/openapi.json")
    assert "HTTPValidationError" not in spec["components"]["schemas"]
    for path, methods in spec["paths"].items():
        answers = methods["get"]["responses"]
        assert "422" not in answers and "400" in answers, path
        assert answers["400"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}
        if path.startswith("/api/"):
            assert answers["200"]["content"]["application/json"]["schema"] != {}, path
    row = spec["components"]["schemas"]["PuzzleRow"]["properties"]
    from catalogue.store.columns import RESULT_FIELDS

    assert list(row) == list(RESULT_FIELDS)
