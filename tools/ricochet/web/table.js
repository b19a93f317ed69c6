// The Ricochet table page: set up the board as it lies, see the optimum, referee the bids.
// The rules live on the host (python -m tools.ricochet serve): this page draws, takes
// taps and drags, keeps the round (bids, timer, chips) and asks the host to judge each
// demonstration move and to solve. URL: ?clock=manual (tests: time moves only through
// window.ricochet.advance(ms)), ?faces=1A,4A,3B,2B to start from those faces,
// ?lang=en|de|es|ko (the page's words, as the handheld's page chooses them: lang.js).

import { N_, _, chooseLanguage, format, language, ngettext, remember, setLanguage, translateLine, translatePage } from "./lang.js";

const $ = (id) => document.getElementById(id);
const chosen = chooseLanguage();
setLanguage(chosen.lang);
translatePage();
// The host names robots and targets in English (red, red circle): said in the page's words.
const said = (name) => translateLine(name);
// The language picker: the page's words again in the new language (the board stays).
$("lang").value = language();
$("lang").addEventListener("change", () => {
  remember($("lang").value);
  setLanguage($("lang").value);
  translatePage();
  if (FACES) { drawBoard(); drawSetup(); drawPlayers(); }
  $("lang").blur();
});
window.ricochetLanguage = () => language();
const SVG = "http://www.w3.org/2000/svg";
const QUADRANTS = [N_("NW"), N_("NE"), N_("SE"), N_("SW")]; // compass corners, as the board lies
const ORIGIN = [[0, 0], [8, 0], [8, 8], [0, 8]];
const COLOURS = { red: "#d62828", green: "#2a9d3f", blue: "#1d4ed8", yellow: "#e9b200", silver: "#9ca3af", clear: "#d9f0ff" };
const DIRS = "NESW";
const BID_MS = 60000; // the sand timer
const CELL_MS = 90; // a robot slides one cell in this long: a pace people can follow
const PAUSE_MS = 700; // between the moves of the optimum

// -- the clock: everything timed goes through it, so a test can drive time ---------------
const params = new URLSearchParams(location.search);
const manual = params.get("clock") === "manual";
const clock = { now: 0, events: [], seq: 0 };
function later(ms, fn) {
  const ev = { t: clock.now + ms, seq: clock.seq++, fn };
  clock.events.push(ev);
  return ev;
}
function cancel(ev) { clock.events = clock.events.filter((e) => e !== ev); }
function runUntil(t) {
  for (;;) {
    clock.events.sort((a, b) => a.t - b.t || a.seq - b.seq);
    const ev = clock.events[0];
    if (!ev || ev.t > t) break;
    clock.events.shift();
    clock.now = Math.max(clock.now, ev.t);
    ev.fn();
  }
  clock.now = t;
  showTimer();
}
if (!manual) {
  const t0 = performance.now();
  setInterval(() => runUntil(performance.now() - t0), 20);
}

// -- what the page knows ---------------------------------------------------------------------
const S = {
  faces: ["1A", "2A", "3A", "4A"], // by quadrant
  quadrant: 0, // the one a face tap goes to
  board: null, // {walls, targets, names} from the host
  robots: {}, // name -> cell
  target: null, // index 0-16
  ricochet: true,
  turns: 0, // the view, in clockwise quarter turns
  selected: null, // a robot picked in the tray or, in a demonstration, on the board
  phase: "setup", // setup, thinking, bidding, demonstrating, over
  players: [],
  bids: [], // {player, moves, t, seq}
  bidSeq: 0,
  bidStart: null,
  order: [], // bids in the order they demonstrate
  turn: 0, // index into order
  start: null, // the robots where the round started
  demo: [], // the moves of the demonstration so far, [robot, dir, passes]
  played: [], // targets whose chip was played
  busy: false,
  animating: false,
  after: null, // where the robots stand for the next chip, after a win
};
let FACES = null; // from the host
let timerEvent = null;
let animation = []; // scheduled events of the running animation

function status(text, bad) {
  $("status").textContent = translateLine(text); // the host's reasons in the page's words
  $("status").classList.toggle("bad", !!bad);
}

