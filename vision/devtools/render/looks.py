"""The look of a rendered photo: table, tile set, light and camera, sampled from a seed.

A :class:`Look` is a frozen record of every choice :mod:`vision.devtools.render.photos` makes
besides
where the tiles lie, so a test or a sweep can fix any of them (``dataclasses.replace``). Sizes are
in units of the tile width unless the name says otherwise (``tile_width_px``, ``noise``); colours
are BGR floats in 0-255; angles are degrees in the image frame (x right, y down).

:func:`sample_look` draws one from a ``numpy.random.Generator``: the kinds of table, tile set,
pips and dividing bar seen on real tables, in proportions that favour the common ones (black
pips on ivory or white tiles).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, TypeVar, get_args

import numpy as np

Colour = tuple[float, float, float]
_K = TypeVar("_K", bound=str)

TableKind = Literal[
    "black",
    "dark_wood",
    "green_felt",
    "blue_felt",
    "white_paper",
    "light_grey",
    "light_wood",
    "grey",
    "wallpaper",
]
TileKind = Literal["ivory", "white", "pink", "yellowed"]
PipKind = Literal["black", "blue", "red", "green", "mixed"]
BarKind = Literal["thin", "thick"]
ShadowKind = Literal["soft", "hard"]

TABLE_KINDS: tuple[TableKind, ...] = get_args(TableKind)
TILE_KINDS: tuple[TileKind, ...] = get_args(TileKind)
PIP_KINDS: tuple[PipKind, ...] = get_args(PipKind)
BAR_KINDS: tuple[BarKind, ...] = get_args(BarKind)
SHADOW_KINDS: tuple[ShadowKind, ...] = get_args(ShadowKind)

#: The tables by brightness: dark, light and mid.
TABLE_GROUPS: Mapping[str, tuple[TableKind, ...]] = MappingProxyType(
    {
        "dark": ("black", "dark_wood", "green_felt", "blue_felt"),
        "light": ("white_paper", "light_grey", "light_wood"),
        "mid": ("grey", "wallpaper"),
    }
)

# Main and second colour (grain, pattern) of each table, BGR.
_TABLE_BASE: Mapping[TableKind, tuple[Colour, Colour]] = MappingProxyType(
    {
        "black": ((18.0, 18.0, 20.0), (30.0, 30.0, 34.0)),
        "dark_wood": ((32.0, 52.0, 82.0), (18.0, 30.0, 50.0)),
        "green_felt": ((45.0, 105.0, 30.0), (30.0, 80.0, 20.0)),
        "blue_felt": ((120.0, 75.0, 25.0), (95.0, 55.0, 15.0)),
        "white_paper": ((236.0, 238.0, 238.0), (222.0, 226.0, 228.0)),
        "light_grey": ((188.0, 188.0, 186.0), (170.0, 172.0, 172.0)),
        "light_wood": ((128.0, 176.0, 214.0), (95.0, 140.0, 182.0)),
        "grey": ((100.0, 98.0, 97.0), (84.0, 83.0, 83.0)),
        "wallpaper": ((118.0, 138.0, 154.0), (172.0, 168.0, 164.0)),
    }
)
_TABLE_WEIGHTS: Mapping[TableKind, float] = MappingProxyType(
    {
        "black": 1.5,
        "dark_wood": 1.0,
        "green_felt": 1.0,
        "blue_felt": 0.8,
        "white_paper": 1.0,
        "light_grey": 0.8,
        "light_wood": 1.0,
        "grey": 1.0,
        "wallpaper": 0.8,
    }
)

_TILE_BASE: Mapping[TileKind, Colour] = MappingProxyType(
    {
        "ivory": (198.0, 228.0, 238.0),
        "white": (244.0, 244.0, 240.0),
        "pink": (196.0, 208.0, 248.0),
        "yellowed": (172.0, 216.0, 228.0),
    }
)
_TILE_WEIGHTS: Mapping[TileKind, float] = MappingProxyType(
    {"ivory": 2.0, "white": 2.0, "pink": 1.0, "yellowed": 0.8}
)

_PIP_BASE: Mapping[PipKind, Colour] = MappingProxyType(
    {
        "black": (28.0, 26.0, 26.0),
        "blue": (120.0, 45.0, 20.0),
        "red": (35.0, 30.0, 175.0),
        "green": (50.0, 115.0, 25.0),
    }
)
_PIP_WEIGHTS: Mapping[PipKind, float] = MappingProxyType(
    {
        "black": 6.0,
        "blue": 0.5,
        "red": 0.5,
        "green": 0.4,
        "mixed": 0.7,
    }
)
# Colours of coloured-pip sets: one per pip value, as those sets paint them.
_MIXED_PALETTE: tuple[Colour, ...] = (
    (150.0, 70.0, 25.0),  # blue
    (40.0, 120.0, 30.0),  # green
    (35.0, 35.0, 185.0),  # red
    (25.0, 25.0, 25.0),  # black
    (20.0, 95.0, 200.0),  # orange
    (120.0, 35.0, 110.0),  # purple
    (25.0, 120.0, 150.0),  # ochre
    (30.0, 45.0, 110.0),  # brown
)


@dataclass(frozen=True, slots=True)
class Look:
    """Every choice of a rendered photo but the tiles' places (see the module docstring)."""

    # table
    table: TableKind
    table_bgr: Colour  # main colour
    table_bgr2: Colour  # grain / pattern / fibre colour
    texture_scale: float  # size of the texture's features, x tile width
    texture_contrast: float  # 0 (flat) .. 1
    # tiles
    tile: TileKind
    tile_bgr: Colour  # the face
    back_bgr: Colour  # the face of a tile lying face down (no bar, no pips)
    side_shade: float  # brightness of the tile's sides relative to the face, 0.45-0.85
    tile_length: float  # length / width, about 2
    corner_radius: float  # x tile width
    bevel: float  # width of the rounded edge of the face, x tile width
    tile_width_px: float  # in the image, before perspective
    # pips and bar
    pips: PipKind
    pip_bgr: tuple[Colour, ...]  # 7 colours: of the pips of a half showing 0..6 (0 unused)
    bar_bgr: Colour
    pip_diameter: float  # x tile width, 0.13-0.22
    pip_spacing: float  # centre of a half to its outer pips, along and across, x tile width
    pip_gloss: float  # 0 (flat paint) .. 0.6: a lighter spot inside each pip (concave pips)
    bar: BarKind
    bar_thickness: float  # x tile width
    bar_length: float  # x tile width (1.0: edge to edge)
    spinner: bool  # a brass dot at the centre of the bar
    # light
    light_angle: float  # where the light goes (shadows fall that way), degrees
    light_gradient: float  # brightness change from the image's centre to its edge, 0-0.35
    vignette: float  # darkening at the image corners, 0-0.4
    exposure: float  # overall gain, about 1
    white_balance: Colour  # gains per channel (B, G, R): the camera's colour cast
    shine: float  # strength of the specular band on faces, 0 (matte) .. 0.5
    shine_angle: float  # direction of the band, degrees
    shine_offset: float  # where the band crosses, -1..1 of the image's half diagonal
    shine_width: float  # half width of the band, x image half diagonal
    shadow: ShadowKind
    shadow_offset: float  # x tile width, towards light_angle
    shadow_blur: float  # sigma, x tile width
    shadow_strength: float  # 0..1: how much light the shadow takes
    side_size: float  # the top face sits this far from its footprint (x tile width)...
    side_angle: float  # ...this way (degrees): the tile's sides show on the other side
    side_radial: float  # and this much more away from the image centre, at its corners
    # camera
    perspective: float  # keystone: relative change of scale across the image, 0-0.15
    perspective_angle: float  # direction of the keystone, degrees
    rotation: float  # roll of the camera (the layout's direction), degrees, any
    defocus: float  # Gaussian blur sigma, x tile width (added to blur_px)
    blur_px: float  # optics and demosaicing, sigma in pixels
    motion: float  # motion blur length, x tile width (0: none)
    motion_angle: float  # degrees
    noise: float  # sensor noise, standard deviation in grey levels
    jpeg_quality: int | None  # 40-95; None: not compressed


