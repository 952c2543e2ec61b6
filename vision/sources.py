"""Frame sources: a camera, a video file, a folder of stills, the Pi camera, behind one Protocol.

Every source yields :class:`Frame` values (BGR ``uint8`` image, a time in seconds, a running index)
and is a context manager. Recorded media (video, stills) are timed by their own timeline
(``index / fps``) so a replay is exact; live cameras are timed by an injected :class:`Clock`.
A camera that disappears raises :class:`~vision.errors.FrameSourceError`; a video that is cut or
corrupt part-way ends cleanly (with a warning in the log), never with a crash.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self, runtime_checkable

import numpy as np
import numpy.typing as npt

from domino_common.clock import Clock, SystemClock
from vision.errors import FrameSourceError

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


class Frame:
    """One picture, the time it was taken (seconds) and a running index.

    ``image`` is BGR ``uint8`` of shape ``(h, w, 3)``. A source may hand a frame over before it is
    converted to BGR (``convert``, called the first time ``image`` is asked for): a video decodes
    to YUV, and converting every frame to BGR costs about as much as decoding it, while most
    frames are only checked for motion, which needs their brightness alone. Such a frame brings
    ``luma``, its brightness plane as decoded (``uint8``, ``(h, w)``): full range (0-255) when
    ``luma_full_range``, else the video range (16-235) most video is coded in.
    """

    __slots__ = ("_convert", "_image", "index", "luma", "luma_full_range", "t_seconds")
    t_seconds: float
    index: int
    luma: Image | None
    luma_full_range: bool
    _image: Image | None
    _convert: Callable[[], Image] | None

    def __init__(
        self,
        image: Image | None,
        t_seconds: float,
        index: int,
        *,
        convert: Callable[[], Image] | None = None,
        luma: Image | None = None,
        luma_full_range: bool = True,
    ) -> None:
        if image is None and convert is None:
            raise ValueError("a frame needs its image or a way to make it")
        init = object.__setattr__  # a frame is read-only once made (see __setattr__)
        init(self, "t_seconds", t_seconds)
        init(self, "index", index)
        init(self, "luma", luma)
        init(self, "luma_full_range", luma_full_range)
        init(self, "_image", image)
        init(self, "_convert", None if image is not None else convert)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Frame is read-only: cannot set {name}")

    @property
    def image(self) -> Image:
        if self._image is None:
            assert self._convert is not None  # __init__ holds one of the two
            object.__setattr__(self, "_image", self._convert())
            object.__setattr__(self, "_convert", None)
        assert self._image is not None
        return self._image

    def __repr__(self) -> str:
        return f"Frame(t_seconds={self.t_seconds!r}, index={self.index!r})"


@runtime_checkable
class FrameSource(Protocol):
    """Anything that yields frames in order and can be closed (and used in a ``with``)."""

    def __iter__(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class _Closing:
    """Context-manager plumbing shared by the sources."""

    def close(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _as_bgr(image: Any) -> Image:
    """Grey or BGRA frames become 3-channel BGR ``uint8``."""
    import cv2

    arr = np.asarray(image)
    if arr.dtype != np.uint8:
        raise FrameSourceError(f"unsupported frame dtype {arr.dtype}")
    if arr.ndim == 2:
        return np.asarray(cv2.cvtColor(arr, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if arr.ndim == 3 and arr.shape[2] == 4:
        return np.asarray(cv2.cvtColor(arr, cv2.COLOR_BGRA2BGR), dtype=np.uint8)
    if arr.ndim == 3 and arr.shape[2] == 3:
        return arr
    raise FrameSourceError(f"unsupported frame shape {arr.shape}")


#: Pixel formats whose first plane is the 8-bit brightness (Y) of the frame.
_LUMA_FIRST = frozenset(
    {"gray", "nv12", "nv21", "nv16", "yuv410p", "yuv411p"}
    | {f"yuv{s}p" for s in ("420", "422", "440", "444")}
    | {f"yuvj{s}p" for s in ("420", "422", "440", "444")}
)
#: FFmpeg's AVCOL_RANGE_JPEG: a brightness plane in the full 0-255 range
_JPEG_RANGE = 2


def _video_frame(decoded: Any, t_seconds: float, index: int) -> Frame:
    """A :class:`Frame` of a decoded ``av.VideoFrame``: its brightness plane at once (no copy),
    the BGR image when first asked for (the same conversion OpenCV's video reader makes)."""
    fmt = decoded.format.name
    if fmt not in _LUMA_FIRST:
        return Frame(_as_bgr(decoded.to_ndarray(format="bgr24")), t_seconds, index)
    plane = decoded.planes[0]
    rows = np.frombuffer(plane, dtype=np.uint8).reshape(decoded.height, plane.line_size)
    full = fmt == "gray" or fmt.startswith("yuvj") or int(decoded.color_range) == _JPEG_RANGE
    return Frame(
        None,
        t_seconds,
        index,
        convert=lambda: _as_bgr(decoded.to_ndarray(format="bgr24")),
        luma=rows[:, : decoded.width],
        luma_full_range=full,
    )


class VideoFileSource(_Closing):
    """A video file, decoded with PyAV (FFmpeg); timestamps are ``index / fps`` of the file.

    Frames come with their brightness plane and are converted to BGR only when their image is
    asked for (see :class:`Frame`): the motion check that every frame goes through needs only
    the brightness, so a replay decodes about twice as fast as reading every frame as BGR.
    Without PyAV (the optional ``video`` extra: the demo's set-up leaves its 100 MB out) the
    file is read by OpenCV's reader instead: the same BGR frames, every one converted.

    A file that cannot be opened raises :class:`FrameSourceError` at construction; a stream that
    breaks part-way ends the iteration (logged), so a replay of a cut recording still finishes.
    """

    def __init__(self, path: str | Path, *, fps: float | None = None) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise FrameSourceError(f"video {self.path}: no such file")
        self._closed = False
        self._capture: Any = None
        try:
            import av
        except ModuleNotFoundError:
            self._open_with_opencv(fps)
            return
        try:
            self._container = av.open(str(self.path), mode="r")
        except (av.FFmpegError, OSError, UnicodeDecodeError) as exc:
            raise FrameSourceError(
                f"video {self.path}: cannot be opened (corrupt? codec?): {exc}"
            ) from exc
        if not self._container.streams.video:
            self._container.close()
            raise FrameSourceError(f"video {self.path}: cannot be opened: it has no video stream")
        self._stream = self._container.streams.video[0]
        rate = self._stream.average_rate or self._stream.guessed_rate
        file_fps = float(rate) if rate else 0.0
        self.fps = fps if fps is not None else (file_fps if 0.0 < file_fps < 1000.0 else 30.0)
        self.frame_count = int(self._stream.frames or 0)

    def _open_with_opencv(self, fps: float | None) -> None:
        import cv2

        capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            capture.release()
            raise FrameSourceError(f"video {self.path}: cannot be opened (corrupt? codec?)")
        self._capture = capture
        file_fps = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if fps is not None else (file_fps if 0.0 < file_fps < 1000.0 else 30.0)
        self.frame_count = max(0, int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0))

    def __iter__(self) -> Iterator[Frame]:
        if self._capture is not None:
            yield from self._read_with_opencv()
            return
        import av

        index = 0
        decoded = self._container.decode(self._stream)
        while not self._closed:
            try:
                frame = next(decoded)
            except StopIteration:
                break
            except (av.FFmpegError, OSError) as exc:
                log.warning("video %s broken at frame %d: %s", self.path, index, exc)
                return
            yield _video_frame(frame, index / self.fps, index)
            index += 1
        self._check_length(index)

    def _read_with_opencv(self) -> Iterator[Frame]:
        index = 0
        while not self._closed:
            ok, image = self._capture.read()
            if not ok or image is None:
                break
            yield Frame(_as_bgr(image), index / self.fps, index)
            index += 1
        self._check_length(index)

    def _check_length(self, index: int) -> None:
        if not self._closed and self.frame_count and index < self.frame_count - 1:
            log.warning(
                "video %s ended early at frame %d of %d", self.path, index, self.frame_count
            )

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._capture is not None:
                self._capture.release()
            else:
                self._container.close()


