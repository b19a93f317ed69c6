// The handheld in a web page: the very firmware of the Pico in MicroPython's WebAssembly
// port. This file is the glue: it is the board (firmware/microrobots/device/hw/web.py reads
// globalThis.microrobotsBoard), draws the grid, turns keys, clicks and touches into
// buttons held, plays the buzzer with WebAudio and keeps the flash in localStorage.
//
// URL parameters: seed=N (a fresh device whose new games start from N), game=MR2...
// (a fresh device resuming that share string's game), fresh (a fresh device: nothing
// saved, your own device's flash untouched), view=big (projector view), contrast=high,
// clock=manual (tests: the clock moves only through window.microrobots.replay),
// lang=en|de|es|ko (the page's words; remembered: tools/i18n/lang.js).
// A bad parameter or a corrupt stored flash: the device's one-line notice, then defaults.

import { loadMicroPython } from "./micropython.mjs";
import { FILM_OFF, HELP, LEGEND, PIPS, TALLY, litFilm, pipInk, screenRgb } from "./tables.js";
import { N_, _, chooseLanguage, firmwareCatalogue, format, language, ngettext, remember, setLanguage, translateLine, translatePage } from "./lang.js";

const FRAME_MS = 20; // the firmware's frame: the page steps the device once per 20 ms
const TAP_MS = 60; // a click or key shorter than this holds its button this long
const MAX_SEED = 0x3fffffff;
const STORAGE_KEY = "microrobots.flash.v1"; // {name: text} of every file on the flash
const FLASH = "/flash";
const HEAP = 512 * 1024;
const KNOWN = ["seed", "game", "fresh", "view", "contrast", "clock", "lang"];
const KEYS = {
  ArrowUp: 0, ArrowDown: 1, ArrowLeft: 2, ArrowRight: 3,
  Enter: 4, " ": 4, a: 4, Backspace: 5, Escape: 5, b: 5,
};

const $ = (id) => document.getElementById(id);
const problems = [];
const hook = { frames: [], stepTimes: [], status: "", guide: "", ready: null };
window.microrobots = hook;

// -- the URL ----------------------------------------------------------------------------
const params = new URLSearchParams(location.search);
const chosen = chooseLanguage();
setLanguage(chosen.lang);
if (chosen.notice) problems.push(chosen.notice);
const clip = (text) => JSON.stringify(text.length > 24 ? text.slice(0, 24) + "…" : text);
for (const key of params.keys()) {
  if (!KNOWN.includes(key)) problems.push(format(_("URL: unknown parameter %s (known: %s); ignored"), clip(key), KNOWN.join(", ")));
}
function choice(name, allowed) {
  const value = params.get(name);
  if (value === null || allowed.includes(value)) return value;
  problems.push(format(_("URL %s=%s: use %s; ignored"), name, clip(value), allowed.join(_(" or "))));
  return null;
}
let seed = null;
if (params.has("seed")) {
  const text = params.get("seed");
  if (/^\d{1,10}$/.test(text) && Number(text) <= MAX_SEED) seed = Number(text);
  else problems.push(format(_("URL seed=%s: not a whole number 0..%d; a random seed instead"), clip(text), MAX_SEED));
}
const game = params.get("game");
const manual = choice("clock", ["manual"]) === "manual";
const options = { big: choice("view", ["big", "normal"]) === "big", contrast: choice("contrast", ["high", "normal"]) === "high" };
// A device of its own, whose flash is never saved: the same seed, the same game.
const ephemeral = params.has("fresh") || params.has("seed") || game !== null || manual;
if (seed === null) seed = crypto.getRandomValues(new Uint32Array(1))[0] & MAX_SEED;
hook.seed = seed;
hook.ephemeral = ephemeral;

// -- the board ----------------------------------------------------------------------------
const start = performance.now();
let pixels = new Uint8Array(108);
let writes = 0; // frames the firmware wrote to the LEDs
let painted = true; // the canvas shows the last frame written
let numbers = null;
let mode = "starting";
let greeting = null; // the status line's first words, until a key is pressed
let reached = null; // the classroom: each cell's distance once its wave got there, else -1
let pageApi = null; // the firmware's page module, once booted
let halted = false; // an imported flash is being put in place: no frame runs, none saves

const board = {
  held: 0,
  clock: 0,
  buttons: () => board.held,
  show(grid) { pixels = new Uint8Array(grid); writes += 1; painted = false; },
  tone: (freq) => sound.tone(freq),
  now: () => board.clock,
  seed: () => seed,
  // Power (hw/web.py): a simulated cell the page's slider sets, USB until it is moved.
  millivolts: -1,
  onUsb: 1,
  supply: true, // the LEDs' supply, as the firmware last switched it
  sleeps: 0,
  vsys: () => board.millivolts,
  usb: () => board.onUsb,
  ledPower(on) { board.supply = Boolean(on); },
  sleep() { board.sleeps += 1; },
};
globalThis.microrobotsBoard = board;

// The firmware's gauge (firmware/microrobots/device/power.py, percent_of): a LiPo's
// voltage at 0, 10, ... 100 % charge, linear between.
const CELL_MV = [3300, 3680, 3740, 3770, 3790, 3820, 3870, 3920, 3980, 4060, 4200];
function percentOf(mv) {
  if (mv <= CELL_MV[0]) return 0;
  for (let k = 1; k <= 10; k++) {
    if (mv < CELL_MV[k]) {
      return 10 * (k - 1) + Math.floor(10 * (mv - CELL_MV[k - 1]) / (CELL_MV[k] - CELL_MV[k - 1]));
    }
  }
  return 100;
}
// The lowest cell voltage the gauge reads as ``percent`` (tools/sim/terminal.py's millivolts).
function cellMillivolts(percent) {
  const p = Math.min(Math.max(Math.round(percent), 0), 100);
  for (let mv = 3000; mv < 4400; mv++) if (percentOf(mv) >= p) return mv;
  return 4400;
}
// null: on USB; else the simulated cell's charge in percent
function setBattery(percent) {
  board.onUsb = percent === null ? 1 : 0;
  board.millivolts = percent === null ? -1 : cellMillivolts(percent);
  $("usb").checked = percent === null;
  if (percent !== null) $("battery").value = String(percent);
  $("battery-value").textContent = percent === null ? _("USB") : format(_("%d %%"), percent);
}
hook.setBattery = setBattery;
hook.cellMillivolts = cellMillivolts;

