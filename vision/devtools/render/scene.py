"""Compose camera frames: the table top-down (felt, markers, tiles, a reaching arm and its shadow),
warped by the virtual camera, then light, blur, sensor noise and JPEG applied in the image.

Every random choice comes from a ``numpy.random.Generator`` seeded by the caller.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.calibration.geometry import TableGeometry
from vision.calibration.markers import marker_image
from vision.devtools.render.camera import camera_centre, camera_homography, raise_point
from vision.devtools.render.tiles import (
    Canvas,
    PlacedTile,
    RenderError,
    TileStyle,
    draw_tile,
    draw_tile_base,
)
from vision.types import Point

Image = npt.NDArray[np.uint8]

FLOOR_BGR = (52, 58, 64)
#: table surfaces (BGR): baize green, baize blue, walnut, slate grey
SURFACES: dict[str, tuple[int, int, int]] = {
    "green": (58, 104, 46),
    "blue": (112, 72, 38),
    "walnut": (44, 66, 98),
    "slate": (70, 72, 74),
}
#: tile looks: body, pip colour
TILE_LOOKS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "ivory": ((214, 230, 238), (28, 28, 32)),
    "white": ((236, 238, 240), (28, 28, 32)),
    "black-pips-cream": ((200, 222, 232), (40, 30, 30)),
}


@dataclass(frozen=True, slots=True)
class RenderParams:
    """Everything a sweep can vary. Light/shadow/blur/noise/JPEG/camera/resolution and timing.

    ``px_per_mm`` is the top-down canvas resolution; 0 picks 1.25x the image scale.
    Times are seconds of video.
    """

    width: int = 1280
    height: int = 720
    fps: float = 12.0
    px_per_mm: float = 0.0
    light: float = 1.0
    light_gradient: float = 0.25
    shadow: float = 0.45
    blur: float = 0.0
    noise: float = 2.0
    jpeg_quality: int = 0  # 0: no extra JPEG round trip
    tilt_deg: float = 8.0
    yaw_deg: float = 0.0
    codec: str = "mp4v"
    surface: str = "green"
    tile_look: str = "white"
    #: tile thickness (mm): the top face stands this high, so it shifts away from the camera's
    #: nadir (parallax) and a strip of the sides shows; 0 draws flat tiles
    tile_height_mm: float = 0.0
    lead_in_s: float = 0.8
    reach_s: float = 0.5
    place_s: float = 0.25
    withdraw_s: float = 0.45
    think_s: float = 0.8
    pass_s: float = 0.6
    tail_s: float = 1.0
    tile_jitter_mm: float = 0.3
    tile_jitter_deg: float = 1.0
    #: make the hand linger over the table (moving a little) after this move index, for
    #: ``linger_s`` seconds (tests of a hand that never leaves); -1: never.
    linger_after_move: int = -1
    linger_s: float = 0.0
    #: how far the fingers wander while placing (mm); 0: a hand that rests perfectly still
    tremor_mm: float = 3.0

    def __post_init__(self) -> None:
        if self.width < 160 or self.height < 120:
            raise RenderError(f"resolution {self.width}x{self.height} is too small")
        if not 1.0 <= self.fps <= 60.0:
            raise RenderError(f"fps must be 1-60, got {self.fps}")
        if self.codec not in ("mp4v", "MJPG"):
            raise RenderError(f"codec must be 'mp4v' or 'MJPG', got {self.codec!r}")
        if self.surface not in SURFACES:
            raise RenderError(f"surface must be one of {sorted(SURFACES)}, got {self.surface!r}")
        if self.tile_look not in TILE_LOOKS:
            raise RenderError(f"tile_look must be one of {sorted(TILE_LOOKS)}")
        if not 0 <= self.jpeg_quality <= 100:
            raise RenderError(f"jpeg_quality must be 0-100, got {self.jpeg_quality}")
        if min(self.reach_s, self.place_s, self.withdraw_s, self.think_s, self.pass_s) <= 0:
            raise RenderError("timings must be positive")

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RenderParams:
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise RenderError(f"unknown render parameters: {sorted(unknown)}")
        return cls(**data)


def sweep_params(index: int, seed: int, base: RenderParams | None = None) -> RenderParams:
    """The ``index``-th point of a deterministic sweep over light, shadow, blur, noise, JPEG,
    camera angle, table surface, tile look and thickness (resolution stays that of ``base``)."""
    rng = np.random.default_rng([seed, index, 7])
    b = base or RenderParams()
    return replace(
        b,
        light=float(rng.uniform(0.6, 1.3)),
        light_gradient=float(rng.uniform(0.0, 0.5)),
        shadow=float(rng.uniform(0.0, 0.7)),
        blur=float(rng.choice([0.0, 0.0, 0.6, 1.0, 1.5])),
        noise=float(rng.uniform(0.0, 6.0)),
        jpeg_quality=int(rng.choice([0, 0, 90, 75, 55])),
        tilt_deg=float(rng.uniform(0.0, 18.0)),
        yaw_deg=float(rng.uniform(-6.0, 6.0)),
        surface=str(rng.choice(sorted(SURFACES))),
        tile_look=str(rng.choice(sorted(TILE_LOOKS))),
        tile_height_mm=float(rng.choice([0.0, 6.0, 8.0, 10.0])),
    )


@dataclass(frozen=True, slots=True)
class ArmPose:
    """A forearm reaching in: ``shoulder`` far off the table, ``hand`` the palm's centre (mm)."""

    shoulder: Point
    hand: Point
    skin: tuple[int, int, int]


