"""``domino-table scoreboard`` and other live-state sub-commands (MQTT, web).

Handlers import FastAPI, uvicorn and paho when they run, never at registration.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add live-state sub-commands."""
    board = sub.add_parser(
        "scoreboard",
        help="serve the scoreboard (hall and table pages, REST API, SSE) from an MQTT broker",
        description="Subscribe to every table on the broker and serve the scoreboard. Without "
        "--broker an embedded MQTT broker is started. The write API needs a bearer token, "
        "from DOMINO_SCOREBOARD_TOKEN (without it the scoreboard is read-only), and each "
        'table\'s command key, from DOMINO_SCOREBOARD_CMD_KEYS (\'{"table-1": "KEY"}\'); '
        "the token never leaves the scoreboard. Broker passwords are shown as ***.",
    )
    board.add_argument("--broker", help="mqtt://[user:pass@]host[:port] or mqtts://...")
    board.add_argument("--http-port", type=int, default=None, help="HTTP port (default 8080)")
    board.add_argument("--http-host", default=None, help="HTTP address (default 0.0.0.0)")
    board.add_argument("--root", default=None, help="MQTT topic root (default domino/v1)")
    board.set_defaults(handler=_scoreboard)

    live = sub.add_parser("live", help="MQTT tools: embedded broker, simulated tables, schemas")
    live_sub = live.add_subparsers(dest="live_command", metavar="ACTION")
    live_sub.required = True
    broker = live_sub.add_parser("broker", help="run the embedded MQTT broker (local use only)")
    broker.add_argument("--port", type=int, default=1883)
    broker.add_argument("--host", default="127.0.0.1")
    broker.set_defaults(handler=_broker)
    sim = live_sub.add_parser("simulate", help="publish simulated tables to a broker")
    sim.add_argument("--broker", required=True)
    sim.add_argument("--tables", type=int, default=1)
    sim.add_argument("--interval", type=float, default=1.0, help="seconds between moves")
    sim.add_argument("--seconds", type=float, default=0.0, help="stop after (0: never)")
    sim.set_defaults(handler=_simulate)
    schemas = live_sub.add_parser("schemas", help="write (or --check) the JSON Schema files")
    schemas.add_argument("--check", action="store_true", help="exit 1 if a file is out of date")
    schemas.set_defaults(handler=_schemas)


def _scoreboard(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from controller.live.app import create_app
    from controller.live.errors import LiveConfigError
    from controller.live.server import serve
    from controller.live.settings import MqttSettings, ScoreboardSettings, short_reason

    try:
        base = ScoreboardSettings()
        mqtt_update: dict[str, Any] = {}
        if args.broker:
            mqtt_update["url"] = args.broker
        if args.root:
            mqtt_update["root"] = args.root
        mqtt = MqttSettings.model_validate({**base.mqtt.model_dump(), **mqtt_update})
        update: dict[str, Any] = {"mqtt": mqtt}
        if args.http_port is not None:
            update["http_port"] = args.http_port
        if args.http_host is not None:
            update["http_host"] = args.http_host
        settings = ScoreboardSettings.model_validate({**base.model_dump(), **update})
    except ValidationError as exc:
        raise LiveConfigError(f"bad scoreboard settings: {short_reason(exc)}") from None
    except ValueError as exc:  # pydantic-settings' own: an environment value that is not JSON
        raise LiveConfigError(f"bad scoreboard settings: {exc}") from None
    broker = "embedded" if settings.mqtt.url is None else settings.mqtt.address().redacted()
    print(
        f"scoreboard on http://{settings.http_host}:{settings.http_port}/ "
        f"(broker {broker}; "
        f"{'writes need the token' if settings.token else 'read-only'})",
        file=sys.stderr,
    )
    serve(create_app(settings), settings.http_host, settings.http_port)
    return 0


def _broker(args: argparse.Namespace) -> int:
    import threading

    from controller.live.broker import EmbeddedBroker

    with EmbeddedBroker(args.host, args.port) as broker:
        print(f"embedded MQTT broker on {broker.url} (Ctrl-C stops it)", file=sys.stderr)
        threading.Event().wait()
    return 0


def _simulate(args: argparse.Namespace) -> int:
    import time

    from pydantic import ValidationError

    from controller.live.errors import LiveConfigError
    from controller.live.publisher import MqttPublisher
    from controller.live.settings import MqttSettings, TableSettings, short_reason
    from controller.live.sim import SimTable
    from domino_common.clock import SystemClock

    try:
        mqtt = MqttSettings(url=args.broker)
    except ValidationError as exc:
        raise LiveConfigError(f"bad MQTT settings: {short_reason(exc)}") from None
    tables = [
        (
            MqttPublisher(mqtt, TableSettings(table=f"table-{i + 1}"), clock=SystemClock()),
            SimTable(seed=i),
        )
        for i in range(args.tables)
    ]
    for pub, sim in tables:
        pub.publish_state(sim.body())
        pub.start()
    end = time.monotonic() + args.seconds if args.seconds else float("inf")
    try:
        while time.monotonic() < end:
            time.sleep(args.interval)
            for pub, sim in tables:
                kind, data = sim.step()
                pub.publish_event(kind, data)
                pub.publish_state(sim.body())
    finally:
        for pub, _ in tables:
            pub.stop()
    return 0


def _schemas(args: argparse.Namespace) -> int:
    from controller.live import schemas

    if args.check:
        stale = [
            rel
            for rel, text in schemas.expected_files().items()
            if not (schemas.SCHEMA_DIR / rel).is_file()
            or (schemas.SCHEMA_DIR / rel).read_text(encoding="utf-8") != text
        ]
        for rel in stale:
            print(f"out of date: {rel}", file=sys.stderr)
        return 1 if stale else 0
    for path in schemas.write():
        print(path)
    return 0
