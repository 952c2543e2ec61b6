"""What each seat LED shows, from the state alone (so a restart restores it exactly).

- turn: solid green at the seat whose turn it is;
- who leads (nobody said yet, line empty): the seats that may lead pulse white;
- turn not known yet (leader unknown after the opening tile): every seat pulses white dimly;
- a problem at a seat (illegal tile): that seat blinks red; a problem nobody owns (two tiles
  at once, a tile taken from the line, an undone tile to take back): every seat blinks red;
- reveal: seats whose tiles are still to be shown pulse amber; a failed check: all blink amber;
- match over: the winning side solid green.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.table.lights import DARK, Glow, Light
from controller.table.queries import reveal_status

if TYPE_CHECKING:
    from controller.table.state import TableState

OFF = DARK
TURN = Light(0, 200, 0, Glow.SOLID)
LEAD = Light(160, 160, 160, Glow.PULSE)
UNKNOWN = Light(40, 40, 40, Glow.PULSE)
PROBLEM = Light(255, 0, 0, Glow.BLINK)
REVEAL = Light(255, 140, 0, Glow.PULSE)
CHECK_FAILED = Light(255, 140, 0, Glow.BLINK)
WINNER = Light(0, 200, 0, Glow.SOLID)


def leds_of(state: TableState) -> tuple[Light, ...]:
    ms = state.match
    if ms is None:
        return ()
    n = ms.rules.seats
    hs = ms.hand
    if hs is None:
        winner = ms.winner
        return tuple(
            WINNER if winner is not None and ms.rules.side_of(s) == winner else OFF
            for s in range(n)
        )
    if hs.blocked:
        owned = {s.seat for s in hs.strays if s.seat is not None}
        unowned = bool(hs.missing or hs.take_back or any(s.seat is None for s in hs.strays))
        return tuple(PROBLEM if unowned or s in owned else OFF for s in range(n))
    eng = hs.engine
    if eng.over:
        status = reveal_status(ms, hs)
        if status.status == "failed":
            return (CHECK_FAILED,) * n
        return tuple(
            REVEAL if hs.reveals[s] is None and eng.counts[s] > 0 else OFF for s in range(n)
        )
    if eng.line.empty and not hs.leader_known:
        return tuple(LEAD if s in hs.leaders else OFF for s in range(n))
    if not hs.leader_known:
        return (UNKNOWN,) * n
    turn = eng.turn if eng.turn is not None else eng.leader
    return tuple(TURN if s == turn else OFF for s in range(n))
