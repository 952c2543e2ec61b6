"""CLI for calibration, markers, tracking and fixtures: ``vision markers``, ``vision calibrate``,
``vision track``, ``vision track-sweep``, ``fixture render-record``, ``fixture render-stills``,
``fixture render-photos``, ``fixture export-stills``, ``fixture sample-record``.

Handlers import OpenCV and numpy when they run, never at import time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from vision.cli.args import seed_arg
from vision.jsonfile import read_json

if TYPE_CHECKING:
    from vision.tracking.regional import RegionalParams
    from vision.tracking.watcher import Recognizer


def register(
    vision_sub: argparse._SubParsersAction[Any], fixture_sub: argparse._SubParsersAction[Any]
) -> None:
    """Add calibration actions to ``domino-table vision`` and ``domino-table fixture``."""
    markers = vision_sub.add_parser(
        "markers", help="write a printable sheet of the table's corner markers (PNG or PDF)"
    )
    markers.add_argument("--out", required=True, type=Path, help="FILE.png or FILE.pdf")
    markers.add_argument("--table", type=Path, help="table file whose markers to print")
    markers.add_argument("--dpi", type=int, default=300)
    markers.set_defaults(handler=_markers)

    cal = vision_sub.add_parser(
        "calibrate", help="find the corner markers in a photo and write the table file"
    )
    cal.add_argument("image", type=Path, help="a photo from the table's camera")
    cal.add_argument("--out", required=True, type=Path, help="table file to write (table.json)")
    cal.add_argument("--annotate", type=Path, help="write the photo with the calibration drawn")
    cal.add_argument(
        "--table", type=Path, help="existing table file to start from (default: standard table)"
    )
    cal.add_argument("--seats", type=int, default=4, help="seats of the standard table (2-4)")
    cal.set_defaults(handler=_calibrate)

    board = vision_sub.add_parser(
        "charuco", help="write a printable ChArUco board for the optional lens calibration"
    )
    board.add_argument("--out", required=True, type=Path, help="FILE.png")
    board.set_defaults(handler=_charuco)

    lens = vision_sub.add_parser(
        "lens", help="lens calibration from photos of the ChArUco board (stored in the table file)"
    )
    lens.add_argument("images", nargs="+", type=Path, help="3+ photos of the board, varied poses")
    lens.add_argument("--out", required=True, type=Path, help="table file to write")
    lens.add_argument("--table", type=Path, help="table file to add the lens to")
    lens.set_defaults(handler=_lens)

    track = vision_sub.add_parser(
        "track", help="run scene tracking over a recorded fixture and print the events"
    )
    track.add_argument("fixture", type=Path, help="fixture directory (video, table.json)")
    track.add_argument(
        "--oracle",
        action="store_true",
        help="read settled frames from truth.json instead of the recogniser",
    )
    track.add_argument("--json", action="store_true", help="one JSON event per line")
    _whole_frames_arg(track)
    track.set_defaults(handler=_track)

    sweep = vision_sub.add_parser(
        "track-sweep",
        help="render N one-hand fixtures over the render sweep, track each with the recogniser "
        "and compare with truth.json",
        description="Fixture i is the sample record of seed S+i rendered at sweep point i (light, "
        "blur, noise, JPEG, tilt, ...) at 1280x720, 1920x1080, 1600x900 in turn, written to "
        "DIR/NN. Each is tracked with the tile reader as the table's run reads, and its added "
        "tiles, their order and their ends compared with truth.json. A measurement: exits 0 "
        "whatever the outcome; 2 on bad input.",
    )
    sweep.add_argument("--out", required=True, type=Path, metavar="DIR", help="where to render")
    sweep.add_argument("--count", type=int, default=12, metavar="N", help="fixtures (default 12)")
    sweep.add_argument("--seed", type=int, default=0, metavar="S")  # checked by track_sweep
    sweep.add_argument("--width", type=int, help="one resolution for all (with --height)")
    sweep.add_argument("--height", type=int)
    sweep.add_argument("--json", action="store_true", help="one JSON object per fixture")
    sweep.add_argument("--quiet", action="store_true", help="no progress on stderr")
    _whole_frames_arg(sweep)
    sweep.set_defaults(handler=_track_sweep)

    render = fixture_sub.add_parser(
        "render-record", help="render a game record (RULES.md section 6) as a recorded fixture"
    )
    render.add_argument("record", type=Path, help="RECORD.json")
    render.add_argument("--out", required=True, type=Path, help="fixture directory to write")
    render.add_argument("--seed", type=seed_arg, default=0)
    render.add_argument("--width", type=int)
    render.add_argument("--height", type=int)
    render.add_argument("--fps", type=float)
    render.add_argument(
        "--params", type=Path, help="JSON file of render parameters (light, blur, noise, ...)"
    )
    render.add_argument(
        "--sweep", type=int, help="use the N-th point of the parameter sweep for this seed"
    )
    render.add_argument("--quiet", action="store_true", help="no progress bar")
    render.set_defaults(handler=_render_record)

    stills = fixture_sub.add_parser(
        "render-stills",
        help="render still scenes with truth (identify JSON) for recognition sweeps",
    )
    stills.add_argument("--out", required=True, type=Path, help="directory to write")
    stills.add_argument("--count", type=int, default=500)
    stills.add_argument("--seed", type=seed_arg, default=0)
    stills.add_argument(
        "--no-sweep", action="store_true", help="default look for every scene (no sweep)"
    )
    stills.add_argument("--quiet", action="store_true", help="no progress bar")
    stills.set_defaults(handler=_render_stills)

    photos = fixture_sub.add_parser(
        "render-photos",
        help="render photos of tiles in many looks (tables, tile sets, light, camera), with truth",
        description="crops: one tile per photo (100-400 px), written as DIR/<a>x<b>/NNNNN.jpg "
        "(a >= b, the tile's pips); tables: whole tables (lines, rows, loose and face-down "
        "tiles), written as DIR/NNNNN.jpg. Both also write DIR/recognition-truth.json (the "
        "generic truth format of `vision eval`). Photo i is drawn from seed S * 1000000 + i.",
    )
    photos.add_argument("--kind", required=True, choices=("crops", "tables"))
    photos.add_argument("--count", type=_photo_count, default=100, metavar="N")
    photos.add_argument("--seed", type=seed_arg, default=0, metavar="S")
    photos.add_argument("--out", required=True, type=Path, metavar="DIR")
    photos.add_argument("--width", type=_photo_side, default=1280, help="tables (default 1280)")
    photos.add_argument("--height", type=_photo_side, default=720, help="tables (default 720)")
    photos.add_argument("--quiet", action="store_true", help="no progress on stderr")
    photos.set_defaults(handler=_render_photos)

    export = fixture_sub.add_parser(
        "export-stills",
        help="one PNG per still scene of a rendered fixture, with recognition-truth.json",
    )
    export.add_argument("fixture", type=Path, help="rendered fixture directory (truth.json)")
    export.add_argument("--out", required=True, type=Path, help="directory to write")
    export.set_defaults(handler=_export_stills)

    sample = fixture_sub.add_parser(
        "sample-record",
        help="write a small legal game record from greedy bots (no controller needed)",
    )
    sample.add_argument("--out", required=True, type=Path)
    sample.add_argument("--seed", type=seed_arg, default=0)
    sample.add_argument("--rules", choices=("latin", "draw"), default="latin")
    sample.set_defaults(handler=_sample_record)


class ProgressBar:
    """``[#####.....]  45%  300/658 frames`` on a stream, redrawn in place."""

    def __init__(self, label: str, stream: TextIO | None = None, width: int = 30) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.width = width

    def __call__(self, done: int, total: int) -> None:
        total = max(total, 1)
        filled = round(self.width * min(done, total) / total)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {100 * done // total:3d}%  {done}/{total}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def _markers(args: argparse.Namespace) -> int:
    from vision.calibration.drawing import write_marker_sheet
    from vision.calibration.geometry import default_geometry
    from vision.calibration.tablefile import load_table

    geometry = load_table(args.table) if args.table else default_geometry()
    path = write_marker_sheet(geometry, args.out, dpi=args.dpi)
    ids = ", ".join(str(m.id) for m in geometry.markers)
    print(f"wrote {path}: markers {ids} ({geometry.dictionary}); print at 100% scale")
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    import cv2

    from vision.calibration.drawing import annotate_calibration
    from vision.calibration.geometry import default_geometry
    from vision.calibration.markers import calibrate
    from vision.calibration.tablefile import load_table, save_table
    from vision.errors import ImageReadError
    from vision.imageio import read_image

    image = read_image(args.image)  # size checked from the header before decoding
    geometry = load_table(args.table) if args.table else default_geometry(args.seats)
    result = calibrate(image, geometry)
    save_table(result.geometry, args.out)
    found = ", ".join(str(d.id) for d in result.detections)
    print(f"wrote {args.out}: markers {found} found, rms {result.rms_mm:.2f} mm")
    if result.missing_ids:
        print(f"warning: markers {list(result.missing_ids)} not seen", file=sys.stderr)
    if args.annotate:
        if not cv2.imwrite(str(args.annotate), annotate_calibration(image, result)):
            raise ImageReadError(f"{args.annotate}: cannot write an image there")
        print(f"wrote {args.annotate}")
    return 0


def _charuco(args: argparse.Namespace) -> int:
    import cv2

    from vision.calibration.lens import CharucoSpec, charuco_board_image
    from vision.errors import ImageReadError

    spec = CharucoSpec()
    if not cv2.imwrite(str(args.out), charuco_board_image(spec, px_per_mm=300 / 25.4)):
        raise ImageReadError(f"{args.out}: cannot write an image there")
    print(
        f"wrote {args.out}: {spec.squares[0]}x{spec.squares[1]} squares of {spec.square_mm:g} mm "
        "at 300 dpi; print at 100% and glue it flat"
    )
    return 0


def _lens(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from vision.calibration.geometry import default_geometry
    from vision.calibration.lens import calibrate_lens
    from vision.calibration.tablefile import load_table, save_table
    from vision.imageio import read_image

    images = [read_image(path) for path in args.images]
    lens = calibrate_lens(images)
    geometry = load_table(args.table) if args.table else default_geometry()
    save_table(replace(geometry, lens=lens, homography=None, image_size=None), args.out)
    print(
        f"wrote {args.out}: lens rms {lens.rms_px:.2f} px; run 'vision calibrate --table "
        f"{args.out}' next (the homography must be fitted again through the lens model)"
    )
    return 0


def _track(args: argparse.Namespace) -> int:
    from vision.tracking.replay import track_fixture

    recognize: Recognizer | None = None
    regional = None
    if not args.oracle:
        recognize, regional = _reader(whole_frames=args.whole_frames)
    result = track_fixture(args.fixture, recognize=recognize, regional=regional)
    for e in result.events:
        if args.json:
            print(json.dumps(e.to_json()))
        else:
            print(f"{e.t:8.2f}  {e.kind:<14} {_describe(e.to_json())}")
    return 0


def _whole_frames_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--whole-frames",
        action="store_true",
        help="read each settled frame whole (default: as the table's run reads, by windows "
        "round what changed since the scene last tracked)",
    )


def _reader(*, whole_frames: bool) -> tuple[Recognizer, RegionalParams | None]:
    """The recogniser ``vision track`` and ``track-sweep`` read with: the tile reader for a
    double-six set (the sample records and shipped fixtures play one), by windows round each
    change as the table's run reads, or on ``whole_frames``."""
    import functools

    from vision.errors import VisionError
    from vision.tracking.regional import RegionalParams

    try:
        from vision.recognition import identify
    except ImportError as exc:
        raise VisionError(
            "the recogniser (vision.recognition.identify) is not available: use --oracle on a "
            "rendered fixture"
        ) from exc
    return functools.partial(identify, max_pips=6), None if whole_frames else RegionalParams()


def _track_sweep(args: argparse.Namespace) -> int:
    from collections.abc import Callable

    from vision.devtools.track_sweep import sweep_points, track_sweep
    from vision.errors import VisionError

    if (args.width is None) != (args.height is None):
        raise VisionError("give both --width and --height, or neither")
    size = (args.width, args.height) if args.width is not None else None
    points = sweep_points(args.count, args.seed, size)

    def stage(k: int, n: int, what: str) -> Callable[[int, int], None] | None:
        if args.quiet:
            return None
        p = points[k].params
        label = f"fixture {k + 1}/{n} {p.width}x{p.height} {what}"
        if sys.stderr.isatty():
            return ProgressBar(f"{label:<36}")
        print(label, file=sys.stderr, flush=True)  # a log file gets one line per stage
        return None

    recognize, regional = _reader(whole_frames=args.whole_frames)
    equal = 0
    sweep = track_sweep(args.out, points, recognize=recognize, stage=stage, regional=regional)
    for k, r in enumerate(sweep, start=1):
        equal += int(r.equal)
        if args.json:
            print(json.dumps(r.to_json()), flush=True)
            continue
        p = r.point.params
        c = r.comparison
        print(
            f"{r.point.index:02d}  {p.width}x{p.height}  blur {p.blur:.1f}  noise {p.noise:.1f}  "
            f"jpeg {p.jpeg_quality:>2}  tilt {p.tilt_deg:4.1f}  light {p.light:.2f}  "
            f"{p.tile_look:<16} h{p.tile_height_mm:<4g} "
            f"{'yes' if r.equal else 'NO '}  {len(c.got)}/{len(c.expected)} adds  "
            f"{r.unsure} unsure",
            flush=True,
        )
        if not r.equal:
            oracle = "equal" if r.oracle_equal else "differs too"
            print(f"    first difference: {c.first_difference()}; oracle: {oracle}")
            print(f"    reproduce: {r.point.command()}", flush=True)
        if not args.quiet:
            print(f"{equal} of {k} so far equal truth", file=sys.stderr)
    summary = f"{equal} of {len(points)} fixtures equal truth"
    if args.json:
        print(json.dumps({"summary": summary, "equal": equal, "count": len(points)}))
    else:
        print(summary)
    return 0


def _describe(data: dict[str, object]) -> str:
    skip = {"event", "t", "corners", "coords"}
    return " ".join(f"{k}={v}" for k, v in data.items() if k not in skip)


MAX_JSON_BYTES = 32 * 1024 * 1024


def _json_file(path: Path, error: type[Exception]) -> Any:
    """A JSON file, read bounded (``/dev/zero`` included); every failure one ``error`` line."""
    return read_json(path, MAX_JSON_BYTES, error)


def _render_record(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from vision.devtools.fixture_writer import render_fixture
    from vision.devtools.render.scene import RenderParams, sweep_params
    from vision.devtools.render.tiles import RenderError

    record = _json_file(args.record, RenderError)
    params = RenderParams()
    if args.params:
        params = RenderParams.from_json(_json_file(args.params, RenderError))
    if args.sweep is not None:
        params = sweep_params(args.sweep, args.seed, params)
    overrides = {k: getattr(args, k) for k in ("width", "height", "fps") if getattr(args, k)}
    if overrides:
        params = replace(params, **overrides)
    progress = None if args.quiet else ProgressBar("rendering")
    info = render_fixture(record, args.out, seed=args.seed, params=params, progress=progress)
    print(
        f"wrote {info.out_dir}: {info.video.name} {info.width}x{info.height} "
        f"{info.frames} frames ({info.duration_s:.1f} s, {info.video_bytes / 1e6:.1f} MB), "
        f"{info.hands} hand(s), {info.moves} moves, rendered in {info.render_s:.1f} s"
    )
    return 0


def _render_stills(args: argparse.Namespace) -> int:
    from vision.devtools.render.stills import render_stills

    progress = None if args.quiet else ProgressBar("rendering stills")
    paths = render_stills(
        args.out, args.count, seed=args.seed, sweep=not args.no_sweep, progress=progress
    )
    print(f"wrote {len(paths)} scenes to {args.out} (NNNN.png + NNNN.json)")
    return 0


#: Photos of one ``render-photos`` set: seeds ``S * PHOTO_SET + i`` never meet another set's.
PHOTO_SET = 1_000_000


def _photo_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= value <= PHOTO_SET:
        raise argparse.ArgumentTypeError(f"must be 1 to {PHOTO_SET}, got {value}")
    return value


def _photo_side(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 64 <= value <= 8192:
        raise argparse.ArgumentTypeError(f"must be 64 to 8192 pixels, got {value}")
    return value


def _render_photos(args: argparse.Namespace) -> int:
    import cv2

    from vision.devtools.evaluation.truth import FORMAT_ID, GENERIC_NAME
    from vision.devtools.render.photos import (
        crop_look,
        render_crop,
        render_table,
        table_look,
        table_truth_json,
        tile_truth_json,
    )
    from vision.errors import ImageReadError

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    digits = max(5, len(str(args.count - 1)))
    tty = sys.stderr.isatty()
    bar = ProgressBar(f"rendering {args.kind}") if tty and not args.quiet else None
    step = max(1, args.count // 10)
    images: list[dict[str, object]] = []
    for i in range(args.count):
        seed = args.seed * PHOTO_SET + i
        if args.kind == "crops":
            look = crop_look(seed)
            image, tile = render_crop(seed, look)
            a, b = max(tile.pips), min(tile.pips)
            name = f"{a}x{b}/{i:0{digits}d}.jpg"
            entry = {"image": name, **tile_truth_json(tile, look)}
        else:
            look = table_look(seed, args.width, args.height)
            photo = render_table(seed, look, args.width, args.height)
            image = photo.image
            name = f"{i:0{digits}d}.jpg"
            entry = table_truth_json(name, photo, look)
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        quality = look.jpeg_quality if look.jpeg_quality is not None else 95
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise ImageReadError(f"{path}: OpenCV cannot encode a JPEG")
        path.write_bytes(data.tobytes())
        images.append(entry)
        if bar is not None:
            bar(i + 1, args.count)
        elif not args.quiet and ((i + 1) % step == 0 or i + 1 == args.count):
            print(f"rendered {i + 1}/{args.count} {args.kind}", file=sys.stderr, flush=True)
    truth = {"format": FORMAT_ID, "version": 1, "images": images}
    (out / GENERIC_NAME).write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
    layout = "<a>x<b>/N.jpg" if args.kind == "crops" else "N.jpg"
    print(f"wrote {args.count} {args.kind} to {out} ({layout}, {GENERIC_NAME})")
    return 0


def _export_stills(args: argparse.Namespace) -> int:
    from vision.devtools.render.stills import export_fixture_stills

    paths = export_fixture_stills(args.fixture, args.out)
    print(f"wrote {len(paths)} still scenes to {args.out} (with recognition-truth.json)")
    return 0


def _sample_record(args: argparse.Namespace) -> int:
    from vision.devtools.render.sample import sample_record

    record = sample_record(args.seed, rules=args.rules)
    args.out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(record['hands'][0]['moves'])} moves")
    return 0
