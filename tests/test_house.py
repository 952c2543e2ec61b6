"""The house's rooms stay small: no module of the shipped packages is over 600 lines, outside
``vision/recognition`` (rebuilt in its own issue). The layers themselves are import-linter's
contracts (``.importlinter``), checked by ``scripts/test.sh`` right after mypy."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("controller", "vision", "firmware_bridge", "domino_common")
EXEMPT_TREE = Path("vision/recognition")
MAX_LINES = 600


def _line_counts(root: Path) -> dict[Path, int]:
    counts: dict[Path, int] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root)
            if rel.is_relative_to(EXEMPT_TREE):
                continue
            with path.open("rb") as f:
                counts[rel] = sum(1 for _ in f)
    return counts


def _over(counts: dict[Path, int]) -> dict[Path, int]:
    return {p: n for p, n in counts.items() if n > MAX_LINES}


def test_no_module_is_over_600_lines() -> None:
    counts = _line_counts(ROOT)
    assert len(counts) > 100  # the walk found the packages
    over = {str(p): n for p, n in _over(counts).items()}
    assert not over, f"modules over {MAX_LINES} lines (split them): {over}"


def test_the_count_sees_a_long_module_and_skips_the_recogniser(tmp_path: Path) -> None:
    long = "x = 1\n" * (MAX_LINES + 1)
    (tmp_path / "vision" / "recognition").mkdir(parents=True)
    (tmp_path / "vision" / "recognition" / "reader.py").write_text(long)
    (tmp_path / "vision" / "tracking.py").write_text(long)
    (tmp_path / "controller").mkdir()
    (tmp_path / "controller" / "short.py").write_text("x = 1\n" * MAX_LINES)
    (tmp_path / "firmware_bridge").mkdir()
    counts = _line_counts(tmp_path)
    assert _over(counts) == {Path("vision/tracking.py"): MAX_LINES + 1}
    assert counts[Path("controller/short.py")] == MAX_LINES