async function ask(route, body) {
  const res = await fetch("/api/" + route, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(answer.error || format(_("the host answered %s"), res.status));
  return answer;
}

// -- drawing ---------------------------------------------------------------------------------
function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
const xy = (c) => [c % 16, Math.floor(c / 16)];
function turn(x, y, q) { for (let i = 0; i < (q & 3); i++) [x, y] = [15 - y, x]; return [x, y]; }
const SEGMENT = [[0, 0, 1, 0], [1, 0, 1, 1], [0, 1, 1, 1], [0, 0, 0, 1]]; // N E S W sides of a cell

function symbol(parent, t, x, y, r) {
  const cx = x + 0.5, cy = y + 0.5;
  const colour = t === 16 ? "#b05cd6" : COLOURS[FACES.colours[t >> 2]];
  const shape = t === 16 ? "vortex" : FACES.shapes[t & 3];
  if (shape === "circle") return el("circle", { cx, cy, r, fill: colour }, parent);
  if (shape === "square") return el("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, fill: colour }, parent);
  const corners = { triangle: 3, hexagon: 6, vortex: 8 }[shape];
  const pts = [];
  for (let i = 0; i < corners; i++) {
    const a = (2 * Math.PI * i) / corners, rr = shape === "vortex" && i % 2 ? r * 0.55 : r * 1.15;
    pts.push((cx + rr * Math.sin(a)).toFixed(2) + "," + (cy - rr * Math.cos(a)).toFixed(2));
  }
  return el("polygon", { points: pts.join(" "), fill: colour }, parent);
}

function drawBoard() {
  const svg = $("board");
  svg.textContent = "";
  const view = el("g", { id: "view", transform: `rotate(${90 * S.turns} 8 8)` }, svg);
  el("rect", { x: 0, y: 0, width: 16, height: 16, class: "felt" }, view);
  for (let c = 0; c < 256; c++) {
    const [x, y] = xy(c);
    const centre = x >= 7 && x <= 8 && y >= 7 && y <= 8;
    el("rect", { x, y, width: 1, height: 1, class: centre ? "centre" : "cell", "data-cell": c }, view);
  }
  if (!S.board) return;
  S.board.targets.forEach((c, t) => {
    const [x, y] = xy(c);
    if (t === S.target) el("rect", { x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, class: "goal" }, view);
    symbol(view, t, x, y, 0.26).setAttribute("class", "target");
  });
  if (S.target !== null) { // the chip on the centre piece
    el("circle", { cx: 8, cy: 8, r: 0.85, class: "chip" }, view);
    symbol(view, S.target, 7.5, 7.5, 0.5).setAttribute("id", "centre-chip");
  }
  S.board.walls.forEach((w, c) => {
    const [x, y] = xy(c);
    for (let d = 0; d < 4; d++) {
      if (!(w & (1 << d))) continue;
      if (d === 2 && y < 15 || d === 1 && x < 15) continue; // drawn once, from the cell beyond
      const [a, b, e, f] = SEGMENT[d];
      el("line", { x1: x + a, y1: y + b, x2: x + e, y2: y + f, class: w & (16 << d) ? "wall solid" : "wall", "data-wall": `${c}${DIRS[d]}` }, view);
    }
  });
  el("g", { id: "marks" }, view);
  const robots = el("g", { id: "robots" }, view);
  for (const [name, c] of Object.entries(S.robots)) drawRobot(robots, name, c);
}

function drawRobot(parent, name, c) {
  const [x, y] = xy(c);
  const g = el("g", { class: "robot" + (S.selected === name ? " selected" : ""), "data-robot": name, transform: `translate(${x} ${y})` }, parent);
  el("circle", { cx: 0.5, cy: 0.5, r: 0.36, fill: COLOURS[name], class: name === "clear" ? "body clear" : "body" }, g);
  el("circle", { cx: 0.5, cy: 0.32, r: 0.1, class: "eye" }, g);
  const title = el("title", {}, g);
  title.textContent = said(name);
  return g;
}

function robotAt(name, c) { // move a drawn robot without redrawing the board
  const g = document.querySelector(`#robots [data-robot="${name}"]`);
  const [x, y] = xy(c);
  if (g) g.setAttribute("transform", `translate(${x} ${y})`);
}

function markPass(c, d) { // the transparent robot's wall pass, kept until the next drawing
  const [x, y] = xy(c);
  const [a, b, e, f] = SEGMENT[d];
  const marks = $("marks");
  el("line", { x1: x + a, y1: y + b, x2: x + e, y2: y + f, class: "pass", "data-pass": `${c}${DIRS[d]}` }, marks);
  const t = el("text", { x: x + (a + e) / 2, y: y + (b + f) / 2 + 0.12, class: "pass-label" }, marks);
  t.textContent = "+1";
}

function facePicture(name, q, size) {
  const [ox, oy] = ORIGIN[q];
  const svg = el("svg", { viewBox: `${ox - 0.2} ${oy - 0.2} 8.4 8.4`, width: size, height: size, class: "face-picture" });
  el("rect", { x: ox, y: oy, width: 8, height: 8, class: "felt" }, svg);
  const face = FACES.faces[name];
  for (const [x0, y0, t] of face.targets) {
    const [x, y] = turn(x0, y0, q);
    symbol(svg, t, x, y, 0.32);
  }
  for (const [x0, y0, sides] of face.walls) {
    const [x, y] = turn(x0, y0, q);
    for (const s of sides) {
      const d = (DIRS.indexOf(s) + q) & 3;
      const [a, b, e, f] = SEGMENT[d];
      el("line", { x1: x + a, y1: y + b, x2: x + e, y2: y + f, class: "wall" }, svg);
    }
  }
  const [cx, cy] = turn(7, 7, q);
  el("rect", { x: cx, y: cy, width: 1, height: 1, class: "centre" }, svg);
  return svg;
}

function drawSetup() {
  const quads = $("quadrants");
  quads.textContent = "";
  QUADRANTS.forEach((name, q) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.quadrant = name;
    b.className = "quadrant" + (q === S.quadrant ? " chosen" : "");
    b.setAttribute("aria-pressed", q === S.quadrant);
    const face = S.faces[q];
    b.append(face ? facePicture(face, q, 44) : "", `${_(name)}: ${face || "?"}`);
    quads.appendChild(b);
  });
  const faces = $("faces");
  faces.textContent = "";
  for (const name of Object.keys(FACES.faces)) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.face = name;
    b.className = "face" + (S.faces[S.quadrant] === name ? " chosen" : "");
    b.title = format(_("face %s, as it lies in the %s quarter"), name, _(QUADRANTS[S.quadrant]));
    b.append(facePicture(name, S.quadrant, 72), name);
    faces.appendChild(b);
  }
  const tray = $("tray");
  tray.textContent = "";
  for (const name of FACES.robots) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.robot = name;
    b.className = "tray-robot" + (S.selected === name ? " selected" : "") + (name in S.robots ? " placed" : "");
    b.style.setProperty("--robot", COLOURS[name]);
    b.textContent = said(name);
    tray.appendChild(b);
  }
  const chips = $("chips");
  chips.textContent = "";
  for (let t = 0; t < 17; t++) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.target = t;
    b.className = "chip-button" + (S.target === t ? " chosen" : "") + (S.played.includes(t) ? " played" : "");
    b.title = S.board ? said(S.board.names[t]) : "";
    const svg = el("svg", { viewBox: "0 0 1 1", width: 28, height: 28 }, b);
    symbol(svg, t, 0, 0, 0.3);
    chips.appendChild(b);
  }
  $("rule").checked = S.ricochet;
  const ready = ["red", "green", "blue", "yellow"].every((r) => r in S.robots) && S.target !== null && S.faces.every(Boolean);
  $("solve").disabled = !ready;
  $("start").disabled = !ready;
}

