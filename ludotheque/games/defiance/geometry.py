"""The two lattices of Defiance and Domain: cells (counters) and points (Commands).

Cell ``C(i, j)`` has index ``j·N + i``; point ``P(x, y)`` has index ``y·(N+1) + x``. Everything a
move generator asks of the geometry — neighbours, sectors, key points, the cells beside a Rebel
Command's step — is tabulated once per board size.
"""

from __future__ import annotations

from functools import cache

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""Direction names clockwise from north: ``d`` is diagonal when odd, ``(d+4) % 8`` opposite."""
VECTORS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
ARROWS = "↑↗→↘↓↙←↖"
DIRECTION_INDEX = {name: d for d, name in enumerate(DIRECTIONS)}
FILES = "abcdefghijklmnopqrstuvwxyz"


class Geometry:
    """The tables of an N×N board (N even)."""

    def __init__(self, n: int) -> None:
        if n % 2 or n < 4:
            raise ValueError("the board side must be even and at least 4")
        self.n = n
        self.h = h = n // 2
        self.num_cells = n * n
        self.num_points = (n + 1) * (n + 1)
        cells = range(self.num_cells)
        self.cell_xy = tuple((c % n, c // n) for c in cells)
        self.cell_sector = tuple(int(i >= h) + 2 * int(j >= h) for i, j in self.cell_xy)
        self.neighbours = tuple(
            tuple(
                (j + dy) * n + (i + dx) if 0 <= i + dx < n and 0 <= j + dy < n else -1
                for dx, dy in VECTORS
            )
            for i, j in self.cell_xy
        )
        self.cell_names = tuple(f"{FILES[i]}{j + 1}" for i, j in self.cell_xy)
        self.cell_index = {name: c for c, name in enumerate(self.cell_names)}
        self.sector_cells = tuple(
            tuple(c for c in cells if self.cell_sector[c] == s) for s in range(4)
        )

        m = n + 1
        points = range(self.num_points)
        self.point_xy = tuple((p % m, p // m) for p in points)
        self.point_sector = tuple(
            -1 if x == h or y == h else int(x > h) + 2 * int(y > h) for x, y in self.point_xy
        )
        self.point_names = tuple(f"P{x}.{y}" for x, y in self.point_xy)
        self.is_key = tuple(
            1 <= x <= n - 1 and 1 <= y <= n - 1 and x != h and y != h for x, y in self.point_xy
        )
        self.key_points = tuple(p for p in points if self.is_key[p])
        # the four cells around a point (only meaningful for interior points)
        self.point_cells = tuple(
            tuple(
                (y + dy) * n + (x + dx)
                for dx, dy in ((-1, -1), (0, -1), (-1, 0), (0, 0))
                if 0 <= x + dx < n and 0 <= y + dy < n
            )
            for x, y in self.point_xy
        )
        self.cell_corners = tuple(
            (j * m + i, j * m + i + 1, (j + 1) * m + i, (j + 1) * m + i + 1)
            for i, j in self.cell_xy
        )
        self.rebel_steps = tuple(self._rebel_steps(x, y) for x, y in self.point_xy)
        # the same steps as (target point, mask of the walling cells): a step is walled when
        # Imperial counters fill its mask
        self.rebel_step_walls = tuple(
            tuple((dst, sum(1 << w for w in walls)) for dst, _, walls in steps)
            for steps in self.rebel_steps
        )
        self.imperial_steps = tuple(
            tuple(
                (y + dy) * m + (x + dx)
                for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if 0 <= x + dx <= n and 0 <= y + dy <= n
            )
            for x, y in self.point_xy
        )

        # bitboards: bit c is cell c; shifting moves every bit to its neighbour in a direction
        self.full = (1 << self.num_cells) - 1
        column0 = sum(1 << (j * n) for j in range(n))
        column_last = column0 << (n - 1)
        self._shift = tuple(dx + n * dy for dx, dy in VECTORS)
        self._keep = tuple(
            self.full & ~(column0 if dx > 0 else column_last if dx < 0 else 0) for dx, _ in VECTORS
        )
        self.sector_masks = tuple(sum(1 << c for c in cs) for cs in self.sector_cells)
        # same_sector[d]: the cells whose neighbour in direction d is on the board and in their
        # sector; a diagonal flank along axis d (1 or 3) needs both d and d + 4
        self.same_sector = tuple(
            sum(
                1 << c
                for c in cells
                if self.neighbours[c][d] >= 0
                and self.cell_sector[self.neighbours[c][d]] == self.cell_sector[c]
            )
            for d in range(8)
        )
        # the bottom-left cell of the 2x2 block of each key point, by sector
        self.block_origins = tuple(
            sum(
                1 << (self.cell(x - 1, y - 1))
                for p, (x, y) in enumerate(self.point_xy)
                if self.is_key[p] and self.point_sector[p] == s
            )
            for s in range(4)
        )

    def _cell(self, i: int, j: int) -> int:
        return j * self.n + i if 0 <= i < self.n and 0 <= j < self.n else -1

    def _rebel_steps(self, x: int, y: int) -> tuple[tuple[int, bool, tuple[int, ...]], ...]:
        """(target point, diagonal?, cells that can wall the step) for each step from P(x, y).

        An orthogonal step runs along a segment between up to two cells: it is blocked when all
        of its on-board cells hold Imperial counters. A diagonal step crosses one cell."""
        n, m = self.n, self.n + 1
        steps = []
        for dx, dy in VECTORS:
            tx, ty = x + dx, y + dy
            if not (0 <= tx <= n and 0 <= ty <= n):
                continue
            walls: tuple[int, ...]
            if dx and dy:
                walls = (self._cell(min(x, tx), min(y, ty)),)
            elif dx:
                lx = min(x, tx)
                walls = (self._cell(lx, y - 1), self._cell(lx, y))
            else:
                ly = min(y, ty)
                walls = (self._cell(x - 1, ly), self._cell(x, ly))
            steps.append((ty * m + tx, bool(dx and dy), tuple(c for c in walls if c >= 0)))
        return tuple(steps)

    def shift(self, mask: int, d: int) -> int:
        """Every cell of ``mask`` moved one step in direction ``d`` (cells leaving the board are
        dropped)."""
        k = self._shift[d]
        moved = mask << k if k > 0 else mask >> -k
        return moved & self._keep[d]

    def point(self, x: int, y: int) -> int:
        """The index of P(x, y)."""
        return y * (self.n + 1) + x

    def cell(self, i: int, j: int) -> int:
        """The index of C(i, j)."""
        return j * self.n + i


@cache
def geometry(n: int) -> Geometry:
    """The shared tables of an N×N board."""
    return Geometry(n)
