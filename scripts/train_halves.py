"""Train the half classifier of :mod:`vision.recognition.halfnet` on rendered photos only.

    .venv/bin/pip install '.[train]'   # torch 2.13.0 (CPU), onnx: for training only
    .venv/bin/python scripts/train_halves.py --out vision/recognition/models/halves.onnx

Data (made on the fly, deterministic from the seeds below; nothing real is read):

* tables of :func:`vision.devtools.render.photos.render_table` (seeds ``0..TABLES-1``, 800x600) and
  single tiles of :func:`~vision.devtools.render.photos.render_crop` (seeds ``0..CROPS-1``);
* positives: both halves of each face-up tile, cut by :func:`~vision.recognition.halfnet.half_patch`
  from the truth corners perturbed as a real proposal would be: shifted up to ±10% of the tile
  width w along and across, scaled ±12%, rotated ±6°, the bar-side edge moved ±8% of w;
* class 7 ("not a half"): squares of table away from every tile, halves of face-down backs
  (perturbed alike), halves shifted 0.35-0.6 w along the tile (over the bar or off its end,
  straddling a touching tile) and 0.4-0.6 w across it (straddling a tile alongside, or table);
* augmentation at each batch: one of the 8 symmetries of the square, gamma, contrast and
  brightness, blur, noise.

The net (``HalfNet``, 4 3x3 conv layers of 16-32-64-64 channels, the first three of stride 2,
with batch norm and ReLU, the 4x4x64 map flattened into a linear layer; 68,424 parameters) is
trained with AdamW and a one-cycle schedule, then exported to ONNX (opset 13); the script loads
the export with ONNX Runtime, as the reader does, and checks it against torch on a held-out
batch.

Everything is seeded (``--seed``): the same seed gives the same data and, on the same machine
and thread count, the same model. Wall time on the project's 2-core machine: 669 s (data 61 s,
12 epochs of 218,467 patches; the machine was shared with another job, idle it is ~6 min).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterable, Iterator
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.devtools.render.photos import render_crop, render_table
from vision.recognition.halfnet import HALF_PX, N_CLASSES, NOT_A_HALF, half_patch
from vision.recognition.halfnet import normalise as normalise_patches
from vision.recognition.stages.scale import darkest_channel

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

TABLES = 2400
CROPS = 3000
TABLE_SIZE = (800, 600)
#: Seeds at and above this are never trained on (held out for scripts/eval_halves.py).
HELD_OUT_SEED = 1_000_000
_DATA_STREAM = 0xDA7A


# ---------------------------------------------------------------------------------------------
# geometry of a half


def tile_frame(corners: Iterable[Iterable[float]]) -> F64:
    """Homography from the tile's own frame (x along it, 0..2; y across, 0..1) to the image,
    for corners going round as :class:`SyntheticTile` lists them (half a's end, half b's end
    at -v, then at +v)."""
    src = np.array([(0, 0), (2, 0), (2, 1), (0, 1)], dtype=np.float32)
    dst = np.asarray([list(c) for c in corners], dtype=np.float32)
    h: F64 = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
    return h


def _apply(h: F64, pts: F64) -> F64:
    q = np.column_stack([pts, np.ones(len(pts))]) @ h.T
    out: F64 = q[:, :2] / q[:, 2:3]
    return out


def half_square(
    half: int,
    shift: tuple[float, float] = (0.0, 0.0),
    scale: float = 1.0,
    angle: float = 0.0,
    bar_jitter: float = 0.0,
) -> F64:
    """A half's square in the tile frame, ``(4, 2)``, corners 0 and 1 on the bar side then
    going round; ``shift`` (towards the bar, across) and ``bar_jitter`` (the bar-side edge
    moved outwards) in tile widths, ``angle`` radians."""
    c = np.array([0.5 + half, 0.5])
    d = np.array([1.0 if half == 0 else -1.0, 0.0])  # towards the bar
    d = np.array([d[0] * math.cos(angle), d[0] * math.sin(angle)])
    p = np.array([-d[1], d[0]])
    c = c + shift[0] * d + shift[1] * p
    s = 0.5 * scale
    return np.array(
        [
            c + (s + bar_jitter) * d - s * p,
            c + (s + bar_jitter) * d + s * p,
            c - s * d + s * p,
            c - s * d - s * p,
        ]
    )


def _proposal(rng: np.random.Generator) -> dict[str, float]:
    return {
        "scale": float(rng.uniform(0.88, 1.12)),
        "angle": math.radians(float(rng.uniform(-6, 6))),
        "bar_jitter": float(rng.uniform(-0.08, 0.08)),
    }


def _jitter(rng: np.random.Generator) -> tuple[float, float]:
    return (float(rng.uniform(-0.1, 0.1)), float(rng.uniform(-0.1, 0.1)))


def _away(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi)) * (1.0 if rng.random() < 0.5 else -1.0)


# ---------------------------------------------------------------------------------------------
# patches of one photo


def _tile_patches(
    rng: np.random.Generator,
    grey: U8,
    corners: Iterable[Iterable[float]],
    pips: tuple[int, int] | None,
    *,
    out: list[tuple[U8, int]],
    copies: int = 1,
) -> None:
    h = tile_frame(corners)
    for _ in range(copies):
        for half in (0, 1):
            q = half_square(half, _jitter(rng), **_proposal(rng))
            label = NOT_A_HALF if pips is None else pips[half]
            out.append((half_patch(grey, _apply(h, q)), label))
    # shifted along (over the bar, or off the end onto a touching tile or the table)
    for _ in range(copies):
        half = int(rng.integers(2))
        j = _jitter(rng)
        q = half_square(half, (_away(rng, 0.35, 0.6), j[1]), **_proposal(rng))
        out.append((half_patch(grey, _apply(h, q)), NOT_A_HALF))
    if rng.random() < 0.4 * copies:
        half = int(rng.integers(2))
        j = _jitter(rng)
        q = half_square(half, (j[0], _away(rng, 0.4, 0.6)), **_proposal(rng))
        out.append((half_patch(grey, _apply(h, q)), NOT_A_HALF))


def _table_patches(
    rng: np.random.Generator,
    grey: U8,
    centres: F64,
    width: float,
    *,
    n: int,
    out: list[tuple[U8, int]],
) -> None:
    """``n`` squares of side ~``width`` at random places and angles, none within 0.6 w of a
    half's centre (``centres``, (M, 2))."""
    hh, ww = grey.shape
    for _ in range(n * 4):
        if n <= 0:
            break
        c = np.array([rng.uniform(0, ww), rng.uniform(0, hh)])
        if len(centres) and np.hypot(*(centres - c).T).min() < 0.6 * width:
            continue
        s = width * float(rng.uniform(0.85, 1.15)) / 2
        a = float(rng.uniform(0, 2 * math.pi))
        d = np.array([math.cos(a), math.sin(a)]) * s
        p = np.array([-d[1], d[0]])
        q = np.array([c + d - p, c + d + p, c - d + p, c - d - p])
        out.append((half_patch(grey, q), NOT_A_HALF))
        n -= 1


