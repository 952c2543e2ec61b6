"""Render a game record (RULES.md section 6) as a recorded fixture (DESIGN.md).

A fixture directory holds:

- ``video.mp4`` (``mp4v``) or ``video.avi`` (``MJPG``): what the overhead camera saw;
- ``buttons.jsonl``: one ``{"t": s, "seat": n, "gesture": "short"}`` per line, a short press of
  the seat's button for every pass and every draw, ``t`` in seconds from the video's start;
- ``table.json``: the table geometry with the camera's homography (:mod:`vision.calibration`);
- ``truth.json``: the record, each move's timing and every still scene's tiles (see
  :func:`render_fixture` and docs/vision-scene.md).

Deterministic: the same record, seed and parameters give the same truth and the same frames.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vision.calibration.geometry import TableGeometry, default_geometry
from vision.calibration.tablefile import save_table
from vision.devtools.render.layout import (
    LineLayout,
    LinePlacement,
    boneyard_pile,
    jittered,
    parse_tile,
    reveal_row,
)
from vision.devtools.render.scene import ArmPose, RenderParams, SceneRenderer
from vision.devtools.render.tiles import PlacedTile, RenderError
from vision.types import Point

log = logging.getLogger(__name__)

TRUTH_FORMAT = "domino-fixture-truth/1"
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class FixtureInfo:
    """What :func:`render_fixture` wrote."""

    out_dir: Path
    video: Path
    frames: int
    fps: float
    duration_s: float
    width: int
    height: int
    hands: int
    moves: int
    video_bytes: int
    render_s: float


@dataclass(frozen=True, slots=True)
class _Tile:
    """A tile on the table and what truth says about it."""

    pose: PlacedTile
    zone: str  # "line" or "reveal"
    seat: int | None = None
    end: str | None = None
    move: int | None = None


@dataclass(slots=True)
class _Version:
    """The table's content from ``t_change`` on (still from ``t_still``)."""

    t_change: float
    t_still: float
    tiles: tuple[_Tile, ...]
    yard: tuple[PlacedTile, ...]
    hand: int
    after_move: int | None
    chain: tuple[int, ...] = ()  # indices into tiles: the line from its left end to its right


@dataclass(slots=True)
class _Action:
    seat: int
    t0: float
    t_place: float
    t_release: float
    t1: float
    target: Point
    carried: tuple[PlacedTile, ...]
    version: int  # version index that appears at t_place
    linger: float = 0.0


@dataclass(slots=True)
class _Timeline:
    versions: list[_Version] = field(default_factory=list)
    actions: list[_Action] = field(default_factory=list)
    buttons: list[dict[str, object]] = field(default_factory=list)
    moves: list[dict[str, object]] = field(default_factory=list)
    reveals: list[dict[str, object]] = field(default_factory=list)
    t: float = 0.0


def _seat_side(geometry: TableGeometry, seat: int) -> Point:
    """Outward unit vector of the table edge a seat sits at."""
    cx, cy = geometry.reveal_zones[seat].center
    dists = {
        (0.0, -1.0): cy,
        (0.0, 1.0): geometry.height - cy,
        (-1.0, 0.0): cx,
        (1.0, 0.0): geometry.width - cx,
    }
    return min(dists, key=lambda k: dists[k])


def _entry(geometry: TableGeometry, seat: int, target: Point, beyond: float) -> Point:
    ox, oy = _seat_side(geometry, seat)
    x = target[0] if ox == 0 else (geometry.width + beyond if ox > 0 else -beyond)
    y = target[1] if oy == 0 else (geometry.height + beyond if oy > 0 else -beyond)
    return (x, y)


def _validate_record(record: object) -> list[dict[str, Any]]:
    if not isinstance(record, dict):
        raise RenderError("a game record must be a JSON object")
    hands = record.get("hands")
    if not isinstance(hands, list) or not hands:
        raise RenderError("game record: 'hands' must be a non-empty list")
    for i, hand in enumerate(hands):
        if not isinstance(hand, dict) or not isinstance(hand.get("moves"), list):
            raise RenderError(f"game record: hands[{i}].moves must be a list")
    return hands


