"""Motion check and stillness detection on synthetic frames."""

import numpy as np
import pytest

from vision.motion import SettleDetector, SettleParams, SettleState, motion_score


def _table(rng: np.random.Generator, noise: float = 0.0) -> np.ndarray:
    img = np.full((720, 1280, 3), (60, 110, 50), dtype=np.int16)
    if noise:
        img = img + np.round(rng.normal(0, noise, img.shape)).astype(np.int16)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_identical_frames_score_zero() -> None:
    img = _table(np.random.default_rng(0), noise=3)
    assert motion_score(img, img.copy()) == 0.0


def test_sensor_noise_stays_below_the_default_threshold() -> None:
    rng = np.random.default_rng(1)
    a, b = _table(rng, noise=4), _table(rng, noise=4)
    assert motion_score(a, b) < SettleParams().threshold


def test_a_hand_sized_blob_is_motion() -> None:
    rng = np.random.default_rng(2)
    a = _table(rng, noise=2)
    b = a.copy()
    b[300:420, 600:700] = (120, 160, 210)  # a 100x120 px skin-coloured patch
    assert motion_score(a, b) > 3 * SettleParams().threshold


def test_a_single_tile_appearing_is_motion() -> None:
    a = _table(np.random.default_rng(3))
    b = a.copy()
    b[350:374, 600:648] = (230, 236, 240)  # a 48x24 px white tile
    assert motion_score(a, b) > SettleParams().threshold


def test_frames_of_different_sizes_score_maximal() -> None:
    a = np.zeros((720, 1280, 3), np.uint8)
    b = np.zeros((360, 640, 3), np.uint8)
    assert motion_score(a, b) == 255.0


def _run(det: SettleDetector, samples: list[tuple[float, float]]) -> list[tuple[float, str]]:
    out = []
    for t, s in samples:
        u = det.update(t, s)
        for flag in ("started", "settled", "timed_out"):
            if getattr(u, flag):
                out.append((t, flag))
    return out


def test_settles_once_after_the_stillness_period() -> None:
    det = SettleDetector(SettleParams(threshold=5, settle_s=0.4, timeout_s=10))
    frames = [(i / 10, 0.0) for i in range(10)]
    assert _run(det, frames) == [(0.4, "settled")]
    assert det.state is SettleState.SETTLED


def test_motion_then_stillness_gives_started_then_settled() -> None:
    det = SettleDetector(SettleParams(threshold=5, settle_s=0.3, timeout_s=10))
    samples = [(0.0, 0), (0.1, 0), (0.2, 0), (0.3, 0)]  # settles at 0.3
    samples += [(0.4, 40), (0.5, 30), (0.6, 1), (0.7, 1), (0.8, 1), (0.9, 1), (1.0, 1)]
    assert _run(det, samples) == [(0.3, "settled"), (0.4, "started"), (0.9, "settled")]


def test_brief_pause_inside_motion_does_not_settle() -> None:
    det = SettleDetector(SettleParams(threshold=5, settle_s=0.5, timeout_s=10))
    samples = [(0.0, 50), (0.1, 0), (0.2, 0), (0.3, 50), (0.4, 0), (0.5, 0), (0.6, 0)]
    assert [f for _, f in _run(det, samples)] == []


@pytest.mark.parametrize("fps", [10, 30])
def test_motion_that_never_stops_times_out_once(fps: int) -> None:
    det = SettleDetector(SettleParams(threshold=5, settle_s=0.4, timeout_s=2.0))
    samples = [(i / fps, 50.0) for i in range(6 * fps)]
    events = _run(det, samples)
    assert [f for _, f in events] == ["timed_out"]
    assert events[0][0] == pytest.approx(2.0, abs=1.0 / fps)
