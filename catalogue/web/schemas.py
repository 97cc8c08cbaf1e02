"""The API's answers as OpenAPI schemas: what the spec at /openapi.json says each route returns, made from the
field list (``catalogue.store.fields``), so a new field is typed and described where it is declared.

Why only documented, not enforced: the routes answer with JSONResponse of plain rows (FastAPI's encoder walking
every value had cost half a page's CPU: app.py), so these models describe the bodies and a test holds the real
answers to them (tests/catalogue/web/test_spec.py). Errors are ours, never FastAPI's 422: ``{"error", "status",
"parameter"}`` with the status of :mod:`catalogue.web.errors`.
"""
from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, Field, create_model

from ..store.fields import BY_NAME, RECORD_FIELDS, RESULT_FIELDS


class ErrorBody(BaseModel):
    """Every failed request: one line, the status again, and the parameter at fault when one is."""

    error: str = Field(description="What went wrong, as a command would say it after `catalogue: `.")
    status: int = Field(description="The HTTP status: 400 a bad parameter, 404 an unknown number or page, 503 a "
                                    "database that cannot answer now, 500 a bug.")
    parameter: Optional[str] = Field(None, description="The query or path parameter at fault, when one is.")


def _field(name: str, optional: bool = False):
    """A field of the answers, typed and described as in the field list (catalogue.store.fields)."""
    field = BY_NAME[name]
    kind = Optional[field.type] if optional else field.annotation
    return kind, Field(description=field.about)


#: one row of `catalogue query`: the result fields with their types
PuzzleRow = create_model("PuzzleRow", **{name: _field(name) for name in RESULT_FIELDS})
#: the full record (export --format json, /api/puzzles/N, /api/boards/N): a row, then how it was made; a board
#: without a puzzle has its puzzle's fields null
FullRecord = create_model("FullRecord", **{name: _field(name, optional=True) for name in RECORD_FIELDS})
DailyRow = create_model("DailyRow", date=(str, ...), __base__=PuzzleRow)


class PuzzlesPage(BaseModel):
    count: int = Field(description="Puzzles on this page.")
    total: int = Field(description="Puzzles that match (the sample's size with `sample`).")
    offset: int
    limit: int
    sample: Optional[int]
    seed: Optional[int] = Field(description="The sample's seed (drawn when not given): ask for it again.")
    next: Optional[str] = Field(description="The next page's address (its `after` cursor), null on the last page.")
    fields: list[str]
    puzzles: list[PuzzleRow]


class DailyPage(BaseModel):
    date: str
    count: int
    puzzles: list[DailyRow]


class Place(BaseModel):
    cell: int
    row: int
    column: int


class Candidate(Place):
    digit: int


class Hint(BaseModel):
    technique: Optional[str] = Field(description="The step's technique; null when no technique helps.")
    name: Optional[str] = Field(None, description="The step's own name, as the literature writes it (forcing X-chain, "
                                                  "BUG+1); null when no technique helps.")
    rating: Optional[float] = None
    explanation: str
    placements: list[Candidate]
    eliminations: list[Candidate]
    cells: list[Place]
    houses: list[int]


class Choices(BaseModel):
    """What the filters of ``/api/puzzles`` take, from the vocabulary (and the catalogue's own sources): the page
    fills its dropdowns from it rather than keep copies of these lists."""

    level: list[str]
    size: list[int] = Field(description="Rows of the grid: the square-box sizes, and every other size the "
                                        "catalogue holds.")
    shape: list[str] = Field(description="The names of the shapes the catalogue holds (3x3, 2x3, latin5, 3x3+x, "
                                         "jigsaw9): what the shape filter takes.")
    technique: list[str]
    method: list[str]
    order_by: list[str]
    source: list[str] = Field(description="The sources of the catalogue's imported puzzles (at most 500).")


def answers(model: Any = None, *, missing: bool = False) -> dict[int, dict]:
    """The ``responses`` of a route: 200 with ``model``, 400 (and 404 with ``missing``) with our error body."""
    out: dict[int, dict] = {400: {"model": ErrorBody, "description": "A bad parameter, or one this path does not "
                                                                      "take"}}
    if model is not None:
        out[200] = {"model": model, "description": "The answer"}
    if missing:
        out[404] = {"model": ErrorBody, "description": "No such puzzle or board"}
    out[503] = {"model": ErrorBody, "description": "The database cannot answer now"}
    return out


def without_validation_errors(spec: dict) -> dict:
    """The spec without FastAPI's 422 answers and their schemas: the server answers bad parameters with 400 and
    :class:`ErrorBody` (catalogue/web/errors.py), which every route declares instead."""
    for methods in spec.get("paths", {}).values():
        for operation in methods.values():
            operation.get("responses", {}).pop("422", None)
    schemas = spec.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    return spec
