"""Where the grader's (or the carver's) compiled time goes, kernel by kernel, and which kernels pay reference counts.

    python bench/perf_counts.py [--count 1000] [--reps 3] [--top 20]
    python bench/perf_counts.py --puzzles top1465.txt [--count 300] [--reps 1]
    python bench/perf_counts.py --carve 4 [--count 20] [--reps 1]
    python bench/perf_counts.py --puzzles bench/hardest.txt --count 1 --reps 1 --nested

Needs Linux ``perf`` (``apt-get install linux-perf``). The script runs itself under
``perf record -e cpu-clock --call-graph dwarf,64``. In that run it grades ``--count`` random minimal 9x9 puzzles
(bench_grade's; with ``--puzzles FILE`` the first ``--count`` 81-character lines of that file, e.g. top1465)
``--reps`` times, or with ``--carve BOX`` carves ``--count`` random boards of that box size (the
carver's kernels, its metrics solve left out); with ``--nested``, it grades them with ``grade_many``, nested forcing
chains and all, and maps the kernels of the nested rows as well. It then prints two tables: the share of all samples in each
compiled kernel (self time), and the kernels that called ``NRT_incref``/``NRT_decref``.

How it finds them (docs/development.md, "Reference counts"):

- perf cannot unwind numba's code. The counters are leaf functions, so in each sample's copy of the user stack the
  return address into the caller is the second word.
- numba keeps no symbols for kernels it loads from the cache. The object code does: the run keeps a copy from
  ``CPUCodeLibrary._set_compiled_object``, reads its ELF symbol table, and writes each kernel's address range.
  Kernels are the grader's own (``_grade_many``'s library), named ``module.function``.

A developer's tool: it relies on numba internals (tested with numba 0.68) and prints no figure for the benchmarks
page by itself.
"""
from __future__ import annotations

import argparse
import bisect
import collections
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = "PERF_COUNTS_CHILD"  # set in the run under perf: its value is the folder to write the map into