def _seat_count(record: dict[str, Any], hands: Sequence[dict[str, Any]]) -> int:
    seats = record.get("seats")
    if isinstance(seats, list) and seats:
        n = len(seats)
    elif isinstance(hands[0].get("dealt"), list):
        n = len(hands[0]["dealt"])
    else:
        n = 1 + max(int(m.get("seat", 0)) for h in hands for m in h["moves"])
    if not 2 <= n <= 4:
        raise RenderError(f"the table seats 2-4 players, the record has {n}")
    return n


def _max_pip(hands: Sequence[dict[str, Any]]) -> int:
    top = 0
    for h in hands:
        names: list[str] = []
        for seat_tiles in h.get("dealt") or []:
            names.extend(seat_tiles)
        for m in h["moves"]:
            for key in ("play", "draw"):
                if isinstance(m.get(key), str) and m[key] != "?":
                    names.append(m[key])
        for seat_tiles in h.get("left") or []:
            names.extend(seat_tiles)
        for n in names:
            top = max(top, *parse_tile(n))
    return top


def _left_tiles(hand: dict[str, Any], seats: int) -> list[list[tuple[int, int]]]:
    """What each seat lays face up at the end: ``left`` when given, else dealt - played + drawn."""
    left = hand.get("left")
    if isinstance(left, list):
        return [[parse_tile(t) for t in (left[s] if s < len(left) else [])] for s in range(seats)]
    dealt = hand.get("dealt")
    if not isinstance(dealt, list):
        return [[] for _ in range(seats)]
    held: list[list[tuple[int, int]]] = [[parse_tile(t) for t in d] for d in dealt]
    for m in hand["moves"]:
        s = int(m["seat"])
        if "draw" in m and m["draw"] != "?":
            held[s].append(parse_tile(m["draw"]))
        if "play" in m:
            t = parse_tile(m["play"])
            for cand in (t, (t[1], t[0])):
                if cand in held[s]:
                    held[s].remove(cand)
                    break
    return held


def _ease(x: float) -> float:
    x = min(1.0, max(0.0, x))
    return x * x * (3.0 - 2.0 * x)