// -- set-up ----------------------------------------------------------------------------------
async function setFaces() {
  stopAnimation();
  if (!S.faces.every(Boolean)) {
    status(format(_("Choose a face for %s."), _(QUADRANTS[S.faces.indexOf(null)])));
    S.board = null;
  } else {
    S.board = await ask("board", { faces: S.faces.join(",") });
    for (const [name, c] of Object.entries(S.robots)) if (isCentre(c)) delete S.robots[name];
    status(format(_("Board %s (NW, NE, SE, SW)."), S.faces.join(", ")));
  }
  drawBoard();
  drawSetup();
}
const isCentre = (c) => [0x77, 0x78, 0x87, 0x88].includes(c);

function chooseFace(name) {
  const other = S.faces.findIndex((f, q) => f && f[0] === name[0] && q !== S.quadrant);
  if (other >= 0) S.faces[other] = null; // a board lies in one place only
  S.faces[S.quadrant] = name;
  const empty = S.faces.indexOf(null);
  if (empty >= 0) S.quadrant = empty;
  return setFaces();
}

function place(name, c) {
  stopAnimation();
  if (isCentre(c)) return status(_("No robot may stand in the centre."), true);
  for (const [other, at] of Object.entries(S.robots)) if (at === c && other !== name) return status(format(_("The %s robot stands there."), said(other)), true);
  S.robots[name] = c;
  S.selected = null;
  const [x, y] = xy(c);
  status(format(_("The %s robot on (%d,%d)."), said(name), x, y));
  drawBoard();
  drawSetup();
}