def elf_functions(obj: bytes) -> list[tuple[str, int, int, int]]:
    """(name, section index, value, size) of every FUNC symbol of a 64-bit little-endian ELF object."""
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize) for i in range(shnum)]
    out = []
    for _name, kind, _flags, _addr, offset, size, link, _info, _align, _entsize in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strings = sections[link][4]
        for k in range(size // 24):
            st_name, st_info, _other, st_shndx, st_value, st_size = struct.unpack_from("<IBBHQQ", obj,
                                                                                       offset + 24 * k)
            if st_info & 0xF != 2:  # STT_FUNC
                continue
            end = obj.index(b"\0", strings + st_name)
            out.append((obj[strings + st_name:end].decode(), st_shndx, st_value, st_size))
    return out


def short_name(mangled: str) -> str:
    """``engine.grade.kernels.driver._solve`` from numba's Itanium-style mangled name (other names cut to 60
    characters)."""
    if not mangled.startswith("_ZN"):
        return mangled[:60]
    parts, i = [], 3
    while i < len(mangled) and mangled[i].isdigit():
        j = i
        while j < len(mangled) and mangled[j].isdigit():
            j += 1
        length = int(mangled[i:j])
        parts.append(mangled[j:j + length])
        i = j + length
    return ".".join(parts) or mangled[:60]


#: the kernels the nested rows call from Python, each with its own library (module, name)
NESTED = (("engine.grade.kernels.chains.nested", "_collect"), ("engine.grade.kernels.chains.nested", "_kept"),
          ("engine.grade.kernels.chains.nested_runs", "_run_on"),
          ("engine.grade.kernels.chains.nested_runs", "_run_plain"),
          ("engine.grade.kernels.chains.nested_runs", "_run_many"), ("engine.grade.kernels.chains.nested", "_add_kept"),
          ("engine.grade.kernels.chains.plain", "_plain_search_in"),
          ("engine.grade.kernels.chains.space", "_search_space_in"), ("engine.grade.kernels.chains.reuse", "_reuse"),
          ("engine.grade.kernels.chains.reuse", "_base_off"), ("engine.grade.kernels.chains.forcing", "_common"),
          ("engine.grade.kernels.chains.rule_parents", "_plain_rests_nowhere"))


def child(out: Path, count: int, reps: int, carve_box: int, puzzles_file: str, nested: bool = False) -> None:
    """The run under perf: grade (or carve), then write the kernels' address ranges and the counters' addresses."""
    from numba.core import codegen

    keep = codegen.CPUCodeLibrary._set_compiled_object

    def keeping(self, value):  # numba drops the object code once loaded; keep a copy to read its symbols
        self._kept_object = value
        return keep(self, value)

    codegen.CPUCodeLibrary._set_compiled_object = keeping
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import _common  # noqa: F401  (enables the kernel cache)
    from numba.core.runtime import nrt

    if carve_box:
        from engine.carve import _kernel, carve_many

        boards = _common.random_boards(carve_box, count, 1)
        carve_many(boards[:1], carve_box, [0])  # load (or compile) before the timed part
        started = time.process_time()
        for r in range(reps):
            carve_many(boards, carve_box, range(r * count, (r + 1) * count))
        print(f"carved {count} boards x {reps}: {time.process_time() - started:.2f} s of CPU", file=sys.stderr)
        top = _kernel._carve_batch
    else:
        from bench_grade import make_puzzles
        from engine.grade.kernels import driver

        if puzzles_file:
            from bench_serate import read_set, to_array

            puzzles = to_array(read_set(Path(puzzles_file))[:count])
            count = len(puzzles)
        else:
            puzzles = make_puzzles(3, count, 1)
        grade = driver.grade_counts
        if nested:
            from engine.grade import grade_many

            def grade(grids, box):
                return [grade_many(grids[i:i + 1], box) for i in range(len(grids))]
        grade(puzzles[:5], 3)  # load (or compile) before the timed part
        started = time.process_time()
        for _ in range(reps):
            grade(puzzles, 3)
        print(f"graded {count} puzzles x {reps}: {time.process_time() - started:.2f} s of CPU", file=sys.stderr)
        top = driver._grade_many
    tops = [top]
    if nested:
        import importlib

        tops += [getattr(importlib.import_module(module), name) for module, name in NESTED]
    with open(out / "map.txt", "w") as fh:
        for top in tops:
            for result in top.overloads.values():
                library = result.library
                if not hasattr(library, "_kept_object"):  # compiled in this run, not loaded: no object code kept
                    sys.exit("perf_counts: the kernels were compiled in this run, not loaded from the cache; run it "
                             "again")
                symbols = elf_functions(library._kept_object)
                entry = result.fndesc.llvm_func_name
                _, section, value, _ = next(s for s in symbols if s[0] == entry)
                base = library.get_pointer_to_function(entry) - value
                for name, shndx, value, size in symbols:
                    if shndx == section and size:
                        fh.write(f"{base + value:x} {size:x} {short_name(name)}\n")
        for name in ("NRT_incref", "NRT_decref"):
            fh.write(f"{nrt.rtsys.library.get_pointer_to_function(name):x} 20 {name}\n")


def report(data: Path, ranges: Path, top: int) -> None:
    rows = sorted((int(a, 16), int(s, 16), n) for a, s, n in (line.rstrip("\n").split(" ", 2) for line in open(ranges)))
    starts = [r[0] for r in rows]

    def kernel(address):
        i = bisect.bisect_right(starts, address) - 1
        return rows[i][2] if i >= 0 and address < rows[i][0] + rows[i][1] else None

    dump = subprocess.Popen(["perf", "report", "-D", "-i", str(data)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    raw = bytearray()
    sample, ip = b"", None
    total = 0
    own = collections.Counter()
    callers = collections.Counter()
    for line in dump.stdout:
        if line.startswith(". ") and ":  " in line:  # the raw event, dumped before its decoded lines
            raw += bytes(int(x, 16) for x in line.split(":  ", 1)[1][:48].split())
            continue
        if "raw event" in line:
            raw = bytearray()
            continue
        m = re.search(r"PERF_RECORD_SAMPLE\(IP, 0x2\): \d+/\d+: (0x[0-9a-f]+)", line)
        if m:  # a user-space sample
            ip, sample, raw = int(m.group(1), 16), bytes(raw), bytearray()
            total += 1
            own[kernel(ip) or "(not a mapped kernel)"] += 1
            continue
        m = re.search(r"ustack: size (\d+), offset (0x[0-9a-f]+)", line)
        if m and ip is not None and (kernel(ip) or "").startswith("NRT_"):
            offset = int(m.group(2), 16)
            name = "(unknown)"
            for word in range(int(m.group(1)) // 8):  # the return address: the first word inside a kernel
                address = int.from_bytes(sample[offset + 8 * word:offset + 8 * word + 8], "little")
                if kernel(address) and not kernel(address).startswith("NRT_"):
                    name = kernel(address)
                    break
            callers[name] += 1
            ip = None
    dump.wait()
    counted = sum(callers.values())
    print(f"{total} user-space samples; {counted} ({100 * counted / max(total, 1):.1f} %) in NRT_incref/NRT_decref")
    print("\nself time, share of all samples:")
    for name, k in own.most_common(top):
        print(f"  {100 * k / total:5.1f} %  {name}")
    print("\nreference counts, by the kernel that called them (share of all samples):")
    for name, k in callers.most_common(top):
        print(f"  {100 * k / total:5.1f} %  {name}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=1000, help="random minimal puzzles to grade (default 1000)")
    p.add_argument("--reps", type=int, default=3, help="times to grade them under perf (default 3)")
    p.add_argument("--top", type=int, default=20, help="rows of each table (default 20)")
    p.add_argument("--carve", type=int, default=0, metavar="BOX",
                   help="carve random boards of this box size instead of grading (--count boards)")
    p.add_argument("--puzzles", default="", metavar="FILE",
                   help="grade the first --count puzzles of FILE (81-character lines) instead of random ones")
    p.add_argument("--nested", action="store_true",
                   help="grade with grade_many, nested forcing chains and all, and map their kernels too")
    args = p.parse_args()
    if os.environ.get(CHILD):
        child(Path(os.environ[CHILD]), args.count, args.reps, args.carve, args.puzzles, args.nested)
        return
    if shutil.which("perf") is None:
        sys.exit("perf_counts: needs Linux perf on the PATH (apt-get install linux-perf)")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        env = dict(os.environ, **{CHILD: tmp})
        run = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "--call-graph", "dwarf,64", "-o",
                              str(data), sys.executable, __file__, "--count", str(args.count), "--reps",
                              str(args.reps), "--carve", str(args.carve), "--puzzles", args.puzzles]
                             + ["--nested"] * args.nested, env=env)
        if run.returncode != 0 or not (Path(tmp) / "map.txt").exists():
            sys.exit(f"perf_counts: the run under perf failed (exit {run.returncode})")
        report(data, Path(tmp) / "map.txt", args.top)


if __name__ == "__main__":
    main()
