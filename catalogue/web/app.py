"""The read-only web API of a catalogue: the same filters and field names as ``catalogue query``, as JSON.

``make_app(db)`` builds a FastAPI application over one catalogue (:class:`catalogue.store.Catalogue`); the
``serve`` command runs it with uvicorn. Every request takes its own read connection (on SQLite a plain
``sqlite3`` one in WAL mode), so the server keeps answering while a ``catalogue fill`` writes to the same
catalogue, and nothing here can write: there is no write endpoint, and the SQLite readers are ``query_only``.

Routes (OpenAPI at ``/docs`` and ``/openapi.json``): ``/api/puzzles`` (filters, sample, order, offset, limit),
``/api/puzzles/{number}``, ``/api/boards/{number}``, ``/api/daily``, ``/api/stats``, ``/api/hint``, and
``/puzzles/{number}.svg`` / ``.pdf`` (the drawings of ``catalogue book``); the page at ``/`` (``static/``) browses,
prints and plays the puzzles through them. Errors are one JSON object (:mod:`catalogue.web.errors`).
"""
from __future__ import annotations

from typing import Annotated, Any, Optional

from pathlib import Path
from urllib.parse import urlencode

from fastapi import Depends, FastAPI, Query, Request
from pydantic import BaseModel, Field
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from engine import vocabulary

from .. import __version__
from ..choices import HARDEST, Equivalence, Level, choose
from ..config import draw_seed
from ..errors import UsageError
from ..shapes import shape_filter, shape_of
from ..store import Catalogue
from ..store.keyset import cursor_of
from ..store.columns import ORDER_KEYS, RESULT_FIELDS
from ..store.records import PuzzleRecord
from . import errors
from .errors import NotFound
from .schemas import Choices, DailyPage, FullRecord, Hint, PuzzlesPage, answers, without_validation_errors
from .hint import hint

#: the page (index.html, app.js, style.css): plain files, no build step
STATIC = Path(__file__).with_name("static")

#: the most puzzles one request returns: a page, not the catalogue (`catalogue query --limit 0` is for that)
MAX_LIMIT = 1000
#: the largest sample one request draws (a sample is read whole, then sorted and cut)
MAX_SAMPLE = 10_000
DEFAULT_LIMIT = 50

Solution = Annotated[bool, Query(description="Draw the solution (SVG), or add it on a second page (PDF).")]


class PuzzleParams(BaseModel):
    """The query parameters of ``/api/puzzles``: the options of ``catalogue query``, under the same names.

    One model rather than sixteen separate parameters: FastAPI then validates them in one pydantic call, and its
    per-parameter handling had been half the CPU of a request (bench/bench_serve.py)."""

    min_clues: Optional[int] = Field(None, ge=0, description="At least this many clues.")
    max_clues: Optional[int] = Field(None, ge=0, description="At most this many clues.")
    size: Optional[int] = Field(None, description="Rows of the grid: 4, 6, 9, 16, 25, ...")
    shape: Optional[str] = Field(None, description="A shape's name: 3x3, 2x3, latin5, 3x3+x (diagonals), jigsaw9 "
                                                   "(every layout), or a whole spec.")
    equivalence: Optional[Equivalence] = Field(None, description="Boards unique under this.")
    method: Optional[str] = Field(None, description="The generator: wfc, backtrack, pattern; or import.")
    source: Optional[str] = Field(None, description="Imported from this source (the file's name, or import "
                                                    "--source).")
    level: Optional[Level] = Field(None, description="The grade's level.")
    technique: Optional[str] = Field(None, description="The technique row that made the hardest step, e.g. x-wing or "
                                                       "chains-and-cycles.")
    min_score: Optional[float] = Field(None, ge=0, description="A score of at least this.")
    max_score: Optional[float] = Field(None, ge=0, description="A score of at most this.")
    sample: Optional[int] = Field(None, ge=1, le=MAX_SAMPLE, description=(
        "A uniform random sample of this many matching puzzles (then sorted, offset and limited)."))
    seed: Optional[int] = Field(None, ge=0, lt=2 ** 63, description=(
        "The sample's seed: the same seed, the same sample (default: a new one, returned as `seed`)."))
    order_by: str = Field("number", description=f"Sort key: one of {', '.join(ORDER_KEYS)}.")
    desc: bool = Field(False, description="Sort in descending order.")
    offset: int = Field(0, ge=0, lt=2 ** 63, description="Skip this many puzzles first.")
    limit: int = Field(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT, description="How many puzzles at most.")
    after: Optional[str] = Field(None, max_length=200, description=(
        "Start past this puzzle: the cursor a page's `next` link carries (KEY,NUMBER,VARIANT: the sort key's "
        "value, null where it has none, the board number and the puzzle's variant). Pages by cursor stay right "
        "while puzzles are added; an offset would count them."))


