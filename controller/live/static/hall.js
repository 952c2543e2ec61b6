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
    const teams = r.sides.map((s) => s.name).join(" vs ");
    a.appendChild(DT.el("div", {class: "muted teams", title: teams}, teams));
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

  // Redraw only the cards that changed (a hall of 100 tables updates ~100 times a second).
  const cards = new Map();
  let dirty = new Set(), full = true;

  function draw() {
    const grid = $("tables");
    if (full) {
      cards.clear();
      const keys = [...rows.keys()].sort();
      keys.forEach((k) => cards.set(k, card(rows.get(k))));
      grid.replaceChildren(...keys.map((k) => cards.get(k)));
      if (!keys.length) grid.appendChild(DT.el("span", {class: "muted"}, "no table yet"));
    } else {
      for (const k of dirty) {
        const fresh = card(rows.get(k));
        const old = cards.get(k);
        if (old) { old.replaceWith(fresh); }
        else {
          if (!cards.size) grid.replaceChildren();
          const after = [...cards.keys()].sort().find((other) => other > k);
          grid.insertBefore(fresh, after ? cards.get(after) : null);
        }
        cards.set(k, fresh);
      }
    }
    full = false;
    dirty = new Set();
    $("count").textContent = rows.size;
    $("broker").textContent = broker;
    banner();
  }

  let pending = false;
  function later() { if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; draw(); }); } }

  DT.connect("/api/stream", {
    hall: (h) => {
      rows.clear(); h.tables.forEach((r) => rows.set(r.table, r)); broker = h.broker;
      full = true; later();
    },
    row: (r) => { rows.set(r.table, r); dirty.add(r.table); later(); },
  }, (s) => { conn = s; banner(); }, 25000);
  setInterval(() => document.querySelectorAll(".seen").forEach((n) => {
    n.textContent = "seen " + DT.ago(Number(n.dataset.ts) || null);
  }), 1000);
})();
