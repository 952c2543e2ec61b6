"""``domino-table fixture render --rules NAME --seed S --out DIR``: a simulated match rendered as a
recorded fixture. The simulation is the controller's; the drawing is vision's renderer (vision
never imports the controller, so the two meet here)."""

from __future__ import annotations

import argparse
from typing import Any

from vision.cli.args import seed_arg


def register(sub: argparse._SubParsersAction[Any]) -> None:
    fixture = sub.choices.get("fixture")
    if fixture is None:  # vision's CLI is not in this build
        return
    # The ``fixture`` parser is vision's; its sub-parsers action is where actions are added.
    actions = [a for a in fixture._actions if isinstance(a, argparse._SubParsersAction)]
    render = actions[0].add_parser(
        "render",
        help="simulate a match with bots and render it as a recorded fixture",
        description="Simulate N hands of a match (deterministic for the seed) and render them as "
        "a recorded fixture: video, buttons.jsonl, table.json, truth.json.",
    )
    render.add_argument("--rules", required=True, metavar="NAME", help="rules preset")
    render.add_argument("--seed", type=seed_arg, default=0, metavar="S")
    render.add_argument("--out", required=True, metavar="DIR", help="fixture directory to write")
    render.add_argument("--hands", type=int, default=1, metavar="N", help="hands (default 1)")
    render.add_argument("--width", type=int)
    render.add_argument("--height", type=int)
    render.add_argument("--fps", type=float)
    render.add_argument("--sweep", type=int, help="the N-th point of the render sweep")
    render.add_argument("--target", type=int, metavar="N", help="points to win the match")
    render.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    render.add_argument("--quiet", action="store_true", help="no progress bar")
    render.set_defaults(handler=_render)


def _render(args: argparse.Namespace) -> int:
    import math
    from dataclasses import replace
    from pathlib import Path

    from controller.cli.rules import _overrides
    from controller.errors import RulesError
    from controller.rules.moves import HandEnd
    from controller.rules.options import build_rules
    from controller.rules.simulate import greedy_bot, random_bot, simulate
    from vision.calibration import default_geometry
    from vision.cli.scene import ProgressBar
    from vision.devtools.fixture_writer import render_fixture
    from vision.devtools.render.scene import RenderParams, sweep_params

    if args.hands < 1:
        raise RulesError("--hands must be 1 or more")
    rules = build_rules(args.rules, _overrides(args))
    bots = [greedy_bot if seat % 2 == 0 else random_bot for seat in range(rules.seats)]
    match = next(simulate(rules, hands=args.hands, seed=args.seed, bots=bots))
    record = match.to_record()
    for hand_json, hand in zip(record["hands"], match.hands, strict=True):
        if hand.result.result is HandEnd.BLOCK:
            _press_the_block(hand_json["moves"], rules.seats)
    geometry = default_geometry(rules.seats)
    if len(rules.tileset.tiles) > 28:
        # A bigger set makes a longer line: draw its tiles smaller so it fits the play area.
        scale = math.sqrt(28 / len(rules.tileset.tiles))
        geometry = replace(
            geometry,
            tile_length=geometry.tile_length * scale,
            tile_width=geometry.tile_width * scale,
        )
    params = RenderParams()
    if args.sweep is not None:
        params = sweep_params(args.sweep, args.seed, params)
    sizes = {k: getattr(args, k) for k in ("width", "height", "fps") if getattr(args, k)}
    if sizes:
        params = replace(params, **sizes)
    progress = None if args.quiet else ProgressBar("rendering")
    info = render_fixture(
        record, Path(args.out), seed=args.seed, params=params, geometry=geometry, progress=progress
    )
    print(
        f"wrote {info.out_dir}: {info.frames} frames ({info.duration_s:.1f} s), "
        f"{len(match.hands)} hand(s) of {rules.preset}, {info.moves} moves"
    )
    return 0


def _press_the_block(moves: list[dict[str, Any]], seats: int) -> None:
    """With every hand known, the engine sees a block as soon as nobody can play and lists no
    passes; a real table only knows it when every seat has passed in turn. Add those presses."""
    trailing = 0
    for move in reversed(moves):
        if "pass" not in move:
            break
        trailing += 1
    seat = (moves[-1]["seat"] + 1) % seats
    for _ in range(seats - trailing):
        moves.append({"seat": seat, "pass": True})
        seat = (seat + 1) % seats
