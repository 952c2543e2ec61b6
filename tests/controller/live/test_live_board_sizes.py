"""The table page at the sizes it is read at: a phone (390x844), a TV at 1080p and at 4K.

Layout facts are measured through the DOM in headless Chromium (nothing outside the screen or
clipped, team names on one line, tiles and type grown in proportion to the screen, the line inside
its panel as a chain of touching tiles, the chart filling its panel), and the 4K screenshot,
scaled down, is compared with the 1080p one pixel by pixel (no reference image to keep).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import cv2
import numpy as np
import pytest
from live_support import Board, wait_until

from controller.live.broker import MosquittoBroker
from controller.live.examples import example_body, example_reveal_body
from controller.live.models import BonusView
from controller.live.publisher import MqttPublisher

pytestmark = pytest.mark.browser

TEAMS = ["Los Gallos", "Las Palomas"]
PHONE, TV, TV4K = (390, 844), (1920, 1080), (3840, 2160)

# Everything measured in one go, in CSS pixels.
MEASURE = """() => {
  const box = (el) => { const b = el.getBoundingClientRect();
    return {x: b.left, y: b.top, w: b.width, h: b.height}; };
  const shown = (el) => !el.closest("svg") && !el.closest("[hidden]")
    && getComputedStyle(el).display !== "none";
  const tv = document.body.classList.contains("tv");
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (el.className ? "." + String(el.className).replace(/ /g, ".") : "");
  const outside = [], clipped = [];
  for (const el of document.querySelectorAll("body *")) {
    if (!shown(el)) continue;
    const b = el.getBoundingClientRect();
    if (b.width === 0 && b.height === 0) continue;
    if (b.left < -0.5 || b.right > innerWidth + 0.5 || (tv && b.bottom > innerHeight + 0.5))
      outside.push(name(el));
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible")
      clipped.push(name(el));
  }
  const names = [...document.querySelectorAll(".side .name")].map((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return {text: el.textContent, height: el.getBoundingClientRect().height,
      lineHeight: parseFloat(getComputedStyle(el).lineHeight),
      textWidth: range.getBoundingClientRect().width, width: el.clientWidth};
  });
  const chart = document.getElementById("chart");
  return {
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
    font: parseFloat(getComputedStyle(document.body).fontSize),
    score: parseFloat(getComputedStyle(document.querySelector(".side .score")).fontSize),
    line: box(document.getElementById("line")),
    tiles: [...document.querySelectorAll("#line g.tile")].map((g) =>
      ({...box(g.querySelector("rect")), corner: g.hasAttribute("data-corner")})),
    chart: box(chart),
    chartPanel: box(chart.parentElement),
    plot: box(chart.querySelector("polyline.series")),
    names, outside, clipped,
  };
}"""


@pytest.fixture
def room(
    mosquitto: MosquittoBroker,
    board_on: Callable[..., Board],
    publishers: Callable[..., MqttPublisher],
) -> tuple[Board, MqttPublisher]:
    board = board_on(mosquitto.url)
    wait_until(lambda: board.http.get("/healthz").json()["broker"] == "up", "scoreboard up")
    pub = publishers(mosquitto.url, "t-room", teams=TEAMS)
    pub.start()
    pub.publish_state(example_reveal_body())
    board.wait_table("t-room", "state", lambda v: v["state"] is not None)
    return board, pub


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[[str, tuple[int, int]], Any]]:
    contexts: list[Any] = []
    errors: list[str] = []

    def open_(url: str, size: tuple[int, int]) -> Any:
        ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url)
        page.locator("#line g.tile").nth(19).wait_for(timeout=20_000)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r(null)))")
        return page

    yield open_
    for ctx in contexts:
        ctx.close()
    assert errors == [], errors


def _gap(a: dict[str, float], b: dict[str, float]) -> tuple[float, float]:
    """How far apart two boxes are along x and along y (0 where they overlap)."""
    dx = max(0.0, a["x"] - (b["x"] + b["w"]), b["x"] - (a["x"] + a["w"]))
    dy = max(0.0, a["y"] - (b["y"] + b["h"]), b["y"] - (a["y"] + a["h"]))
    return dx, dy


def _overlap(a: dict[str, float], b: dict[str, float]) -> float:
    ix = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    iy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return min(ix, iy)


def check_layout(m: dict[str, Any], size: tuple[int, int], *, one_screen: bool) -> None:
    width, height = size
    assert m["scrollWidth"] <= width, "the page scrolls sideways"
    if one_screen:
        assert m["scrollHeight"] <= height, "a TV page must fit one screen"
    assert m["outside"] == [], m["outside"]
    assert m["clipped"] == [], m["clipped"]
    for n in m["names"]:  # one line, and not cut
        assert abs(n["height"] - n["lineHeight"]) < 1, n
        assert n["textWidth"] <= n["width"] + 0.5, n
    tiles, line = m["tiles"], m["line"]
    assert len(tiles) == 20
    short = min(min(t["w"], t["h"]) for t in tiles)
    for t in tiles:  # inside the felt
        assert t["x"] >= line["x"] - 0.5 and t["x"] + t["w"] <= line["x"] + line["w"] + 0.5
        assert t["y"] >= line["y"] - 0.5 and t["y"] + t["h"] <= line["y"] + line["h"] + 0.5
    for i, a in enumerate(tiles):  # no tile lies on another
        for b in tiles[i + 1 :]:
            assert _overlap(a, b) <= 0.5, (a, b)
    for a, b in itertools.pairwise(tiles):  # each touches the next: a chain, as laid
        dx, dy = _gap(a, b)
        assert dx <= 0.2 * short and dy <= 0.2 * short, (a, b)
    chart, panel = m["chart"], m["chartPanel"]
    assert chart["w"] >= 0.9 * panel["w"] and chart["h"] >= 0.6 * panel["h"]
    assert m["plot"]["w"] >= 0.75 * chart["w"], "the chart does not fill its panel"


def test_tv_mode_fits_one_screen_and_4k_is_1080p_doubled(
    room: tuple[Board, MqttPublisher], open_page: Callable[[str, tuple[int, int]], Any]
) -> None:
    board, _ = room
    measured, shots = {}, {}
    for size in (TV, TV4K):
        page = open_page(f"{board.url}/tv/t-room", size)
        m = page.evaluate(MEASURE)
        check_layout(m, size, one_screen=True)
        assert [n["text"] for n in m["names"]] == TEAMS
        assert any(t["corner"] for t in m["tiles"]), "a 20-tile line turns at the edge"
        height = size[1]
        # read from across a room: type and tiles sized from the screen
        assert m["font"] >= 0.023 * height and m["score"] >= 0.07 * height
        assert min(min(t["w"], t["h"]) for t in m["tiles"]) >= 0.06 * height
        assert m["chart"]["h"] >= 0.18 * height
        measured[size] = m
        shots[size] = page.screenshot()
    small, large = measured[TV], measured[TV4K]
    assert large["font"] / small["font"] == pytest.approx(2, rel=0.01)
    for key in ("line", "chart"):
        assert large[key]["w"] / small[key]["w"] == pytest.approx(2, rel=0.02)
        assert large[key]["h"] / small[key]["h"] == pytest.approx(2, rel=0.02)
    for a, b in zip(small["tiles"], large["tiles"], strict=True):
        assert b["w"] / a["w"] == pytest.approx(2, rel=0.02)
        assert b["x"] / a["x"] == pytest.approx(2, rel=0.02)
    # the screenshots: 4K scaled down to 1080p draws the same picture (small blur: anti-aliasing)
    hd = cv2.imdecode(np.frombuffer(shots[TV], np.uint8), cv2.IMREAD_COLOR).astype(np.float32)
    uhd = cv2.imdecode(np.frombuffer(shots[TV4K], np.uint8), cv2.IMREAD_COLOR)
    assert uhd.shape[:2] == (2160, 3840)
    down = cv2.resize(uhd, TV, interpolation=cv2.INTER_AREA).astype(np.float32)
    diff = np.abs(cv2.GaussianBlur(hd, (0, 0), 2) - cv2.GaussianBlur(down, (0, 0), 2)).mean(axis=2)
    assert diff.mean() < 4 and (diff > 40).mean() < 0.005, (diff.mean(), (diff > 40).mean())


@pytest.mark.parametrize(
    ("path", "size"), [("/table/t-room", PHONE), ("/table/t-room", TV)], ids=["phone", "page-1080p"]
)
def test_table_page_grows_with_the_screen_and_stacks_on_a_phone(
    room: tuple[Board, MqttPublisher],
    open_page: Callable[[str, tuple[int, int]], Any],
    path: str,
    size: tuple[int, int],
) -> None:
    board, _ = room
    m = open_page(board.url + path, size).evaluate(MEASURE)
    check_layout(m, size, one_screen=False)
    assert [n["text"] for n in m["names"]] == TEAMS
    if size == TV:  # not the small tiles of a fixed-size page
        assert min(min(t["w"], t["h"]) for t in m["tiles"]) >= 0.06 * size[1]
        assert m["font"] >= 0.02 * size[1]
    else:  # the two teams side by side, each name whole on its line
        a, b = (n for n in m["names"])
        assert a["height"] == b["height"]


def test_the_tiles_shown_and_how_each_hand_was_scored(
    room: tuple[Board, MqttPublisher], open_page: Callable[[str, tuple[int, int]], Any]
) -> None:
    from playwright.sync_api import expect

    board, pub = room
    page = open_page(f"{board.url}/tv/t-room", TV)
    panel = page.locator("#reveal-panel")
    expect(panel).to_be_visible()
    expect(page.locator("#reveal-title")).to_contain_text("domino by Dani")
    expect(page.locator("#reveal-summary")).to_contain_text("capicúa +25 (Dani)")
    seat = page.locator("#reveal .seat")
    expect(seat).to_have_count(4)
    expect(seat.nth(0)).to_contain_text("out")
    expect(seat.nth(1).locator("g.tile")).to_have_count(2)  # 3-6, 4-6
    expect(seat.nth(1).locator(".pips")).to_have_text("19 pips")
    expect(seat.nth(2).locator(".pips")).to_have_text("9 pips")
    expect(seat.nth(3)).to_contain_text("not shown yet")
    hand2 = page.locator('#hands li[data-hand="2"]')
    expect(hand2.locator(".who")).to_have_text("Las Palomas")
    expect(hand2.locator(".pts")).to_have_text("+81")
    expect(hand2.locator(".how")).to_have_text("blocked")
    expect(hand2.locator(".detail")).to_contain_text("pase corrido +25 (Dani)")
    expect(page.locator('#hands li[data-hand="1"] .how')).to_have_text("capicúa by Ana")
    expect(page.locator("#hands li").first).to_have_attribute("data-hand", "2")  # newest first
    # the next hand, before its first tile: the last hand scored, with the tiles shown then
    body = example_body(hand_no=3)
    assert body.hand is not None
    waiting = body.hand.model_copy(update={"phase": "waiting", "line": [], "last_move": None})
    pub.publish_state(body.model_copy(update={"hand": waiting}))
    expect(page.locator("#reveal-title")).to_have_text("Hand 2: Las Palomas +81", timeout=20_000)
    expect(page.locator("#reveal .seat").nth(3).locator("g.tile")).to_have_count(1)
    expect(page.locator("#reveal .seat").nth(0).locator(".pips")).to_have_text("30 pips")
    # its first tile: the line takes the room again
    pub.publish_state(example_body(hand_no=3))
    expect(panel).to_be_hidden(timeout=20_000)
    expect(page.locator("#line g.tile")).to_have_count(6)
    # a pase corrido is shown when it happens
    playing = example_body(hand_no=3)
    assert playing.hand is not None
    bonus = BonusView(kind="pase_corrido", seat=1, side=1, points=25, move=6)
    pub.publish_state(
        playing.model_copy(update={"hand": playing.hand.model_copy(update={"bonuses": [bonus]})})
    )
    expect(page.locator("#phase")).to_have_text("playing · pase corrido +25 (Beto)", timeout=20_000)


def test_tv_mode_by_query_and_the_links_between_the_modes(
    room: tuple[Board, MqttPublisher], open_page: Callable[[str, tuple[int, int]], Any]
) -> None:
    board, _ = room
    page = open_page(f"{board.url}/table/t-room?tv=1", TV)
    assert page.evaluate("document.body.classList.contains('tv')")
    assert page.evaluate("document.documentElement.scrollHeight") <= TV[1]
    page = open_page(f"{board.url}/table/t-room", TV)
    assert not page.evaluate("document.body.classList.contains('tv')")
    assert page.get_attribute("#mode-link", "href") == "/tv/t-room"
