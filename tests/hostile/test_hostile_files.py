"""Issue 46 item 5, files: every CLI reader is bounded by what it actually reads (``/dev/zero``,
stdin, a huge sparse file, a small PNG declaring 30000x30000 pixels), and refuses with one line and
exit 2 -- never exit 70, never a traceback. Peak memory is measured on the real process: each
command runs under a small Python parent that reports ``getrusage(RUSAGE_CHILDREN).ru_maxrss``
(the child's peak resident set), compared with the same command on a tiny bad input."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from tests.hostile.ledger import case, record_case

ROOT = Path(__file__).resolve().parents[2]
_SCRIPT = Path(sys.executable).parent / "domino-table"
CLI = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "controller.cli"]
HEADROOM_KB = 200 * 1024  # idle + 200 MB
KIND = "files to the CLI (huge images, /dev/zero, sparse 1 GB, deep JSON, configs)"

_MEASURE = """
import resource, subprocess, sys
stdin = open(sys.argv[1], "rb") if sys.argv[1] != "-" else subprocess.DEVNULL
r = subprocess.run(sys.argv[2:], stdin=stdin, capture_output=True, text=True)
sys.stderr.write(r.stderr)
sys.stdout.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(r.returncode)
"""


def measured(*args: str, stdin: str = "-") -> tuple[int, str, int]:
    """``(exit code, stderr, peak RSS in kB)`` of ``domino-table ARGS``."""
    r = subprocess.run(
        [sys.executable, "-c", _MEASURE, stdin, *CLI, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return r.returncode, r.stderr, int(r.stdout)


def one_line_refusal(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("domino-table: "), err
    assert "Traceback" not in err and "internal error" not in err
    for word in words:
        assert word in err, err


def _png_header_only(path: Path, width: int, height: int) -> None:
    """A valid 1-bit grey PNG of ``width`` x ``height`` whose pixels are all 0, made small by
    compression: 30000x30000 is about 110 kB on disk and 2.7 GB decoded as BGR."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    row = b"\x00" * (1 + (width + 7) // 8)
    packer = zlib.compressobj(9)
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("hostile")
    huge_png = d / "huge.png"
    _png_header_only(huge_png, 30000, 30000)
    sparse = d / "sparse.jpg"
    with sparse.open("wb") as f:
        f.write(b"\xff\xd8\xff\xe0")
        f.truncate(2**30)  # 1 GB, almost all holes
    tiny = d / "tiny.png"
    tiny.write_bytes(b"\x89PNG\r\n\x1a\n")
    deep = d / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    small = d / "small.json"
    small.write_text("{}")
    return {"huge_png": huge_png, "sparse": sparse, "tiny": tiny, "deep": deep, "small": small}


def test_the_huge_png_is_small_on_disk(files: dict[str, Path]) -> None:
    assert files["huge_png"].stat().st_size < 3 * 2**20


@pytest.mark.parametrize(
    ("command", "image", "words"),
    [
        (("vision", "identify"), "huge_png", ("30000x30000",)),
        (("vision", "identify"), "sparse", ("64 MB",)),
        (("vision", "calibrate", "--out", "/dev/null"), "huge_png", ("30000x30000",)),
        (("vision", "calibrate", "--out", "/dev/null"), "sparse", ("64 MB",)),
        (("vision", "lens", "--out", "/dev/null"), "huge_png", ("30000x30000",)),
        (("vision", "identify"), "/dev/zero", ("64 MB",)),
        (("vision", "calibrate", "--out", "/dev/null"), "/dev/zero", ("64 MB",)),
    ],
)
def test_big_images_are_refused_from_their_header_within_bounded_memory(
    files: dict[str, Path], command: tuple[str, ...], image: str, words: tuple[str, ...]
) -> None:
    _, _, idle = measured(*command, str(files["tiny"]))
    with case(KIND) as c:
        code, err, peak = measured(*command, str(files.get(image, image)))
        if command[1] == "identify":  # one line per image it could not read, exit 1 (documented)
            assert code == 1 and err.count("\n") == 1 and "Traceback" not in err, err
            assert all(w in err for w in words), err
        else:
            one_line_refusal(code, err, *words)
        assert peak < idle + HEADROOM_KB, f"peak {peak} kB, idle {idle} kB"
        c.refused()


@pytest.mark.parametrize(
    ("args", "stdin", "words"),
    [
        (("replay", "/dev/zero"), "-", ("/dev/zero", "too long for a game record")),
        (("replay", "-"), "/dev/zero", ("<stdin>", "longer than")),
        (("replay", "SPARSE"), "-", ("too long for a game record",)),
    ],
)
def test_replay_reads_at_most_its_limit(
    files: dict[str, Path], args: tuple[str, ...], stdin: str, words: tuple[str, ...]
) -> None:
    _, _, idle = measured("replay", str(files["small"]))
    args = tuple(str(files["sparse"]) if a == "SPARSE" else a for a in args)
    with case(KIND) as c:
        code, err, peak = measured(*args, stdin=stdin)
        one_line_refusal(code, err, *words)
        assert peak < idle + HEADROOM_KB, f"peak {peak} kB, idle {idle} kB"
        c.refused()


def test_deep_json_is_one_line_not_exit_70(files: dict[str, Path]) -> None:
    with case(KIND) as c:
        code, err, _ = measured("replay", str(files["deep"]))
        one_line_refusal(code, err, "nested too deeply")
        c.refused()
    with case(KIND) as c:
        code, err, _ = measured("replay", "-", stdin=str(files["deep"]))
        one_line_refusal(code, err, "<stdin>", "nested too deeply")
        c.refused()


def test_a_table_file_from_dev_zero_is_refused(tmp_path: Path, files: dict[str, Path]) -> None:
    code, err, _ = measured(
        "vision", "calibrate", str(files["huge_png"]), "--table", "/dev/zero", "--out", "/dev/null"
    )
    assert code == 2 and "internal error" not in err and "Traceback" not in err
    from vision.calibration import load_table
    from vision.errors import CalibrationError

    with pytest.raises(CalibrationError, match="longer than"):
        load_table("/dev/zero")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    with pytest.raises(CalibrationError):
        load_table(deep)
    record_case(KIND, "refused", 3)


def test_a_config_from_dev_zero_and_endless_button_lines_are_refused(tmp_path: Path) -> None:
    from controller.runtime.config import ConfigError, read_config
    from firmware_bridge.errors import FixtureError
    from firmware_bridge.sim import load_buttons

    with pytest.raises(ConfigError, match="too long for a config file"):
        read_config(Path("/dev/zero"))
    with pytest.raises(FixtureError, match="line longer than"):
        load_buttons(Path("/dev/zero"))
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe = 1")
    with pytest.raises(ConfigError, match="not UTF-8"):
        read_config(bad)
    bad.write_text("a = " + "[" * 100_000)
    with pytest.raises(ConfigError, match="nested too deeply"):
        read_config(bad)
    deep = tmp_path / "buttons.jsonl"
    deep.write_text("[" * 2000 + "\n")
    with pytest.raises(FixtureError, match="nested too deeply"):
        load_buttons(deep)
    record_case(KIND, "refused", 6)


@pytest.mark.parametrize(("source", "words"), [("/dev/zero", "longer than"), ("deep", "nested")])
def test_render_record_reads_a_bounded_record(
    files: dict[str, Path], tmp_path: Path, source: str, words: str
) -> None:
    path = str(files.get(source, source))
    with case(KIND) as c:
        code, err, _ = measured("fixture", "render-record", path, "--out", str(tmp_path / "out"))
        one_line_refusal(code, err, words)
        c.refused()
