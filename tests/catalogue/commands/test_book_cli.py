"""`catalogue book` through the real CLI app on real catalogues: the PDF it writes is parsed back (pypdf) for its
page count, its captions, its givens (each at its cell's place) and the absence of any picture; the SVG sheet is
parsed as XML; and every error leaves no file behind."""
from __future__ import annotations

import io
import math
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from conftest import fill_synthetic
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.publish import book_pages, caption, page_counts, puzzle_pdf, puzzle_svg
from catalogue.publish.layout import A4, Text, text_width
from catalogue.store import Catalogue

pypdf = pytest.importorskip("pypdf", reason="pypdf (a test dependency) reads the PDFs back")

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('book') / 'catalogue.db'}"
    fill_synthetic(url, 40)
    return url


def records(url, count=None, **filters):
    with Catalogue.open(url, create=False) as cat:
        return list(cat.puzzles(**filters).limit(count))


def book(url, *args):
    return runner.invoke(app, ["book", "--db", url, *args])


def read_pdf(path):
    return pypdf.PdfReader(io.BytesIO(path.read_bytes()))


def placed_texts(reader, page) -> set[tuple[str, float, float]]:
    """(text, x, y) of every string the page's content stream shows (Tj), x and y where it starts (its Tm)."""
    from pypdf.generic import ContentStream

    found, x, y = set(), None, None
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"Tm":
            x, y = float(operands[4]), float(operands[5])
        elif op == b"Tj":
            found.add((str(operands[0]), round(x, 1), round(y, 1)))
            x = y = None  # every string is placed by its own Tm
    return found


def expected_texts(page) -> set[tuple[str, float, float]]:
    """The same, from the layout: where each Text of a layout page starts."""
    out = set()
    for group in page.groups:
        for shape in group.shapes:
            if isinstance(shape, Text):
                width = text_width(shape.text, shape.font, shape.size)
                x = {"start": shape.x, "middle": shape.x - width / 2, "end": shape.x - width}[shape.anchor]
                out.add((shape.text, round(x, 1), round(page.height - shape.y, 1)))
    return out


@pytest.mark.parametrize("per_page", [1, 2, 4, 6])
@pytest.mark.parametrize("solutions", [False, True])
def test_pages_captions_and_givens(built, tmp_path, per_page, solutions):
    out = tmp_path / "book.pdf"
    result = book(built, "-o", str(out), "--count", "7", "--per-page", str(per_page),
                  *(["--solutions"] if solutions else []))
    assert result.exit_code == 0, result.output
    chosen = records(built, 7)
    pdf = read_pdf(out)
    puzzle_pages, answer_pages = page_counts(7, per_page, solutions)
    assert puzzle_pages == math.ceil(7 / per_page) and (answer_pages > 0) == solutions
    assert len(pdf.pages) == puzzle_pages + answer_pages
    assert all(float(p.mediabox.width) == pytest.approx(A4[0]) for p in pdf.pages)
    text = "\n".join(p.extract_text() for p in pdf.pages)
    for record in chosen:  # in query order, twice with the solutions
        assert text.count(caption(record)) == (2 if solutions else 1), caption(record)
    positions = [text.index(caption(r)) for r in chosen]
    assert positions == sorted(positions)
    # every given (and every solved digit) drawn as text at its cell's place, page by page
    layout = book_pages(chosen, per_page, solutions)
    for page, drawn in zip(layout, pdf.pages):
        assert placed_texts(pdf, drawn) == expected_texts(page)
    givens = sum(r.clues for r in chosen)
    assert sum(1 for p in layout[:puzzle_pages] for g in p.groups if g.kind == "grid"
               for s in g.shapes if isinstance(s, Text)) == givens


