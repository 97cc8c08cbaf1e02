"""Grids of every shape in print: the layout's lines and shading against the engine's own tables, then books of
real catalogues (made by `catalogue fill`) read back from the PDF's drawing.

What a grid must show, for each shape: a thick line along every border between two cells of different regions
and nowhere else inside the frame (boxes of r x c, a jigsaw's layout; none inside a Latin square), a thin line
along every other cell edge, and the two diagonals' cells shaded when the diagonals are units. "Region" and
"diagonal" here are ``engine.geometry``'s (``box_of``, the DIAGONAL houses), never the layout's own helpers, so
the two are checked against each other."""
from __future__ import annotations

import io
import sqlite3

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.publish import book_pages, caption, page_counts
from catalogue.publish.book import heading, shape_words
from catalogue.publish.layout import (ARRANGEMENTS, BLACK, DIAGONAL_SHADE, Box, Fill, Item, Line, Rect, Text,
                                      grid_shapes, line_widths, page_slots, region_borders, shape_box, sheet)
from catalogue.store import Catalogue
from engine.geometry import DIAGONAL, geometry
from engine.shape import Shape
from engine.vocabulary import SYMBOLS

pypdf = pytest.importorskip("pypdf", reason="pypdf (a test dependency) reads the PDFs back")

runner = CliRunner()

#: a 9x9 jigsaw layout as `catalogue fill --shape jigsaw --regions random` made one, and a 6x6 one by hand
JIGSAW9 = "AAABBBBBCAAADBEEECAFADBBECCFFADBDECCFGGDDDECCFFGGDDEECFHGGGGEIIFHGIIIIIIFHHHHHHHI"
JIGSAW6 = "AAABBBAACCBBACCCDBEECDDDEEFFDDEEFFFF"
SHAPES = ["2x3", "3x2", "3x4", "4x3", "2x4", "3x3", "4x4", "3x3+x", "2x3+x", "latin5", "latin6+x",
          f"jigsaw9:{JIGSAW9}", f"jigsaw6:{JIGSAW6}", f"jigsaw9+x:{JIGSAW9}"]


# -- what the engine says a grid of each shape is --------------------------------------------------------------
def borders_of(shape: Shape) -> set[tuple[str, int, int]]:
    """Every cell edge between two regions, from the engine's geometry: ``("v", k, j)`` is the edge left of
    column k in row j, ``("h", k, j)`` the edge above row k in column j."""
    n = shape.size
    region = geometry(shape).box_of.reshape(n, n)
    if shape.kind == "latin":
        assert (region == -1).all()
        return set()
    return ({("v", k, j) for k in range(1, n) for j in range(n) if region[j, k] != region[j, k - 1]}
            | {("h", k, j) for k in range(1, n) for j in range(n) if region[k, j] != region[k - 1, j]})


def diagonals_of(shape: Shape) -> set[int]:
    geo = geometry(shape)
    return {int(c) for house, kind in zip(geo.houses, geo.house_kind) if kind == DIAGONAL for c in house}


def all_edges(n: int) -> set[tuple[str, int, int]]:
    return {(d, k, j) for d in "vh" for k in range(1, n) for j in range(n)}


EPS = 1e-3  # points: a PDF writes its numbers to a few decimals


def drawn(segments, fills, grid: Box, n: int):
    """What a grid's drawing shows, in cell edges: (thick edges, thin edges, shaded cells). ``segments`` are
    (x1, y1, x2, y2, width, colour) in points, y down; each must lie on a cell line, and a thick one may reach at
    most half its width past the last edge it covers (to close a region's corner)."""
    step = grid.w / n
    thin, thick = line_widths(grid.w, n)
    found: dict[str, set] = {"thick": set(), "thin": set()}
    for x1, y1, x2, y2, width, colour in segments:
        vertical = abs(x1 - x2) < EPS
        assert vertical or abs(y1 - y2) < EPS, "a line that is neither across nor down"
        at = ((x1 - grid.x) if vertical else (y1 - grid.y)) / step
        k = round(at)
        assert abs(at - k) < 1e-3 and 0 < k < n, ("off the cell lines", x1, y1, x2, y2)
        lo, hi = sorted(((y1, y2) if vertical else (x1, x2)))
        origin = grid.y if vertical else grid.x
        covered = {j for j in range(n) if lo <= origin + (j + 0.5) * step <= hi}
        assert covered, "a line that covers no edge"
        kind = "thick" if width == pytest.approx(thick, abs=EPS) else "thin"
        if kind == "thick":
            assert colour == BLACK
            assert origin + min(covered) * step - lo <= thick / 2 + EPS
            assert hi - (origin + (max(covered) + 1) * step) <= thick / 2 + EPS
        else:
            assert width == pytest.approx(thin, abs=EPS) and colour != BLACK
            assert (lo, hi) == pytest.approx((origin, origin + n * step), abs=EPS)  # thin lines run edge to edge
        found[kind] |= {("v" if vertical else "h", k, j) for j in covered}
    shaded = set()
    for box, colour in fills:
        assert colour == DIAGONAL_SHADE and (box.w, box.h) == pytest.approx((step, step), abs=EPS)
        r, c = round((box.y - grid.y) / step), round((box.x - grid.x) / step)
        assert (box.x, box.y) == pytest.approx((grid.x + c * step, grid.y + r * step), abs=EPS)
        shaded.add(r * n + c)
    return found["thick"], found["thin"], shaded


