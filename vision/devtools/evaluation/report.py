"""Summing per-image scores into a report, as JSON and as text."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from vision.devtools.evaluation.scoring import COL_MISS, N_PIPS, ImageScore

_COUNTS = (
    "truth_halves",
    "truth_tiles",
    "pred_tiles",
    "pred_halves",
    "outside",
    "duplicates",
    "false_pos",
    "false_tiles",
    "straddling",
    "halves_found",
    "halves_correct",
    "tiles_correct",
    "sure_wrong",
)


@dataclass(frozen=True, slots=True)
class ImageResult:
    name: str
    score: ImageScore
    seconds: float
    low_confidence: int  # readings below 0.5 confidence
    #: smallest pip diameter in the image (generic truth's ``pip_diameter_px``), if given
    pip_diameter_px: float | None = None
    #: ``"WxH"`` of the image, if known
    size: str | None = None


@dataclass(slots=True)
class EvalReport:
    source: str
    kind: str  # "ddd", "generic" or "synthetic"
    images: list[ImageResult] = field(default_factory=list)

    def totals(self) -> dict[str, int]:
        return {k: sum(getattr(r.score, k) for r in self.images) for k in _COUNTS}

    def confusion(self) -> npt.NDArray[np.int64]:
        total = np.zeros((N_PIPS + 1, N_PIPS + 2), dtype=np.int64)
        for r in self.images:
            total += r.score.confusion
        return total

    def by_group(self) -> dict[str, dict[str, tuple[int, int, int]]]:
        """Tile identity per image size and per bin of 0.5 px of the smallest pip diameter:
        ``{"size": {"1280x720": (tiles, correct, false tiles)}, "pip_diameter_px": {...}}``."""
        out: dict[str, dict[str, tuple[int, int, int]]] = {"size": {}, "pip_diameter_px": {}}
        for r in self.images:
            keys = []
            if r.size is not None:
                keys.append(("size", r.size))
            if r.pip_diameter_px is not None:
                lo = int(r.pip_diameter_px * 2) / 2
                keys.append(("pip_diameter_px", f"{lo:.1f}-{lo + 0.5:.1f}"))
            for group, key in keys:
                t, c, f = out[group].get(key, (0, 0, 0))
                out[group][key] = (
                    t + r.score.truth_tiles,
                    c + r.score.tiles_correct,
                    f + r.score.false_tiles,
                )
        return {g: dict(sorted(v.items())) for g, v in out.items() if v}

    def summary(self) -> dict[str, object]:
        """Totals, rates, timing and the confusion matrix (JSON-ready)."""
        t = self.totals()
        errs = [e for r in self.images for e in r.score.center_err_px]
        secs = [r.seconds for r in self.images]
        out: dict[str, object] = {"source": self.source, "kind": self.kind}
        out["images"] = len(self.images)
        out.update(t)
        out["half_pip_accuracy"] = t["halves_correct"] / max(1, t["truth_halves"])
        out["half_recall"] = t["halves_found"] / max(1, t["truth_halves"])
        out["tile_accuracy"] = t["tiles_correct"] / max(1, t["truth_tiles"])
        out["pip_accuracy_on_found_halves"] = t["halves_correct"] / max(1, t["halves_found"])
        out["images_with_false_tiles"] = sum(1 for r in self.images if r.score.false_tiles)
        out["low_confidence_readings"] = sum(r.low_confidence for r in self.images)
        out["median_center_err_px"] = float(np.median(errs)) if errs else None
        out["median_seconds_per_image"] = float(np.median(secs)) if secs else None
        out["confusion_rows"] = [str(i) for i in range(N_PIPS)] + ["empty"]
        out["confusion_cols"] = [str(i) for i in range(N_PIPS)] + ["bad", "miss"]
        out["confusion"] = self.confusion().tolist()
        out["by_group"] = {
            g: {k: {"tiles": t, "correct": c, "false_tiles": f} for k, (t, c, f) in v.items()}
            for g, v in self.by_group().items()
        }
        out["failures"] = {r.name: r.score.wrong for r in self.images if r.score.wrong}
        return out

    def format_text(self) -> str:
        t = self.totals()
        secs = [r.seconds for r in self.images]

        def pct(num: int, den: int) -> str:
            return f"{100 * num / max(1, den):7.2f}%  ({num}/{den})"

        lines = [
            f"{self.kind} {self.source}: {len(self.images)} images, {t['truth_tiles']} tiles, "
            f"{t['truth_halves']} halves",
            f"half pip accuracy  {pct(t['halves_correct'], t['truth_halves'])}",
            f"half recall        {pct(t['halves_found'], t['truth_halves'])}",
            f"tile identity      {pct(t['tiles_correct'], t['truth_tiles'])}",
            f"false halves {t['false_pos']}, false tiles {t['false_tiles']}, "
            f"read across two tiles {t['straddling']}, "
            f"duplicates {t['duplicates']}, outside the scored area {t['outside']}",
            f"read tiles reported sure that are not a true tile read right: {t['sure_wrong']}",
        ]
        if secs:
            lines.append(f"median time per image {1000 * float(np.median(secs)):.1f} ms")
        for group, rows in self.by_group().items():
            if len(rows) > 1:
                lines.append(f"tile identity by {group.replace('_', ' ')}:")
                lines.extend(
                    f"  {key:>11}  {pct(c, t)}, false tiles {f}" for key, (t, c, f) in rows.items()
                )
        conf = self.confusion()
        used = [i for i in range(N_PIPS) if conf[i].sum() or conf[:, i].sum()]
        cols = [*used, N_PIPS, COL_MISS]
        names = [str(i) for i in used] + ["bad", "miss"]
        lines.append("confusion (rows truth, columns read):")
        lines.append("       " + "".join(f"{n:>6}" for n in names))
        for i in [*used, N_PIPS]:
            label = "empty" if i == N_PIPS else str(i)
            lines.append(f"{label:>7}" + "".join(f"{conf[i, j]:6d}" for j in cols))
        failures = [(r.name, w) for r in self.images for w in r.score.wrong]
        if failures:
            lines.append(f"failures ({len(failures)}):")
            lines.extend(f"  {name}: {w}" for name, w in failures[:40])
            if len(failures) > 40:
                lines.append(f"  ... {len(failures) - 40} more (see --json)")
        return "\n".join(lines)