def test_a_caption_gives_the_score_or_says_it_needs_guessing(built):
    import dataclasses

    record = dataclasses.replace(records(built, 1)[0], level="hard", clues=24, score=4.2, hardest="xy-wing")
    assert caption(record) == f"No. {record.number} \u00b7 hard \u00b7 24 clues \u00b7 score 4.2"
    # serate's "beyond solver", 20, is no score a reader can place on the scale
    guess = dataclasses.replace(record, level="extreme", score=20.0, hardest="guessing")
    assert caption(guess) == f"No. {record.number} \u00b7 extreme \u00b7 24 clues \u00b7 needs guessing"
    assert caption(dataclasses.replace(record, level=None, score=None, hardest=None)) == (
        f"No. {record.number} \u00b7 ungraded \u00b7 24 clues")
    # one decimal, as everywhere; a board's second puzzle by its own number
    assert caption(dataclasses.replace(record, score=2.0, variant=2)) == (
        f"No. {record.number}.2 \u00b7 hard \u00b7 24 clues \u00b7 score 2.0")


def test_the_grids_are_vectors(built, tmp_path):
    out = tmp_path / "book.pdf"
    assert book(built, "-o", str(out), "--solutions").exit_code == 0
    pdf = read_pdf(out)
    for page in pdf.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        assert not xobjects, "a picture on the page"
        content = page.get_contents().get_data().decode("latin-1")
        assert " re " in content.replace("\n", " ") and " l " in content.replace("\n", " ")  # rectangles, lines
    fonts = {str(f.get_object()["/BaseFont"]) for p in pdf.pages for f in p["/Resources"]["/Font"].values()}
    assert fonts <= {"/Helvetica", "/Helvetica-Bold"}
    assert b"/Subtype /Image" not in out.read_bytes()


def test_default_count_and_the_same_bytes_twice(built, tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    result = book(built, "-o", str(a))
    assert result.exit_code == 0 and result.stderr == f"catalogue: wrote {a}: 12 puzzles on 3 pages\n"
    assert book(built, "-o", str(b)).exit_code == 0
    assert a.read_bytes() == b.read_bytes()  # reproducible: no date, no random id


def test_filters_and_samples_choose_like_query(built, tmp_path):
    out = tmp_path / "s.pdf"
    assert book(built, "-o", str(out), "--sample", "5", "--seed", "3", "--level", "hard").exit_code == 0
    with Catalogue.open(built, create=False) as cat:
        chosen = list(cat.puzzles(level="hard").sample(5, seed=3))
    text = "".join(p.extract_text() for p in read_pdf(out).pages)
    assert len(chosen) == 5 and all(caption(r) in text for r in chosen)
    assert text.count("No. ") == 5 and all(r.level == "hard" for r in chosen)


def test_mixed_sizes(sample_sqlite, tmp_path):
    out = tmp_path / "mixed.pdf"
    assert book(sample_sqlite, "-o", str(out), "--solutions").exit_code == 0
    chosen = records(sample_sqlite)
    pdf = read_pdf(out)
    assert {r.size for r in chosen} == {4, 9}
    assert len(pdf.pages) == sum(page_counts(5, 4, True))
    for page, drawn in zip(book_pages(chosen, 4, True), pdf.pages):
        assert placed_texts(pdf, drawn) == expected_texts(page)


def test_the_svg_sheet(built, tmp_path):
    out = tmp_path / "sheet.svg"
    result = book(built, "-o", str(out), "--per-page", "6", "--min-clues", "20")
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert root.tag == f"{SVG}svg" and root.get("width") == "210mm" and root.get("height") == "297mm"
    grids = [g for g in root.iter(f"{SVG}g") if g.get("class") == "grid"]
    chosen = records(built, 6, min_clues=20)
    assert len(grids) == 6
    for grid, record in zip(grids, chosen):
        assert sorted(t.text for t in grid.iter(f"{SVG}text")) == sorted(ch for ch in record.puzzle if ch != ".")
        assert grid.findall(f"{SVG}line") and grid.findall(f"{SVG}rect")
    captions = [g.find(f"{SVG}text").text for g in root.iter(f"{SVG}g") if g.get("class") == "caption"]
    assert captions == [caption(r) for r in chosen]
    assert not list(root.iter(f"{SVG}image"))
    small = tmp_path / "two.svg"
    assert book(built, "-o", str(small), "--count", "2").exit_code == 0
    assert len([g for g in ET.parse(small).getroot().iter(f"{SVG}g") if g.get("class") == "grid"]) == 2


def test_one_puzzle_for_the_web(built):
    record = records(built, 1)[0]
    root = ET.fromstring(puzzle_svg(record))
    assert [t.text for t in root.iter(f"{SVG}text")][1:] == [ch for ch in record.puzzle if ch != "."]
    solved = ET.fromstring(puzzle_svg(record, solution=True))
    assert [t.text for t in solved.iter(f"{SVG}text")][1:] == list(record.solution)
    assert len(pypdf.PdfReader(io.BytesIO(puzzle_pdf(record))).pages) == 1
    both = pypdf.PdfReader(io.BytesIO(puzzle_pdf(record, solution=True)))
    assert len(both.pages) == 2 and caption(record) in both.pages[1].extract_text()


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) is not installed")
def test_pdftotext_reads_the_captions(built, tmp_path):
    out = tmp_path / "book.pdf"
    assert book(built, "-o", str(out), "--count", "3").exit_code == 0
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert all(caption(r) in text for r in records(built, 3))