def _build_timeline(
    record: dict[str, Any],
    hands: Sequence[dict[str, Any]],
    geometry: TableGeometry,
    params: RenderParams,
    rng: np.random.Generator,
) -> _Timeline:
    p = params
    tl = _Timeline()
    max_pip = _max_pip(hands)
    set_size = (max_pip + 1) * (max_pip + 2) // 2
    tl.versions.append(_Version(0.0, 0.0, (), (), 0, None))
    tl.t = p.lead_in_s
    jitter = {"shift": p.tile_jitter_mm, "turn": p.tile_jitter_deg}
    hold = p.place_s

    def act(
        seat: int,
        target: Point,
        carried: tuple[PlacedTile, ...],
        version: _Version,
        linger: float = 0.0,
    ) -> _Action:
        t0 = tl.t
        a = _Action(
            seat,
            t0,
            t0 + p.reach_s,
            t0 + p.reach_s + hold + linger,
            t0 + p.reach_s + hold + linger + p.withdraw_s,
            target,
            carried,
            len(tl.versions),
            linger,
        )
        version.t_change = a.t_place
        version.t_still = a.t1
        tl.versions.append(version)
        tl.actions.append(a)
        tl.t = a.t1 + p.think_s
        return a

    for hand_index, hand in enumerate(hands):
        layout = LineLayout(geometry, obstacles=[geometry.boneyard] if geometry.boneyard else [])
        has_draws = any("draw" in m for m in hand["moves"])
        dealt = hand.get("dealt")
        dealt_count = sum(len(d) for d in dealt) if isinstance(dealt, list) else 0
        yard_n = (set_size - dealt_count) if has_draws and dealt_count else 0
        yard = tuple(boneyard_pile(geometry, yard_n, rng))
        line: list[_Tile] = []
        reveal: list[_Tile] = []
        if hand_index > 0:
            # clearing the table: seat 0 sweeps everything away and sets out the new boneyard
            prev_tiles = tl.versions[-1].tiles
            if prev_tiles or tl.versions[-1].yard or yard:
                act(0, geometry.play_area.center, (), _Version(0, 0, (), yard, hand_index, None))
        elif yard:
            tl.versions[0] = _Version(0.0, 0.0, (), yard, hand_index, None)
        for move_index, move in enumerate(hand["moves"]):
            seat = int(move.get("seat", -1))
            if not 0 <= seat < geometry.seats:
                raise RenderError(f"hand {hand_index} move {move_index}: bad seat {seat}")
            base = {"hand": hand_index, "index": move_index, "seat": seat}
            if "play" in move:
                tile = parse_tile(move["play"])
                placement: LinePlacement = layout.place(tile, move.get("end"))
                pose = jittered(placement.tile, rng, **jitter)
                line.append(_Tile(pose, "line", end=placement.end, move=move_index))
                chain = tuple(layout.chain)
                version = _Version(0, 0, tuple(line), yard, hand_index, move_index, chain)
                lingers = hand_index == 0 and move_index == p.linger_after_move
                a = act(seat, pose.center, (pose,), version, p.linger_s if lingers else 0.0)
                tl.moves.append(
                    {
                        **base,
                        "kind": "play",
                        "tile": move["play"],
                        "end": placement.end,
                        "joined": placement.joined,
                        "open": placement.open,
                        "crosswise": placement.crosswise,
                        "t_start": _r(a.t0),
                        "t_placed": _r(a.t_place),
                        "t_settled": _r(a.t1),
                        "frame_settled": math.ceil(a.t1 * p.fps - 1e-9),
                        "scene": a.version,
                    }
                )
            elif "draw" in move:
                t_press = tl.t
                tl.buttons.append({"t": _r(t_press), "seat": seat, "gesture": "short"})
                tl.t += p.pass_s * 0.5
                if yard:
                    target = yard[-1].center
                elif geometry.boneyard is not None:
                    target = geometry.boneyard.center
                else:
                    target = geometry.play_area.center
                yard = yard[:-1]
                version = _Version(
                    0, 0, tuple(line), yard, hand_index, move_index, tuple(layout.chain)
                )
                a = act(seat, target, (), version)
                tl.moves.append(
                    {
                        **base,
                        "kind": "draw",
                        "tile": move["draw"],
                        "t_button": _r(t_press),
                        "t_settled": _r(a.t1),
                        "frame_settled": math.ceil(a.t1 * p.fps - 1e-9),
                        "scene": a.version,
                    }
                )
            elif move.get("pass"):
                t_press = tl.t
                tl.buttons.append({"t": _r(t_press), "seat": seat, "gesture": "short"})
                tl.moves.append({**base, "kind": "pass", "t_button": _r(t_press)})
                tl.t += p.pass_s
            else:
                raise RenderError(f"hand {hand_index} move {move_index}: not a play, draw or pass")
        for seat, tiles in enumerate(_left_tiles(hand, geometry.seats)):
            if not tiles:
                continue
            row = [jittered(t, rng, shift=1.0, turn=2.0) for t in reveal_row(geometry, seat, tiles)]
            reveal.extend(_Tile(t, "reveal", seat=seat) for t in row)
            version = _Version(
                0, 0, tuple(line + reveal), yard, hand_index, None, tuple(layout.chain)
            )
            a = act(seat, geometry.reveal_zones[seat].center, tuple(row), version)
            tl.reveals.append(
                {
                    "hand": hand_index,
                    "seat": seat,
                    "tiles": [f"{t[0]}-{t[1]}" for t in tiles],
                    "t_settled": _r(a.t1),
                    "frame_settled": math.ceil(a.t1 * p.fps - 1e-9),
                    "scene": a.version,
                }
            )
    tl.t += p.tail_s - p.think_s if p.tail_s > p.think_s else 0.0
    return tl


def _r(t: float) -> float:
    return round(t, 4)


def _arm_at(
    action: _Action,
    t: float,
    geometry: TableGeometry,
    skin: tuple[int, int, int],
    tremor: float = 3.0,
) -> tuple[ArmPose, Point]:
    """The arm's pose at ``t`` and the offset of the carried tiles from their final place."""
    out = _seat_side(geometry, action.seat)
    target = (action.target[0] + out[0] * 28.0, action.target[1] + out[1] * 28.0)
    entry = _entry(geometry, action.seat, target, SceneRenderer.MARGIN_MM + 220.0)
    if t < action.t_place:
        k = _ease((t - action.t0) / (action.t_place - action.t0))
    elif t < action.t_release:
        k = 1.0
    else:
        k = 1.0 - _ease((t - action.t_release) / (action.t1 - action.t_release))
    hand = (entry[0] + (target[0] - entry[0]) * k, entry[1] + (target[1] - entry[1]) * k)
    if action.t_place <= t < action.t_release:
        # fingers never stay perfectly still: a few mm of tremor while placing (and lingering)
        w = (t - action.t_place) * 9.0
        hand = (hand[0] + tremor * math.sin(w), hand[1] + tremor * math.cos(w * 1.3))
    shoulder = (hand[0] + out[0] * 600.0, hand[1] + out[1] * 600.0)
    offset = (hand[0] - target[0], hand[1] - target[1])
    return ArmPose(shoulder, hand, skin), offset