def _width(corners: Iterable[Iterable[float]]) -> float:
    k = np.asarray([list(c) for c in corners], dtype=np.float64)
    return float(np.hypot(*(k[3] - k[0])) + np.hypot(*(k[2] - k[1]))) / 2


def table_samples(seed: int) -> list[tuple[U8, int]]:
    """The patches cut from one rendered table photo (seed ``seed``)."""
    rng = np.random.default_rng([seed, _DATA_STREAM, 2])
    photo = render_table(seed, width=TABLE_SIZE[0], height=TABLE_SIZE[1])
    grey = darkest_channel(photo.image)
    out: list[tuple[U8, int]] = []
    centres: list[tuple[float, float]] = []
    widths: list[float] = []
    for t in photo.tiles:
        _tile_patches(rng, grey, t.corners, t.pips, out=out)
        centres.extend(t.centers)
        widths.append(_width(t.corners))
    for b in photo.backs:
        _tile_patches(rng, grey, b.corners, None, out=out)
        h = tile_frame(b.corners)
        centres.extend(tuple(x) for x in _apply(h, np.array([[0.5, 0.5], [1.5, 0.5]])).tolist())
        widths.append(_width(b.corners))
    if widths:
        _table_patches(rng, grey, np.array(centres), float(np.median(widths)), n=4, out=out)
    return out


