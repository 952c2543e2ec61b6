"""The table session: ``step(state, input) -> (new_state, effects)``.

Pure: no I/O, no clock (time comes in the inputs), no randomness. A restart replays the journal's
inputs through :func:`step` and lands on the same state.

What the camera cannot know, the session never guesses: a tile is attributed to the seat whose
turn it is; when the rules let several seats lead and nobody said who did, moves carry provisional
seats until a button press, the reveal or an API command settles it (then every seat is rotated
at once). Anything that does not fit (an illegal tile, two tiles at once, a tile taken from the
line, a button pressed by the wrong seat) raises an alert and the table waits until it is put
right; no move is invented or dropped. See docs/runtime.md for the gesture table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from controller.errors import ControllerError, IllegalMoveError
from controller.rules.hand import Hand
from controller.rules.line import End
from controller.rules.moves import Draw, HandEnd, Move, Pass, Play
from controller.rules.options import build_rules
from controller.rules.record import MatchRecord, Replay, hand_to_json, move_to_json, record_to_json
from controller.rules.tiles import Tile
from controller.table import state as st
from controller.table.effects import (
    CorrectVision,
    DomainEvent,
    Effect,
    Emit,
    PublishState,
    SetLeds,
)
from controller.table.inputs import (
    Button,
    ConfirmReveal,
    CorrectTile,
    Laid,
    Link,
    NewMatch,
    Pips,
    Revealed,
    SetLeader,
    TableInput,
    TileNudged,
    TilesLaid,
    TileTaken,
    UndoLast,
    VisionUnsure,
)
from controller.table.leds import leds_of
from controller.table.queries import derived_alerts, reveal_status
from controller.table.queries import seat_name as _name
from controller.table.snapshot import snapshot
from controller.table.state import (
    Alert,
    HandState,
    MatchState,
    Stray,
    TableState,
)

MAX_NOTICES = 5


class _Out:
    """What one step says: domain events (numbered later) and vision corrections."""

    def __init__(self, t: float) -> None:
        self.t = t
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.vision: list[CorrectVision] = []
        self.notices: list[Alert] = []
        self.moved = False

    def event(self, kind: str, /, **data: Any) -> None:
        self.events.append((kind, data))

    def notice(self, kind: str, message: str, seat: int | None = None) -> None:
        self.notices.append(Alert(kind, message, seat, False, self.t))


def initial_state(table: str = "table-1") -> TableState:
    return TableState(table=table)


def step(state: TableState, inp: TableInput) -> tuple[TableState, list[Effect]]:
    """Apply one input. Never raises for bad input: it becomes an alert."""
    out = _Out(inp.t)
    before = {a.key: a for a in derived_alerts(state)}
    new = _dispatch(state, inp, out)
    notices = () if out.moved else new.notices
    notices = (*notices, *out.notices)[-MAX_NOTICES:]
    new = replace(new, t=max(state.t, inp.t), inputs=state.inputs + 1, notices=notices)
    after = {a.key: a for a in derived_alerts(new)}
    for key, alert in after.items():
        if key not in before:
            out.event("alert", **_alert_event(alert))
    for notice in out.notices:
        out.event("alert", **_alert_event(notice))
    for key, alert in before.items():
        if key not in after:
            out.event("alert_cleared", **_alert_event(alert))
    effects: list[Effect] = []
    seq = state.seq
    for kind, data in out.events:
        seq += 1
        effects.append(Emit(DomainEvent(seq, inp.t, kind, data)))
    leds = leds_of(new)
    new = replace(new, seq=seq, leds=leds)
    if leds != state.leds:
        effects.insert(0, SetLeds(leds))
    effects.extend(out.vision)
    if seq != state.seq:
        effects.append(PublishState(snapshot(new)))
    return new, effects


def replay_inputs(inputs: Sequence[TableInput], state: TableState | None = None) -> TableState:
    """The state after ``inputs`` (what a restart does with the journal)."""
    current = state or initial_state()
    for inp in inputs:
        current, _ = step(current, inp)
    return current


def _alert_event(alert: Alert) -> dict[str, Any]:
    """An alert in an event (``kind`` there names the event, so the alert's kind is ``alert``)."""
    return {
        "alert": alert.kind,
        "message": alert.message,
        "seat": alert.seat,
        "blocking": alert.blocking,
    }


# --- dispatch -------------------------------------------------------------------------------


def _dispatch(state: TableState, inp: TableInput, out: _Out) -> TableState:
    if isinstance(inp, Link):
        if inp.up == state.link_up and inp.detail == state.link_detail:
            return state
        out.event("device", link="up" if inp.up else "down", detail=inp.detail)
        return replace(state, link_up=inp.up, link_detail=inp.detail)
    if isinstance(inp, NewMatch):
        return _new_match(state, inp, out)
    if isinstance(inp, VisionUnsure):
        out.notice(st.UNSURE, f"camera unsure: {inp.reason}")
        return state
    if isinstance(inp, TileNudged):
        return state
    ms = state.match
    if ms is None:
        out.notice(st.REJECTED, f"no match has started: {type(inp).__name__} ignored")
        return state
    if ms.hand is None:
        # the match is over: nothing more is a move
        if isinstance(inp, TileTaken) and Tile.of(*inp.pips) in ms.clearing:
            return replace(state, match=_unclear(ms, Tile.of(*inp.pips)))
        if isinstance(inp, TilesLaid | Button):
            out.notice(st.REJECTED, "the match is over: start a new one")
        return state
    if isinstance(inp, TilesLaid):
        new_ms = _tiles_laid(ms, ms.hand, inp.tiles, out)
    elif isinstance(inp, TileTaken):
        new_ms = _tile_taken(ms, ms.hand, Tile.of(*inp.pips), out)
    elif isinstance(inp, Revealed):
        new_ms = _revealed(ms, ms.hand, inp, out)
    elif isinstance(inp, Button):
        new_ms = _button(ms, ms.hand, inp, out)
    elif isinstance(inp, CorrectTile):
        new_ms = _correct(ms, ms.hand, inp, out)
    elif isinstance(inp, UndoLast):
        new_ms = _undo(ms, ms.hand, None, out)
    elif isinstance(inp, ConfirmReveal):
        new_ms = _confirm(ms, ms.hand, inp, out)
    else:
        new_ms = _set_leader(ms, ms.hand, inp, out)
    if new_ms.hand is not None and new_ms.hand.engine.over:
        # the hand may have ended with every tile already shown, or on the target
        new_ms = _score(new_ms, new_ms.hand, out, force=False, by=None)
    return replace(state, match=new_ms)


def _new_match(state: TableState, inp: NewMatch, out: _Out) -> TableState:
    try:
        rules = build_rules(inp.preset, inp.options)
    except ControllerError as exc:
        out.notice(st.REJECTED, f"new match refused: {exc}")
        return state
    names = inp.seats or tuple(f"Seat {i + 1}" for i in range(rules.seats))
    if len(names) != rules.seats:
        out.notice(st.REJECTED, f"new match refused: {len(names)} names for {rules.seats} seats")
        return state
    clearing: tuple[Tile, ...] = ()
    old = state.match
    if old is not None:
        clearing = old.clearing
        if old.hand is not None:
            clearing += tuple(sorted(old.hand.engine.on_table))
    ms = MatchState(rules, tuple(names), clearing=clearing, leader_hint=inp.leader)
    leader = inp.leader
    probe = st.new_hand_state(ms)
    if leader is not None and leader not in probe.leaders:
        out.notice(
            st.REJECTED,
            f"Seat {leader + 1} cannot lead under these rules: ignored",
        )
        leader = None
    hs = st.new_hand_state(ms, leader)
    out.event(
        "match_started",
        rules=rules.preset,
        options=rules.overrides(),
        seats=list(names),
        target=rules.target,
    )
    _hand_started(hs, out)
    out.moved = True
    return replace(state, match=replace(ms, hand=hs))


def _hand_started(hs: HandState, out: _Out) -> None:
    out.event(
        "hand_started",
        hand=hs.number + 1,
        leaders=sorted(hs.engine.leaders),
        leader_known=hs.leader_known,
        lead_tile=None if hs.engine.lead_tile is None else str(hs.engine.lead_tile),
    )


def _unclear(ms: MatchState, tile: Tile) -> MatchState:
    rest = list(ms.clearing)
    rest.remove(tile)
    return replace(ms, clearing=tuple(rest))


# --- tiles ----------------------------------------------------------------------------------


def _turn_seat(hs: HandState) -> int:
    """The seat a tile laid now is attributed to (provisional while the leader is unknown)."""
    eng = hs.engine
    if eng.turn is not None:
        return eng.turn
    return min(eng.leaders)


def _tiles_laid(ms: MatchState, hs: HandState, tiles: Sequence[Laid], out: _Out) -> MatchState:
    pending: list[Laid] = []
    for laid in tiles:
        tile = Tile.of(*laid.pips)
        if tile in hs.missing:
            rest = list(hs.missing)
            rest.remove(tile)
            hs = replace(hs, missing=tuple(rest))
            out.event("tile_restored", tile=str(tile))
        else:
            pending.append(laid)
    if any(laid.end == "first" for laid in pending) and ms.clearing:
        ms = replace(ms, clearing=())  # the camera started a new line: the old one is gone
    if len(pending) > 1:
        strays = tuple(
            Stray(
                laid.pips,
                laid.end,
                st.TWO_AT_ONCE,
                f"{len(pending)} tiles laid at once: take back the one laid out of turn",
            )
            for laid in pending
        )
        return replace(ms, hand=replace(hs, strays=hs.strays + strays))
    if not pending:
        return replace(ms, hand=hs)
    laid = pending[0]
    return replace(ms, hand=_lay(ms, hs, laid, out))


def _lay(ms: MatchState, hs: HandState, laid: Laid, out: _Out) -> HandState:
    """One tile laid: a move when everything is in order, otherwise a stray that blocks play."""
    eng = hs.engine

    def stray(kind: str, reason: str, seat: int | None = None) -> HandState:
        return replace(hs, strays=(*hs.strays, Stray(laid.pips, laid.end, kind, reason, seat)))

    if hs.blocked:
        return stray(
            st.WHILE_WAITING, "laid while the table waits for another tile to be put right"
        )
    if eng.over:
        return stray(st.OUT_OF_TURN, "the hand is over: reveal the tiles left instead")
    if eng.line.empty and laid.end != "first":
        return stray(st.OUT_OF_TURN, "joined to a line that is not in play: clear the table")
    if not eng.line.empty and laid.end == "first":
        return stray(st.OUT_OF_TURN, "the camera saw a new line start: clear the table")
    seat = _turn_seat(hs)
    move = st.play_of(seat, laid.pips, laid.end)
    try:
        new_eng, recorded = st.try_push(eng, move)
    except IllegalMoveError as exc:
        # the seat is known only once the leader is: otherwise every seat blinks
        return stray(st.ILLEGAL_TILE, f"illegal: {exc}", seat if hs.leader_known else None)
    return _applied(ms, hs, new_eng, recorded, out)


def _applied(ms: MatchState, hs: HandState, new_eng: Hand, recorded: Move, out: _Out) -> HandState:
    """Announce a move the engine accepted and what it revealed."""
    old = hs.engine
    moves = (*hs.moves, recorded)
    hs = replace(hs, engine=new_eng, moves=moves)
    out.moved = True
    _announce_move(hs, recorded, len(moves), out)
    for r in new_eng.renuncios[len(old.renuncios) :]:
        out.event("renuncio", **r.to_json(), message=str(r))
        out.notice(st.RENUNCIO, str(r), r.seat)
    for b in new_eng.bonuses[len(old.bonuses) :]:
        out.event(b.kind, **b.to_json())
    for e in new_eng.end_scores[len(old.end_scores) :]:
        out.event("end_score", **e.to_json())
    if new_eng.over and not old.over:
        out.event(
            "hand_over",
            hand=hs.number + 1,
            outcome=str(new_eng.outcome),
            seat=new_eng.outcome_seat,
            counts=list(new_eng.counts),
        )
    return hs


def _announce_move(hs: HandState, move: Move, number: int, out: _Out) -> None:
    data: dict[str, Any] = {
        "hand": hs.number + 1,
        "move": number,
        "seat": move.seat,
        "seat_known": hs.leader_known,
        **{k: v for k, v in move_to_json(move).items() if k != "seat"},
    }
    if isinstance(move, Play):
        out.event("tile_played", **data)
    elif isinstance(move, Pass):
        out.event("pass", **data)
    else:
        out.event("draw", **data)


def _tile_taken(ms: MatchState, hs: HandState, tile: Tile, out: _Out) -> MatchState:
    for i, s in enumerate(hs.strays):
        if s.tile == tile:
            hs = replace(hs, strays=hs.strays[:i] + hs.strays[i + 1 :])
            out.event("tile_taken_back", tile=str(tile))
            return replace(ms, hand=_retry(ms, hs, out))
    if tile in hs.take_back:
        rest_t = list(hs.take_back)
        rest_t.remove(tile)
        out.event("tile_taken_back", tile=str(tile))
        return replace(ms, hand=_retry(ms, replace(hs, take_back=tuple(rest_t)), out))
    if tile in ms.clearing:
        return _unclear(ms, tile)
    if hs.engine.over and tile in hs.engine.on_table and tile not in hs.gone:
        # the line is finished: clearing it before the score is in is no problem
        return replace(ms, hand=replace(hs, gone=(*hs.gone, tile)))
    if tile in hs.engine.on_table and tile not in hs.missing:
        out.event("tile_removed", tile=str(tile))
        return replace(ms, hand=replace(hs, missing=(*hs.missing, tile)))
    out.notice(st.UNSURE, f"the camera saw {tile} leave the line, but it was not in play")
    return ms


_RETRYABLE = (st.TWO_AT_ONCE, st.WHILE_WAITING)


def _retry(ms: MatchState, hs: HandState, out: _Out) -> HandState:
    """Once the only tile left set aside is one that was merely laid at a bad moment (one of
    two laid at once, or laid while another problem waited), it is the turn's move after all."""
    if len(hs.strays) != 1 or hs.missing or hs.take_back or hs.strays[0].kind not in _RETRYABLE:
        return hs
    left = hs.strays[0]
    return _lay(ms, replace(hs, strays=()), Laid(left.pips, left.end), out)


# --- buttons --------------------------------------------------------------------------------


def _button(ms: MatchState, hs: HandState, inp: Button, out: _Out) -> MatchState:
    n = ms.rules.seats
    seat = inp.seat
    if not 0 <= seat < n:
        out.notice(st.WRONG_SEAT, f"a button of Seat {seat + 1} pressed, but only {n} seats play")
        return ms
    if hs.engine.over:
        if inp.gesture == "short":
            unread = [
                s
                for s in range(n)
                if hs.reveals[s] is None and hs.engine.counts[s] > 0 and hs.leader_known
            ]
            if unread or (not hs.leader_known and not any(hs.reveals)):
                who = ", ".join(_name(ms, s) for s in unread) or "every seat"
                out.notice(st.REJECTED, f"show the tiles left first ({who})", seat)
                return ms
            return _score(ms, hs, out, force=True, by=_name(ms, seat))
        if hs.reveals[seat] is None:
            out.notice(st.REJECTED, f"{_name(ms, seat)}: no reading of your tiles to reject", seat)
            return ms
        reveals = list(hs.reveals)
        reveals[seat] = None
        out.event("reveal_rejected", seat=seat)
        return replace(ms, hand=replace(hs, reveals=tuple(reveals)))
    if inp.gesture == "long":
        return _misread(ms, hs, seat, out)
    if inp.gesture == "double":
        return _undo(ms, hs, seat, out)
    if hs.blocked:
        out.notice(
            st.WRONG_SEAT,
            f"{_name(ms, seat)} pressed, but the table waits for {hs.waiting_for()}",
            seat,
        )
        return ms
    eng = hs.engine
    if eng.line.empty:
        if hs.leader_known:
            if seat == eng.leader:
                out.notice(st.REJECTED, f"{_name(ms, seat)} leads: lay the opening tile", seat)
            else:
                out.notice(
                    st.WRONG_SEAT,
                    f"{_name(ms, seat)} pressed, but {_name(ms, eng.leader)} leads",
                    seat,
                )
            return ms
        if seat not in hs.leaders:
            out.notice(st.WRONG_SEAT, f"{_name(ms, seat)} cannot lead this hand", seat)
            return ms
        return replace(
            ms, hand=_make_leader(ms, hs, seat, out, how=f"claimed by {_name(ms, seat)}")
        )
    if not hs.leader_known:
        # the first pass tells who is who: the presser is the seat whose turn it is
        assert eng.turn is not None
        leader = (st.provisional_leader(hs) or 0) + seat - eng.turn
        if leader % n not in hs.leaders:
            out.notice(
                st.WRONG_SEAT, f"{_name(ms, seat)} cannot be on turn here (bad leader)", seat
            )
            return ms
        hs = _make_leader(ms, hs, leader % n, out, how=f"{_name(ms, seat)} pressed on its turn")
        eng = hs.engine
    if seat != eng.turn:
        out.notice(
            st.WRONG_SEAT,
            f"{_name(ms, seat)} pressed, but it is {_name(ms, eng.turn)}'s turn: nothing recorded",
            seat,
        )
        return replace(ms, hand=hs)
    candidates: list[Move] = [Pass(seat)]
    if st.must_draw(ms.rules):
        candidates.insert(0, Draw(seat, None))
    reasons = []
    for move in candidates:
        try:
            new_eng, recorded = st.try_push(eng, move)
        except IllegalMoveError as exc:
            reasons.append(str(exc))
            continue
        return replace(ms, hand=_applied(ms, hs, new_eng, recorded, out))
    out.notice(st.REJECTED, f"{_name(ms, seat)}: {'; '.join(reasons)}", seat)
    return replace(ms, hand=hs)


def _make_leader(ms: MatchState, hs: HandState, leader: int, out: _Out, *, how: str) -> HandState:
    """Fix who led: rotate the provisional seats so the hand was led by ``leader``."""
    n = ms.rules.seats
    prov = st.provisional_leader(hs)
    delta = 0 if prov is None else (leader - prov) % n
    moves = st.rotate_moves(hs.moves, delta, n)
    strays = tuple(
        replace(s, seat=None if s.seat is None else (s.seat + delta) % n) for s in hs.strays
    )
    engine = st.rebuild(ms, hs, moves, frozenset({leader}))
    out.event("leader_known", hand=hs.number + 1, leader=leader, how=how)
    return replace(hs, engine=engine, moves=moves, leader_known=True, strays=strays)


def _set_leader(ms: MatchState, hs: HandState, inp: SetLeader, out: _Out) -> MatchState:
    if inp.seat not in hs.leaders:
        out.notice(st.REJECTED, f"{_name(ms, inp.seat)} cannot lead this hand")
        return ms
    try:
        return replace(ms, hand=_make_leader(ms, hs, inp.seat, out, how="set by a person"))
    except IllegalMoveError as exc:
        out.notice(st.REJECTED, f"{_name(ms, inp.seat)} cannot have led: {exc}")
        return ms


def _misread(ms: MatchState, hs: HandState, seat: int, out: _Out) -> MatchState:
    """Long press: 'that is not what I played'. The last tile read is set aside (a stray) until it
    is taken back and laid again, or a person corrects it through the API."""
    if not hs.moves or not isinstance(hs.moves[-1], Play) or hs.blocked:
        out.notice(st.REJECTED, f"{_name(ms, seat)}: no tile to read again just now", seat)
        return ms
    last = hs.moves[-1]
    assert isinstance(last, Play)
    moves = hs.moves[:-1]
    engine = st.rebuild(ms, hs, moves, hs.engine.leaders)
    pips, end = _laid_form(hs.engine, last)
    stray = Stray(
        pips,
        end,
        st.MISREAD,
        f"{_name(ms, seat)} says this is not what was played: take it back and lay it again, "
        "or correct it",
        last.seat if hs.leader_known else None,
    )
    out.event("misread", seat=seat, tile=str(last.tile), move=len(hs.moves))
    return replace(ms, hand=replace(hs, engine=engine, moves=moves, strays=(*hs.strays, stray)))


def _laid_form(engine: Hand, play: Play) -> tuple[Pips, Any]:
    """How the camera reported a play: (joined, open) and the end."""
    if play.end is None:
        first = play.first_half if play.first_half is not None else play.tile.low
        return (first, play.tile.other(first)), "first"
    placement = next(p for p in engine.line.placements if p.tile == play.tile)
    return (play.tile.other(placement.outer), placement.outer), play.end.value


def _undo(ms: MatchState, hs: HandState, seat: int | None, out: _Out) -> MatchState:
    """Undo the last move (double press by the seat that made it, or the API)."""
    if not hs.moves:
        out.notice(st.REJECTED, "nothing to undo in this hand")
        return ms
    last = hs.moves[-1]
    if seat is not None and hs.leader_known and last.seat != seat:
        out.notice(
            st.WRONG_SEAT,
            f"{_name(ms, seat)} cannot undo {_name(ms, last.seat)}'s move ({last})",
            seat,
        )
        return ms
    moves = hs.moves[:-1]
    leaders = hs.engine.leaders if moves else (hs.engine.leaders if hs.leader_known else hs.leaders)
    engine = st.rebuild(ms, hs, moves, leaders)
    take_back = hs.take_back
    missing = hs.missing
    if isinstance(last, Play):
        if last.tile in missing:
            rest = list(missing)
            rest.remove(last.tile)
            missing = tuple(rest)
        else:
            take_back = (*take_back, last.tile)
    out.event("undo", move=len(hs.moves), undone=move_to_json(last), by=seat)
    out.moved = True
    return replace(
        ms,
        hand=replace(
            hs,
            engine=engine,
            moves=moves,
            take_back=take_back,
            missing=missing,
            reveals=(None,) * ms.rules.seats if hs.engine.over else hs.reveals,
        ),
    )


# --- corrections from the API ---------------------------------------------------------------


def _correct(ms: MatchState, hs: HandState, inp: CorrectTile, out: _Out) -> MatchState:
    try:
        actual = ms.rules.tileset.parse(inp.actual)
        read_as = None if inp.read_as is None else ms.rules.tileset.parse(inp.read_as)
    except ControllerError as exc:
        out.notice(st.REJECTED, f"correction refused: {exc}")
        return ms
    if inp.move is not None:
        return _correct_move(ms, hs, inp.move, actual, out)
    # a tile set aside (illegal, misread, two at once) first
    for i, s in enumerate(reversed(hs.strays)):
        if read_as is None or s.tile == read_as:
            index = len(hs.strays) - 1 - i
            pips = _reoriented(hs.engine, s.pips, s.end, actual)
            out.vision.append(CorrectVision(s.pips, pips))
            out.event("correction", read_as=str(s.tile), actual=str(actual))
            rest = hs.strays[:index] + hs.strays[index + 1 :]
            hs = replace(hs, strays=rest)
            if len(rest) == 1 and rest[0].kind == st.TWO_AT_ONCE:
                return replace(ms, hand=replace(hs, strays=(*rest, replace(s, pips=pips))))
            return replace(ms, hand=_lay(ms, hs, Laid(pips, s.end), out))
    if not hs.moves or not isinstance(hs.moves[-1], Play):
        out.notice(st.REJECTED, "correction refused: the last move is not a tile")
        return ms
    last = hs.moves[-1]
    assert isinstance(last, Play)
    if read_as is not None and last.tile != read_as:
        out.notice(st.REJECTED, f"correction refused: the last tile played is {last.tile}")
        return ms
    pips, end = _laid_form(hs.engine, last)
    fixed = _reoriented(hs.engine, pips, end, actual)
    moves = (*hs.moves[:-1], st.play_of(last.seat, fixed, end))
    try:
        engine = st.rebuild(ms, hs, moves, hs.engine.leaders)
    except IllegalMoveError as exc:
        out.notice(st.REJECTED, f"correction refused: {exc}")
        return ms
    out.vision.append(CorrectVision(pips, fixed))
    out.event("correction", read_as=str(last.tile), actual=str(actual), move=len(moves))
    out.moved = True
    return replace(ms, hand=replace(hs, engine=engine, moves=moves))


def _correct_move(
    ms: MatchState, hs: HandState, number: int, actual: Tile, out: _Out
) -> MatchState:
    """Move ``number`` of the hand was really ``actual``: the hand is played again from its
    start with that tile, every later move re-checked, and scored again; refused (nothing
    changes) when the hand would then be illegal."""
    if not 1 <= number <= len(hs.moves):
        out.notice(
            st.REJECTED, f"correction refused: this hand has {len(hs.moves)} move(s), no {number}"
        )
        return ms
    old = hs.moves[number - 1]
    if not isinstance(old, Play):
        out.notice(st.REJECTED, f"correction refused: move {number} is not a tile")
        return ms
    if old.tile == actual:
        out.notice(st.REJECTED, f"correction refused: move {number} already is {actual}")
        return ms
    pips, end = _laid_form(hs.engine, old)
    try:
        before = st.rebuild(ms, hs, hs.moves[: number - 1], hs.engine.leaders)
        fixed = _reoriented(before, pips, end, actual)
        moves = (*hs.moves[: number - 1], st.play_of(old.seat, fixed, end), *hs.moves[number:])
        engine = st.rebuild(ms, hs, moves, hs.engine.leaders)
    except IllegalMoveError as exc:
        out.notice(st.REJECTED, f"correction refused: {exc}")
        return ms
    out.vision.append(CorrectVision(pips, fixed))
    out.event("correction", read_as=str(old.tile), actual=str(actual), move=number)
    out.moved = True
    reveals = (None,) * ms.rules.seats if hs.engine.over and not engine.over else hs.reveals
    return replace(ms, hand=replace(hs, engine=engine, moves=moves, reveals=reveals))


def _reoriented(engine: Hand, pips: Pips, end: str, actual: Tile) -> Pips:
    """``actual`` in the (joined, open) form of a tile laid at ``end``."""
    if end == "first":
        first = pips[0] if actual.has(pips[0]) else actual.low
        return (first, actual.other(first))
    number = engine.line.open_ends.get(End(end))
    for joined in (number, pips[0], actual.low):
        if joined is not None and actual.has(joined):
            return (joined, actual.other(joined))
    return (actual.low, actual.high)


# --- reveal and scoring ---------------------------------------------------------------------


def _revealed(ms: MatchState, hs: HandState, inp: Revealed, out: _Out) -> MatchState:
    n = ms.rules.seats
    if not 0 <= inp.seat < n:
        out.notice(st.UNSURE, f"tiles shown at Seat {inp.seat + 1}, but only {n} seats play")
        return ms
    tiles = tuple(sorted(Tile.of(*p) for p in inp.tiles))
    reveals = list(hs.reveals)
    reveals[inp.seat] = tiles or None
    hs = replace(hs, reveals=tuple(reveals))
    out.event("reveal", seat=inp.seat, tiles=[str(t) for t in tiles])
    if not hs.engine.over:
        return replace(ms, hand=hs)
    return _score(ms, hs, out, force=False, by=None)


def _confirm(ms: MatchState, hs: HandState, inp: ConfirmReveal, out: _Out) -> MatchState:
    if not hs.engine.over:
        out.notice(st.REJECTED, "nothing to confirm: the hand is not over")
        return ms
    if inp.left is not None:
        if len(inp.left) != ms.rules.seats:
            out.notice(st.REJECTED, f"confirm refused: {len(inp.left)} seats given")
            return ms
        try:
            reveals = tuple(
                tuple(sorted(ms.rules.tileset.parse(x) for x in seat)) or None for seat in inp.left
            )
        except ControllerError as exc:
            out.notice(st.REJECTED, f"confirm refused: {exc}")
            return ms
        hs = replace(hs, reveals=reveals)
    return _score(ms, hs, out, force=True, by="the API")


def _score(ms: MatchState, hs: HandState, out: _Out, *, force: bool, by: str | None) -> MatchState:
    eng = hs.engine
    if not eng.over:
        return replace(ms, hand=hs)
    if hs.blocked:
        if force:
            out.notice(st.REJECTED, f"put the table right first: {hs.waiting_for()}")
        return replace(ms, hand=hs)
    status = reveal_status(ms, hs)
    target_hit = eng.outcome is HandEnd.TARGET
    if not (status.status == "passed" or force or target_hit):
        return replace(ms, hand=hs)
    if not hs.leader_known and status.delta is not None:
        prov = st.provisional_leader(hs) or 0
        hs = _make_leader(ms, hs, (prov + status.delta) % ms.rules.seats, out, how="reveal")
        eng = hs.engine
    shown = [list(r) if r is not None else [] for r in hs.reveals]
    scoring = eng.copy()
    if force and status.status != "passed":
        scoring.counts = [len(s) for s in shown]  # a person vouched for the reading
    try:
        result = scoring.finish(None if target_hit and not any(shown) else shown)
    except (IllegalMoveError, ControllerError) as exc:
        if force:
            out.notice(st.REJECTED, f"cannot score the hand: {exc}")
        return replace(ms, hand=hs)
    record = hand_to_json(None, hs.moves, shown)
    if force and status.status != "passed":
        record["confirmed_by"] = by
    results = (*ms.results, result)
    clearing = ms.clearing + tuple(sorted(eng.on_table - set(hs.gone)))
    done = replace(ms, results=results, records=(*ms.records, record), hand=None, clearing=clearing)
    totals = done.totals
    out.moved = True
    out.event(
        "hand_end",
        **result.to_json(),
        totals=list(totals),
        check=status.status,
        confirmed_by=by if force and status.status != "passed" else None,
    )
    winner = done.winner
    if winner is not None:
        out.event("match_end", winner=winner, totals=list(totals), hands=len(results))
        return done
    hs_new = st.new_hand_state(done)
    _hand_started(hs_new, out)
    return replace(done, hand=hs_new)


# --- export ---------------------------------------------------------------------------------


def match_record(state: TableState) -> dict[str, Any]:
    """The match as a game record (RULES.md section 6) that ``domino-table replay`` accepts.
    A hand in play is included as far as it went; a hand that is over but not scored yet is kept
    apart under ``pending_hand`` (replay could not score it without the tiles left)."""
    ms = state.match
    if ms is None:
        raise ControllerError("no match to export")
    hands = [dict(r) for r in ms.records]
    pending = None
    hs = ms.hand
    if hs is not None and hs.moves:
        current = hand_to_json(None, hs.moves, None)
        if hs.engine.over:
            # over but not scored yet (tiles still to be shown): replay could not score it, so
            # it goes apart, with what has been shown so far
            current["shown"] = [None if r is None else [str(t) for t in r] for r in hs.reveals]
            pending = current
        else:
            hands.append(current)  # replay reports it as the unfinished hand
    data = record_to_json(ms.rules, ms.seat_names, hands)
    if pending is not None:
        data["pending_hand"] = pending
    return data


def result_json(state: TableState) -> dict[str, Any]:
    """The match result in the shape of ``domino-table replay --json`` (from the hands the
    session scored, so a hand a person confirmed counts as it was scored)."""
    ms = state.match
    if ms is None:
        raise ControllerError("no match to report")
    unfinished = ms.hand.engine if ms.hand is not None and ms.hand.moves else None
    rep = Replay(
        MatchRecord(ms.rules, ms.seat_names, ()),
        ms.results,
        ms.totals,
        ms.winner,
        unfinished,
    )
    return rep.to_json()


__all__ = [
    "initial_state",
    "match_record",
    "replay_inputs",
    "result_json",
    "step",
]
