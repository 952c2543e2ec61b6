"""Frame sources: image folders, video files, corrupt input, cameras that are not there."""

import sys
import wave
from pathlib import Path

import cv2
import numpy as np
import pytest

from domino_common.clock import FakeClock
from vision.errors import FrameSourceError
from vision.motion import thumbnail
from vision.sources import (
    CameraSource,
    Frame,
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
    clock = FakeClock(monotonic=100.0)
    times = []
    for frame in ImageSequenceSource(_folder(tmp_path), clock=clock):
        times.append(frame.t_seconds)
        clock.advance(0.25)
    assert times == [100.0, 100.25, 100.5]


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
    clock = FakeClock()
    src = CameraSource(0, clock=clock, max_failures=3)
    got = []
    with pytest.raises(FrameSourceError, match="disconnected"):
        for frame in src:
            got.append(frame.t_seconds)
            clock.advance(0.1)
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


def _gradient_video(path: Path, n: int, fourcc: str) -> None:
    """Frames with every grey level and some colour, moving a little each frame."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*fourcc), 10.0, (320, 240))
    assert writer.isOpened()
    across = np.tile(np.linspace(0, 255, 320), (240, 1))
    down = np.tile(np.linspace(0, 255, 240)[:, None], (1, 320))
    for i in range(n):
        frame = np.stack([np.roll(across, 8 * i, axis=1), down, 255 - across], axis=-1)
        writer.write(frame.astype(np.uint8))
    writer.release()


@pytest.mark.parametrize(("fourcc", "suffix"), [("mp4v", ".mp4"), ("MJPG", ".avi")])
def test_video_frames_are_what_opencv_reads(tmp_path: Path, fourcc: str, suffix: str) -> None:
    """The BGR image a frame converts to when asked is, pixel for pixel, the frame OpenCV's own
    reader gives; its brightness plane, thumbnailed, is that image's grey thumbnail."""
    path = tmp_path / f"v{suffix}"
    _gradient_video(path, 6, fourcc)
    capture = cv2.VideoCapture(str(path))
    with VideoFileSource(path) as src:
        frames = list(src)
    assert len(frames) == 6
    for frame in frames:
        ok, expected = capture.read()
        assert ok
        assert frame.luma is not None
        assert frame.luma.shape == expected.shape[:2]
        from_luma = thumbnail(frame.luma, video_range=not frame.luma_full_range)
        from_bgr = thumbnail(frame.image)
        assert np.array_equal(frame.image, expected)
        # the two differ by rounding and by colours clipped in BGR; motion counts only
        # differences over 6 grey levels between frames
        assert np.abs(from_luma - from_bgr).max() <= 3
    capture.release()
    assert frames[0].luma_full_range is (fourcc == "MJPG")  # JPEG codes the full range


@pytest.mark.parametrize(("fourcc", "suffix"), [("mp4v", ".mp4"), ("MJPG", ".avi")])
def test_without_pyav_a_video_is_read_by_opencv_to_the_same_frames(
    tmp_path: Path, fourcc: str, suffix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PyAV is the optional ``video`` extra (the demo's set-up leaves it out): without it the
    same file gives the same frames, times and count."""
    path = tmp_path / f"v{suffix}"
    _gradient_video(path, 6, fourcc)
    with VideoFileSource(path) as src:
        with_pyav = [(f.index, f.t_seconds, f.image.copy()) for f in src]
        fps = src.fps
    monkeypatch.setitem(sys.modules, "av", None)  # import av: ModuleNotFoundError
    with VideoFileSource(path) as src:
        assert src.fps == fps and src.frame_count == 6
        frames = list(src)
    assert [(f.index, f.t_seconds) for f in frames] == [(i, t) for i, t, _ in with_pyav]
    images = [img for _, _, img in with_pyav]
    assert all(np.array_equal(f.image, img) for f, img in zip(frames, images, strict=True))
    assert all(f.luma is None for f in frames)
    with pytest.raises(FrameSourceError, match="cannot be opened"):
        VideoFileSource(_not_a_video(tmp_path))


def _not_a_video(tmp_path: Path) -> Path:
    path = tmp_path / "junk.mp4"
    path.write_bytes(b"not a video at all" * 100)
    return path


def test_frame_images_are_converted_once_and_only_when_asked() -> None:
    made: list[int] = []

    def convert() -> np.ndarray:
        made.append(1)
        return _solid(COLOURS[0])

    frame = Frame(None, 0.5, 3, convert=convert, luma=np.zeros((120, 160), np.uint8))
    assert made == []
    assert frame.image is frame.image
    assert made == [1]
    with pytest.raises(AttributeError, match="read-only"):
        frame.index = 4
    with pytest.raises(ValueError, match="image"):
        Frame(None, 0.0, 0)


def test_a_file_with_no_video_stream(tmp_path: Path) -> None:
    path = tmp_path / "sound.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\x00\x00" * 800)
    with pytest.raises(FrameSourceError, match="no video stream"):
        VideoFileSource(path)
