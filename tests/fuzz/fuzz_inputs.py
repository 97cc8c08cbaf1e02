"""Hypothesis strategies for hostile input files: what the readers and the file commands are fuzzed with.

One strategy, :func:`inputs`, draws the bytes of a file from seven families, each named so a run can count them:

- ``bytes``: random bytes (mostly not UTF-8);
- ``unicode``: random text of any code points, encoded as UTF-8;
- ``mutant``: a sample file of ``data/samples/`` (one per input format) after one to four mutations: truncated,
  a range deleted or duplicated, characters inserted or replaced, lines swapped, a digit turned into a letter,
  a huge number or deep nesting spliced in;
- ``edge``: each format's edge cases built on purpose: lines one symbol short or long of every size, rows of the
  wrong length, triples out of range or repeated, ``# size`` comments, JSON of every wrong shape, pictures with a
  bar missing, comments only, blanks only, NUL bytes;
- ``nesting``: JSON arrays and objects nested around the limit and far past it (on one line and one per line);
- ``number``: numbers around the digit limit and of thousands of digits, in every format that holds numbers;
- ``long``: long lines (up to :data:`LONG_LINE` characters) of symbols, numbers, separators and bars.

Every family is then dressed at random: a UTF-8 BOM, CRLF or CR line endings, a final newline or not.
"""
from __future__ import annotations

from hypothesis import strategies as st

from paths import SAMPLES

from engine.formats.limits import MAX_JSON_DEPTH, MAX_NUMBER_DIGITS

SAMPLE_FILES = sorted(p.name for p in SAMPLES.iterdir() if p.is_file())
SAMPLE_BYTES = {name: (SAMPLES / name).read_bytes() for name in SAMPLE_FILES}
#: the longest line the short run builds (the long run and the limit tests go to 10 MB)
LONG_LINE = 200_000
FAMILIES = ("bytes", "unicode", "mutant", "edge", "nesting", "number", "long")

PUZZLE_9 = "7.8........38..9..4....6.7..45.12....7......9.......856.7.5...2..2...1..5....38.."
BOARD_9 = "758149623263875941491326578845912736376584219129637485687451392932768154514293867"
BOARD_4 = "1234341221434321"
SYMBOLS = "123456789ABCDEFGHIJKLMNOP.0"


def _huge(draw) -> str:
    return draw(st.sampled_from(["9" * (MAX_NUMBER_DIGITS + 1), "1" + "0" * 4400, "9" * 5000, "0" * 20,
                                 "1" * MAX_NUMBER_DIGITS, "123456789012345678901234567890"]))


def _nested(draw) -> str:
    depth = draw(st.sampled_from([MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, 1000, 100_000]))
    opener = draw(st.sampled_from(["[", "{\"grid\": ", "[{\"a\": "]))
    sep = draw(st.sampled_from(["", "\n", " "]))
    closed = draw(st.booleans())
    closer = {"[": "]", "{\"grid\": ": "}", "[{\"a\": ": "}]"}[opener]
    return (opener + sep) * depth + ("0" + (sep + closer) * depth if closed else "")


@st.composite
def mutant(draw) -> bytes:
    data = bytearray(SAMPLE_BYTES[draw(st.sampled_from(SAMPLE_FILES))])
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["truncate", "delete", "duplicate", "insert", "replace", "swap", "letter",
                                     "huge", "nest", "byte"]))
        at = draw(st.integers(0, len(data)))
        if kind == "truncate":
            del data[at:]
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 40))]
        elif kind == "duplicate":
            data[at:at] = data[at:at + draw(st.integers(1, 200))] * draw(st.integers(1, 5))
        elif kind == "insert":
            data[at:at] = draw(st.text(max_size=8)).encode("utf-8")
        elif kind == "replace" and at < len(data):
            data[at] = ord(draw(st.sampled_from(SYMBOLS + " |:-+,[]{}\"\n\t#")))
        elif kind == "swap":
            lines = bytes(data).split(b"\n")
            if len(lines) > 1:
                i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
                data = bytearray(b"\n".join(lines))
        elif kind == "letter":
            digits = [i for i, b in enumerate(data) if 48 <= b <= 57]
            if digits:
                data[draw(st.sampled_from(digits))] = ord(draw(st.sampled_from("AGPQZaz?")))
        elif kind == "huge":
            data[at:at] = _huge(draw).encode()
        elif kind == "nest":
            data[at:at] = _nested(draw).encode()
        elif kind == "byte":
            data[at:at] = draw(st.binary(min_size=1, max_size=3))
    return bytes(data)


