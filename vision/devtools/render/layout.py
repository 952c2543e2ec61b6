"""Where each tile goes: the line of play (a snake that turns at the play area's edges), the reveal
rows in front of each seat and the boneyard, all computed from the game record itself.

The line grows from the play area's centre. Each open end is an *arm*: an attach point (the middle
of the end's outer edge) and a direction. A tile goes straight on when it fits in the play area
with room for one more half after it; otherwise the arm turns a quarter clockwise (both arms turn
the same way, so they wind apart like an S), the turning tile laid along the new direction with
its joined half against the end. Doubles lie across the line, except on a corner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from vision.calibration.geometry import Rect, TableGeometry
from vision.devtools.render.tiles import PlacedTile, RenderError, check_pips, rects_overlap
from vision.types import Point

Side = Literal["left", "right"]

#: Clearance between neighbouring tiles of the line (mm): they touch, give or take.
GAP_MM = 1.0


def parse_tile(text: str) -> tuple[int, int]:
    """``"3-5"`` -> ``(3, 5)`` (order kept)."""
    parts = str(text).split("-")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise RenderError(f"not a tile: {text!r} (expected 'a-b')")
    a, b = int(parts[0]), int(parts[1])
    check_pips(a)
    check_pips(b)
    return (a, b)


@dataclass(slots=True)
class Arm:
    attach: Point
    direction: tuple[int, int]
    open_pips: int


def _cw(d: tuple[int, int]) -> tuple[int, int]:
    """A quarter turn clockwise on screen (y down): right -> down -> left -> up."""
    return (-d[1], d[0])


def _ccw(d: tuple[int, int]) -> tuple[int, int]:
    return (d[1], -d[0])


def _angle(d: tuple[int, int] | Point) -> float:
    return math.degrees(math.atan2(d[1], d[0]))


@dataclass(frozen=True, slots=True)
class LinePlacement:
    """One tile of the line: its pose, which end it joined, which half touches (``joined``) and
    which is the new open number (``open``)."""

    tile: PlacedTile
    end: Literal["left", "right", "first"]
    joined: int
    open: int
    crosswise: bool


@dataclass(slots=True)
class LineLayout:
    """Lays out the line tile by tile. Poses are exact (no jitter): the renderer adds jitter."""

    geometry: TableGeometry
    obstacles: Sequence[Rect] = ()
    arms: dict[Side, Arm] = field(default_factory=dict)
    placed: list[LinePlacement] = field(default_factory=list)
    #: left-to-right order of the line (indices into ``placed``)
    chain: list[int] = field(default_factory=list)

    @property
    def L(self) -> float:  # noqa: N802 - the tile length, as in the geometry docs
        return self.geometry.tile_length

    @property
    def W(self) -> float:  # noqa: N802
        return self.geometry.tile_width

    def open_ends(self) -> tuple[int, int] | None:
        if not self.arms:
            return None
        return (self.arms["left"].open_pips, self.arms["right"].open_pips)

    def resolve_end(self, tile: tuple[int, int], end: str | None) -> Side:
        """Which end a tile goes to: the record's ``end`` when given, else the only end it fits;
        when it fits both (same number at both ends), the right end."""
        a, b = tile
        left, right = self.arms["left"].open_pips, self.arms["right"].open_pips
        fits_left = left in (a, b)
        fits_right = right in (a, b)
        if end is not None:
            if end not in ("left", "right"):
                raise RenderError(f"tile {a}-{b}: end must be 'left' or 'right', got {end!r}")
            if not (fits_left if end == "left" else fits_right):
                raise RenderError(f"tile {a}-{b} does not fit the {end} end ({left}|{right})")
            return "left" if end == "left" else "right"
        if fits_left and fits_right:
            if left != right:
                raise RenderError(
                    f"tile {a}-{b} fits both ends ({left}|{right}): the record must give 'end'"
                )
            return "right"
        if fits_right:
            return "right"
        if fits_left:
            return "left"
        raise RenderError(f"tile {a}-{b} fits neither end ({left}|{right})")

    def place_first(self, tile: tuple[int, int]) -> LinePlacement:
        a, b = tile
        cx, cy = self.geometry.play_area.center
        if a == b:
            pose = PlacedTile((a, b), (cx, cy), 90.0, self.L, self.W)
            half = self.W / 2.0
        else:
            pose = PlacedTile((a, b), (cx, cy), 0.0, self.L, self.W)
            half = self.L / 2.0
        self.arms["left"] = Arm((cx - half, cy), (-1, 0), a)
        self.arms["right"] = Arm((cx + half, cy), (1, 0), b)
        placement = LinePlacement(pose, "first", a, b, a == b)
        self.placed.append(placement)
        self.chain.append(0)
        return placement

    def place(self, tile: tuple[int, int], end: str | None) -> LinePlacement:
        if not self.arms:
            return self.place_first(tile)
        side = self.resolve_end(tile, end)
        arm = self.arms[side]
        a, b = tile
        joined, other = (a, b) if a == arm.open_pips else (b, a)
        candidates = self._candidates(arm, joined, other)
        chosen = None
        for reserve in (True, False):
            for pose, new_arm, crosswise in candidates:
                if self._fits(pose, new_arm if reserve else None):
                    chosen = (pose, new_arm, crosswise)
                    break
            if chosen is not None:
                break
        if chosen is None:
            raise RenderError(
                f"tile {a}-{b}: no room left at the {side} end of the line "
                f"({len(self.placed)} tiles laid; play area too small for this game?)"
            )
        pose, new_arm, crosswise = chosen
        self.arms[side] = new_arm
        placement = LinePlacement(pose, side, joined, other, crosswise)
        self.placed.append(placement)
        if side == "left":
            self.chain.insert(0, len(self.placed) - 1)
        else:
            self.chain.append(len(self.placed) - 1)
        return placement

    def _candidates(self, arm: Arm, joined: int, other: int) -> list[tuple[PlacedTile, Arm, bool]]:
        L, W, g = self.L, self.W, GAP_MM  # noqa: N806 - tile length and width
        px, py = arm.attach
        d = arm.direction
        out: list[tuple[PlacedTile, Arm, bool]] = []
        if joined == other:  # a double: across the line
            c = (px + d[0] * (g + W / 2), py + d[1] * (g + W / 2))
            pose = PlacedTile((joined, other), c, _angle(_cw(d)), L, W)
            out.append((pose, Arm((px + d[0] * (g + W), py + d[1] * (g + W)), d, other), True))
        else:
            c = (px + d[0] * (g + L / 2), py + d[1] * (g + L / 2))
            pose = PlacedTile((joined, other), c, _angle(d), L, W)
            out.append((pose, Arm((px + d[0] * (g + L), py + d[1] * (g + L)), d, other), False))
        for turn in (_cw(d), _ccw(d)):
            c1 = (px + d[0] * (g + W / 2), py + d[1] * (g + W / 2))
            c = (c1[0] + turn[0] * W / 2, c1[1] + turn[1] * W / 2)
            pose = PlacedTile((joined, other), c, _angle(turn), L, W)
            attach = (c1[0] + turn[0] * 1.5 * W, c1[1] + turn[1] * 1.5 * W)
            out.append((pose, Arm(attach, turn, other), False))
        return out

    def _fits(self, pose: PlacedTile, next_arm: Arm | None) -> bool:
        area = self.geometry.play_area
        shrink = 1.0
        inner = Rect(area.x0 + shrink, area.y0 + shrink, area.x1 - shrink, area.y1 - shrink)
        if not all(inner.contains(p) for p in pose.corners):
            return False
        for ob in self.obstacles:
            box = PlacedTile((0, 0), ob.center, 0.0, ob.x1 - ob.x0, ob.y1 - ob.y0)
            if rects_overlap(pose, box, gap=0.2):
                return False
        for other in self.placed:
            if rects_overlap(pose, other.tile, gap=0.2):
                return False
        if next_arm is None:
            return True
        # room for the next tile's joined half (a W x W square beyond the new end)
        d = next_arm.direction
        W = self.W  # noqa: N806
        c = (
            next_arm.attach[0] + d[0] * (GAP_MM + W / 2),
            next_arm.attach[1] + d[1] * (GAP_MM + W / 2),
        )
        square = PlacedTile((0, 0), c, 0.0, W, W)
        if not all(inner.contains(p) for p in square.corners):
            return False
        return not any(rects_overlap(square, o.tile, gap=0.2) for o in self.placed) and not any(
            rects_overlap(square, PlacedTile((0, 0), ob.center, 0.0, ob.x1 - ob.x0, ob.y1 - ob.y0))
            for ob in self.obstacles
        )


def reveal_row(
    geometry: TableGeometry, seat: int, tiles: Sequence[tuple[int, int]]
) -> list[PlacedTile]:
    """Tiles laid face up in a row in ``seat``'s reveal zone, each pointing at its seat."""
    zone = geometry.reveal_zones[seat]
    L, W = geometry.tile_length, geometry.tile_width  # noqa: N806
    horizontal = (zone.x1 - zone.x0) >= (zone.y1 - zone.y0)
    span = (zone.x1 - zone.x0) if horizontal else (zone.y1 - zone.y0)
    n = len(tiles)
    if n == 0:
        return []
    step = min(W + 8.0, (span - 4.0) / n)
    if step < W * 0.6:
        raise RenderError(f"seat {seat}: {n} tiles do not fit in its reveal zone")
    start = -step * (n - 1) / 2.0
    cx, cy = zone.center
    out = []
    for i, t in enumerate(tiles):
        off = start + i * step
        if horizontal:
            out.append(PlacedTile(t, (cx + off, cy), 90.0, L, W))
        else:
            out.append(PlacedTile(t, (cx, cy + off), 0.0, L, W))
    return out