function cellUnder(x, y) { // the cell at a point of the screen, a robot's cell included
  const hit = document.elementFromPoint(x, y);
  if (!hit) return null;
  const robot = hit.closest("#robots [data-robot]");
  if (robot) return S.robots[robot.dataset.robot];
  return hit.dataset && hit.dataset.cell !== undefined ? Number(hit.dataset.cell) : null;
}

// Drag with pointer events (mouse, pen and touch alike); a press without a drag picks.
let drag = null;
function startDrag(e, name, from) {
  if (S.phase !== "setup") return;
  e.preventDefault();
  drag = { name, from, x: e.clientX, y: e.clientY, moved: false, ghost: null };
}
document.addEventListener("pointermove", (e) => {
  if (!drag) return;
  if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
  if (!drag.ghost) {
    drag.ghost = document.createElement("div");
    drag.ghost.className = "ghost";
    drag.ghost.style.background = COLOURS[drag.name];
    document.body.appendChild(drag.ghost);
  }
  drag.moved = true;
  drag.ghost.style.left = e.clientX + "px";
  drag.ghost.style.top = e.clientY + "px";
});
document.addEventListener("pointerup", (e) => {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (d.ghost) d.ghost.remove();
  if (!d.moved && d.from !== null && S.selected && S.selected !== d.name) return place(S.selected, d.from);
  if (!d.moved) { // a tap: pick it (or put it down again)
    S.selected = S.selected === d.name ? null : d.name;
    status(S.selected ? format(_("Tap the cell where the %s robot stands."), said(d.name)) : "");
    drawBoard();
    return drawSetup();
  }
  const c = cellUnder(e.clientX, e.clientY);
  if (c !== null) return place(d.name, c);
  if (d.from !== null && ["silver", "clear"].includes(d.name)) { // off the board: taken away
    delete S.robots[d.name];
    status(format(_("The %s robot taken off the board."), said(d.name)));
  } else if (d.from !== null) status(format(_("The %s robot always plays: drop it on a cell."), said(d.name)), true);
  drawBoard();
  drawSetup();
});

$("board").addEventListener("pointerdown", (e) => {
  const robot = e.target.closest("[data-robot]");
  if (robot && S.phase === "setup") return startDrag(e, robot.dataset.robot, S.robots[robot.dataset.robot]);
  if (robot && S.phase === "demonstrating" && !S.busy) {
    S.selected = robot.dataset.robot;
    document.querySelectorAll("#robots .robot").forEach((g) => g.classList.toggle("selected", g.dataset.robot === S.selected));
    $("passes-box").hidden = S.selected !== "clear";
    return status(format(_("The %s robot: tap a direction."), said(S.selected)));
  }
  const cell = e.target.dataset.cell;
  if (cell !== undefined && S.phase === "setup" && S.selected) place(S.selected, Number(cell));
});

