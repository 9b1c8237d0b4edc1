// The ghast web board. Everything drawn comes from the server's STATE
// (`board`: cells, occupants, effects, piece kinds; `legal`: the legal moves
// with their squares and labels). No rule of any game lives here.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const ui = {
  variants: [],
  id: null,
  state: null,
  selected: null,
  lines: new Map(),
  analysing: false,
  busy: false,
  hover: null,
  events: null,
};

// ---- Server calls ----

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    throw new Error(data && data.error ? data.error : `${response.status} ${response.statusText}`);
  }
  return data;
}

function gamePath(suffix) {
  return `/api/games/${ui.id}${suffix || ""}`;
}

function showError(message) {
  $("status").textContent = message;
}

// ---- Game flow ----

async function newGame(position) {
  const variant = $("variant").value;
  const body = { variant };
  if (position !== undefined) body.position = position;
  const created = await api("/api/games", body);
  ui.id = created.id;
  ui.selected = null;
  ui.lines.clear();
  ui.busy = false;
  listen();
  setState(created.state);
  $("pgn-link").href = gamePath("/pgn");
  afterChange();
}

function listen() {
  if (ui.events) ui.events.close();
  const id = ui.id;
  ui.events = new EventSource(gamePath("/events"));
  ui.events.addEventListener("info", (e) => {
    if (id !== ui.id) return;
    const line = JSON.parse(e.data);
    if (!ui.state || line.position !== ui.state.position) return;
    // A new depth of the first line starts a new set of lines.
    if (line.multipv <= 1) {
      for (const k of [...ui.lines.keys()]) if (k > 1 && ui.lines.get(k).depth < line.depth - 1) ui.lines.delete(k);
    }
    ui.lines.set(line.multipv || 1, line);
    renderLines();
    renderBoard();
  });
  ui.events.addEventListener("done", () => {
    if (id !== ui.id) return;
    refresh();
  });
}

async function refresh() {
  if (!ui.id) return;
  try {
    setState(await api(gamePath()));
  } catch (e) {
    showError(e.message);
  }
}

function setState(state) {
  if (!ui.state || ui.state.position !== state.position) ui.lines.clear();
  ui.state = state;
  document.body.dataset.game = state.id;
  document.body.dataset.ply = String(state.moves.length);
  document.body.dataset.variant = state.variant;
  document.body.dataset.side = state.side_to_move;
  render();
}

function mode() {
  return $("mode").value;
}

function engineToMove() {
  const s = ui.state;
  if (!s || s.outcome) return false;
  const m = mode();
  if (m === "engine") return true;
  if (m === "none") return false;
  return s.side_to_move !== m;
}

function limits() {
  const value = Math.max(1, Math.floor(Number($("limit-value").value) || 1));
  return { [$("limit-kind").value]: value };
}

// After every change of position: let the engine move, or analyse.
async function afterChange() {
  if (engineToMove()) {
    await engineMove();
  } else if (ui.analysing && ui.state && !ui.state.outcome && !ui.state.thinking) {
    await startAnalysis();
  }
}

async function engineMove() {
  if (ui.busy || !ui.state || ui.state.outcome) return;
  const id = ui.id;
  ui.busy = true;
  ui.lines.clear();
  document.body.dataset.thinking = "go";
  render();
  try {
    const reply = await api(gamePath("/go"), limits());
    if (id !== ui.id) return;
    ui.busy = false;
    setState(reply.state);
  } catch (e) {
    ui.busy = false;
    if (id === ui.id) showError(e.message);
    return;
  } finally {
    if (id === ui.id) {
      ui.busy = false;
      delete document.body.dataset.thinking;
    }
  }
  // Engine against engine: the next move after a short pause to look.
  setTimeout(afterChange, mode() === "engine" ? 250 : 0);
}

async function playMove(notation) {
  ui.selected = null;
  try {
    setState(await api(gamePath("/moves"), { move: notation }));
    ui.lines.clear();
  } catch (e) {
    showError(e.message);
    return;
  }
  afterChange();
}

async function startAnalysis() {
  const multipv = Math.max(1, Math.min(8, Math.floor(Number($("multipv").value) || 1)));
  ui.lines.clear();
  try {
    setState(await api(gamePath("/analysis"), { multipv }));
  } catch (e) {
    showError(e.message);
  }
}