def boneyard_pile(
    geometry: TableGeometry, count: int, rng: np.random.Generator
) -> list[PlacedTile]:
    """``count`` face-down tiles spread over the boneyard zone (overlapping when crowded)."""
    if count == 0 or geometry.boneyard is None:
        return []
    z = geometry.boneyard
    L, W = geometry.tile_length, geometry.tile_width  # noqa: N806
    cols = max(1, int((z.x1 - z.x0 - 4) // (W + 4)))
    rows = math.ceil(count / cols)
    dy = min(L + 4, (z.y1 - z.y0 - L - 4) / max(1, rows - 1)) if rows > 1 else 0.0
    out = []
    for i in range(count):
        r, c = divmod(i, cols)
        x = z.x0 + 2 + W / 2 + c * (W + 4) + float(rng.uniform(-1.5, 1.5))
        y = z.y0 + 2 + L / 2 + r * dy + float(rng.uniform(-1.5, 1.5))
        angle = 90.0 + float(rng.uniform(-6, 6))
        out.append(PlacedTile((0, 0), (x, y), angle, L, W, face_up=False))
    return out


def jittered(
    tile: PlacedTile, rng: np.random.Generator, *, shift: float, turn: float
) -> PlacedTile:
    """The same tile nudged by up to ``shift`` mm and ``turn`` degrees (a hand is not a robot)."""
    dx, dy = (float(v) for v in rng.uniform(-shift, shift, size=2))
    return replace(
        tile,
        center=(tile.center[0] + dx, tile.center[1] + dy),
        angle=tile.angle + float(rng.uniform(-turn, turn)),
    )
