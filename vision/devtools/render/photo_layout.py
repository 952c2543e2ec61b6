"""Placing the tiles of a table photo (:func:`vision.devtools.render.photos.render_table`) on the
plane: a line end to end, a row side by side, loose tiles, some face down; every tile inside the
image and apart from the others."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from vision.devtools.render.looks import Look
from vision.devtools.render.photo_plane import (
    F64,
    PhotoFrame,
    PlaneTile,
    apply_homography,
    face_corners,
    tiles_apart,
)

#: Pip values of the sets drawn (double-six).
MAX_PIPS = 6


def _double_six(rng: np.random.Generator) -> list[tuple[int, int]]:
    tiles = [(a, b) for a in range(MAX_PIPS + 1) for b in range(a, MAX_PIPS + 1)]
    order = rng.permutation(len(tiles))
    return [tiles[int(i)] for i in order]


class TableLayout:
    """Places tiles on the plane: inside the image, apart from the tiles already placed."""

    def __init__(self, rng: np.random.Generator, look: Look, frame: PhotoFrame) -> None:
        self.rng = rng
        self.length = look.tile_length
        self.frame = frame
        self.to_image = frame.to_image
        self.to_plane: F64 = np.asarray(np.linalg.inv(self.to_image), dtype=np.float64)
        self.margin = 2.0 + 0.12 * look.tile_width_px
        self.placed: list[PlaneTile] = []
        self.polys: list[F64] = []
        self.centres = np.zeros((0, 2), dtype=np.float64)
        # tiles whose centres are this far apart cannot touch (circumscribed circles)
        self.reach = 2.0 * math.hypot(self.length / 2, 0.5)
        self.pool: list[tuple[int, int]] = []

    def draw_values(self) -> tuple[int, int]:
        if not self.pool:
            self.pool = _double_six(self.rng)
        return self.pool.pop()

    def take_matching(self, end: int) -> tuple[int, int]:
        """A tile with ``end`` on it, as ``(end, other)``, or any tile if none is left."""
        if not self.pool:
            self.pool = _double_six(self.rng)
        for i, (a, b) in enumerate(self.pool):
            if end in (a, b):
                del self.pool[i]
                return (a, b) if a == end else (b, a)
        return self.pool.pop()

    def fits(self, t: PlaneTile, gap: float) -> bool:
        poly = face_corners(t, self.length)
        img = apply_homography(self.to_image, poly)
        w, h = self.frame.image_size
        m = self.margin
        if (img < m).any() or (img[:, 0] > w - 1 - m).any() or (img[:, 1] > h - 1 - m).any():
            return False
        d = np.hypot(*(self.centres - np.asarray(t.center)).T)
        near = np.flatnonzero(d <= self.reach + gap).tolist()
        return all(tiles_apart(poly, self.polys[i], gap) for i in near)

    def add(self, t: PlaneTile) -> None:
        self.placed.append(t)
        self.polys.append(face_corners(t, self.length))
        self.centres = np.vstack([self.centres, np.asarray([t.center], dtype=np.float64)])

    def random_point(self, inset: float = 0.0) -> tuple[float, float]:
        """A plane point under a uniform image point ``inset`` (share of the size) in."""
        w, h = self.frame.image_size
        x = float(self.rng.uniform(w * inset, w * (1 - inset)))
        y = float(self.rng.uniform(h * inset, h * (1 - inset)))
        p = apply_homography(self.to_plane, np.array([[x, y]], dtype=np.float64))[0]
        return (float(p[0]), float(p[1]))

    def line(self, n: int) -> int:
        """A line of up to ``n`` tiles end to end, the pips of touching ends equal, doubles
        crosswise, turning by a right angle now and then and where the image ends. Returns the
        number placed."""
        if n <= 0:
            return 0
        rng = self.rng
        # touching, or laid a little apart (as some players do): up to a fifth of a width
        gap = 0.2 * float(rng.random()) ** 3
        for _ in range(60):
            start = self.random_point(0.2)
            heading = float(rng.choice([0.0, 0.5, 1.0, 1.5]) * math.pi)
            head = np.array(start)
            d = np.array([math.cos(heading), math.sin(heading)])
            first = self.draw_values()
            t = self._along(head, d, heading, first)
            if self.fits(t, 0.05):
                break
            self.pool.append(first)
        else:
            return 0
        self.add(t)
        end, placed, run = first[1], 1, 1
        head = head + d * (self._extent(first) + gap)
        last_double = first[0] == first[1]
        while placed < n:
            values = self.take_matching(end)
            double = values[0] == values[1]
            options: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], float]] = []
            turn_first = run >= 3 and not last_double and rng.random() < 0.25
            straight = (head, d, heading)
            turns = []
            if not last_double and not double:
                for side in rng.permutation([-1.0, 1.0]).tolist():
                    nh = heading + side * math.pi / 2
                    nd = np.array([math.cos(nh), math.sin(nh)])
                    # The turned tile lies against the side of the last tile's outer half.
                    last_end = head - d * gap
                    nhead = last_end - d * 0.5 + nd * (0.5 + gap)
                    turns.append((nhead, nd, nh))
            options = [*turns, straight] if turn_first else [straight, *turns]
            for hd, dd, ang in options:
                t = self._along(hd, dd, ang, values)
                if self.fits(t, 0.0):
                    self.add(t)
                    run = 1 if ang != heading else run + 1
                    head, d, heading = hd + dd * (self._extent(values) + gap), dd, ang
                    break
            else:
                self.pool.append(values)
                return placed
            end = values[1]
            last_double = double
            placed += 1
        return placed

    def _extent(self, values: tuple[int, int]) -> float:
        return 1.0 if values[0] == values[1] else self.length

    def _along(
        self,
        head: npt.NDArray[np.float64],
        d: npt.NDArray[np.float64],
        heading: float,
        values: tuple[int, int],
    ) -> PlaneTile:
        """The tile laid from ``head`` along ``d``: a double crosswise, else half a first."""
        double = values[0] == values[1]
        c = head + d * (self._extent(values) / 2.0)
        angle = heading + math.pi / 2 if double else heading
        return PlaneTile((float(c[0]), float(c[1])), angle, values)

    def row(self, n: int, face_up: bool) -> int:
        """Up to ``n`` tiles side by side, touching along their long sides (a hand)."""
        rng = self.rng
        gap = float(rng.uniform(0.0, 0.03))
        while n >= 2:
            for _ in range(40):
                c = np.array(self.random_point(0.15))
                ang = float(rng.uniform(0, 2 * math.pi))
                q = np.array([-math.sin(ang), math.cos(ang)])
                tiles = [
                    PlaneTile(
                        (float(p[0]), float(p[1])),
                        ang + (math.pi if rng.random() < 0.5 else 0.0),
                        self.draw_values() if face_up else None,
                    )
                    for p in (c + q * (i - (n - 1) / 2) * (1.0 + gap) for i in range(n))
                ]
                if all(self.fits(t, 0.12) for t in tiles):
                    for t in tiles:
                        self.add(t)
                    return n
            n -= 1
        return 0

    def loose(self, face_up: bool) -> bool:
        rng = self.rng
        gap = float(rng.uniform(0.06, 0.5))
        for _ in range(150):
            t = PlaneTile(
                self.random_point(),
                float(rng.uniform(0, 2 * math.pi)),
                self.draw_values() if face_up else None,
            )
            if self.fits(t, gap):
                self.add(t)
                return True
        return False


def default_count(rng: np.random.Generator, look: Look, width: int, height: int) -> int:
    """How many tiles a table photo gets when not told: enough to cover 12-35% of the image,
    1 to 40."""
    per_tile = look.tile_width_px**2 * look.tile_length
    fill = float(rng.uniform(0.12, 0.35))
    return int(min(40, max(1, round(width * height * fill / per_tile))))


def arrange_tiles(rng: np.random.Generator, table: TableLayout, n: int) -> None:
    """Up to ``n`` tiles: a line (most scenes of 3 or more), a row side by side (face down in
    some scenes of 6 or more), the rest loose, some face down; at least one face up."""
    n_line = 0
    if n >= 3 and rng.random() < 0.85:
        n_line = max(2, round(n * float(rng.uniform(0.3, 0.65))))
    rest = n - table.line(n_line)
    if rest >= 3 and rng.random() < 0.6:
        k = int(rng.integers(2, min(7, rest) + 1))
        rest -= table.row(k, face_up=n < 6 or rng.random() < 0.75)
    back_share = 0.0 if rng.random() < 0.35 else float(rng.uniform(0.15, 0.6))
    for _ in range(rest):
        some_up = any(t.pips is not None for t in table.placed)
        table.loose(face_up=not some_up or rng.random() >= back_share)