def _pick(rng: np.random.Generator, weights: Mapping[_K, float]) -> _K:
    names = list(weights)
    p = np.array([weights[k] for k in names], dtype=np.float64)
    return names[int(rng.choice(len(names), p=p / p.sum()))]


def _jitter(rng: np.random.Generator, c: Colour, spread: float, gain: float = 0.0) -> Colour:
    """``c`` with every channel moved by up to ``spread`` levels and all of it scaled by
    ``1 ± gain``."""
    g = 1.0 + float(rng.uniform(-gain, gain))
    out = [min(255.0, max(0.0, v * g + float(rng.uniform(-spread, spread)))) for v in c]
    return (out[0], out[1], out[2])


def _lerp(a: Colour, b: Colour, t: float) -> Colour:
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2]))


def _log_uniform(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def _white_balance(rng: np.random.Generator) -> Colour:
    """Gains (B, G, R) of a camera's colour cast: mostly warm (indoor light), a little cool
    or tinted now and then."""
    warmth = float(rng.uniform(-0.08, 0.12))
    tint = float(rng.uniform(-0.01, 0.02))
    return (1.0 - warmth, 1.0 + tint, 1.0 + warmth * 0.6)


def sample_look(
    rng: np.random.Generator, *, tile_width_px: tuple[float, float] = (20.0, 300.0)
) -> Look:
    """A look drawn from ``rng`` (which it advances), the tile width log-uniform within
    ``tile_width_px``."""
    table: TableKind = _pick(rng, _TABLE_WEIGHTS)
    base, second = _TABLE_BASE[table]
    # neutral tables stay neutral (the camera's white balance tints them all alike)
    neutral = table in ("black", "white_paper", "light_grey", "grey")
    spread = 2.5 if neutral else 5.0 if table == "wallpaper" else 12.0
    if table == "blue_felt":  # from royal blue to teal
        t = float(rng.uniform(0.0, 1.0))
        base = _lerp(base, (165.0, 140.0, 30.0), t)
        second = _lerp(second, (140.0, 115.0, 20.0), t)
    table_bgr = _jitter(rng, base, spread, 0.12)
    table_bgr2 = _jitter(rng, second, spread, 0.12)
    if table == "black":
        shade = float(rng.uniform(8, 34))
        table_bgr = (shade, shade + float(rng.uniform(-2, 3)), shade + float(rng.uniform(-1, 6)))
        table_bgr2 = (table_bgr[0] * 1.4 + 4, table_bgr[1] * 1.4 + 4, table_bgr[2] * 1.4 + 4)
    scale_range = {
        "dark_wood": (0.15, 0.6),
        "light_wood": (0.15, 0.6),
        "green_felt": (0.02, 0.08),
        "blue_felt": (0.02, 0.08),
        "wallpaper": (0.6, 1.5),
    }.get(table, (0.05, 0.3))
    texture_scale = float(rng.uniform(*scale_range))
    texture_contrast = float(rng.uniform(0.6 if table == "wallpaper" else 0.3, 1.0))

    tile: TileKind = _pick(rng, _TILE_WEIGHTS)
    tile_bgr = _jitter(rng, _TILE_BASE[tile], 3.0, 0.04)
    dim = float(rng.uniform(0.94, 1.0))
    back_bgr = (tile_bgr[0] * dim, tile_bgr[1] * dim, tile_bgr[2] * dim)

    pips: PipKind = _pick(rng, _PIP_WEIGHTS)
    if pips == "mixed":
        order = rng.permutation(len(_MIXED_PALETTE))[:6]
        per_value = [_jitter(rng, _MIXED_PALETTE[int(k)], 10.0) for k in order]
        bar_bgr = _jitter(rng, (30.0, 28.0, 28.0), 6.0)
        pip_bgr: tuple[Colour, ...] = (bar_bgr, *per_value)
    else:
        colour = _jitter(rng, _PIP_BASE[pips], 10.0, 0.15)
        pip_bgr = (colour,) * 7
        bar_bgr = colour if rng.random() < 0.85 else _jitter(rng, (30.0, 28.0, 28.0), 6.0)
    pip_diameter = float(rng.uniform(0.13, 0.22))
    # Outer pips: apart by at least a small gap, inside the half's square with a margin.
    lo = max(0.2, pip_diameter + 0.06)
    hi = min(0.33, 0.41 - pip_diameter / 2)
    pip_spacing = float(rng.uniform(lo, max(lo, hi)))
    pip_gloss = float(rng.uniform(0.15, 0.45)) if rng.random() < 0.3 else 0.0
    bar: BarKind = "thick" if rng.random() < 0.3 else "thin"
    bar_thickness = float(rng.uniform(0.055, 0.085) if bar == "thick" else rng.uniform(0.02, 0.045))
    bar_length = 1.0 if rng.random() < 0.25 else float(rng.uniform(0.55, 0.85))
    spinner = bool(rng.random() < 0.15)

    lo_w, hi_w = tile_width_px
    width = _log_uniform(rng, lo_w, hi_w) if hi_w > lo_w else float(lo_w)

    shadow: ShadowKind = "hard" if rng.random() < 0.2 else "soft"
    return Look(
        table=table,
        table_bgr=table_bgr,
        table_bgr2=table_bgr2,
        texture_scale=texture_scale,
        texture_contrast=texture_contrast,
        tile=tile,
        tile_bgr=tile_bgr,
        back_bgr=back_bgr,
        side_shade=float(rng.uniform(0.45, 0.85)),
        tile_length=float(rng.uniform(1.92, 2.06)),
        corner_radius=float(rng.uniform(0.05, 0.16)),
        bevel=float(rng.uniform(0.02, 0.07)),
        tile_width_px=width,
        pips=pips,
        pip_bgr=pip_bgr,
        bar_bgr=bar_bgr,
        pip_diameter=pip_diameter,
        pip_spacing=pip_spacing,
        pip_gloss=pip_gloss,
        bar=bar,
        bar_thickness=bar_thickness,
        bar_length=bar_length,
        spinner=spinner,
        light_angle=float(rng.uniform(0, 360)),
        light_gradient=float(rng.uniform(0.0, 0.3)),
        vignette=float(rng.uniform(0.0, 0.4)),
        exposure=float(rng.uniform(0.85, 1.12)),
        white_balance=_white_balance(rng),
        shine=float(rng.uniform(0.08, 0.45)) if rng.random() < 0.6 else 0.0,
        shine_angle=float(rng.uniform(0, 180)),
        shine_offset=float(rng.uniform(-0.7, 0.7)),
        shine_width=float(rng.uniform(0.08, 0.35)),
        shadow=shadow,
        shadow_offset=float(rng.uniform(0.02, 0.12) if shadow == "hard" else rng.uniform(0.0, 0.1)),
        shadow_blur=float(
            rng.uniform(0.004, 0.015) if shadow == "hard" else rng.uniform(0.03, 0.12)
        ),
        shadow_strength=float(rng.uniform(0.35, 0.75)),
        side_size=float(rng.uniform(0.0, 0.09)),
        side_angle=float(rng.uniform(0, 360)),
        side_radial=float(rng.uniform(0.0, 0.06)),
        perspective=float(rng.uniform(0.0, 0.12)),
        perspective_angle=float(rng.uniform(0, 360)),
        rotation=float(rng.uniform(0, 360)),
        defocus=float(rng.uniform(0.0, 0.02)) if rng.random() < 0.5 else 0.0,
        blur_px=float(rng.uniform(0.3, 0.9)),
        motion=float(rng.uniform(0.015, 0.05)) if rng.random() < 0.12 else 0.0,
        motion_angle=float(rng.uniform(0, 180)),
        noise=float(rng.uniform(0.5, 2.5) if rng.random() < 0.6 else rng.uniform(2.5, 5.5)),
        jpeg_quality=int(rng.integers(40, 96)),
    )
