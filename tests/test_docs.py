"""The Markdown pages describe the system as it is (issue 48: history lives in git, not in docs):
no page carries a diary marker, and every relative link between pages, anchors included, lands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

DIARY_MARKERS = (
    re.compile(r"\bsession \d+\b", re.IGNORECASE),
    re.compile(r"\bcommit [0-9a-f]{7}", re.IGNORECASE),
    re.compile(r"\(proposed\b", re.IGNORECASE),
    re.compile(r"^#+ README section", re.IGNORECASE),  # a page's draft of a README section
    re.compile(r"hand-off", re.IGNORECASE),
)

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def markdown_pages(root: Path) -> list[Path]:
    """Every ``*.md`` under ``root`` outside hidden directories (the venv, git, node) and
    ``node_modules``."""
    pages = []
    for path in sorted(root.rglob("*.md")):
        parts = path.relative_to(root).parts[:-1]
        if any(p.startswith(".") or p == "node_modules" for p in parts):
            continue
        pages.append(path)
    return pages


def diary_lines(text: str) -> list[tuple[int, str]]:
    """The (line number, line) pairs of ``text`` that carry a diary marker."""
    return [
        (n, line)
        for n, line in enumerate(text.splitlines(), start=1)
        if any(marker.search(line) for marker in DIARY_MARKERS)
    ]


def heading_anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # a '#' in a code block is no heading
    return {heading_anchor(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.MULTILINE)}


def broken_links(page: Path) -> list[str]:
    """Relative links of ``page`` whose file, or whose anchor in a Markdown file, does not exist."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    bad = []
    for target in LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.exists() or (anchor and dest.suffix == ".md" and anchor not in anchors(dest)):
            bad.append(target)
    return bad


PAGES = markdown_pages(ROOT)


def test_pages_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in PAGES}
    assert {"README.md", "CONTRIBUTING.md", "docs/live.md", "hardware/PROTOCOL.md"} <= names
    assert not any(n.startswith(".venv/") for n in names)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_diary_markers(page: Path) -> None:
    found = diary_lines(page.read_text(encoding="utf-8"))
    assert not found, "\n".join(f"{page.name}:{n}: {line}" for n, line in found)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_land(page: Path) -> None:
    assert broken_links(page) == []


@pytest.mark.parametrize(
    "line",
    [
        "Session 3 (tracking side only): 11 of 15",
        "Re-measured with the recogniser of SESSION 2's end",
        "Measured on 2026-11-30 with the recogniser of commit 20dfc1c",
        "## README section (proposed)",
        "## README section (proposed; README.md belongs to the integrator)",
        "## README section (to merge into README.md)",
        "A hand-off note for the integrator",
    ],
)
def test_markers_are_caught(line: str) -> None:
    assert diary_lines(f"# Page\n\n{line}\n") == [(3, line)]


@pytest.mark.parametrize(
    "line",
    [
        "the device draws a fresh random session id at start-up",
        "a commit message says why",
        "sessions 10 apart",
        "the hand offers nothing",
    ],
)
def test_ordinary_text_passes(line: str) -> None:
    assert diary_lines(line) == []


def test_a_broken_link_is_caught(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## Figures\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#figures) [gone](missing.md) [no anchor](other.md#limits) [x](gone.md#a) "
        "[web](https://example.org/x) `[code](nowhere.md)`\n",
        encoding="utf-8",
    )
    assert broken_links(page) == ["missing.md", "other.md#limits", "gone.md#a"]
