"""Drawing what was read onto a copy of the frame (``vision identify --annotate``), for a person
checking the reading.

Each tile gets its outline (green and solid when sure, red and dashed when unsure, on a dark
halo so it shows on any table) and the line where its two halves meet as read. Its pip counts
go in a dark box with white figures BESIDE the tile, never over it: on the side with the most
free room, clear of other tiles, labels and the legend where possible, with a thin leader line
back to the tile when the box had to move away. The figures are laid out like the tile: side by
side for a tile lying across the image (left half first), one above the other for a tile
standing up (top half first); an unsure tile's box also holds a red "?". A legend in the
emptiest corner explains the colours and the line.

Sizes follow the image: an image under :data:`MIN_SIDE` px on its short side (a crop of one
tile, say) is first scaled up by a whole factor (at most :data:`MAX_UPSCALE`) so that the text
stays legible; and when a tile leaves no room for its box inside the image, or the legend finds
no corner free of tiles, a dark border is added round the image to hold them. The output is
therefore the input's size (an image of 480 px or more, with room), or larger.

:func:`annotate` is pure: it returns a new array and leaves the image it is given untouched.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.types import SceneReading, TileReading

U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]

#: Images whose short side is under this many pixels are scaled up first (by a whole factor).
MIN_SIDE = 480
#: The largest factor an image is scaled up by.
MAX_UPSCALE = 8

#: BGR of a sure tile's outline (solid) and of an unsure one's (dashed, and its "?").
SURE_COLOUR = (60, 205, 60)
UNSURE_COLOUR = (50, 50, 240)
#: BGR filling the boxes of the pip counts and of the legend (their text is white).
LABEL_BACKGROUND = (35, 35, 35)
_HALO = (15, 15, 15)
_TEXT = (255, 255, 255)
_BORDER = (70, 70, 70)
_FONT = cv2.FONT_HERSHEY_SIMPLEX
_LEGEND = (
    ("sure", "sure reading"),
    ("unsure", "unsure reading (?)"),
    ("split", "line across: where the halves meet"),
    ("figures", "pips of each half, laid out as the tile"),
)

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)


def annotate(image: U8, reading: SceneReading) -> U8:
    """A new BGR image: ``image`` (grey or BGR(A), uint8) with ``reading`` drawn over it."""
    base = _bgr_copy(image)
    factor = _upscale_factor(base.shape[0], base.shape[1])
    if factor > 1:
        base = np.asarray(
            cv2.resize(base, None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR),
            dtype=np.uint8,
        )
    style = _Style.for_size(base.shape[0], base.shape[1], reading.tile_length_px * factor)
    tiles = [_Tile.of(t, factor, style) for t in reading.tiles]
    layout = _layout(base.shape[0], base.shape[1], tiles, style, last_try=False)
    if layout is None:
        top, bottom, left, right = _border(tiles, style, (base.shape[0], base.shape[1]))
        base = np.asarray(
            cv2.copyMakeBorder(base, top, bottom, left, right, cv2.BORDER_CONSTANT, value=_BORDER),
            dtype=np.uint8,
        )
        tiles = [t.shifted(left, top) for t in tiles]
        layout = _layout(base.shape[0], base.shape[1], tiles, style, last_try=True)
    assert layout is not None
    legend_box, label_boxes = layout
    for tile in tiles:
        _draw_outline(base, tile, style)
    for tile, box in zip(tiles, label_boxes, strict=True):
        _draw_label(base, tile, box, style)
    _draw_legend(base, legend_box, style)
    return base


def _bgr_copy(image: U8) -> U8:
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if image.shape[2] == 1:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    return np.ascontiguousarray(image[:, :, :3], dtype=np.uint8).copy()


def _upscale_factor(height: int, width: int) -> int:
    """Whole factor bringing the short side to :data:`MIN_SIDE` px, within
    :data:`MAX_UPSCALE` and (for a long thin strip) 4 megapixels."""
    short = max(1, min(height, width))
    if short >= MIN_SIDE:
        return 1
    room = math.isqrt(max(1, 4_000_000 // max(1, height * width)))
    return max(1, min(MAX_UPSCALE, math.ceil(MIN_SIDE / short), room))


@dataclass(frozen=True)
class _Style:
    """Sizes in pixels of the image being drawn on."""

    text: int  # height of a figure
    scale: float  # cv2 font scale giving that height
    weight: int  # font thickness
    line: int  # outline thickness
    pad: int  # inside a box, round its text
    gap: int  # clearance between a tile and a box

    @staticmethod
    def for_size(height: int, width: int, tile_length: float) -> _Style:
        """Figures about 1% of the image's diagonal high (13 px at least), larger beside
        large tiles (a crop of one tile) up to 3% of it. (The "diagonal" of a long thin strip
        is taken as twice its short side.)"""
        diagonal = min(math.hypot(height, width), 2.0 * min(height, width))
        wanted = max(0.0105 * diagonal, 0.1 * tile_length)
        text = round(min(max(wanted, 13.0), max(13.0, 0.03 * diagonal)))
        (_, unit), _ = cv2.getTextSize("0", _FONT, 1.0, 1)
        weight = max(1, round(text / 11))
        return _Style(
            text=text,
            scale=text / unit,
            weight=weight,
            line=max(2, round(diagonal / 900)),
            pad=max(3, round(text * 0.3)),
            gap=max(3, round(text * 0.25)),
        )


@dataclass(frozen=True)
class _Tile:
    """A tile in the drawing's pixels, with its label's content and size."""

    corners: F64  # (4, 2)
    split: F64  # (2, 2): where the halves meet, from outline to outline
    figures: tuple[int, int]  # first the left (or top) half
    across: bool  # lies across the image: figures side by side
    sure: bool
    size: tuple[int, int]  # label box width, height

    @staticmethod
    def of(tile: TileReading, factor: int, style: _Style) -> _Tile:
        def scaled(points: object) -> F64:
            return (np.asarray(points, dtype=np.float64) + 0.5) * factor - 0.5

        corners = scaled(tile.corners)
        centres = scaled([h.center for h in tile.halves])
        axis = centres[1] - centres[0]
        if not np.any(axis):
            axis = corners[1] - corners[0]
        across = abs(axis[0]) >= abs(axis[1])
        first = 0 if (axis[0] >= 0 if across else axis[1] >= 0) else 1
        figures = (tile.halves[first].pips, tile.halves[1 - first].pips)
        return _Tile(
            corners=corners,
            split=_split_line(corners, axis),
            figures=figures,
            across=across,
            sure=tile.sure,
            size=_label_size(figures, across, tile.sure, style),
        )

    def shifted(self, dx: int, dy: int) -> _Tile:
        offset = np.array([dx, dy], dtype=np.float64)
        return _Tile(
            self.corners + offset,
            self.split + offset,
            self.figures,
            self.across,
            self.sure,
            self.size,
        )

    @property
    def colour(self) -> tuple[int, int, int]:
        return SURE_COLOUR if self.sure else UNSURE_COLOUR

    def bounds(self, margin: int) -> Box:
        x0, y0 = np.floor(self.corners.min(axis=0)).astype(int) - margin
        x1, y1 = np.ceil(self.corners.max(axis=0)).astype(int) + margin + 1
        return int(x0), int(y0), int(x1), int(y1)


def _split_line(corners: F64, axis: F64) -> F64:
    """Midpoints of the two edges most along the tile's axis: the line between its halves."""
    unit = axis / (np.linalg.norm(axis) or 1.0)
    edges = np.roll(corners, -1, axis=0) - corners
    along = np.abs(edges @ unit) / np.maximum(np.linalg.norm(edges, axis=1), 1e-9)
    long_sides = np.argsort(-along)[:2]
    mids = (corners + np.roll(corners, -1, axis=0)) / 2
    return np.asarray(mids[long_sides], dtype=np.float64)


