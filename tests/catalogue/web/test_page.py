"""The page in a real browser: headless Chromium from the system's packages, driven by Playwright, against the app
served by uvicorn on a free port (in a thread of this process: conftest.running_server; the `catalogue serve`
process itself, its signals and its own answers, is tests/catalogue/web/test_api.py's).

They skip, saying why, only where no Chromium is installed (.ci/run installs Debian's `chromium`).
"""
from __future__ import annotations

import json
import re
import os
import shutil
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from catalogue.cli import app as cli_app
from conftest import running_server
from engine.vocabulary import TECHNIQUE_OF

CHROMIUM = os.environ.get("CATALOGUE_TEST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
#: as root, with the machine's closed network: no sandbox, no background connections (they are refused)
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is a test dependency")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(base URL, the catalogue's records by number)."""
    folder = tmp_path_factory.mktemp("page")
    db = folder / "c.db"
    runner = CliRunner()
    assert runner.invoke(cli_app, ["fill", "--count", "30", "--seed", "4", "--db", str(db)]).exit_code == 0
    records = {r["number"]: r for r in json.loads(runner.invoke(
        cli_app, ["query", "--limit", "0", "--format", "json", "--db", str(db)]).stdout)}
    with _serving(db) as base:
        yield base, records


def _serving(db):
    """The app on ``db`` served on a free port: its base URL; stopped on leaving."""
    return running_server(str(db))


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert errors == [], f"the page's script failed: {errors}"


def _open(page, base: str, number: int) -> None:
    page.goto(f"{base}/#/puzzles/{number}")
    page.wait_for_selector("#board .cell")


def test_a_visit_logs_no_error(browser, site):
    # every request the page makes is answered (the browser's own ask for an icon too), nothing fails in its console
    base, _ = site
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    logged: list[str] = []
    page.on("console", lambda m: logged.append(m.text) if m.type == "error" else None)
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(base + "/")
    page.wait_for_selector("#list tbody tr")
    _open(page, base, 0)
    page.wait_for_load_state("networkidle")
    context.close()
    assert (logged, failed) == ([], [])


def test_browse_and_filter(page, site):
    base, records = site
    page.goto(base + "/")
    page.wait_for_selector("#list tbody tr")
    assert page.locator("#list tbody tr").count() == len(records)
    assert page.inner_text("#summary") == f"{len(records)} boards, {len(records)} puzzles"
    level = next(r["level"] for r in records.values())
    page.select_option("#level", level)
    page.fill("#min_clues", "24")
    page.click("#apply")
    page.wait_for_function("document.querySelector('#message').textContent.includes('puzzle')")
    shown = [int(t) for t in page.locator("#list tbody tr td:first-child").all_inner_texts()]
    expected = sorted(n for n, r in records.items() if r["level"] == level and r["clues"] >= 24)
    assert shown == expected
    assert "level=" in page.url and "min_clues=24" in page.url  # the filters are in the address: a link keeps them


def test_open_a_puzzle_from_the_list(page, site):
    base, records = site
    page.goto(base + "/")
    page.wait_for_selector("#list tbody tr")
    page.locator("#list tbody tr").nth(3).click()
    page.wait_for_selector("#board .cell")
    number = int(page.url.rsplit("/", 1)[1])
    record = records[number]
    caption = page.inner_text("#caption")
    assert f"Puzzle {number}" in caption and f"{record['clues']} clues" in caption and record["level"] in caption
    givens = page.locator("#board .cell.given").all_inner_texts()
    assert len(givens) == record["clues"]
    assert "".join(givens) == "".join(ch for ch in record["puzzle"] if ch != ".")


def test_a_puzzle_that_needs_guessing_says_so_instead_of_its_score(page, tmp_path):
    from puzzles import NEEDS_DYNAMIC_16  # guessing by the rows a catalogue grades with on 16x16

    (tmp_path / "p.txt").write_text(NEEDS_DYNAMIC_16 + "\n")
    db = tmp_path / "c.db"
    assert CliRunner().invoke(cli_app, ["import", str(tmp_path / "p.txt"), "--db", str(db)]).exit_code == 0
    with _serving(db) as base:
        _open(page, base, 0)
        caption = page.inner_text("#caption")
    assert caption == f"Puzzle 0 \u00b7 extreme \u00b7 {sum(ch != '.' for ch in NEEDS_DYNAMIC_16)} clues \u00b7 " \
                      f"needs guessing"


def test_play_conflicts_check_and_solve(page, site):
    base, records = site
    number, record = next(iter(records.items()))
    _open(page, base, number)
    puzzle, solution = record["puzzle"], record["solution"]
    blanks = [i for i, ch in enumerate(puzzle) if ch == "."]
    first = blanks[0]
    row_given = next(puzzle[c] for c in range(first // 9 * 9, first // 9 * 9 + 9) if puzzle[c] != ".")
    cell = page.locator(f'#board .cell[data-cell="{first}"] input')
    cell.fill(row_given)  # a digit the row already holds
    assert "conflict" in page.locator(f'#board .cell[data-cell="{first}"]').get_attribute("class")
    page.click("#hint")
    assert "conflict" in page.inner_text("#explain")
    cell.fill("x")  # not a digit: refused
    assert cell.input_value() == ""
    wrong = next(d for d in "123456789" if d != solution[first])
    cell.fill(wrong)
    page.click("#check")
    assert "not the solution's" in page.inner_text("#explain")
    for i in blanks:
        page.locator(f'#board .cell[data-cell="{i}"] input').fill(solution[i])
    assert page.locator("#board .cell.conflict").count() == 0
    page.click("#check")
    assert page.inner_text("#explain") == "Solved!"
    page.click("#clear")
    assert cell.input_value() == ""


def test_a_hint_is_the_graders_next_step_told_in_three_stages(page, site):
    """As HoDoKu's hints: first the technique and the region to look at, then the pattern's cells, then the whole
    step with its targets drawn apart (and Apply)."""
    base, records = site
    number, record = next(iter(records.items()))
    _open(page, base, number)
    with urllib.request.urlopen(f"{base}/api/hint?grid={record['puzzle']}", timeout=30) as answer:
        step = json.loads(answer.read())
    cells_of = lambda cls: {int(c) for c in page.eval_on_selector_all(  # noqa: E731
        f"#board .cell.{cls}", "els => els.map(e => e.dataset.cell)")}
    name = step["name"]  # the step's own name ("hidden single", "forcing X-chain"), not its row
    assert TECHNIQUE_OF[name] == step["technique"]
    page.click("#hint")
    page.wait_for_function("document.querySelector('#explain').textContent.startsWith('Hint 1 of 3')")
    assert page.inner_text("#explain").startswith(f"Hint 1 of 3: {name}. Look at ")
    assert cells_of("region") and page.is_hidden("#apply-hint")
    page.click("#hint")
    page.wait_for_function("document.querySelector('#explain').textContent.startsWith('Hint 2 of 3')")
    assert cells_of("pattern") == {c["cell"] for c in step["cells"]}
    page.click("#hint")
    page.wait_for_function("document.querySelector('#explain').textContent.startsWith('Hint:')")
    assert page.inner_text("#explain") == f"Hint: {step['explanation']}"
    assert cells_of("target") == {c["cell"] for c in step["placements"] + step["eliminations"]}
    assert page.is_visible("#apply-hint")


def test_keyboard_arrows_move_between_blanks(page, site):
    base, records = site
    number, record = next(iter(records.items()))
    _open(page, base, number)
    blanks = [i for i, ch in enumerate(record["puzzle"]) if ch == "."]
    page.locator(f'#board .cell[data-cell="{blanks[0]}"] input').focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.closest('.cell').dataset.cell")
    later = [b for b in blanks if b > blanks[0] and b // 9 == blanks[0] // 9]
    assert int(focused) == (later[0] if later else blanks[0])


def test_it_fits_a_phone_and_prints_only_the_grid(page, site, tmp_path):
    base, records = site
    _open(page, base, next(iter(records)))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "nothing scrolls sideways on a phone"
    box = page.locator("#board").bounding_box()
    assert box["width"] <= PHONE["width"] and abs(box["width"] - box["height"]) < 2  # a square grid on screen
    page.screenshot(path=str(tmp_path / "phone.png"))
    page.emulate_media(media="print")
    assert not page.locator("#controls").is_visible() and not page.locator("header").is_visible()
    assert page.locator("#board").is_visible() and page.locator("#caption").is_visible()
    pdf = tmp_path / "printed.pdf"
    page.pdf(path=str(pdf))
    assert pdf.read_bytes().startswith(b"%PDF")


def test_todays_puzzles_and_a_random_one(page, site):
    base, records = site
    page.goto(base + "/")
    page.wait_for_selector("#list tbody tr")
    page.click("#nav-daily")
    page.wait_for_function("document.querySelector('#message').textContent.startsWith(\"Today's puzzles\")")
    with urllib.request.urlopen(f"{base}/api/daily", timeout=30) as answer:
        expected = [p["number"] for p in json.loads(answer.read())["puzzles"]]
    shown = [int(t) for t in page.locator("#list tbody tr td:first-child").all_inner_texts()]
    assert shown == expected and shown
    page.click("#nav-all")
    page.wait_for_selector("#list tbody tr")
    level = next(r["level"] for r in records.values())
    page.select_option("#level", level)
    page.click("#random")
    page.wait_for_url("**/#/puzzles/*")
    page.wait_for_selector("#board .cell")
    number = int(page.url.rsplit("/", 1)[1])
    assert records[number]["level"] == level, "the random puzzle matches the filters"


def test_an_unknown_puzzle_says_so(page, site):
    base, _ = site
    page.goto(f"{base}/#/puzzles/999999")
    page.wait_for_function("document.querySelector('#caption').textContent.includes('no puzzle')")
    assert page.inner_text("#caption") == "no puzzle 999999"


def test_two_puzzles_of_one_board_are_reached_separately(page, tmp_path):
    """A puzzle imported onto a stored board is N.2: its own row in the list, its own page and caption."""
    from conftest import extra_puzzles

    db = tmp_path / "c.db"
    runner = CliRunner()
    assert runner.invoke(cli_app, ["fill", "--count", "4", "--seed", "11", "--db", str(db)]).exit_code == 0
    (tmp_path / "more.txt").write_text(extra_puzzles(f"sqlite:///{db}", [2], 99))
    assert runner.invoke(cli_app, ["import", str(tmp_path / "more.txt"), "--db", str(db)]).exit_code == 0
    with _serving(db) as base:
        page.goto(f"{base}/#/")
        page.wait_for_selector("tr[data-number='2.2']")
        assert [row.get_attribute("data-number") for row in page.query_selector_all("tr[data-number]")] == \
            ["0", "1", "2", "2.2", "3"]
        page.click("tr[data-number='2.2']")
        page.wait_for_url("**/#/puzzles/2.2")
        page.wait_for_selector("#board .cell")
        assert page.inner_text("#caption").startswith("Puzzle 2.2 ")
        second = [cell.inner_text() or "." for cell in page.query_selector_all("#board .cell")]
        _open(page, base, 2)
        page.wait_for_function("document.querySelector('#caption').textContent.startsWith('Puzzle 2 ')")
        first = [cell.inner_text() or "." for cell in page.query_selector_all("#board .cell")]
        assert first != second


def test_the_list_pages_through_every_match_with_its_total(page, tmp_path):
    """250 puzzles, 100 to a page: the first page says 1-100 of 250, `next page` follows the API's cursor to the
    last page, and the pages list every puzzle once, in order; a filter pages the same way."""
    db = tmp_path / "c.db"
    result = CliRunner().invoke(cli_app, ["fill", "--count", "250", "--seed", "8", "--db", str(db)])
    assert result.exit_code == 0, result.output
    with _serving(db) as base:
        page.goto(f"{base}/#/")
        seen, shown = [], []
        while True:
            page.wait_for_function("document.querySelector('#message').textContent.startsWith('Puzzles')")
            shown.append(page.inner_text("#message"))
            seen += [row.get_attribute("data-number") for row in page.query_selector_all("tr[data-number]")]
            if page.is_hidden("#next"):
                break
            before = page.inner_text("#message")
            page.click("#next")
            page.wait_for_function(f"document.querySelector('#message').textContent !== {before!r}")
        assert shown == ["Puzzles 1-100 of 250", "Puzzles 101-200 of 250", "Puzzles 201-250 of 250"]
        assert seen == [str(n) for n in range(250)]
        assert page.is_visible("#first")
        page.click("#first")
        page.wait_for_function("document.querySelector('#message').textContent === 'Puzzles 1-100 of 250'")
        easy = runner_json(db, "query", "--level", "easy", "--limit", "0")
        expected = f"Puzzles 1-100 of {len(easy)}" if len(easy) > 100 else f"{len(easy)} puzzles"
        page.select_option("#level", "easy")
        page.click("#apply")
        page.wait_for_function(f"document.querySelector('#message').textContent === {expected!r}")
        seen = [row.get_attribute("data-number") for row in page.query_selector_all("tr[data-number]")]
        while page.is_visible("#next"):  # the filtered list, to its last page
            before = page.inner_text("#message")
            page.click("#next")
            page.wait_for_function(f"(t => t !== {before!r} && t.startsWith('Puzzles'))("
                                   f"document.querySelector('#message').textContent)")
            seen += [row.get_attribute("data-number") for row in page.query_selector_all("tr[data-number]")]
        assert seen == [str(r["number"]) for r in easy]
        assert page.inner_text("#message").endswith(f"of {len(easy)}") or len(easy) <= 100


def runner_json(db, *args):
    result = CliRunner().invoke(cli_app, [*args, "--db", str(db), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("path, rendered", [("/docs", ".swagger-ui .info .title"), ("/redoc", ".redoc-wrap")])
def test_the_api_documentation_renders_with_the_network_blocked(page, site, path, rendered):
    """/docs (Swagger UI) and /redoc load every script and style from the server itself: with every request to
    another host refused, they still render the API's title and its paths (ReDoc's footer asks the internet for
    its logo, an image: the only request allowed to fail)."""
    base, _ = site
    refused: list[str] = []

    def only_ours(route):
        if route.request.url.startswith(base):
            route.continue_()
        else:
            if route.request.resource_type != "image":
                refused.append(route.request.url)
            route.abort()

    page.route("**/*", only_ours)
    page.goto(f"{base}{path}")
    page.wait_for_selector(rendered, timeout=30_000)
    page.wait_for_function("document.body.innerText.includes('/api/puzzles')", timeout=30_000)
    assert "catalogue" in page.inner_text("body") and refused == []


def test_the_filters_offer_the_vocabulary_and_the_catalogues_sources(page, tmp_path):
    """The dropdowns come from /api/choices: every technique, the sizes, the sort keys of the shown columns, and
    the sources of the catalogue's imported puzzles; filtering by a source lists its puzzles only."""
    from conftest import extra_puzzles

    from engine.vocabulary import SIZES, STEP_NAMES

    from catalogue.choices import HARDEST

    db = tmp_path / "c.db"
    runner = CliRunner()
    assert runner.invoke(cli_app, ["fill", "--count", "6", "--seed", "11", "--db", str(db)]).exit_code == 0
    (tmp_path / "more.txt").write_text(extra_puzzles(f"sqlite:///{db}", [2, 4], 99))
    assert runner.invoke(cli_app, ["import", str(tmp_path / "more.txt"), "--db", str(db)]).exit_code == 0
    with _serving(db) as base:
        page.goto(f"{base}/#/")
        page.wait_for_selector("#source option[value='more.txt']", state="attached")
        options = lambda sel: page.eval_on_selector_all(f"{sel} option", "os => os.map(o => o.value)")  # noqa: E731
        assert options("#technique") == ["", *HARDEST] and options("#size") == ["", *map(str, SIZES)]
        assert options("#order_by") == ["number", "size", "clues", "score", "level", "hardest"]
        page.select_option("#source", "more.txt")
        page.click("#apply")
        page.wait_for_url("**source=more.txt**")
        page.wait_for_function("document.querySelectorAll('tr[data-number]').length === 2")
        assert [r.get_attribute("data-number") for r in page.query_selector_all("tr[data-number]")] == ["2.2", "4.2"]
        technique = runner_json(db, "query", "--limit", "1")[0]["technique"]
        page.select_option("#source", "")
        page.select_option("#technique", technique)
        page.click("#apply")
        page.wait_for_url(f"**technique={technique}**")
        # the rows of that technique, each showing its hardest step's own name
        names = [name for name in STEP_NAMES[technique] if name]
        expected = len(runner_json(db, "query", "--technique", technique, "--limit", "0"))
        page.wait_for_function(f"[...document.querySelectorAll('tr[data-number]')].filter("
                               f"r => {names!r}.includes(r.cells[6].textContent)).length === {expected}")
        shown = {r.query_selector_all("td")[6].inner_text() for r in page.query_selector_all("tr[data-number]")}
        assert shown and shown <= set(names)


def _hint(page) -> str:
    """Press Hint until the whole step is said (a hint comes in three stages; the answer when there is no step
    comes at once), and return that sentence."""
    for _ in range(3):
        page.evaluate("document.querySelector('#explain').textContent = ''")
        page.click("#hint")
        page.wait_for_function("document.querySelector('#explain').textContent !== ''")
        text = page.inner_text("#explain")
        if not text.startswith("Hint ") or text.startswith("Hint: "):
            return text
    raise AssertionError(f"the third press did not say the step: {text}")


def _line(page) -> str:
    return page.evaluate("currentLine()")


def test_an_easy_puzzle_is_solved_by_pressing_hint_and_apply(page, site):
    base, records = site
    number, record = next((n, r) for n, r in records.items() if r["level"] == "easy")
    _open(page, base, number)
    for _ in range(81):
        if "." not in _line(page):
            break
        assert _hint(page).startswith("Hint: ")
        page.click("#apply-hint")
    assert _line(page) == record["solution"]
    page.click("#check")
    assert page.inner_text("#explain") == "Solved!"


def test_candidates_take_an_elimination_and_the_next_hint_differs(page, site):
    """Hints on a harder puzzle until one removes candidates: Apply removes them from the marks shown, the next
    hint (sent with the candidates) is another step; Undo puts them back, Redo removes them again."""
    base, records = site
    number, _ = next((n, r) for n, r in records.items() if r["level"] in ("hard", "expert"))
    _open(page, base, number)
    page.click("#marks")
    page.wait_for_selector("#board .marks")
    for _ in range(200):
        text = _hint(page)
        assert text.startswith("Hint: "), text
        if "removes" in text:
            break
        page.click("#apply-hint")
    else:
        pytest.fail("no elimination among the hints")
    marks_before = page.evaluate("candidatesParam()")
    page.click("#apply-hint")
    marks_after = page.evaluate("candidatesParam()")
    assert marks_after != marks_before and len(marks_after) < len(marks_before)
    assert _hint(page) != text
    page.click("#undo")
    assert page.evaluate("candidatesParam()") == marks_before
    page.click("#redo")
    assert page.evaluate("candidatesParam()") == marks_after


def test_a_reload_keeps_the_game(page, site):
    base, records = site
    number, record = next(iter(records.items()))
    _open(page, base, number)
    blank = record["puzzle"].index(".")
    page.locator(f'#board .cell[data-cell="{blank}"] input').fill(record["solution"][blank])
    page.click("#marks")
    page.click("#pencil")  # pencil: a digit typed toggles a candidate
    other = next(i for i, ch in enumerate(_line(page)) if ch == ".")
    mark = page.evaluate(f"candidatesOf(currentLine(), {other})[0]")
    page.locator(f'#board .cell[data-cell="{other}"] input').press(str(mark) if mark < 10 else "ABCDEFG"[mark - 10])
    kept = (_line(page), page.evaluate("candidatesParam()"))
    assert str(mark) not in kept[1].split(",")[other]
    page.reload()
    page.wait_for_selector("#board .cell")
    page.wait_for_function(f"currentLine() === {kept[0]!r}")
    assert (_line(page), page.evaluate("candidatesParam()")) == kept


def test_a_16x16_hint_writes_letters(page, tmp_path):
    db = tmp_path / "c.db"
    result = CliRunner().invoke(cli_app, ["fill", "--size", "16", "--count", "1", "--seed", "3", "--db", str(db)])
    assert result.exit_code == 0, result.output
    with _serving(db) as base:
        _open(page, base, 0)
        for _ in range(40):  # hints until one names a digit above 9 (as the grid writes it: a letter)
            text = _hint(page)
            found = re.search(r"(?:single|house) (\S+) in", text)
            if found and found.group(1) in "ABCDEFG":
                break
            page.click("#apply-hint")
        else:
            pytest.fail("no hint named a digit above 9")
        assert not re.search(r"single 1[0-6] in", text)


def test_each_row_previews_its_puzzle_and_prints_alone_or_with_its_solution(page, site, tmp_path):
    """The list draws each puzzle's givens on a small grid; Print keeps the puzzle as given (entries hidden),
    Print with solution fills the blank cells with the solution (a PDF of each, its text read back); the clock
    runs and is kept."""
    from pypdf import PdfReader

    base, records = site
    page.goto(f"{base}/#/")
    page.wait_for_selector("tr[data-number] svg.preview")
    number = page.query_selector("tr[data-number]").get_attribute("data-number")
    givens = page.eval_on_selector(f"tr[data-number='{number}'] svg.preview", "s => s.querySelectorAll('rect.given').length")
    assert givens == records[int(number)]["clues"]
    record = records[int(number)]
    _open(page, base, int(number))
    blank = record["puzzle"].index(".")
    wrong = next(d for d in "123456789" if d != record["solution"][blank])
    page.locator(f'#board .cell[data-cell="{blank}"] input').fill(wrong)
    texts = {}
    for kind in ("puzzle", "solution"):
        page.evaluate(f"document.body.classList.add('print-{kind}')")
        page.emulate_media(media="print")
        path = tmp_path / f"{kind}.pdf"
        page.pdf(path=str(path))
        page.emulate_media(media="screen")
        page.evaluate(f"document.body.classList.remove('print-{kind}')")
        texts[kind] = "".join(PdfReader(str(path)).pages[0].extract_text().split())
    givens_text = "".join(ch for ch in record["puzzle"] if ch != ".")
    assert "".join(ch for ch in texts["puzzle"] if ch.isdigit()).endswith(givens_text)
    assert texts["solution"].count(record["solution"][blank]) > texts["puzzle"].count(record["solution"][blank])
    page.wait_for_function("/^0:0[1-9]$/.test(document.querySelector('#clock').textContent)", timeout=15_000)


# -- shapes: every board drawn, played and hinted in its own shape ------------------------------------------------
@pytest.fixture(scope="module")
def shaped_site(tmp_path_factory):
    """(base URL, records by number) of a catalogue of 9x9, 6x6 (2x3), jigsaw 9x9 and X 9x9 boards."""
    db = tmp_path_factory.mktemp("shapes") / "c.db"
    runner = CliRunner()
    for shape in ([], ["--shape", "2x3"], ["--shape", "jigsaw", "--regions", "random", "--size", "9"],
                  ["--shape", "3x3", "--diagonals"]):
        result = runner.invoke(cli_app, ["fill", "--count", "3", "--seed", "6", *shape, "--db", str(db)])
        assert result.exit_code == 0, result.output
    records = {r["number"]: r for r in runner_json(db, "query", "--limit", "0")}
    with _serving(db) as base:
        yield base, records


def _first(records, name: str) -> tuple[int, dict]:
    return next((n, r) for n, r in records.items() if r["shape"].split(":")[0] == name)


def _cell_classes(page) -> list[set[str]]:
    return [set(c.split()) for c in page.eval_on_selector_all("#board .cell", "els => els.map(e => e.className)")]


def test_every_shape_is_drawn_with_its_regions_and_diagonals(page, shaped_site):
    """Thick lines where the engine's geometry puts two cells in different regions (boxes, a jigsaw's layout),
    thin ones elsewhere (square boxes exactly as before: after every third cell); the diagonals shaded on X."""
    from engine.geometry import geometry

    from catalogue.shapes import shape_of

    base, records = shaped_site
    for name in ("3x3", "2x3", "jigsaw9", "3x3+x"):
        number, record = _first(records, name)
        shape = shape_of(record["shape"])
        region, n = geometry(shape).box_of, shape.size
        _open(page, base, number)
        page.wait_for_function(f"document.querySelector('#caption').textContent.startsWith('Puzzle {number} ')")
        classes = _cell_classes(page)
        assert len(classes) == n * n
        for cell, have in enumerate(classes):
            row, col = divmod(cell, n)
            assert ("right-edge" in have) == (col < n - 1 and region[cell] != region[cell + 1]), (name, cell)
            assert ("bottom-edge" in have) == (row < n - 1 and region[cell] != region[cell + n]), (name, cell)
            assert ("diagonal" in have) == (shape.diagonals and (row == col or row + col == n - 1)), (name, cell)
        if name == "3x3":
            assert {c % 9 for c, have in enumerate(classes) if "right-edge" in have} == {2, 5}
        width = lambda cell: page.eval_on_selector(  # noqa: E731
            f'#board .cell[data-cell="{cell}"]', "e => getComputedStyle(e).borderRightWidth")
        thick = next(c for c, have in enumerate(classes) if "right-edge" in have)
        thin = next(c for c, have in enumerate(classes) if "right-edge" not in have and c % n < n - 1)
        assert (width(thick), width(thin)) == ("3px", "1px")
        shaded = [page.eval_on_selector(f'#board .cell[data-cell="{c}"]', "e => getComputedStyle(e).backgroundColor")
                  for c in (0, 1)]
        assert (shaded[0] != shaded[1]) == shape.diagonals  # cell 0 is on a diagonal, cell 1 is not


def test_the_list_shows_each_shape_and_filters_by_it(page, shaped_site):
    base, records = shaped_site
    page.goto(base + "/")
    page.wait_for_selector("#shape option[value='jigsaw9']", state="attached")
    page.wait_for_selector("tr[data-number]")
    options = page.eval_on_selector_all("#shape option", "os => os.map(o => [o.value, o.textContent])")
    assert options == [["", "any"], ["2x3", "6x6 (2x3)"], ["3x3", "9x9"], ["3x3+x", "9x9 X"],
                       ["jigsaw9", "jigsaw 9x9"]]
    shown = {r.get_attribute("data-number"): r.query_selector_all("td")[2].inner_text()
             for r in page.query_selector_all("tr[data-number]")}
    assert len(shown) == len(records)
    assert {shown[str(_first(records, name)[0])] for name in ("3x3", "2x3", "jigsaw9", "3x3+x")} == \
        {"9x9", "6x6 (2x3)", "jigsaw 9x9", "9x9 X"}
    page.select_option("#shape", "jigsaw9")
    page.click("#apply")
    page.wait_for_url("**shape=jigsaw9**")
    # (not empty: while the list is being replaced, "every row" holds of no rows)
    page.wait_for_function("(cells => cells.length > 0 && cells.every(td => td.textContent === 'jigsaw 9x9'))("
                           "[...document.querySelectorAll('tr[data-number] td:nth-child(3)')])")
    listed = [int(r.get_attribute("data-number")) for r in page.query_selector_all("tr[data-number]")]
    assert listed == sorted(n for n, r in records.items() if r["shape"].startswith("jigsaw9:"))


def test_playing_checks_the_shapes_own_units(page, shaped_site):
    """A digit its jigsaw region (or its diagonal) already holds is a conflict, though its row, column and the
    square box it would have been in do not hold it; on 6x6 the 2x3 box is the unit, not a square."""
    from engine.geometry import geometry

    from catalogue.shapes import shape_of

    base, records = shaped_site
    for name, kind in (("jigsaw9", "region"), ("3x3+x", "diagonal"), ("2x3", "region")):
        number, record = _first(records, name)
        shape = shape_of(record["shape"])
        geo, n, puzzle = geometry(shape), shape.size, record["puzzle"]
        units = [[int(c) for c in house] for house in geo.houses]
        kinds = [int(k) for k in geo.house_kind]
        wanted = {"region": 2, "diagonal": 3}[kind]

        def found():
            for house, unit_kind in zip(units, kinds):
                if unit_kind != wanted:
                    continue
                for cell in (c for c in house if puzzle[c] == "."):
                    others = {puzzle[c] for u in units if cell in u and u is not house for c in u}
                    for c in house:
                        if puzzle[c] != "." and puzzle[c] not in others:
                            return cell, c
            return None

        cell, holder = found()
        _open(page, base, number)
        page.locator(f'#board .cell[data-cell="{cell}"] input').fill(puzzle[holder])
        bad = {c for c, have in enumerate(_cell_classes(page)) if "conflict" in have}
        assert bad == {cell, holder}, (name, cell, holder)
        page.click("#clear")


@pytest.mark.parametrize("name", ["2x3", "jigsaw9", "3x3+x"])
def test_a_hint_on_a_6x6_jigsaw_or_x_puzzle_is_the_graders_step(page, shaped_site, name):
    """Three presses tell the step /api/hint gives for the record's shape; Apply makes it, and the digits it places
    are the solution's (the board's regions named as the grader names them: box 3, region 8, diagonal 2)."""
    base, records = shaped_site
    number, record = _first(records, name)
    _open(page, base, number)
    line = _line(page)
    shape = urllib.parse.quote(record["shape"])  # (3x3+x: a bare + is a space in a query)
    with urllib.request.urlopen(f"{base}/api/hint?grid={line}&shape={shape}", timeout=30) as answer:
        step = json.loads(answer.read())
    page.click("#hint")
    page.wait_for_function("document.querySelector('#explain').textContent.startsWith('Hint 1 of 3')")
    unit, n = ("box", 6) if name == "2x3" else ("region" if name == "jigsaw9" else "box", 9)
    regions = [h - 2 * n + 1 for h in step["houses"] if 2 * n <= h < 3 * n]  # the houses after rows and columns
    diagonals = [h - 3 * n + 1 for h in step["houses"] if h >= 3 * n]
    assert all(f"{unit} {k}" in page.inner_text("#explain") for k in regions)
    assert all(f"diagonal {k}" in page.inner_text("#explain") for k in diagonals)
    assert _hint(page) == f"Hint: {step['explanation']}"
    page.click("#apply-hint")
    after = _line(page)
    for p in step["placements"]:
        assert after[p["cell"]] == record["solution"][p["cell"]]
    assert after != line or step["eliminations"]