async function undo() {
  const s = ui.state;
  if (!s || ui.busy || s.moves.length === 0) return;
  const last = s.moves[s.moves.length - 1];
  const m = mode();
  const vsEngine = m === "white" || m === "black";
  const plies = vsEngine && last.engine && s.moves.length >= 2 ? 2 : 1;
  try {
    setState(await api(gamePath("/undo"), { plies }));
    ui.lines.clear();
  } catch (e) {
    showError(e.message);
    return;
  }
  if (mode() !== "engine") afterChange();
}

// ---- Clicking on the board ----

function movesFrom(square) {
  return ui.state.legal.filter((m) => m.from === square);
}

function clickSquare(square) {
  const s = ui.state;
  if (!s || s.outcome || ui.busy || engineToMove()) return;
  if (ui.selected) {
    const choices = s.legal.filter((m) => m.from === ui.selected && m.to === square);
    if (choices.length === 1) return playMove(choices[0].notation);
    if (choices.length > 1) return choose(choices);
  }
  if (ui.selected === square) {
    ui.selected = null;
  } else {
    ui.selected = movesFrom(square).length > 0 ? square : null;
  }
  renderBoard();
}

function choose(moves) {
  const box = $("choice-buttons");
  box.replaceChildren();
  for (const m of moves) {
    const b = document.createElement("button");
    b.textContent = `${m.label}  (${m.notation})`;
    b.dataset.notation = m.notation;
    b.addEventListener("click", () => {
      $("choice").hidden = true;
      playMove(m.notation);
    });
    box.append(b);
  }
  $("choice").hidden = false;
}

// ---- Drawing ----

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

function layout(board, flip = $("flip").checked) {
  const g = board.geometry;
  const diamond = g.cell_shape === "diamond";
  const pad = diamond ? 1 : 0.5;
  const margin = 0.35;
  return {
    diamond,
    flip,
    radius: diamond ? Math.SQRT1_2 : 0.5,
    width: g.width + 2 * pad + 2 * margin,
    height: g.height + 2 * pad + 2 * margin,
    centre(cell) {
      const x = flip ? g.width - cell.draw_x : cell.draw_x;
      const y = flip ? cell.draw_y : g.height - cell.draw_y;
      return [x + pad + margin, y + pad + margin];
    },
    // A game-frame vector (dx, dy) of a piece of `side`, on screen.
    vector(v, side) {
      let x = v[0] * g.file_step[0] + v[1] * g.rank_step[0];
      let y = -(v[0] * g.file_step[1] + v[1] * g.rank_step[1]);
      const turn = (side === "black") !== flip;
      if (turn) { x = -x; y = -y; }
      const n = Math.hypot(x, y) || 1;
      return [x / n, y / n];
    },
    outline(cx, cy) {
      if (diamond) return `${cx},${cy - 1} ${cx + 1},${cy} ${cx},${cy + 1} ${cx - 1},${cy}`;
      return `${cx - 0.5},${cy - 0.5} ${cx + 0.5},${cy - 0.5} ${cx + 0.5},${cy + 0.5} ${cx - 0.5},${cy + 0.5}`;
    },
  };
}

const REGION_FILL = {
  "white-court": ["--court-white", "--court-white-dark"],
  "field": ["--field", "--field-dark"],
  "black-court": ["--court-black", "--court-black-dark"],
};

function cellFill(cell) {
  const style = getComputedStyle(document.documentElement);
  for (const r of cell.regions) {
    if (REGION_FILL[r]) return style.getPropertyValue(REGION_FILL[r][cell.shade === "light" ? 0 : 1]);
  }
  return style.getPropertyValue(cell.shade === "light" ? "--light" : "--dark");
}

function pieceInfo(kind) {
  return ui.state.board.pieces.find((p) => p.kind === kind);
}

