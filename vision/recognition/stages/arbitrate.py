"""Stage 6: one arbitration over every tile read, and what it leaves unexplained.

A tile read explains its pips and its two halves of face. Tiles are kept best first (most
pips explained, then the surer), and a tile is dropped where it overlaps one kept by more
than ``clash_share`` of a half's area. A seam read as a bar proposes a tile across two
neighbours: a kept tile is then traded for the two or more tiles that only it blocks. A tile
kept beside pips that no kept tile explains may have been read round a wrong bar (an edge or
a shadow taken for one): it is reported unsure.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.recognition.stages.halves import Half
from vision.recognition.stages.ink import Ink
from vision.recognition.stages.outline import Proposal
from vision.recognition.stages.params import StagedParams


@dataclass(frozen=True, slots=True)
class Read:
    """A proposal with both halves read."""

    proposal: Proposal
    halves: tuple[Half, Half]

    @property
    def pips(self) -> int:
        return sum(h.pips or 0 for h in self.halves)

    @property
    def confidence(self) -> float:
        return min(h.confidence for h in self.halves)


def keep(reads: list[Read], p: StagedParams) -> list[Read]:
    """The non-clashing subset of ``reads``: best first, then any tile kept is traded for two
    or more that it alone blocks (a seam read as a bar proposes a tile across two neighbours;
    the neighbours explain more)."""
    ordered = sorted(reads, key=lambda r: r.pips + 2 + r.confidence, reverse=True)
    polys = [r.proposal.corners().astype(np.float32) for r in ordered]
    n = len(ordered)
    clash = np.zeros((n, n), dtype=bool)
    for i in range(n):
        limit = p.clash_share * ordered[i].proposal.width ** 2
        for j in range(i + 1, n):
            if cv2.intersectConvexConvex(polys[i], polys[j])[0] > limit:
                clash[i, j] = clash[j, i] = True
    kept: list[int] = []
    for i in range(n):
        if not clash[i, kept].any():
            kept.append(i)
    for _ in range(n):  # each trade keeps more tiles, so this ends
        traded = _trade(kept, clash)
        if traded is None:
            break
        kept = traded
    return [ordered[i] for i in sorted(kept)]


def _trade(kept: list[int], clash: np.ndarray) -> list[int] | None:
    """``kept`` with one tile replaced by two or more it alone blocks, or None."""
    for k in kept:
        others = [i for i in kept if i != k]
        freed: list[int] = []
        for j in np.flatnonzero(clash[k]).tolist():
            if j not in kept and not clash[j, others].any() and not clash[j, freed].any():
                freed.append(j)
        if len(freed) >= 2:
            return others + freed
    return None


def unexplained_pips(kept: list[Read], ink: Ink, p: StagedParams) -> list[tuple[float, float]]:
    """Centres (working px) of the round ink blobs of about a pip's size that lie outside
    every kept tile (by more than ``loose_margin`` of its width: outlines are measured to a
    few pixels)."""
    d = ink.pip_px
    pips = ((ink.mask > 0) & (ink.thin == 0)).astype(np.uint8)
    n, _, stats, centres = cv2.connectedComponentsWithStats(pips)
    area = np.pi * d * d / 4
    outlines = [
        (r.proposal.corners().astype(np.float32), p.loose_margin * r.proposal.width) for r in kept
    ]
    out: list[tuple[float, float]] = []
    for i in range(1, n):
        w, h, a = (int(v) for v in stats[i][2:])
        if not (0.3 * area <= a <= 2.5 * area) or max(w, h) > 2 * min(w, h) + 2:
            continue
        c = (float(centres[i][0]), float(centres[i][1]))
        if all(cv2.pointPolygonTest(q, c, True) < -m for q, m in outlines):
            out.append(c)
    return out


def doubted(read: Read, loose: list[tuple[float, float]]) -> bool:
    """Whether a loose pip lies within half a tile width of ``read``'s outline."""
    poly = read.proposal.corners().astype(np.float32)
    reach = 0.5 * read.proposal.width
    return any(cv2.pointPolygonTest(poly, c, True) > -reach for c in loose)
