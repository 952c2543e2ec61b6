"""The Mosquitto deployment files in hardware/ work with the real broker."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import paho.mqtt.client as mqtt
from live_support import REPO, need_mosquitto, wait_until
from paho.mqtt.enums import CallbackAPIVersion

from controller.live.broker import free_port, wait_for_port

DEPLOY = REPO / "hardware/deploy/mosquitto"


def test_production_config_starts_and_enforces_passwords(tmp_path: Path) -> None:
    need_mosquitto()
    port = free_port()
    conf = (DEPLOY / "mosquitto.conf").read_text()
    conf = (
        conf.replace("/etc/mosquitto/domino.passwd", str(tmp_path / "passwd"))
        .replace("/etc/mosquitto/domino.acl", str(DEPLOY / "domino.acl"))
        .replace("listener 1883", f"listener {port} 127.0.0.1")
        .replace("persistence true", "persistence false")
    )
    if os.getuid() == 0:  # mosquitto would drop to user "mosquitto", who cannot read tmp_path
        conf += "\nuser root\n"
    (tmp_path / "domino.conf").write_text(conf)
    subprocess.run(
        ["mosquitto_passwd", "-b", "-c", str(tmp_path / "passwd"), "table-1", "pw"],
        check=True,
        capture_output=True,
    )
    proc = subprocess.Popen(
        ["mosquitto", "-c", str(tmp_path / "domino.conf")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        assert wait_for_port("127.0.0.1", port, 15), proc.stderr.read() if proc.stderr else ""
        results: dict[str, object] = {}

        def attempt(name: str, user: str | None, pw: str | None) -> None:
            c = mqtt.Client(CallbackAPIVersion.VERSION2)
            if user:
                c.username_pw_set(user, pw)
            c.on_connect = lambda c_, u, f, rc, p: results.__setitem__(name, rc.is_failure)
            c.connect("127.0.0.1", port)
            c.loop_start()
            wait_until(lambda: name in results, f"CONNACK for {name}")
            c.disconnect()
            c.loop_stop()

        attempt("anonymous", None, None)
        attempt("wrong", "table-1", "nope")
        attempt("right", "table-1", "pw")
        assert results == {"anonymous": True, "wrong": True, "right": False}
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()
