"""``domino-table demo``, ``run`` and ``record``: the integrated table runtime.

Until the integrated runtime lands, ``demo`` narrates a simulated match in the terminal.
"""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: argparse._SubParsersAction[Any]) -> None:
    demo = sub.add_parser(
        "demo",
        help="play a demo match (no hardware needed)",
        description="Play a simulated latin match with bots and narrate it.",
    )
    demo.add_argument("--rules", default="latin", metavar="NAME")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--speed", type=float, default=20.0, metavar="X", help="moves per second")
    demo.add_argument(
        "--exit-when-done", action="store_true", help="print the final result as JSON and exit"
    )
    demo.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace) -> int:
    import json
    import sys
    import time

    from controller.rules.options import build_rules
    from controller.rules.record import parse_record, replay
    from controller.rules.simulate import greedy_bot, random_bot, simulate

    rules = build_rules(args.rules)
    bots = [greedy_bot, random_bot] * (rules.seats // 2) + [greedy_bot] * (rules.seats % 2)
    match = next(simulate(rules, hands=1000, seed=args.seed, bots=bots))
    delay = 0.0 if args.exit_when_done or args.speed <= 0 else 1.0 / args.speed
    out = sys.stderr if args.exit_when_done else sys.stdout
    totals = [0] * rules.sides
    for number, hand in enumerate(match.hands, start=1):
        print(f"-- hand {number}", file=out)
        for move in hand.moves:
            print(f"   {move}", file=out, flush=True)
            time.sleep(delay)
        result = hand.result
        for side, p in enumerate(result.points):
            totals[side] += p
        who = "nobody" if result.winner is None else f"side {result.winner}"
        print(f"   {result.result}: {who} +{max(result.points)}; totals {totals}", file=out)
    final = replay(parse_record(match.to_record()))
    if args.exit_when_done:
        print(json.dumps(final.to_json()))
    else:
        print(f"match won by side {final.winner}: {list(final.totals)}", file=out)
    return 0
