"""``domino-table vision identify``: JSON shape, several images, annotation, bad files."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from recognition_support import match_scene

from controller.cli import main
from vision.devtools.synthetic import render_scene
from vision.types import HalfReading, SceneReading, TileReading


def write_scene(tmp_path: Path, seed: int, n_tiles: int = 10) -> tuple[Path, object]:
    scene = render_scene(seed, n_tiles=n_tiles, max_pips=6)
    path = tmp_path / f"scene{seed}.png"
    cv2.imwrite(str(path), scene.image)
    return path, scene


def reading_from_json(doc: dict[str, object], width: int, height: int) -> SceneReading:
    tiles = []
    for t in doc["tiles"]:  # type: ignore[attr-defined]
        halves = tuple(HalfReading(tuple(h["center"]), h["pips"]) for h in t["halves"])
        corners = tuple(tuple(c) for c in t["corners"])
        tiles.append(TileReading(corners, halves, t["confidence"]))  # type: ignore[arg-type]
    return SceneReading(tuple(tiles), width, height)


def test_json_for_one_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, scene = write_scene(tmp_path, 1)
    assert main(["vision", "identify", str(path), "--json"]) == 0
    out = capsys.readouterr().out
    doc = json.loads(out)
    assert set(doc) == {"tiles"}
    for t in doc["tiles"]:
        assert set(t) == {"halves", "corners", "confidence", "sure"}
        assert len(t["halves"]) == 2 and len(t["corners"]) == 4
        assert all(set(h) == {"center", "pips"} and len(h["center"]) == 2 for h in t["halves"])
        assert all(isinstance(h["pips"], int) for h in t["halves"])
        assert 0.0 <= t["confidence"] <= 1.0
    assert match_scene(scene, reading_from_json(doc, 1280, 720)) == []  # type: ignore[arg-type]


def test_json_lines_for_several_images(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [write_scene(tmp_path, s, n_tiles=6)[0] for s in (2, 3)]
    assert main(["vision", "identify", "--json", *map(str, paths)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    docs = [json.loads(line) for line in lines]
    assert [d["image"] for d in docs] == [str(p) for p in paths]
    assert all(len(d["tiles"]) == 6 for d in docs)


def test_text_summary_and_annotation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, scene = write_scene(tmp_path, 4, n_tiles=5)
    out_dir = tmp_path / "annotated"
    assert main(["vision", "identify", str(path), "--annotate", str(out_dir)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: 5 tiles")
    for t in scene.tiles:  # type: ignore[attr-defined]
        a, b = t.pips
        assert f"{a}-{b}" in out or f"{b}-{a}" in out
    drawn = cv2.imread(str(out_dir / "scene4.annotated.png"))
    assert drawn is not None and drawn.shape == scene.image.shape  # type: ignore[attr-defined]
    assert (drawn != scene.image).any()  # type: ignore[attr-defined]


@pytest.mark.parametrize("content", [None, b"", b"this is not an image"])
def test_unreadable_file_is_exit_1_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None
) -> None:
    # an image that cannot be read is reported and skipped (exit 1), not a usage error
    path = tmp_path / "bad.png"
    if content is not None:
        path.write_bytes(content)
    assert main(["vision", "identify", str(path), "--json"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "bad.png" in err


@pytest.mark.parametrize("bad", ["0", "10", "-1"])
def test_max_pips_out_of_range_is_a_usage_error(
    tmp_path: Path, bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = write_scene(tmp_path, 5, n_tiles=2)
    with pytest.raises(SystemExit) as exc:
        main(["vision", "identify", str(path), "--max-pips", bad])
    assert exc.value.code == 2
    assert "--max-pips must be 1 to 9" in capsys.readouterr().err


def test_a_double_nine_set_is_read_with_max_pips_9(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scene = render_scene(3, width=240, height=200, n_tiles=1, tiles=((8, 2),), tile_width_px=50)
    path = tmp_path / "d9.png"
    cv2.imwrite(str(path), scene.image)
    assert main(["vision", "identify", str(path), "--json", "--max-pips", "9"]) == 0
    tiles = json.loads(capsys.readouterr().out)["tiles"]
    assert [sorted(h["pips"] for h in t["halves"]) for t in tiles] == [[2, 8]]


def test_blank_image_reads_no_tiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "blank.png"
    cv2.imwrite(str(path), render_scene(0, n_tiles=4).image * 0)
    assert main(["vision", "identify", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"tiles": []}


def test_region_limits_the_tiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = write_scene(tmp_path, 6, n_tiles=8)
    assert main(["vision", "identify", str(path), "--json", "--region", "0,0,1,0,1,1"]) == 0
    assert json.loads(capsys.readouterr().out) == {"tiles": []}
    whole = "0,0 1280,0 1280,720 0,720"
    assert main(["vision", "identify", str(path), "--json", "--region", whole]) == 0
    assert len(json.loads(capsys.readouterr().out)["tiles"]) == 8


@pytest.mark.parametrize("region", ["1,2,3", "a,b,c,d,e,f", "1,2,3,4"])
def test_bad_region_is_a_usage_error(tmp_path: Path, region: str) -> None:
    path, _ = write_scene(tmp_path, 6, n_tiles=2)
    with pytest.raises(SystemExit) as exc:
        main(["vision", "identify", str(path), "--region", region])
    assert exc.value.code == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["vision", "eval", "--sweep", "-1"],
        ["vision", "eval", "--synthetic", "1", "--seed", "-1"],
        ["fixture", "render-stills", "--out", "OUT", "--seed", "-2"],
        ["fixture", "sample-record", "--out", "OUT/r.json", "--seed", "-3"],
        ["fixture", "render", "--rules", "latin", "--out", "OUT", "--seed", "-4"],
    ],
)
def test_a_negative_seed_is_refused_before_anything_is_drawn(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the renderers' random streams take no negative seed: refused as a usage error, not
    # an internal error half-way through
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exc:
        main([a.replace("OUT", str(out)) for a in argv])
    assert exc.value.code == 2
    assert "must be 0 or more" in capsys.readouterr().err
    assert not out.exists()
