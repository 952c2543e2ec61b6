"""One hand of dominoes: the rules of play, for known hands (simulation) and unknown hands
(an observed table, RULES.md section 5).

:class:`Hand` is mutable like python-chess's ``Board``: :meth:`Hand.push` checks and applies a move,
:meth:`Hand.copy` gives an independent hand for pure callers. It does no I/O, reads no clock and
draws no random numbers. The checks of where a tile may go are :mod:`controller.rules.placing`,
those of the tiles left at the end :mod:`controller.rules.leftover`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from controller.errors import IllegalMoveError
from controller.rules.leftover import renuncios_in, tiles_left
from controller.rules.line import Line
from controller.rules.moves import (
    Bonus,
    Draw,
    EndScore,
    HandEnd,
    HandResult,
    Move,
    Pass,
    Play,
    Renuncio,
)
from controller.rules.options import Boneyard, EndScoring, Rules
from controller.rules.placing import check_lead, choose_end
from controller.rules.scoring import FinishedHand, Tally, end_sum_points, score_hand
from controller.rules.tiles import Tile, pip_total

# Moves built on the hot path skip the Python-level ``__new__`` of named tuples.
_new = tuple.__new__


class Hand:
    """A hand in play.

    ``hands`` gives every seat's tiles (simulation, or a record with ``dealt``); ``None`` plays an
    observed table where only hand sizes are known. ``leaders`` are the seats allowed to make the
    first move, ``lead_tile`` the tile the first move must be (if any). ``scores_before`` are the
    match totals per side when the hand starts (for exact and mid-hand targets).
    """

    __slots__ = (
        "_capicua_seat",
        "_drew_this_turn",
        "_end_scoring",
        "_exempt",
        "_hands_hold_the_rest",
        "_held_known",
        "_lacks",
        "_last_player",
        "_pase_passes",
        "_pase_seat",
        "_passes_in_row",
        "_per_number",
        "_plays_only",
        "_seats",
        "_shown",
        "_tally",
        "_with_number",
        "boneyard",
        "boneyard_count",
        "counts",
        "end_scores",
        "hands",
        "lead_double_only",
        "lead_tile",
        "leader",
        "leaders",
        "line",
        "moves",
        "number",
        "on_table",
        "outcome",
        "outcome_seat",
        "renuncios",
        "rules",
        "turn",
    )

    def __init__(
        self,
        rules: Rules,
        *,
        hands: Sequence[Iterable[Tile]] | None = None,
        boneyard: Sequence[Tile] | None = None,
        leaders: Iterable[int] | None = None,
        lead_tile: Tile | None = None,
        lead_double_only: bool = False,
        scores_before: Sequence[int] | None = None,
        number: int = 0,
    ) -> None:
        self.rules = rules
        n = rules.seats
        self.number = number
        self.hands: list[set[Tile]] | None = None
        if hands is not None:
            self.hands = [set(h) for h in hands]
            if len(self.hands) != n:
                raise ValueError(f"{len(self.hands)} hands for {n} seats")
            self.counts = [len(h) for h in self.hands]
        else:
            self.counts = [rules.hand_size] * n
        undealt = len(rules.tileset.tiles) - n * rules.hand_size
        if rules.boneyard is Boneyard.NONE:
            self.boneyard: list[Tile] | None = None
            self.boneyard_count = 0
        elif boneyard is not None:
            self.boneyard = list(boneyard)
            self.boneyard_count = len(self.boneyard)
        else:
            self.boneyard = None
            self.boneyard_count = undealt
        self.leaders = frozenset(range(n) if leaders is None else leaders)
        self.lead_tile = lead_tile
        self.lead_double_only = lead_double_only
        self.leader: int | None = next(iter(self.leaders)) if len(self.leaders) == 1 else None
        self.turn: int | None = self.leader
        self.line = Line()
        self.moves: list[Move] = []
        self.on_table: set[Tile] = set()
        self.outcome: HandEnd | None = None
        self.outcome_seat: int | None = None
        self.end_scores: list[EndScore] = []
        self.renuncios: list[Renuncio] = []
        self._tally = Tally.start(rules, scores_before)
        self._passes_in_row = 0
        self._seats = n
        self._per_number = rules.max_pip + 1
        self._with_number = rules.tileset.with_number
        self._end_scoring = rules.end_scoring is not EndScoring.NONE
        self._plays_only = rules.boneyard is Boneyard.NONE and not rules.pass_when_able
        # Known hands hold every tile that is not on the table (once the boneyard is empty).
        self._hands_hold_the_rest = self.hands is not None and (
            rules.all_dealt or rules.boneyard is not Boneyard.NONE
        )
        # How many tiles carrying each number are on the table.
        self._shown = [0] * (rules.max_pip + 1)
        self._drew_this_turn = False
        self._last_player: int | None = None
        self._pase_seat: int | None = None
        self._pase_passes = 0
        self._capicua_seat: int | None = None
        # Observed play: numbers each seat showed it lacks (number -> move index), tiles known to
        # be held (seen drawn), and those exempt from a renuncio (drawn since).
        self._lacks: list[dict[int, int]] = [{} for _ in range(n)]
        self._held_known: list[set[Tile]] = [set() for _ in range(n)]
        self._exempt: list[set[Tile]] = [set() for _ in range(n)]

    # ----------------------------------------------------------------- queries

    @property
    def known(self) -> bool:
        return self.hands is not None

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def awarded(self) -> tuple[int, ...]:
        """Points gained per side so far in this hand (end sums, bonuses)."""
        return tuple(self._tally.awarded)

    @property
    def bonuses(self) -> tuple[Bonus, ...]:
        return tuple(self._tally.bonuses)

    @property
    def last_player(self) -> int | None:
        return self._last_player

    def copy(self) -> Hand:
        new = Hand.__new__(Hand)
        for name in Hand.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = None if self.hands is None else [set(h) for h in self.hands]
        new.counts = list(self.counts)
        new.boneyard = None if self.boneyard is None else list(self.boneyard)
        new.line = self.line.copy()
        new.moves = list(self.moves)
        new.on_table = set(self.on_table)
        new.end_scores = list(self.end_scores)
        new.renuncios = list(self.renuncios)
        new._tally = self._tally.copy()
        new._shown = list(self._shown)
        new._lacks = [dict(d) for d in self._lacks]
        new._held_known = [set(s) for s in self._held_known]
        new._exempt = [set(s) for s in self._exempt]
        return new

    def playable(self, seat: int) -> list[Tile]:
        """Tiles of a known hand that can be laid now (respecting the lead rules)."""
        assert self.hands is not None
        held = self.hands[seat]
        if self.line.empty:
            if seat not in self.leaders:
                return []
            if self.lead_tile is not None:
                return [self.lead_tile] if self.lead_tile in held else []
            if self.lead_double_only or self.rules.lead_double_if_held:
                doubles = [t for t in held if t.is_double]
                if doubles or self.lead_double_only:
                    return doubles
            return list(held)
        with_number = self._with_number
        fitting: set[Tile] = set()
        for n in self.line.numbers():
            fitting |= held & with_number[n]
        return list(fitting)

    def legal_moves(self) -> list[Move]:
        """Every legal move of a known hand (empty when the hand is over)."""
        if self.outcome is not None or self.hands is None:
            return []
        seat = self.turn
        if seat is not None and self.line.placements:
            with_number = self._with_number
            held = self.hands[seat]
            plays: list[Move] = [
                _new(Play, (seat, t, e, None))
                for e, n in self.line.end_items()
                for t in held & with_number[n]
            ]
            if self._plays_only and plays:
                return plays  # no boneyard and no passing while able: nothing else is legal
        seats = sorted(self.leaders) if self.turn is None else [self.turn]
        moves: list[Move] = []
        for seat in seats:
            if self.line.empty:
                moves.extend(Play(seat, t) for t in sorted(self.playable(seat)))
                continue
            with_number = self._with_number
            plays = [Play(seat, t, e) for t, e in self.line.joins(self.hands[seat], with_number)]
            moves.extend(plays)
            able = bool(plays)
            if self._may_draw(seat, able=able):
                moves.append(Draw(seat))
            if self._may_pass(able=able):
                moves.append(Pass(seat))
        return moves

    def _may_draw(self, seat: int, *, able: bool) -> bool:
        policy = self.rules.boneyard
        if policy is Boneyard.NONE or self.boneyard_count == 0 or self.line.empty:
            return False
        if policy is Boneyard.OPTIONAL:
            return True
        if able:
            return False
        return not (policy is Boneyard.DRAW_ONE and self._drew_this_turn)

    def _may_pass(self, *, able: bool) -> bool:
        if self.line.empty:
            return False
        if self.rules.pass_when_able:
            return True
        if able:
            return False
        policy = self.rules.boneyard
        if policy is Boneyard.DRAW_UNTIL_FITS:
            return self.boneyard_count == 0
        if policy is Boneyard.DRAW_ONE:
            return self._drew_this_turn or self.boneyard_count == 0
        return True

    def lacks(self, seat: int) -> list[int]:
        """Numbers ``seat`` has shown it does not hold (by passing), for spectators."""
        return sorted(self._lacks[seat])

    def remaining(self) -> list[list[Tile]] | None:
        """Tiles left per seat, for known hands."""
        if self.hands is None:
            return None
        return [sorted(h) for h in self.hands]

    # ----------------------------------------------------------------- moves

    def push_legal(self, move: Move) -> Move:
        """Apply a move taken from :meth:`legal_moves` without checking it again."""
        if isinstance(move, Play):
            return self._play(move, checked=True)
        return self.push(move)

    def push(self, move: Move) -> Move:
        """Check and apply ``move``. Returns the move as recorded (a simulated draw names its tile).

        Raises :class:`IllegalMoveError` naming the move and the reason; the hand is unchanged then.
        """
        if self.outcome is not None:
            raise IllegalMoveError(f"{move}: the hand is already over ({self.outcome})")
        seat = move.seat
        if not 0 <= seat < self.rules.seats:
            raise IllegalMoveError(f"{move}: there is no seat {seat}")
        if self.line.empty:
            if seat not in self.leaders:
                allowed = " or ".join(map(str, sorted(self.leaders)))
                raise IllegalMoveError(f"{move}: this hand is led by seat {allowed}")
        elif seat != self.turn:
            raise IllegalMoveError(f"{move}: out of turn, it is seat {self.turn}'s turn")
        if isinstance(move, Play):
            return self._play(move)
        if isinstance(move, Pass):
            return self._pass(move)
        return self._draw(move)

    def _check_tile_in_set(self, move: Move, tile: Tile) -> None:
        if tile not in self.rules.tileset:
            raise IllegalMoveError(f"{move}: {tile} is not in the double-{self.rules.max_pip} set")

    def _play(self, move: Play, *, checked: bool = False) -> Move:
        seat, tile = move.seat, move.tile
        end = move.end
        if not checked:
            self._check_tile_in_set(move, tile)
            if tile in self.on_table:
                raise IllegalMoveError(f"{move}: {tile} is already on the table")
            if self.hands is not None:
                if tile not in self.hands[seat]:
                    raise IllegalMoveError(f"{move}: seat {seat} does not hold {tile}")
            else:
                for other, held in enumerate(self._held_known):
                    if other != seat and tile in held:
                        raise IllegalMoveError(f"{move}: {tile} was drawn by seat {other}")
            if self.line.empty:
                check_lead(
                    move,
                    lead_tile=self.lead_tile,
                    lead_double_only=self.lead_double_only,
                    lead_double_if_held=self.rules.lead_double_if_held,
                    held=None if self.hands is None else self.hands[seat],
                )
                end = None
            else:
                end = choose_end(self.line, move)
        capicua = False
        if end is None:
            first = move.first_half if move.first_half in (tile.low, tile.high) else tile.low
            self.line.open(tile, seat, first_half=first, spinner=self.rules.spinner)
            self.leader = seat
            recorded = Play(seat, tile, None, first)
        else:
            if self.counts[seat] == 1:
                ends = self.line.open_ends
                capicua = len(ends) == 2 and len({ends[e] for e in self.line.fits(tile)}) == 2
            self.line.join(tile, end, seat, spinner=self.rules.spinner)
            recorded = move if move.end is end else Play(seat, tile, end)
        if self.hands is not None:
            self.hands[seat].discard(tile)
        else:
            self._held_known[seat].discard(tile)
            if self._lacks[seat]:
                self._check_renuncio(seat, tile, len(self.moves))
        self.counts[seat] -= 1
        self.on_table.add(tile)
        shown = self._shown
        shown[tile.low] += 1
        if tile.low != tile.high:
            shown[tile.high] += 1
        index = len(self.moves)
        self.moves.append(recorded)
        # A pase corrido shows when the player plays again after everyone else passed in turn.
        seats = self._seats
        pase = self._pase_passes == seats - 1 and self._pase_seat == seat
        self._pase_seat = seat
        self._pase_passes = 0
        self._passes_in_row = 0
        self._drew_this_turn = False
        self._last_player = seat
        self.turn = (seat + 1) % seats
        if pase:
            self._tally.bonus("pase_corrido", seat, self.rules.pase_corrido_bonus, index)
        if self._end_scoring:
            total = self.line.end_sum()
            points = end_sum_points(self.rules.end_scoring, total)
            if points:
                counted = self._tally.award(self.rules.side_of(seat), points)
                self.end_scores.append(
                    EndScore(index, seat, self.rules.side_of(seat), total, points, counted)
                )
        if self._tally.reached_target:
            self._end(HandEnd.TARGET, seat)
        elif self.counts[seat] == 0:
            self._capicua_seat = seat if capicua else None
            self._end(HandEnd.DOMINO, seat)
        elif (
            not self._hands_hold_the_rest
            or shown[self.line.placements[-1].outer] == self._per_number
        ) and self._blocked_now():
            # With every tile in a hand or on the table, only a newly exhausted number can block.
            self._end(HandEnd.BLOCK, seat)
        return recorded

    def _pass(self, move: Pass) -> Move:
        seat = move.seat
        if self.line.empty:
            raise IllegalMoveError(f"{move}: the leader cannot pass")
        if self.hands is not None:
            able = self.playable(seat)
            if able and not self.rules.pass_when_able:
                raise IllegalMoveError(f"{move}: seat {seat} can play {min(able)}")
            if not self._may_pass(able=bool(able)):
                raise IllegalMoveError(
                    f"{move}: seat {seat} must draw ({self.boneyard_count} in the boneyard)"
                )
        elif not self._may_pass(able=False):
            raise IllegalMoveError(
                f"{move}: seat {seat} must draw ({self.boneyard_count} in the boneyard)"
            )
        index = len(self.moves)
        self.moves.append(move)
        if not self.rules.pass_when_able:
            for n in self.line.numbers():
                self._lacks[seat].setdefault(n, index)
        self._passes_in_row += 1
        if self._pase_seat is not None:
            self._pase_passes += 1
        self._drew_this_turn = False
        self.turn = (seat + 1) % self.rules.seats
        if self._passes_in_row >= self.rules.seats:
            self._end(HandEnd.BLOCK, self._last_player)
        return move

    def _draw(self, move: Draw) -> Move:
        seat = move.seat
        policy = self.rules.boneyard
        if policy is Boneyard.NONE:
            raise IllegalMoveError(f"{move}: these rules have no boneyard")
        if self.line.empty:
            raise IllegalMoveError(f"{move}: nobody draws before the hand is opened")
        if self.boneyard_count == 0:
            raise IllegalMoveError(f"{move}: the boneyard is empty")
        if policy is Boneyard.DRAW_ONE and self._drew_this_turn:
            raise IllegalMoveError(f"{move}: only one tile may be drawn per turn")
        tile = move.tile
        if tile is not None:
            self._check_tile_in_set(move, tile)
            if tile in self.on_table:
                raise IllegalMoveError(f"{move}: {tile} is already on the table")
        if self.hands is not None:
            able = self.playable(seat)
            if able and policy is not Boneyard.OPTIONAL:
                raise IllegalMoveError(f"{move}: seat {seat} can play {min(able)}")
            assert self.boneyard is not None
            if tile is None:
                tile = self.boneyard.pop()
            elif tile in self.boneyard:
                self.boneyard.remove(tile)
            else:
                raise IllegalMoveError(f"{move}: {tile} is not in the boneyard")
            self.hands[seat].add(tile)
            self._lacks[seat].clear()  # what a spectator knows: the drawn tile is hidden
        else:
            for other, held in enumerate(self._held_known):
                if tile is not None and tile in held:
                    raise IllegalMoveError(f"{move}: {tile} was drawn by seat {other}")
            claims = policy is not Boneyard.OPTIONAL and not self.rules.pass_when_able
            if tile is None:
                self._lacks[seat].clear()
            else:
                if claims:
                    for n in self.line.numbers():
                        self._lacks[seat].setdefault(n, len(self.moves))
                self._exempt[seat].add(tile)
                self._held_known[seat].add(tile)
        self.boneyard_count -= 1
        self.counts[seat] += 1
        self._drew_this_turn = True
        recorded = Draw(seat, tile)
        self.moves.append(recorded)
        if self._blocked_now():
            self._end(HandEnd.BLOCK, self._last_player)
        return recorded

    # ----------------------------------------------------------------- bookkeeping

    def _check_renuncio(self, seat: int, tile: Tile, index: int) -> None:
        lacks = self._lacks[seat]
        if not lacks:
            return
        if tile in self._exempt[seat]:
            self._exempt[seat].discard(tile)
            return
        for n in (tile.low, tile.high):
            if n in lacks:
                self.renuncios.append(Renuncio(seat, lacks[n], index, tile, n))
                break

    def renuncios_in(self, left: Sequence[Iterable[Tile]]) -> list[Renuncio]:
        """False passes shown by the tiles left at the end (not drawn since the pass)."""
        return renuncios_in(left, lacks=self._lacks, exempt=self._exempt)

    def _blocked_now(self) -> bool:
        if self.line.empty:
            return False
        if self.boneyard_count > 0:
            return False
        if self.line.all_shown(self._shown, self._per_number):
            return True  # every tile of every open number is on the table: certain
        if self.hands is None or self._hands_hold_the_rest:
            # Observed (not certain), or a tile of an open number is in someone's hand.
            return False
        # Some tiles are out of play: look at the hands.
        with_number = self._with_number
        fitting: set[Tile] = set()
        for n in self.line.end_numbers():
            fitting |= with_number[n]
        return all(h.isdisjoint(fitting) for h in self.hands)

    def _end(self, outcome: HandEnd, seat: int | None) -> None:
        self.outcome = outcome
        self.outcome_seat = seat
        self.turn = None

    # ----------------------------------------------------------------- scoring

    def finish(self, left: Sequence[Iterable[Tile]] | None = None) -> HandResult:
        """Score the finished hand. ``left`` is what each seat revealed (required for an observed
        hand whose points depend on pips; checked against known hands)."""
        if self.outcome is None:
            raise IllegalMoveError("the hand is not over")
        remaining = tiles_left(
            left,
            rules=self.rules,
            hands=self.hands,
            counts=self.counts,
            on_table=self.on_table,
            held_known=self._held_known,
        )
        renuncios = list(self.renuncios)
        if remaining is not None and self.hands is None:
            renuncios.extend(self.renuncios_in(remaining))
        finished = FinishedHand(
            number=self.number,
            outcome=self.outcome,
            outcome_seat=self.outcome_seat,
            leader=self.leader if self.leader is not None else min(self.leaders),
            last_player=self._last_player,
            seat_pips=None if remaining is None else [pip_total(t) for t in remaining],
            capicua=self._capicua_seat is not None and self._capicua_seat == self.outcome_seat,
            moves=len(self.moves),
            end_scores=tuple(self.end_scores),
            renuncios=tuple(renuncios),
        )
        return score_hand(finished, self._tally)
