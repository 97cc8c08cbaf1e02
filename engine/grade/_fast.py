"""The compiled twin of the grader: every technique, same search order, counting steps instead of recording them.

Each ``_technique`` kernel finds the FIRST deduction in exactly the order its Python module documents, applies
it to ``cells``/``cands`` in place and says whether it made progress; ``_grade_one`` loops easiest first like
:func:`engine.grade.grader.solve_logically`. So both paths make the same steps in the same order, and the tests
compare their counts on many puzzles (the Python modules are the readable reference; change both together).

All kernels live in this one file on purpose: numba's cache only notices edits to the file that defines the
kernel being compiled, so a driver cached against a callee in another file would go stale silently.

Candidates are int64 bitmasks (bit d-1 = digit d), so boxes up to 5 (25 digits) fit.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..geometry import geometry

SOLVED, STUCK, CONTRADICTION = 0, 1, 2
#: the counter each kernel adds to, in the order of grader.COUNTER_NAMES (hidden singles: box, then line)
COUNTER_ORDER = ("hidden-single", "hidden-single", "naked-single", "pointing", "claiming", "naked-pair", "x-wing",
                 "hidden-pair", "naked-triple", "swordfish", "hidden-triple", "xy-wing", "xyz-wing", "naked-quad",
                 "jellyfish", "hidden-quad", "simple-colouring", "x-chain", "xy-chain", "aic")


@kernel
def _popcount(x):
    """Set bits of x (0 <= x < 2**63), branch-free: counting bits one at a time was a tenth of the run time."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@kernel
def _digit_of(bit):
    """The digit of a one-bit mask."""
    return _popcount(bit - 1) + 1


@kernel
def _sees(a, b, row_of, col_of, box_of):
    return a != b and (row_of[a] == row_of[b] or col_of[a] == col_of[b] or box_of[a] == box_of[b])


@kernel
def _place(cells, cands, peers, cell, digit):
    cells[cell] = digit
    cands[cell] = 0
    clear = ~(np.int64(1) << (digit - 1))
    for p in peers[cell]:
        cands[p] &= clear


