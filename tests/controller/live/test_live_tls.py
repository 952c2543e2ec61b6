"""TLS and passwords from settings, against a real Mosquitto with a TLS listener and a test CA."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from live_support import IN_CI, Board, need_mosquitto

from controller.live.broker import MosquittoBroker
from controller.live.examples import example_body
from controller.live.publisher import MqttPublisher


def make_ca(tmp: Path) -> None:
    def ssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=tmp, check=True, capture_output=True, timeout=60)

    ssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-days",
        "2",
        "-subj",
        "/CN=domino-test-ca",
    )
    ssl(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=127.0.0.1",
    )
    (tmp / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    ssl(
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.crt",
        "-days",
        "2",
        "-extfile",
        "san.ext",
    )


def test_tls_with_password(
    tmp_path: Path, board_on: Callable[..., Board], publishers: Callable[..., MqttPublisher]
) -> None:
    need_mosquitto()
    if shutil.which("openssl") is None:
        if IN_CI:
            pytest.fail("openssl is needed to make the test CA")
        pytest.skip("openssl not installed")
    make_ca(tmp_path)
    tls = (
        f"cafile {tmp_path / 'ca.crt'}\ncertfile {tmp_path / 'server.crt'}\n"
        f"keyfile {tmp_path / 'server.key'}\n"
    )
    users = {"scoreboard": "sb-pw", "t-tls": "tt-pw"}
    with MosquittoBroker(users=users, extra_config=tls) as b:
        url = f"mqtts://127.0.0.1:{b.port}"
        board = board_on(url)
        pub = publishers(
            url, "t-tls", username="t-tls", password="tt-pw", ca_file=tmp_path / "ca.crt"
        )
        pub.start()
        pub.publish_state(example_body(hand_no=5))
        secure = board_on(
            f"mqtts://scoreboard:sb-pw@127.0.0.1:{b.port}", mqtt_ca_file=tmp_path / "ca.crt"
        )
        view = secure.wait_table(
            "t-tls", "state over TLS", lambda v: v["state"] and v["status"] == "online"
        )
        assert view["state"]["match"]["hand_no"] == 5 and view["status"] == "online"
        # the first scoreboard has neither the CA nor a password: it never got in
        assert board.http.get("/healthz").json()["broker"] == "down"
        assert board.table("t-tls") is None