@st.composite
def edge(draw) -> bytes:
    kind = draw(st.sampled_from(["line", "block", "txt", "rcv", "json", "pretty", "empty"]))
    if kind == "line":
        length = draw(st.sampled_from([0, 1, 15, 16, 17, 80, 81, 82, 255, 256, 257, 624, 625, 626]))
        alphabet = draw(st.sampled_from(["123456789.", "1234.", SYMBOLS, "x?é ", "123456789ABCDEFG."]))
        lines = [draw(st.text(alphabet, min_size=length, max_size=length))
                 for _ in range(draw(st.integers(1, 4)))]
        suffix = draw(st.sampled_from(["", ":1:" + BOARD_9, ":", ":::", "  # note"]))
        return "\n".join(line + suffix for line in lines).encode()
    if kind in ("block", "txt"):
        n = draw(st.sampled_from([4, 9, 16, 25]))
        rows = draw(st.integers(max(n - 2, 1), n + 2))
        sep = "" if kind == "block" and n <= 9 else " "
        cells = st.sampled_from(SYMBOLS[:n] + "." if kind == "block" else [str(i) for i in range(n + 2)] + ["x"])
        out = []
        for _ in range(rows):
            width = draw(st.sampled_from([n, n, n, n - 1, n + 1, 0]))
            out.append(sep.join(draw(cells) for _ in range(width)))
            if draw(st.integers(0, 9)) == 0:
                out.append(draw(st.sampled_from(["", "------+------", "# comment", "|||", "=+="])))
        return "\n".join(out).encode()
    if kind == "rcv":
        size = draw(st.sampled_from([None, 4, 9, 16, 25, 0, 7, 26]))
        lines = [] if size is None else [f"# size {size}"]
        if draw(st.booleans()):
            lines.append("row column value")
        number = st.integers(0, 27).map(str) | st.sampled_from(["x", "-1", "1.5", "", "٣"])
        for _ in range(draw(st.integers(0, 12))):
            lines.append(draw(st.sampled_from([" ", ",", ";", "\t"])).join(draw(st.lists(number, min_size=2,
                                                                                        max_size=4))))
        return "\n".join(lines).encode()
    if kind == "json":
        value = draw(st.sampled_from([
            '{"size": 4, "box": 2, "grid": [[0,0,0,1],[0,0,2,0],[0,4,0,0],[0,0,0,3]]}',
            '{"size": 9, "box": 2, "grid": []}', '{"grid": "' + PUZZLE_9 + '"}', '{"grid": 5}', '{}', '[]', '[[]]',
            '[[1,2],[3,4]]', '{"size": "9", "grid": [[0]]}', '{"size": 4.0, "grid": []}', '[NaN, Infinity]',
            '[[1e999, -0.0, null, true]]', '["' + BOARD_4 + '", "12"]', '[["1234","3412","2143","4321"]]',
            '{"grid": [[0,0,0,1],[0,0,2,0],[0,4,0,0],[0,0,0,99999999999]]}', '"abc"', '{"a": [}', '[1,,2]',
            '{"grid": [[0,0,0,1],[0,0,2,0],[0,4,0,0],[0,0,0,"x"]]}', '{"box": 2, "grid": [[0,0,0,1]]}',
        ]))
        return draw(st.sampled_from(["{}", "{}\n{}", "[{}]", "{} {}"])).replace("{}", value).encode()
    if kind == "pretty":
        picture = SAMPLE_BYTES["puzzle_9x9.pretty"].decode()
        lines = picture.split("\n")
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        if line:
            j = draw(st.integers(0, len(line) - 1))
            lines[i] = line[:j] + draw(st.sampled_from(["", "│", "║", "12", "ZZ", "x", " ", "═══╤"])) + line[j + 1:]
        return "\n".join(lines).encode()
    return draw(st.sampled_from([b"", b"\n", b"   \n\t\n", b"# only a comment\n", b"# size 9\n", b"\x00" * 10,
                                 b"\x00\n" * 3, b":", b"#", b"\xef\xbb\xbf", b"\r\r\r"]))


@st.composite
def number(draw) -> bytes:
    big = _huge(draw)
    template = draw(st.sampled_from([
        "[N]", '{"size": N, "grid": []}', '{"grid": [[N]]}', "1 1 N", "N 1 1", "# size N\n1 1 1",
        "1 2 3 4 5 6 7 8 N\n" * 9, "N", "║ N │", "[-N]", "[N.5]", "[1eN]", "N\n" * 4,
    ]))
    return template.replace("N", big).encode()


@st.composite
def long(draw) -> bytes:
    length = draw(st.sampled_from([1000, 50_000, LONG_LINE]))
    unit = draw(st.sampled_from(["1", "1 ", "-", "|", "│1", "-+", "x", "[1,", '"', "1 1 1 "]))
    line = (unit * (length // len(unit) + 1))[:length] + draw(st.sampled_from(["", "x", "\n" + PUZZLE_9]))
    return (line * draw(st.integers(1, 2))).encode()


def dress(data: bytes, bom: bool, ending: str, final_newline: bool | None) -> bytes:
    """``data`` with a UTF-8 BOM, its line endings turned into ``ending``, a final newline added or taken off."""
    if ending != "\n":
        data = data.replace(b"\n", ending.encode())
    if final_newline is True and not data.endswith(ending.encode()):
        data += ending.encode()
    elif final_newline is False:
        data = data.rstrip(b"\r\n")
    return (b"\xef\xbb\xbf" if bom else b"") + data


@st.composite
def inputs(draw, families: tuple[str, ...] = FAMILIES) -> tuple[str, bytes]:
    """``(family, bytes of a file)``."""
    family = draw(st.sampled_from(families))
    data = {
        "bytes": lambda: draw(st.binary(max_size=600)),
        "unicode": lambda: draw(st.text(max_size=300)).encode("utf-8", errors="surrogatepass"),
        "mutant": lambda: draw(mutant()),
        "edge": lambda: draw(edge()),
        "nesting": lambda: _nested(draw).encode(),
        "number": lambda: draw(number()),
        "long": lambda: draw(long()),
    }[family]()
    dressed = dress(data, draw(st.booleans()), draw(st.sampled_from(["\n", "\n", "\r\n", "\r"])),
                    draw(st.sampled_from([None, True, False])))
    return family, dressed