def check_grid(segments, fills, grid: Box, shape: Shape) -> None:
    """The drawing of one grid is its shape: thick exactly on the region borders, thin on every other edge (a thin
    line may run on under a thick one, never the other way), the diagonals shaded and nothing else."""
    n = shape.size
    thick, thin, shaded = drawn(segments, fills, grid, n)
    assert thick == borders_of(shape), shape.spec
    assert thin | thick == all_edges(n)
    assert shaded == diagonals_of(shape)
    if shape.diagonals:
        assert len(shaded) == 2 * n - n % 2


# -- the layout -----------------------------------------------------------------------------------------------
def _line(shape: Shape) -> str:
    """A grid of ``shape``'s side with some givens (any symbols of the side: the layout does not solve)."""
    n = shape.size
    return "".join(SYMBOLS[1 + (c * 7) % n] if c % 3 == 0 else "." for c in range(n * n))


@pytest.mark.parametrize("spec", SHAPES)
@pytest.mark.parametrize("side", [90.0, 243.0, 510.0])
def test_the_layout_draws_each_shape_s_regions_and_diagonals(spec, side):
    shape = Shape.parse(spec)
    grid = Box(30.0, 50.0, side, side)
    shapes = grid_shapes(_line(shape), grid, shape=shape)
    segments = [(s.x1, s.y1, s.x2, s.y2, s.width, s.colour) for s in shapes if isinstance(s, Line)]
    fills = [(s.box, s.colour) for s in shapes if isinstance(s, Fill)]
    check_grid(segments, fills, grid, shape)
    assert [s for s in shapes if isinstance(s, Rect)] == [Rect(grid, line_widths(side, shape.size)[1])]
    # the shading first (under the lines and the digits), the digits last
    kinds = [type(s).__name__ for s in shapes]
    assert kinds == sorted(kinds, key=["Fill", "Line", "Rect", "Text"].index)


@pytest.mark.parametrize("per_page", sorted(ARRANGEMENTS))
def test_every_shape_s_ink_stays_in_its_own_slot(per_page):
    """The thick runs that reach on past a region's corner stay inside the grid's frame, on every page."""
    specs = SHAPES * 2
    for first in range(0, len(specs), per_page):
        items = [Item(spec, _line(Shape.parse(spec)), None, Shape.parse(spec)) for spec in specs[first:][:per_page]]
        page = sheet(items, per_page, title="Sudoku", folio="page 1 of 1")
        grids = [g for g in page.groups if g.kind == "grid"]
        for group, slot, item in zip(grids, page_slots(per_page), items):
            own = slot.grid.grown(line_widths(slot.grid.w, item.shape.size)[1] / 2)
            for shape in group.shapes:
                assert own.contains(shape_box(shape), eps=1e-6), (item.shape.spec, shape)


@pytest.mark.parametrize("spec", ["2x3", "3x4", "latin5", f"jigsaw9:{JIGSAW9}"])
def test_borders_are_maximal_runs(spec):
    """No two thick runs on one line touch (each goes as far as it can), and box lines are one run each."""
    shape = Shape.parse(spec)
    runs = region_borders(shape)
    for a in runs:
        for b in runs:
            if a != b and a[0] == a[2] == b[0] == b[2]:  # two vertical runs on one line
                assert a[3] < b[1] or b[3] < a[1]
            if a != b and a[1] == a[3] == b[1] == b[3]:
                assert a[2] < b[0] or b[2] < a[0]
    if shape.kind == "boxes":
        n, r, c = shape.size, shape.box_rows, shape.box_cols
        assert sorted(runs) == sorted([(k, 0, k, n) for k in range(c, n, c)] + [(0, k, n, k) for k in range(r, n, r)])


def test_a_jigsaw_and_a_classic_grid_of_81_cells_differ():
    """The shape comes from the caller, not from the cell count."""
    puzzle = _line(Shape.parse("3x3"))
    grid = Box(0, 0, 270, 270)
    classic = grid_shapes(puzzle, grid)
    assert grid_shapes(puzzle, grid, shape=Shape.parse("3x3")) == classic
    assert grid_shapes(puzzle, grid, shape=Shape.parse(f"jigsaw9:{JIGSAW9}")) != classic