// Buttons held: from the key or pointer going down to its release, at least TAP_MS.
// A tap released early stays held until the firmware has seen it: three frames, or on a
// slow page (frames far apart) any frames spanning SEEN_MS (the firmware's 20 ms lock-out
// twice over). Never longer: held for three frames 200 ms apart, a tap would pass the
// firmware's 400 ms repeat delay and count twice.
const SEEN_MS = 40;
const input = {
  since: new Array(6).fill(null),
  until: new Array(6).fill(null),
  polls: new Array(6).fill(0), // frames that saw it held
  first: new Array(6).fill(0), // when the first of them polled
  press(b) {
    sound.unlock();
    if (this.since[b] === null || this.until[b] !== null) { this.since[b] = performance.now(); this.polls[b] = 0; }
    this.until[b] = null;
    paintButtons();
  },
  release(b) {
    if (this.since[b] !== null) this.until[b] = Math.max(performance.now(), this.since[b] + TAP_MS);
  },
  releaseAll() { for (let b = 0; b < 6; b++) this.release(b); },
  // poll: a frame reads the buttons (the page may be slow: a tap is never lost)
  mask(now, poll = false) {
    let m = 0;
    for (let b = 0; b < 6; b++) {
      if (this.since[b] === null) continue;
      const seen = this.polls[b] >= 3 || (this.polls[b] >= 1 && now - this.first[b] >= SEEN_MS);
      if (this.until[b] !== null && this.until[b] <= now && seen) {
        this.since[b] = this.until[b] = null;
        continue;
      }
      if (poll && this.polls[b]++ === 0) this.first[b] = now;
      m |= 1 << b;
    }
    return m;
  },
};
hook.buttons = input; // for the tests: the latch a slow page's taps go through

const sound = {
  ctx: null, osc: null, gain: null, muted: false,
  unlock() {
    if (this.ctx || manual) return;
    try {
      this.ctx = new AudioContext();
      this.osc = this.ctx.createOscillator();
      this.gain = this.ctx.createGain();
      this.osc.type = "square";
      this.gain.gain.value = 0;
      this.osc.connect(this.gain).connect(this.ctx.destination);
      this.osc.start();
    } catch (e) { this.ctx = null; }
  },
  tone(freq) {
    if (!this.ctx) return;
    const t = this.ctx.currentTime;
    if (freq > 0 && !this.muted) {
      this.osc.frequency.setValueAtTime(freq, t);
      this.gain.gain.setValueAtTime(0.05, t);
    } else this.gain.gain.setValueAtTime(0, t);
  },
};

// -- the flash: MicroPython's in-memory files, kept in localStorage -------------------------
// Whatever the storage holds, the page comes back: a stored flash it cannot use (not JSON,
// a name that is no file's, "." or "..", a file over MAX_STORED_FILE, or one that stopped
// the firmware from starting) is set aside as the device sets a file aside: kept under
// ASIDE_KEY (when it is small enough), one line says so, and the page starts on defaults.
// The quota is watched: no file over MAX_STORED_FILE is stored (a 3 MB settings.bad.json
// would hold the site's quota for good), and a full storage first drops what was set aside.
const ASIDE_KEY = STORAGE_KEY + ".bad";
const MAX_NAME = 64;
const MAX_STORED_FILE = 64 * 1024; // eight times the device's largest file (store.MAX_BYTES)
const MAX_ASIDE = 256 * 1024;
const fileName = (name) => name.length <= MAX_NAME && /^[\w-][\w.-]*$/.test(name); // not . or ..
const isAside = (name) => name.endsWith(".bad.json");
let storage = null;
let savedFlash = null; // the flash's files as last synced, as JSON text
let savedSettings = null;
let restored = null; // the stored text the flash was restored from, until the page started
let unkept = ""; // the files last left out of the storage (too big), for one line each time
hook.saving = () => storage !== null; // whether this tab still writes the page's storage
function setAside(text, why, then = _("using defaults")) {
  let kept = _("dropped (too big to keep)");
  try {
    if (text.length <= MAX_ASIDE) {
      storage.setItem(ASIDE_KEY, text);
      kept = format(_("kept aside as %s"), ASIDE_KEY);
    }
    storage.removeItem(STORAGE_KEY);
  } catch (e) {
    kept = format(_("not kept (%s)"), e.name);
  }
  return format(_("page storage: %s; %s; %s"), why, kept, then);
}
function restoreFlash(mp) {
  mp.FS.mkdirTree(FLASH);
  if (ephemeral) return;
  try {
    storage = window.localStorage;
    savedFlash = storage.getItem(STORAGE_KEY);
  } catch (e) {
    storage = null;
    problems.push(format(_("page storage: unavailable (%s); nothing will be kept after this page"), e.name));
    return;
  }
  const stored = savedFlash;
  savedFlash = null;
  if (stored === null) return;
  let files;
  try {
    files = JSON.parse(stored);
    if (typeof files !== "object" || files === null || Array.isArray(files)) throw new Error("not an object");
  } catch (e) {
    // as the device does with a corrupt file: defaults now, replaced at the next save
    problems.push(setAside(stored, format(_("corrupt or cut short (%s)"), e.message)));
    return;
  }
  const bad = Object.entries(files).filter(([name, text]) => !fileName(name) || typeof text !== "string"
    || text.length > MAX_STORED_FILE).map(([name]) => name);
  if (bad.length) { // the whole stored flash aside, its good files on the flash
    const first = files[bad[0]];
    const size = typeof first === "string" && fileName(bad[0]) ? `: ${Math.round(first.length / 1024)} KB` : "";
    const why = bad.length > 1 ? format(_("%d entries the page cannot keep (%s%s)"), bad.length, clip(bad[0]), size)
      : format(_("an entry the page cannot keep (%s%s)"), clip(bad[0]), size);
    problems.push(setAside(stored, why, _("the rest restored")));
  }
  for (const [name, text] of Object.entries(files)) {
    if (!bad.includes(name)) mp.FS.writeFile(`${FLASH}/${name}`, text);
  }
  restored = stored;
}