$("tray").addEventListener("pointerdown", (e) => {
  const b = e.target.closest("[data-robot]");
  if (b) startDrag(e, b.dataset.robot, null);
});
$("quadrants").addEventListener("click", (e) => {
  const b = e.target.closest("[data-quadrant]");
  if (!b) return;
  S.quadrant = QUADRANTS.indexOf(b.dataset.quadrant);
  drawSetup();
});
$("faces").addEventListener("click", (e) => {
  const b = e.target.closest("[data-face]");
  if (b) chooseFace(b.dataset.face).catch((err) => status(err.message, true));
});
$("chips").addEventListener("click", (e) => {
  const b = e.target.closest("[data-target]");
  if (!b) return;
  stopAnimation();
  S.target = Number(b.dataset.target);
  status(format(_("Target: the %s."), said(S.board.names[S.target])));
  drawBoard();
  drawSetup();
});
$("rule").addEventListener("change", () => { S.ricochet = $("rule").checked; });
$("turn-view").addEventListener("click", () => { S.turns = (S.turns + 1) & 3; drawBoard(); });

// -- the optimum, animated -------------------------------------------------------------------
function stopAnimation() { // leaving what was being shown: nothing waits for it any more
  animation.forEach(cancel);
  animation = [];
  S.animating = false;
  S.busy = false;
}

function listMoves(moves, current) {
  const list = $("moves");
  list.textContent = "";
  moves.forEach((m, i) => {
    const li = document.createElement("li");
    const [robot, ...rest] = m.text.split(" "); // "clear N+1": the robot in the page's words
    li.textContent = [said(robot), ...rest].join(" ") + (m.passes ? " " + format(ngettext("(through a wall)", "(through %d walls)", m.passes), m.passes) : "");
    if (i === current) li.className = "current";
    if (i < current) li.className = "done";
    list.appendChild(li);
  });
}

// Slide one robot along its move, cell by cell; then ``done``.
function animateMove(m, done, after = 0) {
  const step = [-16, 1, 16, -1][DIRS.indexOf(m.dir)];
  const cells = Math.abs(m.to - m.from) / Math.abs(step);
  for (let i = 1; i <= cells; i++) {
    const here = m.from + i * step, prev = here - step;
    animation.push(later(after + i * CELL_MS, () => {
      if (m.passed.includes(prev)) markPass(prev, DIRS.indexOf(m.dir));
      robotAt(m.robot, here);
    }));
  }
  animation.push(later(after + Math.max(cells, 1) * CELL_MS, done));
}

function playSolution(answer, start) {
  stopAnimation();
  S.robots = { ...start };
  drawBoard();
  const moves = answer.moves;
  const summary = format(answer.ricochet
    ? ngettext("Optimum: %d move, ricochet rule (%d positions in %s s).", "Optimum: %d moves, ricochet rule (%d positions in %s s).", answer.count)
    : ngettext("Optimum: %d move, no ricochet rule (%d positions in %s s).", "Optimum: %d moves, no ricochet rule (%d positions in %s s).", answer.count),
  answer.count, answer.nodes, answer.seconds.toFixed(3));
  status(summary);
  S.animating = true;
  const next = (i) => {
    listMoves(moves, i);
    if (i === moves.length) {
      S.animating = false;
      return status(format(_("%s Shown."), summary));
    }
    // only drawn: the robots on the table have not moved (a redraw puts them back)
    animateMove(moves[i], () => animation.push(later(PAUSE_MS, () => next(i + 1))));
  };
  next(0);
}

async function showOptimum() {
  const start = S.phase === "setup" ? { ...S.robots } : { ...S.start };
  status(_("Searching…"));
  try {
    const answer = await ask("solve", { faces: S.faces.join(","), robots: start, target: S.target, ricochet: S.ricochet });
    if (answer.count === null) return status(format(_("No solution within 30 moves (%d positions searched)."), answer.nodes));
    playSolution(answer, start);
  } catch (err) {
    status(err.message, true);
  }
}
$("solve").addEventListener("click", showOptimum);
$("round-optimum").addEventListener("click", showOptimum);

