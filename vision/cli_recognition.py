"""CLI for recognition: ``vision identify``, ``vision eval``.

Registration only: handlers import OpenCV and numpy when they run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from vision.cli import seed_arg


def register(vision_sub: argparse._SubParsersAction[Any]) -> None:
    """Add recognition actions to ``domino-table vision``."""
    ident = vision_sub.add_parser(
        "identify",
        help="read every tile in photos",
        description="Read every tile (outline, half centres, pips, confidence) in each image, "
        "calibrated or not. Coordinates are in the image's own pixels.",
    )
    ident.add_argument("images", nargs="+", metavar="IMAGE", help="image file(s)")
    ident.add_argument(
        "--json",
        action="store_true",
        help='print {"tiles": [...]} per image (one object per line, with "image", if several)',
    )
    ident.add_argument("--annotate", metavar="DIR", help="write annotated copies into DIR")
    ident.add_argument("--params", metavar="FILE", help="recognition parameters (JSON)")
    ident.add_argument(
        "--region",
        metavar="X,Y,X,Y,...",
        help="only report tiles whose centre is inside this polygon (image pixels)",
    )
    ident.set_defaults(handler=_identify, parser=ident)

    ev = vision_sub.add_parser(
        "eval",
        help="score recognition against ground truth",
        description="Score recognition on DIR, whose kind is told by what it holds: "
        "recognition-truth.json (generic: tiles with half centres), index.json (the ddd layout: "
        "per-image grid truth), truth.json mapping 'images' to their tiles (scenes: each photo's "
        'tiles listed as "2-5", uncertain ones left out), or folders named like 6x4 (crops: '
        "photos of that one tile). See vision.evaluation.truth. Every kind reports a confusion "
        "matrix of halves. With --synthetic N, score N scenes drawn by the built-in generator "
        "instead; with --sweep S, the scenes of `fixture render-stills --seed S`, drawn in memory.",
    )
    ev.add_argument(
        "directory",
        nargs="?",
        metavar="DIR",
        help="evaluation directory (generic, ddd, scenes or crops)",
    )
    ev.add_argument("--synthetic", type=int, metavar="N", help="score N synthetic scenes")
    ev.add_argument(
        "--seed", type=seed_arg, default=0, help="first seed of --synthetic (default 0)"
    )
    ev.add_argument(
        "--pip-diameter", type=float, metavar="PX", help="pip diameter of --synthetic scenes"
    )
    ev.add_argument(
        "--sweep", type=seed_arg, metavar="S", help="score the still sweep of seed S (in memory)"
    )
    ev.add_argument("--count", type=int, metavar="N", help="scenes of --sweep (default 600)")
    ev.add_argument("--first", type=int, metavar="I", help="first scene of --sweep")
    ev.add_argument("--jobs", type=int, metavar="J", help="processes reading --sweep (default 1)")
    ev.add_argument("--json", action="store_true", help="print the full report as JSON")
    ev.add_argument("--params", metavar="FILE", help="recognition parameters (JSON)")
    ev.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ev.set_defaults(handler=_eval, parser=ev)


def _load_params(path: str | None) -> Any:
    from vision.recognition import RecognitionParams

    return RecognitionParams.load(path) if path else None


def _identify(args: argparse.Namespace) -> int:
    import cv2

    from vision.evaluation.runner import read_image
    from vision.recognition import identify
    from vision.recognition.annotate import annotate

    params = _load_params(args.params)
    region = _parse_region(args.parser, args.region)
    several = len(args.images) > 1
    out_dir = Path(args.annotate) if args.annotate else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    for name in args.images:
        image = read_image(name)
        reading = identify(image, params, region=region)
        if args.json:
            doc = reading.to_json()
            if several:
                doc = {"image": name, **doc}
            print(json.dumps(doc), flush=True)
        else:
            n = len(reading.tiles)
            print(f"{name}: {n} tile{'s' if n != 1 else ''}", end="")
            if n:
                print(f" (tile length {reading.tile_length_px:.0f} px)", end="")
            print()
            for t in reading.tiles:
                a, b = t.pips
                x, y = t.center
                sure = "" if t.confidence >= 0.5 else "  UNSURE"
                print(f"  {a}-{b}  at ({x:.0f}, {y:.0f})  confidence {t.confidence:.2f}{sure}")
        if out_dir is not None:
            target = out_dir / f"{Path(name).stem}.annotated.png"
            if not cv2.imwrite(str(target), annotate(image, reading)):
                from vision.errors import ImageReadError

                raise ImageReadError(f"cannot write {target}")
    return 0


def _parse_region(
    parser: argparse.ArgumentParser, text: str | None
) -> list[tuple[float, float]] | None:
    if text is None:
        return None
    try:
        values = [float(v) for v in text.replace(" ", ",").split(",") if v]
    except ValueError:
        parser.error(f"--region: not a list of numbers: {text!r}")
    if len(values) < 6 or len(values) % 2:
        parser.error("--region needs at least 3 x,y points")
    return list(zip(values[::2], values[1::2], strict=True))


def _eval(args: argparse.Namespace) -> int:
    from vision.evaluation import Report, evaluate_set, evaluate_sweep, evaluate_synthetic

    parser: argparse.ArgumentParser = args.parser
    given = [args.directory is not None, args.synthetic is not None, args.sweep is not None]
    if sum(given) != 1:
        parser.error("give one of DIR, --synthetic N or --sweep S")
    if args.sweep is None and (args.count, args.first, args.jobs) != (None, None, None):
        parser.error("--count, --first and --jobs go with --sweep")
    params = _load_params(args.params)
    progress = None if args.quiet else _progress_printer()
    report: Report
    if args.synthetic is not None:
        if args.synthetic < 1:
            parser.error("--synthetic needs N >= 1")
        report = evaluate_synthetic(
            args.synthetic,
            seed=args.seed,
            pip_diameter_px=args.pip_diameter,
            params=params,
            progress=progress,
        )
    elif args.sweep is not None:
        count = 600 if args.count is None else args.count
        first = 0 if args.first is None else args.first
        jobs = 1 if args.jobs is None else args.jobs
        if count < 1 or first < 0 or jobs < 1:
            parser.error("--sweep needs --count >= 1, --first >= 0 and --jobs >= 1")
        report = evaluate_sweep(
            args.sweep,
            count,
            first=first,
            jobs=jobs,
            params=params,
            progress=progress,
        )
    else:
        report = evaluate_set(args.directory, params=params, progress=progress)
    if args.json:
        print(json.dumps(report.summary(), indent=1))
    else:
        print(report.format_text())
    return 0


def _progress_printer() -> Any:
    tty = sys.stderr.isatty()

    def show(done: int, total: int, name: str) -> None:
        if tty:
            end = "\n" if done == total else ""
            print(f"\r[{done:>{len(str(total))}}/{total}] {name:<40}", end=end, file=sys.stderr)
        elif done == total or done % max(1, total // 10) == 0:
            print(f"[{done}/{total}] {name}", file=sys.stderr)
        sys.stderr.flush()

    return show