@kernel
def _next_combination(idx, k, m):
    """Advance ``idx`` (k increasing indices below m) to the next combination in lexicographic order, like
    itertools.combinations; False after the last."""
    i = k - 1
    while i >= 0 and idx[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


@kernel
def _hidden_single(cells, cands, houses, peers, n):
    """0 if none, else the counter: 0 for a box, 1 for a row or column (boxes searched first)."""
    for k in range(3 * n):
        h = 2 * n + k if k < n else k - n
        once = np.int64(0)
        more = np.int64(0)
        for i in range(n):
            m = cands[houses[h, i]]
            more |= once & m
            once |= m
        once &= ~more
        if once:
            bit = once & -once
            for i in range(n):
                c = houses[h, i]
                if cands[c] & bit:
                    _place(cells, cands, peers, c, _digit_of(bit))
                    return 1 if h >= 2 * n else 2
    return 0


@kernel
def _naked_single(cells, cands, peers):
    for c in range(cells.size):
        m = cands[c]
        if m and not m & (m - 1):
            _place(cells, cands, peers, c, _digit_of(m))
            return True
    return False


@kernel
def _pointing(cands, houses, row_of, col_of, box_of, n):
    for b in range(n):
        h = 2 * n + b
        for d in range(1, n + 1):
            bit = np.int64(1) << (d - 1)
            count, r0, c0, same_row, same_col = 0, -1, -1, True, True
            for i in range(n):
                c = houses[h, i]
                if cands[c] & bit:
                    if count == 0:
                        r0, c0 = row_of[c], col_of[c]
                    else:
                        same_row &= row_of[c] == r0
                        same_col &= col_of[c] == c0
                    count += 1
            if count < 2:
                continue
            line = r0 if same_row else (n + c0 if same_col else -1)
            if line < 0:
                continue
            changed = False
            for i in range(n):
                c = houses[line, i]
                if cands[c] & bit and box_of[c] != b:
                    cands[c] &= ~bit
                    changed = True
            if changed:
                return True
    return False


@kernel
def _claiming(cands, houses, box_of, n):
    for line in range(2 * n):
        for d in range(1, n + 1):
            bit = np.int64(1) << (d - 1)
            count, b, same = 0, -1, True
            for i in range(n):
                c = houses[line, i]
                if cands[c] & bit:
                    if count == 0:
                        b = box_of[c]
                    else:
                        same &= box_of[c] == b
                    count += 1
            if count < 2 or not same:
                continue
            changed = False
            for i in range(n):
                c = houses[2 * n + b, i]
                if cands[c] & bit and not _in_house(c, houses, line, n):
                    cands[c] &= ~bit
                    changed = True
            if changed:
                return True
    return False


@kernel
def _in_house(cell, houses, h, n):
    for i in range(n):
        if houses[h, i] == cell:
            return True
    return False


@kernel
def _naked_subset(cands, houses, row_of, col_of, box_of, n, k):
    small = np.empty(n, np.int64)
    idx = np.empty(k, np.int64)
    shared = np.empty(3, np.int64)
    for h in range(3 * n):
        m = 0
        for i in range(n):
            c = houses[h, i]
            if 2 <= _popcount(cands[c]) <= k:
                small[m] = c
                m += 1
        if m < k:
            continue
        for j in range(k):
            idx[j] = j
        while True:
            union = np.int64(0)
            for j in range(k):
                union |= cands[small[idx[j]]]
            if _popcount(union) == k:
                first = small[idx[0]]
                same_row, same_col, same_box = True, True, True
                for j in range(1, k):
                    c = small[idx[j]]
                    same_row &= row_of[c] == row_of[first]
                    same_col &= col_of[c] == col_of[first]
                    same_box &= box_of[c] == box_of[first]
                shared[0] = row_of[first] if same_row else -1
                shared[1] = n + col_of[first] if same_col else -1
                shared[2] = 2 * n + box_of[first] if same_box else -1
                changed = False
                for s in range(3):
                    if shared[s] < 0:
                        continue
                    for i in range(n):
                        c = houses[shared[s], i]
                        if cands[c] & union:
                            member = False
                            for j in range(k):
                                member |= small[idx[j]] == c
                            if not member:
                                cands[c] &= ~union
                                changed = True
                if changed:
                    return True
            if not _next_combination(idx, k, m):
                break
    return False


@kernel
def _hidden_subset(cands, houses, n, k):
    digits = np.empty(n, np.int64)
    places = np.empty(n, np.int64)
    idx = np.empty(k, np.int64)
    for h in range(3 * n):
        m = 0
        for d in range(1, n + 1):
            bit = np.int64(1) << (d - 1)
            mask = np.int64(0)
            for i in range(n):
                if cands[houses[h, i]] & bit:
                    mask |= np.int64(1) << i
            if 2 <= _popcount(mask) <= k:
                digits[m] = d
                places[m] = mask
                m += 1
        if m < k:
            continue
        for j in range(k):
            idx[j] = j
        while True:
            union = np.int64(0)
            keep = np.int64(0)
            for j in range(k):
                union |= places[idx[j]]
                keep |= np.int64(1) << (digits[idx[j]] - 1)
            if _popcount(union) == k:
                changed = False
                for i in range(n):
                    c = houses[h, i]
                    if union >> i & 1 and cands[c] & ~keep:
                        cands[c] &= keep
                        changed = True
                if changed:
                    return True
            if not _next_combination(idx, k, m):
                break
    return False


@kernel
def _fish(cands, houses, n, k):
    lines = np.empty(n, np.int64)
    places = np.empty(n, np.int64)
    idx = np.empty(k, np.int64)
    for d in range(1, n + 1):
        bit = np.int64(1) << (d - 1)
        for kind in range(2):  # rows as base (covers are columns), then columns as base
            m = 0
            for i in range(n):
                mask = np.int64(0)
                for j in range(n):
                    if cands[houses[kind * n + i, j]] & bit:
                        mask |= np.int64(1) << j
                if 2 <= _popcount(mask) <= k:
                    lines[m] = i
                    places[m] = mask
                    m += 1
            if m < k:
                continue
            for j in range(k):
                idx[j] = j
            while True:
                cover = np.int64(0)
                base = np.int64(0)
                for j in range(k):
                    cover |= places[idx[j]]
                    base |= np.int64(1) << lines[idx[j]]
                if _popcount(cover) == k:
                    changed = False
                    for j in range(n):
                        if cover >> j & 1:
                            for i in range(n):  # cell i of cross line j lies in base-kind line i
                                c = houses[(1 - kind) * n + j, i]
                                if cands[c] & bit and not base >> i & 1:
                                    cands[c] &= ~bit
                                    changed = True
                    if changed:
                        return True
                if not _next_combination(idx, k, m):
                    break
    return False


@kernel
def _wing(cands, peers, row_of, col_of, box_of, xyz):
    """XY-Wing (``xyz`` False) or XYZ-Wing (True)."""
    wings = np.empty(peers.shape[1], np.int64)
    for pivot in range(cands.size):
        pm = cands[pivot]
        if _popcount(pm) != (3 if xyz else 2):
            continue
        m = 0
        for p in peers[pivot]:
            if _popcount(cands[p]) == 2 and (cands[p] & ~pm == 0 if xyz else _popcount(cands[p] & pm) == 1):
                wings[m] = p
                m += 1
        for a in range(m):
            p1 = wings[a]
            for b in range(a + 1, m):
                p2 = wings[b]
                if xyz:
                    if cands[p1] == cands[p2]:
                        continue
                    z = cands[p1] & cands[p2]
                else:
                    if cands[p1] & pm == cands[p2] & pm:
                        continue
                    z = cands[p1] & ~pm
                    if z != cands[p2] & ~pm:
                        continue
                changed = False
                for c in peers[p1]:
                    if (cands[c] & z and _sees(c, p2, row_of, col_of, box_of)
                            and (not xyz or _sees(c, pivot, row_of, col_of, box_of))):
                        cands[c] &= ~z
                        changed = True
                if changed:
                    return True
    return False


@kernel
def _strong_links(cands, houses, n, bit, adj, nadj):
    """Conjugate pairs of one digit: adj[c, :nadj[c]] the partners of c, ascending, without repeats."""
    nadj[:] = 0
    for h in range(3 * n):
        a, b, count = -1, -1, 0
        for i in range(n):
            c = houses[h, i]
            if cands[c] & bit:
                count += 1
                if count == 1:
                    a = c
                else:
                    b = c
        if count != 2:
            continue
        for x, y in ((a, b), (b, a)):
            known = False
            for j in range(nadj[x]):
                known |= adj[x, j] == y
            if not known:
                j = nadj[x]  # insert y keeping the row sorted
                while j > 0 and adj[x, j - 1] > y:
                    adj[x, j] = adj[x, j - 1]
                    j -= 1
                adj[x, j] = y
                nadj[x] += 1


@kernel
def _colouring(cands, houses, peers, row_of, col_of, box_of, n):
    ncells = cands.size
    adj = np.empty((ncells, 3), np.int64)
    nadj = np.empty(ncells, np.int64)
    colour = np.empty(ncells, np.int64)
    cluster = np.empty(ncells, np.int64)
    queue = np.empty(ncells, np.int64)
    for d in range(1, n + 1):
        bit = np.int64(1) << (d - 1)
        _strong_links(cands, houses, n, bit, adj, nadj)
        cluster[:] = -1
        for start in range(ncells):
            if nadj[start] == 0 or cluster[start] >= 0:
                continue
            cluster[start], colour[start] = start, 0
            queue[0] = start
            head, tail, ok = 0, 1, True
            while head < tail:
                c = queue[head]
                head += 1
                for j in range(nadj[c]):
                    o = adj[c, j]
                    if cluster[o] < 0:
                        cluster[o], colour[o] = start, 1 - colour[c]
                        queue[tail] = o
                        tail += 1
                    elif colour[o] == colour[c]:
                        ok = False
            if not ok:
                continue
            for side in range(2):  # wrap: two cells of one colour in one house
                clash = False
                for a in range(tail):
                    for b in range(a + 1, tail):
                        x, y = queue[a], queue[b]
                        clash |= colour[x] == side and colour[y] == side and _sees(x, y, row_of, col_of, box_of)
                if clash:
                    for a in range(tail):
                        if colour[queue[a]] == side:
                            cands[queue[a]] &= ~bit
                    return True
            changed = False
            for c in range(ncells):  # trap: a cell outside the cluster that sees both colours
                if not cands[c] & bit or cluster[c] == start:
                    continue
                seen = 0
                for a in range(tail):
                    if _sees(c, queue[a], row_of, col_of, box_of):
                        seen |= 1 << colour[queue[a]]
                if seen == 3:
                    cands[c] &= ~bit
                    changed = True
            if changed:
                return True
    return False


@kernel
def _targets(cands, peers, start, bit, out):
    """The peers of ``start`` holding ``bit``, into ``out``; how many. Chains end by asking which of them also
    see the far end; listing them once per start rather than once per end halved the chains' run time."""
    count = 0
    for p in peers[start]:
        if cands[p] & bit:
            out[count] = p
            count += 1
    return count


@kernel
def _removes(targets, count, end, row_of, col_of, box_of):
    for i in range(count):
        if targets[i] != end and _sees(targets[i], end, row_of, col_of, box_of):
            return True
    return False


@kernel
def _x_chain(cands, houses, peers, row_of, col_of, box_of, n):
    ncells = cands.size
    adj = np.empty((ncells, 3), np.int64)
    nadj = np.empty(ncells, np.int64)
    seen = np.zeros(2 * ncells, np.int64)  # BFS stamp per node (cell * 2 + holds)
    dist = np.empty(2 * ncells, np.int64)
    queue = np.empty(2 * ncells, np.int64)
    targets = np.empty(peers.shape[1], np.int64)
    stamp = 0
    for d in range(1, n + 1):
        bit = np.int64(1) << (d - 1)
        _strong_links(cands, houses, n, bit, adj, nadj)
        linked = 0
        for c in range(ncells):
            linked += nadj[c] > 0
        if linked < 3:
            continue
        best_len, best_start, best_end = 1 << 30, -1, -1
        for start in range(ncells):
            if nadj[start] == 0:
                continue
            ntargets = _targets(cands, peers, start, bit, targets)
            stamp += 1
            seen[2 * start], dist[2 * start], queue[0] = stamp, 0, 2 * start
            head, tail = 0, 1
            while head < tail:
                node = queue[head]
                head += 1
                if dist[node] + 2 >= best_len:
                    break  # every end still to come is at least as long as the best
                cell, holds = node >> 1, node & 1
                count = peers.shape[1] if holds else nadj[cell]
                for j in range(count):
                    other = peers[cell, j] if holds else adj[cell, j]
                    if holds and not cands[other] & bit:
                        continue
                    nxt = 2 * other + 1 - holds
                    if seen[nxt] == stamp:
                        continue
                    seen[nxt], dist[nxt] = stamp, dist[node] + 1
                    queue[tail] = nxt
                    tail += 1
                    if not holds and other != start and dist[nxt] >= 3 and _removes(targets, ntargets, other,
                                                                                        row_of, col_of, box_of):
                        best_len, best_start, best_end = dist[nxt] + 1, start, other
                        break
        if best_start >= 0:
            for p in peers[best_start]:
                if cands[p] & bit and p != best_end and _sees(p, best_end, row_of, col_of, box_of):
                    cands[p] &= ~bit
            return True
    return False


@kernel
def _xy_chain(cands, peers, row_of, col_of, box_of, n):
    """Nodes are cell * n + (digit - 1): "the cell holds digit" when the start is not z."""
    ncells = cands.size
    flip = np.full(ncells * n, -1, np.int64)  # a bivalue cell's candidate -> its other candidate
    for c in range(ncells):
        if _popcount(cands[c]) == 2:
            low = cands[c] & -cands[c]
            a, b = c * n + _digit_of(low) - 1, c * n + _digit_of(cands[c] & ~low) - 1
            flip[a], flip[b] = b, a
    seen = np.zeros(ncells * n, np.int64)
    dist = np.empty(ncells * n, np.int64)
    queue = np.empty(ncells * n, np.int64)
    targets = np.empty(peers.shape[1], np.int64)
    stamp = 0
    best_len, best_start, best_end, best_z = 1 << 30, -1, -1, np.int64(0)
    for first_z in range(ncells * n):  # the start cell and z, as the node "start holds z"
        if flip[first_z] < 0:
            continue
        start, bit_z = first_z // n, np.int64(1) << (first_z % n)
        ntargets = _targets(cands, peers, start, bit_z, targets)
        first = flip[first_z]
        stamp += 1
        seen[first], dist[first], queue[0] = stamp, 1, first
        head, tail = 0, 1
        while head < tail:
            node = queue[head]
            head += 1
            if dist[node] + 1 >= best_len:
                break
            cell, d = node // n, node % n
            for p in peers[cell]:
                nxt = flip[p * n + d]
                if nxt < 0 or seen[nxt] == stamp:
                    continue
                seen[nxt], dist[nxt] = stamp, dist[node] + 1
                queue[tail] = nxt
                tail += 1
                if (nxt % n == first_z % n and p != start and dist[nxt] >= 3
                        and _removes(targets, ntargets, p, row_of, col_of, box_of)):
                    best_len, best_start, best_end, best_z = dist[nxt], start, p, bit_z
                    break
    if best_start < 0:
        return False
    for c in peers[best_start]:
        if cands[c] & best_z and c != best_end and _sees(c, best_end, row_of, col_of, box_of):
            cands[c] &= ~best_z
    return True


@kernel
def _aic_strong(cands, houses, n, adj, nadj):
    """Strong links between candidates (node = cell * n + digit - 1): adj[v, :nadj[v]], ascending, no repeats."""
    nadj[:] = 0
    for c in range(cands.size):
        if _popcount(cands[c]) == 2:
            low = cands[c] & -cands[c]
            a, b = c * n + _digit_of(low) - 1, c * n + _digit_of(cands[c] & ~low) - 1
            _add_link(adj, nadj, a, b)
            _add_link(adj, nadj, b, a)
    for h in range(3 * n):
        for d in range(n):
            bit = np.int64(1) << d
            a, b, count = -1, -1, 0
            for i in range(n):
                c = houses[h, i]
                if cands[c] & bit:
                    count += 1
                    if count == 1:
                        a = c
                    else:
                        b = c
            if count == 2:
                _add_link(adj, nadj, a * n + d, b * n + d)
                _add_link(adj, nadj, b * n + d, a * n + d)


@kernel
def _add_link(adj, nadj, x, y):
    for j in range(nadj[x]):
        if adj[x, j] == y:
            return
    j = nadj[x]  # insert y keeping the row sorted
    while j > 0 and adj[x, j - 1] > y:
        adj[x, j] = adj[x, j - 1]
        j -= 1
    adj[x, j] = y
    nadj[x] += 1


@kernel
def _aic_weak(cands, peers, n, first, links):
    """Weak links as compressed rows: links[first[v]:first[v+1]] are the candidates ruled out when v is true,
    ascending (peers before the cell with the digit, the cell's other digits, peers after). Built once per
    search instead of per visit: a visit then touches only real links, not every peer and digit."""
    k = 0
    for v in range(cands.size * n):
        first[v] = k
        cell, d = v // n, v % n
        if not cands[cell] >> d & 1:
            continue
        for p in peers[cell]:
            if p < cell and cands[p] >> d & 1:
                links[k] = p * n + d
                k += 1
        for x in range(n):
            if x != d and cands[cell] >> x & 1:
                links[k] = cell * n + x
                k += 1
        for p in peers[cell]:
            if p > cell and cands[p] >> d & 1:
                links[k] = p * n + d
                k += 1
    first[cands.size * n] = k


@kernel
def _aic_removes(cands, s, d, e, f, targets, ntargets, row_of, col_of, box_of):
    """Whether "d at s or f at e" (digits 0-based) removes anything; ``targets`` are s's peers holding d."""
    if d == f:
        return _removes(targets, ntargets, e, row_of, col_of, box_of)
    if s == e:
        return cands[s] & ~((np.int64(1) << d) | (np.int64(1) << f)) != 0
    if _sees(s, e, row_of, col_of, box_of):
        return (cands[s] >> f & 1) + (cands[e] >> d & 1) > 0
    return False


@kernel
def _aic(cands, houses, peers, row_of, col_of, box_of, n):
    """BFS nodes are candidate * 2 + holds (holds = 1: the candidate is true)."""
    nodes = cands.size * n
    adj = np.empty((nodes, 4), np.int64)
    nadj = np.empty(nodes, np.int64)
    first = np.empty(nodes + 1, np.int64)
    total = 0
    for c in range(cands.size):
        total += _popcount(cands[c])
    links = np.empty(total * (peers.shape[1] + n), np.int64)  # room for every link of every candidate
    seen = np.zeros(2 * nodes, np.int64)
    dist = np.empty(2 * nodes, np.int64)
    queue = np.empty(2 * nodes, np.int64)
    targets = np.empty(peers.shape[1], np.int64)
    _aic_strong(cands, houses, n, adj, nadj)
    _aic_weak(cands, peers, n, first, links)
    stamp = 0
    best_len, best_start, best_end = 1 << 30, -1, -1
    for start in range(nodes):
        if nadj[start] == 0:
            continue
        s, d = start // n, start % n
        ntargets = _targets(cands, peers, s, np.int64(1) << d, targets)
        stamp += 1
        seen[2 * start], dist[2 * start], queue[0] = stamp, 0, 2 * start
        head, tail = 0, 1
        while head < tail:
            node = queue[head]
            head += 1
            if dist[node] + 2 >= best_len:
                break  # every end still to come is at least as long as the best
            v, holds = node >> 1, node & 1
            lo, hi = (first[v], first[v + 1]) if holds else (0, nadj[v])
            for j in range(lo, hi):
                other = links[j] if holds else adj[v, j]
                nxt = 2 * other + 1 - holds
                if seen[nxt] == stamp:
                    continue
                seen[nxt], dist[nxt] = stamp, dist[node] + 1
                queue[tail] = nxt
                tail += 1
                if (not holds and other != start and dist[nxt] >= 3
                        and _aic_removes(cands, s, d, other // n, other % n, targets, ntargets,
                                         row_of, col_of, box_of)):
                    best_len, best_start, best_end = dist[nxt] + 1, start, other
                    break
    if best_start < 0:
        return False
    _aic_apply(cands, peers, row_of, col_of, box_of, n, best_start, best_end)
    return True


@kernel
def _aic_apply(cands, peers, row_of, col_of, box_of, n, a, b):
    """Remove what "candidate a or candidate b" rules out (the three cases of aic.py)."""
    s, d, e, f = a // n, a % n, b // n, b % n
    if d == f:
        bit = np.int64(1) << d
        for c in peers[s]:
            if cands[c] & bit and c != e and _sees(c, e, row_of, col_of, box_of):
                cands[c] &= ~bit
    elif s == e:
        cands[s] &= (np.int64(1) << d) | (np.int64(1) << f)
    else:
        cands[s] &= ~(np.int64(1) << f)
        cands[e] &= ~(np.int64(1) << d)


@kernel
def _contradiction(cells, cands, houses, n):
    full = (np.int64(1) << n) - 1
    for c in range(cells.size):
        if cells[c] == 0 and cands[c] == 0:
            return True
    for h in range(3 * n):
        covered = np.int64(0)
        for i in range(n):
            c = houses[h, i]
            covered |= cands[c]
            if cells[c]:
                covered |= np.int64(1) << (cells[c] - 1)
        if covered != full:
            return True
    return False


@kernel
def _grade_one(puzzle, houses, peers, row_of, col_of, box_of, n, counts, cells, cands):
    """Solve like the grader, adding to ``counts`` (COUNTER_ORDER); SOLVED, STUCK or CONTRADICTION."""
    cells[:] = 0
    cands[:] = (np.int64(1) << n) - 1
    blanks = cells.size
    for c in range(cells.size):
        d = puzzle[c]
        if d:
            if not cands[c] >> (d - 1) & 1:
                return CONTRADICTION
            _place(cells, cands, peers, c, d)
            blanks -= 1
    while blanks:
        found = _hidden_single(cells, cands, houses, peers, n)
        if found:
            counts[found - 1] += 1
            blanks -= 1
            continue
        if _naked_single(cells, cands, peers):
            counts[2] += 1
            blanks -= 1
            continue
        t = 3
        if _pointing(cands, houses, row_of, col_of, box_of, n):
            t = 3
        elif _claiming(cands, houses, box_of, n):
            t = 4
        elif _naked_subset(cands, houses, row_of, col_of, box_of, n, 2):
            t = 5
        elif _fish(cands, houses, n, 2):
            t = 6
        elif _hidden_subset(cands, houses, n, 2):
            t = 7
        elif _naked_subset(cands, houses, row_of, col_of, box_of, n, 3):
            t = 8
        elif _fish(cands, houses, n, 3):
            t = 9
        elif _hidden_subset(cands, houses, n, 3):
            t = 10
        elif _wing(cands, peers, row_of, col_of, box_of, False):
            t = 11
        elif _wing(cands, peers, row_of, col_of, box_of, True):
            t = 12
        elif _naked_subset(cands, houses, row_of, col_of, box_of, n, 4):
            t = 13
        elif _fish(cands, houses, n, 4):
            t = 14
        elif _hidden_subset(cands, houses, n, 4):
            t = 15
        elif _colouring(cands, houses, peers, row_of, col_of, box_of, n):
            t = 16
        elif _x_chain(cands, houses, peers, row_of, col_of, box_of, n):
            t = 17
        elif _xy_chain(cands, peers, row_of, col_of, box_of, n):
            t = 18
        elif _aic(cands, houses, peers, row_of, col_of, box_of, n):
            t = 19
        else:
            return CONTRADICTION if _contradiction(cells, cands, houses, n) else STUCK
        counts[t] += 1
    return SOLVED


@kernel
def _grade_many(puzzles, houses, peers, row_of, col_of, box_of, n, counts, status):
    cells = np.empty(puzzles.shape[1], np.int64)
    cands = np.empty(puzzles.shape[1], np.int64)
    for i in range(puzzles.shape[0]):
        status[i] = _grade_one(puzzles[i], houses, peers, row_of, col_of, box_of, n, counts[i], cells, cands)


def grade_counts(puzzles: np.ndarray, box: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Counts (m, len(COUNTER_ORDER)), solved flags (m,), and the index of the first puzzle without solution
    (or with conflicting clues), -1 when none. ``puzzles`` must already be validated (digits 0..n)."""
    geo = geometry(box)
    arr = np.ascontiguousarray(puzzles, dtype=np.int8)
    counts = np.zeros((arr.shape[0], len(COUNTER_ORDER)), np.int64)
    status = np.empty(arr.shape[0], np.int64)
    _grade_many(arr, geo.houses, geo.peers, geo.row_of, geo.col_of, geo.box_of, geo.size, counts, status)
    bad = np.flatnonzero(status == CONTRADICTION)
    return counts, status == SOLVED, int(bad[0]) if bad.size else -1