def parse_cursor(text: str) -> tuple[Any, int, int]:
    """``after``'s text: ``KEY,NUMBER,VARIANT`` (KEY a number, or null) -> the cursor; BadParameter else."""
    parts = text.split(",")
    try:
        if len(parts) != 3:
            raise ValueError
        value = None if parts[0] == "null" else (int(parts[0]) if parts[0].lstrip("-").isdigit() else float(parts[0]))
        number, variant = int(parts[1]), int(parts[2])
        if number < 0 or variant < 1 or number >= 2 ** 63 or variant >= 2 ** 31 or value != value:  # NaN
            raise ValueError
    except ValueError:
        raise errors.BadParameter("after", f"not a cursor (KEY,NUMBER,VARIANT, as a `next` link carries): "
                                           f"{text[:40]!r}") from None
    return value, number, variant


def cursor_text(cursor: tuple[Any, int, int]) -> str:
    value, number, variant = cursor
    return f"{'null' if value is None else repr(value)},{number},{variant}"


def _allowed_parameters(route) -> frozenset[str]:
    """The query parameters a route takes (a parameter model's fields included)."""
    names = set()
    for param in route.dependant.query_params:
        kind = getattr(param.field_info, "annotation", None)
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            names.update(field.alias or name for name, field in kind.model_fields.items())
        else:
            names.add(param.alias)
    return frozenset(names)


def known_parameters_only(request: Request) -> None:
    """A query parameter the route does not take is a 400 naming it (``/api/puzzles?min_clue=30`` used to
    answer 24-clue puzzles, the misspelt filter silently ignored)."""
    route = request.scope.get("route")
    if route is None or not hasattr(route, "dependant"):
        return
    allowed = _ALLOWED.get(route.path)
    if allowed is None:
        allowed = _ALLOWED[route.path] = _allowed_parameters(route)
    for name in request.query_params:
        if name not in allowed:
            takes = f"this path takes {', '.join(sorted(allowed))}" if allowed else "this path takes none"
            raise errors.BadParameter(name[:40], f"no such parameter ({takes})")


_ALLOWED: dict[str, frozenset[str]] = {}


#: where the documentation pages' scripts and styles are served
DOCS_ASSETS_URL = "/docs-assets"


def docs_assets() -> Path:
    """The folder of Swagger UI's and ReDoc's files, as the fastapi-offline package ships them."""
    import fastapi_offline

    return Path(fastapi_offline.__file__).resolve().parent / "static"


