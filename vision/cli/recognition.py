"""CLI for recognition: ``vision identify``, ``vision eval``.

Registration only: handlers import OpenCV and numpy when they run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NamedTuple

from vision.cli.args import seed_arg


def register(vision_sub: argparse._SubParsersAction[Any]) -> None:
    """Add recognition actions to ``domino-table vision``."""
    ident = vision_sub.add_parser(
        "identify",
        help="read every tile in photos",
        description="Read every tile (outline, half centres, pips, confidence) in each image, "
        "calibrated or not. Coordinates are in the image's own pixels. A tile read with "
        "confidence under 0.5 is unsure: marked '?' and UNSURE in the text, \"sure\": false "
        "in JSON.",
        epilog="An IMAGE that cannot be read (missing, empty, not an image, truncated or "
        "corrupt, over 64 MB or over 50 megapixels) is reported on stderr as one line "
        "'domino-table: IMAGE: reason', and gets no line on stdout (with --json either); the "
        "other images are still read. Exit status: 0 when every image was read, 1 when some "
        "could not be, 2 on a usage error (a bad option, a directory holding no "
        "image, --annotate DIR not writable).",
    )
    ident.add_argument(
        "images",
        nargs="+",
        metavar="IMAGE",
        help="image file or directory; a directory's images (.jpg .jpeg .png .bmp .webp .tif "
        ".tiff, any case) are read in sorted order, sub-directories included, hidden "
        "files and directories skipped",
    )
    ident.add_argument(
        "--json",
        action="store_true",
        help='print {"tiles": [...]} per image; with several images or a directory, one '
        'object per line, with "image" (its path)',
    )
    ident.add_argument(
        "--annotate",
        metavar="DIR",
        help="write an annotated copy of each image into DIR as NAME.annotated.png (images "
        "from a directory keep their sub-directories): outlines green when sure, red and "
        "dashed when unsure, pip counts beside each tile, a legend in a corner. The copy has "
        "the image's size, except that an image under 480 px on its short side is scaled up "
        "first and a border is added when a label or the legend finds no room",
    )
    _max_pips_arg(ident)
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
        "photos of that one tile). See vision.devtools.evaluation.truth. Every kind reports a "
        "confusion matrix of halves. With --synthetic N, score N scenes drawn by the built-in "
        "generator instead; with --sweep S, the scenes of `fixture render-stills --seed S`, "
        "drawn in memory.",
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
    _max_pips_arg(ev)
    ev.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ev.set_defaults(handler=_eval, parser=ev)


def _max_pips_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-pips",
        type=int,
        metavar="N",
        help="the set's largest half: 6 for double-six (the default), 9 for double-nine",
    )


def _max_pips(args: argparse.Namespace) -> int:
    """``--max-pips``, checked: 6 when not given."""
    if args.max_pips is not None and not 1 <= args.max_pips <= 9:
        args.parser.error(f"--max-pips must be 1 to 9, got {args.max_pips}")
    return 6 if args.max_pips is None else int(args.max_pips)


def _identify(args: argparse.Namespace) -> int:
    from vision.annotate import annotate
    from vision.errors import ImageFileError, VisionError, printable
    from vision.imageio import read_image
    from vision.recognition import identify

    max_pips = _max_pips(args)
    region = _parse_region(args.parser, args.region)
    inputs, failures = _identify_inputs(args.images)
    several = len(inputs) > 1 or any(item.in_directory for item in inputs)
    out_dir = Path(args.annotate) if args.annotate else None
    if out_dir is not None:
        _make_directory(out_dir)
    for item in inputs:
        try:
            image = read_image(item.path)
            reading = identify(image, region=region, max_pips=max_pips)
        except VisionError as exc:
            reason = exc.reason if isinstance(exc, ImageFileError) else str(exc)
            sys.stdout.flush()
            print(f"domino-table: {printable(item.path)}: {reason}", file=sys.stderr, flush=True)
            failures += 1
            continue
        if args.json:
            doc = reading.to_json()
            if several:
                doc = {"image": item.path, **doc}
            print(json.dumps(doc), flush=True)
        else:
            _print_reading(printable(item.path), reading)
        if out_dir is not None:
            _write_png(out_dir / item.annotated, annotate(image, reading))
    return 1 if failures else 0


class _Input(NamedTuple):
    """An image ``vision identify`` reads."""

    path: str
    #: Where its annotated copy goes, under ``--annotate DIR``.
    annotated: Path
    #: Found in a directory given (rather than named itself).
    in_directory: bool


def _identify_inputs(names: list[str]) -> tuple[list[_Input], int]:
    """The images named, directories expanded, and how many directories could not be listed
    (each reported on stderr). A directory holding no image at all is an error."""
    import os

    from vision.errors import ImageReadError, printable
    from vision.imageio import IMAGE_SUFFIXES

    found: list[tuple[str, Path, bool]] = []
    unlisted = 0
    for name in names:
        if not os.path.isdir(name):
            found.append((name, Path(Path(name).name), False))
            continue
        errors: list[OSError] = []
        inside: list[tuple[tuple[str, ...], str]] = []
        for root, dirs, files in os.walk(name, onerror=errors.append):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for file in files:
                if not file.startswith(".") and Path(file).suffix.lower() in IMAGE_SUFFIXES:
                    path = os.path.join(root, file)
                    inside.append((Path(os.path.relpath(path, name)).parts, path))
        for exc in errors:
            where = printable(os.fsdecode(exc.filename or name))
            reason = (exc.strerror or str(exc)).lower()
            print(f"domino-table: {where}: cannot list: {reason}", file=sys.stderr, flush=True)
        unlisted += len(errors)
        if not inside and not errors:
            suffixes = " ".join(IMAGE_SUFFIXES)
            raise ImageReadError(f"no image files ({suffixes}) in directory {printable(name)}")
        found.extend((path, Path(*parts), True) for parts, path in sorted(inside))
    names_out = _annotated_names([relative for _, relative, _ in found])
    inputs = [_Input(p, out, d) for (p, _, d), out in zip(found, names_out, strict=True)]
    return inputs, unlisted


def _annotated_names(relatives: list[Path]) -> list[Path]:
    """``NAME.annotated.png`` for each image (beside its path under its directory); when two
    would be the same, the later one keeps its suffix (``NAME.jpg.annotated.png``) or gets a
    number."""
    used: set[str] = set()
    names = []
    for relative in relatives:
        options = [f"{relative.stem}.annotated.png", f"{relative.name}.annotated.png"]
        k = 2
        while (chosen := relative.with_name(options[0])).as_posix().casefold() in used:
            options.pop(0)
            if not options:
                options.append(f"{relative.stem}-{k}.annotated.png")
                k += 1
        used.add(chosen.as_posix().casefold())
        names.append(chosen)
    return names


def _print_reading(name: str, reading: Any) -> None:
    tiles = reading.tiles
    unsure = sum(1 for t in tiles if not t.sure)
    head = f"{name}: {len(tiles)} tile{'s' if len(tiles) != 1 else ''}"
    if tiles:
        head += f" (tile length {reading.tile_length_px:.0f} px)"
    if unsure:
        head += f", {unsure} unsure (marked ?)"
    lines = [head]
    for t in tiles:
        a, b = t.pips
        x, y = t.center
        mark, note = ("  ", "") if t.sure else ("? ", "  UNSURE")
        lines.append(f"  {mark}{a}-{b}  at ({x:.0f}, {y:.0f})  confidence {t.confidence:.2f}{note}")
    print("\n".join(lines), flush=True)


def _make_directory(directory: Path) -> None:
    from vision.errors import ImageWriteError, printable

    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = (exc.strerror or str(exc)).lower()
        raise ImageWriteError(
            f"cannot make directory {printable(str(directory))}: {reason}"
        ) from None


def _write_png(target: Path, image: Any) -> None:
    import cv2

    from vision.errors import ImageWriteError, printable

    try:
        ok, encoded = cv2.imencode(".png", image)
        if not ok:
            raise OSError("OpenCV could not encode it")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(encoded.tobytes())
    except (OSError, cv2.error) as exc:
        reason = (getattr(exc, "strerror", None) or str(exc)).lower()
        raise ImageWriteError(f"cannot write {printable(str(target))}: {reason}") from None


def _parse_region(
    parser: argparse.ArgumentParser, text: str | None
) -> list[tuple[float, float]] | None:
    import math

    if text is None:
        return None
    try:
        values = [float(v) for v in text.replace(" ", ",").split(",") if v]
    except ValueError:
        parser.error(f"--region: not a list of numbers: {text!r}")
    if not all(math.isfinite(v) for v in values):
        parser.error(f"--region: not a list of finite numbers: {text!r}")
    if len(values) < 6 or len(values) % 2:
        parser.error("--region needs at least 3 x,y points")
    return list(zip(values[::2], values[1::2], strict=True))


def _eval(args: argparse.Namespace) -> int:
    from vision.devtools.evaluation import Report, evaluate_set, evaluate_sweep, evaluate_synthetic

    parser: argparse.ArgumentParser = args.parser
    given = [args.directory is not None, args.synthetic is not None, args.sweep is not None]
    if sum(given) != 1:
        parser.error("give one of DIR, --synthetic N or --sweep S")
    if args.sweep is None and (args.count, args.first, args.jobs) != (None, None, None):
        parser.error("--count, --first and --jobs go with --sweep")
    max_pips = _max_pips(args)
    progress = None if args.quiet else _progress_printer()
    report: Report
    if args.synthetic is not None:
        if args.synthetic < 1:
            parser.error("--synthetic needs N >= 1")
        report = evaluate_synthetic(
            args.synthetic,
            seed=args.seed,
            pip_diameter_px=args.pip_diameter,
            max_pips=max_pips,
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
            max_pips=max_pips,
            progress=progress,
        )
    else:
        report = evaluate_set(args.directory, max_pips=max_pips, progress=progress)
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
