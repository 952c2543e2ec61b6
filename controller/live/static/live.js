// Shared by the hall and table pages: the SSE connection with a visible "lost / stale" state,
// and the SVG drawing of tiles and the score chart. Plain JS, no dependencies (closed network).
"use strict";

const DT = {};
DT.SVG = "http://www.w3.org/2000/svg";

DT.el = function (tag, attrs, text) {
  const node = tag.startsWith("svg:") ? document.createElementNS(DT.SVG, tag.slice(4))
                                       : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
};

DT.ago = function (ts) {
  if (!ts) return "never";
  const s = Math.max(0, Math.round(Date.now() / 1000 - ts));
  if (s < 60) return s + " s ago";
  if (s < 3600) return Math.floor(s / 60) + " min ago";
  return Math.floor(s / 3600) + " h ago";
};

// Connect to an SSE stream. handlers: {name: fn(data)}; onConn(state) with
// state in "ok" | "lost" | "stale" (no message, not even a keepalive ping, for too long).
DT.connect = function (url, handlers, onConn, staleAfterMs) {
  let last = Date.now();
  let state = "";
  const set = (s) => { if (s !== state) { state = s; onConn(s); } };
  const es = new EventSource(url);
  const seen = () => { last = Date.now(); set("ok"); };
  es.onopen = seen;
  es.onerror = () => set("lost");
  for (const [name, fn] of Object.entries(handlers)) {
    es.addEventListener(name, (ev) => { seen(); fn(JSON.parse(ev.data)); });
  }
  es.addEventListener("ping", seen);
  setInterval(() => {
    if (es.readyState !== EventSource.OPEN) set("lost");
    else if (Date.now() - last > staleAfterMs) set("stale");
  }, 1000);
  return es;
};

