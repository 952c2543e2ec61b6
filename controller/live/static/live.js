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

// The line as it is laid on the table: the opening tile in the middle, each arm running
// outwards and turning a corner at the edge (a tile set across, under or over the last one),
// then running back. Pure: positions in units of DT.S, for a row width of W units.
DT.S = 40;
DT.GAP = 4;
DT.layoutLine = function (line, W) {
  const s = DT.S, g = DT.GAP, items = [];
  if (!line.length) return {items, box: {x: 0, y: 0, w: 0, h: 0}};
  const found = line.findIndex((t) => t.end === "first");
  const o = found >= 0 ? found : 0;
  const put = (i, x, y, vertical, a, b, corner) =>
    items.push({i, t: line[i], x, y, w: vertical ? s : 2 * s, h: vertical ? 2 * s : s, vertical, a, b, corner});
  const first = line[o];
  const fw = first.double ? s : 2 * s;
  put(o, W / 2 - fw / 2, first.double ? -s : -s / 2, first.double, first.pips[0], first.pips[1], false);
  // side +1: the right arm, turning downwards; side -1: the left arm, turning upwards
  const arm = (indexes, side) => {
    let dir = side, yc = 0, x = W / 2 + side * fw / 2, lastDouble = first.double;
    for (const i of indexes) {
      const t = line[i];
      // pips are listed as they read left to right: the right arm's inner half comes first
      const inner = side > 0 ? t.pips[0] : t.pips[1], outer = side > 0 ? t.pips[1] : t.pips[0];
      const w = t.double ? s : 2 * s;
      if (dir > 0 ? x + g + w <= W : x - g - w >= 0) {
        const left = dir > 0 ? x + g : x - g - w;
        const [a, b] = dir > 0 ? [inner, outer] : [outer, inner];
        put(i, left, t.double ? yc - s : yc - s / 2, t.double, a, b, false);
        x = dir > 0 ? left + w : left;
        lastDouble = t.double;
      } else {
        const cx = dir > 0 ? x - s : x;
        const reach = (lastDouble ? s : s / 2) + g;
        const top = side > 0 ? yc + reach : yc - reach - 2 * s;
        const [a, b] = side > 0 ? [inner, outer] : [outer, inner];  // top half first
        put(i, cx, top, true, a, b, true);
        yc = side > 0 ? top + 1.5 * s : top + 0.5 * s;
        dir = -dir;
        x = dir > 0 ? cx + s : cx;
        lastDouble = false;
      }
    }
  };
  arm(line.map((_, i) => i).slice(o + 1), 1);
  arm(line.map((_, i) => i).slice(0, o).reverse(), -1);
  items.sort((p, q) => p.i - q.i);
  const x0 = Math.min(...items.map((p) => p.x)), x1 = Math.max(...items.map((p) => p.x + p.w));
  const y0 = Math.min(...items.map((p) => p.y)), y1 = Math.max(...items.map((p) => p.y + p.h));
  return {items, box: {x: x0, y: y0, w: x1 - x0, h: y1 - y0}};
};

// The row width that draws the line largest in a box of aspect (width / height) `aspect`.
DT.bestLayout = function (line, aspect) {
  const s = DT.S, pad = DT.GAP * 2;
  // a short line is not blown up: the drawing has at least the room of 54 tile halves
  const minH = Math.sqrt(54 / aspect) * s, minW = aspect * minH;
  let best = null;
  for (let k = 6; k <= 44; k++) {
    const lay = DT.layoutLine(line, k * s);
    const w = Math.max(lay.box.w + 2 * pad, minW), h = Math.max(lay.box.h + 2 * pad, minH);
    const scale = Math.min(aspect / w, 1 / h);
    if (!best || scale > best.scale * 1.0001) best = {scale, lay, w, h};
  }
  return best;
};

DT.drawLine = function (container, line, label) {
  const s = DT.S;
  const svg = DT.el("svg:svg", {role: "img", "aria-label": "line of tiles", width: "100%", height: "100%",
    preserveAspectRatio: "xMidYMid meet"});
  DT.defs(svg);
  const cw = container.clientWidth || 1, ch = container.clientHeight || 1;
  if (!line.length) {
    svg.setAttribute("viewBox", `0 0 ${12 * s} ${4.5 * s}`);
    svg.appendChild(DT.el("svg:text", {x: 6 * s, y: 2.4 * s, "text-anchor": "middle",
      fill: "#cfe", "font-size": s * 0.6}, "no tile played yet"));
    container.replaceChildren(svg);
    return;
  }
  const {lay, w, h} = DT.bestLayout(line, cw / ch);
  const box = lay.box;
  svg.setAttribute("viewBox", `${box.x + box.w / 2 - w / 2} ${box.y + box.h / 2 - h / 2} ${w} ${h}`);
  const last = DT.lastIndex(line);
  for (const p of lay.items) {
    const {g} = DT.tile(p.a, p.b, p.vertical, s, p.i === last);
    g.setAttribute("transform", `translate(${p.x},${p.y})`);
    if (p.corner) g.setAttribute("data-corner", "1");
    const t = p.t;
    g.appendChild(DT.el("svg:title", {}, t.move ? `move ${t.move} · ${label ? label(t.seat) : "seat " + t.seat}` : t.tile));
    svg.appendChild(g);
  }
  container.replaceChildren(svg);
};

// A row of small tiles (the tiles a seat shows at the end of a hand).
DT.drawTiles = function (container, tiles) {
  const s = 20, gap = 4;
  const svg = DT.el("svg:svg", {role: "img", "aria-label": tiles.join(" "),
    viewBox: `0 0 ${Math.max(1, tiles.length) * (s + gap) + gap} ${2 * s + 2 * gap}`});
  DT.defs(svg);
  tiles.forEach((text, k) => {
    const [a, b] = text.split("-").map(Number);
    const {g} = DT.tile(a, b, true, s, false);
    g.setAttribute("transform", `translate(${gap + k * (s + gap)},${gap})`);
    svg.appendChild(g);
  });
  container.replaceChildren(svg);
};

DT.pipsOf = function (tiles) {
  return tiles.reduce((n, text) => n + text.split("-").reduce((m, v) => m + Number(v), 0), 0);
};

DT.lastIndex = function (line) {
  let best = -1, bestMove = -1;
  line.forEach((t, i) => { if (t.move !== null && t.move !== undefined && t.move > bestMove) { bestMove = t.move; best = i; } });
  return best;
};

// Cumulative score per side over hands, with the target line.
// Drawn in units of 1/16 of the container's font size, to the container's own proportions, so
// that it fills its panel and its text grows with the page's.
DT.drawChart = function (container, history, sides, target) {
  const unit = (parseFloat(getComputedStyle(container).fontSize) || 16) / 16;
  const W = Math.max(200, (container.clientWidth || 600) / unit);
  const H = Math.max(120, (container.clientHeight || 260) / unit);
  const L = 44, B = 30, T = 26, R = 14;
  const svg = DT.el("svg:svg", {viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "score over hands",
    width: "100%", height: "100%", preserveAspectRatio: "xMidYMid meet"});
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