// A stored flash that stopped the firmware from starting: set aside, then start afresh.
function bootFailed(error) {
  if (restored === null || !storage) return false;
  const text = restored;
  restored = null;
  problems.length = 0;
  problems.push(setAside(text, format(_("the stored flash stopped the page from starting (%s)"), error.message)));
  return true;
}

// What the page offers against a flash it cannot use: remove config.json (a bad one halts
// the device with the red X; the device reads it at boot, so the page starts again) and
// clear what was set aside. Its buttons exist only while there is such a file.
let flashTools = null;
let flashToolsShown = "";
function showFlashTools(mp) {
  const names = mp.FS.readdir(FLASH);
  let aside = false;
  try { aside = !!storage && storage.getItem(ASIDE_KEY) !== null; } catch (e) { aside = false; }
  const wanted = [];
  if (names.includes("config.json")) wanted.push(["remove-config", N_("Remove config.json"), N_("Delete the device's config.json and start again"), removeConfig]);
  if (aside || names.some(isAside)) wanted.push(["clear-aside", N_("Clear set-aside files"), N_("Delete the files the device or the page set aside"), clearAside]);
  const shown = wanted.map((w) => w[0]).join();
  if (shown === flashToolsShown) return;
  flashToolsShown = shown;
  if (flashTools) flashTools.remove();
  flashTools = null;
  if (!wanted.length) return;
  flashTools = document.createElement("p");
  flashTools.id = "flash-tools";
  for (const [id, text, title, action] of wanted) {
    const b = document.createElement("button");
    Object.assign(b, { id, type: "button", textContent: _(text), title: _(title) });
    b.addEventListener("click", () => action(mp));
    flashTools.append(b, " ");
  }
  $("status").after(flashTools);
}
function removeConfig(mp) {
  try { mp.FS.unlink(`${FLASH}/config.json`); } catch (e) { /* gone already */ }
  syncFlash(mp, null);
  location.reload();
}
function clearAside(mp) {
  for (const name of mp.FS.readdir(FLASH)) if (isAside(name)) mp.FS.unlink(`${FLASH}/${name}`);
  try { if (storage) storage.removeItem(ASIDE_KEY); } catch (e) { /* nothing kept */ }
  syncFlash(mp, null);
  showFlashTools(mp);
  setStatus(_("page storage: the set-aside files are cleared"));
}
hook.removeConfig = () => $("remove-config") && $("remove-config").click();
hook.clearAside = () => $("clear-aside") && $("clear-aside").click();

// One device, many tabs: each tab of the page is a device on the same flash, and the tab
// that saved last holds the newest games. A tab that sees another tab save stops saving
// (it would put its older games over the newer ones) and says so; a reload takes over.
window.addEventListener("storage", (e) => {
  if (!storage || (e.key !== STORAGE_KEY && e.key !== null) || e.newValue === savedFlash) return;
  storage = null;
  setStatus(_("page storage: another tab of this page saved its games; this tab no longer saves (reload it to go on from there)"));
});

function flashText(mp) {
  const files = {};
  for (const name of mp.FS.readdir(FLASH).sort()) {
    if (name === "." || name === "..") continue;
    files[name] = mp.FS.readFile(`${FLASH}/${name}`, { encoding: "utf8" });
  }
  return JSON.stringify(files);
}

// After every frame: the files as they are once the firmware's save (temp file, rename)
// has finished, written to the page's storage in one setItem: whole or not at all. A file
// over MAX_STORED_FILE stays on this page's flash only; a full storage drops what was set
// aside (the page's, then the device's .bad.json files) and tries once more.
function syncFlash(mp, page) {
  const text = flashText(mp);
  if (text === savedFlash) return;
  savedFlash = text;
  const files = JSON.parse(text);
  const settings = files["settings.json"];
  if (page && settings !== savedSettings) { // the arrangement, and so the dice's pips, may differ
    savedSettings = settings;
    numbers = JSON.parse(page.numbers());
  }
  showFlashTools(mp);
  if (!storage) return;
  const big = Object.keys(files).filter((name) => files[name].length > MAX_STORED_FILE);
  for (const name of big) delete files[name];
  if (big.join() !== unkept && big.length) {
    setStatus(format(_("page storage: %s (%d KB) not kept: over %d KB"), big.join(", "), Math.round(text.length / 1024), MAX_STORED_FILE / 1024));
  }
  unkept = big.join();
  try { storage.setItem(STORAGE_KEY, JSON.stringify(files)); } catch (e) {
    try {
      storage.removeItem(ASIDE_KEY);
      for (const name of Object.keys(files)) if (isAside(name)) delete files[name];
      storage.setItem(STORAGE_KEY, JSON.stringify(files));
      setStatus(_("page storage: full; the set-aside files were dropped to keep the games"));
    } catch (again) {
      storage = null;
      setStatus(format(_("page storage: full or refused (%s); nothing more will be kept"), again.name));
    }
  }
}

// -- drawing ----------------------------------------------------------------------------------
const canvas = $("grid");
const ctx2d = canvas.getContext("2d");
const css = (rgb) => `rgb(${rgb[0]},${rgb[1]},${rgb[2]})`;
const mix = (a, b, k) => a.map((v, i) => Math.round(v * (1 - k) + b[i] * k));

