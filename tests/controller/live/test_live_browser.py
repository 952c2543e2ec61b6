"""The pages in headless Chromium (Debian's, driven by Playwright) over a real Mosquitto."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from live_support import Board, SimProcess, wait_until

from controller.live.broker import MosquittoBroker
from controller.live.examples import example_body
from controller.live.publisher import MqttPublisher

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert errors == [], errors


@pytest.fixture
def tv(mosquitto: MosquittoBroker, board_on: Callable[..., Board]) -> Board:
    b = board_on(mosquitto.url)
    wait_until(lambda: b.http.get("/healthz").json()["broker"] == "up", "scoreboard connected")
    return b


def test_table_page_shows_the_published_state(
    mosquitto: MosquittoBroker, tv: Board, page: Any, publishers: Callable[..., MqttPublisher]
) -> None:
    from playwright.sync_api import expect

    pub = publishers(mosquitto.url, "t-page")
    pub.start()
    pub.publish_state(example_body(hand_no=3, scores=(57, 81)))
    page.goto(f"{tv.url}/table/t-page")
    expect(page.locator("#score-0")).to_have_text("57", timeout=20_000)
    expect(page.locator("#score-1")).to_have_text("81")
    expect(page.locator("#hand-no")).to_have_text("3")
    expect(page.locator("#turn")).to_have_text("Carla")
    expect(page.locator("#line g.tile")).to_have_count(6)
    expect(page.locator("#line g.tile").first.locator("circle.pip")).to_have_count(7)  # 1-6
    expect(page.locator("#last-move")).to_have_text("Beto: 5-3")
    expect(page.locator("#alerts .alert.renuncio")).to_have_count(1)
    expect(page.locator("#chart polyline.series")).to_have_count(2)
    expect(page.locator("#banner")).to_be_hidden()
    expect(page.locator("#device")).to_have_text("device up")
    # a live update, without reloading
    pub.publish_state(example_body(hand_no=4, scores=(90, 81)))
    expect(page.locator("#score-0")).to_have_text("90", timeout=20_000)
    expect(page.locator("#hand-no")).to_have_text("4")
    # usable on a phone: nothing wider than the screen
    page.set_viewport_size({"width": 390, "height": 844})
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390


def test_offline_banner_when_the_last_will_fires_and_recovery(
    mosquitto: MosquittoBroker, tv: Board, page: Any, sims: Callable[..., SimProcess]
) -> None:
    from playwright.sync_api import expect

    sim = sims(mosquitto.url, "t-live", 0.3)
    page.goto(f"{tv.url}/table/t-live")
    expect(page.locator("#status")).to_have_text("online", timeout=20_000)
    expect(page.locator("#banner")).to_be_hidden()
    sim.kill()
    banner = page.locator("#banner")
    expect(banner).to_be_visible(timeout=20_000)
    expect(banner).to_have_attribute("data-kind", "offline")
    expect(banner).to_contain_text("offline")
    assert page.locator("#scores .side").count() == 2  # last known state still shown
    sims(mosquitto.url, "t-live", 0.3)
    expect(banner).to_be_hidden(timeout=20_000)
    expect(page.locator("#status")).to_have_text("online")


def test_hall_page_lists_tables_and_links_to_them(
    mosquitto: MosquittoBroker, tv: Board, page: Any, publishers: Callable[..., MqttPublisher]
) -> None:
    from playwright.sync_api import expect

    for table, scores in (("h-1", (10, 20)), ("h-2", (30, 40))):
        pub = publishers(mosquitto.url, table)
        pub.start()
        pub.publish_state(example_body(scores=scores))
    page.goto(tv.url + "/")
    expect(page.locator("#card-h-2 .sc")).to_have_text("30 – 40", timeout=20_000)
    expect(page.locator("#card-h-1 .pill")).to_have_text("online")
    # live: a new table is inserted in order, a changed one redrawn in place
    late = publishers(mosquitto.url, "h-0")
    late.start()
    late.publish_state(example_body(scores=(1, 2)))
    expect(page.locator("#card-h-0 .sc")).to_have_text("1 – 2", timeout=20_000)
    first = publishers(mosquitto.url, "h-1")
    first.start()
    first.publish_state(example_body(scores=(11, 20)))
    expect(page.locator("#card-h-1 .sc")).to_have_text("11 – 20", timeout=20_000)
    ids = page.locator(".card").evaluate_all("cards => cards.map((c) => c.dataset.table)")
    assert ids == sorted(ids) and {"h-0", "h-1", "h-2"} <= set(ids)
    expect(page.locator("#count")).to_have_text(str(len(ids)))
    page.locator("#card-h-1").click()
    expect(page.locator("#score-0")).to_have_text("11", timeout=20_000)


def test_connection_lost_banner_when_the_scoreboard_goes_away(
    mosquitto: MosquittoBroker, board_on: Callable[..., Board], page: Any
) -> None:
    from playwright.sync_api import expect

    b = board_on(mosquitto.url)
    page.goto(f"{b.url}/table/nobody")
    expect(page.locator("#banner")).to_have_attribute("data-kind", "stale", timeout=20_000)
    b.server.stop()
    expect(page.locator("#banner")).to_have_attribute("data-kind", "lost", timeout=20_000)


def test_refused_payload_marks_the_page_stale_and_keeps_the_last_good_state(
    mosquitto: MosquittoBroker, tv: Board, page: Any, publishers: Callable[..., MqttPublisher]
) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion
    from playwright.sync_api import expect

    pub = publishers(mosquitto.url, "t-junk")
    pub.start()
    pub.publish_state(example_body(scores=(44, 55)))
    page.goto(f"{tv.url}/table/t-junk")
    expect(page.locator("#score-0")).to_have_text("44", timeout=20_000)
    expect(page.locator("#banner")).to_be_hidden()
    junk = mqtt.Client(CallbackAPIVersion.VERSION2)
    junk.connect(mosquitto.host, mosquitto.port)
    junk.loop_start()
    junk.publish(
        "domino/v1/t-junk/state", b'{"schema": "domino-table/state/7"}', 1
    ).wait_for_publish(5)
    junk.disconnect()
    junk.loop_stop()
    expect(page.locator("#banner")).to_have_attribute("data-kind", "stale", timeout=20_000)
    expect(page.locator("#banner")).to_contain_text("unknown_schema")
    expect(page.locator("#score-0")).to_have_text("44")
    pub.publish_state(example_body(scores=(45, 55)))
    expect(page.locator("#score-0")).to_have_text("45", timeout=20_000)
    expect(page.locator("#banner")).to_be_hidden()


def test_page_says_so_when_the_scoreboard_loses_the_broker(
    board_on: Callable[..., Board], page: Any, publishers: Callable[..., MqttPublisher]
) -> None:
    from live_support import need_mosquitto
    from playwright.sync_api import expect

    need_mosquitto()
    with MosquittoBroker() as own:
        b = board_on(own.url)
        pub = publishers(own.url, "t-nobroker")
        pub.start()
        pub.publish_state(example_body(scores=(3, 4)))
        page.goto(f"{b.url}/table/t-nobroker")
        expect(page.locator("#score-1")).to_have_text("4", timeout=20_000)
        expect(page.locator("#banner")).to_be_hidden()
    expect(page.locator("#banner")).to_contain_text("lost the broker", timeout=20_000)
    expect(page.locator("#score-1")).to_have_text("4")