def make_app(db: Optional[str] = None) -> FastAPI:
    """The application serving the catalogue at ``db`` (a path or URL; it must exist: a server makes nothing)."""
    catalogue = Catalogue.open(db, read_only=True)  # the server only reads
    # The routes answer with JSONResponse (json.dumps of plain rows) rather than a dict for FastAPI to encode: its
    # jsonable_encoder walked every value of every row, a large share of a 50-puzzle page's CPU (bench/bench_serve.py;
    # docs/benchmarks.md, Serving); the rows are already JSON's types.
    app = FastAPI(title="catalogue", version=__version__, default_response_class=JSONResponse,
                  dependencies=[Depends(known_parameters_only)], docs_url=None, redoc_url=None,
                  description="A read-only catalogue of unique Sudoku boards and the minimal puzzles carved from "
                              "them. Field names are the database's columns, as `catalogue query` prints them.")
    errors.install(app)
    app.state.catalogue = catalogue

    @app.get("/api/puzzles", summary="Puzzles, filtered, sampled, sorted and limited (the options of `query`)",
             responses=answers(PuzzlesPage))
    def puzzles(q: Annotated[PuzzleParams, Query()], request: Request) -> JSONResponse:
        filters = _filters(q.min_clues, q.max_clues, q.size, q.shape, q.equivalence, q.method, q.source, q.level,
                           q.technique, q.min_score, q.max_score)
        if q.order_by not in ORDER_KEYS:
            raise UsageError(f"order_by: no sort key {q.order_by!r}; one of: {', '.join(ORDER_KEYS)}")
        if q.seed is not None and q.sample is None:
            raise UsageError("seed chooses a sample: give sample too")
        cursor = parse_cursor(q.after) if q.after is not None else None
        selection = catalogue.puzzles(**filters).order_by(q.order_by, desc=q.desc)
        seed = q.seed
        if q.sample is not None:
            seed = draw_seed() if seed is None else seed
            selection = selection.sample(q.sample, seed=seed)
        total = selection.count()  # every match (or the sample's size): what the pages add up to
        rows = list(selection.after(cursor).offset(q.offset).limit(q.limit + 1).dicts())
        more = len(rows) > q.limit
        rows = rows[:q.limit]
        following = None
        if more:  # the next page: these parameters, from past the last row (a seek, whatever its depth)
            asked = {k: v for k, v in request.query_params.items() if k not in ("after", "offset", "seed")}
            asked.update({"after": cursor_text(cursor_of(rows[-1], q.order_by)),
                          **({"seed": str(seed)} if seed is not None else {})})
            following = f"/api/puzzles?{urlencode(asked)}"
        return JSONResponse({"count": len(rows), "total": total, "offset": q.offset, "limit": q.limit,
                             "sample": q.sample, "seed": seed, "next": following, "fields": list(RESULT_FIELDS),
                             "puzzles": rows})

    def found_puzzle(name: str):
        """The puzzle named ``name`` (``N`` or ``N.K``) with its board; 404 if there is none, 400 for a name that is
        not one."""
        try:
            found = catalogue.puzzle(name)
        except ValueError as e:
            raise errors.BadParameter("number", str(e)) from None
        if found is None:
            raise NotFound(f"no puzzle {name}")
        return found

    def puzzle_record(name: str) -> PuzzleRecord:
        """The record `query` prints for the puzzle named ``name``."""
        return PuzzleRecord.from_row(found_puzzle(name).record())

    @app.get("/api/puzzles/{number}", summary="Puzzle NUMBER (N, or N.K for board N's K-th puzzle): the full record "
                                              "(query's fields, then how it was made)",
             responses=answers(FullRecord, missing=True))
    def puzzle(number: str) -> JSONResponse:
        return JSONResponse(found_puzzle(number).record())

    @app.get("/puzzles/{number}.svg", summary="Puzzle NUMBER as an SVG picture, with its caption",
             response_class=Response, responses={200: {"content": {"image/svg+xml": {}}},
                                                 **answers(missing=True)})
    def puzzle_picture(number: str, solution: Solution = False) -> Response:
        from ..publish import puzzle_svg

        return Response(puzzle_svg(puzzle_record(number), solution=solution), media_type="image/svg+xml")

    @app.get("/puzzles/{number}.pdf", summary="Puzzle NUMBER on an A4 page, ready to print",
             response_class=Response, responses={200: {"content": {"application/pdf": {}}},
                                                 **answers(missing=True)})
    def puzzle_page(number: str, solution: Solution = False) -> Response:
        from ..publish import puzzle_pdf

        record = puzzle_record(number)
        return Response(puzzle_pdf(record, solution=solution), media_type="application/pdf",
                        headers={"Content-Disposition": f'inline; filename="sudoku-{record.name}.pdf"'})

    @app.get("/api/boards/{number}", summary="Board NUMBER and its first puzzle: the full record, as "
                                             "/api/puzzles/NUMBER (its puzzle's fields null if it has none)",
             responses=answers(FullRecord, missing=True))
    def board(number: int) -> JSONResponse:
        found = catalogue.board(number) if 0 <= number < 2 ** 63 else None
        if found is None:
            raise NotFound(f"no board {number}")
        return JSONResponse(found.record())

    @app.get("/api/daily", summary="The puzzles of the day, one per level (the rule of `catalogue daily`)",
             responses=answers(DailyPage))
    def daily(
        date: Annotated[Optional[str], Query(description="YYYY-MM-DD (default: today, the server's date).")] = None,
        level: Annotated[Optional[Level], Query(description="Only this level (default: one per level).")] = None,
    ) -> JSONResponse:
        from engine.vocabulary import LEVELS

        from ..store.selection import parse_date

        try:
            day = parse_date(date)
        except ValueError:
            raise UsageError(f"date: not a date (YYYY-MM-DD): {date!r}") from None
        chosen = [catalogue.daily(day, name) for name in ([level.value] if level else LEVELS)]
        rows = [{"date": day.isoformat(), **record.to_dict()} for record in chosen if record is not None]
        return JSONResponse({"date": day.isoformat(), "count": len(rows), "puzzles": rows})

    @app.get("/api/choices", summary="What the filters take: levels, sizes, techniques, methods, sort keys, and "
                                     "the catalogue's sources", responses=answers(Choices))
    def choices() -> JSONResponse:
        specs = catalogue.shapes()
        names = sorted({spec.partition(":")[0] for spec in specs})
        sizes = sorted(set(vocabulary.SIZES) | {shape_of(spec).size for spec in specs if spec})
        return JSONResponse({"level": list(vocabulary.LEVELS), "size": sizes, "shape": names,
                             "technique": list(HARDEST), "method": list(vocabulary.BOARD_METHODS),
                             "order_by": list(ORDER_KEYS), "source": catalogue.sources(limit=500)})

    @app.get("/api/stats", summary="What the catalogue holds (the numbers of `catalogue stats`)",
             responses=answers(dict[str, Any]))
    def stats() -> JSONResponse:
        return JSONResponse(catalogue.stats())

    @app.get("/api/hint", summary="The next step a person would take on a partly solved grid",
             responses=answers(Hint))
    def hint_route(grid: Annotated[str, Query(
            max_length=2000, description="The grid in the line format: one character per cell, row by row, "
                                         "'.' or '0' for a blank (e.g. a puzzle with the digits a player "
                                         "entered).")],
                   candidates: Annotated[Optional[str], Query(
            max_length=20_000, description="The player's pencil marks: one field per cell, comma-separated, each "
                                           "the symbols of that cell's candidates (empty: no marks). The hint is "
                                           "then the next step from them: an elimination already made is not "
                                           "given again.")] = None,
                   shape: Annotated[Optional[str], Query(
            max_length=1000, description="The grid's shape: the puzzle record's `shape` (3x3, 2x3, "
                                         "jigsaw9:LAYOUT, latin5, 3x3+x, ...). Without it, square boxes from the "
                                         "cell count. A spec that names no shape is a 400 naming shape.")]
                   = None) -> JSONResponse:
        return JSONResponse(hint(grid, candidates, shape))

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    # The API's documentation pages with their scripts served from here (fastapi-offline's copies of Swagger UI
    # and ReDoc), not from a CDN: without internet FastAPI's own /docs and /redoc were blank pages.
    @app.get("/docs", include_in_schema=False)
    def swagger() -> Response:
        from fastapi.openapi.docs import get_swagger_ui_html

        return get_swagger_ui_html(openapi_url=app.openapi_url, title="catalogue API",
                                   swagger_js_url=f"{DOCS_ASSETS_URL}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{DOCS_ASSETS_URL}/swagger-ui.css",
                                   swagger_favicon_url=f"{DOCS_ASSETS_URL}/favicon.png")

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> Response:
        from fastapi.openapi.docs import get_redoc_html

        return get_redoc_html(openapi_url=app.openapi_url, title="catalogue API",
                              redoc_js_url=f"{DOCS_ASSETS_URL}/redoc.standalone.js",
                              redoc_favicon_url=f"{DOCS_ASSETS_URL}/favicon.png", with_google_fonts=False)

    app.mount(DOCS_ASSETS_URL, StaticFiles(directory=docs_assets()), name="docs-assets")

    def spec() -> dict:  # the real answers only: our 400 body, never FastAPI's 422 (schemas.py)
        if app.openapi_schema is None:
            from fastapi.openapi.utils import get_openapi

            app.openapi_schema = without_validation_errors(get_openapi(
                title=app.title, version=app.version, description=app.description, routes=app.routes))
        return app.openapi_schema

    app.openapi = spec

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    return app