function paint() {
  const size = Math.round(canvas.clientWidth * (window.devicePixelRatio || 1));
  if (size <= 0) return;
  if (canvas.width !== size || canvas.height !== size) canvas.width = canvas.height = size; // (a new canvas is 300x150)
  const gap = size / 60;
  const cell = (size - 7 * gap) / 6;
  const shown = lessonShown(); // the classroom's search in the projector view, or null
  ctx2d.fillStyle = options.contrast ? "#000" : "rgb(12,12,14)";
  ctx2d.fillRect(0, 0, size, size);
  for (let i = 0; i < 36; i++) {
    const x = gap + (i % 6) * (cell + gap), y = gap + Math.floor(i / 6) * (cell + gap);
    const p = [pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2]];
    let face, edge, ink;
    if (options.contrast) {
      face = edge = screenRgb(p, "contrast");
      ink = Math.max(...face) > 110 ? [0, 0, 0] : [150, 150, 156]; // dark on bright, light on dim
    } else {
      const lit = screenRgb(p);
      face = litFilm(p);
      edge = mix(face, FILM_OFF, 110 / 255); // brightest in the middle, as under a film
      ink = pipInk(lit);
    }
    const glow = ctx2d.createRadialGradient(x + cell / 2, y + cell / 2, 0, x + cell / 2, y + cell / 2, cell / 2);
    glow.addColorStop(0, css(face));
    glow.addColorStop(1, css(edge));
    ctx2d.fillStyle = glow;
    ctx2d.beginPath();
    ctx2d.roundRect(x, y, cell, cell, cell / 8);
    ctx2d.fill();
    if (shown) lessonCell(shown, i, x, y, cell);
    else if (options.big && reached && reached[i] >= 0) distance(x, y, cell, reached[i]);
    if (!numbers) continue;
    ctx2d.fillStyle = css(ink);
    const inner = cell * 0.72, off = (cell - inner) / 2;
    for (const [px, py] of PIPS[numbers[i]]) {
      ctx2d.beginPath();
      ctx2d.arc(x + off + px * inner, y + off + py * inner, cell * (options.contrast ? 0.085 : 0.07), 0, 2 * Math.PI);
      ctx2d.fill();
    }
  }
  if (shown) lessonOver(shown, gap, cell);
  painted = true;
}

// The projector view of the classroom: a reached cell's distance from the robot, in a
// badge in its top-left corner, readable from the back of the room over any die colour.
// (In the lesson, a waiting cell's badge has a rim in the queue's colour.)
function distance(x, y, cell, d, rim = null) {
  const r = cell * 0.17, cx = x + r * 1.15, cy = y + r * 1.15;
  ctx2d.fillStyle = rim ? "rgba(0,0,0,0.9)" : "rgba(0,0,0,0.8)"; // over a ring: darker
  ctx2d.beginPath();
  ctx2d.arc(cx, cy, r, 0, 2 * Math.PI);
  ctx2d.fill();
  if (rim) { // outside the badge: its inside stays dark
    ctx2d.strokeStyle = rim;
    ctx2d.lineWidth = r * 0.18;
    ctx2d.beginPath();
    ctx2d.arc(cx, cy, r * 1.09, 0, 2 * Math.PI);
    ctx2d.stroke();
  }
  ctx2d.fillStyle = "#fff";
  ctx2d.font = `bold ${Math.round(r * 1.5)}px system-ui, sans-serif`;
  ctx2d.textAlign = "center";
  ctx2d.textBaseline = "middle";
  ctx2d.fillText(String(d), cx, cy + r * 0.08);
}

// -- the lesson: the classroom's search, step by step, in the projector view ------------------
// The device's LEDs keep their wave; the projector view shows the search as a computer runs
// it (tools/lesson.py, run by page.py): the cell taken out of the line, the line itself
// (a queue for breadth-first, a stack for depth-first), what was visited, each cell's count.
// Until the teacher steps here, it follows the device's layer; a step here pauses the device.
const SEARCHES = {
  bfs: { title: N_("Breadth-first search"), line: N_("Queue (the next cell first)"),
    rule: N_("Take the OLDEST waiting cell, give every new neighbour its count + 1, put them at the back.") },
  dfs: { title: N_("Depth-first search"), line: N_("Stack (the next cell first)"),
    rule: N_("Take the NEWEST waiting cell, give every new neighbour its count + 1, put them on top.") },
};
const lesson = {
  key: "", // the puzzle on show, "start-target"
  runs: null, // page.searches(): {bfs, dfs, edges, tokens}
  layer: -1, // the device's layer last seen
  search: "bfs",
  unit: "layer",
  step: null, // cells taken; null: follow the device's layer
  graph: false,
  compared: { bfs: false, dfs: false }, // run to the target in this puzzle: their counts show
  wave: false,
};

function lessonActive() { return options.big && lesson.runs !== null; }

// The search after k cells were taken, as tools/lesson.py's Search.state(k).
function moment(run, k) {
  k = Math.max(0, Math.min(k, run.order.length));
  const visited = run.order.slice(0, k);
  const taken = new Set(visited);
  const seen = run.seen.filter((c) => run.seen_at[c] <= k);
  const waiting = seen.filter((c) => !taken.has(c));
  if (run.kind === "dfs") waiting.reverse();
  return {
    step: k, visited, waiting,
    current: k > 0 ? visited[k - 1] : -1,
    fresh: seen.filter((c) => k > 0 && run.seen_at[c] === k),
    moves: run.moves.map((m, c) => (run.seen_at[c] >= 0 && run.seen_at[c] <= k ? m : -1)),
    found: run.found >= 0 && run.found <= k,
  };
}

function lessonStep() {
  const run = lesson.runs[lesson.search];
  if (lesson.step !== null) return lesson.step;
  // the device's layer L: every cell of count < L taken, so every cell of count <= L seen
  return run.order.filter((c) => run.moves[c] < lesson.layer).length;
}

function lessonShown() {
  if (!lessonActive()) return null;
  const run = lesson.runs[lesson.search];
  return { run, now: moment(run, lessonStep()) };
}

const WAITING_RING = "#ffe14d";
const CURRENT_RING = "#35d6ff";
const ROUTE_INK = { bfs: "rgba(190,120,255,0.95)", dfs: "rgba(255,140,40,0.95)" };

