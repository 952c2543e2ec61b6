// The page of one table: a snapshot on connect, then every change, by SSE. /tv/<table> (or
// ?tv=1) is the same page laid out for a TV across the room: one screen, no scrolling, sized
// from the viewport.
"use strict";
(function () {
  const table = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const tv = location.pathname.startsWith("/tv/") || new URLSearchParams(location.search).get("tv") === "1";
  const $ = (id) => document.getElementById(id);
  document.body.classList.toggle("tv", tv);
  document.title = "Domino " + table;
  $("title").textContent = table;
  const mode = $("mode-link");
  mode.textContent = tv ? "page" : "TV";
  mode.href = (tv ? "/table/" : "/tv/") + encodeURIComponent(table);
  let view = null, conn = "", lastTs = null;
  window.__dt = {renders: 0, latencies: []};

  function seatName(match, seat) {
    if (seat === null || seat === undefined) return "–";
    const s = match && match.seats && match.seats[seat];
    return s ? s.name : "seat " + (seat + 1);
  }

  function sideName(match, side) {
    const s = match && match.sides && match.sides[side];
    return s ? s.name : "side " + (side + 1);
  }

  const BONUS = {pase_corrido: "pase corrido", capicua: "capicúa", going_out: "going out"};
  function bonusText(match, b) {
    return `${BONUS[b.kind] || b.kind.replace(/_/g, " ")} +${b.points} (${seatName(match, b.seat)})` +
      (b.counted === false ? " not counted" : "");
  }

  function howText(match, h) {
    const capicua = (h.bonuses || []).some((b) => b.kind === "capicua");
    if (h.result === "domino") return (capicua ? "capicúa by " : "domino by ") + seatName(match, h.winning_seat);
    if (h.result === "target") return "target reached";
    return "blocked";
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

  // How each hand was scored, newest first: who won, how, the points, and the bonuses.
  function drawHands(match) {
    const list = $("hands");
    list.replaceChildren();
    const hands = (match && match.hands) || [];
    if (!hands.length) {
      list.appendChild(DT.el("li", {class: "muted"}, "no hand scored yet"));
      return;
    }
    hands.slice(-(tv ? 4 : 8)).reverse().forEach((h) => {
      const li = DT.el("li", {"data-hand": h.hand});
      const head = DT.el("div", {class: "head"});
      head.appendChild(DT.el("span", {class: "no"}, h.hand));
      const won = h.winner !== null && h.winner !== undefined;
      head.appendChild(DT.el("span", {class: "who" + (won ? " s" + (h.winner % 2) : "")},
        won ? sideName(match, h.winner) : "nobody"));
      head.appendChild(DT.el("span", {class: "pts"}, "+" + h.points.reduce((a, b) => a + b, 0)));
      head.appendChild(DT.el("span", {class: "how"}, howText(match, h)));
      li.appendChild(head);
      const extra = (h.bonuses || []).map((b) => bonusText(match, b));
      if (h.pips) extra.push("pips left " + h.pips.join(" · "));
      li.appendChild(DT.el("div", {class: "detail muted"}, extra.join(" · ")));
      list.appendChild(li);
    });
  }

  // The tiles shown at the end of a hand: live while they are being shown, then those of the
  // last hand scored until the next hand's first tile.
  function drawReveal(match, hand) {
    const panel = $("reveal-panel");
    const last = match && match.hands && match.hands.length ? match.hands[match.hands.length - 1] : null;
    let title = "", summary = [], shown = null, pips = null;
    if (hand && hand.phase === "reveal" && hand.reveal) {
      title = `Hand ${match ? match.hand_no : ""} over — ${hand.outcome === "block" ? "blocked" :
        hand.outcome === "domino" && hand.last_move ? "domino by " + seatName(match, hand.last_move.seat) : "over"}`;
      summary = (hand.bonuses || []).map((b) => bonusText(match, b));
      if (hand.reveal.message) summary.push(hand.reveal.message);
      shown = hand.reveal.tiles;
    } else if (last && (!hand || !hand.line.length)) {
      const who = last.winner !== null && last.winner !== undefined ? sideName(match, last.winner) : "nobody";
      title = `Hand ${last.hand}: ${who} +${last.points.reduce((a, b) => a + b, 0)}`;
      summary = [howText(match, last), ...(last.bonuses || []).map((b) => bonusText(match, b))];
      shown = last.revealed && last.revealed.length ? last.revealed : null;
      pips = last.pips;
    } else {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    $("reveal-title").textContent = title;
    $("reveal-summary").textContent = summary.join(" · ");
    const box = $("reveal");
    box.replaceChildren();
    (shown || []).forEach((tiles, seat) => {
      const row = DT.el("div", {class: "seat", "data-seat": seat});
      row.appendChild(DT.el("span", {class: "who"}, seatName(match, seat)));
      const strip = DT.el("span", {class: "tiles"});
      row.appendChild(strip);
      if (tiles === null) {
        strip.appendChild(DT.el("span", {class: "muted"}, "not shown yet"));
      } else if (!tiles.length) {
        strip.appendChild(DT.el("span", {class: "muted"}, "out"));
      } else {
        DT.drawTiles(strip, tiles);
      }
      const n = pips && pips[seat] !== undefined ? pips[seat] : tiles ? DT.pipsOf(tiles) : null;
      row.appendChild(DT.el("span", {class: "pips"}, n === null ? "" : n + " pips"));
      box.appendChild(row);
    });
  }

  function drawBoard() {
    const state = view && view.state;
    if (!state) return;
    const match = state.match, hand = state.hand;
    DT.drawLine($("line"), hand ? hand.line : [], (seat) => seatName(match, seat));
    if (match) DT.drawChart($("chart"), match.score_history, match.sides, match.target);
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
      card.appendChild(DT.el("div", {class: "name", id: "name-" + i, title: side.name}, side.name));
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
    $("turn").textContent = hand && hand.turn !== null ? seatName(match, hand.turn) : "–";
    // bonuses as they happen (a pase corrido is scored in the middle of a hand)
    $("phase").textContent = [hand ? hand.phase : "waiting",
      ...(hand && hand.phase === "playing" ? hand.bonuses || [] : []).map((b) => bonusText(match, b))].join(" · ");
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
    drawHands(match);
    drawReveal(match, hand);
    drawBoard();  // after the panels above: the line and the chart fill the room left to them
    window.__dt.renders += 1;
    if (state.ts && state.ts !== lastTs) {
      // latency of each new state, once, taken at the frame that paints it (benchmarks)
      lastTs = state.ts;
      const seq = state.seq, ts = state.ts;
      requestAnimationFrame(() => window.__dt.latencies.push({seq,
        ms: performance.timeOrigin + performance.now() - ts * 1000}));
    }
  }

  // the line and the chart are drawn to their panels' size: draw them again when it changes
  let sized = "";
  const resized = new ResizeObserver(() => {
    const key = ["line", "chart"].map((id) => $(id).clientWidth + "x" + $(id).clientHeight).join(",");
    if (key !== sized) { sized = key; drawBoard(); }
  });
  resized.observe($("line"));
  resized.observe($("chart"));

  DT.connect("/api/tables/" + encodeURIComponent(table) + "/stream", {table: render},
    (s) => { conn = s; banner(); }, 25000);
  setInterval(() => { if (view) $("last-seen").textContent = DT.ago(view.last_seen); }, 1000);
})();
