// The hall page: every table, its score, status and when it was last seen.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const rows = new Map();
  let conn = "", broker = "down";

  function banner() {
    const b = $("banner");
    let kind = "", text = "";
    if (conn === "lost") { kind = "lost"; text = "Connection to the scoreboard lost — reconnecting…"; }
    else if (conn === "stale") { kind = "stale"; text = "No news from the scoreboard — data may be stale"; }
    else if (broker !== "up") { kind = "stale"; text = "Scoreboard lost the MQTT broker — data may be stale"; }
    b.className = kind ? "show " + kind : "";
    b.dataset.kind = kind;
    b.textContent = text;
  }

  function card(r) {
    const a = DT.el("a", {class: "card" + (r.status === "offline" ? " offline" : r.stale ? " stale" : ""),
      href: "/table/" + encodeURIComponent(r.table), id: "card-" + r.table, "data-table": r.table});
    const h = DT.el("h3");
    h.appendChild(DT.el("span", {}, r.table));
    h.appendChild(DT.el("span", {class: "pill " + r.status}, r.status));
    a.appendChild(h);
    const sc = DT.el("div", {class: "sc"});
    r.sides.forEach((s, i) => {
      if (i) sc.appendChild(document.createTextNode(" – "));
      sc.appendChild(DT.el("span", {class: "s" + (i % 2), title: s.name}, s.score));
    });
    if (!r.sides.length) sc.appendChild(DT.el("span", {class: "muted"}, "–"));
    a.appendChild(sc);
    a.appendChild(DT.el("div", {class: "muted"}, r.sides.map((s) => s.name).join(" vs ")));
    const info = [];
    if (r.rules) info.push(`${r.rules} to ${r.target}`);
    if (r.hand_no) info.push("hand " + r.hand_no);
    if (r.winner !== null && r.winner !== undefined && r.sides[r.winner]) info.push("won by " + r.sides[r.winner].name);
    if (r.alerts) info.push(r.alerts + " alert" + (r.alerts > 1 ? "s" : ""));
    if (r.device && r.device !== "up") info.push("device " + r.device);
    a.appendChild(DT.el("div", {}, info.join(" · ")));
    a.appendChild(DT.el("div", {class: "muted seen", "data-ts": r.last_seen || ""}, "seen " + DT.ago(r.last_seen)));
    if (r.stale && r.stale_reason) a.appendChild(DT.el("div", {class: "reason"}, r.stale_reason));
    return a;
  }

  function draw() {
    const grid = $("tables");
    const keys = [...rows.keys()].sort();
    grid.replaceChildren(...keys.map((k) => card(rows.get(k))));
    if (!keys.length) grid.appendChild(DT.el("span", {class: "muted"}, "no table yet"));
    $("count").textContent = keys.length;
    $("broker").textContent = broker;
    banner();
  }

  let pending = false;
  function later() { if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; draw(); }); } }

  DT.connect("/api/stream", {
    hall: (h) => { rows.clear(); h.tables.forEach((r) => rows.set(r.table, r)); broker = h.broker; later(); },
    row: (r) => { rows.set(r.table, r); later(); },
  }, (s) => { conn = s; banner(); }, 25000);
  setInterval(() => document.querySelectorAll(".seen").forEach((n) => {
    n.textContent = "seen " + DT.ago(Number(n.dataset.ts) || null);
  }), 1000);
})();