function lessonCell({ run, now }, i, x, y, cell) {
  const waiting = now.waiting.includes(i);
  const d = now.moves[i];
  if (i !== now.current && !waiting && i !== run.target) { // visited, or not seen: step back
    ctx2d.fillStyle = d >= 0 ? "rgba(0,0,0,0.35)" : "rgba(0,0,0,0.6)";
    ctx2d.beginPath();
    ctx2d.roundRect(x, y, cell, cell, cell / 8);
    ctx2d.fill();
  }
  if (waiting || i === now.current) {
    ctx2d.strokeStyle = i === now.current ? CURRENT_RING : WAITING_RING;
    ctx2d.lineWidth = cell * (i === now.current ? 0.1 : 0.06);
    ctx2d.setLineDash(now.fresh.includes(i) ? [cell * 0.12, cell * 0.06] : []);
    ctx2d.beginPath();
    ctx2d.roundRect(x + cell * 0.05, y + cell * 0.05, cell * 0.9, cell * 0.9, cell / 9);
    ctx2d.stroke();
    ctx2d.setLineDash([]);
  }
  if (d >= 0) distance(x, y, cell, d, waiting ? WAITING_RING : null);
  if (i === run.start) mark(x, y, cell, "R", "#000");
  if (i === run.target) mark(x, y, cell, "T", "#c81e1e");
}

// The robot's and the target's letters in the cell's top-right corner, as on the worksheets.
function mark(x, y, cell, letter, fill) {
  const r = cell * 0.15, cx = x + cell - r * 1.2, cy = y + r * 1.2;
  ctx2d.fillStyle = fill;
  ctx2d.strokeStyle = "#fff";
  ctx2d.lineWidth = r * 0.15;
  ctx2d.beginPath();
  ctx2d.arc(cx, cy, r, 0, 2 * Math.PI);
  ctx2d.fill();
  ctx2d.stroke();
  ctx2d.fillStyle = "#fff";
  ctx2d.font = `bold ${Math.round(r * 1.4)}px system-ui, sans-serif`;
  ctx2d.textAlign = "center";
  ctx2d.textBaseline = "middle";
  ctx2d.fillText(letter, cx, cy + r * 0.08);
}

function centre(i, gap, cell) {
  return [gap + (i % 6) * (cell + gap) + cell / 2, gap + Math.floor(i / 6) * (cell + gap) + cell / 2];
}

// A move drawn as a bow between two cells: moves along one row overlap as straight lines.
// The bow bends towards the board's middle (a move along the edge row or column would
// otherwise bend off the board), and no more than the board has room for.
function bow(a, b, gap, cell) {
  const [ax, ay] = centre(a, gap, cell), [bx, by] = centre(b, gap, cell);
  const len = Math.hypot(bx - ax, by - ay);
  const k = 0.18 * (len / (cell + gap)); // longer moves bow further
  const mx = (ax + bx) / 2, my = (ay + by) / 2, half = (6 * cell + 7 * gap) / 2;
  let dx = (ay - by) * k / 2, dy = (bx - ax) * k / 2; // the control point's offset
  if (dx * (half - mx) + dy * (half - my) < 0) { dx = -dx; dy = -dy; } // towards the middle
  // the curve's peak is half the control point's offset out: keep it inside the cells
  const room = Math.min(...[[dx, mx], [dy, my]].map(([d, m]) =>
    (d > 0 ? 2 * half - gap - cell / 2 - m : m - gap - cell / 2) * 2 / Math.max(Math.abs(d), 1e-9)));
  const shrink = Math.min(1, room);
  ctx2d.beginPath();
  ctx2d.moveTo(ax, ay);
  ctx2d.quadraticCurveTo(mx + dx * shrink, my + dy * shrink, bx, by);
  ctx2d.stroke();
}

function lessonOver({ run, now }, gap, cell) {
  if (lesson.graph) { // every move faint; the moves the search used so far bright
    const seen = (c) => now.moves[c] >= 0;
    for (const [a, b] of lesson.runs.edges) {
      const used = (run.parent[b] === a && seen(b)) || (run.parent[a] === b && seen(a));
      ctx2d.strokeStyle = used ? "rgba(255,255,255,0.95)" : "rgba(255,255,255,0.22)";
      ctx2d.lineWidth = cell * (used ? 0.045 : 0.02);
      bow(a, b, gap, cell);
    }
  }
  if (now.found) { // the search's route to the target
    ctx2d.strokeStyle = ROUTE_INK[lesson.search];
    ctx2d.lineWidth = cell * 0.07;
    ctx2d.lineCap = "round";
    ctx2d.beginPath();
    run.route.forEach((c, k) => { const [x, y] = centre(c, gap, cell); if (k) ctx2d.lineTo(x, y); else ctx2d.moveTo(x, y); });
    ctx2d.stroke();
  }
}

function lessonName(c) {
  const run = lesson.runs[lesson.search];
  return `${lesson.runs.tokens[c]} (${run.moves[c]})`;
}

function showLesson() {
  const panel = $("lesson");
  const active = lessonActive();
  document.body.classList.toggle("lesson", active);
  panel.hidden = !active;
  painted = false;
  showNow();
  if (!active) return;
  if (!$("lesson-controls").children.length) makeLessonControls();
  const { run, now } = lessonShown();
  const words = SEARCHES[lesson.search];
  const tokens = lesson.runs.tokens;
  $("lesson-title").textContent = _(words.title);
  $("lesson-rule").textContent = _(words.rule);
  $("lesson-unit").textContent = lesson.unit === "layer" ? _("Steps: one layer") : _("Steps: one cell");
  $("lesson-search").textContent = lesson.search === "bfs" ? _("Try depth-first") : _("Back to breadth-first");
  $("lesson-graph").setAttribute("aria-pressed", String(lesson.graph));
  $("lesson-counts").textContent = format(_("step %d of %d · visited %d · seen %d"), now.step, run.order.length,
    now.visited.length, now.moves.filter((m) => m >= 0).length);
  $("lesson-now").textContent = now.current < 0 ? format(_("Start: the robot on %s (0 moves) waits alone."), tokens[run.start])
    : format(_("Took %s; new: %s."), lessonName(now.current), now.fresh.length ? now.fresh.map(lessonName).join(", ") : _("none"));
  $("lesson-line-label").textContent = format(_("%s: %d waiting"), _(words.line), now.waiting.length);
  $("lesson-queue").replaceChildren(...now.waiting.map((c) => {
    const li = document.createElement("li");
    li.textContent = lessonName(c);
    li.dataset.cell = String(c);
    return li;
  }));
  if (now.found) lesson.compared[lesson.search] = true;
  $("lesson-found").textContent = now.found
    ? format(ngettext("Target %s found after visiting %d cells: a route of %d move.",
      "Target %s found after visiting %d cells: a route of %d moves.", run.length), tokens[run.target], run.found, run.length)
    : format(_("Target %s: not found yet."), tokens[run.target]);
  for (const kind of ["bfs", "dfs"]) {
    const r = lesson.runs[kind], cells = $(`compare-${kind}`).querySelectorAll("td");
    const known = lesson.compared[kind];
    cells[0].textContent = known ? (r.length >= 0 ? format(ngettext("%d move", "%d moves", r.length), r.length) : _("none")) : "?";
    cells[1].textContent = known ? String(r.found >= 0 ? r.found : r.order.length) : "?";
  }
  hook.lessonState = {
    search: lesson.search, unit: lesson.unit, step: now.step, steps: run.order.length,
    current: now.current, waiting: now.waiting, fresh: now.fresh, visited: now.visited.length,
    moves: now.moves, found: now.found, start: run.start, target: run.target,
    following: lesson.step === null, graph: lesson.graph,
  };
}