class SceneRenderer:
    """Holds the static parts of a fixture's look (background, camera, light, noise bank)."""

    MARGIN_MM = 200.0

    def __init__(
        self,
        geometry: TableGeometry,
        params: RenderParams,
        rng: np.random.Generator,
        *,
        noise_frames: int = 6,
    ):
        import cv2

        self.geometry = geometry
        self.params = params
        body, pip = TILE_LOOKS[params.tile_look]
        self.style = TileStyle(body=body, pip=pip)
        self.h_table_to_image = camera_homography(
            geometry, params.width, params.height, tilt_deg=params.tilt_deg, yaw_deg=params.yaw_deg
        )
        self.camera = camera_centre(geometry, tilt_deg=params.tilt_deg, yaw_deg=params.yaw_deg)
        scale = self._image_scale()
        s = params.px_per_mm if params.px_per_mm > 0 else 1.25 * scale
        self.canvas = Canvas(s, self.MARGIN_MM, geometry.width, geometry.height)
        self.h_canvas_to_image = self.h_table_to_image @ self.canvas.to_table_matrix()
        self.background = self._background(rng)
        self.gain = self._gain_map(rng)
        self.noise_bank: list[npt.NDArray[np.int16]] = []
        if params.noise > 0:
            for _ in range(noise_frames):
                n = rng.standard_normal(size=(params.height, params.width, 3), dtype=np.float32)
                n *= params.noise
                self.noise_bank.append(np.clip(np.round(n), -127, 127).astype(np.int16))
        self._cv2 = cv2

    def _image_scale(self) -> float:
        """Image pixels per table millimetre at the table's centre."""
        g = self.geometry
        c = (g.width / 2.0, g.height / 2.0)
        pts = np.array([[c, (c[0] + 10.0, c[1])]], dtype=np.float64).reshape(-1, 1, 2)
        import cv2

        out = np.asarray(cv2.perspectiveTransform(pts, self.h_table_to_image)).reshape(-1, 2)
        return float(np.hypot(*(out[1] - out[0]))) / 10.0

    def _background(self, rng: np.random.Generator) -> Image:
        import cv2

        g = self.geometry
        w, h = self.canvas.size
        img = np.empty((h, w, 3), dtype=np.uint8)
        img[:] = FLOOR_BGR
        x0, y0 = self.canvas.px([(0.0, 0.0)])[0]
        x1, y1 = self.canvas.px([(g.width, g.height)])[0]
        xa, ya, xb, yb = round(x0), round(y0), round(x1), round(y1)
        felt = np.empty((yb - ya, xb - xa, 3), dtype=np.float32)
        felt[:] = SURFACES[self.params.surface]
        blotches = rng.normal(0.0, 1.0, size=(12, 12)).astype(np.float32)
        blotches = np.asarray(
            cv2.resize(blotches, (xb - xa, yb - ya), interpolation=cv2.INTER_CUBIC),
            dtype=np.float32,
        )
        grain = rng.normal(0.0, 2.0, size=(yb - ya, xb - xa)).astype(np.float32)
        felt += (blotches * 4.0 + grain)[:, :, None]
        img[ya:yb, xa:xb] = np.clip(felt, 0, 255).astype(np.uint8)
        rim = max(2, round(8 * self.canvas.s))
        cv2.rectangle(img, (xa, ya), (xb - 1, yb - 1), (30, 45, 70), rim)
        for m in g.markers:
            quiet = m.size / 2.0 + 8.0
            p0 = self.canvas.px([(m.center[0] - quiet, m.center[1] - quiet)])[0]
            p1 = self.canvas.px([(m.center[0] + quiet, m.center[1] + quiet)])[0]
            cv2.rectangle(
                img, (round(p0[0]), round(p0[1])), (round(p1[0]), round(p1[1])), (235, 238, 240), -1
            )
            q0 = self.canvas.px([(m.center[0] - m.size / 2, m.center[1] - m.size / 2)])[0]
            side = round(m.size * self.canvas.s)
            marker = marker_image(m.id, side, g.dictionary)
            mx, my = round(q0[0] + 0.5), round(q0[1] + 0.5)  # pixel i spans [i - .5, i + .5]
            img[my : my + side, mx : mx + side] = np.where(marker > 127, 235, 20)[:, :, None]
        return img

    def _gain_map(self, rng: np.random.Generator) -> Image:
        p = self.params
        yy, xx = np.mgrid[0 : p.height, 0 : p.width].astype(np.float32)
        xn = xx / p.width - 0.5
        yn = yy / p.height - 0.5
        phi = float(rng.uniform(0, 2 * math.pi))
        ramp = xn * math.cos(phi) + yn * math.sin(phi)
        vignette = 1.0 - 0.18 * (xn**2 + yn**2) * 2.0
        gain = p.light * (1.0 - p.light_gradient * ramp) * vignette
        g8 = np.clip(gain * 128.0, 0, 255).astype(np.uint8)
        return np.repeat(g8[:, :, None], 3, axis=2)

    # -- drawing -----------------------------------------------------------------------------

    def top_face(self, tile: PlacedTile) -> PlacedTile:
        """Where the tile's top face appears, drawn on the table plane (parallax of its height)."""
        h = self.params.tile_height_mm
        if h <= 0:
            return tile
        c = raise_point(tile.center, h, self.camera)
        k = self.camera[2] / (self.camera[2] - h)
        return replace(tile, center=c, length=tile.length * k, width=tile.width * k)

    def draw_tile(self, img: Image, tile: PlacedTile) -> None:
        """One tile, in place: with a height, its footprint (sides) first, then its top face."""
        if self.params.tile_height_mm > 0:
            draw_tile_base(img, self.canvas, tile, self.style)
            draw_tile(img, self.canvas, self.top_face(tile), self.style, shadow=False)
        else:
            draw_tile(img, self.canvas, tile, self.style)

    def draw_tiles(self, base: Image, tiles: Sequence[PlacedTile]) -> Image:
        """Tiles lying on the table. With a height, every footprint (sides, drop shadow) goes
        down before any top face: the sides of one tile stand lower than its neighbour's top
        and never cover it."""
        img = base.copy()
        if self.params.tile_height_mm > 0:
            for t in tiles:
                draw_tile_base(img, self.canvas, t, self.style)
            for t in tiles:
                draw_tile(img, self.canvas, self.top_face(t), self.style, shadow=False)
        else:
            for t in tiles:
                self.draw_tile(img, t)
        return img

    def _arm_shapes(self, pose: ArmPose, offset: Point = (0.0, 0.0)) -> list[npt.NDArray[np.int32]]:
        sx, sy = pose.shoulder[0] + offset[0], pose.shoulder[1] + offset[1]
        hx, hy = pose.hand[0] + offset[0], pose.hand[1] + offset[1]
        dx, dy = hx - sx, hy - sy
        n = math.hypot(dx, dy) or 1.0
        ux, uy = dx / n, dy / n
        px, py = -uy, ux
        wrist = (hx - ux * 40.0, hy - uy * 40.0)
        arm = [
            (sx + px * 45.0, sy + py * 45.0),
            (wrist[0] + px * 33.0, wrist[1] + py * 33.0),
            (wrist[0] - px * 33.0, wrist[1] - py * 33.0),
            (sx - px * 45.0, sy - py * 45.0),
        ]
        shapes = [self.canvas.ipx(arm)]
        palm = _ellipse((hx, hy), (ux, uy), 52.0, 44.0)
        shapes.append(self.canvas.ipx(palm))
        for k, spread in enumerate((-1.5, -0.5, 0.5, 1.5)):
            base = (hx + ux * 30.0 + px * spread * 17.0, hy + uy * 30.0 + py * spread * 17.0)
            length = 38.0 - abs(spread) * 5.0 + (4.0 if k == 1 else 0.0)
            centre = (base[0] + ux * length / 2, base[1] + uy * length / 2)
            shapes.append(self.canvas.ipx(_ellipse(centre, (ux, uy), length / 2 + 4.0, 8.5)))
        thumb_dir = (ux * 0.5 + px * 0.87, uy * 0.5 + py * 0.87)
        thumb_c = (hx + thumb_dir[0] * 52.0, hy + thumb_dir[1] * 52.0)
        shapes.append(self.canvas.ipx(_ellipse(thumb_c, thumb_dir, 22.0, 10.0)))
        return shapes

    def arm_visible(self, pose: ArmPose) -> bool:
        """Could any of the arm or its shadow show in the image? (bounding-box test, so a
        ``False`` is certain and a ``True`` may be a near miss.)"""
        shapes = self._arm_shapes(pose) + self._arm_shapes(pose, offset=(22.0, 30.0))
        pts = np.concatenate([s.reshape(-1, 2) for s in shapes]).astype(np.float64) / 16.0
        hom = np.hstack([pts, np.ones((len(pts), 1))]) @ self.h_canvas_to_image.T
        front = hom[:, 2] > 1e-9
        if not np.any(front):
            return False
        xy = hom[front, :2] / hom[front, 2:3]
        pad = 4.0 + 3.0 * self.params.blur
        return bool(
            xy[:, 0].max() >= -pad
            and xy[:, 0].min() <= self.params.width + pad
            and xy[:, 1].max() >= -pad
            and xy[:, 1].min() <= self.params.height + pad
        )

    def draw_arm(self, img: Image, pose: ArmPose) -> None:
        """Draw the arm's soft shadow, then the arm, on ``img`` (in place)."""
        cv2 = self._cv2
        if self.params.shadow > 0:
            shapes = self._arm_shapes(pose, offset=(22.0, 30.0))
            pts = np.concatenate([s.reshape(-1, 2) for s in shapes]) / 16.0
            h, w = img.shape[:2]
            pad = round(12 * self.canvas.s)
            x0 = max(0, int(pts[:, 0].min()) - pad)
            y0 = max(0, int(pts[:, 1].min()) - pad)
            x1 = min(w, int(pts[:, 0].max()) + pad)
            y1 = min(h, int(pts[:, 1].max()) + pad)
            if x1 > x0 and y1 > y0:
                mask = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
                shift = np.array([x0 * 16, y0 * 16], dtype=np.int32)
                for s in shapes:
                    cv2.fillPoly(mask, [s - shift], 255, cv2.LINE_AA, shift=4)
                k = 2 * round(6 * self.canvas.s) + 1
                mask = cv2.GaussianBlur(mask, (k, k), 0)
                factor = 255 - np.round(mask.astype(np.float32) * self.params.shadow).astype(
                    np.uint8
                )
                roi = img[y0:y1, x0:x1]
                img[y0:y1, x0:x1] = cv2.multiply(roi, cv2.merge([factor] * 3), scale=1 / 255.0)
        shapes = self._arm_shapes(pose)
        dark = tuple(int(c * 0.8) for c in pose.skin)
        for s in shapes:
            cv2.fillPoly(img, [s], dark, cv2.LINE_AA, shift=4)
        # lighter core: the top of the arm catches the light
        core = [
            self.canvas.ipx(
                _shrink(s.reshape(-1, 2) / 16.0 / self.canvas.s - self.canvas.margin, 0.8)
            )
            for s in shapes
        ]
        for s in core:
            cv2.fillPoly(img, [s], pose.skin, cv2.LINE_AA, shift=4)

    # -- camera ------------------------------------------------------------------------------

    def to_camera(self, canvas_img: Image) -> Image:
        """Warp a top-down canvas into the camera view and apply the light (no noise)."""
        cv2 = self._cv2
        p = self.params
        view = cv2.warpPerspective(
            canvas_img,
            self.h_canvas_to_image,
            (p.width, p.height),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=FLOOR_BGR,
        )
        view = cv2.multiply(view, self.gain, scale=1 / 128.0)
        if p.blur > 0:
            view = cv2.GaussianBlur(view, (0, 0), p.blur)
        return np.asarray(view, dtype=np.uint8)

    def finish(self, view: Image, rng: np.random.Generator) -> Image:
        """Sensor noise and JPEG round trip: what changes from frame to frame of a still scene."""
        cv2 = self._cv2
        out = view
        if self.noise_bank:
            n = self.noise_bank[int(rng.integers(len(self.noise_bank)))]
            out = np.asarray(cv2.add(out, n, dtype=cv2.CV_8U), dtype=np.uint8)
        if self.params.jpeg_quality:
            ok, buf = cv2.imencode(
                ".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, self.params.jpeg_quality]
            )
            if ok:
                out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), dtype=np.uint8)
        return out

    def project(self, points: Sequence[Point]) -> list[Point]:
        """Table mm -> image px under this camera."""
        if not points:
            return []
        import cv2

        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        out = np.asarray(cv2.perspectiveTransform(pts, self.h_table_to_image)).reshape(-1, 2)
        return [(float(x), float(y)) for x, y in out]


def _ellipse(c: Point, u: Point, a: float, b: float, n: int = 20) -> npt.NDArray[np.float64]:
    ts = np.linspace(0, 2 * math.pi, n, endpoint=False)
    ux, uy = u
    px, py = -uy, ux
    xs = c[0] + a * np.cos(ts) * ux + b * np.sin(ts) * px
    ys = c[1] + a * np.cos(ts) * uy + b * np.sin(ts) * py
    return np.stack([xs, ys], axis=1)


def _shrink(poly: npt.NDArray[np.float64], k: float) -> npt.NDArray[np.float64]:
    c = poly.mean(axis=0)
    return np.asarray(c + (poly - c) * k, dtype=np.float64)
