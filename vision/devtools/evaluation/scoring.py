"""Scoring one image's reading against its truth.

Two truth layouts are understood:

* **ddd** (``../shared/datasets/ddd-dev``): a board grid and per-cell labels. A predicted half
  counts for the grid cell its centre maps into (through ``grid_corners_px``); centres outside
  the grid are ignored; if several halves land on one cell the one nearest the cell centre is
  used and the others are duplicates. Same semantics as ``score_identify.py`` of the datasets,
  except that the confusion matrix has columns 0-9 (a predicted 7-9 is a wrong pip count
  either way).
* **generic** (rendered fixtures, see :mod:`vision.devtools.evaluation.truth`): a truth half is
matched
  by the nearest predicted half centre within ``0.35 x`` the distance between the truth tile's
  two half centres; a predicted half matched by nobody inside the scene is a false half.

Metrics per image are plain counts (:class:`ImageScore`), summed by the caller.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

#: Confusion rows: truth pips 0..9, then ``empty`` (no truth tile there).
#: Columns: predicted pips 0..9, then ``bad`` (not an int 0..9) and ``miss`` (nothing predicted).
N_PIPS = 10
ROW_EMPTY = N_PIPS
COL_BAD = N_PIPS
COL_MISS = N_PIPS + 1
GRID_N = 15
_COLS = "ABCDEFGHIJKLMNO"


@dataclass(frozen=True, slots=True)
class PredHalf:
    center: tuple[float, float]
    pips: int | None  # None when not a valid count


@dataclass(frozen=True, slots=True)
class PredTile:
    halves: tuple[PredHalf, ...]
    #: reported sure by the reader (a reading without the flag counts as sure)
    sure: bool = True


@dataclass(slots=True)
class ImageScore:
    truth_halves: int = 0
    truth_tiles: int = 0
    pred_tiles: int = 0
    pred_halves: int = 0
    outside: int = 0
    duplicates: int = 0
    false_pos: int = 0
    false_tiles: int = 0
    #: tiles read across two tiles: each half is some tile's half, never the same tile's
    straddling: int = 0
    halves_found: int = 0
    halves_correct: int = 0
    tiles_correct: int = 0
    #: tiles reported sure, in the scored area, that are not a truth tile read right
    sure_wrong: int = 0
    center_err_px: list[float] = field(default_factory=list)
    confusion: npt.NDArray[np.int64] = field(
        default_factory=lambda: np.zeros((N_PIPS + 1, N_PIPS + 2), dtype=np.int64)
    )
    wrong: list[str] = field(default_factory=list)  # human-readable failures


def pips_of(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if math.isfinite(value) and float(value).is_integer() and 0 <= int(value) < N_PIPS:
        return int(value)
    return None


def parse_prediction(pred: Mapping[str, object]) -> list[PredTile]:
    """Predicted tiles from a ``vision identify --json`` object (lenient: bad halves are kept
    with ``pips=None`` or dropped when their centre is unusable)."""
    tiles: list[PredTile] = []
    raw = pred.get("tiles", [])
    for t in raw if isinstance(raw, list) else []:
        halves: list[PredHalf] = []
        hs = t.get("halves", []) if isinstance(t, dict) else []
        for h in hs if isinstance(hs, list) else []:
            if not isinstance(h, dict):
                continue
            c = h.get("center", h.get("center_px"))
            try:
                x, y = float(c[0]), float(c[1])  # type: ignore[index]
            except (TypeError, ValueError, IndexError, KeyError):
                continue
            if math.isfinite(x) and math.isfinite(y):
                halves.append(PredHalf((x, y), pips_of(h.get("pips"))))
        sure = t.get("sure", True) is not False if isinstance(t, dict) else True
        tiles.append(PredTile(tuple(halves), sure))
    return tiles


def _homography(
    src: Sequence[Sequence[float]], dst: Sequence[Sequence[float]]
) -> npt.NDArray[np.float64]:
    rows = []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.asarray(rows, dtype=np.float64))
    h: npt.NDArray[np.float64] = vt[-1].reshape(3, 3)
    out: npt.NDArray[np.float64] = h / h[2, 2]
    return out


def _cell(name: str) -> tuple[int, int]:
    return int(name[:-1]) - 1, _COLS.index(name[-1])


def score_ddd(truth: Mapping[str, object], tiles: Sequence[PredTile]) -> ImageScore:
    """Score against a ddd truth object (see the dataset's README)."""
    corners = truth["grid_corners_px"]
    assert isinstance(corners, list)
    to_grid = _homography(corners, [(0, 0), (GRID_N, 0), (GRID_N, GRID_N), (0, GRID_N)])
    truth_tiles = truth["tiles"]
    assert isinstance(truth_tiles, list)
    cells: dict[tuple[int, int], tuple[int, int]] = {}
    for t_index, t in enumerate(truth_tiles):
        for h in t["halves"]:
            cells[_cell(h["cell"])] = (int(h["pips"]), t_index)
    st = ImageScore(truth_halves=len(cells), truth_tiles=len(truth_tiles), pred_tiles=len(tiles))
    claims: dict[
        tuple[int, int], list[tuple[float, int, int, int | None, tuple[float, float]]]
    ] = {}
    tile_hits: dict[int, int] = {}
    for pi, pt in enumerate(tiles):
        for h in pt.halves:
            st.pred_halves += 1
            q = to_grid @ np.array([h.center[0], h.center[1], 1.0])
            u, v = q[0] / q[2], q[1] / q[2]
            if not (0 <= u < GRID_N and 0 <= v < GRID_N):
                st.outside += 1
                continue
            row, col = int(v), int(u)
            d = math.hypot(u - (col + 0.5), v - (row + 0.5))
            claims.setdefault((row, col), []).append((d, pi, len(pt.halves), h.pips, h.center))
            tile_hits[pi] = tile_hits.get(pi, 0) + 1
    best = {}
    for cell, lst in claims.items():
        lst.sort(key=lambda e: e[0])
        best[cell] = lst[0]
        st.duplicates += len(lst) - 1
        if cell not in cells:
            st.false_pos += 1
            p = lst[0][3]
            st.confusion[ROW_EMPTY, COL_BAD if p is None else p] += 1
            st.wrong.append(f"false half {p} at cell {cell[0] + 1}{_COLS[cell[1]]}")
    ok: dict[tuple[int, int], bool] = {}
    for cell, (tp, _ti) in cells.items():
        if cell not in best:
            st.confusion[tp, COL_MISS] += 1
            continue
        st.halves_found += 1
        p = best[cell][3]
        st.confusion[tp, COL_BAD if p is None else p] += 1
        ok[cell] = p == tp
        st.halves_correct += p == tp
    right: set[int] = set()
    for t in truth_tiles:
        a, b = (_cell(h["cell"]) for h in t["halves"])
        if ok.get(a) and ok.get(b) and best[a][1] == best[b][1] and best[a][2] == 2:
            st.tiles_correct += 1
            right.add(best[a][1])
        else:
            got = [best[c][3] if c in best else "miss" for c in (a, b)]
            st.wrong.append(f"tile {t['tile']} at {t['halves'][0]['cell']}: read {got}")
        for h in t["halves"]:
            c = _cell(h["cell"])
            if c in best:
                x, y = best[c][4]
                st.center_err_px.append(math.hypot(x - h["center_px"][0], y - h["center_px"][1]))
    # A predicted tile with a half on an empty grid cell is a false tile on the grid.
    st.false_tiles = len({best[c][1] for c in best if c not in cells})
    st.sure_wrong = sum(
        1
        for pi, pt in enumerate(tiles)
        if pt.sure and pi not in right and tile_hits.get(pi, 0) == len(pt.halves) > 0
    )
    return st


def score_generic(
    truth_tiles: Sequence[PredTile],
    tiles: Sequence[PredTile],
    ignore: Sequence[PredTile] = (),
) -> ImageScore:
    """Score against truth tiles given by half centres and pips (rendered fixtures).

    Predicted tiles with a half near a half of an ``ignore`` tile (partly hidden in the truth)
    are dropped first.
    """
    if ignore:
        tiles = [t for t in tiles if not any(_near_tile(t, g) for g in ignore)]
    st = ImageScore(
        truth_halves=2 * len(truth_tiles), truth_tiles=len(truth_tiles), pred_tiles=len(tiles)
    )
    flat = [(pi, hi, h) for pi, t in enumerate(tiles) for hi, h in enumerate(t.halves)]
    st.pred_halves = len(flat)
    used: set[tuple[int, int]] = set()
    claimed_by: dict[tuple[int, int], int] = {}
    right: set[int] = set()
    for ti, t in enumerate(truth_tiles):
        (ax, ay), (bx, by) = t.halves[0].center, t.halves[1].center
        tol = 0.35 * math.hypot(ax - bx, ay - by)
        found: list[tuple[int, int | None]] = []
        for h in t.halves:
            near = [
                (math.hypot(ph.center[0] - h.center[0], ph.center[1] - h.center[1]), pi, hi, ph)
                for pi, hi, ph in flat
            ]
            near = [e for e in near if e[0] <= tol]
            near.sort(key=lambda e: e[0])
            tp = h.pips if h.pips is not None else 0
            if not near:
                st.confusion[tp, COL_MISS] += 1
                found.append((-1, None))
                continue
            d, pi, hi, ph = near[0]
            st.duplicates += sum(1 for e in near[1:] if len(tiles[e[1]].halves) == 2 and e[1] != pi)
            if (pi, hi) in used:
                st.duplicates += 1
            used.add((pi, hi))
            claimed_by[(pi, hi)] = ti
            st.halves_found += 1
            st.center_err_px.append(d)
            st.confusion[tp, COL_BAD if ph.pips is None else ph.pips] += 1
            st.halves_correct += ph.pips == h.pips
            found.append((pi, ph.pips))
        (pa, qa), (pb, qb) = found
        pips_ok = qa == t.halves[0].pips and qb == t.halves[1].pips
        if pips_ok and pa == pb >= 0 and len(tiles[pa].halves) == 2:
            st.tiles_correct += 1
            right.add(pa)
        else:
            want = [h.pips for h in t.halves]
            st.wrong.append(f"tile {want} at {t.halves[0].center}: read {[qa, qb]}")
    for pi, hi, ph in flat:
        if (pi, hi) not in used:
            st.false_pos += 1
            st.confusion[ROW_EMPTY, COL_BAD if ph.pips is None else ph.pips] += 1
    st.false_tiles = sum(
        1 for pi, t in enumerate(tiles) if all((pi, hi) not in used for hi in range(len(t.halves)))
    )
    if st.false_tiles:
        st.wrong.append(f"{st.false_tiles} false tile(s)")
    st.sure_wrong = sum(1 for pi, t in enumerate(tiles) if t.sure and pi not in right)
    for pi, t in enumerate(tiles):
        owners = {claimed_by.get((pi, hi)) for hi in range(len(t.halves))}
        if len(t.halves) == 2 and None not in owners and len(owners) == 2:
            st.straddling += 1
            st.wrong.append(f"tile read across two tiles at {t.halves[0].center}")
    return st


def _near_tile(t: PredTile, truth: PredTile) -> bool:
    (ax, ay), (bx, by) = truth.halves[0].center, truth.halves[1].center
    tol = 0.35 * math.hypot(ax - bx, ay - by)
    return any(
        math.hypot(h.center[0] - g.center[0], h.center[1] - g.center[1]) <= tol
        for h in t.halves
        for g in truth.halves
    )
