// The big-screen page of one table: a snapshot on connect, then every change, by SSE.
"use strict";
(function () {
  const table = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const $ = (id) => document.getElementById(id);
  document.title = "Domino " + table;
  $("title").textContent = table;
  let view = null, conn = "", lastTs = null;
  window.__dt = {renders: 0, latencies: []};

  function seatName(match, seat) {
    if (seat === null || seat === undefined) return "–";
    const s = match && match.seats && match.seats[seat];
    return s ? s.name : "seat " + seat;
  }

  function banner() {
    const b = $("banner");
    let kind = "", text = "";
    if (conn === "lost") { kind = "lost"; text = "Connection to the scoreboard lost — reconnecting…"; }
    else if (conn === "stale") { kind = "stale"; text = "No news from the scoreboard — data may be stale"; }
    else if (view && view.broker !== "up") { kind = "stale"; text = "Scoreboard lost the broker — data may be stale"; }
    else if (view && view.status === "offline") { kind = "offline"; text = "Table offline — last known state shown"; }
    else if (view && view.stale) { kind = "stale"; text = "Stale: " + (view.stale_reason || "data may be out of date"); }
    b.className = kind ? "show " + kind : "";
    b.dataset.kind = kind;
    b.textContent = text;
  }

  function render(v) {
    view = v;
    banner();
    const st = $("status");
    st.className = "pill " + v.status;
    st.textContent = v.status;
    $("last-seen").textContent = DT.ago(v.last_seen);
    const dev = v.device || (v.state && v.state.device);
    const link = dev ? dev.link : "unknown";
    const devEl = $("device");
    devEl.className = "pill " + (link === "up" ? "online" : link === "down" ? "offline" : "unknown");
    devEl.textContent = "device " + (dev ? link : "–");
    const state = v.state;
    document.body.dataset.seq = state ? String(state.seq) : "";
    if (!state) return;
    const match = state.match, hand = state.hand;
    $("match").textContent = match ? `${match.rules} · to ${match.target}` : "no match";
    $("hand-no").textContent = match ? match.hand_no : "–";
    const scores = $("scores");
    scores.replaceChildren();
    (match ? match.sides : []).forEach((side, i) => {
      const turnSide = hand && hand.turn !== null && side.seats.includes(hand.turn);
      const card = DT.el("div", {class: "panel side" + (turnSide ? " turn" : "") +
        (match.winner === i ? " won" : ""), id: "side-" + i,
        style: `--c: var(--side${i % 2})`});
      card.appendChild(DT.el("div", {class: "name"}, side.name));
      card.appendChild(DT.el("div", {class: "score", id: "score-" + i}, side.score));
      const bar = DT.el("div", {class: "bar"});
      const fill = DT.el("div");
      fill.style.width = Math.min(100, 100 * side.score / match.target) + "%";
      bar.appendChild(fill);
      card.appendChild(bar);
      card.appendChild(DT.el("div", {class: "seats"},
        side.seats.map((s) => seatName(match, s)).join(" · ") + ` — ${Math.max(0, match.target - side.score)} to go`));
      scores.appendChild(card);
    });
    DT.drawLine($("line"), hand ? hand.line : []);
    $("turn").textContent = hand && hand.turn !== null ? seatName(match, hand.turn) : "–";
    $("phase").textContent = hand ? hand.phase : "waiting";
    const lm = hand && hand.last_move;
    $("last-move").textContent = lm ? (lm.kind === "play" ? `${seatName(match, lm.seat)}: ${lm.tile}`
      : `${seatName(match, lm.seat)} ${lm.kind === "pass" ? "passed" : "drew"}`) : "–";
    $("ends").textContent = hand && hand.ends ? `open ends ${hand.ends[0]} · ${hand.ends[1]}` : "";
    const counts = $("counts");
    counts.replaceChildren();
    (hand ? hand.counts : []).forEach((n, seat) => {
      const lacks = hand.lacks && hand.lacks[seat] && hand.lacks[seat].length
        ? ` (no ${hand.lacks[seat].join(", ")})` : "";
      counts.appendChild(DT.el("li", {}, `${seatName(match, seat)}: ${n}${lacks}`));
    });
    const passes = $("passes");
    passes.replaceChildren();
    (hand ? hand.passes : []).slice(-6).forEach((p) =>
      passes.appendChild(DT.el("li", {}, `${seatName(match, p.seat)} (move ${p.move})`)));
    if (hand && !hand.passes.length) passes.appendChild(DT.el("li", {class: "muted"}, "none"));
    const alerts = $("alerts");
    alerts.replaceChildren();
    state.alerts.forEach((a) => alerts.appendChild(DT.el("div", {class: "alert " + a.kind},
      `${a.kind.replace("_", " ")}${a.seat !== null ? " · " + seatName(match, a.seat) : ""}: ${a.message}`)));
    if (!state.alerts.length) alerts.appendChild(DT.el("span", {class: "muted"}, "none"));
    if (match) DT.drawChart($("chart"), match.score_history, match.sides, match.target);
    window.__dt.renders += 1;
    if (state.ts && state.ts !== lastTs) {
      // latency of each new state, once, taken at the frame that paints it (benchmarks)
      lastTs = state.ts;
      const seq = state.seq, ts = state.ts;
      requestAnimationFrame(() => window.__dt.latencies.push({seq,
        ms: performance.timeOrigin + performance.now() - ts * 1000}));
    }
  }

  DT.connect("/api/tables/" + encodeURIComponent(table) + "/stream", {table: render},
    (s) => { conn = s; banner(); }, 25000);
  setInterval(() => { if (view) $("last-seen").textContent = DT.ago(view.last_seen); }, 1000);
})();
