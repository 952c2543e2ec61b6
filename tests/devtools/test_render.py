"""Renderer building blocks: pip layouts, the line's layout from a record, parameters."""

import itertools

import numpy as np
import pytest

from vision.calibration.geometry import default_geometry
from vision.devtools.render.layout import LineLayout, parse_tile, reveal_row
from vision.devtools.render.sample import LATIN_BLOCKED_HAND, sample_record
from vision.devtools.render.scene import RenderParams, sweep_params
from vision.devtools.render.tiles import PIP_LAYOUTS, PlacedTile, RenderError, rects_overlap


def test_pip_layouts_have_as_many_pips_as_their_number() -> None:
    for n in range(10):
        assert len(PIP_LAYOUTS[n]) == n
        assert len(set(PIP_LAYOUTS[n])) == n
        # standard layouts are symmetric under a half turn
        assert {(-u, -v) for u, v in PIP_LAYOUTS[n]} == set(PIP_LAYOUTS[n])


def test_tiles_beyond_nine_are_refused() -> None:
    with pytest.raises(RenderError, match="0-9"):
        parse_tile("10-3")
    with pytest.raises(RenderError, match="not a tile"):
        parse_tile("3/4")


def _plays(record: dict) -> list[tuple[tuple[int, int], str | None]]:
    return [
        (parse_tile(m["play"]), m.get("end")) for m in record["hands"][0]["moves"] if "play" in m
    ]


def _expected(plays: list[tuple[tuple[int, int], str | None]]) -> list[tuple[str, int, int]]:
    """(end, joined, open) per play, worked out from the record alone."""
    out: list[tuple[str, int, int]] = []
    ends: list[int] = []
    for (a, b), end in plays:
        if not ends:
            ends = [a, b]
            out.append(("first", a, b))
            continue
        side = end or ("right" if ends[1] in (a, b) else "left")
        i = 0 if side == "left" else 1
        joined = ends[i]
        other = b if a == joined else a
        ends[i] = other
        out.append((side, joined, other))
    return out


@pytest.mark.parametrize("seed", [None, *range(12)])
def test_line_layout_follows_the_record_and_stays_on_the_table(seed: int | None) -> None:
    record = LATIN_BLOCKED_HAND if seed is None else sample_record(seed)
    geometry = default_geometry()
    plays = _plays(record)
    layout = LineLayout(geometry, obstacles=[geometry.boneyard] if geometry.boneyard else [])
    end_tile: dict[str, PlacedTile] = {}
    placed: list[PlacedTile] = []
    for (tile, end), (side, joined, other) in zip(plays, _expected(plays), strict=True):
        p = layout.place(tile, end)
        assert (p.end, p.joined, p.open) == (side, joined, other)
        pose = p.tile
        assert pose.pips == (joined, other)
        area = geometry.play_area
        assert all(area.contains(c) for c in pose.corners)
        assert geometry.boneyard is None or not rects_overlap(
            pose, PlacedTile((0, 0), geometry.boneyard.center, 0, 90, 90)
        )
        for earlier in placed:
            assert not rects_overlap(pose, earlier, gap=0.2)
        if side == "first":
            end_tile = {"left": pose, "right": pose}
        else:
            # the joined half lies against the tile that was at this end
            joined_half = pose.half_centers[0]
            d = min(
                np.hypot(joined_half[0] - h[0], joined_half[1] - h[1])
                for h in end_tile[side].half_centers
            )
            assert d < 30.0  # mm: adjacent halves, or beside a crosswise double
            end_tile[side] = pose
        assert not p.crosswise or joined == other  # only doubles lie across
        placed.append(pose)
    # read left to right, the line's neighbouring halves match, and its ends are the arms' ends
    numbers = []
    for i in layout.chain:
        q = layout.placed[i]
        numbers.append((q.open, q.joined) if q.end == "left" else (q.joined, q.open))
    assert all(a[1] == b[0] for a, b in itertools.pairwise(numbers))
    assert (numbers[0][0], numbers[-1][1]) == (
        layout.arms["left"].open_pips,
        layout.arms["right"].open_pips,
    )


def test_a_long_line_turns_at_the_edges() -> None:
    record = sample_record(3)
    geometry = default_geometry()
    layout = LineLayout(geometry)
    for tile, end in _plays(record):
        layout.place(tile, end)
    directions = {round(p.tile.angle) % 180 for p in layout.placed if p.joined != p.open}
    assert directions == {0, 90}  # both horizontal and vertical runs: the line bent


def test_record_tile_that_fits_no_end_is_refused() -> None:
    layout = LineLayout(default_geometry())
    layout.place((6, 6), None)
    with pytest.raises(RenderError, match="does not fit"):
        layout.place((1, 2), "left")
    with pytest.raises(RenderError, match="fits neither"):
        layout.place((1, 2), None)


def test_tile_fitting_both_ends_needs_an_end_when_the_numbers_differ() -> None:
    layout = LineLayout(default_geometry())
    layout.place((6, 3), None)
    with pytest.raises(RenderError, match="must give 'end'"):
        layout.place((3, 6), None)


def test_reveal_rows_sit_in_their_zone_without_overlap() -> None:
    geometry = default_geometry()
    tiles = [(a, b) for a, b in itertools.combinations_with_replacement(range(7), 2)][:9]
    for seat in range(4):
        row = reveal_row(geometry, seat, tiles)
        zone = geometry.reveal_zones[seat]
        assert all(zone.contains(c) for t in row for c in t.corners)
        assert not any(rects_overlap(a, b) for a, b in itertools.combinations(row, 2))


def test_render_params_are_validated_and_round_trip() -> None:
    with pytest.raises(RenderError):
        RenderParams(width=10)
    with pytest.raises(RenderError):
        RenderParams(codec="H264")
    with pytest.raises(RenderError, match="unknown"):
        RenderParams.from_json({"brightness": 2})
    p = sweep_params(4, seed=9)
    assert RenderParams.from_json(p.to_json()) == p
    assert sweep_params(4, seed=9) == p
    assert sweep_params(5, seed=9) != p


def test_thick_tiles_show_their_top_face_shifted_away_from_the_camera() -> None:
    import cv2

    from vision.devtools.render.camera import camera_centre
    from vision.devtools.render.scene import SceneRenderer

    geometry = default_geometry()
    params = RenderParams(tile_height_mm=8.0, tilt_deg=12.0, noise=0.0, light_gradient=0.0)
    renderer = SceneRenderer(geometry, params, np.random.default_rng(0))
    tile = PlacedTile((0, 5), (200.0, 600.0), 0.0)  # half 0 has no pip to hit
    top = renderer.top_face(tile)
    cx, cy, cz = camera_centre(geometry, tilt_deg=12.0)
    k = cz / (cz - 8.0)  # similar triangles through the camera centre
    assert top.center == pytest.approx((cx + (200 - cx) * k, cy + (600 - cy) * k))
    assert top.length == pytest.approx(50 * k)
    # drawn: the top face's centre in the image is tile-white, and differs from a flat tile's
    view = renderer.to_camera(renderer.draw_tiles(renderer.background, [tile]))
    x, y = renderer.project([top.half_centers[0]])[0]
    b, g, r = (int(v) for v in view[round(y), round(x)])
    assert min(b, g, r) > 150
    flat = SceneRenderer(geometry, RenderParams(tilt_deg=12.0, noise=0.0), np.random.default_rng(0))
    flat_view = flat.to_camera(flat.draw_tiles(flat.background, [tile]))
    assert cv2.absdiff(view, flat_view).max() > 50
