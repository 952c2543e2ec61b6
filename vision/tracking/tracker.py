"""The pure scene tracker: from settled readings to typed events.

:class:`SceneTracker` is a pure state machine: it is told when motion starts, when motion has gone
on too long, and what a settled frame was read as; it keeps the line's geometry (the chain of tiles
from the left end to the right end, each end's attach point and direction) and emits events from
:mod:`vision.events`. It never invents a tile: anything it cannot place is reported as
:class:`~vision.events.Unsure`. It reads no file and no clock: the stream shell
(:mod:`vision.tracking.watcher`) feeds it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from vision.calibration.geometry import TableGeometry
from vision.events import (
    Coords,
    Corners,
    MotionStarted,
    SceneEvent,
    SceneSettled,
    TileAdded,
    TileMoved,
    TileRemoved,
    TilesRevealed,
    Unsure,
)
from vision.types import Point, SceneReading, TileReading


@dataclass(frozen=True, slots=True)
class TrackerParams:
    """Distances are in tile lengths, so they hold in millimetres and in pixels alike."""

    #: a tile of the last scene and one of this scene are the same if their centres are closer
    match_radius: float = 0.5
    #: a matched tile that moved more than this was nudged (TileMoved); less is the reader's
    #: own jitter: a still tile's outline can be read a quarter of its width apart from one
    #: photo to the next (measured on the ddd-dev sequences: 0.12-0.14 of a length)
    nudge_min: float = 0.2
    #: a new tile's joined half must be this close to an open end's attach point
    attach_max: float = 1.0
    #: settled scenes in a row that must miss a tile before it counts as removed
    missing_confirmations: int = 2
    #: readings less sure than this are not trusted (reported once, never added)
    min_confidence: float = 0.2
    #: a tile added with less confidence than this comes with an Unsure asking for a check
    doubt_below: float = 0.5
    #: when choosing the half that joins an end, a half whose pips differ from the end's number
    #: counts as this much further away (geometry decides; the rule breaks near-ties)
    mismatch_penalty: float = 0.3
    #: a new reading with a half this close (in tile widths) to a half of a tile of the line
    #: overlaps it: a misread, never a new tile (adjacent halves are a tile width apart)
    overlap_max: float = 0.5


@dataclass(frozen=True, slots=True)
class _Seen:
    """One tile of a reading, in tracker coordinates."""

    pips: tuple[int, int]
    halves: tuple[Point, Point]
    corners: Corners
    confidence: float

    @property
    def center(self) -> Point:
        (ax, ay), (bx, by) = self.halves
        return ((ax + bx) / 2.0, (ay + by) / 2.0)

    def same_tile(self, other: _Seen) -> bool:
        return sorted(self.pips) == sorted(other.pips)


@dataclass(frozen=True, slots=True)
class _End:
    attach: Point
    direction: Point
    open_pips: int


@dataclass(slots=True)
class _LineTile:
    seen: _Seen
    side: str  # "first", "left" or "right": the end it joined
    before: _End | None  # the end it replaced (to restore if it is taken back)
    laid: int = 0  # when it was laid: the line's tiles count up from 0
    missing: int = 0


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _unit(dx: float, dy: float) -> Point:
    n = math.hypot(dx, dy) or 1.0
    return (dx / n, dy / n)


@dataclass(slots=True)
class SceneTracker:
    """The line and the reveal zones as last seen settled; see the module docstring."""

    geometry: TableGeometry | None = None
    params: TrackerParams = field(default_factory=TrackerParams)
    line: list[_LineTile] = field(default_factory=list)  # from the left end to the right end
    ends: dict[str, _End] = field(default_factory=dict)
    revealed: dict[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    #: tiles seen in the play area that joined no open end (reported once, then remembered)
    strays: list[_Seen] = field(default_factory=list)
    #: readings too unsure to use (reported once, then remembered)
    doubtful: list[_Seen] = field(default_factory=list)
    _unseen: tuple[int, ...] = ()
    moving: bool = False

    @property
    def coords(self) -> Coords:
        return "mm" if self.geometry is not None and self.geometry.calibrated else "px"

    def chain(self) -> list[tuple[int, int]]:
        """The line's tiles from the left end to the right, each as read."""
        return [t.seen.pips for t in self.line]

    # -- corrections from the table (a person fixed a misread) ------------------------------

    def reset(self) -> None:
        """Forget everything (a new hand, or after a desync a person resolved): the next tile
        read in the play area opens the line."""
        self.line = []
        self.ends = {}
        self.revealed = {}
        self.strays = []
        self.doubtful = []
        self._unseen = ()

    def correct(self, read_as: tuple[int, int], actual: tuple[int, int]) -> bool:
        """A tile of the line read as ``read_as`` is really ``actual`` (a person said so): from
        now on it is matched, and its end's open number counted, as ``actual``. Returns whether
        such a tile was found."""
        for index, lt in enumerate(self.line):
            p0, p1 = lt.seen.pips
            if sorted((p0, p1)) != sorted(read_as):
                continue
            # keep each half where it lies: the pairing that changes fewer halves
            straight = (actual[0], actual[1])
            swapped = (actual[1], actual[0])
            agree = (
                int(straight[0] == p0) + int(straight[1] == p1),
                int(swapped[0] == p0) + int(swapped[1] == p1),
            )
            fixed = straight if agree[0] >= agree[1] else swapped
            lt.seen = _Seen(fixed, lt.seen.halves, lt.seen.corners, 1.0)
            for side, at in (("left", 0), ("right", len(self.line) - 1)):
                if index == at and side in self.ends:
                    e = self.ends[side]
                    self.ends[side] = _End(e.attach, e.direction, fixed[self._open_half(lt, side)])
            return True
        return False

    def _open_half(self, lt: _LineTile, side: str) -> int:
        """Which half of an end tile (0 or 1, as read) shows the open number of ``side``."""
        end = self.ends[side]
        d0 = _dist(lt.seen.halves[0], end.attach)
        d1 = _dist(lt.seen.halves[1], end.attach)
        return 0 if d0 < d1 else 1

    # -- inputs ------------------------------------------------------------------------------

    def motion_started(self, t: float) -> list[SceneEvent]:
        self.moving = True
        return [MotionStarted(t)]

    def motion_timeout(self, t: float, seconds: float) -> list[SceneEvent]:
        return [
            Unsure(
                t,
                f"motion over the table for {seconds:.1f} s without settling "
                "(a hand left in view?): no tile is read until it settles",
            )
        ]

    def settled(self, t: float, reading: SceneReading) -> list[SceneEvent]:
        """Compare a settled reading with the last and report what changed."""
        self.moving = False
        events: list[SceneEvent] = [SceneSettled(t, len(reading.tiles))]
        unit_l, unit_w = self._units(reading)
        seen_line: list[_Seen] = []
        seen_reveal: dict[int, list[_Seen]] = {}
        too_unsure: list[_Seen] = []
        for tile in reading.tiles:
            seen = self._convert(tile)
            if seen is None:
                continue
            if tile.confidence < self.params.min_confidence:
                too_unsure.append(seen)
                continue
            zone, seat = self._zone(seen.center)
            if zone == "reveal" and seat is not None:
                seen_reveal.setdefault(seat, []).append(seen)
            elif zone == "play":
                seen_line.append(seen)
        new_doubts, still_doubtful = _split_known(too_unsure, self.doubtful, 0.5 * unit_l)
        self.doubtful = still_doubtful + new_doubts
        for seen in new_doubts:
            events.append(
                Unsure(
                    t,
                    f"a tile at {_fmt(seen.center)} could not be read surely "
                    f"({_name(seen.pips)}, {seen.confidence:.2f})",
                    seen.pips,
                    seen.center,
                )
            )
        events.extend(self._update_line(t, seen_line, unit_l, unit_w))
        events.extend(self._update_reveals(t, seen_reveal))
        return events

    # -- helpers -----------------------------------------------------------------------------

    def _units(self, reading: SceneReading) -> tuple[float, float]:
        if self.coords == "mm" and self.geometry is not None:
            return (self.geometry.tile_length, self.geometry.tile_width)
        length = reading.tile_length_px
        if length <= 0:
            sides = [
                max(_dist(t.corners[0], t.corners[1]), _dist(t.corners[1], t.corners[2]))
                for t in reading.tiles
            ]
            all_sides = sides + [
                max(_dist(c[0], c[1]), _dist(c[1], c[2]))
                for c in (lt.seen.corners for lt in self.line)
            ]
            length = float(np.median(all_sides)) if all_sides else 1.0
        return (length, length / 2.0)

    def _convert(self, tile: TileReading) -> _Seen | None:
        halves = (tile.halves[0].center, tile.halves[1].center)
        corners = tile.corners
        if self.coords == "mm" and self.geometry is not None:
            pts = self.geometry.image_to_table([*halves, *corners])
            halves = (pts[0], pts[1])
            corners = (pts[2], pts[3], pts[4], pts[5])
        if not all(math.isfinite(v) for p in (*halves, *corners) for v in p):
            return None
        return _Seen(tile.pips, halves, corners, tile.confidence)

    def _zone(self, p: Point) -> tuple[str, int | None]:
        if self.coords != "mm" or self.geometry is None:
            return ("play", None)
        return self.geometry.zone_of(p)

    def _update_line(
        self, t: float, seen: list[_Seen], unit_l: float, unit_w: float
    ) -> list[SceneEvent]:
        p = self.params
        events: list[SceneEvent] = []
        unmatched = list(range(len(seen)))
        # 1. the tiles we know: found again (maybe nudged) or missing
        missing: list[_LineTile] = []
        pairs = sorted(
            (
                (_dist(lt.seen.center, s.center), li, si)
                for li, lt in enumerate(self.line)
                for si, s in enumerate(seen)
                if lt.seen.same_tile(s)
            ),
            key=lambda x: x[0],
        )
        matches: list[tuple[float, int, int]] = []
        taken: set[int] = set()
        for d, li, si in pairs:
            if d > p.match_radius * unit_l or li in taken or si not in unmatched:
                continue
            taken.add(li)
            unmatched.remove(si)
            matches.append((d, li, si))
        # Almost nothing of a line of 3+ is where it was: either something big covers it, or the
        # table was cleared for a new hand. Cleared once every tile has been missing (or
        # matched only by chance: the new hand may open with the same tile on the same spot)
        # for ``missing_confirmations`` settled scenes; until then nothing is added or removed.
        cleared = len(self.line) >= 3 and len(matches) <= 1
        confirmed_clear = cleared and all(
            lt.missing + 1 >= p.missing_confirmations for lt in self.line
        )
        hold = cleared and not confirmed_clear
        if confirmed_clear:
            unmatched = list(range(len(seen)))
            matches = []
        matched_line: set[int] = set()
        for d, li, si in matches:
            matched_line.add(li)
            lt = self.line[li]
            lt.missing = 0
            if d > p.nudge_min * unit_l:
                old = lt.seen.center
                new = seen[si]
                events.append(TileMoved(t, new.pips, old, new.center, new.corners, self.coords))
                self._follow_nudge(li, old, new)
            lt.seen = _Seen(lt.seen.pips, seen[si].halves, seen[si].corners, seen[si].confidence)
        for li, lt in enumerate(self.line):
            if li not in matched_line:
                lt.missing += 1
                missing.append(lt)
        # a known place now read as another tile: a misread or a swap, not a new move
        for si in [] if cleared else list(unmatched):
            s = seen[si]
            for lt in missing:
                if _dist(lt.seen.center, s.center) < 0.3 * unit_l:
                    events.append(
                        Unsure(
                            t,
                            f"tile {_name(lt.seen.pips)} at {_fmt(lt.seen.center)} now reads "
                            f"{_name(s.pips)}",
                            s.pips,
                            s.center,
                        )
                    )
                    unmatched.remove(si)
                    lt.missing = 0
                    break
        # Tiles lie flat and never overlap: a reading with a half on a half of the line (e.g.
        # two tiles read as one across their seam) is a misread of tiles already there.
        for si in [] if cleared else list(unmatched):
            s = seen[si]
            under = _overlapped(s, self.line, p.overlap_max * unit_w)
            if under is None:
                continue
            events.append(
                Unsure(
                    t,
                    f"tile {_name(s.pips)} read at {_fmt(s.center)} lies over tile "
                    f"{_name(under.seen.pips)} of the line: a misread, not a new tile",
                    s.pips,
                    s.center,
                )
            )
            unmatched.remove(si)
            if under.missing > 0:  # there, but read as part of another tile
                under.missing = 0
                missing.remove(under)
        gone = [] if hold else [lt for lt in missing if lt.missing >= p.missing_confirmations]
        if gone and len(gone) == len(self.line):
            # the whole line is gone: the table was cleared
            events.extend(TileRemoved(t, lt.seen.pips, lt.seen.corners, self.coords) for lt in gone)
            self.line = []
            self.ends = {}
            gone = []
        # Only the tile laid last can be taken back (a misplay put right), then the one before
        # it; any other is held by the play since: missing there means covered or misread (a
        # tile is far more often missed than taken back). It stays, reported, never removed.
        while gone:
            last = max(self.line, key=lambda lt: lt.laid)
            if last not in gone:
                break
            gone.remove(last)
            events.extend(self._remove(t, last))
        unseen = tuple(sorted(id(lt) for lt in self.line if lt.missing > 0))
        if unseen and unseen != self._unseen:
            names = ", ".join(_name(lt.seen.pips) for lt in self.line if lt.missing > 0)
            events.append(
                Unsure(
                    t, f"{len(unseen)} tile(s) of the line not seen: {names} (covered? misread?)"
                )
            )
        self._unseen = unseen
        if hold:
            return events  # the line is mostly out of sight: wait for a clearer view
        # 2. new tiles: join them to the open ends, nearest first
        fresh, self.strays = _split_known(
            [seen[si] for si in unmatched], self.strays, self.params.match_radius * unit_l
        )
        added = 0
        while fresh:
            if not self.line:
                first = min(fresh, key=self._centre_distance)
                fresh.remove(first)
                events.append(self._add_first(t, first))
                events.extend(self._doubt(t, first))
                added += 1
                continue
            best: tuple[float, float, _Seen, str, int] | None = None
            for s in fresh:
                for side, end in self.ends.items():
                    for hi in (0, 1):
                        d = _dist(s.halves[hi], end.attach) - unit_w / 2.0
                        fits = s.pips[hi] == end.open_pips
                        score = d + (0.0 if fits else p.mismatch_penalty * unit_l)
                        if best is None or score < best[0]:
                            best = (score, d, s, side, hi)
            assert best is not None
            _score, d, s, side, hi = best
            if d > p.attach_max * unit_l:
                break
            fresh.remove(s)
            events.append(self._attach(t, s, side, hi, unit_w))
            events.extend(self._doubt(t, s))
            added += 1
        for s in fresh:
            self.strays.append(s)
            events.append(
                Unsure(
                    t,
                    f"tile {_name(s.pips)} at {_fmt(s.center)} is not at an open end of the line",
                    s.pips,
                    s.center,
                )
            )
        if added > 1:
            events.append(
                Unsure(t, f"{added} tiles joined the line at once: their order is a guess")
            )
        return events

    def _doubt(self, t: float, s: _Seen) -> list[SceneEvent]:
        if s.confidence >= self.params.doubt_below:
            return []
        return [
            Unsure(
                t,
                f"tile {_name(s.pips)} added with low confidence {s.confidence:.2f}: please check",
                s.pips,
                s.center,
            )
        ]

    def _centre_distance(self, s: _Seen) -> float:
        if self.coords == "mm" and self.geometry is not None:
            return _dist(s.center, self.geometry.play_area.center)
        return 0.0

    def _add_first(self, t: float, s: _Seen) -> SceneEvent:
        (ax, ay), (bx, by) = s.halves
        axis = _unit(bx - ax, by - ay)
        length = _dist(s.halves[0], s.halves[1]) * 2.0
        width = length / 2.0
        if s.pips[0] == s.pips[1]:
            # a double opens crosswise: the line runs across its axis
            line_dir = (-axis[1], axis[0])
            if line_dir[0] < -1e-6 or (abs(line_dir[0]) <= 1e-6 and line_dir[1] < 0):
                line_dir = (-line_dir[0], -line_dir[1])
            c = s.center
            right = (c[0] + line_dir[0] * width / 2, c[1] + line_dir[1] * width / 2)
            left = (c[0] - line_dir[0] * width / 2, c[1] - line_dir[1] * width / 2)
            pips = s.pips
            self.ends = {
                "left": _End(left, (-line_dir[0], -line_dir[1]), pips[0]),
                "right": _End(right, line_dir, pips[1]),
            }
            orientation = math.degrees(math.atan2(line_dir[1], line_dir[0]))
            crosswise = True
        else:
            # the left end is the half further left (the upper half of an upright tile)
            swap = ax > bx if abs(axis[0]) >= 0.5 else ay > by
            lh, rh = (1, 0) if swap else (0, 1)
            pips = (s.pips[lh], s.pips[rh])
            d = _unit(s.halves[rh][0] - s.halves[lh][0], s.halves[rh][1] - s.halves[lh][1])
            q = length / 4.0
            self.ends = {
                "left": _End(
                    (s.halves[lh][0] - d[0] * q, s.halves[lh][1] - d[1] * q),
                    (-d[0], -d[1]),
                    pips[0],
                ),
                "right": _End((s.halves[rh][0] + d[0] * q, s.halves[rh][1] + d[1] * q), d, pips[1]),
            }
            orientation = math.degrees(math.atan2(d[1], d[0]))
            crosswise = False
        self.line = [_LineTile(s, "first", None)]
        return TileAdded(t, pips, "first", s.corners, orientation, crosswise, self.coords)

    def _attach(self, t: float, s: _Seen, side: str, joined_half: int, unit_w: float) -> SceneEvent:
        end = self.ends[side]
        near = s.halves[joined_half]
        far = s.halves[1 - joined_half]
        joined, open_pips = s.pips[joined_half], s.pips[1 - joined_half]
        axis = _unit(far[0] - near[0], far[1] - near[1])
        crosswise = False
        if (
            joined == open_pips
            and abs(axis[0] * end.direction[0] + axis[1] * end.direction[1]) < 0.5
        ):
            crosswise = True
            c = s.center
            attach = (c[0] + end.direction[0] * unit_w / 2, c[1] + end.direction[1] * unit_w / 2)
            direction = end.direction
            orientation = math.degrees(math.atan2(direction[1], direction[0]))
        else:
            q = _dist(near, far) / 2.0
            attach = (far[0] + axis[0] * q, far[1] + axis[1] * q)
            direction = axis
            orientation = math.degrees(math.atan2(axis[1], axis[0]))
        self.ends[side] = _End(attach, direction, open_pips)
        lt = _LineTile(s, side, end, max(x.laid for x in self.line) + 1)
        if side == "left":
            self.line.insert(0, lt)
        else:
            self.line.append(lt)
        return TileAdded(
            t,
            (joined, open_pips),
            "left" if side == "left" else "right",
            s.corners,
            orientation,
            crosswise,
            self.coords,
        )

    def _follow_nudge(self, li: int, old: Point, new: _Seen) -> None:
        """A nudged end tile carries its end's attach point along."""
        dx, dy = new.center[0] - old[0], new.center[1] - old[1]
        for side, index in (("left", 0), ("right", len(self.line) - 1)):
            if li == index and side in self.ends:
                e = self.ends[side]
                self.ends[side] = _End(
                    (e.attach[0] + dx, e.attach[1] + dy), e.direction, e.open_pips
                )

    def _remove(self, t: float, lt: _LineTile) -> list[SceneEvent]:
        events: list[SceneEvent] = [TileRemoved(t, lt.seen.pips, lt.seen.corners, self.coords)]
        index = next(i for i, x in enumerate(self.line) if x is lt)
        at_left = index == 0
        at_right = index == len(self.line) - 1
        del self.line[index]
        if not self.line:
            self.ends = {}
        elif at_left and lt.before is not None and lt.side == "left":
            self.ends["left"] = lt.before
        elif at_right and lt.before is not None and lt.side == "right":
            self.ends["right"] = lt.before
        else:
            events.append(Unsure(t, f"tile {_name(lt.seen.pips)} was taken from inside the line"))
        return events

    def _update_reveals(self, t: float, seen: dict[int, list[_Seen]]) -> list[SceneEvent]:
        events: list[SceneEvent] = []
        seats = set(seen) | set(self.revealed)
        for seat in sorted(seats):
            tiles = tuple(sorted(_sorted_pips(s.pips) for s in seen.get(seat, [])))
            if tiles == self.revealed.get(seat, ()):
                continue
            if tiles:
                events.append(TilesRevealed(t, seat, tiles))
                self.revealed[seat] = tiles
            else:
                self.revealed.pop(seat, None)
        return events


def _split_known(
    fresh: list[_Seen], known: list[_Seen], radius: float
) -> tuple[list[_Seen], list[_Seen]]:
    """``(new, still_known)``: the tiles of ``fresh`` not in ``known`` (same tile, within
    ``radius``), and the known ones seen again (updated; the others are forgotten)."""
    still: list[_Seen] = []
    out = list(fresh)
    for old in known:
        match = next(
            (s for s in out if s.same_tile(old) and _dist(s.center, old.center) < radius), None
        )
        if match is not None:
            out.remove(match)
            still.append(match)
    return out, still


def _overlapped(s: _Seen, line: Sequence[_LineTile], radius: float) -> _LineTile | None:
    """The tile of ``line`` that ``s`` lies over (a half of each within ``radius``), if any."""
    for lt in line:
        if any(_dist(a, b) < radius for a in s.halves for b in lt.seen.halves):
            return lt
    return None


def _sorted_pips(p: tuple[int, int]) -> tuple[int, int]:
    return (p[0], p[1]) if p[0] <= p[1] else (p[1], p[0])


def _name(p: tuple[int, int]) -> str:
    return f"{p[0]}-{p[1]}"


def _fmt(p: Point) -> str:
    return f"({p[0]:.0f}, {p[1]:.0f})"