def _settle_times(
    timeline: _Timeline,
    renderer: SceneRenderer,
    geometry: TableGeometry,
    params: RenderParams,
    skins: Sequence[tuple[int, int, int]],
) -> None:
    """Set each scene's (and move's) settle time to the first frame at which the withdrawing arm
    has left the camera's view: from then on the video is still."""
    for action in timeline.actions:
        k = math.ceil(action.t_release * params.fps - 1e-9)
        t_clear = action.t1
        while k / params.fps < action.t1:
            pose, _ = _arm_at(
                action, k / params.fps, geometry, skins[action.seat], params.tremor_mm
            )
            if not renderer.arm_visible(pose):
                t_clear = k / params.fps
                break
            k += 1
        timeline.versions[action.version].t_still = t_clear
    for entry in [*timeline.moves, *timeline.reveals]:
        scene = entry.get("scene")
        if isinstance(scene, int):
            t = timeline.versions[scene].t_still
            entry["t_settled"] = _r(t)
            entry["frame_settled"] = math.ceil(t * params.fps - 1e-9)


def _shifted(tile: PlacedTile, offset: Point) -> PlacedTile:
    from dataclasses import replace

    return replace(tile, center=(tile.center[0] + offset[0], tile.center[1] + offset[1]))


def _truth_tile(renderer: SceneRenderer, tile: _Tile, chain_pos: int | None) -> dict[str, object]:
    pose = tile.pose
    top = renderer.top_face(pose)  # what the camera sees: the top face, parallax included
    corners = renderer.project(list(top.corners))
    halves = renderer.project(list(top.half_centers))
    out: dict[str, object] = {
        "tile": pose.name,
        "pips": list(pose.pips),
        "corners": [[round(x, 2), round(y, 2)] for x, y in corners],
        "halves": [
            {"center": [round(x, 2), round(y, 2)], "pips": n}
            for (x, y), n in zip(halves, pose.pips, strict=True)
        ],
        "table": {
            "center": [round(pose.center[0], 2), round(pose.center[1], 2)],
            "angle": round(pose.angle, 3),
            "corners": [[round(x, 2), round(y, 2)] for x, y in pose.corners],
        },
        "zone": tile.zone,
    }
    if tile.zone == "line":
        out["chain_index"] = chain_pos
        out["end"] = tile.end
        out["move"] = tile.move
    else:
        out["seat"] = tile.seat
    return out