class ImageSequenceSource(_Closing):
    """A folder of stills in sorted file-name order, timed ``index / fps``.

    An unreadable still raises :class:`FrameSourceError` naming it (a recorded sequence with a
    hole is a broken recording, not a silent gap), unless ``skip_unreadable`` is set.
    """

    def __init__(
        self,
        folder: str | Path,
        *,
        fps: float = 1.0,
        clock: Clock | None = None,
        skip_unreadable: bool = False,
    ) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise FrameSourceError(f"image folder {self.folder}: not a directory")
        if fps <= 0:
            raise FrameSourceError(f"image folder {self.folder}: fps must be positive, got {fps}")
        self.paths: Sequence[Path] = sorted(
            p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()
        )
        if not self.paths:
            raise FrameSourceError(f"image folder {self.folder}: no images")
        self.fps = fps
        self._clock = clock
        self._skip = skip_unreadable
        self._closed = False

    def __iter__(self) -> Iterator[Frame]:
        from vision.errors import ImageFileError
        from vision.imageio import read_image

        index = 0
        for path in self.paths:
            if self._closed:
                return
            try:
                image = read_image(path)  # bounded: bytes read, pixels in the header
            except ImageFileError as exc:
                if self._skip:
                    log.warning("skipping unreadable image %s: %s", path, exc.reason)
                    continue
                raise FrameSourceError(f"image {path}: {exc.reason}") from None
            t = self._clock.monotonic() if self._clock is not None else index / self.fps
            yield Frame(_as_bgr(image), t, index)
            index += 1

    def close(self) -> None:
        self._closed = True


