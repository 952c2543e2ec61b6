"""Benchmarks of the live state path (``domino-table bench``).

- ``live.state_to_browser_ms``: a state published by a table -> drawn in the table page in headless
  Chromium, over a real Mosquitto and the scoreboard; median of the per-state latencies the page
  measures itself (publication timestamp -> the animation frame that paints it, same clock).
- ``live.hall_lost_updates`` / ``live.hall_scoreboard_cpu_pct``: 100 simulated tables each
  publishing an event and a state once a second to one Mosquitto, one scoreboard process (with one
  hall page connected by SSE); every event and the final state of every table must arrive, and the
  scoreboard process's CPU is read from /proc. Quick mode: 60 s; full: 10 minutes.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

Row = dict[str, object]


def run_benchmarks(quick: bool) -> list[Row]:
    rows = [_state_to_browser(samples=20 if quick else 100)]
    rows.extend(_hall(tables=100, seconds=60.0 if quick else 600.0))
    return rows


@contextlib.contextmanager
def _broker() -> Iterator[tuple[Any, str]]:
    from controller.live.broker import EmbeddedBroker, MosquittoBroker

    if MosquittoBroker.find_executable() is not None:
        with MosquittoBroker() as b:
            yield b, "mosquitto"
    else:
        with EmbeddedBroker() as e:
            yield e, "embedded amqtt (mosquitto not installed)"


def _state_to_browser(samples: int) -> Row:
    from controller.live.app import create_app
    from controller.live.publisher import MqttPublisher
    from controller.live.server import ServerThread
    from controller.live.settings import MqttSettings, ScoreboardSettings, TableSettings
    from controller.live.sim import SimTable
    from domino_common.clock import SystemClock

    name = "live.state_to_browser_ms"
    chromium = "/usr/bin/chromium"
    if not os.path.exists(chromium):
        return _row(name, float("nan"), "ms", "<= 200", "chromium not installed")
    from playwright.sync_api import sync_playwright

    with _broker() as (broker, kind):
        settings = ScoreboardSettings(mqtt=MqttSettings(url=broker.url))
        with ServerThread(create_app(settings)) as server:
            pub = MqttPublisher(
                MqttSettings(url=broker.url), TableSettings(table="bench"), clock=SystemClock()
            )
            sim = SimTable(seed=7)
            pub.publish_state(sim.body())
            pub.start()
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=chromium,
                    headless=True,
                    args=[
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                    ],
                )
                page = browser.new_page(viewport={"width": 1920, "height": 1080})
                page.goto(f"{server.url}/table/bench")
                page.wait_for_function("window.__dt && window.__dt.renders > 0", timeout=30_000)
                page.evaluate("window.__dt.latencies = []")
                sent_seqs: set[int] = set()
                for _ in range(samples):
                    kind_, data = sim.step()
                    pub.publish_event(kind_, data)
                    sent = pub.publish_state(sim.body())
                    sent_seqs.add(sent.seq)
                    page.wait_for_function(
                        f"window.__dt.latencies.some((x) => x.seq === {sent.seq})",
                        timeout=30_000,
                    )
                    time.sleep(0.1)
                # Only the states sent in the loop: a render of the first state can land after
                # the reset (it raced the page's subscription) and is not a sample.
                lat = [
                    float(x["ms"])
                    for x in page.evaluate("window.__dt.latencies")
                    if x["seq"] in sent_seqs
                ]
                browser.close()
            pub.stop()
    median = statistics.median(lat) if lat else float("nan")
    p95 = sorted(lat)[int(0.95 * (len(lat) - 1))] if lat else float("nan")
    return _row(
        name,
        round(median, 1),
        "ms",
        "<= 200",
        f"median of {len(lat)} states over {kind}, 1920x1080 page; p95 {p95:.1f} ms",
    )


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def _hall(tables: int, seconds: float) -> list[Row]:
    import httpx

    from controller.live.broker import free_port, wait_for_port
    from controller.live.publisher import MqttPublisher
    from controller.live.settings import MqttSettings, TableSettings
    from controller.live.sim import SimTable
    from domino_common.clock import SystemClock

    with _broker() as (broker, kind):
        port = free_port()
        board = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "controller.cli",
                "scoreboard",
                "--broker",
                broker.url,
                "--http-port",
                str(port),
                "--http-host",
                "127.0.0.1",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        http = httpx.Client(base_url=base, timeout=30)
        stop = threading.Event()
        sse_messages = [0]
        try:
            if not wait_for_port("127.0.0.1", port, 30.0):
                raise RuntimeError("scoreboard did not start")
            deadline = time.monotonic() + 30
            while http.get("/healthz").json()["broker"] != "up":
                if time.monotonic() > deadline:
                    raise RuntimeError("scoreboard did not reach the broker")
                time.sleep(0.1)

            def hall_page() -> None:
                with httpx.stream("GET", base + "/api/stream", timeout=None) as r:
                    for line in r.iter_lines():
                        if line.startswith("data: "):
                            sse_messages[0] += 1
                        if stop.is_set():
                            return

            threading.Thread(target=hall_page, daemon=True).start()
            mqtt = MqttSettings(url=broker.url)
            fleet = []
            for i in range(tables):
                pub = MqttPublisher(
                    mqtt, TableSettings(table=f"bench-{i:03d}"), clock=SystemClock()
                )
                sim = SimTable(seed=i)
                pub.publish_state(sim.body())
                pub.start()
                fleet.append((pub, sim))
            while not all(p.connected for p, _ in fleet):
                time.sleep(0.1)
            time.sleep(2.0)
            cpu0, wall0 = _cpu_seconds(board.pid), time.monotonic()
            published = 0
            tick = time.monotonic()
            end = tick + seconds
            while tick < end:
                for j, (pub, sim) in enumerate(fleet):
                    # spread the tables over the second, as real tables would be
                    slot = tick + j / len(fleet)
                    delay = slot - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                    kind_, data = sim.step()
                    pub.publish_event(kind_, data)
                    pub.publish_state(sim.body())
                    published += 2
                tick += 1.0
            cpu1, wall1 = _cpu_seconds(board.pid), time.monotonic()
            time.sleep(3.0)  # let the last messages land
            rows = {r["table"]: r for r in http.get("/api/tables").json()["tables"]}
            lost = 0
            for pub, _ in fleet:
                row = rows.get(pub.topics.table)
                if row is None:
                    lost += pub.seq + 1
                    continue
                counters = row["counters"]
                lost += max(0, pub.seq - counters["events"]) + counters["gaps"]
                lost += 0 if counters["state_seq"] == pub.seq else 1
            for pub, _ in fleet:
                pub.stop()
        finally:
            stop.set()
            board.terminate()
            try:
                board.wait(20)
            except subprocess.TimeoutExpired:
                board.kill()
            http.close()
    cpu_pct = 100.0 * (cpu1 - cpu0) / (wall1 - wall0)
    note = (
        f"{tables} tables x (1 event + 1 state)/s for {seconds:.0f} s over {kind}: "
        f"{published} messages, hall SSE got {sse_messages[0]} updates"
    )
    return [
        _row("live.hall_lost_updates", float(lost), "messages", "== 0", note),
        _row(
            "live.hall_scoreboard_cpu_pct",
            round(cpu_pct, 1),
            "% of one core",
            "<= 50",
            note + "; scoreboard process utime+stime / wall time",
        ),
    ]


def _row(name: str, value: float, unit: str, target: str, note: str) -> Row:
    return {"name": name, "value": value, "unit": unit, "target": target, "note": note}


if __name__ == "__main__":  # pragma: no cover
    import json

    for r in run_benchmarks(quick="--full" not in sys.argv):
        sys.stdout.write(json.dumps(r) + "\n")
