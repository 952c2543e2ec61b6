"""The scoreboard's consumer model: validation, staleness, seq gaps, sessions."""

import asyncio
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.live.examples import example_body
from controller.live.hub import HALL, Hub
from controller.live.models import encode
from controller.live.port import FakePublisher
from controller.live.store import TableStore
from domino_common.clock import FakeClock

R = "domino/v1"


def setup() -> tuple[TableStore, FakePublisher]:
    store = TableStore(R, ring_size=5, max_tables=3)
    store.set_broker(True)
    return store, FakePublisher("t1", clock=FakeClock(), session="s1")


def feed_state(store: TableStore, pub: FakePublisher, **kw: int) -> None:
    store.ingest(f"{R}/t1/state", encode(pub.publish_state(example_body(**kw))), 1.0)


def feed_event(store: TableStore, pub: FakePublisher) -> object:
    return store.ingest(f"{R}/t1/events", encode(pub.publish_event("pass", {})), 1.0)


def test_good_state_is_shown_fresh() -> None:
    store, pub = setup()
    feed_state(store, pub)
    store.ingest(f"{R}/t1/availability", b"online", 2.0)
    view = store.view("t1")
    assert view is not None
    assert view["state"]["match"]["hand_no"] == 3 and not view["stale"]
    assert view["status"] == "online" and view["last_seen"] == 2.0


def test_refused_payloads_keep_the_last_good_state_marked_stale() -> None:
    store, pub = setup()
    feed_state(store, pub, hand_no=4)
    store.ingest(f"{R}/t1/availability", b"online", 1.0)
    bad = [
        ("state", b"{oops"),
        ("state", b'{"schema": "domino-table/state/9"}'),
        ("state", b"x" * 300_000),
        ("events", b'{"schema": "domino-table/event/1", "seq": "x"}'),
        ("device", b"[]"),
        ("availability", b"maybe"),
    ]
    for kind, raw in bad:
        store.ingest(f"{R}/t1/{kind}", raw, 5.0)
        view = store.view("t1")
        assert view is not None
        assert view["state"]["match"]["hand_no"] == 4
        assert view["stale"] and "refused" in view["stale_reason"]
    assert sum(store.refused.values()) == len(bad)
    feed_state(store, pub, hand_no=5)
    view = store.view("t1")
    assert view is not None and not view["stale"]


def test_payload_for_another_table_is_refused() -> None:
    store, _ = setup()
    other = FakePublisher("t2", clock=FakeClock())
    store.ingest(f"{R}/t1/state", encode(other.publish_state(example_body())), 1.0)
    assert store.refused["state", "wrong_table"] == 1


def test_unexpected_topics_and_too_many_tables_are_ignored() -> None:
    store, _ = setup()
    for topic in (f"{R}/t1/state/extra", f"{R}/t1/cmd/undo", "other/t1/state", f"{R}/a b/state"):
        assert store.ingest(topic, b"{}", 1.0).table is None
    for i in range(5):
        store.ingest(f"{R}/x{i}/availability", b"online", 1.0)
    assert len(store.tables()) == 3


def state_of(table: str) -> bytes:
    return encode(FakePublisher(table, clock=FakeClock()).publish_state(example_body()))


def test_600_fake_retained_tables_cannot_crowd_out_a_configured_one() -> None:
    store = TableStore(R, max_tables=500, tracked=frozenset({"real"}))
    for i in range(600):
        store.ingest(f"{R}/fake-{i}/state", state_of(f"fake-{i}"), 1.0, retained=True)
    assert len(store.tables()) == 500
    store.ingest(f"{R}/real/state", state_of("real"), 2.0, retained=True)
    view = store.view("real")
    assert view is not None and view["state"] is not None
    assert len(store.tables()) == 500 and store.evicted == 101


def test_the_cap_evicts_the_stalest_unconfigured_table_never_a_live_or_configured_one() -> None:
    store = TableStore(R, max_tables=4, tracked=frozenset({"conf"}), live_window_s=100)
    store.ingest(f"{R}/conf/state", state_of("conf"), 0.0, retained=True)  # configured, silent
    store.ingest(f"{R}/old/state", state_of("old"), 10.0)  # live at 10, silent since
    store.ingest(f"{R}/live/state", state_of("live"), 150.0)  # live recently
    store.ingest(f"{R}/ghost/state", state_of("ghost"), 160.0, retained=True)  # never live
    store.ingest(f"{R}/new1/state", state_of("new1"), 200.0)
    assert store.tables() == ["conf", "live", "new1", "old"]  # the ghost went first
    store.ingest(f"{R}/new2/state", state_of("new2"), 201.0)
    assert store.tables() == ["conf", "live", "new1", "new2"]  # then the longest silent
    # everyone left is configured or live within the window: a newcomer is refused
    assert store.ingest(f"{R}/new3/state", state_of("new3"), 202.0).table is None
    assert store.refused["state", "too_many_tables"] == 1
    assert store.tables() == ["conf", "live", "new1", "new2"]


def test_junk_on_a_new_table_id_does_not_make_it_live_nor_keep_its_place() -> None:
    store = TableStore(R, max_tables=2, live_window_s=100)
    store.ingest(f"{R}/real/state", state_of("real"), 10.0)
    store.ingest(f"{R}/junk/state", b"{not json", 11.0)
    assert store.tables() == ["junk", "real"]
    store.ingest(f"{R}/next/state", state_of("next"), 12.0)
    assert store.tables() == ["next", "real"]


