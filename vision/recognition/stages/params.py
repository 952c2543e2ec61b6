"""Parameters of the tile reader, in units of the scene's pip diameter ``d`` unless named."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class StagedParams:
    """Every threshold of the tile reader, in one place."""

    #: Images whose long side is shorter than this are enlarged to it first (pixels).
    min_side_px: int = 320
    #: The long side of the view the scale is measured on (pixels).
    scale_view_px: int = 640
    #: Pip diameter the frame is resampled to before reading (pixels).
    work_pip_px: float = 8.0
    #: A frame whose pips are at least ``min_enlarge`` times under ``work_pip_px`` is
    #: enlarged, by ``max_enlarge`` at most.
    min_enlarge: float = 1.2
    max_enlarge: float = 1.6
    #: Round blobs are looked for only round the light regions of a darker table: Otsu's split
    #: in a view this wide (pixels), holes filled, grown by ``table_margin`` of its width.
    table_view_px: int = 320
    table_margin: float = 0.01
    #: ... where the darker side's mean is under this share of the lighter's.
    table_dark_share: float = 0.5
    #: A working scale within this share of the finest view's is that view's (already resampled).
    view_snap: float = 0.05
    #: Pips seen smaller than this in that view, or a commonest size shared by fewer than
    #: ``min_view_support`` blobs, are measured again in a view twice as wide.
    min_view_pip_px: float = 4.5
    min_view_support: int = 8
    #: Round blobs whose log-diameters lie within this of each other form one size.
    pip_size_tolerance: float = 0.15
    #: Smallest pip diameter believed (input pixels): a 20 px wide tile's pips are 3 px.
    min_pip_px: float = 2.5
    #: A side or end is the nearest step at least this share of the strongest step there;
    #: each share proposes its own outline (a faint edge inside a shadow, a tilted side).
    step_shares: tuple[float, ...] = (0.35, 0.2)
    #: Fewest pips of one size that set the scale; with fewer, the bars do.
    min_pips_for_scale: int = 2
    #: Most common blob sizes read as the pip size.
    common_sizes: int = 2
    #: How far the blob detector's size of a dark disc runs over its diameter (pixels of the
    #: view it is found in: its contour runs round the light pixels just outside the disc).
    blob_bias: float = 1.0
    #: A reading of a frame wider than ``scale_view_px`` that leaves over this share of the pips
    #: seen outside every tile is read again at the scales seen closer (``blob_bias`` taken off
    #: the blobs' sizes among them); a smaller frame is, only where nothing was read.
    unexplained_share: float = 0.35
    #: With fewer pips than that, the sizes of this many of the largest round blobs are tried.
    lone_pip_guesses: int = 2
    #: A bar is this many pips long where it sets the scale; the longest segments give
    #: ``bar_guesses`` guesses.
    bar_length_d: float = 4.5
    bar_guesses: int = 3
    #: A bar's segment can fall short of its faint ends: the sizes bars suggest are believed
    #: down to this share of ``min_pip_px``.
    bar_seen_share: float = 0.8
    #: Closing kernel that removes pips and bars from the face image (in ``d``).
    close_d: float = 1.1
    #: Ink threshold as a share of the strongest ink contrast (99.7th percentile).
    ink_share: float = 0.33
    #: ... and at least this share of the pips' own contrast (few tiles on a wide table).
    bar_share: float = 0.2
    #: Lowest ink threshold (grey levels).
    ink_floor: float = 12.0
    #: Round blobs this many ``d`` across are pips, cleared from the thin ink with a margin.
    pip_size_range: tuple[float, float] = (0.6, 1.6)
    pip_margin_d: float = 0.15
    #: Thin ink counts only where the face is at least this share of the brightest faces.
    thin_lit_share: float = 0.6
    #: Shortest bar segment (in ``d``): a short tile with big pips has a bar about 2 pips long.
    bar_min_d: float = 1.8
    #: Longest bar; longer straight ink is a seam or a tile's side (in ``d``).
    bar_max_d: float = 8.0
    #: A straight run longer than this (in ``d``) may be two tiles' bars: its stretches
    #: between the gaps that cross it are tried as bars too.
    bar_split_d: float = 5.0
    #: ... and a gap at least this long (in ``d``) in the ink along such a run parts it (the
    #: bars of tiles side by side are collinear with a gap at the seam between them).
    bar_gap_d: float = 0.3
    #: Most straight segments considered (the longest), so a textured frame costs a bounded time.
    max_segments: int = 600
    #: Most segments one connected piece of thin ink gives (its longest).
    piece_segments: int = 32
    #: The face either side of a bar differs by at most this share of the brighter, or
    #: ``face_step_floor`` grey levels (a tile's edge has the table on one side).
    face_step_share: float = 0.12
    face_step_floor: float = 12.0
    #: A lit face alone is guessed to be one tile (its bar too faint to find) when its
    #: sides' ratio is within these and it fills ``lone_face_fill`` of its rectangle.
    lone_face_aspect: tuple[float, float] = (1.6, 2.5)
    lone_face_fill: float = 0.8
    #: A piece of lit face at least this many tiles' area (at the narrowest width) is looked
    #: at as a chain of touching tiles whose bars do not show.
    chain_min_tiles: float = 0.75
    #: ... its tiles this share of its commonest thickness wide, until tiles were read.
    chain_width_share: float = 0.85
    #: ... a bar guessed across it where it is this many widths across (a tile along it),
    #: along it where it is this many (a double across it, a turn).
    chain_one_wide: tuple[float, float] = (0.7, 1.4)
    chain_two_wide: tuple[float, float] = (1.6, 2.5)
    #: Collinear pieces this close across (in ``d``) are one bar.
    bar_merge_d: float = 0.6
    #: The tile width expected from the pip size alone: ``d / pip_width_ratio``.
    pip_width_ratio: float = 0.17
    #: Where a tile's side is looked for across the bar, as shares of the expected width.
    side_search: tuple[float, float] = (0.3, 0.85)
    #: ... and each side, as shares of the scene's width once tiles were read (second pass).
    side_search_known: tuple[float, float] = (0.35, 0.65)
    #: A bar is about this share of its tile's width (an outline guessed from its bar).
    bar_width_share: float = 0.8
    #: Where a tile's end is looked for along its axis, as shares of its measured width.
    end_search: tuple[float, float] = (0.8, 1.2)
    #: Tiles read before the scene's width is trusted for a second look.
    min_tiles_for_width: int = 3
    #: Rounds of tiles guessed where the lines of the tiles read go on, and the shifts
    #: along the line each guess is also tried at (shares of the width).
    line_rounds: int = 2
    line_shifts: tuple[float, ...] = (-0.2, 0.0, 0.2)
    #: Those rounds are taken where a pip lies outside every tile kept, or two kept tiles lie
    #: within this many widths (the widest's), centre to centre (in a line, 2 apart or closer).
    line_reach: float = 2.5
    #: ... each guess lying on faces (where a level tells them) at this share of its inside.
    guess_face_share: float = 0.75
    #: A tile read lies on the faces of a darker table at this share of its inside at least.
    tile_face_share: float = 0.6
    #: Accepted tile widths (in ``d``) and half lengths (shares of the width).
    width_d: tuple[float, float] = (3.0, 9.0)
    half_length: tuple[float, float] = (0.7, 1.4)
    #: A half is read from the bar to its measured end, trusted this much against the width
    #: (a shadow widens the outline more than it lengthens it).
    end_trust: float = 0.85
    #: Side of the square a half is resampled to for reading (pixels).
    half_px: int = 32
    #: Pip grid spacings tried (shares of the half's side) and centre shifts tried.
    grid_spacings: tuple[float, ...] = (0.24, 0.27, 0.30, 0.33)
    grid_shifts: tuple[float, ...] = (-0.08, -0.04, 0.0, 0.04, 0.08)
    #: Ink at a grid position is averaged over this share of a pip's diameter either side.
    pip_core: float = 0.3
    #: A half is blank when no position of the grid at ``blank_spacing`` (share of the half's
    #: side) has ink reaching ``blank_share`` of the ink threshold.
    blank_spacing: float = 0.27
    blank_share: float = 0.55
    #: A pip position's ink must reach this share of the threshold ...
    pip_share: float = 0.6
    #: ... and a free position's ink stay under this share of the weakest pip's.
    free_share: float = 0.5
    #: Share of a half's face that must be near the face's own level, leaving out
    #: ``face_margin`` of its side all round.
    face_margin: float = 0.1
    face_share: float = 0.8
    #: A pip this share of a tile's width outside it is still explained by it; one with more
    #: than ``loose_ring_ink`` of eight points a pip's diameter round it on ink or off the
    #: faces is no pip.
    loose_margin: float = 0.15
    loose_ring_ink: int = 2
    #: The learned half reader agrees with a half read when it gives that count at least this
    #: probability; a tile it does not agree with is reported unsure.
    agree_p: float = 0.5
    #: A half whose count the learned half reader gives less than this takes the count it
    #: gives at least ``adopt_p`` (pips off the grid; the tile is unsure); with none, the
    #: proposal is no tile (see :func:`~.pipeline.settle`).
    refute_p: float = 0.2
    adopt_p: float = 0.9
    #: A double blank round a bar seen whose outline is guessed from the bar (its edges not
    #: measured) needs the learned half reader to read both halves blank at least this.
    blank_guess_p: float = 0.97
    #: A double blank is reported sure only where it reads both halves blank at least this.
    blank_sure_p: float = 0.9
    #: Each blank half shows both its sides: across each, the grey level ranges by at least
    #: this share of how far the face there is from the table's level ...
    blank_side_share: float = 0.12
    #: ... and by at least this share of the ink level.
    blank_edge_share: float = 0.2
    #: Two proposals clash when they overlap by more than this share of a half's area.
    clash_share: float = 0.2
    #: A tile kept weighs ``1 + tile_conf_weight * confidence + tile_pip_weight * pips``: the
    #: kept set explains the most tiles and pips (a pip is firmer evidence than a margin).
    tile_conf_weight: float = 0.5
    tile_pip_weight: float = 0.3
    #: ... times ``doubt_weight + (1 - doubt_weight) * agree``: a tile the learned half reader
    #: does not read so (print, letters, a half and a shadow) weighs less.
    doubt_weight: float = 0.3
    #: ... and times this for a double with a tile's face beyond both ends (a seam in a line
    #: reads as one).
    inline_double_weight: float = 0.8
    #: ... and times this for a guessed outline with a count the learned half reader's.
    learned_guess_weight: float = 0.6
    #: Search steps the arbitration spends on one group of clashing tiles at most.
    arbitration_budget: int = 1000
    #: ... and to read a group again without one kept tile (the contest below).
    contest_budget: int = 100
    #: A kept tile is contested (unsure) when the best reading of its clash group without it
    #: weighs at least the kept reading's weight minus this.
    contest_margin: float = 0.5
    #: A double with a tile's face beyond both ends is reported unsure (a seam in a line).
    doubt_inline_doubles: bool = True