def _text_width(text: str, style: _Style) -> int:
    (width, _), _ = cv2.getTextSize(text, _FONT, style.scale, style.weight)
    return int(width)


def _label_size(
    figures: tuple[int, int], across: bool, sure: bool, style: _Style
) -> tuple[int, int]:
    widths = [_text_width(str(f), style) for f in figures]
    mark = 0 if sure else _text_width("?", style)
    if across:
        width = sum(widths) + 2 * style.pad + 2 * style.gap + (style.pad + mark if mark else 0)
        return width + 2 * style.pad, style.text + 2 * style.pad
    rows = 2 if sure else 3
    width = max([*widths, mark])
    return width + 2 * style.pad, rows * style.text + (rows - 1) * 2 * style.pad + 2 * style.pad


def _legend_size(style: _Style) -> tuple[int, int]:
    small = _small(style)
    sample = 2 * small.text
    width = max(_text_width(text, small) for _, text in _LEGEND) + sample + 3 * small.pad
    height = len(_LEGEND) * (small.text + small.pad) + small.pad * 2
    return width + small.pad, height


def _small(style: _Style) -> _Style:
    text = max(12, round(style.text * 0.8))
    return _Style(
        text=text,
        scale=style.scale * text / style.text,
        weight=max(1, round(text / 12)),
        line=style.line,
        pad=max(3, round(text * 0.35)),
        gap=style.gap,
    )