// Pip centres on a 3x3 grid (col, row), for 0..9; larger numbers are written as digits.
DT.PIPS = {
  0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  7: [[0, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [2, 2]],
  8: [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
  9: [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
};

DT.half = function (g, x, y, n, s) {
  const pips = DT.PIPS[n];
  if (!pips) {
    g.appendChild(DT.el("svg:text", {x: x + s / 2, y: y + s * 0.68, "text-anchor": "middle",
      "font-size": s * 0.55, "font-weight": "800", fill: "#222"}, n));
    return;
  }
  for (const [c, r] of pips) {
    g.appendChild(DT.el("svg:circle", {cx: x + s * (0.22 + 0.28 * c), cy: y + s * (0.22 + 0.28 * r),
      r: s * 0.095, fill: "url(#pip)", class: "pip"}));
  }
};

// One tile; doubles stand crosswise. Returns the group (width w, height h in units of s).
DT.tile = function (a, b, vertical, s, highlight) {
  const g = DT.el("svg:g", {class: "tile", "data-tile": a + "-" + b});
  const w = vertical ? s : 2 * s, h = vertical ? 2 * s : s;
  g.appendChild(DT.el("svg:rect", {x: 1, y: 1, width: w - 2, height: h - 2, rx: s * 0.14,
    fill: "url(#ivory)", stroke: highlight ? "#ffd166" : "#3b3b36",
    "stroke-width": highlight ? s * 0.09 : s * 0.03, filter: "url(#shadow)"}));
  if (vertical) {
    g.appendChild(DT.el("svg:line", {x1: s * 0.15, y1: s, x2: s * 0.85, y2: s, stroke: "#555",
      "stroke-width": s * 0.03}));
    DT.half(g, 0, 0, a, s); DT.half(g, 0, s, b, s);
  } else {
    g.appendChild(DT.el("svg:line", {x1: s, y1: s * 0.15, x2: s, y2: s * 0.85, stroke: "#555",
      "stroke-width": s * 0.03}));
    DT.half(g, 0, 0, a, s); DT.half(g, s, 0, b, s);
  }
  return {g, w, h};
};

DT.defs = function (svg) {
  const defs = DT.el("svg:defs");
  const ivory = DT.el("svg:linearGradient", {id: "ivory", x1: 0, y1: 0, x2: 0, y2: 1});
  ivory.appendChild(DT.el("svg:stop", {offset: "0", "stop-color": "#fffdf4"}));
  ivory.appendChild(DT.el("svg:stop", {offset: "1", "stop-color": "#e4dcc6"}));
  const pip = DT.el("svg:radialGradient", {id: "pip", cx: "40%", cy: "35%", r: "65%"});
  pip.appendChild(DT.el("svg:stop", {offset: "0", "stop-color": "#555"}));
  pip.appendChild(DT.el("svg:stop", {offset: "1", "stop-color": "#0b0b0b"}));
  const shadow = DT.el("svg:filter", {id: "shadow", x: "-10%", y: "-10%", width: "130%", height: "140%"});
  shadow.appendChild(DT.el("svg:feDropShadow", {dx: 2, dy: 3, stdDeviation: 2, "flood-opacity": 0.45}));
  defs.append(ivory, pip, shadow);
  svg.appendChild(defs);
};

// The line, left end to right end, wrapped in rows so it stays big on a TV and a phone.
DT.drawLine = function (container, line, maxRow) {
  const s = 40, gap = 6;
  // as big as the tiles allow: a short line is drawn large, a long one wraps at 22 tiles' width
  const natural = line.reduce((w, t) => w + (t.double ? s : 2 * s) + gap, gap);
  const rowW = maxRow || Math.min(22 * s, Math.max(12 * s, natural));
  const svg = DT.el("svg:svg", {role: "img", "aria-label": "line of tiles"});
  DT.defs(svg);
  let x = gap, y = gap, rowH = 0, width = 0;
  line.forEach((t, i) => {
    const vertical = t.double;
    const w = vertical ? s : 2 * s, h = vertical ? 2 * s : s;
    if (x + w > rowW && x > gap) { x = gap; y += rowH + gap * 2; rowH = 0; }
    const {g} = DT.tile(t.pips[0], t.pips[1], vertical, s, i === DT.lastIndex(line));
    const dy = (2 * s - h) / 2;
    g.setAttribute("transform", `translate(${x},${y + dy})`);
    svg.appendChild(g);
    x += w + gap; rowH = Math.max(rowH, 2 * s); width = Math.max(width, x);
  });
  const height = line.length ? y + rowH + gap : 2 * s;
  svg.setAttribute("viewBox", `0 0 ${rowW} ${Math.max(height, 2 * s + 2 * gap)}`);
  if (!line.length) {
    svg.appendChild(DT.el("svg:text", {x: rowW / 2, y: s * 1.2, "text-anchor": "middle",
      fill: "#cfe", "font-size": s * 0.6}, "no tile played yet"));
  }
  container.replaceChildren(svg);
};

DT.lastIndex = function (line) {
  let best = -1, bestMove = -1;
  line.forEach((t, i) => { if (t.move !== null && t.move !== undefined && t.move > bestMove) { bestMove = t.move; best = i; } });
  return best;
};

// Cumulative score per side over hands, with the target line.
DT.drawChart = function (container, history, sides, target) {
  const W = 600, H = 260, L = 44, B = 30, T = 14, R = 14;
  const svg = DT.el("svg:svg", {viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "score over hands"});
  const n = history.length;
  const totals = sides.map(() => [0]);
  history.forEach((row) => sides.forEach((_, i) => {
    const prev = totals[i][totals[i].length - 1];
    totals[i].push(prev + (row[i] || 0));
  }));
  const top = Math.max(target || 0, ...totals.flat(), 1);
  const sx = (k) => L + (W - L - R) * (n ? k / n : 0);
  const sy = (v) => H - B - (H - B - T) * (v / top);
  svg.appendChild(DT.el("svg:line", {x1: L, y1: sy(0), x2: W - R, y2: sy(0), stroke: "#789", "stroke-width": 1.5}));
  svg.appendChild(DT.el("svg:line", {x1: L, y1: T, x2: L, y2: H - B, stroke: "#789", "stroke-width": 1.5}));
  if (target) {
    svg.appendChild(DT.el("svg:line", {x1: L, y1: sy(target), x2: W - R, y2: sy(target), stroke: "gold",
      "stroke-dasharray": "8 6", "stroke-width": 2}));
    svg.appendChild(DT.el("svg:text", {x: W - R, y: sy(target) - 4, "text-anchor": "end", fill: "gold",
      "font-size": 16}, "target " + target));
  }
  svg.appendChild(DT.el("svg:text", {x: L - 6, y: sy(0) + 5, "text-anchor": "end", fill: "#aab", "font-size": 15}, "0"));
  svg.appendChild(DT.el("svg:text", {x: L - 6, y: sy(top) + 5, "text-anchor": "end", fill: "#aab", "font-size": 15}, top));
  for (let k = 1; k <= n; k++) {
    svg.appendChild(DT.el("svg:text", {x: sx(k), y: H - 8, "text-anchor": "middle", fill: "#aab", "font-size": 14}, k));
  }
  totals.forEach((pts, i) => {
    const colour = i === 0 ? "var(--side0)" : "var(--side1)";
    const d = pts.map((v, k) => `${sx(k)},${sy(v)}`).join(" ");
    svg.appendChild(DT.el("svg:polyline", {points: d, fill: "none", style: "stroke:" + colour, "stroke-width": 4,
      "stroke-linejoin": "round", class: "series"}));
    pts.forEach((v, k) => svg.appendChild(DT.el("svg:circle", {cx: sx(k), cy: sy(v), r: 4.5, style: "fill:" + colour})));
  });
  container.replaceChildren(svg);
};