// -- the round: players, bids, the timer -----------------------------------------------------
function drawPlayers() {
  const t = $("players");
  t.textContent = "";
  S.players.forEach((p, i) => {
    const tr = document.createElement("tr");
    tr.dataset.player = i;
    const open = S.phase === "thinking" || S.phase === "bidding";
    tr.innerHTML = `<th scope="row"></th><td class="chips-won"></td>
      <td><input type="number" min="1" max="40" ${open ? "" : "disabled"}>
      <button type="button" class="bid" ${open ? "" : "disabled"}></button></td>`;
    tr.querySelector("th").textContent = p.name;
    tr.querySelector(".chips-won").title = _("chips won");
    tr.querySelector("input").setAttribute("aria-label", _("bid"));
    tr.querySelector("button.bid").textContent = _("Bid");
    tr.querySelector(".chips-won").textContent = format(ngettext("%d chip", "%d chips", p.chips), p.chips);
    t.appendChild(tr);
  });
  const bids = $("bids");
  bids.textContent = "";
  const shown = S.phase === "thinking" || S.phase === "bidding" ? ordered() : S.order;
  shown.forEach((b, i) => {
    const li = document.createElement("li");
    li.textContent = format(ngettext("%s: %d move", "%s: %d moves", b.moves), S.players[b.player].name, b.moves);
    if (S.phase === "demonstrating" && i === S.turn) li.className = "current";
    if (b.failed) li.className = "failed";
    if (b.won) li.className = "won";
    bids.appendChild(li);
  });
}

// Lowest bid first; of equal bids, the one called first. A player's lowest bid counts.
function ordered() {
  const best = new Map();
  for (const b of S.bids) if (!best.has(b.player) || b.moves < best.get(b.player).moves) best.set(b.player, b);
  return [...best.values()].sort((a, b) => a.moves - b.moves || a.seq - b.seq).map((b) => ({ ...b }));
}

function bid(player, moves) {
  if (S.phase !== "thinking" && S.phase !== "bidding") return status(_("Bids are closed."), true);
  if (!Number.isInteger(moves) || moves < 1 || moves > 40) return status(_("A bid is a number of moves, 1 to 40."), true);
  const mine = S.bids.filter((b) => b.player === player);
  const name = S.players[player].name;
  if (mine.length && moves >= Math.min(...mine.map((b) => b.moves))) return status(format(_("%s has bid %d already: a new bid must be lower."), name, Math.min(...mine.map((b) => b.moves))), true);
  S.bids.push({ player, moves, t: clock.now, seq: S.bidSeq++ });
  if (S.phase === "thinking") {
    S.phase = "bidding";
    S.bidStart = clock.now;
    timerEvent = later(BID_MS, closeBids);
  }
  status(format(_("%s bids %d."), name, moves));
  if (new Set(S.bids.map((b) => b.player)).size === S.players.length) { // everyone has bid: no sand to wait for
    cancel(timerEvent);
    closeBids();
    return;
  }
  drawPlayers();
}

function showTimer() {
  let left = BID_MS;
  if (S.phase === "bidding") left = Math.max(0, BID_MS - (clock.now - S.bidStart));
  else if (S.phase !== "thinking") left = 0;
  const s = Math.ceil(left / 1000);
  const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if ($("timer").textContent !== text) $("timer").textContent = text;
  $("timer").classList.toggle("ending", S.phase === "bidding" && left <= 10000);
}

function beep() { // the sand has run out: a short tone, where the browser allows sound
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.value = 0.15;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
    tone.onended = () => audio.close();
  } catch (err) { /* no sound here: the page says it anyway */ }
}

function closeBids() {
  timerEvent = null;
  if (!manual) beep();
  S.order = ordered();
  S.phase = "demonstrating";
  S.turn = 0;
  startDemonstration();
}

function startDemonstration() {
  const b = S.order[S.turn];
  S.demo = [];
  S.robots = { ...S.start };
  S.selected = null;
  drawBoard();
  listMoves([], 0);
  $("verdict").textContent = "";
  $("next-bidder").hidden = true;
  $("pad").hidden = false;
  $("passes").value = 0;
  $("passes-box").hidden = true;
  status(format(ngettext("Time! %s shows %d move: tap a robot, then a direction.",
    "Time! %s shows %d moves: tap a robot, then a direction.", b.moves), S.players[b.player].name, b.moves));
  drawPlayers();
}