def _layout(
    height: int, width: int, tiles: list[_Tile], style: _Style, *, last_try: bool
) -> tuple[Box, list[Box]] | None:
    """Where the legend and each tile's label go; None when the image needs a border."""
    clear = style.line + style.gap
    tiles_mask = np.zeros((height, width), dtype=np.uint8)
    for tile in tiles:
        polygon = np.rint(tile.corners).astype(np.int32)
        cv2.fillPoly(tiles_mask, [polygon], 1)
        cv2.polylines(tiles_mask, [polygon], True, 1, 2 * clear + 1)
    legend = _legend_place(tiles_mask, style)
    if legend is None and not last_try:
        return None
    legend = legend or _corner_boxes(height, width, _legend_size(style), style.gap)[0]
    # busy: tiles, legend and labels placed; boxes_only: legend and labels placed
    busy = tiles_mask.copy()
    boxes_only = np.zeros_like(tiles_mask)
    for mask in (busy, boxes_only):
        _mark(mask, legend, style.gap)
    order = sorted(range(len(tiles)), key=lambda k: -_crowding(tiles_mask, tiles[k], style))
    boxes: list[Box | None] = [None] * len(tiles)
    for k in order:
        tile = tiles[k]
        candidates = _candidates(tile, (height, width), tiles_mask, style)
        found = None
        masks: tuple[npt.NDArray[np.uint8] | None, ...] = (busy, boxes_only, None)
        for free_of in masks:
            found = _place(candidates, (height, width), free_of, legend)
            if found is not None:
                break
        if found is None:
            if not last_try:
                return None
            found = _clamped(candidates[0], height, width)
        boxes[k] = found
        for mask in (busy, boxes_only):
            _mark(mask, found, style.gap // 2)
    return legend, [b for b in boxes if b is not None]


def _mark(mask: npt.NDArray[np.uint8], box: Box, margin: int) -> None:
    x0, y0, x1, y1 = box
    mask[max(0, y0 - margin) : max(0, y1 + margin), max(0, x0 - margin) : max(0, x1 + margin)] = 1


def _free(mask: npt.NDArray[np.uint8], box: Box) -> bool:
    x0, y0, x1, y1 = box
    return not mask[y0:y1, x0:x1].any()


def _inside(box: Box, height: int, width: int) -> bool:
    x0, y0, x1, y1 = box
    return x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _clamped(box: Box, height: int, width: int) -> Box:
    x0, y0, x1, y1 = box
    dx = max(0, -x0) - max(0, x1 - width)
    dy = max(0, -y0) - max(0, y1 - height)
    return x0 + dx, y0 + dy, x1 + dx, y1 + dy


def _corner_boxes(height: int, width: int, size: tuple[int, int], gap: int) -> list[Box]:
    w, h = size
    return [
        (gap, gap, gap + w, gap + h),
        (width - gap - w, gap, width - gap, gap + h),
        (gap, height - gap - h, gap + w, height - gap),
        (width - gap - w, height - gap - h, width - gap, height - gap),
    ]


def _legend_place(tiles_mask: npt.NDArray[np.uint8], style: _Style) -> Box | None:
    """The first corner whose legend box covers no tile (None if there is none)."""
    height, width = tiles_mask.shape
    for box in _corner_boxes(height, width, _legend_size(style), style.gap):
        if _inside(box, height, width) and _free(tiles_mask, box):
            return box
    return None


def _crowding(tiles_mask: npt.NDArray[np.uint8], tile: _Tile, style: _Style) -> int:
    """Tile pixels round ``tile`` (its own included): crowded tiles choose their place first."""
    reach = 2 * max(tile.size) + style.gap
    x0, y0, x1, y1 = tile.bounds(reach)
    return int(tiles_mask[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)].sum())