def test_twelve_by_twelve_prints_letters_as_sixteen_by_sixteen_does():
    shape = Shape.parse("3x4")
    solution = "".join(SYMBOLS[1 + (r * 4 + r // 3 + c) % 12] for r in range(12) for c in range(12))
    texts = [s.text for s in grid_shapes("." * 144, Box(0, 0, 300, 300), solution, shape) if isinstance(s, Text)]
    assert set(texts) == set("123456789ABC")  # the line format's symbols, one character a cell
    with pytest.raises(ValueError, match="'D' is not a digit of a 12x12 grid"):
        grid_shapes("D" + "." * 143, Box(0, 0, 300, 300), shape=shape)
    with pytest.raises(ValueError, match="not a grid of shape 3x4: 81 cells, not 144"):
        grid_shapes("." * 81, Box(0, 0, 300, 300), shape=shape)


# -- books of real catalogues, read back from the PDF ---------------------------------------------------------
FILLS = {"2x3": ["--shape", "2x3"], "3x4": ["--shape", "3x4"],
         "jigsaw9": ["--shape", "jigsaw", "--regions", "random", "--size", "9"],
         "3x3+x": ["--shape", "3x3", "--diagonals"], "3x3": [], "latin5": ["--shape", "latin", "--size", "5"]}


@pytest.fixture(scope="module")
def shaped(tmp_path_factory) -> str:
    """A catalogue of 6x6 (2x3), 12x12 (3x4), jigsaw 9x9, X 9x9, classic 9x9 and Latin 5x5 puzzles, 5 of each."""
    db = tmp_path_factory.mktemp("shaped") / "c.db"
    for args in FILLS.values():
        result = runner.invoke(app, ["fill", "--count", "5", "--seed", "3", *args, "--db", str(db)])
        assert result.exit_code == 0, result.output
    return str(db)


def records(db: str, **filters):
    with Catalogue.open(db, create=False) as cat:
        return list(cat.puzzles(**filters))


def pdf_drawing(page):
    """A PDF page's vector drawing, y turned down as in the layout: the stroked segments (x1, y1, x2, y2, width,
    colour) and the filled rectangles (Box, colour). Colours as the layout writes them (#rrggbb)."""
    from pypdf.generic import ContentStream

    height = float(page.mediabox.height)
    segments, fills, path = [], [], []
    width, stroke, fill, start = 1.0, BLACK, BLACK, None

    def colour(ops) -> str:
        return "#" + "".join(f"{round(float(v) * 255):02x}" for v in ops)

    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"w":
            width = float(operands[0])
        elif op == b"RG":
            stroke = colour(operands)
        elif op == b"rg":
            fill = colour(operands)
        elif op == b"m":
            start = (float(operands[0]), height - float(operands[1]))
        elif op == b"l":
            end = (float(operands[0]), height - float(operands[1]))
            path.append(("line", (*start, *end)))
            start = end
        elif op == b"re":
            x, y, w, h = map(float, operands)
            path.append(("rect", Box(x, height - y - h, w, h)))
        elif op == b"S":
            segments += [(*p, width, stroke) for kind, p in path if kind == "line"]
            path = []
        elif op in (b"f", b"f*"):
            fills += [(p, fill) for kind, p in path if kind == "rect"]
            path = []
        elif op == b"n" and path:
            path = []
    return segments, fills


def check_book(pdf_bytes: bytes, chosen, per_page: int, solutions: bool) -> list[tuple[str, list, str]]:
    """Every grid of every page of the book drawn in its record's shape; (heading, records, text) page by page."""
    pdf = pypdf.PdfReader(io.BytesIO(pdf_bytes))
    puzzle_pages, answer_pages = page_counts(len(chosen), per_page, solutions, [r.size for r in chosen])
    assert len(pdf.pages) == puzzle_pages + answer_pages
    from catalogue.publish.book import solutions_per_page

    per_answer = solutions_per_page(per_page, [r.size for r in chosen])
    layout = book_pages(chosen, per_page, solutions)
    headings = []
    for p, page in enumerate(pdf.pages):
        answers = p >= puzzle_pages
        per = per_answer if answers else per_page
        first = ((p - puzzle_pages) if answers else p) * per
        on_page = chosen[first:first + per]
        slots = page_slots(per)[:len(on_page)]
        segments, fills = pdf_drawing(page)
        for slot, record in zip(slots, on_page):
            inside = slot.grid.grown(1e-3)

            def within(x1, y1, x2, y2):
                return inside.contains(Box(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)))

            check_grid([s for s in segments if within(*s[:4])], [f for f in fills if inside.contains(f[0])],
                       slot.grid, Shape.parse(record.shape))
        head = next(s.text for s in layout[p].groups[0].shapes if isinstance(s, Text))
        assert head == heading("Solutions" if answers else "Sudoku", on_page)
        text = page.extract_text()
        assert head in text
        headings.append((head, on_page, text))
    return headings


@pytest.mark.parametrize("name, title, words", [
    ("2x3", "Sudoku 6x6", "6x6"), ("3x4", "Sudoku 12x12", "12x12"),
    ("jigsaw9", "Jigsaw Sudoku 9x9", "jigsaw 9x9"), ("3x3+x", "X-Sudoku 9x9", "X-Sudoku 9x9"),
    ("latin5", "Latin square 5x5", "Latin square 5x5")])
def test_a_book_of_one_shape(shaped, tmp_path, name, title, words):
    out = tmp_path / "book.pdf"
    result = runner.invoke(app, ["book", "--db", shaped, "--shape", name, "-o", str(out), "--solutions"])
    assert result.exit_code == 0, result.output
    chosen = records(shaped, shape=name)
    assert len(chosen) == 5 and {shape_words(r) for r in chosen} == {words}
    pages = check_book(out.read_bytes(), chosen, 4, True)
    assert [head for head, _, _ in pages] == [title, title, f"Solutions \u00b7 {words}"]
    for head, on_page, text in pages:  # the heading names the shape, so the captions need not
        for record in on_page:
            assert caption(record, named=False) in text and words not in text.replace(head, "")
    if name == "3x4":  # 10, 11 and 12 print as A, B and C, as 16x16's do
        assert {"A", "B", "C"} <= {ch for r in chosen for ch in r.solution} <= set("123456789ABC")


def test_a_mixed_book_draws_each_grid_in_its_own_shape(shaped, tmp_path):
    out = tmp_path / "mixed.pdf"
    result = runner.invoke(app, ["book", "--db", shaped, "-o", str(out), "--sample", "18", "--seed", "4",
                                 "--solutions", "--per-page", "6"])
    assert result.exit_code == 0, result.output
    with Catalogue.open(shaped, create=False) as cat:
        chosen = list(cat.puzzles().sample(18, seed=4))
    assert len({r.shape.split(":")[0] for r in chosen}) >= 4  # the sample mixes the shapes
    pages = check_book(out.read_bytes(), chosen, 6, True)
    mixed = [(on_page, text) for head, on_page, text in pages if head in ("Sudoku", "Solutions")]
    assert mixed
    for on_page, text in mixed:  # a page of several shapes: each caption names its own (the classic 9x9 needs none)
        for record in on_page:
            assert caption(record) in text
            assert (shape_words(record) in caption(record)) and (shape_words(record) == "") == (record.shape == "3x3")


def test_rows_whose_shape_cannot_be_read_are_left_out(shaped, tmp_path):
    db = tmp_path / "c.db"
    with sqlite3.connect(shaped) as src, sqlite3.connect(db) as dst:
        src.backup(dst)
    with sqlite3.connect(db) as conn:
        numbers = [n for (n,) in conn.execute("SELECT number FROM boards WHERE shape = '2x3' ORDER BY number")]
        conn.execute("UPDATE boards SET shape = 'hexagon' WHERE number = ?", (numbers[0],))
        conn.execute("UPDATE boards SET shape = '3x3' WHERE number = ?", (numbers[1],))  # 6x6 cells, 9x9 shape
    conn.close()
    out = tmp_path / "b.pdf"
    result = runner.invoke(app, ["book", "--db", f"sqlite:///{db}", "-o", str(out), "--count", "40"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ("catalogue: left out 2 rows that cannot be drawn (not a puzzle of a known shape and "
                             f"size: `catalogue verify` names them)\ncatalogue: wrote {out}: 28 puzzles on 7 pages\n")


def test_the_svg_sheet_shades_the_diagonals_and_draws_the_borders(shaped, tmp_path):
    import xml.etree.ElementTree as ET

    out = tmp_path / "x.svg"
    result = runner.invoke(app, ["book", "--db", shaped, "--shape", "3x3+x", "-o", str(out), "--count", "2"])
    assert result.exit_code == 0, result.output
    svg = "{http://www.w3.org/2000/svg}"
    grids = [g for g in ET.parse(out).getroot().iter(f"{svg}g") if g.get("class") == "grid"]
    assert len(grids) == 2
    for grid in grids:
        shades = [r for r in grid.iter(f"{svg}rect") if r.get("class") == "shade"]
        assert len(shades) == 17 and {r.get("fill") for r in shades} == {DIAGONAL_SHADE}
        thick = [ln for ln in grid.iter(f"{svg}line") if ln.get("stroke") == BLACK]
        assert len(thick) == 4  # the box lines of 3x3 boxes, each one run from edge to edge