function makeLessonControls() {
  const make = (id, text, title, act) => {
    const b = document.createElement("button");
    b.type = "button"; b.id = id; b.textContent = _(text); b.title = _(title);
    b.dataset.words = JSON.stringify([text, title]); // the English: another language later
    b.addEventListener("click", () => { act(); b.blur(); });
    return b;
  };
  $("lesson-controls").append(
    make("lesson-back", N_("◀ Back"), N_("One step back (PageUp or ,)"), () => lessonKey("back")),
    make("lesson-next", N_("Step ▶"), N_("One step on (PageDown or .)"), () => lessonKey("next")),
    make("lesson-unit", "", N_("Step one cell or one whole layer (L)"), () => lessonKey("unit")),
    make("lesson-search", "", N_("Breadth-first or depth-first (D)"), () => lessonKey("search")),
    make("lesson-graph", N_("Whole graph"), N_("Every cell and every move (G)"), () => lessonKey("graph")));
}

// A teacher's key or click: false if there is no lesson on show.
function lessonKey(what) {
  if (!lessonActive()) return false;
  const run = lesson.runs[lesson.search];
  const k = lessonStep();
  const ends = run.layer_ends;
  const layers = lesson.unit === "layer" && lesson.search === "bfs";
  if (what === "next" || what === "back") {
    if (lesson.step === null && pageApi) pageApi.hold(); // the device waits for the teacher
    if (what === "next") lesson.step = layers ? (ends.find((e) => e > k) ?? run.order.length) : Math.min(k + 1, run.order.length);
    else lesson.step = layers ? ends.filter((e) => e < k).reduce((a, e) => Math.max(a, e), 0) : Math.max(k - 1, 0);
  } else if (what === "unit") lesson.unit = lesson.unit === "layer" ? "cell" : "layer";
  else if (what === "search") {
    lesson.search = lesson.search === "bfs" ? "dfs" : "bfs";
    if (pageApi) pageApi.hold();
    lesson.step = 0; // each search from its start
  } else if (what === "graph") lesson.graph = !lesson.graph;
  showLesson();
  return true;
}

// After a device frame: a new puzzle starts the lesson afresh; the device's own steps
// (A, B, its clock) take the view back to its layer.
function followClassroom(page) {
  const room = JSON.parse(page.classroom());
  if (room === null || !room.wave) {
    if (lesson.runs !== null) { lesson.runs = null; lesson.key = ""; showLesson(); }
    return;
  }
  const key = `${room.start}-${room.target}`;
  if (key !== lesson.key) {
    lesson.key = key;
    lesson.runs = JSON.parse(page.searches(room.start, room.target));
    lesson.search = "bfs";
    lesson.step = null;
    lesson.compared = { bfs: false, dfs: false };
    lesson.layer = room.layer;
    showLesson();
  } else if (room.layer !== lesson.layer) {
    lesson.layer = room.layer;
    lesson.search = "bfs";
    lesson.step = null;
    showLesson();
  }
}

function triples(grid) {
  const out = [];
  for (let i = 0; i < 108; i += 3) out.push([grid[i], grid[i + 1], grid[i + 2]]);
  return out;
}

function paintButtons() {
  const mask = input.mask(performance.now());
  for (const el of document.querySelectorAll("[data-button]")) {
    el.classList.toggle("held", (mask >> Number(el.dataset.button) & 1) === 1);
  }
}

// What to do now: the mode's own words (firmware modes' guide(), as make play shows them).
function setGuide(text) {
  if (text === hook.guide) return;
  hook.guide = text;
  showNow();
}

// The line under the grid: the device's guide, or while the teacher steps the projector's
// search (the device paused under it), what the keys do there.
function showNow() {
  const stepping = lessonActive() && lesson.step !== null;
  $("now").textContent = stepping
    ? _("By hand: PageDown on, PageUp back, Enter: the device")
    : hook.guide;
}

// hook.status keeps the line as the firmware said it (English); the page shows it in
// the reader's language (tools/i18n/lang.js: the console's templates).
function setStatus(text) {
  hook.status = text;
  $("status").textContent = translateLine(text);
}

// What the buttons do in the mode shown (tools/sim/help.py, as make play says it).
function showHelp() {
  const el = $("help");
  el.replaceChildren(...(HELP[mode] ? _(HELP[mode]) : "").split(" · ").filter(Boolean).map((item) => {
    const span = document.createElement("span");
    span.textContent = item;
    return span;
  }));
}

// The counts' legend: each # a swatch in its tally colour.
function showLegend() {
  const el = $("legend");
  const parts = _(LEGEND).split("#");
  el.textContent = parts[0];
  parts.slice(1).forEach((text, k) => {
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = css(TALLY[k]);
    swatch.setAttribute("aria-hidden", "true");
    el.append(swatch, text);
  });
}

