"""Scoring readings against truth that names tiles but not where they lie.

Two such kinds of truth are understood (loaded by :mod:`vision.devtools.evaluation.truth`):

* **crops**: photos of one tile each, labelled by their folder (``6x4/``). An image is
  *right* when exactly one tile is read with the label's numbers (either order), *missed*
  when no tile is read, *wrong* otherwise (a wrong number, or extra tiles): the semantics of
  ``score_crops.py`` of the datasets.
* **scenes**: photos of whole scenes with the tiles in them listed by hand (``"2-5"``). Per
  photo the tiles read are matched as a multiset against the labelled ones: *right* = labelled
  and read, *missed* = labelled and not read, *wrong* = read but not there; tiles labelled
  *uncertain* (clipped by the frame) count neither way: the semantics of ``score_scenes.py``.

Both also feed a confusion matrix of halves. Truth carries no positions, so a truth tile is
paired with a read tile by their numbers: exact matches first, then the leftover truth tiles
with the leftover read tiles, greedily by fewest differing halves (the halves of a pair in the
order that differs least). Halves of truth tiles left without a read tile are ``miss``; read
tiles left without a truth tile are counted as ``extra``.

Everything here is pure: values in, values out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from vision.types import SceneReading

Tile = tuple[int, int]
#: One entry of the confusion matrix: (truth pips, read pips or ``None`` for nothing read).
HalfPair = tuple[int, int | None]

RIGHT = "right"
MISSED = "missed"
WRONG = "wrong"

#: The confusion matrix always shows at least the pips of a double-six set.
MIN_PIPS = 6


@dataclass(frozen=True, slots=True)
class ReadTile:
    """A tile as read: its two pip counts (in the reader's half order) and whether the reader
    was sure of it (:attr:`vision.types.TileReading.sure`)."""

    pips: Tile
    sure: bool

    @property
    def key(self) -> str:
        """``"a-b"`` with ``a <= b``."""
        return tile_key(self.pips)


def tile_key(pips: Tile) -> str:
    """Takes two pip counts, returns the tile's name ``"a-b"`` with the smaller count first."""
    a, b = pips
    return f"{min(a, b)}-{max(a, b)}"


def read_tiles(reading: SceneReading) -> tuple[ReadTile, ...]:
    """Takes what the reader returned for one image, returns its tiles as :class:`ReadTile`."""
    return tuple(ReadTile(t.pips, t.sure) for t in reading.tiles)


@dataclass(frozen=True, slots=True)
class Pairing:
    """Truth tiles paired with read tiles for the confusion matrix."""

    halves: tuple[HalfPair, ...]  # two entries per truth tile
    extra: int  # read tiles paired with no truth tile


def _differences(truth: Tile, read: Tile) -> tuple[int, Tile]:
    """Mismatched halves of ``read`` against ``truth`` in the better of its two half orders
    (the reader's order on a tie), and ``read`` in that order."""
    (a, b), (c, d) = truth, read
    straight = (a != c) + (b != d)
    swapped = (a != d) + (b != c)
    return (straight, (c, d)) if straight <= swapped else (swapped, (d, c))


def pair_tiles(truth: Sequence[Tile], read: Sequence[Tile]) -> Pairing:
    """Takes the truth tiles and the read tiles of one image (pip pairs, any half order) and
    returns the confusion entries of every truth half and the number of read tiles left over.

    Exact matches (same tile, either order) pair first; then, repeatedly, the leftover truth
    and read tiles with fewest differing halves (first in list order on a tie), until one side
    runs out. Truth tiles left over give two ``(pips, None)`` entries (missed halves).
    """
    left_truth = list(truth)
    left_read = list(read)
    halves: list[HalfPair] = []
    for t in list(left_truth):
        match = next((r for r in left_read if tile_key(r) == tile_key(t)), None)
        if match is not None:
            left_truth.remove(t)
            left_read.remove(match)
            halves.extend((p, p) for p in t)
    while left_truth and left_read:
        _, i, j = min(
            (_differences(t, r)[0], i, j)
            for i, t in enumerate(left_truth)
            for j, r in enumerate(left_read)
        )
        t = left_truth.pop(i)
        _, ordered = _differences(t, left_read.pop(j))
        halves.extend(zip(t, ordered, strict=True))
    for t in left_truth:
        halves.extend((p, None) for p in t)
    return Pairing(tuple(halves), len(left_read))


@dataclass(frozen=True, slots=True)
class CropScore:
    """One single-tile photo scored against its folder's label."""

    outcome: str  # RIGHT, MISSED or WRONG
    #: RIGHT: its tile was read sure; WRONG: every tile read was sure; MISSED: False
    sure: bool
    halves: tuple[HalfPair, ...]  # confusion entries (two)
    extra: int  # read tiles beyond the one paired with the label


def score_crop(truth: Tile, read: Sequence[ReadTile]) -> CropScore:
    """Takes the label of a single-tile photo (its folder's two numbers) and the tiles read in
    it; returns whether the photo was read right, missed or wrong (as ``score_crops.py``),
    how sure the reader was, and its confusion entries (see :func:`pair_tiles`)."""
    pairing = pair_tiles([truth], [r.pips for r in read])
    if not read:
        outcome = MISSED
    elif len(read) == 1 and read[0].key == tile_key(truth):
        outcome = RIGHT
    else:
        outcome = WRONG
    sure = bool(read) and all(r.sure for r in read)
    return CropScore(outcome, sure, pairing.halves, pairing.extra)


@dataclass(frozen=True, slots=True)
class SceneScore:
    """One labelled photo of a scene scored against its list of tiles."""

    tiles: int  # labelled tiles (uncertain ones not included)
    right: int  # labelled and read
    missed: tuple[str, ...]  # labelled tiles not read ("a-b", sorted)
    wrong: tuple[str, ...]  # read tiles that are not there ("a-b", sorted)
    wrong_sure: int  # of ``wrong``, those read sure
    right_unsure: int  # of ``right``, those read unsure
    uncertain_read: int  # read tiles matching an uncertain label (scored neither way)
    halves: tuple[HalfPair, ...]  # confusion entries, two per labelled tile
    extra: int  # wrong tiles left without a labelled tile in the confusion pairing

    @property
    def whole(self) -> bool:
        """Every labelled tile read and nothing else."""
        return self.right == self.tiles and not self.wrong


def score_scene(
    truth: Sequence[Tile], read: Sequence[ReadTile], uncertain: Sequence[Tile] = ()
) -> SceneScore:
    """Takes the labelled tiles of a photo, the tiles read in it and the tiles labelled
    uncertain; returns the multiset score of ``score_scenes.py`` with the sure/unsure split
    and the confusion entries.

    Readings are matched surest first: when a tile is read more than once, the surest of its
    readings are the ones taken by its labels, and the leftover (wrong) ones are the least
    sure. Read tiles left after the labelled ones are matched and equal to an uncertain label
    are dropped (surest first too); the remaining ones are wrong.
    """
    want = Counter(tile_key(t) for t in truth)
    left_truth = Counter(want)
    ordered = sorted(read, key=lambda r: not r.sure)  # stable: sure ones first
    right: list[ReadTile] = []
    rest: list[ReadTile] = []
    for r in ordered:
        if left_truth[r.key] > 0:
            left_truth[r.key] -= 1
            right.append(r)
        else:
            rest.append(r)
    unsure_left = Counter(tile_key(t) for t in uncertain)
    wrong: list[ReadTile] = []
    for r in rest:
        if unsure_left[r.key] > 0:
            unsure_left[r.key] -= 1
        else:
            wrong.append(r)
    missed_truth = _remaining(truth, right)
    pairing = pair_tiles(missed_truth, [r.pips for r in wrong])
    return SceneScore(
        tiles=len(truth),
        right=len(right),
        missed=tuple(sorted(tile_key(t) for t in missed_truth)),
        wrong=tuple(sorted(r.key for r in wrong)),
        wrong_sure=sum(r.sure for r in wrong),
        right_unsure=sum(not r.sure for r in right),
        uncertain_read=len(rest) - len(wrong),
        halves=(*_exact_halves(truth, missed_truth), *pairing.halves),
        extra=pairing.extra,
    )


def _remaining(truth: Sequence[Tile], matched: Sequence[ReadTile]) -> list[Tile]:
    """The truth tiles (in list order) left once one is taken for each matched reading."""
    take = Counter(r.key for r in matched)
    out: list[Tile] = []
    for t in truth:
        if take[tile_key(t)] > 0:
            take[tile_key(t)] -= 1
        else:
            out.append(t)
    return out


def _exact_halves(truth: Sequence[Tile], missed: Sequence[Tile]) -> list[HalfPair]:
    """Diagonal confusion entries of the truth tiles that are not in ``missed`` (a multiset)."""
    left = Counter(tile_key(t) for t in missed)
    out: list[HalfPair] = []
    for t in truth:
        if left[tile_key(t)] > 0:
            left[tile_key(t)] -= 1
        else:
            out.extend((p, p) for p in t)
    return out


@dataclass(frozen=True, slots=True)
class Confusion:
    """A confusion matrix of halves: rows truth pips, columns read pips then ``miss``."""

    rows: tuple[str, ...]
    cols: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]

    def format_lines(self) -> list[str]:
        """The matrix as aligned text lines, a header of column names first."""
        lines = ["      " + "".join(f"{c:>6}" for c in self.cols)]
        lines.extend(
            f"{r:>6}" + "".join(f"{n:6d}" for n in row)
            for r, row in zip(self.rows, self.counts, strict=True)
        )
        return lines


def confusion_matrix(pairs: Iterable[HalfPair]) -> Confusion:
    """Takes confusion entries ``(truth pips, read pips or None)``; returns the matrix with rows
    ``0..max(6, largest truth pips)`` and columns ``0..max(rows, largest read pips)`` then
    ``miss``."""
    counts = Counter(pairs)
    top_truth = max([MIN_PIPS, *(t for t, _ in counts)])
    top_read = max([top_truth, *(r for _, r in counts if r is not None)])
    cols: list[int | None] = [*range(top_read + 1), None]
    return Confusion(
        rows=tuple(str(t) for t in range(top_truth + 1)),
        cols=tuple("miss" if c is None else str(c) for c in cols),
        counts=tuple(tuple(counts[(t, c)] for c in cols) for t in range(top_truth + 1)),
    )