async function demoMove(screenDir) {
  if (S.phase !== "demonstrating" || S.busy || S.animating) return;
  if (!S.selected) return status(_("Tap the robot to move first."), true);
  const d = DIRS[(screenDir - S.turns + 4) & 3];
  const passes = S.selected === "clear" ? Math.max(0, Math.min(15, Number($("passes").value) || 0)) : 0;
  const b = S.order[S.turn];
  const moves = [...S.demo, [S.selected, d, passes]];
  S.busy = true;
  let answer;
  try {
    answer = await ask("demonstrate", { faces: S.faces.join(","), robots: S.start, target: S.target, ricochet: S.ricochet, bid: b.moves, moves });
  } catch (err) {
    S.busy = false;
    return status(err.message, true);
  }
  S.demo = moves;
  $("passes").value = 0;
  const m = answer.moves[answer.moves.length - 1];
  listMoves(answer.moves, answer.moves.length);
  const finish = () => {
    S.busy = false;
    S.animating = false;
    S.robots = answer.robots;
    judged(answer);
  };
  if (m.legal) { S.animating = true; animateMove(m, finish); } else finish();
}

function judged(answer) {
  const b = S.order[S.turn];
  const name = S.players[b.player].name;
  if (answer.state === "going") return status(format(_("%s: %s."), name, translateLine(answer.reason)));
  $("pad").hidden = true;
  if (answer.state === "won") {
    b.won = true;
    S.players[b.player].chips += 1;
    S.played.push(S.target);
    S.phase = "over";
    $("verdict").textContent = format(_("%s wins the %s chip: %s."), name, said(S.board.names[S.target]), translateLine(answer.reason));
    status(format(_("%s wins the chip. The robots stay where they are for the next chip."), name));
    S.after = { ...answer.robots }; // where the next chip starts
    endRound();
  } else {
    b.failed = true;
    $("verdict").textContent = format(_("%s fails: %s."), name, translateLine(answer.reason));
    if (S.turn + 1 < S.order.length) {
      const n = S.order[S.turn + 1];
      $("next-bidder").hidden = false;
      $("next-bidder").textContent = format(ngettext("Next: %s (%d move)", "Next: %s (%d moves)", n.moves), S.players[n.player].name, n.moves);
      S.robots = { ...S.start }; // back at once, as the headline says
      drawBoard();
      status(format(_("%s fails. The robots go back; %s shows next."), name, S.players[n.player].name));
    } else {
      S.phase = "over";
      S.played.push(S.target);
      S.robots = { ...S.start };
      drawBoard();
      status(_("Nobody showed a solution: nobody wins this chip."));
      endRound();
    }
  }
  drawPlayers();
}

function endRound() {
  $("round-optimum").hidden = false;
  $("next-round").hidden = false;
  $("next-bidder").hidden = true;
}

function startRound() {
  if (!S.players.length) S.players = [{ name: format(_("Player %d"), 1), chips: 0, madeUp: true }, { name: format(_("Player %d"), 2), chips: 0, madeUp: true }];
  stopAnimation();
  S.start = { ...S.robots };
  S.after = null;
  S.phase = "thinking";
  S.bids = [];
  S.order = [];
  S.selected = null;
  S.demo = [];
  $("setup").hidden = true;
  $("round").hidden = false;
  $("pad").hidden = true;
  $("verdict").textContent = "";
  for (const id of ["next-bidder", "round-optimum", "next-round"]) $(id).hidden = true;
  listMoves([], 0);
  drawBoard();
  drawPlayers();
  status(format(_("The %s: the first bid turns the timer."), said(S.board.names[S.target])));
}

function backToSetup() {
  if (timerEvent) cancel(timerEvent);
  timerEvent = null;
  stopAnimation();
  S.phase = "setup";
  if (S.after) S.robots = { ...S.after };
  else if (S.start) S.robots = { ...S.start };
  S.after = null;
  S.target = null;
  $("round").hidden = true;
  $("setup").hidden = false;
  $("pad").hidden = true;
  listMoves([], 0);
  drawBoard();
  drawSetup();
  status(_("Set up: tap the next target chip."));
}

