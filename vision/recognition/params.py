"""Every threshold of tile recognition, in one frozen, validated parameter object.

Lengths named ``*_rel`` are fractions of the tile width ``w`` (the short side of a tile),
which the reader measures in each image; nothing depends on one board, camera or resolution.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.errors import RecognitionParamsError


@dataclass(frozen=True, slots=True)
class RecognitionParams:
    """Thresholds of :func:`vision.recognition.identify`.

    Load from JSON with :meth:`from_json` / :meth:`load`; unknown keys and out-of-range values are
    rejected with :class:`~vision.errors.RecognitionParamsError`.
    """

    # --- white tile faces -------------------------------------------------------------------
    #: Fixed threshold on the darkest colour channel (0-255); ``None`` picks it with Otsu.
    white_threshold: int | None = None
    #: Bounds clamping the automatic threshold.
    white_threshold_min: int = 80
    white_threshold_max: int = 200
    #: ... and at least this fraction of the way from the frame's median (the table) to its
    #: brightest pixels (the faces): a light gradient can put Otsu's split inside the table.
    white_above_table_rel: float = 0.25
    #: Blur (see vision.recognition.deblur). When a first reading leaves pip-like spots
    #: outside every tile, the frame's blur is measured by re-blurring with a Gaussian of
    #: ``blur_probe_px``; the blur added to a focused frame is ``sqrt(blur_gain *
    #: (measured**2 - blur_floor_px**2))`` (fitted on rendered scenes of known blur: a
    #: focused frame measures about 0.75 px). Above ``deblur_above_px`` the crop is read
    #: again from a Wiener deconvolution of it with ``deblur_noise_to_signal``.
    blur_probe_px: float = 1.5
    blur_floor_px: float = 0.74
    blur_gain: float = 2.0
    deblur_above_px: float = 0.8
    deblur_noise_to_signal: float = 0.01
    #: Ink (pips, bars) is darker than this fraction of the typical face brightness.
    #: Pixels between ink and the face threshold count as dark only away from thin gaps, so
    #: a pip blurred into the bar beside it stays a separate pip.
    ink_ratio: float = 0.42
    #: Images smaller than this (either side, pixels) are refused.
    min_image_side_px: int = 16

    #: Tiles narrower than this (pixels) are not reported (their pips would be under 3 px).
    min_tile_width_px: float = 14.0

    # --- second look -----------------------------------------------------------------
    #: Pip-like spots (enclosed, round, at most ``spot_max_rel`` of the tile width across, or
    #: ``spot_max_px`` while no tile width is known) that lie in no tile read make the reader
    #: look again there (see :func:`vision.recognition.reader._read_again`).
    spot_max_rel: float = 0.35
    spot_max_px: float = 12.0
    #: More unexplained spots than this is noise (a double-nine set has 990 pips): no look.
    look_max_spots: int = 1500
    #: Tiles narrower than this (pixels), or, with no tile read, spots at most a quarter of it
    #: across, are read again enlarged by ``upscale_factor``: a dividing bar about a pixel
    #: thick is faint, and gaps of a pixel close up.
    upscale_below_width_px: float = 26.0
    upscale_factor: float = 2.0
    #: Where spots are unexplained, tiles narrower than this are looked at enlarged (a
    #: blurred bar of a tile up to about 40 px wide is too faint at its own size).
    look_upscale_below_width_px: float = 40.0
    #: ... and the whole scene is read again enlarged (as for small tiles) when more than
    #: this fraction of its pip-like spots lie in no tile read.
    reread_unexplained_rel: float = 0.15
    #: The looks, first to last: each is sharpened with an unsharp mask of this strength
    #: (Gaussian sigma ``look_sharpen_sigma`` original pixels), and in it a pixel darker than
    #: ``look_faint_ratio`` of the brightest pixel within ``faint_window_px`` (original
    #: pixels) is dark (a thin bar blurred to half contrast). Blur takes more contrast from a
    #: thin bar than from a pip; sharpening gives some back (and makes noise).
    look_sharpen: tuple[float, ...] = (0.0, 1.5, 2.5)
    look_faint_ratio: tuple[float, ...] = (0.6, 0.6, 0.7)
    look_sharpen_sigma: float = 1.0
    faint_window_px: float = 7.5
    #: A tile found on a second look is dropped if it overlaps a tile read before by more
    #: than this fraction of a tile's area. Tiles are read up to about a tenth too wide (the
    #: sides of thick tiles seen at a slant, a rim), so two touching tiles read that way
    #: overlap by about that share; a tile read straddling a known one, by half.
    look_overlap_max_rel: float = 0.12
    #: Tiles found on a second look are reported only from this confidence up.
    upscale_min_confidence: float = 0.45

    # --- dividing bars (one per tile) -------------------------------------------------------
    #: Smallest bar length in pixels (tiles whose bar is shorter are too small to read).
    bar_min_length_px: float = 5.0
    #: Smallest length/thickness ratio of a bar.
    bar_min_aspect: float = 2.5
    #: A bar candidate stouter than this (length/thickness) may have pips blurred into it: it
    #: is re-thresholded at each of ``bar_split_levels`` (fractions of the way from its darkest
    #: pixel to the ink level); the longest slender core is the bar, the rest pips.
    bar_split_aspect: float = 5.0
    bar_split_levels: tuple[float, ...] = (0.85, 0.7, 0.5, 0.3)
    #: Collinear pieces of a broken bar are joined if together they are at most this many
    #: times the scene's typical bar length.
    bar_join_max_rel: float = 1.25
    #: A blurred bar is followed along its line while it is darker than the face on both
    #: sides of it by this fraction of the face brightness.
    bar_follow_dip: float = 0.1
    #: A dark line followed (as above) this many tile widths or further, whose pixels at the
    #: face threshold run out onto the table, is the gap between two tiles lying long side
    #: to long side, not a bar (real bars ran at most 1.43 widths where they reached the
    #: table at that threshold, in 450 rendered scenes).
    seam_span_rel: float = 1.6
    #: Bar length as a fraction of the tile width measured across it.
    bar_min_rel: float = 0.25
    bar_max_rel: float = 0.98
    #: Largest bar thickness as a fraction of the tile width.
    bar_max_thickness_rel: float = 0.2
    #: Bars stuck to seams: thin dark lines are what an opening of this size (fraction of the
    #: tile width, at least 3 px) removes; tiles found from them need this confidence.
    carve_kernel_rel: float = 0.05
    #: ... or are darker than this fraction of the brightest face within half a tile width.
    carve_faint_ratio: float = 0.75
    carve_min_confidence: float = 0.45
    #: ... looked for only where at least this share of a square half a tile wide is face
    #: outside every tile read.
    carve_face_share: float = 0.6
    #: ... and kept if they overlap no tile read by more than this fraction of a tile's area.
    carve_overlap_max_rel: float = 0.12
    #: A tile face must continue at least this far (fraction of its width) beyond its bar, on
    #: both sides along the long axis.
    body_min_reach_rel: float = 0.7

    # --- scale ------------------------------------------------------------------------------
    #: A tile whose measured width differs from the scene's median width by more than this
    #: fraction uses the median instead (its measurement was spoilt by a touching neighbour).
    width_tolerance_rel: float = 0.2
    #: Where the first look set the scene's width (no tile read before it, or tiles at the
    #: resolution limit) from a few tiles, a later look that reads more tiles at a width more
    #: than this fraction apart sets it again (a tile read across a seam, or fitted between a
    #: half's corner pips, is read at another scale).
    look_width_agree_rel: float = 0.1
    #: After the looks, where the scene's width and the median width of the tiles read differ
    #: by more than this fraction, the stages after them run at both and the reading leaving
    #: fewer pips unexplained is kept (a first look at the wrong scale sets the scene's width).
    width_retry_rel: float = 0.06
    #: A tile width from the pips' spacing (see ``reader._pitch_width``) above this many times
    #: the spots' median size is no width: the spots are too far apart to be one tile's pips.
    pitch_max_spots: float = 8.0
    #: Tile length / width.
    tile_aspect: float = 2.0
    #: A tile far from a tilted camera, lying along its view, looks this fraction of the
    #: scene's width wide and this many times as long (the renderer's camera, tilted up to 18
    #: degrees: 0.91 and 1.76-1.79). Faces standing apart, no larger than
    #: ``far_face_max_area_rel`` squares of the width, that are left after the outline stage
    #: are tiled once more at that shape (see ``reader._read_outlines``).
    far_width_rel: float = 0.91
    far_aspect: float = 1.78
    far_face_max_area_rel: float = 12.0

    # --- pips -------------------------------------------------------------------------------
    #: Pip area bounds as fractions of ``w**2``.
    pip_min_area_rel: float = 0.003
    pip_max_area_rel: float = 0.07
    #: Smallest pip area in pixels.
    pip_min_area_px: int = 3
    #: Smallest fill of a pip's bounding ellipse (rejects rings, letters, strokes).
    pip_min_fill: float = 0.45
    #: Largest bounding-box aspect of a pip.
    pip_max_aspect: float = 2.2
    #: Dark specks smaller than this fraction of the scene's median pip area are not pips.
    pip_min_ref_ratio: float = 0.5
    #: A dark blob this many times the scene's median pip area counts as several touching pips.
    pip_merge_ratio: float = 1.7
    #: A tile with at least this many round pip candidates, the largest at most
    #: ``pip_uniform_ratio`` times the smallest, one of them ``pip_merge_ratio`` times the
    #: scene's pip area, has its pips counted by their median area (see
    #: ``reader._proposal_pip_areas``).
    pip_uniform_min: int = 4
    pip_uniform_ratio: float = 1.35
    #: ... unless it is pale: its mean darkness below the face less than this fraction of
    #: the darkness at the centres of the single pips there. The same holds for a streak
    #: (longer than ``pip_max_aspect`` times its thickness, under 0.6 of a pip across).
    #: Deconvolution rings between two rows of pips; sharpened, the ring can reach the face
    #: threshold as a streak, or a run three pips long, which is no pip at all.
    pip_run_min_contrast: float = 0.25
    #: A half read with a centre pip among others (3, 5, 7, 9) is a misreading unless, in the
    #: frame as it was (not deconvolved or sharpened), its centre is darker than the face by
    #: at least this fraction of what its corner pips are: the tile is not reported (halves
    #: read right in the first 200 scenes of six sweeps: at least 0.72; 3s and 5s read right
    #: in seeds 1 and 16, scenes 0-149, the least over every check of them: 0.68; for instance, a
    #: noisy crosswise 6-6 read "6-7", its phantom centre: 0.52).
    centre_pip_min_contrast: float = 0.6
    #: ... nor one with a 2 or a 4 whose centre is darker than the face by more than this
    #: fraction of what its corner pips are (8,566 halves read right, first 200 scenes of six
    #: sweeps: at most 0.22; the 3 read as a 2 that this catches: 1.09).
    centre_empty_max_contrast: float = 0.5
    #: ... nor one whose pips, in the frame as it was, are darker than its face by less than
    #: this fraction of what the scene's median half's pips are (relative to each face):
    #: deconvolution's ringing and JPEG blocks can make two pips of a blank half (halves
    #: read right, first 120-200 scenes of four sweeps: at least 0.61; a phantom 2
    #: in a 0-4's blank half: 0.20).
    pip_min_darkness_rel: float = 0.4
    #: ... where fewer than two halves have pips to measure the scene's by, its pips are
    #: taken to be this dark (relative to each face): halves read right have a median of
    #: 0.88 in the sweeps of seeds 1 and 16 and 0.98 on ddd-dev, at least 0.55 and 0.47;
    #: the phantom 3s that deconvolution rings into a pile of face-down tiles, 0.21-0.31.
    pip_typical_darkness: float = 0.85
    #: Pips are counted inside the half square shrunk by this fraction of its half-side.
    half_margin_rel: float = 0.02
    max_pips: int = 9

    # --- checks and confidence --------------------------------------------------------------
    #: Sample grid (n x n per half) used for the face cleanliness check.
    face_samples: int = 9
    #: The sample grid covers the half square shrunk by this fraction of its half-side.
    face_inset_rel: float = 0.22
    #: Largest fraction of face samples that may be dark and not a pip or the bar.
    face_max_dirt: float = 0.12
    #: A tile read at a place found without its bar (the outline, the pip lattice, a look
    #: either side of a seam) needs at least this share of a 5x5 grid over each half (0.4 of
    #: a width either way of its centre) brighter than the face threshold: a half over the
    #: table is none, whatever dark spots it holds (halves read right on synthetic double-nine
    #: scenes, pips 4 px or blur 2: at least 0.6, a 9's pips on the grid; ddd-dev's photos:
    #: 0.44; for instance, a "9" on the dark rim a deconvolved frame draws round a line and
    #: the table beyond it: 0.16).
    half_face_min: float = 0.3
    #: RMS error (in half-widths) of the pips against the fitted standard layout at which
    #: the layout factor of the confidence halves.
    layout_rms_soft: float = 0.12
    #: How far (log ratio) a half's fitted pip spacing may lie from the typical one with no
    #: penalty (every standard layout has the same spacing).
    spacing_free_log: float = 0.25
    #: A place of the 3x3 pip grid without a counted pip but darker than this fraction of the
    #: face brightness is a pip that could not be counted (blur, glare, too small)...
    ghost_level: float = 0.8
    #: ... where "without a pip" means no pip within this fraction of the pip spacing ...
    ghost_match_rel: float = 0.45
    #: ... and each such place multiplies the half's confidence by this.
    ghost_penalty: float = 0.4
    #: Tiles placed by their outline (blur) count as pips the dark peaks at least this
    #: fraction of the face brightness darker than the face (see vision.recognition.peaks).
    peak_contrast_rel: float = 0.2
    #: A tile placed by its outline with no pip in either half is a double blank only when
    #: its middle is darker than its faces by this many times their unevenness (its bar; see
    #: ``vision.recognition.peaks.bar_dip``): a tile lying face down has no bar.
    blank_bar_min_dip: float = 5.5
    #: A double blank's face must end at its sides and ends: looked at from each half's
    #: middle across each side and out of its end, from 0.35 to 0.65 of a width out, the
    #: darkest point is a share of the way from the face threshold up to the half's face
    #: (0: the table, a seam at the threshold) ...
    blank_edge_level: float = 0.95
    #: ... and where this many of those six looks find the face running on at
    #: ``blank_edge_level`` or above, the "double blank" is one tile's face crossed by
    #: another's edge (tiles lying face down, piled: their backs have no pips), not a tile
    #: (see :func:`vision.recognition.reader._blank_bounded`).
    blank_open_sides: int = 2
    #: A look from a double blank's half past its side that finds the face running on, along
    #: a dark line that carries its bar on past that side (darker than the face beside it,
    #: on the half's side, by this share of the way from the threshold up to the face), has
    #: met a back lying over another: the "bar" is that back's edge, not a tile's bar, which
    #: ends at the tile's sides (see :func:`vision.recognition.reader._bar_runs_on`).
    blank_bar_run_level: float = 0.4
    #: A double blank with this share or more of a band beyond one of its halves' sides or
    #: ends lit as face that no other tile read explains, or a tile with pips with such a
    #: band beyond each half, lies among backs (a pile of face-down tiles), not on a table
    #: (see :func:`vision.recognition.reader._free_face_beside`).
    free_face_max: float = 0.8
    #: A double blank dropped for face running on past its outline, read narrower than this
    #: share of the scene's tile width, is grown to that width and looked at again (see
    #: :func:`vision.recognition.reader._blanks_read_again`; double blanks read right span
    #: 0.83-1.14 of it in seed 1's sweep).
    blank_widen_below_rel: float = 0.8
    #: Tiles with a confidence below this are not reported.
    min_confidence: float = 0.25
    #: Two tiles whose centres are closer than this fraction of ``w`` are one tile.
    duplicate_distance_rel: float = 0.6
    #: Two readings of a tile are at the same place when each half's centre of one lies
    #: within this fraction of ``w`` of a half's centre of the other (a frame read both
    #: deconvolved and as it was: the surer reading of a place wins).
    same_place_max_rel: float = 0.25
    #: Two tiles overlapping by more than this fraction of a tile's area are one tile.
    overlap_max_rel: float = 0.25

    def __post_init__(self) -> None:
        problems: list[str] = []
        if self.white_threshold is not None and not 0 < self.white_threshold < 255:
            problems.append("white_threshold must be in 1..254 or null")
        if not 0 < self.white_threshold_min <= self.white_threshold_max < 255:
            problems.append("need 0 < white_threshold_min <= white_threshold_max < 255")
        if len(self.look_sharpen) != len(self.look_faint_ratio) or not all(
            0 < r < 1 for r in self.look_faint_ratio
        ):
            problems.append("look_sharpen and look_faint_ratio must be as long, ratios in (0, 1)")
        if not (self.blur_probe_px > 0 and self.deblur_noise_to_signal > 0):
            problems.append("blur_probe_px and deblur_noise_to_signal must be > 0")
        if not 1 <= self.upscale_factor <= 4:
            problems.append("upscale_factor must be in [1, 4]")
        if self.min_image_side_px < 8:
            problems.append("min_image_side_px must be >= 8")
        if not 0 < self.bar_min_rel < self.bar_max_rel <= 1.5:
            problems.append("need 0 < bar_min_rel < bar_max_rel <= 1.5")
        if not 0 < self.pip_min_area_rel < self.pip_max_area_rel < 0.5:
            problems.append("need 0 < pip_min_area_rel < pip_max_area_rel < 0.5")
        if not 0 < self.pip_min_fill <= 1:
            problems.append("pip_min_fill must be in (0, 1]")
        if not 0 <= self.half_face_min <= 1:
            problems.append("half_face_min must be in [0, 1]")
        if not 1 <= self.max_pips <= 12:
            problems.append("max_pips must be in 1..12")
        if not 3 <= self.face_samples <= 31:
            problems.append("face_samples must be in 3..31")
        if not 0 <= self.face_inset_rel < 1 or not 0 <= self.half_margin_rel < 0.5:
            problems.append("face_inset_rel must be in [0, 1) and half_margin_rel in [0, 0.5)")
        if not 0 <= self.min_confidence < 1:
            problems.append("min_confidence must be in [0, 1)")
        if self.tile_aspect < 1:
            problems.append("tile_aspect must be >= 1")
        if not 0 < self.far_width_rel <= 1 or not 1 <= self.far_aspect <= self.tile_aspect:
            problems.append("need 0 < far_width_rel <= 1 and 1 <= far_aspect <= tile_aspect")
        if self.pip_run_min_contrast >= 1 or self.centre_pip_min_contrast >= 1:
            problems.append("pip_run_min_contrast and centre_pip_min_contrast must be in [0, 1)")
        if self.centre_empty_max_contrast <= 0:
            problems.append("centre_empty_max_contrast must be > 0")
        if not 0 <= self.pip_min_darkness_rel < 1:
            problems.append("pip_min_darkness_rel must be in [0, 1)")
        if not 0 < self.pip_typical_darkness <= 1:
            problems.append("pip_typical_darkness must be in (0, 1]")
        if self.far_face_max_area_rel <= 0:
            problems.append("far_face_max_area_rel must be > 0")
        if not self.bar_split_levels or not all(0 < v <= 1 for v in self.bar_split_levels):
            problems.append("bar_split_levels must be a non-empty list of numbers in (0, 1]")
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, float) and not value >= 0:
                problems.append(f"{f.name} must be a non-negative number")
        if problems:
            raise RecognitionParamsError("invalid recognition parameters: " + "; ".join(problems))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RecognitionParams:
        """Build from a mapping of field names; ints are accepted for float fields."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise RecognitionParamsError(f"unknown recognition parameters: {', '.join(unknown)}")
        kwargs: dict[str, Any] = {}
        for name, raw in data.items():
            value = raw
            default = getattr(cls(), name)
            if isinstance(default, tuple):
                if not isinstance(value, list) or not all(
                    isinstance(v, int | float) and not isinstance(v, bool) for v in value
                ):
                    raise RecognitionParamsError(f"{name}: expected a list of numbers")
                kwargs[name] = tuple(float(v) for v in value)
                continue
            if isinstance(value, bool) or not isinstance(value, int | float | type(None)):
                raise RecognitionParamsError(f"{name}: expected a number, got {value!r}")
            if value is None and name != "white_threshold":
                raise RecognitionParamsError(f"{name}: may not be null")
            if isinstance(default, int) and isinstance(value, float):
                if not value.is_integer():
                    raise RecognitionParamsError(f"{name}: expected an integer, got {value!r}")
                value = int(value)
            if isinstance(default, float) and isinstance(value, int):
                value = float(value)
            kwargs[name] = value
        return cls(**kwargs)

    @classmethod
    def from_json(cls, text: str) -> RecognitionParams:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecognitionParamsError(f"recognition parameters are not JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise RecognitionParamsError("recognition parameters must be a JSON object")
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> RecognitionParams:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecognitionParamsError(
                f"cannot read recognition parameters {path}: {exc}"
            ) from exc
        return cls.from_json(text)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)
