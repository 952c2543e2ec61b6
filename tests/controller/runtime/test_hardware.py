"""``run`` and ``record``: the config is checked before anything opens, and missing hardware is a
clear error (exit status 2), not a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from controller.runtime.config import ConfigError, load_config
from controller.runtime.preflight import check_table

GOOD = """
table = "club-3"
[camera]
source = "/dev/video9"
fps = 12
[serial]
port = "/dev/serial/by-id/usb-nothing-here"
[broker]
url = "mqtt://localhost:1883"
[rules]
preset = "latin"
options = { target = 100 }
seats = ["Ana", "Beto", "Carla", "Dani"]
[journal]
path = "journal.sqlite"
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_config_is_read_and_the_environment_overrides_it(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD)
    config = load_config(path, env={"DOMINO_BROKER_URL": "mqtt://broker:1883"})
    assert config.table == "club-3"
    assert config.options == {"target": 100}
    assert config.broker == "mqtt://broker:1883"
    assert config.journal == tmp_path / "journal.sqlite"


def test_the_configs_broker_root_and_table_reach_the_live_side_built_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DOMINO_MQTT_ROOT", raising=False)
    hall = GOOD.replace(
        'url = "mqtt://localhost:1883"\n', 'url = "mqtt://localhost:1883"\nroot = "hall/v2"\n'
    )
    path = _write(tmp_path, hall)
    check = check_table(load_config(path, env={}), where=str(path), probe=None)
    check.close()
    live = check.live
    assert live is not None, check.problems
    assert (live.mqtt.url, live.mqtt.root) == ("mqtt://localhost:1883", "hall/v2")
    assert live.table.table == "club-3" and live.http_port is None  # run serves no scoreboard
    # the environment overrides the file, as for the other values; neither: the default root
    assert load_config(path, env={"DOMINO_MQTT_ROOT": "env/root"}).topic_root == "env/root"
    assert load_config(_write(tmp_path, GOOD), env={}).topic_root is None
    bad = load_config(_write(tmp_path, hall.replace("hall/v2", "hall v2")), env={})
    check = check_table(bad, where="table.toml", probe=None)
    check.close()
    assert check.live is None
    assert "bad live settings: root: topic root: letters, digits, '_', '-', separated by '/'" in (
        check.fatal
    )
    # a wrong table id is said once, by the check that names where it comes from
    check = check_table(load_config(path, env={"DOMINO_TABLE_ID": "a b"}), where="t", probe=None)
    check.close()
    assert check.live is None
    assert [line for line in check.fatal if "table id" in line or "live" in line] == [
        "t: table 'a b': a table id is 1-64 letters, digits, '_' or '-'"
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[camera\n", "not valid TOML"),
        ("[lights]\non = true\n", "unknown section"),
        ("[camera]\nzoom = 2\n", "unknown key"),
        ('[rules]\npreset = "chess"\n', "unknown rules preset"),
        ('[rules]\noptions = { target = "lots" }\n', "not a whole number"),
        ('[rules]\nseats = ["Ana"]\n', "names 1 players"),
        ("[camera]\nfps = -1\n", "fps must be a positive"),
        ('table = "a/b"\n', "without '/'"),
    ],
)
def test_a_bad_config_names_the_problem(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(_write(tmp_path, text), env={})


def test_run_without_the_seat_device_fails_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in ("DOMINO_SERIAL_PORT", "DOMINO_CAMERA"):
        monkeypatch.delenv(key, raising=False)
    path = _write(tmp_path, GOOD)
    assert main(["run", "--config", str(path), "--check"]) == 2
    err = capsys.readouterr().err
    assert "seat device" in err and "does not exist" in err


def test_record_without_a_camera_fails_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = tmp_path / "fake-tty"
    port.write_text("")
    code = main(
        ["record", "--out", str(tmp_path / "fx"), "--camera", "/dev/video97", "--serial", str(port)]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "camera '/dev/video97': cannot be opened" in err
    assert err.count("cannot be opened") == 1 and err.count("\n") == 1  # said once, one line


def test_a_missing_config_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--config", str(tmp_path / "none.toml")]) == 2
    assert "cannot read the config" in capsys.readouterr().err


def test_run_plays_a_video_camera_with_the_seat_device_on_a_pty(tmp_path: Path) -> None:
    """`run` end to end with stand-ins: the fixture's video as the camera, the simulated seat
    device on a pty. Nobody presses the two passes, so the seats are settled by the reveal; the
    score is the fixture's."""
    from controller.journal import Journal
    from controller.runtime.hardware import run_table
    from controller.table import result_json
    from firmware_bridge.sim import PtyDevice
    from tests.controller.table.helpers import FIXTURE

    with PtyDevice() as device:
        text = f"""
table = "t1"
[camera]
source = "{FIXTURE / "video.mp4"}"
table_file = "{FIXTURE / "table.json"}"
[serial]
port = "{device.path}"
[journal]
path = "{tmp_path / "j.sqlite"}"
"""
        config = load_config(_write(tmp_path, text), env={})
        assert run_table(config) == 0
    with Journal(tmp_path / "j.sqlite", table="t1") as journal:
        state = journal.restore()
    assert result_json(state)["totals"] == [36, 0]
    # a clean stop tells the table the seat device is gone (published as the device state)
    assert not state.link_up and state.link_detail == "bridge stopped"


def test_every_problem_of_a_config_is_reported_not_only_the_first(tmp_path: Path) -> None:
    text = (
        'table = "a/b"\n[lights]\non = true\n[camera]\nfps = -1\nzoom = 2\n'
        '[rules]\npreset = "chess"\n'
    )
    with pytest.raises(ConfigError) as caught:
        load_config(_write(tmp_path, text), env={})
    where = str(tmp_path / "table.toml")
    problems = [p.removeprefix(f"{where}: ") for p in caught.value.problems]
    assert problems[:4] == [
        "unknown section(s) lights",
        "[camera] has unknown key(s) zoom",
        "table must be a name without '/', '+' or '#'",
        "[camera] fps must be a positive number",
    ]
    assert len(problems) == 5 and problems[4].startswith("[rules] unknown rules preset 'chess'")
