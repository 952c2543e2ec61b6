"""``domino-table replay``, ``simulate``, ``rules`` and ``bench``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from controller.errors import RulesError


def register(sub: argparse._SubParsersAction[Any]) -> None:
    replay = sub.add_parser(
        "replay",
        help="validate and score a game record",
        description="Validate a game record (RULES.md section 6) and print per-hand results and "
        "match totals; JSON lines (one match per line) give one result per match, in order "
        "(with --json, one JSON result per line). An illegal record exits with status 1 and "
        "names the hand, the move and the reason; unusable input exits with status 2.",
    )
    replay.add_argument(
        "record",
        metavar="RECORD.json",
        help="the game record ('-' for stdin): one JSON document, or JSON lines with one match "
        "per line (as simulate --json prints)",
    )
    replay.add_argument("--rules", metavar="NAME", help="rules preset (default: the record's)")
    _add_option_args(replay)
    replay.add_argument("--json", action="store_true", help="print the result as JSON")
    replay.set_defaults(handler=_replay)

    simulate = sub.add_parser(
        "simulate",
        help="bot play for testing and benchmarks",
        description="Play N hands with bots (as consecutive matches) and print a summary, or "
        "with --json one game record per match, one per line. Deterministic for a seed.",
    )
    simulate.add_argument("--rules", metavar="NAME", required=True, help="rules preset")
    simulate.add_argument("--hands", type=_non_negative, required=True, metavar="N")
    simulate.add_argument("--seed", type=int, default=0, metavar="S")
    simulate.add_argument(
        "--bots",
        default="random",
        metavar="B[,B...]",
        help="bot per seat: random or greedy; one name for every seat (default: random)",
    )
    simulate.add_argument(
        "--engine",
        choices=("auto", "full"),
        default="auto",
        help="auto: the fast bot kernel where the rules allow it; full: always the checked engine",
    )
    _add_option_args(simulate)
    simulate.add_argument("--json", action="store_true", help="print game records (JSON lines)")
    simulate.set_defaults(handler=_simulate)

    rules = sub.add_parser("rules", help="list rule presets, or show one preset's options")
    rules.add_argument("name", nargs="?", metavar="NAME")
    _add_option_args(rules)
    rules.add_argument("--json", action="store_true")
    rules.set_defaults(handler=_rules)

    bench = sub.add_parser("bench", help="print the performance figures")
    bench.add_argument("--quick", action="store_true", help="shorter runs (less precise)")
    bench.add_argument(
        "--only", metavar="NAME", action="append", help="only benchmark modules whose name has NAME"
    )
    bench.add_argument("--json", action="store_true", help="print rows as JSON lines")
    bench.set_defaults(handler=_bench)


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _add_option_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", type=int, metavar="N", help="points to win the match")
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a rule option (repeatable), e.g. -o pase_corrido_bonus=30",
    )


def _overrides(args: argparse.Namespace) -> dict[str, object]:
    out: dict[str, object] = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"--option {item!r}: expected KEY=VALUE")
        out[key.strip()] = value.strip()
    if args.target is not None:
        out["target"] = args.target
    return out


# ----------------------------------------------------------------------------- replay


def _replay(args: argparse.Namespace) -> int:
    from controller.errors import ControllerError
    from controller.rules.record import load_records, parse_record, parse_records, replay

    where = "<stdin>" if args.record == "-" else args.record
    if args.record == "-":
        from controller.bounded import decode, read_stream
        from controller.errors import RecordError
        from controller.rules.record import MAX_RECORD_BYTES

        stdin = getattr(sys.stdin, "buffer", None)
        if stdin is None:  # a text stream put in place of stdin (tests, embedding)
            raw = sys.stdin.read(MAX_RECORD_BYTES + 1).encode("utf-8")
        else:
            raw = read_stream(stdin, MAX_RECORD_BYTES, where, "game record")
        if len(raw) > MAX_RECORD_BYTES:
            raise RecordError(f"{where}: longer than {MAX_RECORD_BYTES} bytes")
        records = parse_records(decode(raw, where), where)
    else:
        records = load_records(args.record)
    results = []
    # every record is checked before anything is printed: a bad line is the only output
    for line, data in records:
        at = where if line is None else f"{where}: line {line}"
        try:
            record = parse_record(data, rules_name=args.rules, overrides=_overrides(args))
            results.append((line, replay(record)))
        except ControllerError as exc:
            exc.args = (f"{at}: {exc}",)
            raise
    for line, result in results:
        if args.json:
            print(json.dumps(result.to_json()))
            continue
        if line is not None:
            if line != results[0][0]:
                print()
            print(f"match on line {line}:")
        _print_replay(result)
    return 0


def _side_name(names: Sequence[str], seats: Sequence[int]) -> str:
    from controller.rules.names import side_label

    return side_label(names, seats)


def _wins(side: str, pairs: bool) -> str:
    from controller.rules.names import wins

    return wins(side, 2 if pairs else 1)


def _print_replay(result: Any) -> None:
    from controller.rules.record import Replay

    assert isinstance(result, Replay)
    rules = result.record.rules
    names = result.record.seats
    sides = [_side_name(names, rules.seats_of(side)) for side in range(rules.sides)]
    print(f"{rules.preset}, target {rules.target}: " + " vs ".join(sides))
    running = [0] * rules.sides
    for r in result.results:
        for side, p in enumerate(r.points):
            running[side] += p
        if r.winner is None:
            how = f"{r.result}, nobody scores"
        else:
            by = names[r.winning_seat] if r.winning_seat is not None else sides[r.winner]
            how = f"{r.result} ({by}), {_wins(sides[r.winner], rules.partnerships)}"
        gains = ", ".join(f"{sides[s]} +{p}" for s, p in enumerate(r.points) if p)
        extras = "".join(
            f"; {b.kind.replace('_', ' ')} +{b.points} {sides[b.side]}"
            + ("" if b.counted else " (not counted)")
            for b in r.bonuses
        )
        print(
            f"hand {r.number + 1}: {how}; {gains or 'no points'}{extras}; "
            f"totals {'-'.join(map(str, running))}"
        )
        for ren in r.renuncios:
            print(f"  {ren} [{names[ren.seat]}]")
    if result.unfinished is not None:
        print(f"hand {result.unfinished.number + 1}: in progress")
    if result.winner is not None:
        won = _wins(sides[result.winner], rules.partnerships)
        print(f"match: {won}, {'-'.join(map(str, result.totals))}")
    else:
        print(f"match: not finished, {'-'.join(map(str, result.totals))}")


# ----------------------------------------------------------------------------- simulate


def _simulate(args: argparse.Namespace) -> int:
    from controller.rules.options import build_rules
    from controller.rules.simulate import find_bot, simulate

    rules = build_rules(args.rules, _overrides(args))
    names = [n.strip() for n in args.bots.split(",")]
    if len(names) == 1:
        names *= rules.seats
    if len(names) != rules.seats:
        raise RulesError(f"--bots names {len(names)} bots for {rules.seats} seats")
    bots = [find_bot(n) for n in names]
    matches = simulate(rules, hands=args.hands, seed=args.seed, bots=bots, fast=args.engine)
    if args.json:
        out = sys.stdout
        for m in matches:
            record = m.to_record()
            record["result"] = {"totals": list(m.totals), "winner": m.winner}
            out.write(json.dumps(record, separators=(",", ":")))
            out.write("\n")
        return 0
    hands = finished = 0
    wins = [0] * rules.sides
    hand_wins = [0] * rules.sides
    results: dict[str, int] = {}
    points = [0] * rules.sides
    for m in matches:
        if m.winner is not None:
            finished += 1
            wins[m.winner] += 1
        for h in m.results:
            hands += 1
            results[h.result.value] = results.get(h.result.value, 0) + 1
            if h.winner is not None:
                hand_wins[h.winner] += 1
            for side, p in enumerate(h.points):
                points[side] += p
    print(
        f"{rules.preset}: {hands} hands, {finished} finished matches, seed {args.seed}, "
        f"bots {','.join(names)}"
    )
    if hands:
        print("hands ended by: " + ", ".join(f"{k} {v / hands:.1%}" for k, v in results.items()))
        print("hands won per side: " + " ".join(map(str, hand_wins)))
        print("points per hand per side: " + " ".join(f"{p / hands:.1f}" for p in points))
    print("matches won per side: " + " ".join(map(str, wins)))
    return 0


# ----------------------------------------------------------------------------- rules


def _rules(args: argparse.Namespace) -> int:
    from controller.rules.options import PRESETS, build_rules

    if args.name is None:
        if args.json:
            print(json.dumps({name: r.to_json() for name, r in PRESETS.items()}))
        else:
            for name, r in PRESETS.items():
                kind = "pairs" if r.partnerships else "individual"
                print(
                    f"{name:18s} double-{r.max_pip}, {r.seats} seats ({kind}), "
                    f"{r.hand_size} each, boneyard {r.boneyard}, target {r.target}"
                )
        return 0
    rules = build_rules(args.name, _overrides(args))
    if args.json:
        print(json.dumps(rules.to_json()))
    else:
        for key, value in rules.to_json().items():
            print(f"{key:20s} {value}")
    return 0


# ----------------------------------------------------------------------------- bench


def _bench(args: argparse.Namespace) -> int:
    from controller.bench import run

    return run(quick=args.quick, only=args.only, as_json=args.json)