function applyOptions() {
  document.body.classList.toggle("big", options.big);
  document.body.classList.toggle("contrast", options.contrast);
  $("big").setAttribute("aria-pressed", String(options.big));
  $("contrast").setAttribute("aria-pressed", String(options.contrast));
  $("mute").setAttribute("aria-pressed", String(sound.muted));
  $("mute").textContent = sound.muted ? _("Sound off") : _("Sound on");
  painted = false;
  showLesson();
}

function frameLoop() {
  if (!painted) paint();
  paintButtons();
  requestAnimationFrame(frameLoop);
}

// -- controls -------------------------------------------------------------------------------
function bindControls() {
  window.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const b = KEYS[e.key];
    if (b !== undefined) {
      e.preventDefault();
      if (!e.repeat) input.press(b); // a held key is one long press, not many taps
      return;
    }
    const k = e.key.toLowerCase();
    const teach = { pagedown: "next", ".": "next", pageup: "back", ",": "back", l: "unit", d: "search", g: "graph" }[k];
    if (teach && lessonKey(teach)) { e.preventDefault(); return; }
    if (k === "p") options.big = !options.big;
    else if (k === "h") options.contrast = !options.contrast;
    else if (k === "m") sound.muted = !sound.muted;
    else return;
    applyOptions();
  });
  window.addEventListener("keyup", (e) => {
    const b = KEYS[e.key];
    if (b !== undefined) { e.preventDefault(); input.release(b); }
  });
  window.addEventListener("blur", () => input.releaseAll());
  for (const el of document.querySelectorAll("[data-button]")) {
    const b = Number(el.dataset.button);
    el.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      try { el.setPointerCapture(e.pointerId); } catch (err) { /* a synthetic pointer */ }
      input.press(b);
    });
    for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) {
      el.addEventListener(type, () => input.release(b));
    }
    el.addEventListener("contextmenu", (e) => e.preventDefault()); // long touch: no menu
    el.addEventListener("keydown", (e) => { if (e.key === " " || e.key === "Enter") e.stopPropagation(); });
  }
  $("big").addEventListener("click", () => { options.big = !options.big; applyOptions(); });
  $("contrast").addEventListener("click", () => { options.contrast = !options.contrast; applyOptions(); });
  $("mute").addEventListener("click", () => { sound.muted = !sound.muted; sound.tone(0); applyOptions(); });
  new ResizeObserver(() => { painted = false; }).observe(canvas);
}

// -- power: the battery line and the dark grid of a sleeping device ----------------------------
function showPower(p) {
  const supply = p.usb ? _("on USB") : p.percent < 0 ? _("on battery")
    : format(p.critical ? _("battery %d %% — critical: saving and sleeping") : p.low ? _("battery %d %% — low")
      : _("battery %d %%"), p.percent);
  const state = p.state === "asleep" ? _("asleep: any button wakes it (and is no move)")
    : p.state === "dimmed" ? _("dimmed: no button for a while") : "";
  const text = state ? `${supply} · ${state}` : supply;
  if ($("power-state").textContent !== text) $("power-state").textContent = text;
  $("screen").dataset.power = p.state;
}

function bindPower() {
  $("usb").addEventListener("change", () => setBattery($("usb").checked ? null : Number($("battery").value)));
  $("battery").addEventListener("input", () => setBattery(Number($("battery").value)));
}

// -- the firmware -----------------------------------------------------------------------------
async function loadBundle() {
  const response = await fetch("firmware.bin");
  if (!response.ok) throw new Error(`firmware.bin: ${response.status} ${response.statusText}`);
  const data = new Uint8Array(await response.arrayBuffer());
  const length = new DataView(data.buffer).getUint32(0, true);
  const index = JSON.parse(new TextDecoder().decode(data.subarray(4, 4 + length)));
  const files = [];
  let at = 4 + length;
  for (const [path, size] of index) { files.push([path, data.subarray(at, at + size)]); at += size; }
  return files;
}

function onConsole(line) {
  hook.console = (hook.console || []).concat([line]).slice(-50);
  if (line.trim()) setStatus(line.replace(/\s+$/, ""));
}

async function boot() {
  const [mp, files] = await Promise.all([
    loadMicroPython({ heapsize: HEAP, stdout: onConsole, stderr: onConsole }),
    loadBundle(),
  ]);
  for (const [path, data] of files) {
    mp.FS.mkdirTree("/" + path.slice(0, path.lastIndexOf("/")));
    mp.FS.writeFile("/" + path, data);
  }
  restoreFlash(mp);
  mp.runPython('import sys\nsys.path[:0] = ["/firmware", "/page"]\nimport page');
  const page = mp.pyimport("page");
  pageApi = page;
  page.language(JSON.stringify(firmwareCatalogue()));
  if (game !== null) {
    const problem = page.prepare(game);
    if (problem) problems.push(problem);
  }
  page.boot(JSON.stringify(problems));
  hook.runtime = page.runtime();
  numbers = JSON.parse(page.numbers());
  const step = page.step;
  const once = () => {
    if (halted) return;
    if (board.held && (hook.status.startsWith("notice:") || hook.status === greeting)) {
      setStatus(""); // a key dismisses a notice, as on the grid, and the greeting
    }
    const before = writes;
    const t0 = performance.now();
    step();
    hook.stepTimes.push(performance.now() - t0);
    if (hook.stepTimes.length > 3000) hook.stepTimes.splice(0, 1000);
    if (writes !== before) {
      setGuide(page.guide()); // a new step shows with a new picture
      reached = JSON.parse(page.reached());
      followClassroom(page);
      if (page.mode() !== mode) {
        mode = page.mode();
        showTitle();
        showHelp();
        if (!hook.status.startsWith("notice:")) setStatus(""); // the last mode's verdict
      }
      showPower(JSON.parse(page.power()));
      if (hook.record) hook.frames.push({ t: board.clock, mode, pixels: triples(pixels) });
      if (hook.firstFrameMs === undefined) hook.firstFrameMs = performance.now();
    }
    syncFlash(mp, page);
  };
  hook.mode = () => mode;
  hook.power = () => JSON.parse(page.power());
  hook.reached = () => reached;
  hook.lesson = () => (lessonActive() ? hook.lessonState : null);
  hook.pixels = () => Array.from(pixels);
  hook.flash = () => JSON.parse(flashText(mp));
  if (manual) {
    // Replay an events file deterministically, as tools.sim --headless does: the clock is
    // the events' time, one frame per 20 ms, buttons from the file.
    hook.record = true;
    hook.replay = (eventsText, until) => {
      const masks = JSON.parse(page.masks(eventsText));
      if (!Array.isArray(masks)) throw new Error(masks.error);
      let mask = board.held;
      const runUntil = (t) => {
        while (board.clock < t) { board.held = mask; once(); board.clock += FRAME_MS; }
      };
      for (const [t, m] of masks) { runUntil(t); mask = m; }
      runUntil(until === undefined ? (masks.length ? masks[masks.length - 1][0] : 0) + 2000 : until);
      board.held = mask;
      return hook.frames;
    };
  } else {
    const tick = () => {
      board.clock = Math.floor(performance.now() - start);
      board.held = input.mask(performance.now(), true);
      once();
    };
    tick();
    setInterval(tick, FRAME_MS);
  }
  bindFlashFile(page);
  $("loading").hidden = true;
  restored = null; // it started: what was stored is good
  showFlashTools(mp);
}