// One piece at (cx, cy) with radius r: a token by colour and state, the
// movement lines where the game describes them, and its letter.
function drawPiece(parent, occ, cx, cy, r, lay) {
  const g = el("g", { class: "piece", "data-kind": occ.kind }, parent);
  const flags = new Set(occ.flags);
  const white = occ.color === "white";
  const neutral = occ.color === null;
  let fill = neutral ? "#e5d3a8" : white ? "var(--white-piece)" : "var(--black-piece)";
  let ink = neutral ? "#5a4320" : white ? "#1d1d1d" : "#f4f0e6";
  const statue = flags.has("statue");
  if (statue) {
    fill = white ? "#b9b9b9" : "#5b5b5b";
    ink = white ? "#2a2a2a" : "#f0f0f0";
  }
  const stroke = statue ? "#777" : white || neutral ? "#333" : "#ddd";
  const info = pieceInfo(occ.kind) || {};
  const promoted = flags.has("promoted");
  if (occ.kind === "disk") {
    el("circle", { cx, cy, r: r * 0.92, fill: "none", stroke: white ? "#f3ede0" : "#32323c", "stroke-width": r * 0.24 }, g);
    el("circle", { cx, cy, r: r * 0.92, fill: "none", stroke: "#222", "stroke-width": r * 0.03 }, g);
    if (!flags.has("mounted")) {
      el("circle", { cx, cy, r: r * 0.18, fill: white ? "#f3ede0" : "#32323c", stroke: "#222", "stroke-width": r * 0.03 }, g);
    }
    if (flags.has("opening-right")) el("circle", { cx: cx + r * 0.62, cy: cy - r * 0.62, r: r * 0.1, fill: "#2a7" }, g);
    return g;
  }
  if (occ.kind === "citadel") {
    el("rect", { x: cx - r * 0.8, y: cy - r * 0.8, width: r * 1.6, height: r * 1.6, rx: r * 0.1, fill, stroke, "stroke-width": r * 0.08 }, g);
  } else {
    el("circle", { cx, cy, r: r * 0.86, fill, stroke, "stroke-width": r * 0.07, "stroke-dasharray": statue ? `${r * 0.18} ${r * 0.1}` : "none" }, g);
  }
  const dragon = occ.kind.startsWith("dragon") || occ.kind === "acelander";
  if (dragon || promoted) {
    el("circle", { cx, cy, r: r * 0.74, fill: "none", stroke: "#d4a017", "stroke-width": r * 0.12 }, g);
  }
  if (occ.kind === "mummy") {
    for (const dy of [-0.4, -0.1, 0.2, 0.5]) {
      el("line", { x1: cx - r * 0.65, y1: cy + r * dy, x2: cx + r * 0.65, y2: cy + r * dy - r * 0.12, stroke: "#9b7f4b", "stroke-width": r * 0.07 }, g);
    }
  }
  // Movement lines: slides to the rim, steps and leaps as dots.
  const side = occ.color || "white";
  for (const v of info.rays || []) {
    const [x, y] = lay.vector(v, side);
    el("line", { x1: cx + x * r * 0.34, y1: cy + y * r * 0.34, x2: cx + x * r * 0.8, y2: cy + y * r * 0.8, stroke: ink, "stroke-width": r * 0.11, "stroke-linecap": "round" }, g);
  }
  for (const v of info.steps || []) {
    const [x, y] = lay.vector(v, side);
    const far = Math.hypot(v[0], v[1]) > 1.5 ? 0.66 : 0.56;
    el("circle", { cx: cx + x * r * far, cy: cy + y * r * far, r: r * 0.075, fill: ink }, g);
  }
  for (const v of info.captures || []) {
    const [x, y] = lay.vector(v, side);
    el("circle", { cx: cx + x * r * 0.6, cy: cy + y * r * 0.6, r: r * 0.08, fill: "none", stroke: ink, "stroke-width": r * 0.05 }, g);
  }
  const lettered = (info.rays && info.rays.length) || (info.steps && info.steps.length);
  if (lettered) el("circle", { cx, cy, r: r * 0.3, fill }, g);
  const t = el("text", {
    x: cx, y: cy + r * (lettered ? 0.13 : 0.2), "text-anchor": "middle",
    "font-size": r * (lettered ? 0.42 : 0.62), "font-weight": 700, fill: ink,
    "font-family": "system-ui, sans-serif",
  }, g);
  t.textContent = occ.letter.toUpperCase() + (promoted ? "+" : "");
  if (flags.has("digesting")) {
    el("circle", { cx: cx + r * 0.62, cy: cy + r * 0.6, r: r * 0.22, fill: "#6b8e23", stroke: "#222", "stroke-width": r * 0.04 }, g);
    const d = el("text", { x: cx + r * 0.62, y: cy + r * 0.69, "text-anchor": "middle", "font-size": r * 0.28, fill: "#fff", "font-weight": 700 }, g);
    d.textContent = "M";
  }
  if (flags.has("opening-right")) el("circle", { cx: cx + r * 0.62, cy: cy - r * 0.62, r: r * 0.1, fill: "#2a7" }, g);
  return g;
}