@pytest.mark.parametrize("name", ["book.pdf", "sheet.svg"])
def test_no_match_is_one_line_exit_1_and_no_file(built, tmp_path, name):
    out = tmp_path / name
    result = book(built, "-o", str(out), "--min-clues", "80")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", "catalogue: no puzzles match: nothing written\n")
    assert list(tmp_path.iterdir()) == []
    out.write_bytes(b"old")  # an existing file is left as it was
    assert book(built, "-o", str(out), "--min-clues", "80").exit_code == 1 and out.read_bytes() == b"old"


@pytest.mark.parametrize("args, message", [
    (["-o", "book.png"], "catalogue: -o: the file must end in .pdf (a book) or .svg (one sheet), not 'book.png'; "
                         "- for standard output"),
    (["-o", "book"], "catalogue: -o: the file must end in .pdf (a book) or .svg (one sheet), not 'book'; "
                     "- for standard output"),
    (["-o", "s.svg", "--solutions"], "catalogue: --solutions needs a book: -o FILE.pdf (an SVG is one sheet of "
                                     "puzzles)"),
    (["-o", "s.svg", "--count", "5"], "catalogue: -o s.svg: an SVG is one sheet: --count at most --per-page (4)"),
    (["-o", "b.pdf", "--per-page", "3"], "catalogue: --per-page: no per page '3'; one of: 1, 2, 4, 6"),
    (["-o", "b.pdf", "--count", "0"], None),
    (["-o", "b.pdf", "--min-clues", "30", "--max-clues", "20"], "catalogue: --min-clues 30 is above --max-clues 20"),
    ([], None),
])
def test_usage_errors_exit_2(built, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = book(built, *args)
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert len(result.stderr.strip().splitlines()) == 1
    if message:
        assert result.stderr.strip() == message
    if args:
        assert "-o" in result.stderr or "--" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_unwritable_paths_are_one_line_exit_1(built, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    folder = tmp_path / "folder.pdf"
    folder.mkdir()
    for target, message in [(blocker / "b.pdf", f"{blocker / 'b.pdf'}: cannot write ({blocker} is a file, not a "
                                                f"folder)"),
                             (folder, f"{folder}: is a directory, not a file")]:
        result = book(built, "-o", str(target))
        assert (result.exit_code, result.stderr) == (1, f"catalogue: {message}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "folder.pdf"] and not list(folder.iterdir())


def test_a_failed_write_leaves_no_file(built, tmp_path, monkeypatch):
    import catalogue.io

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(catalogue.io.os, "replace", full_disk)
    out = tmp_path / "book.pdf"
    result = book(built, "-o", str(out))
    assert (result.exit_code, result.stderr) == (1, f"catalogue: {out}: cannot write (No space left on device)\n")
    assert list(tmp_path.iterdir()) == []
