"""Maximum-weight matching in a general graph (Edmonds' blossom algorithm with dual variables, the
O(n³) primal-dual form described by Galil, "Efficient algorithms for finding maximum matching in
graphs", 1986). The Dutch system uses it to find the best pairing a bracket can have when every
criterion is written into the edge weights (weights are Python integers of any size).
"""

from __future__ import annotations

from collections.abc import Sequence


def max_weight_matching(count: int, edges: Sequence[tuple[int, int, int]], *,
                        max_cardinality: bool = True) -> list[int]:
    """A matching of vertices 0…count−1 (`mate[v]`, −1 if unmatched) of maximum total weight over
    `edges` (i, j, weight), among the matchings of maximum cardinality if `max_cardinality`.
    Weights should be even integers so that the dual variables stay integral."""
    return _Solver(count, edges, max_cardinality).solve()


def _even_way_round(index: int, size: int) -> tuple[int, int, int]:
    """From the child at `index` of a blossom of `size` children, the way round to its base along
    an even number of edges: the position to start from (negative to go forwards), the step, and
    the endpoint trick (which end of each edge the walk meets first)."""
    if index & 1:
        return index - size, 1, 0
    return index, -1, 1


class _Solver:
    def __init__(self, count: int, edges: Sequence[tuple[int, int, int]], max_cardinality: bool) -> None:
        self.n = n = count
        self.edges = list(edges)
        self.max_cardinality = max_cardinality
        m = len(self.edges)
        self.endpoint = [self.edges[p // 2][p % 2] for p in range(2 * m)]
        self.neighbend: list[list[int]] = [[] for _ in range(n)]
        for k, (i, j, _w) in enumerate(self.edges):
            self.neighbend[i].append(2 * k + 1)
            self.neighbend[j].append(2 * k)
        maxweight = max([0] + [w for _i, _j, w in self.edges])
        self.mate = [-1] * n
        self.label = [0] * (2 * n)
        self.labelend = [-1] * (2 * n)
        self.inblossom = list(range(n))
        self.blossomparent = [-1] * (2 * n)
        self.blossomchilds: list[list[int] | None] = [None] * (2 * n)
        self.blossombase = list(range(n)) + [-1] * n
        self.blossomendps: list[list[int] | None] = [None] * (2 * n)
        self.bestedge = [-1] * (2 * n)
        self.blossombestedges: list[list[int] | None] = [None] * (2 * n)
        self.unusedblossoms = list(range(n, 2 * n))
        self.dualvar = [maxweight] * n + [0] * n
        self.allowedge = [False] * m
        self.queue: list[int] = []

    def slack(self, k: int) -> int:
        i, j, w = self.edges[k]
        return self.dualvar[i] + self.dualvar[j] - 2 * w

    def leaves(self, b: int) -> list[int]:
        if b < self.n:
            return [b]
        out: list[int] = []
        stack = [b]
        while stack:
            t = stack.pop()
            if t < self.n:
                out.append(t)
            else:
                stack.extend(self.blossomchilds[t] or [])
        return out

    def assign_label(self, w: int, t: int, p: int) -> None:
        b = self.inblossom[w]
        self.label[w] = self.label[b] = t
        self.labelend[w] = self.labelend[b] = p
        self.bestedge[w] = self.bestedge[b] = -1
        if t == 1:
            self.queue.extend(self.leaves(b))
        elif t == 2:
            base = self.blossombase[b]
            self.assign_label(self.endpoint[self.mate[base]], 1, self.mate[base] ^ 1)

    def scan_blossom(self, v: int, w: int) -> int:
        path = []
        base = -1
        while v != -1 or w != -1:
            b = self.inblossom[v]
            if self.label[b] & 4:
                base = self.blossombase[b]
                break
            path.append(b)
            self.label[b] = 5
            if self.labelend[b] == -1:
                v = -1
            else:
                v = self.endpoint[self.labelend[b]]
                b = self.inblossom[v]
                v = self.endpoint[self.labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        v, w, _wt = self.edges[k]
        bb = self.inblossom[base]
        bv = self.inblossom[v]
        bw = self.inblossom[w]
        b = self.unusedblossoms.pop()
        self.blossombase[b] = base
        self.blossomparent[b] = -1
        self.blossomparent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            self.blossomparent[bv] = b
            path.append(bv)
            endps.append(self.labelend[bv])
            v = self.endpoint[self.labelend[bv]]
            bv = self.inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            self.blossomparent[bw] = b
            path.append(bw)
            endps.append(self.labelend[bw] ^ 1)
            w = self.endpoint[self.labelend[bw]]
            bw = self.inblossom[w]
        self.blossomchilds[b] = path
        self.blossomendps[b] = endps
        self.label[b] = 1
        self.labelend[b] = self.labelend[bb]
        self.dualvar[b] = 0
        for leaf in self.leaves(b):
            if self.label[self.inblossom[leaf]] == 2:
                self.queue.append(leaf)
            self.inblossom[leaf] = b
        bestedgeto = [-1] * (2 * self.n)
        for bv in path:
            nblists: list[list[int]]
            if self.blossombestedges[bv] is None:
                nblists = [[p // 2 for p in self.neighbend[leaf]] for leaf in self.leaves(bv)]
            else:
                nblists = [self.blossombestedges[bv] or []]
            for nblist in nblists:
                for kk in nblist:
                    i, j, _ = self.edges[kk]
                    if self.inblossom[j] == b:
                        i, j = j, i
                    bj = self.inblossom[j]
                    if (bj != b and self.label[bj] == 1
                            and (bestedgeto[bj] == -1 or self.slack(kk) < self.slack(bestedgeto[bj]))):
                        bestedgeto[bj] = kk
            self.blossombestedges[bv] = None
            self.bestedge[bv] = -1
        self.blossombestedges[b] = [kk for kk in bestedgeto if kk != -1]
        self.bestedge[b] = -1
        for kk in self.blossombestedges[b] or []:
            if self.bestedge[b] == -1 or self.slack(kk) < self.slack(self.bestedge[b]):
                self.bestedge[b] = kk

    def expand_blossom(self, b: int, endstage: bool) -> None:
        childs = self.blossomchilds[b] or []
        endps = self.blossomendps[b] or []
        for s in childs:
            self.blossomparent[s] = -1
            if s < self.n:
                self.inblossom[s] = s
            elif endstage and self.dualvar[s] == 0:
                self.expand_blossom(s, endstage)
            else:
                for leaf in self.leaves(s):
                    self.inblossom[leaf] = s
        if not endstage and self.label[b] == 2:
            entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]]
            j, jstep, endptrick = _even_way_round(childs.index(entrychild), len(childs))
            p = self.labelend[b]
            while j != 0:
                self.label[self.endpoint[p ^ 1]] = 0
                self.label[self.endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
                self.assign_label(self.endpoint[p ^ 1], 2, p)
                self.allowedge[endps[j - endptrick] // 2] = True
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                self.allowedge[p // 2] = True
                j += jstep
            bv = childs[j]
            self.label[self.endpoint[p ^ 1]] = self.label[bv] = 2
            self.labelend[self.endpoint[p ^ 1]] = self.labelend[bv] = p
            self.bestedge[bv] = -1
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if self.label[bv] == 1:
                    j += jstep
                    continue
                found = -1
                for leaf in self.leaves(bv):
                    if self.label[leaf] != 0:
                        found = leaf
                        break
                if found != -1:
                    self.label[found] = 0
                    self.label[self.endpoint[self.mate[self.blossombase[bv]]]] = 0
                    self.assign_label(found, 2, self.labelend[found])
                j += jstep
        self.label[b] = self.labelend[b] = -1
        self.blossomchilds[b] = self.blossomendps[b] = None
        self.blossombase[b] = -1
        self.blossombestedges[b] = None
        self.bestedge[b] = -1
        self.unusedblossoms.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        t = v
        while self.blossomparent[t] != b:
            t = self.blossomparent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        childs = self.blossomchilds[b] or []
        endps = self.blossomendps[b] or []
        i = childs.index(t)
        j, jstep, endptrick = _even_way_round(i, len(childs))
        while j != 0:
            j += jstep
            t = childs[j]
            p = endps[j - endptrick] ^ endptrick
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p])
            j += jstep
            t = childs[j]
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p ^ 1])
            self.mate[self.endpoint[p]] = p ^ 1
            self.mate[self.endpoint[p ^ 1]] = p
        self.blossomchilds[b] = childs[i:] + childs[:i]
        self.blossomendps[b] = endps[i:] + endps[:i]
        self.blossombase[b] = self.blossombase[childs[i]]

    def augment_matching(self, k: int) -> None:
        v, w, _wt = self.edges[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = self.inblossom[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = p
                if self.labelend[bs] == -1:
                    break
                t = self.endpoint[self.labelend[bs]]
                bt = self.inblossom[t]
                s = self.endpoint[self.labelend[bt]]
                j = self.endpoint[self.labelend[bt] ^ 1]
                if bt >= self.n:
                    self.augment_blossom(bt, j)
                self.mate[j] = self.labelend[bt]
                p = self.labelend[bt] ^ 1

    def solve(self) -> list[int]:
        n = self.n
        if not self.edges:
            return [-1] * n
        for _stage in range(n):
            self.label = [0] * (2 * n)
            self.bestedge = [-1] * (2 * n)
            for b in range(n, 2 * n):
                self.blossombestedges[b] = None
            self.allowedge = [False] * len(self.edges)
            self.queue = []
            for v in range(n):
                if self.mate[v] == -1 and self.label[self.inblossom[v]] == 0:
                    self.assign_label(v, 1, -1)
            augmented = False
            while True:
                while self.queue and not augmented:
                    v = self.queue.pop()
                    for p in self.neighbend[v]:
                        k = p // 2
                        w = self.endpoint[p]
                        if self.inblossom[v] == self.inblossom[w]:
                            continue
                        kslack = 0
                        if not self.allowedge[k]:
                            kslack = self.slack(k)
                            if kslack <= 0:
                                self.allowedge[k] = True
                        if self.allowedge[k]:
                            if self.label[self.inblossom[w]] == 0:
                                self.assign_label(w, 2, p ^ 1)
                            elif self.label[self.inblossom[w]] == 1:
                                base = self.scan_blossom(v, w)
                                if base >= 0:
                                    self.add_blossom(base, k)
                                else:
                                    self.augment_matching(k)
                                    augmented = True
                                    break
                            elif self.label[w] == 0:
                                self.label[w] = 2
                                self.labelend[w] = p ^ 1
                        elif self.label[self.inblossom[w]] == 1:
                            b = self.inblossom[v]
                            if self.bestedge[b] == -1 or kslack < self.slack(self.bestedge[b]):
                                self.bestedge[b] = k
                        elif self.label[w] == 0 and (self.bestedge[w] == -1
                                                     or kslack < self.slack(self.bestedge[w])):
                            self.bestedge[w] = k
                if augmented:
                    break
                deltatype = -1
                delta = deltaedge = deltablossom = 0
                if not self.max_cardinality:
                    deltatype = 1
                    delta = min(self.dualvar[:n])
                for v in range(n):
                    if self.label[self.inblossom[v]] == 0 and self.bestedge[v] != -1:
                        d = self.slack(self.bestedge[v])
                        if deltatype == -1 or d < delta:
                            delta, deltatype, deltaedge = d, 2, self.bestedge[v]
                for b in range(2 * n):
                    if (self.blossomparent[b] == -1 and self.label[b] == 1
                            and self.bestedge[b] != -1):
                        kslack = self.slack(self.bestedge[b])
                        d = kslack // 2
                        if deltatype == -1 or d < delta:
                            delta, deltatype, deltaedge = d, 3, self.bestedge[b]
                for b in range(n, 2 * n):
                    if (self.blossombase[b] >= 0 and self.blossomparent[b] == -1
                            and self.label[b] == 2 and (deltatype == -1 or self.dualvar[b] < delta)):
                        delta, deltatype, deltablossom = self.dualvar[b], 4, b
                if deltatype == -1:
                    deltatype = 1
                    delta = max(0, min(self.dualvar[:n]))
                for v in range(n):
                    lab = self.label[self.inblossom[v]]
                    if lab == 1:
                        self.dualvar[v] -= delta
                    elif lab == 2:
                        self.dualvar[v] += delta
                for b in range(n, 2 * n):
                    if self.blossombase[b] >= 0 and self.blossomparent[b] == -1:
                        if self.label[b] == 1:
                            self.dualvar[b] += delta
                        elif self.label[b] == 2:
                            self.dualvar[b] -= delta
                if deltatype == 1:
                    break
                if deltatype == 2:
                    self.allowedge[deltaedge] = True
                    i, j, _w = self.edges[deltaedge]
                    if self.label[self.inblossom[i]] == 0:
                        i, j = j, i
                    self.queue.append(i)
                elif deltatype == 3:
                    self.allowedge[deltaedge] = True
                    i, j, _w = self.edges[deltaedge]
                    self.queue.append(i)
                else:
                    self.expand_blossom(deltablossom, False)
            if not augmented:
                break
            for b in range(n, 2 * n):
                if (self.blossomparent[b] == -1 and self.blossombase[b] >= 0
                        and self.label[b] == 1 and self.dualvar[b] == 0):
                    self.expand_blossom(b, True)
        return [self.endpoint[p] if p != -1 else -1 for p in self.mate]