// Where each occupant of a cell sits: a Disk and its rider share the
// centre (the rider smaller); a stack is laid out in a grid.
function slots(cell, r) {
  const n = cell.occupants.length;
  const rider = n === 2 && cell.occupants[0].kind === "disk";
  if (n <= 1) return [[0, 0, r]];
  if (rider) return [[0, 0, r], [0, 0, r * 0.74]];
  const per = n <= 4 ? 2 : 3;
  const size = (2 * r) / per;
  const out = [];
  for (let i = 0; i < n; i++) {
    const row = Math.floor(i / per);
    const col = i % per;
    out.push([-r + size * (col + 0.5), -r + size * (row + 0.5), size * 0.55]);
  }
  return out;
}

function effectsOn() {
  return {
    fields: $("show-fields").checked,
    gaze: $("show-gaze").checked,
    compelled: $("show-compelled").checked,
  };
}

function renderBoard() {
  const s = ui.state;
  const svg = $("board");
  svg.replaceChildren();
  if (!s) return;
  const board = s.board;
  const lay = layout(board);
  svg.setAttribute("viewBox", `0 0 ${lay.width} ${lay.height}`);
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: "auto-start-reverse" }, defs);
  el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "rgba(20,110,200,0.85)" }, marker);
  const byName = new Map(board.cells.map((c) => [c.name, c]));
  const centre = (name) => lay.centre(byName.get(name));
  const on = effectsOn();
  const hover = ui.hover ? new Set([ui.hover.from, ui.hover.to, ...(ui.hover.squares || [])]) : new Set();
  const targets = new Set(ui.selected ? movesFrom(ui.selected).map((m) => m.to) : []);
  const check = board.effects.find((e) => e.type === "check");

  const cells = el("g", {}, svg);
  const overlay = el("g", { "pointer-events": "none" }, svg);
  const pieces = el("g", { "pointer-events": "none" }, svg);
  const marks = el("g", { "pointer-events": "none" }, svg);

  for (const cell of board.cells) {
    const [cx, cy] = lay.centre(cell);
    const poly = el("polygon", { points: lay.outline(cx, cy), fill: cellFill(cell), class: "cell", "data-square": cell.name }, cells);
    poly.addEventListener("click", () => clickSquare(cell.name));
    poly.addEventListener("dblclick", (e) => e.preventDefault());
    const title = el("title", {}, poly);
    title.textContent = describeCell(cell, board);
    if (cell.ichor) {
      el("polygon", { points: lay.outline(cx, cy), fill: `rgba(60,170,60,${0.2 + 0.045 * cell.ichor})` }, overlay);
      // The plies left, in a badge in the corner above any piece.
      const bx = cx + lay.radius * 0.74;
      const by = cy - lay.radius * 0.74;
      el("circle", { cx: bx, cy: by, r: lay.radius * 0.24, fill: "#1f7a1f", stroke: "#fff", "stroke-width": 0.02, "data-effect": "ichor" }, marks);
      const t = el("text", { x: bx, y: by + lay.radius * 0.11, "font-size": lay.radius * 0.32, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, marks);
      t.textContent = `${cell.ichor}`;
    }
    for (const region of cell.regions) {
      if (region === "promotion-white" || region === "promotion-black") {
        const white = region === "promotion-white";
        el("circle", { cx: cx - lay.radius * 0.7, cy: cy + lay.radius * (white ? -0.7 : 0.7), r: lay.radius * 0.09, fill: white ? "#fff" : "#222", stroke: "#555", "stroke-width": 0.01 }, overlay);
      }
    }
    if ($("coords").checked) {
      const t = el("text", { x: cx - lay.radius * (lay.diamond ? 0.34 : 0.9), y: cy + lay.radius * (lay.diamond ? 0.75 : 0.9), class: "coord" }, overlay);
      t.setAttribute("font-size", lay.radius * 0.3);
      t.textContent = cell.name;
    }
  }

  // Effect layers under the pieces.
  if (on.fields) {
    for (const e of board.effects.filter((e) => e.type === "ghast-field")) {
      const colour = e.owner === "white" ? "var(--white-field)" : "var(--black-field)";
      for (const sq of e.squares) {
        const [cx, cy] = centre(sq);
        el("polygon", { points: lay.outline(cx, cy), fill: colour, "data-effect": "ghast-field" }, overlay);
      }
      const [gx, gy] = centre(e.ghast);
      el("polygon", { points: lay.outline(gx, gy), fill: "none", stroke: e.owner === "white" ? "#c0392b" : "#1f4fb4", "stroke-width": 0.06 }, overlay);
    }
  }
  if (on.gaze) {
    for (const e of board.effects.filter((e) => e.type === "basilisk-gaze")) {
      const [bx, by] = centre(e.basilisk);
      for (const sq of e.squares) {
        const [cx, cy] = centre(sq);
        el("line", { x1: bx, y1: by, x2: cx, y2: cy, stroke: "var(--gaze)", "stroke-width": 0.04, "stroke-dasharray": "0.08 0.06" }, overlay);
        const eye = el("g", { "data-effect": "gaze" }, overlay);
        el("ellipse", { cx, cy, rx: lay.radius * 0.55, ry: lay.radius * 0.3, fill: "rgba(255,255,255,0.35)", stroke: "var(--gaze)", "stroke-width": 0.05 }, eye);
        el("circle", { cx, cy, r: lay.radius * 0.14, fill: "var(--gaze)" }, eye);
      }
    }
  }
  if (check) {
    const [kx, ky] = centre(check.king);
    el("circle", { cx: kx, cy: ky, r: lay.radius * 0.95, fill: "rgba(220,30,30,0.45)" }, overlay);
  }
  for (const sq of hover) {
    if (!byName.has(sq)) continue;
    const [cx, cy] = centre(sq);
    el("polygon", { points: lay.outline(cx, cy), fill: "var(--hover)" }, overlay);
  }
  if (ui.selected) {
    const [cx, cy] = centre(ui.selected);
    el("polygon", { points: lay.outline(cx, cy), fill: "none", stroke: "var(--select)", "stroke-width": 0.08 }, overlay);
  }
  const last = s.moves.length ? lastMoveSquares() : null;
  if (last) {
    for (const sq of last) {
      if (!byName.has(sq)) continue;
      const [cx, cy] = centre(sq);
      el("polygon", { points: lay.outline(cx, cy), fill: "rgba(250,220,60,0.3)" }, overlay);
    }
  }

  for (const cell of board.cells) {
    const [cx, cy] = lay.centre(cell);
    const places = slots(cell, lay.radius * 0.9);
    cell.occupants.forEach((occ, i) => {
      const [dx, dy, r] = places[Math.min(i, places.length - 1)];
      drawPiece(pieces, occ, cx + dx, cy + dy, r, lay).dataset.square = cell.name;
    });
  }

  if (on.compelled) {
    for (const e of board.effects.filter((e) => e.type === "compelled")) {
      const cell = byName.get(e.square);
      const [cx, cy] = lay.centre(cell);
      const places = slots(cell, lay.radius * 0.9);
      const [dx, dy, r] = places[Math.min(e.index, places.length - 1)];
      el("circle", { cx: cx + dx, cy: cy + dy, r: r * 0.98, fill: "none", stroke: "#ff6a00", "stroke-width": r * 0.16, "stroke-dasharray": `${r * 0.3} ${r * 0.15}`, "data-effect": "compelled" }, marks);
    }
  }
  for (const sq of targets) {
    const [cx, cy] = centre(sq);
    const occupied = byName.get(sq).occupants.length > 0;
    el("circle", occupied
      ? { cx, cy, r: lay.radius * 0.85, fill: "none", stroke: "var(--target)", "stroke-width": 0.07, class: "target" }
      : { cx, cy, r: lay.radius * 0.2, fill: "var(--target)", class: "target" }, marks);
  }
  const best = ui.lines.get(1);
  if ($("arrow").checked && best && best.pv_moves.length) {
    const m = best.pv_moves[0];
    const [x1, y1] = centre(m.from);
    const [x2, y2] = centre(m.to);
    if (m.from === m.to) {
      el("circle", { cx: x1, cy: y1, r: lay.radius * 0.8, fill: "none", stroke: "rgba(20,110,200,0.85)", "stroke-width": 0.1, class: "best-move" }, marks);
    } else {
      el("line", { x1, y1, x2, y2, stroke: "rgba(20,110,200,0.85)", "stroke-width": 0.11, "marker-end": "url(#arrowhead)", class: "best-move" }, marks);
    }
  }
}