def render_fixture(
    record: dict[str, Any],
    out_dir: Path,
    *,
    seed: int,
    params: RenderParams | None = None,
    progress: Progress | None = None,
    geometry: TableGeometry | None = None,
) -> FixtureInfo:
    """Render every hand of ``record`` into ``out_dir`` (created if needed).

    The line's geometry is computed here from the record (which end each tile joins, where it
    lies, where the line turns); the record must be legal enough to lay out (each played tile fits
    the end it goes to). ``progress(done, total)`` is called as frames are written.
    """
    import cv2

    started = time.perf_counter()
    params = params or RenderParams()
    hands = _validate_record(record)
    seats = _seat_count(record, hands)
    geometry = geometry or default_geometry(seats)
    if geometry.seats != seats:
        raise RenderError(f"table has {geometry.seats} seats, record has {seats}")
    rng = np.random.default_rng([seed, 1])
    timeline = _build_timeline(record, hands, geometry, params, rng)
    renderer = SceneRenderer(geometry, params, np.random.default_rng([seed, 2]))
    skin_rng = np.random.default_rng([seed, 3])
    skins: list[tuple[int, int, int]] = []
    for _ in range(seats):
        b, g, r = np.clip(np.array([118, 158, 208]) + skin_rng.normal(0, 14, 3), 40, 250)
        skins.append((int(b), int(g), int(r)))
    frame_rng = np.random.default_rng([seed, 4])
    _settle_times(timeline, renderer, geometry, params, skins)

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    video = out_dir / ("video.mp4" if params.codec == "mp4v" else "video.avi")
    writer = cv2.VideoWriter(
        str(video), cv2.VideoWriter.fourcc(*params.codec), params.fps, (params.width, params.height)
    )
    if not writer.isOpened():
        raise RenderError(f"OpenCV cannot write {params.codec} video to {video}")
    n_frames = max(1, math.ceil(timeline.t * params.fps))
    versions = timeline.versions
    change_times = [v.t_change for v in versions]
    canvas_cache: dict[int, Any] = {}
    still_cache: tuple[int, Any] | None = None
    action_i = 0
    try:
        for k in range(n_frames):
            t = k / params.fps
            vi = int(np.searchsorted(change_times, t, side="right")) - 1
            while action_i < len(timeline.actions) and timeline.actions[action_i].t1 <= t:
                action_i += 1
            action = timeline.actions[action_i] if action_i < len(timeline.actions) else None
            if action is not None and action.t0 > t:
                action = None
            if action is None and still_cache is not None and still_cache[0] == vi:
                view = still_cache[1]
            else:
                if vi not in canvas_cache:
                    canvas_cache.clear()
                    v = versions[vi]
                    base = renderer.draw_tiles(renderer.background, v.yard)
                    canvas_cache[vi] = renderer.draw_tiles(base, [x.pose for x in v.tiles])
                img = canvas_cache[vi]
                if action is None:
                    view = renderer.to_camera(img)
                    still_cache = (vi, view)
                else:
                    img = img.copy()
                    pose, offset = _arm_at(
                        action, t, geometry, skins[action.seat], params.tremor_mm
                    )
                    if t < action.t_place:
                        for c in action.carried:
                            renderer.draw_tile(img, _shifted(c, offset))
                    renderer.draw_arm(img, pose)
                    view = renderer.to_camera(img)
            writer.write(renderer.finish(view, frame_rng))
            if progress is not None and (k % 10 == 0 or k == n_frames - 1):
                progress(k + 1, n_frames)
    finally:
        writer.release()

    # -- truth, buttons, table -------------------------------------------------------------
    calibrated = geometry.with_homography(
        np.asarray(np.linalg.inv(renderer.h_table_to_image), dtype=np.float64),
        (params.width, params.height),
    )
    save_table(calibrated, out_dir / "table.json")
    with (out_dir / "buttons.jsonl").open("w", encoding="utf-8") as fh:
        for b in timeline.buttons:
            fh.write(json.dumps(b) + "\n")
    scenes = []
    for i, v in enumerate(versions):
        t_until = versions[i + 1].t_change if i + 1 < len(versions) else n_frames / params.fps
        for a in timeline.actions:
            if a.t0 >= v.t_still:
                t_until = min(t_until, a.t0)
                break
        chain_pos = {idx: pos for pos, idx in enumerate(v.chain)}
        scenes.append(
            {
                "index": i,
                "hand": v.hand,
                "after_move": v.after_move,
                "t_change": _r(v.t_change),
                "t_settled": _r(v.t_still),
                "t_until": _r(t_until),
                "frame_settled": math.ceil(v.t_still * params.fps - 1e-9),
                "boneyard": len(v.yard),
                "tiles": [
                    _truth_tile(renderer, x, chain_pos.get(j)) for j, x in enumerate(v.tiles)
                ],
            }
        )
    truth = {
        "format": TRUTH_FORMAT,
        "record": record,
        "seed": seed,
        "params": params.to_json(),
        "video": video.name,
        "fps": params.fps,
        "frames": n_frames,
        "width": params.width,
        "height": params.height,
        "moves": timeline.moves,
        "reveals": timeline.reveals,
        "scenes": scenes,
    }
    (out_dir / "truth.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
    info = FixtureInfo(
        out_dir=out_dir,
        video=video,
        frames=n_frames,
        fps=params.fps,
        duration_s=n_frames / params.fps,
        width=params.width,
        height=params.height,
        hands=len(hands),
        moves=sum(len(h["moves"]) for h in hands),
        video_bytes=video.stat().st_size,
        render_s=time.perf_counter() - started,
    )
    log.info("rendered %s: %d frames in %.1f s", video, n_frames, info.render_s)
    return info