def _candidates(
    tile: _Tile, shape: tuple[int, int], tiles_mask: npt.NDArray[np.uint8], style: _Style
) -> list[Box]:
    """Label boxes round the tile's bounds, nearest first; the side with more free room first
    among equals."""
    size = tile.size
    bounds = tile.bounds(style.line + style.gap)
    step = max(2, min(size) // 3)
    reach = 4 * max(size)
    room = {}
    for side in _SIDES:
        bx0, by0, bx1, by1 = _clamped_band(_beside(bounds, size, side, 0, 0), side, reach, shape)
        area = max(0, bx1 - bx0) * max(0, by1 - by0)
        room[side] = area - int(tiles_mask[by0:by1, bx0:bx1].sum()) if area else -1
    ranked = sorted(_SIDES, key=lambda side: -room[side])
    slide = (max(bounds[2] - bounds[0], bounds[3] - bounds[1]) + max(size)) // 2
    scored: list[tuple[float, Box]] = []
    for rank, side in enumerate(ranked):
        for d in range(0, reach + 1, step):
            for o in range(0, slide + 1, step):
                for signed in (o, -o) if o else (0,):
                    cost = d + 0.6 * o + rank * step * 0.75
                    scored.append((cost, _beside(bounds, size, side, d, signed)))
    scored.sort(key=lambda item: item[0])
    return [box for _, box in scored]


_SIDES = ("right", "left", "below", "above")


def _beside(bounds: Box, size: tuple[int, int], side: str, distance: int, slide: int) -> Box:
    """A box of ``size`` ``distance`` px off ``bounds`` on ``side``, moved ``slide`` px along."""
    x0, y0, x1, y1 = bounds
    w, h = size
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    if side == "right":
        return x1 + distance, cy - h // 2 + slide, x1 + distance + w, cy - h // 2 + slide + h
    if side == "left":
        return x0 - distance - w, cy - h // 2 + slide, x0 - distance, cy - h // 2 + slide + h
    if side == "below":
        return cx - w // 2 + slide, y1 + distance, cx - w // 2 + slide + w, y1 + distance + h
    return cx - w // 2 + slide, y0 - distance - h, cx - w // 2 + slide + w, y0 - distance


def _clamped_band(box: Box, side: str, reach: int, shape: tuple[int, int]) -> Box:
    """``box`` stretched ``reach`` px away from the tile, cut to the image."""
    height, width = shape
    x0, y0, x1, y1 = box
    if side == "right":
        x1 = x0 + reach
    elif side == "left":
        x0 = x1 - reach
    elif side == "below":
        y1 = y0 + reach
    else:
        y0 = y1 - reach
    return max(0, x0), max(0, y0), min(width, max(0, x1)), min(height, max(0, y1))


def _place(
    candidates: list[Box], shape: tuple[int, int], mask: npt.NDArray[np.uint8] | None, legend: Box
) -> Box | None:
    """The first candidate inside the image and free in ``mask`` (or, without a mask, off the
    legend)."""
    height, width = shape
    for box in candidates:
        if not _inside(box, height, width):
            continue
        if mask is None:
            if not _overlaps(box, legend):
                return box
        elif _free(mask, box):
            return box
    return None


def _border(tiles: list[_Tile], style: _Style, shape: tuple[int, int]) -> tuple[int, int, int, int]:
    """Top, bottom, left and right border widths that leave room for every label (beyond any
    tile that sticks out of the image) and for the legend below the image."""
    height, width = shape
    widest = max((max(t.size) for t in tiles), default=0)
    beyond = 0.0
    for tile in tiles:
        low, high = tile.corners.min(axis=0), tile.corners.max(axis=0)
        beyond = max(beyond, -low[0], -low[1], high[0] - width, high[1] - height)
    margin = widest + 2 * (style.line + style.gap) + style.gap + math.ceil(beyond)
    legend_width, legend_height = _legend_size(style)
    right = max(margin, legend_width + 2 * style.gap - width - margin)
    return margin, max(margin, legend_height + 2 * style.gap), margin, right


def _draw_outline(image: U8, tile: _Tile, style: _Style) -> None:
    polygon = np.rint(tile.corners).astype(np.int32)
    split = np.rint(tile.split).astype(np.int32)
    thin = style.line
    cv2.polylines(image, [polygon], True, _HALO, style.line + 2, cv2.LINE_AA)
    cv2.line(image, _pt(split[0]), _pt(split[1]), _HALO, thin + 2, cv2.LINE_AA)
    if tile.sure:
        cv2.polylines(image, [polygon], True, tile.colour, style.line, cv2.LINE_AA)
    else:
        dash = 3 * style.line + 4
        for k in range(4):
            a, b = tile.corners[k], tile.corners[(k + 1) % 4]
            _dashed(image, a, b, tile.colour, thickness=style.line, dash=dash)
    cv2.line(image, _pt(split[0]), _pt(split[1]), tile.colour, thin, cv2.LINE_AA)


def _dashed(
    image: U8, a: F64, b: F64, colour: tuple[int, int, int], *, thickness: int, dash: int
) -> None:
    length = float(np.linalg.norm(b - a))
    count = max(1, round(length / (1.6 * dash)))
    for k in range(count):
        t0 = k / count
        t1 = t0 + 0.6 / count
        p, q = a + (b - a) * t0, a + (b - a) * t1
        cv2.line(image, _pt(p), _pt(q), colour, thickness, cv2.LINE_AA)


def _pt(p: npt.ArrayLike) -> tuple[int, int]:
    x, y = np.rint(np.asarray(p, dtype=np.float64)).astype(int)
    return int(x), int(y)


def _draw_label(image: U8, tile: _Tile, box: Box, style: _Style) -> None:
    _draw_leader(image, tile, box, style)
    x0, y0, x1, y1 = box
    cv2.rectangle(image, (x0, y0), (x1 - 1, y1 - 1), LABEL_BACKGROUND, -1)
    cv2.rectangle(image, (x0, y0), (x1 - 1, y1 - 1), tile.colour, max(1, style.line // 2 + 1))
    a, b = (str(f) for f in tile.figures)
    baseline_gap = style.pad
    if tile.across:
        x = x0 + 2 * style.pad
        baseline = y0 + baseline_gap + style.text
        _text(image, a, (x, baseline), _TEXT, style)
        x += _text_width(a, style) + style.gap
        cv2.line(image, (x, y0 + style.pad // 2), (x, y1 - style.pad // 2), _TEXT, 1, cv2.LINE_AA)
        x += style.gap
        _text(image, b, (x, baseline), _TEXT, style)
        if not tile.sure:
            x += _text_width(b, style) + style.pad
            _text(image, "?", (x, baseline), UNSURE_COLOUR, style)
        return
    rows = [(a, _TEXT), (b, _TEXT)] + ([] if tile.sure else [("?", UNSURE_COLOUR)])
    row_height = style.text + 2 * style.pad
    for k, (text, colour) in enumerate(rows):
        x = x0 + (x1 - x0 - _text_width(text, style)) // 2
        baseline = y0 + style.pad + k * row_height + style.text
        _text(image, text, (x, baseline), colour, style)
    line_y = y0 + style.pad + style.text + style.pad
    cv2.line(image, (x0 + 2, line_y), (x1 - 3, line_y), _TEXT, 1, cv2.LINE_AA)


def _text(
    image: U8, text: str, origin: tuple[int, int], colour: tuple[int, int, int], style: _Style
) -> None:
    cv2.putText(image, text, origin, _FONT, style.scale, colour, style.weight, cv2.LINE_AA)


def _draw_leader(image: U8, tile: _Tile, box: Box, style: _Style) -> None:
    """A line from the label to the tile's outline (the nearest point of the label to the
    tile's centre, up to where that line meets the outline)."""
    x0, y0, x1, y1 = box
    centre = tile.corners.mean(axis=0)
    start = np.array([np.clip(centre[0], x0, x1 - 1), np.clip(centre[1], y0, y1 - 1)], dtype=float)
    end = _edge_towards(tile.corners, start, centre)
    if end is None or np.linalg.norm(end - start) < 2:
        return
    cv2.line(image, _pt(start), _pt(end), _HALO, 3, cv2.LINE_AA)
    cv2.line(image, _pt(start), _pt(end), tile.colour, 1, cv2.LINE_AA)


def _edge_towards(corners: F64, start: F64, centre: F64) -> F64 | None:
    """Where the segment from ``start`` to the tile's centre first meets its outline."""
    best: F64 | None = None
    best_t = math.inf
    direction = centre - start
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        edge = b - a
        denom = direction[0] * edge[1] - direction[1] * edge[0]
        if abs(denom) < 1e-9:
            continue
        rel = a - start
        t = (rel[0] * edge[1] - rel[1] * edge[0]) / denom
        u = (rel[0] * direction[1] - rel[1] * direction[0]) / denom
        if 0.0 <= t <= 1.0 and 0.0 <= u <= 1.0 and t < best_t:
            best_t, best = t, start + direction * t
    return best


def _draw_legend(image: U8, box: Box, style: _Style) -> None:
    small = _small(style)
    x0, y0, x1, y1 = box
    cv2.rectangle(image, (x0, y0), (x1 - 1, y1 - 1), LABEL_BACKGROUND, -1)
    cv2.rectangle(image, (x0, y0), (x1 - 1, y1 - 1), (200, 200, 200), 1)
    sample = 2 * small.text
    row = small.text + small.pad
    for k, (kind, text) in enumerate(_LEGEND):
        top = y0 + small.pad + k * row
        mid = top + small.text // 2
        left, right = x0 + small.pad, x0 + small.pad + sample
        if kind == "sure":
            cv2.line(image, (left, mid), (right, mid), SURE_COLOUR, style.line, cv2.LINE_AA)
        elif kind == "unsure":
            a, b = np.array([left, mid], float), np.array([right, mid], float)
            _dashed(image, a, b, UNSURE_COLOUR, thickness=style.line, dash=max(3, sample // 4))
        elif kind == "split":
            cv2.rectangle(image, (left, top), (right, top + small.text), SURE_COLOUR, 1)
            cx = (left + right) // 2
            cv2.line(image, (cx, top), (cx, top + small.text), SURE_COLOUR, 1, cv2.LINE_AA)
        else:
            tiny = replace(small, scale=small.scale * 0.75)
            _text(image, "6|4", (left, top + small.text), _TEXT, tiny)
        _text(image, text, (right + small.pad, top + small.text), _TEXT, small)
