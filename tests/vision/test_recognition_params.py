"""Recognition parameters: frozen, loadable from JSON, validated."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from vision.errors import RecognitionParamsError, VisionError
from vision.recognition import RecognitionParams


def test_defaults_round_trip_through_json(tmp_path: Path) -> None:
    p = RecognitionParams()
    path = tmp_path / "p.json"
    path.write_text(json.dumps(p.to_dict()))
    assert RecognitionParams.load(path) == p


def test_partial_json_overrides_and_converts_ints() -> None:
    p = RecognitionParams.from_json('{"white_threshold": 150, "face_max_dirt": 0}')
    assert p.white_threshold == 150
    assert p.face_max_dirt == 0.0 and isinstance(p.face_max_dirt, float)


def test_frozen() -> None:
    p = RecognitionParams()
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.min_confidence = 0.9  # type: ignore[misc]


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[1, 2]",
        '{"no_such_threshold": 1}',
        '{"white_threshold": 300}',
        '{"min_confidence": 1.5}',
        '{"bar_min_rel": 0.9, "bar_max_rel": 0.5}',
        '{"max_pips": 2.5}',
        '{"face_samples": "9"}',
        '{"pip_min_fill": true}',
        '{"tile_aspect": null}',
        '{"layout_rms_soft": -1}',
        '{"bar_split_levels": []}',
        '{"bar_split_levels": [0.5, 2]}',
        '{"bar_split_levels": 0.5}',
        '{"deblur_noise_to_signal": 0}',
        '{"blur_probe_px": 0}',
        '{"blur_gain": -1}',
        '{"far_width_rel": 1.2}',
        '{"far_aspect": 2.5}',
        '{"far_face_max_area_rel": 0}',
        '{"look_width_agree_rel": -0.1}',
        '{"pip_run_min_contrast": 1.0}',
        '{"centre_pip_min_contrast": 1.5}',
        '{"centre_empty_max_contrast": 0}',
        '{"pip_min_darkness_rel": 1.0}',
        '{"pip_min_darkness_rel": -0.1}',
        '{"pip_typical_darkness": 0}',
        '{"pip_typical_darkness": 1.5}',
        '{"half_face_min": 1.2}',
        '{"half_face_min": -0.1}',
    ],
)
def test_invalid_parameters_are_refused(text: str) -> None:
    with pytest.raises(RecognitionParamsError) as exc:
        RecognitionParams.from_json(text)
    assert isinstance(exc.value, VisionError)


def test_missing_file_is_a_params_error(tmp_path: Path) -> None:
    with pytest.raises(RecognitionParamsError):
        RecognitionParams.load(tmp_path / "absent.json")
