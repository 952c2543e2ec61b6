"""Stage 6: one arbitration over every tile read.

A tile read explains its pips and its two halves of face. Tiles are kept best first (most
pips explained, then the surer), and a tile is dropped where it overlaps one kept by more
than ``clash_share`` of a half's area: a seam read as a bar proposes a tile across two
neighbours, which loses to the two tiles it straddles only if they are read; lines whose
every tile is read resolve so.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.recognition.stages.halves import Half
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
    """The non-clashing subset of ``reads``, best first."""
    ordered = sorted(reads, key=lambda r: r.pips + 2 + r.confidence, reverse=True)
    kept: list[Read] = []
    outlines: list[np.ndarray] = []
    for r in ordered:
        poly = r.proposal.corners().astype(np.float32)
        limit = p.clash_share * r.proposal.width**2
        if any(cv2.intersectConvexConvex(poly, q)[0] > limit for q in outlines):
            continue
        kept.append(r)
        outlines.append(poly)
    return kept