def crop_samples(seed: int) -> list[tuple[U8, int]]:
    """The patches cut from one rendered single-tile photo (seed ``seed``)."""
    rng = np.random.default_rng([seed, _DATA_STREAM, 1])
    image, t = render_crop(seed)
    grey = darkest_channel(image)
    out: list[tuple[U8, int]] = []
    _tile_patches(rng, grey, t.corners, t.pips, out=out, copies=2)
    _table_patches(rng, grey, np.array(t.centers), _width(t.corners), n=2, out=out)
    return out


def _job(job: tuple[str, int]) -> list[tuple[U8, int]]:
    kind, seed = job
    return table_samples(seed) if kind == "table" else crop_samples(seed)


def dataset(tables: Iterable[int], crops: Iterable[int], workers: int = 2) -> tuple[U8, I64]:
    """Patches (N, 32, 32) uint8 and labels (N,) of the given table and crop seeds, in seed
    order (the same whatever ``workers``)."""
    jobs = [("table", s) for s in tables] + [("crop", s) for s in crops]
    xs: list[U8] = []
    ys: list[int] = []
    with Pool(workers) as pool:
        for part in pool.imap(_job, jobs, chunksize=16):
            for x, y in part:
                xs.append(x)
                ys.append(y)
    return np.stack(xs), np.array(ys, dtype=np.int64)


# ---------------------------------------------------------------------------------------------
# augmentation


def augment(rng: np.random.Generator, x: U8) -> F32:
    """A batch (N, 32, 32) uint8 -> float32 0..255, each patch under one of the 8 symmetries of
    the square, gamma, contrast/brightness, sometimes blur, noise."""
    n = len(x)
    f = x.astype(np.float32)
    m = rng.random(n) < 0.5
    f[m] = f[m][:, :, ::-1]
    m = rng.random(n) < 0.5
    f[m] = f[m][:, ::-1, :]
    m = rng.random(n) < 0.5
    f[m] = f[m].transpose(0, 2, 1)
    gamma = np.exp(rng.uniform(-0.6, 0.6, n)).astype(np.float32)[:, None, None]
    f = 255.0 * (f / 255.0) ** gamma
    mean = f.mean(axis=(1, 2), keepdims=True)
    contrast = rng.uniform(0.45, 1.25, n).astype(np.float32)[:, None, None]
    bright = rng.uniform(-30, 30, n).astype(np.float32)[:, None, None]
    f = mean + (f - mean) * contrast + bright
    for i in np.flatnonzero(rng.random(n) < 0.35).tolist():
        f[i] = cv2.GaussianBlur(f[i], (0, 0), float(rng.uniform(0.4, 1.4)))
    sigma = (rng.uniform(0, 1, n) ** 2 * 10).astype(np.float32)[:, None, None]
    f = f + rng.standard_normal(f.shape).astype(np.float32) * sigma
    out: F32 = np.clip(f, 0, 255).astype(np.float32)
    return out


def batches(rng: np.random.Generator, n: int, size: int) -> Iterator[I64]:
    order = rng.permutation(n)
    for i in range(0, n - size + 1, size):
        yield order[i : i + size]


# ---------------------------------------------------------------------------------------------
# the net