// The squares of the last move, from the legal-move descriptions the
// server gave for the position before it (kept when it was played).
function lastMoveSquares() {
  const s = ui.state;
  const m = s.moves[s.moves.length - 1];
  return ui.lastMoves && ui.lastMoves[m.notation] ? ui.lastMoves[m.notation] : null;
}

function describeCell(cell, board) {
  const parts = [cell.name];
  for (const occ of cell.occupants) {
    const info = pieceInfo(occ.kind);
    const side = occ.color === null ? "" : board.side_names[occ.color === "white" ? 0 : 1] + " ";
    parts.push(`${side}${info ? info.name : occ.kind}${occ.flags.length ? " (" + occ.flags.join(", ") + ")" : ""}`);
  }
  if (cell.ichor) parts.push(`ichor, ${cell.ichor} plies left`);
  for (const e of board.effects) {
    if (e.type === "compelled" && e.square === cell.name) {
      const why = e.reasons.map((r) => r.type === "fl" ? `must flee the Ghast on ${r.ghast}` : r.type === "ich" ? `must leave ichor (${r.plies})` : "must be alone").join("; ");
      parts.push(`compelled: ${why}`);
    }
  }
  return parts.join("\n");
}

function sideName(side) {
  const names = ui.state.board.side_names;
  return side === "white" ? names[0] : names[1];
}

