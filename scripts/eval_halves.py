"""Measure the half classifier (vision.recognition.halfnet) on real and on fresh rendered halves.

    .venv/bin/python scripts/eval_halves.py [--ddd ../shared/datasets/ddd-dev] [--tables 150]
        [--crops 300] [--sure 0.9]

* ddd-dev (real photos, for evaluation only: never trained on, never copied into the project):
  each tile's two halves are cut with ``half_patch`` from their board cells (``quad_px``, TL TR
  BR BL), the corners turned so that 0 and 1 lie on the side facing the tile's other half. The
  cells are not the tiles' outlines (a tile sits up to ~1/3 cell off): imprecise proposals.
* rendered: tables and single tiles from seeds never trained on (``HELD_OUT_SEED + 10000`` on),
  cut exactly as ``scripts/train_halves.py`` cuts its data (perturbed proposals and class-7
  negatives), without its augmentation.

For each: accuracy, the confusion matrix (rows truth, columns read; 7 = not a half) and the
halves read with probability >= ``--sure`` but wrong. Then the time of one ``classify`` of 100
patches on one thread.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_halves import HELD_OUT_SEED, dataset

from vision.recognition.halfnet import N_CLASSES, classify, half_patch
from vision.recognition.stages.scale import darkest_channel

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


def facing(quad: F64, other: F64) -> F64:
    """``quad`` (4, 2) going round, turned so its corners 0 and 1 are the ends of the side
    nearest ``other`` (the centre of the tile's other half)."""
    mids = (quad + np.roll(quad, -1, axis=0)) / 2
    i = int(np.argmin(np.hypot(*(mids - other).T)))
    out: F64 = np.roll(quad, -i, axis=0)
    return out


def ddd_halves(folder: Path) -> tuple[U8, I64, list[str]]:
    """Patches, pips and names (``image:cell``) of every half in ddd-dev."""
    xs: list[U8] = []
    ys: list[int] = []
    names: list[str] = []
    for f in sorted(folder.glob("*.json")):
        if f.name == "index.json":
            continue
        truth = json.loads(f.read_text())
        image = cv2.imread(str(folder / truth["image"]), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"cannot read {folder / truth['image']}")
        grey = darkest_channel(np.asarray(image, dtype=np.uint8))
        for tile in truth["tiles"]:
            quads = [np.asarray(h["quad_px"], dtype=np.float64) for h in tile["halves"]]
            for i, half in enumerate(tile["halves"]):
                other = quads[1 - i].mean(axis=0)
                xs.append(half_patch(grey, facing(quads[i], other)))
                ys.append(int(half["pips"]))
                names.append(f"{truth['image']}:{half['cell']}")
    return np.stack(xs), np.array(ys, dtype=np.int64), names


def report(title: str, x: U8, y: I64, names: list[str] | None, sure: float) -> None:
    probs = classify(x)
    read = probs.argmax(axis=1)
    p = probs.max(axis=1)
    wrong = read != y
    conf = np.zeros((N_CLASSES, N_CLASSES), dtype=np.int64)
    np.add.at(conf, (y, read), 1)
    confident = wrong & (p >= sure)
    print(f"\n== {title}: {len(y)} halves")
    print(f"accuracy {1 - wrong.mean():.4f} ({int(wrong.sum())} wrong)")
    pos = y < 7
    if (~pos).any():
        print(
            f"  tile halves {1 - wrong[pos].mean():.4f} ({int(wrong[pos].sum())} wrong of "
            f"{int(pos.sum())}), not-a-half {1 - wrong[~pos].mean():.4f} "
            f"({int(wrong[~pos].sum())} wrong of {int((~pos).sum())})"
        )
    print(f"read with p >= {sure} but wrong: {int(confident.sum())}")
    print("confusion (rows truth 0..7, columns read 0..7):")
    for i, row in enumerate(conf.tolist()):
        print(f"  {i}: " + " ".join(f"{v:6d}" for v in row))
    if names is not None:
        for i in np.flatnonzero(wrong).tolist()[:40]:
            print(f"  wrong: {names[i]} truth {y[i]} read {read[i]} p {p[i]:.3f}")


def timing(x: U8) -> float:
    """Milliseconds of one classify of 100 patches on one thread (best of 20 after warm-up)."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    batch = x[:100]
    classify(batch)
    best = float("inf")
    for _ in range(20):
        t = time.perf_counter()
        classify(batch)
        best = min(best, time.perf_counter() - t)
    cv2.setNumThreads(threads)
    return best * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ddd", type=Path, default=Path("../shared/datasets/ddd-dev"))
    ap.add_argument("--tables", type=int, default=150)
    ap.add_argument("--crops", type=int, default=300)
    ap.add_argument("--sure", type=float, default=0.9)
    args = ap.parse_args(argv)

    first = HELD_OUT_SEED + 10_000
    rx, ry = dataset(range(first, first + args.tables), range(first, first + args.crops))
    report(f"rendered, held out (seeds {first}..)", rx, ry, None, args.sure)
    if args.ddd.is_dir():
        dx, dy, names = ddd_halves(args.ddd)
        report(f"ddd-dev ({args.ddd})", dx, dy, names, args.sure)
    else:
        print(f"\nno ddd-dev at {args.ddd}")
    print(f"\nclassify: {timing(rx):.2f} ms per 100 patches on one thread")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