$("start").addEventListener("click", startRound);
$("back").addEventListener("click", backToSetup);
$("next-round").addEventListener("click", backToSetup);
$("next-bidder").addEventListener("click", () => { S.turn += 1; startDemonstration(); });
$("players").addEventListener("click", (e) => {
  const b = e.target.closest("button.bid");
  if (!b) return;
  const row = b.closest("tr");
  const input = row.querySelector("input");
  bid(Number(row.dataset.player), Number(input.value));
  input.value = "";
});
$("players").addEventListener("keydown", (e) => { // Enter in a bid box bids
  if (e.key !== "Enter" || e.target.tagName !== "INPUT") return;
  e.preventDefault();
  e.target.closest("tr").querySelector("button.bid").click();
});
$("add-player").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = $("player-name").value.trim();
  if (!name) return status(_("Type the player's name first."), true);
  if (S.players.some((p) => p.name === name)) return status(format(_("%s plays already."), name), true);
  if (!S.bids.length && S.players.every((p) => p.madeUp && !p.chips)) S.players = []; // the first real name replaces them
  S.players.push({ name, chips: 0 });
  $("player-name").value = "";
  drawPlayers();
});
$("pad").addEventListener("click", (e) => {
  const b = e.target.closest("[data-screen]");
  if (b) demoMove(Number(b.dataset.screen));
});
document.addEventListener("keydown", (e) => {
  const k = { ArrowUp: 0, ArrowRight: 1, ArrowDown: 2, ArrowLeft: 3 }[e.key];
  if (k !== undefined && S.phase === "demonstrating" && e.target.tagName !== "INPUT") { e.preventDefault(); demoMove(k); }
});

// -- for the tests ---------------------------------------------------------------------------
window.ricochet = {
  ready: false,
  manual,
  advance(ms) { runUntil(clock.now + ms); return clock.now; },
  now: () => clock.now,
  state: () => ({ phase: S.phase, faces: S.faces.join(","), board: S.board ? S.board.faces : null, robots: { ...S.robots }, target: S.target, turns: S.turns,
    order: S.order.map((b) => [S.players[b.player].name, b.moves]), bids: ordered().map((b) => [S.players[b.player].name, b.moves]),
    turn: S.turn, players: S.players.map((p) => [p.name, p.chips]), animating: !!S.animating, busy: S.busy, start: S.start,
    drawn: Object.fromEntries([...document.querySelectorAll("#robots [data-robot]")].map((g) => {
      const [x, y] = g.getAttribute("transform").match(/-?\d+/g).map(Number);
      return [g.dataset.robot, y * 16 + x];
    })) }),
};

async function main() {
  try {
    FACES = await ask("faces");
    const known = ["clock", "faces", "lang"];
    const unknown = [...params.keys()].filter((k) => !known.includes(k));
    if (unknown.length) status(format(_("URL: unknown parameter %s (known: %s); ignored"), unknown[0].slice(0, 20), known.join(", ")), true);
    if (params.has("clock") && !manual) status(format(_("URL clock=%s: only clock=manual (for tests); the real clock instead"), params.get("clock").slice(0, 20)), true);
    const wanted = params.get("faces");
    if (wanted) {
      const parts = wanted.toUpperCase().split(",");
      const boards = new Set(parts.map((p) => p[0]));
      if (parts.length === 4 && boards.size === 4 && parts.every((p) => p in FACES.faces)) S.faces = parts;
      else status(format(_("URL faces=%s: four faces like 1A,4A,3B,2B; the default board instead"), wanted.slice(0, 20)), true);
    }
    const note = $("status").classList.contains("bad") ? $("status").textContent : null;
    await setFaces();
    if (note) status(note, true);
    else if (chosen.notice) status(chosen.notice, true);
    else status(_("Set up the board as it lies: faces, robots, the target chip."));
    $("pad").hidden = true;
    window.ricochet.ready = true;
  } catch (err) {
    status(format(_("The page cannot reach its host: %s"), err.message), true);
  }
}
main();