function renderStatus() {
  const s = ui.state;
  const status = $("status");
  status.replaceChildren();
  if (s.outcome) {
    const span = document.createElement("span");
    span.className = "over";
    span.id = "outcome";
    const who = s.outcome.winner ? `${sideName(s.outcome.winner)} wins` : "Draw";
    span.textContent = `Game over: ${who} by ${s.outcome.reason} (${s.outcome.result})`;
    status.append(span);
    return;
  }
  const thinking = ui.busy || s.thinking === "go" ? " — the engine is thinking…" : "";
  const check = s.board.effects.some((e) => e.type === "check") ? " (in check)" : "";
  const compelled = s.board.effects.filter((e) => e.type === "compelled").length;
  const forced = compelled ? ` — ${compelled} compelled piece${compelled > 1 ? "s" : ""} must be answered` : "";
  status.textContent = `${sideName(s.side_to_move)} to move${check}${forced}${thinking}`;
}

function renderMoves() {
  const s = ui.state;
  const list = $("move-list");
  list.replaceChildren();
  let li = null;
  s.moves.forEach((m, i) => {
    if (!li || m.side === "white" || i === 0) {
      li = document.createElement("li");
      list.append(li);
    }
    const span = document.createElement("span");
    span.textContent = m.notation;
    if (m.engine) {
      span.className = "engine";
      span.title = `engine: depth ${m.engine.depth}, ${formatScore(m.engine.score)}`;
    }
    li.append(span);
  });
  list.scrollTop = list.scrollHeight;
  $("undo").disabled = ui.busy || s.moves.length === 0;
  $("engine-move").disabled = ui.busy || !!s.outcome;
}

function formatScore(score) {
  if (score.cp !== undefined) return (score.cp >= 0 ? "+" : "") + (score.cp / 100).toFixed(2);
  return score.mate > 0 ? `#${score.mate}` : `#-${-score.mate}`;
}

function renderLines() {
  const body = $("lines").querySelector("tbody");
  body.replaceChildren();
  const keys = [...ui.lines.keys()].sort((a, b) => a - b);
  for (const k of keys) {
    const line = ui.lines.get(k);
    const tr = document.createElement("tr");
    const cells = [k, line.depth, formatScore(line.score), line.nodes, line.nps];
    for (const c of cells) {
      const td = document.createElement("td");
      td.textContent = String(c);
      tr.append(td);
    }
    const pv = document.createElement("td");
    pv.className = "pv";
    line.pv.forEach((text, i) => {
      const span = document.createElement("span");
      span.textContent = text;
      const view = line.pv_moves[i];
      if (view) {
        span.title = view.label;
        span.addEventListener("mouseenter", () => { ui.hover = view; renderBoard(); });
        span.addEventListener("mouseleave", () => { ui.hover = null; renderBoard(); });
      }
      pv.append(span);
    });
    tr.append(pv);
    body.append(tr);
  }
}