def make_net() -> object:
    import torch
    from torch import nn

    class HalfNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()

            def block(cin: int, cout: int, k: int, stride: int) -> nn.Sequential:
                return nn.Sequential(
                    nn.Conv2d(cin, cout, k, stride, k // 2, bias=False),
                    nn.BatchNorm2d(cout),
                    nn.ReLU(inplace=True),
                )

            self.features = nn.Sequential(
                block(1, 16, 3, 2),  # 16x16
                block(16, 32, 3, 2),  # 8x8
                block(32, 64, 3, 2),  # 4x4
                block(64, 64, 3, 1),  # 4x4
            )
            self.drop = nn.Dropout(0.2)
            self.head = nn.Linear(64 * 4 * 4, N_CLASSES)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = self.features(x)
            y = torch.flatten(y, 1)
            out: torch.Tensor = self.head(self.drop(y))
            return out

    return HalfNet()


def check_onnx(path: Path, model: object, x: F32) -> float:
    """Largest difference between the probabilities of torch and of ONNX Runtime on ``x``."""
    import onnxruntime as ort
    import torch

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = np.asarray(session.run(None, {"patch": x})[0], dtype=np.float64)
    with torch.no_grad():
        want = model(torch.from_numpy(x)).double().numpy()  # type: ignore[operator]

    def soft(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        e = np.exp(z - z.max(axis=1, keepdims=True))
        out: npt.NDArray[np.float64] = e / e.sum(axis=1, keepdims=True)
        return out

    return float(np.abs(soft(got) - soft(want)).max())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("vision/recognition/models/halves.onnx"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tables", type=int, default=TABLES)
    ap.add_argument("--crops", type=int, default=CROPS)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)

    import torch
    from torch import nn

    t0 = time.monotonic()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    x, y = dataset(range(args.tables), range(args.crops), workers=args.threads)
    counts = np.bincount(y, minlength=N_CLASSES).tolist()
    print(f"data: {len(x)} patches, per class {counts}, {time.monotonic() - t0:.0f} s", flush=True)
    # a held-out check set, rendered from seeds never trained on
    vx, vy = dataset(
        range(HELD_OUT_SEED, HELD_OUT_SEED + 60),
        range(HELD_OUT_SEED, HELD_OUT_SEED + 100),
        workers=args.threads,
    )
    vin = torch.from_numpy(normalise_patches(vx))

    model = make_net()
    assert isinstance(model, nn.Module)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"net: {n_params} parameters", flush=True)
    steps = args.epochs * (len(x) // args.batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=4e-3, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.02)
    rng = np.random.default_rng([args.seed, _DATA_STREAM, 0xA06])
    yt = torch.from_numpy(y)
    for epoch in range(args.epochs):
        model.train()
        total, right, seen = 0.0, 0, 0
        for idx in batches(rng, len(x), args.batch):
            xb = torch.from_numpy(normalise_patches(augment(rng, x[idx])))
            yb = yt[idx]
            out = model(xb)
            loss = loss_fn(out, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
            right += int((out.argmax(1) == yb).sum())
            seen += len(idx)
        model.eval()
        with torch.no_grad():
            vp = model(vin).argmax(1).numpy()
        acc = float((vp == vy).mean())
        print(
            f"epoch {epoch + 1:2d}: loss {total / seen:.4f}, train {right / seen:.4f}, "
            f"held-out {acc:.4f} ({int((vp != vy).sum())} wrong of {len(vy)}), "
            f"{time.monotonic() - t0:.0f} s",
            flush=True,
        )

    model.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 1, HALF_PX, HALF_PX)
    torch.onnx.export(
        model,
        (dummy,),
        str(args.out),
        input_names=["patch"],
        output_names=["logits"],
        dynamic_axes={"patch": {0: "n"}, "logits": {0: "n"}},
        opset_version=13,
        dynamo=False,
    )
    diff = check_onnx(args.out, model, normalise_patches(vx[:256]))
    size = args.out.stat().st_size
    print(f"onnx: {args.out} ({size} bytes), ONNX Runtime vs torch: max |dp| {diff:.2e}")
    if diff > 1e-4:
        print("ONNX Runtime disagrees with torch", file=sys.stderr)
        return 1
    print(f"wall time {time.monotonic() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
