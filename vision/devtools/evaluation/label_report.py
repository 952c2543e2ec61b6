"""Reports of the crops and scenes kinds (truth without positions), as JSON and as text.

Per-image results come from :mod:`vision.devtools.evaluation.labels`; the reports only sum them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from vision.devtools.evaluation.labels import (
    MISSED,
    RIGHT,
    WRONG,
    Confusion,
    CropScore,
    ReadTile,
    SceneScore,
    Tile,
    confusion_matrix,
    tile_key,
)

#: Failures listed in the text report (all of them are in the JSON).
TEXT_FAILURES = 40


def _pct(num: int, den: int) -> str:
    return f"{100 * num / max(1, den):7.2f}%  ({num}/{den})"


def _median(values: Iterable[float]) -> float | None:
    v = list(values)
    return float(np.median(v)) if v else None


def _read_json(read: Iterable[ReadTile]) -> list[dict[str, object]]:
    return [{"tile": r.key, "pips": list(r.pips), "sure": r.sure} for r in read]


def _read_text(read: Iterable[ReadTile]) -> str:
    return "[" + ", ".join(f"{r.key}{'' if r.sure else ' unsure'}" for r in read) + "]"


def _confusion_text(conf: Confusion, extra: int) -> list[str]:
    head = f"confusion of halves (rows truth, columns read; read tiles paired with none: {extra}):"
    return [head, *conf.format_lines()]


@dataclass(frozen=True, slots=True)
class CropResult:
    """One single-tile photo: its label, what was read, its score, and why it could not be
    read (``error``, then scored as missed)."""

    name: str
    truth: Tile
    read: tuple[ReadTile, ...]
    score: CropScore
    seconds: float
    error: str | None = None


@dataclass(frozen=True, slots=True)
class CropReport:
    """A crops set scored photo by photo (see
    :func:`vision.devtools.evaluation.labels.score_crop`)."""

    source: str
    images: tuple[CropResult, ...]
    kind: str = "crops"

    def totals(self) -> dict[str, int]:
        """Counts of photos: ``images``, ``right``, ``missed``, ``wrong``, ``sure_wrong``,
        ``unsure_wrong``, ``right_unsure``, ``unreadable``, and ``extra`` read tiles."""
        n = {RIGHT: 0, MISSED: 0, WRONG: 0}
        sure_wrong = right_unsure = 0
        for r in self.images:
            n[r.score.outcome] += 1
            sure_wrong += r.score.outcome == WRONG and r.score.sure
            right_unsure += r.score.outcome == RIGHT and not r.score.sure
        return {
            "images": len(self.images),
            "right": n[RIGHT],
            "missed": n[MISSED],
            "wrong": n[WRONG],
            "sure_wrong": sure_wrong,
            "unsure_wrong": n[WRONG] - sure_wrong,
            "right_unsure": right_unsure,
            "unreadable": sum(r.error is not None for r in self.images),
            "extra": sum(r.score.extra for r in self.images),
        }

    def confusion(self) -> Confusion:
        """The confusion matrix of halves over all photos."""
        return confusion_matrix(h for r in self.images for h in r.score.halves)

    def by_tile(self) -> dict[str, dict[str, int]]:
        """Per labelled tile (``"4-6"``): its photos and how many were right, missed, wrong."""
        out: dict[str, dict[str, int]] = {}
        for r in self.images:
            row = out.setdefault(tile_key(r.truth), {"images": 0, RIGHT: 0, MISSED: 0, WRONG: 0})
            row["images"] += 1
            row[r.score.outcome] += 1
        return dict(sorted(out.items()))

    def summary(self) -> dict[str, object]:
        """Totals, accuracy, timing, confusion, per-tile counts and every wrong or unreadable
        photo (JSON-ready)."""
        t = self.totals()
        conf = self.confusion()
        out: dict[str, object] = {"source": self.source, "kind": self.kind, **t}
        out["accuracy"] = t["right"] / max(1, t["images"])
        out["median_seconds_per_image"] = _median(r.seconds for r in self.images)
        out["confusion_rows"] = list(conf.rows)
        out["confusion_cols"] = list(conf.cols)
        out["confusion"] = [list(row) for row in conf.counts]
        out["by_tile"] = self.by_tile()
        out["wrong_images"] = [
            {"image": r.name, "truth": tile_key(r.truth), "read": _read_json(r.read)}
            for r in self.images
            if r.score.outcome == WRONG
        ]
        out["unreadable_images"] = {r.name: r.error for r in self.images if r.error is not None}
        return out

    def format_text(self) -> str:
        """A human summary: totals, the confusion matrix, and the first failures."""
        t = self.totals()
        n = t["images"]
        lines = [
            f"crops {self.source}: {n} photos of {len(self.by_tile())} tiles, one tile each",
            f"right   {_pct(t['right'], n)}, unsure {t['right_unsure']}",
            f"missed  {_pct(t['missed'], n)}, unreadable {t['unreadable']}",
            f"wrong   {_pct(t['wrong'], n)}, sure wrong {t['sure_wrong']}, "
            f"unsure wrong {t['unsure_wrong']}",
        ]
        secs = _median(r.seconds for r in self.images)
        if secs is not None:
            lines.append(f"median time per image {1000 * secs:.1f} ms")
        lines.extend(_confusion_text(self.confusion(), t["extra"]))
        failures = [
            f"{r.name}: unreadable: {r.error}"
            if r.error is not None
            else f"{r.name}: truth {tile_key(r.truth)}, read {_read_text(r.read)}"
            for r in self.images
            if r.error is not None or r.score.outcome == WRONG
        ]
        lines.extend(_failures_text(failures))
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class SceneResult:
    """One labelled photo of a scene: its labels, what was read, its score, and why it could
    not be read (``error``, then every labelled tile is missed)."""

    name: str
    read: tuple[ReadTile, ...]
    score: SceneScore
    face_down: int
    uncertain: int
    seconds: float
    error: str | None = None


@dataclass(frozen=True, slots=True)
class SceneReport:
    """A scenes set scored photo by photo (see
    :func:`vision.devtools.evaluation.labels.score_scene`)."""

    source: str
    images: tuple[SceneResult, ...]
    kind: str = "scenes"

    def totals(self) -> dict[str, int]:
        """Counts: ``images``, labelled ``tiles``, ``right``, ``missed``, ``wrong`` (read tiles
        not there), ``sure_wrong``, ``unsure_wrong``, ``right_unsure``, ``uncertain`` labels,
        ``uncertain_read``, ``face_down``, ``images_whole``, ``unreadable``, ``extra``."""
        s = [r.score for r in self.images]
        wrong = sum(len(x.wrong) for x in s)
        sure_wrong = sum(x.wrong_sure for x in s)
        return {
            "images": len(self.images),
            "tiles": sum(x.tiles for x in s),
            "right": sum(x.right for x in s),
            "missed": sum(len(x.missed) for x in s),
            "wrong": wrong,
            "sure_wrong": sure_wrong,
            "unsure_wrong": wrong - sure_wrong,
            "right_unsure": sum(x.right_unsure for x in s),
            "uncertain": sum(r.uncertain for r in self.images),
            "uncertain_read": sum(x.uncertain_read for x in s),
            "face_down": sum(r.face_down for r in self.images),
            "images_whole": sum(x.whole for x in s),
            "unreadable": sum(r.error is not None for r in self.images),
            "extra": sum(x.extra for x in s),
        }

    def confusion(self) -> Confusion:
        """The confusion matrix of halves over all photos."""
        return confusion_matrix(h for r in self.images for h in r.score.halves)

    def summary(self) -> dict[str, object]:
        """Totals, rates, timing, confusion and every photo not read whole (JSON-ready)."""
        t = self.totals()
        conf = self.confusion()
        out: dict[str, object] = {"source": self.source, "kind": self.kind, **t}
        out["accuracy"] = t["right"] / max(1, t["tiles"])
        out["median_seconds_per_image"] = _median(r.seconds for r in self.images)
        out["confusion_rows"] = list(conf.rows)
        out["confusion_cols"] = list(conf.cols)
        out["confusion"] = [list(row) for row in conf.counts]
        out["failures"] = {
            r.name: {
                "right": r.score.right,
                "tiles": r.score.tiles,
                "missed": list(r.score.missed),
                "wrong": list(r.score.wrong),
                "read": _read_json(r.read),
                **({"error": r.error} if r.error is not None else {}),
            }
            for r in self.images
            if not r.score.whole or r.error is not None
        }
        return out

    def format_text(self) -> str:
        """A human summary: totals, the confusion matrix, and the photos not read whole."""
        t = self.totals()
        lines = [
            f"scenes {self.source}: {t['images']} photos, {t['tiles']} labelled tiles "
            f"({t['uncertain']} uncertain left out, {t['face_down']} face down)",
            f"right   {_pct(t['right'], t['tiles'])}, unsure {t['right_unsure']}",
            f"missed  {_pct(t['missed'], t['tiles'])}",
            f"wrong   {t['wrong']} read tiles not there: sure {t['sure_wrong']}, "
            f"unsure {t['unsure_wrong']}",
            f"photos read whole {t['images_whole']}/{t['images']}, unreadable {t['unreadable']}",
        ]
        secs = _median(r.seconds for r in self.images)
        if secs is not None:
            lines.append(f"median time per image {1000 * secs:.1f} ms")
        lines.extend(_confusion_text(self.confusion(), t["extra"]))
        failures = [
            f"{r.name}: unreadable: {r.error}"
            if r.error is not None
            else f"{r.name}: {r.score.right}/{r.score.tiles} right, "
            f"missed {list(r.score.missed)}, wrong {list(r.score.wrong)}"
            for r in self.images
            if not r.score.whole or r.error is not None
        ]
        lines.extend(_failures_text(failures))
        return "\n".join(lines)


def _failures_text(failures: list[str]) -> list[str]:
    if not failures:
        return []
    lines = [f"failures ({len(failures)}):"]
    lines.extend(f"  {f}" for f in failures[:TEXT_FAILURES])
    if len(failures) > TEXT_FAILURES:
        lines.append(f"  ... {len(failures) - TEXT_FAILURES} more (see --json)")
    return lines
