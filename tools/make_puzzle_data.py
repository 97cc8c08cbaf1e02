"""Make data/puzzles-*.txt: puzzle:count:solution lines, checked with tests/naive.py.

Run from the repo root: python tools/make_puzzle_data.py
"""
import random, sys, time
sys.path.insert(0, "tests"); sys.path.insert(0, ".")  # tests/naive.py is the reference checker
import naive
from engine.formats import to_line
from engine.solvers import mrv, stack, fast
import numpy as np

def random_board(box, rng):
    n = box * box
    grid = [0] * (n * n)
    def fill(i):
        if i == n * n:
            return True
        digits = sorted(naive.candidates(grid, i)); rng.shuffle(digits)
        for d in digits:
            grid[i] = d
            if fill(i + 1):
                return True
        grid[i] = 0
        return False
    # fill row by row with random digit order; for 16x16 fill box-diagonal first to help
    sys.setrecursionlimit(5000)
    assert fill(0)
    return grid

def random_board_fast(box, rng):
    # random givens on the diagonal boxes, then complete with mrv (uses no engine randomness)
    n = box * box
    grid = [0] * (n * n)
    for b in range(box):
        digits = list(range(1, n + 1)); rng.shuffle(digits)
        k = 0
        for i in range(box):
            for j in range(box):
                grid[(b * box + i) * n + b * box + j] = digits[k]; k += 1
    r = (fast if box > 3 else mrv).solve(np.array(grid, dtype=np.int8), box, 1)
    assert r.count == 1
    return [int(v) for v in r.solution]

def carve(board, box, rng, stop_at=0):
    """Remove clues in random order while the puzzle stays unique; stop at stop_at clues."""
    puzzle = list(board)
    order = list(range(len(board))); rng.shuffle(order)
    for c in order:
        if sum(1 for v in puzzle if v) <= stop_at:
            break
        keep = puzzle[c]; puzzle[c] = 0
        if fast.solve(np.array(puzzle, dtype=np.int8), box, 2).count != 1:
            puzzle[c] = keep
    return puzzle

def entry(puzzle, box):
    t = time.time()
    count, sol = naive.count_solutions(puzzle, 2)
    print("  entry", box, count, round(time.time() - t, 2), flush=True)
    return f"{to_line(puzzle)}:{count}:{to_line(sol) if sol else ''}", count

def stack_nodes(puzzle, box, limit=100_000):
    r = stack.solve(puzzle, box, 2, limit)
    return None if r.gave_up else r.metrics.nodes

def make(box, seed, n_unique, stops, max_stack_nodes):
    rng = random.Random(seed)
    n = box * box
    lines = []
    # a few fixed shapes first
    board = random_board_fast(box, rng) if box > 2 else random_board(box, rng)
    lines.append(entry(board, box))                       # full board: 1
    one_blank = list(board); one_blank[rng.randrange(n * n)] = 0
    lines.append(entry(one_blank, box))                   # one blank: 1
    if box <= 3:
        lines.append(entry([0] * (n * n), box))           # empty grid: 2
    bad = list(one_blank)
    bad[0], bad[1] = 0, 0
    bad[0] = bad[1] = board[2]                            # same digit twice in row 1: conflicting givens
    lines.append(entry(bad, box))
    made = 0; tries = 0
    while made < n_unique and tries < n_unique * 20:
        tries += 1
        board = random_board_fast(box, rng) if box > 2 else random_board(box, rng)
        stop = stops[tries % len(stops)]
        puzzle = carve(board, box, rng, stop)
        nodes = stack_nodes(puzzle, box, max_stack_nodes)
        if nodes is None or nodes > max_stack_nodes:
            continue
        lines.append(entry(puzzle, box)); made += 1
        # a multi-solution twin: drop one more clue (count 2 when the drop breaks uniqueness)
        clues = [c for c, v in enumerate(puzzle) if v]; rng.shuffle(clues)
        for c in clues:
            twin = list(puzzle); twin[c] = 0
            if fast.solve(np.array(twin, dtype=np.int8), box, 2).count == 2 and (stack_nodes(twin, box, max_stack_nodes) or 10**9) <= max_stack_nodes:
                lines.append(entry(twin, box)); break
        # a no-solution twin: change one clue to another digit that clashes with no peer
        stack_tries = 0
        for c in clues:
            options = sorted(naive.candidates(puzzle, c) - {puzzle[c]})
            found = False
            if stack_tries > 12:
                break
            for d in options:
                twin = list(puzzle); twin[c] = d
                if fast.solve(np.array(twin, dtype=np.int8), box, 1).count != 0:
                    continue
                stack_tries += 1
                if (stack_nodes(twin, box, max_stack_nodes) or 10**9) <= max_stack_nodes:
                    lines.append(entry(twin, box)); found = True; break
            if found:
                break
    return lines

def write(path, lines, header):
    with open(path, "w") as f:
        f.write(header)
        for text, _ in lines:
            f.write(text + "\n")
    counts = [c for _, c in lines]
    print(path, len(lines), {k: counts.count(k) for k in set(counts)})

HEADER = ("# puzzle:count:solution  (count of solutions up to 2; solution = the first found by tests/naive.py,\n"
          "# empty when count is 0). Made by carving random boards while unique, plus multi-solution,\n"
          "# no-solution and conflicting-givens twins; every line checked with tests/naive.py.\n")
t = time.time()
if "16" not in sys.argv[1:]:
    write("data/puzzles-4x4.txt", make(2, 4, 12, [0, 4, 6, 8], 10**6), HEADER)
    write("data/puzzles-9x9.txt", make(3, 9, 14, [0, 0, 24, 28, 32, 40], 60_000), HEADER)
write("data/puzzles-16x16.txt", make(4, 16, 4, [120, 150, 170, 200], 60_000), HEADER)
print(time.time() - t)
