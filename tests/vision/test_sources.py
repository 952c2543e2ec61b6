"""Frame sources: image folders, video files, corrupt input, cameras that are not there."""

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import FrameSourceError
from vision.sources import (
    CameraSource,
    FakeClock,
    FrameSource,
    ImageSequenceSource,
    PiCameraSource,
    VideoFileSource,
    open_source,
)

COLOURS = [(20, 40, 200), (200, 40, 20), (40, 200, 20), (120, 120, 120), (250, 250, 250)]


def _solid(colour: tuple[int, int, int], size: tuple[int, int] = (160, 120)) -> np.ndarray:
    return np.full((size[1], size[0], 3), colour, dtype=np.uint8)


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "stills"
    folder.mkdir()
    # written out of order on purpose: the source sorts by name
    for name, colour in (("c.png", COLOURS[2]), ("a.png", COLOURS[0]), ("b.png", COLOURS[1])):
        cv2.imwrite(str(folder / name), _solid(colour))
    (folder / "notes.txt").write_text("not an image")
    return folder


def test_image_folder_in_name_order_timed_by_fps(tmp_path: Path) -> None:
    with ImageSequenceSource(_folder(tmp_path), fps=2.0) as src:
        frames = list(src)
    assert [f.index for f in frames] == [0, 1, 2]
    assert [f.t_seconds for f in frames] == [0.0, 0.5, 1.0]
    for f, colour in zip(frames, COLOURS[:3], strict=True):
        assert f.image.shape == (120, 160, 3)
        assert tuple(int(v) for v in f.image[60, 80]) == colour


def test_image_folder_with_an_injected_clock(tmp_path: Path) -> None:
    clock = FakeClock(t=100.0, step=0.25)
    src = ImageSequenceSource(_folder(tmp_path), clock=clock)
    assert [f.t_seconds for f in src] == [100.0, 100.25, 100.5]


def test_image_folder_with_a_corrupt_still(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "b2.png").write_bytes(b"\x89PNG\r\n\x1a\n garbage")
    with pytest.raises(FrameSourceError, match=r"b2\.png"):
        list(ImageSequenceSource(folder))
    skipping = ImageSequenceSource(folder, skip_unreadable=True)
    assert [f.index for f in skipping] == [0, 1, 2]


@pytest.mark.parametrize("make", ["missing", "file", "empty"])
def test_image_folder_that_is_not_usable(tmp_path: Path, make: str) -> None:
    path = tmp_path / "x"
    if make == "file":
        path.write_text("x")
    elif make == "empty":
        path.mkdir()
    with pytest.raises(FrameSourceError):
        ImageSequenceSource(path)


def _write_video(path: Path, n: int, fps: float, fourcc: str = "MJPG") -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*fourcc), fps, (160, 120))
    assert writer.isOpened()
    for i in range(n):
        writer.write(_solid(COLOURS[i % len(COLOURS)]))
    writer.release()


def test_video_written_then_read_back(tmp_path: Path) -> None:
    path = tmp_path / "v.avi"
    _write_video(path, 10, 5.0)
    with VideoFileSource(path) as src:
        assert src.fps == pytest.approx(5.0)
        frames = list(src)
    assert len(frames) == 10
    assert [f.t_seconds for f in frames] == pytest.approx([i / 5.0 for i in range(10)])
    for f in frames:
        expected = np.array(COLOURS[f.index % len(COLOURS)], dtype=float)
        assert np.abs(f.image[60, 80].astype(float) - expected).max() < 12  # JPEG frames


def test_video_that_is_not_a_video(tmp_path: Path) -> None:
    path = tmp_path / "v.mp4"
    path.write_bytes(np.random.default_rng(0).integers(0, 256, 5000, dtype=np.uint8).tobytes())
    with pytest.raises(FrameSourceError, match="cannot be opened"):
        VideoFileSource(path)


def test_video_cut_short_ends_cleanly_or_fails_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "v.avi"
    _write_video(path, 30, 10.0)
    data = path.read_bytes()
    cut = tmp_path / "cut.avi"
    cut.write_bytes(data[: len(data) // 2])
    try:
        src = VideoFileSource(cut)
    except FrameSourceError:
        return
    with src:
        frames = list(src)
    assert len(frames) < 30
    assert all(f.image.shape == (120, 160, 3) for f in frames)


def test_missing_video(tmp_path: Path) -> None:
    with pytest.raises(FrameSourceError, match="no such file"):
        VideoFileSource(tmp_path / "nope.mp4")


def test_camera_that_is_not_there() -> None:
    with pytest.raises(FrameSourceError):
        CameraSource("/dev/video-does-not-exist", clock=FakeClock())


def test_camera_that_stops_delivering_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    class Capture:
        """A capture that gives two frames and then nothing, like an unplugged USB camera."""

        def __init__(self, device: object) -> None:
            self.reads = 0

        def isOpened(self) -> bool:
            return True

        def set(self, prop: int, value: float) -> bool:
            return True

        def read(self) -> tuple[bool, np.ndarray | None]:
            self.reads += 1
            return (True, _solid(COLOURS[0])) if self.reads <= 2 else (False, None)

        def release(self) -> None:
            pass

    monkeypatch.setattr(cv2, "VideoCapture", Capture)
    clock = FakeClock(step=0.1)
    src = CameraSource(0, clock=clock, max_failures=3)
    got = []
    with pytest.raises(FrameSourceError, match="disconnected"):
        for frame in src:
            got.append(frame.t_seconds)
    assert got == pytest.approx([0.0, 0.1])
    src.close()


def test_picamera_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(FrameSourceError, match="picamera2"):
        PiCameraSource()


def test_open_source_picks_by_spec(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    video = tmp_path / "v.avi"
    _write_video(video, 3, 5.0)
    with open_source(folder) as a, open_source(str(video)) as b:
        assert isinstance(a, ImageSequenceSource)
        assert isinstance(b, VideoFileSource)
        assert isinstance(a, FrameSource)
        assert isinstance(b, FrameSource)


def test_fake_clock_moves_only_when_told() -> None:
    clock = FakeClock()
    assert clock.now() == clock.now() == 0.0
    clock.advance(1.5)
    assert clock.now() == 1.5
    clock.set(10.0)
    assert clock.now() == 10.0