function renderLegend() {
  const board = ui.state.board;
  const legend = $("legend");
  legend.replaceChildren();
  for (const p of board.pieces) {
    const svg = el("svg", { viewBox: "-1 -1 2 2" });
    const occ = { kind: p.kind, letter: p.letter, color: p.kind === "mummy" ? null : "white", flags: [] };
    drawPiece(svg, occ, 0, 0, 0.95, layout(board, false));
    const name = document.createElement("div");
    name.innerHTML = `<span class="name"></span> <span class="words"></span>`;
    name.querySelector(".name").textContent = `${p.name} (${p.letter})`;
    name.querySelector(".words").textContent = p.moves;
    legend.append(svg, name);
  }
  const keys = {
    nemoroth: "Red squares: an Alabaster Ghast's field; blue: an Obsidian Ghast's. Eyes: squares a Basilisk sees. Orange dashed ring: a compelled piece (hover a square for why). Green: ichor, with its plies left. Grey dashed: a statue. Olive M badge: a digesting Leaf Pile. Several pieces on a square: a stack.",
    vyremorn: "Green squares: the Field; light: the White Court; blue-grey: the Black Court. A ring: a Disk; a piece inside the ring rides it. Gold ring and +: a promoted Pawn or Arbalest. Green dot: an opening move still allowed.",
  };
  const key = keys[board.variant] || "Lines from a piece's centre: its slides; dots: its steps and leaps (hollow: Pawn captures). Gold ring: a dragon form. Small white / black dots: White's / Black's promotion squares.";
  const div = document.createElement("div");
  div.className = "key";
  div.textContent = key;
  legend.append(div);
}

function render() {
  const s = ui.state;
  if (!s) return;
  // Remember the squares of each legal move, to mark the move once played.
  ui.pendingMoves = Object.fromEntries(s.legal.map((m) => [m.notation, [m.from, m.to]]));
  if (ui.prevMoves && s.moves.length) {
    const m = s.moves[s.moves.length - 1].notation;
    ui.lastMoves = ui.prevMoves[m] ? { [m]: ui.prevMoves[m] } : null;
  }
  ui.prevMoves = ui.pendingMoves;
  $("effect-toggles").hidden = s.variant !== "nemoroth";
  if (document.activeElement !== $("position")) $("position").value = s.position;
  renderStatus();
  renderMoves();
  renderLines();
  renderBoard();
  renderLegend();
}

// ---- Controls ----

async function init() {
  ui.variants = await api("/api/variants");
  for (const v of ui.variants) {
    const o = document.createElement("option");
    o.value = v.name;
    o.textContent = v.name;
    $("variant").append(o);
  }
  const wanted = new URLSearchParams(location.search).get("variant");
  if (wanted && ui.variants.some((v) => v.name === wanted)) $("variant").value = wanted;
  $("new-game").addEventListener("click", () => newGame().catch((e) => showError(e.message)));
  $("variant").addEventListener("change", () => newGame().catch((e) => showError(e.message)));
  $("mode").addEventListener("change", () => {
    // Your side at the bottom.
    $("flip").checked = mode() === "black";
    render();
    afterChange();
  });
  $("undo").addEventListener("click", undo);
  $("engine-move").addEventListener("click", engineMove);
  $("analyse").addEventListener("click", () => { ui.analysing = true; if (!engineToMove()) startAnalysis(); });
  $("stop").addEventListener("click", () => { ui.analysing = false; api(gamePath("/stop"), {}).catch((e) => showError(e.message)); });
  $("choice-cancel").addEventListener("click", () => { $("choice").hidden = true; });
  for (const id of ["flip", "coords", "show-fields", "show-gaze", "show-compelled", "arrow"]) {
    $(id).addEventListener("change", () => render());
  }
  $("limit-kind").addEventListener("change", () => {
    $("limit-value").value = { movetime: 1000, depth: 4, nodes: 100000 }[$("limit-kind").value];
  });
  $("setup").addEventListener("click", async () => {
    $("setup-error").textContent = "";
    try {
      await newGame($("position").value);
    } catch (e) {
      $("setup-error").textContent = e.message;
    }
  });
  $("copy-position").addEventListener("click", () => copy($("position"), ui.state.position));
  $("copy-pgn").addEventListener("click", async () => {
    const text = await api(gamePath("/pgn"));
    $("pgn").hidden = false;
    $("pgn").value = text;
    copy($("pgn"), text);
  });
  await newGame();
}

function copy(area, text) {
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).catch(() => {});
  }
  area.value = text;
  area.select();
}

init().catch((e) => showError(e.message));