def test_seq_gap_asks_for_resync_and_state_clears_it() -> None:
    store, pub = setup()
    feed_state(store, pub)
    assert not feed_event(store, pub).resync  # type: ignore[attr-defined]
    pub.publish_event("pass", {})  # lost on the way
    outcome = feed_event(store, pub)
    assert outcome.resync  # type: ignore[attr-defined]
    view = store.view("t1")
    assert view is not None and view["stale"] and "missed" in view["stale_reason"]
    assert store.gaps_total == 1
    feed_state(store, pub)
    view = store.view("t1")
    assert view is not None and not view["stale"]


def test_duplicates_and_old_states_are_ignored() -> None:
    store, pub = setup()
    feed_state(store, pub)
    raw = encode(pub.publish_event("pass", {}))
    store.ingest(f"{R}/t1/events", raw, 1.0)
    store.ingest(f"{R}/t1/events", raw, 1.0)
    assert store.duplicates_total == 1
    new = encode(pub.publish_state(example_body(hand_no=9)))
    old = encode(pub.publish_state(example_body(hand_no=1)).model_copy(update={"seq": 0}))
    store.ingest(f"{R}/t1/state", new, 1.0)
    store.ingest(f"{R}/t1/state", old, 1.0)
    view = store.view("t1")
    assert view is not None and view["state"]["match"]["hand_no"] == 9


def test_a_restarted_table_starts_a_new_session() -> None:
    store, pub = setup()
    feed_state(store, pub)
    for _ in range(3):
        feed_event(store, pub)
    restarted = FakePublisher("t1", clock=FakeClock(), session="s2")
    outcome = store.ingest(f"{R}/t1/events", encode(restarted.publish_event("pass", {})), 1.0)
    assert outcome.resync
    found = store.events_since("t1", 0, 100)
    assert found is not None and [e["seq"] for e in found[0]] == [1]


def test_event_ring_is_bounded_and_since_tells_completeness() -> None:
    store, pub = setup()
    feed_state(store, pub)
    for _ in range(8):
        feed_event(store, pub)
    found = store.events_since("t1", 2, 100)
    assert found is not None
    events, oldest = found
    assert [e["seq"] for e in events] == [4, 5, 6, 7, 8] and oldest == 4
    record = store.record("t1")
    assert record is not None and not record["complete"]


def test_empty_retained_messages_clear_and_forget_a_table() -> None:
    store, pub = setup()
    feed_state(store, pub)
    store.ingest(f"{R}/t1/availability", b"online", 1.0)
    store.ingest(f"{R}/t1/state", b"", 2.0)
    store.ingest(f"{R}/t1/availability", b"", 2.0)
    assert store.tables() == []


def test_offline_and_broker_loss_mark_stale() -> None:
    store, pub = setup()
    feed_state(store, pub)
    store.ingest(f"{R}/t1/availability", b"offline", 3.0)
    assert store.summary("t1") == store.hall()[0]
    assert store.hall()[0]["stale_reason"] == "table offline"
    store.ingest(f"{R}/t1/availability", b"online", 3.0)
    store.set_broker(False)
    assert store.hall()[0]["stale_reason"] == "scoreboard lost the broker"


def test_hub_drops_the_slowest_client_only() -> None:
    async def scenario() -> None:
        hub = Hub(queue_size=2)
        slow, fast = hub.subscribe("t1"), hub.subscribe("t1")
        hall = hub.subscribe(HALL)
        for i in range(3):
            hub.publish("t1", f"m{i}")
            if i < 2:
                assert await fast.queue.get() == f"m{i}"
        assert slow.dropped and not fast.dropped and hub.dropped_total == 1
        assert await slow.queue.get() is None
        assert await fast.queue.get() == "m2"
        hub.close()
        assert await hall.queue.get() is None
        late = hub.subscribe("t1")
        assert await late.queue.get() is None
        hub.unsubscribe(late)
        assert hub.clients == 3

    asyncio.run(scenario())


def test_views_are_json() -> None:
    store, pub = setup()
    feed_state(store, pub)
    json.dumps([store.view("t1"), store.hall(), store.record("t1")])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["state", "events", "device", "availability", "cmd/undo", "x", ""]),
            st.sampled_from(["t1", "t2", "a b", "", "t1/extra"]),
            st.one_of(
                st.binary(max_size=200),
                st.sampled_from([b"", b"online", b"offline", b"{}", b"null", b"[]"]),
            ),
        ),
        max_size=30,
    )
)
def test_junk_never_raises_and_never_replaces_a_good_state(
    junk: list[tuple[str, str, bytes]],
) -> None:
    store, pub = setup()
    feed_state(store, pub, hand_no=6)
    for kind, table, raw in junk:
        if (kind, raw) in (("state", b""), ("availability", b"")) and table == "t1":
            continue  # an empty retained message legitimately clears the topic
        store.ingest(f"{R}/{table}/{kind}", raw, 2.0)
    view = store.view("t1")
    assert view is not None and view["state"]["match"]["hand_no"] == 6
    json.dumps([store.hall(), view])