// -- the flash as one file: Export saves it, Import checks one and puts it in place ----------
function bindFlashFile(page) {
  $("export").addEventListener("click", () => {
    const name = `micro-robots-flash-${new Date().toISOString().slice(0, 10)}.txt`;
    const url = URL.createObjectURL(new Blob([page.export_flash()], { type: "text/plain" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
    setStatus(format(_("export: this device's settings and games, as %s"), name));
  });
  const picker = $("import-file");
  $("import").addEventListener("click", () => picker.click());
  picker.addEventListener("change", () => {
    const file = picker.files[0];
    picker.value = "";
    if (file) importFlash(page, file);
  });
}

// Checked whole (flashfile.py, as the device reads each file) before anything is replaced;
// then the page's storage takes it in one write and the device restarts on it.
async function importFlash(page, file) {
  const refuse = (why) => setStatus(format(_("import: %s: %s; nothing was changed"), clip(file.name), why));
  if (file.size > page.import_max()) {
    refuse(format(_("over %d KB: not a Micro Robots flash file"), Math.floor(page.import_max() / 1024)));
    return;
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let k = 0; k < bytes.length; k += 8192) binary += String.fromCharCode(...bytes.subarray(k, k + 8192));
  const result = JSON.parse(page.import_flash(btoa(binary)));
  if (result.error) { refuse(result.error); return; }
  if (!storage) {
    refuse(_("this page keeps nothing (opened with fresh, seed or game in its address, or its storage is off)"));
    return;
  }
  halted = true;
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(result.files));
  } catch (e) {
    halted = false;
    refuse(format(_("the page's storage refused it (%s)"), e.name));
    return;
  }
  hook.imported = true;
  location.reload();
}

// After one visit the page opens with no network (sw.js caches every file of the site).
// A browser has no service worker for a file:// page (nor runs the page there).
function registerWorker() {
  if (!("serviceWorker" in navigator) || location.protocol === "file:") return Promise.resolve(false);
  return navigator.serviceWorker.register("sw.js")
    .then(() => navigator.serviceWorker.ready)
    .then(() => true, (e) => { console.warn(format(_("offline cache: %s"), e.message)); return false; });
}

// The modes' names as the title and the greeting say them.
const MODE_NAMES = [N_("menu"), N_("solo"), N_("referee"), N_("classroom"), N_("settings"), N_("halted"), N_("starting")];
hook.modeNames = MODE_NAMES;
function showTitle() {
  $("title").textContent = mode === "starting" ? "Micro Robots" : format(_("Micro Robots — %s"), _(mode));
}

// The language picker: the page's words change at once (the firmware's guide too, through
// page.py), and the choice is remembered as ?lang= would.
function useLanguage(lang) {
  setLanguage(lang);
  $("lang").value = lang;
  translatePage();
  for (const b of document.querySelectorAll("#lesson-controls button")) {
    const [text, title] = JSON.parse(b.dataset.words);
    if (text) b.textContent = _(text);
    b.title = _(title);
  }
  if (pageApi) {
    pageApi.language(JSON.stringify(firmwareCatalogue()));
    hook.guide = page_guide();
  }
  hook.lang = lang;
  showTitle();
  showHelp();
  showLegend();
  applyOptions();
  showNow();
  $("status").textContent = translateLine(hook.status);
  if (pageApi) showPower(JSON.parse(pageApi.power()));
}
function page_guide() { return pageApi ? pageApi.guide() : ""; }
hook.useLanguage = useLanguage;
hook.lang = language();
hook.translate = (text) => translateLine(text);
$("lang").value = language();
$("lang").addEventListener("change", () => { remember($("lang").value); useLanguage($("lang").value); $("lang").blur(); });
translatePage();

applyOptions();
showLegend();
bindControls();
bindPower();
requestAnimationFrame(frameLoop);
setStatus(_("Starting the firmware…"));
hook.offline = registerWorker();
hook.ready = boot().catch((error) => {
  if (!bootFailed(error)) throw error;
  return boot(); // afresh: the stored flash that stopped it is set aside
}).then(() => {
  if (!hook.status || hook.status === _("Starting the firmware…")) {
    greeting = mode === "menu" ? _("Ready: the menu. Arrows choose a quadrant, A (Enter) opens it.")
      : format(_("Resumed where it was left: the %s. Hold B (Backspace or Esc) for the menu."), _(mode));
    setStatus(greeting);
  }
  return true;
}, (error) => {
  $("loading").textContent = format(_("The firmware could not start: %s"), error.message);
  setStatus(format(_("error: the page could not start the firmware (%s)"), error.message));
  console.error(error);
  return false;
});