@dataclass(slots=True)
class CameraSource(_Closing):
    """A live camera through ``cv2.VideoCapture`` (a device index or a device/stream path).

    Frames are stamped with ``clock.monotonic()``. ``max_failures`` consecutive failed reads mean
    the camera is gone: :class:`FrameSourceError` (callers show it, reconnect or stop).
    """

    device: int | str
    clock: Clock = field(default_factory=SystemClock)
    width: int | None = None
    height: int | None = None
    fps: float | None = None
    max_failures: int = 10
    _cap: Any = field(init=False, default=None)
    _closed: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        import cv2

        self._cap = cv2.VideoCapture(self.device)
        if not self._cap.isOpened():
            self._cap.release()
            raise FrameSourceError(f"camera {self.device!r}: cannot be opened")
        if self.width:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        if self.height:
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        if self.fps:
            self._cap.set(cv2.CAP_PROP_FPS, self.fps)

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        failures = 0
        while not self._closed:
            try:
                ok, image = self._cap.read()
            except Exception as exc:  # a driver error is the camera going away
                raise FrameSourceError(f"camera {self.device!r}: read failed: {exc}") from exc
            if not ok or image is None:
                failures += 1
                if failures >= self.max_failures:
                    raise FrameSourceError(
                        f"camera {self.device!r}: no frame in {failures} reads (disconnected?)"
                    )
                continue
            failures = 0
            yield Frame(_as_bgr(image), self.clock.monotonic(), index)
            index += 1

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._cap.release()


class PiCameraSource(_Closing):
    """The Raspberry Pi camera through ``picamera2`` (optional extra ``domino-table[pi]``)."""

    def __init__(self, *, clock: Clock | None = None, width: int = 1280, height: int = 720) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise FrameSourceError(
                "picamera2 is not installed (pip install 'domino-table[pi]' on the Pi)"
            ) from exc
        self._clock: Clock = clock if clock is not None else SystemClock()
        try:
            self._cam = Picamera2()
            config = self._cam.create_video_configuration(
                main={"size": (width, height), "format": "BGR888"}
            )
            self._cam.configure(config)
            self._cam.start()
        except Exception as exc:
            raise FrameSourceError(f"Pi camera: cannot be started: {exc}") from exc
        self._closed = False

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        while not self._closed:
            try:
                image = self._cam.capture_array()
            except Exception as exc:
                raise FrameSourceError(f"Pi camera: capture failed: {exc}") from exc
            yield Frame(_as_bgr(image), self._clock.monotonic(), index)
            index += 1

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._cam.stop()
            self._cam.close()


def open_source(
    spec: str | int | Path, *, clock: Clock | None = None, fps: float | None = None
) -> FrameSource:
    """Open a source from a user's spec: ``0`` or ``/dev/video0`` (camera), ``picamera``,
    a folder of stills, or a video file."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        return CameraSource(int(spec), clock=clock or SystemClock(), fps=fps)
    text = str(spec)
    if text == "picamera":
        return PiCameraSource(clock=clock)
    if text.startswith("/dev/video"):
        return CameraSource(text, clock=clock or SystemClock(), fps=fps)
    path = Path(text)
    if path.is_dir():
        return ImageSequenceSource(path, fps=fps or 1.0, clock=clock)
    return VideoFileSource(path, fps=fps)