def _filters(min_clues, max_clues, size, shape, equivalence, method, source, level, technique, min_score,
             max_score) -> dict[str, Any]:
    """The query's filters checked as the CLI checks them: a bad value is a 400 naming the parameter."""
    for low, high, a, b in (("min_clues", "max_clues", min_clues, max_clues),
                            ("min_score", "max_score", min_score, max_score)):
        if a is not None and b is not None and a > b:
            raise UsageError(f"{low} {a:g} is above {high} {b:g}")
    if size is not None and not vocabulary.MIN_SHAPE_SIZE["latin"] <= size <= vocabulary.MAX_SHAPE_SIZE:
        raise UsageError(f"size must be a grid's rows, {vocabulary.MIN_SHAPE_SIZE['latin']} to "
                         f"{vocabulary.MAX_SHAPE_SIZE}, not {size}")
    try:
        shape = None if shape is None else shape_filter(shape)
    except ValueError as e:
        raise UsageError(f"shape: {e}") from None
    return {"min_clues": min_clues, "max_clues": max_clues, "size": size, "shape": shape,
            "equivalence": equivalence.value if equivalence else None,
            "method": choose("method", "method", vocabulary.BOARD_METHODS, method), "source": source,
            "level": level.value if level else None,
            "technique": choose("technique", "technique", HARDEST, technique),
            "min_score": min_score, "max_score": max_score}
