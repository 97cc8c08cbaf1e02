// The catalogue's page: browse and filter puzzles, open one, play it (digits, conflicts, hints, a check against
// the solution) and print it. Plain JavaScript over the JSON API of catalogue/web/app.py, no build step.
// Routes are in the URL's fragment: #/ (the list, with the filters as parameters) and #/puzzles/N (or N.K).
"use strict";

const SYMBOLS = "123456789ABCDEFGHIJKLMNOP";  // a cell's symbol for digits 1..25, as the line format writes them

const $ = (id) => document.getElementById(id);

// A shape's spec (a record's `shape`: "3x3", "2x3", "latin5", "3x3+x", "jigsaw9:AAAB...") or name ("jigsaw9") as
// the page draws and plays it: the side n, each cell's region (-1 on a Latin square) and whether the diagonals are
// units. Regions are numbered as engine/geometry.py numbers them (boxes row-major; jigsaw regions in order of their
// first cell, the layout's letters A, B, ...), so a hint's house 2n + k is region k here too.
function shapeOf(spec) {
  const [name, layout] = spec.split(":");
  const diagonals = name.endsWith("+x"), base = diagonals ? name.slice(0, -2) : name;
  const boxes = base.match(/^(\d+)x(\d+)$/);
  if (boxes) {
    const rows = Number(boxes[1]), cols = Number(boxes[2]), n = rows * cols;
    const region = [...Array(n * n).keys()].map((cell) =>
      Math.floor(Math.floor(cell / n) / rows) * (n / cols) + Math.floor((cell % n) / cols));
    return { kind: "boxes", n, rows, cols, region, diagonals };
  }
  if (base.startsWith("jigsaw") && layout) {
    const seen = new Map();  // letter -> region, in order of first appearance
    const region = [...layout].map((ch) => (seen.has(ch) ? seen.get(ch) : seen.set(ch, seen.size).get(ch)));
    return { kind: "jigsaw", n: Math.round(Math.sqrt(layout.length)), region, diagonals };
  }
  const n = Number(base.replace(/^\D+/, ""));  // latinN, or a jigsaw's name without its layout (the filter's)
  return { kind: base.startsWith("jigsaw") ? "jigsaw" : "latin", n, region: Array(n * n).fill(-1), diagonals };
}

// A shape as a person reads it in the list (catalogue/shapes.py shape_label): 9x9, 6x6 (2x3), jigsaw 9x9, 9x9 X
function shapeLabel(spec) {
  const s = shapeOf(spec), side = `${s.n}x${s.n}`;
  const base = s.kind === "boxes" ? side + (s.rows === s.cols ? "" : ` (${s.rows}x${s.cols})`) : `${s.kind} ${side}`;
  return base + (s.diagonals ? " X" : "");
}

// The units of a shape in the engine's order (rows, columns, regions, then the diagonals): each an array of cells
function unitsOf(shape) {
  const { n, region } = shape, line = (f) => [...Array(n).keys()].map(f), units = [];
  for (let i = 0; i < n; i++) units.push(line((j) => i * n + j));
  for (let i = 0; i < n; i++) units.push(line((j) => j * n + i));
  if (region[0] >= 0) {
    for (let k = 0; k < n; k++) units.push([...region.keys()].filter((cell) => region[cell] === k));
  }
  if (shape.diagonals) units.push(line((i) => i * n + i), line((i) => i * n + n - 1 - i));
  return units;
}

// the spec of a record (one from before shapes has only its size: square boxes)
const specOf = (record) => record.shape || { 4: "2x2", 9: "3x3", 16: "4x4", 25: "5x5" }[record.size];

// A puzzle's name, as the command line writes it: N for board N's first puzzle, N.K for its K-th (an imported one)
const nameOf = (p) => (p.variant > 1 ? `${p.number}.${p.variant}` : `${p.number}`);

async function api(path) {
  const answer = await fetch(path);
  const body = await answer.json();
  if (!answer.ok) throw new Error(body.error || `HTTP ${answer.status}`);
  return body;
}

function show(id) {
  $("browse").hidden = id !== "browse";
  $("play").hidden = id !== "play";
}

function say(element, text, kind) {
  element.textContent = text;
  element.className = kind || "";
}

// -- browsing ------------------------------------------------------------------------------------------------
const FILTERS = ["level", "shape", "size", "technique", "source", "min_clues", "max_clues", "order_by", "desc"];
// the sort keys of the columns the list shows (the API takes more: catalogue query --order-by)
const SORTABLE = ["number", "size", "clues", "level", "score", "hardest"];

// The dropdowns' choices, from the API (the vocabulary, and this catalogue's sources): the page keeps no copy
async function fillChoices() {
  const choices = await api("/api/choices");
  const add = (id, values, label = (v) => String(v)) => {
    for (const value of values) {
      const option = document.createElement("option");
      option.value = String(value);
      option.textContent = label(value);
      $(id).append(option);
    }
  };
  add("level", choices.level);
  add("shape", choices.shape, shapeLabel);
  add("size", choices.size, (n) => `${n}x${n}`);
  add("technique", choices.technique);
  add("source", choices.source);
  add("order_by", choices.order_by.filter((key) => SORTABLE.includes(key)));
  $("source").closest("label").hidden = choices.source.length === 0;  // nothing imported: nothing to choose
}

function filtersFromForm() {
  const params = new URLSearchParams();
  for (const name of FILTERS) {
    const field = $(name);
    const value = field.type === "checkbox" ? (field.checked ? "true" : "") : field.value.trim();
    if (value) params.set(name, value);
  }
  return params;
}

function formFromFilters(params) {
  for (const name of FILTERS) {
    const field = $(name);
    if (field.type === "checkbox") field.checked = params.get(name) === "true";
    else field.value = params.get(name) || (name === "order_by" ? "number" : "");
  }
}

// A page of the list: PAGE puzzles; the route carries the filters, and for a later page the API's cursor
// (`after`) and where the page starts (`from`, for the count shown): #/?level=easy&after=2.3,17,1&from=101
const PAGE = 100;

async function browse(params) {
  const query = new URLSearchParams(params);
  const from = Math.max(1, parseInt(query.get("from") || "1", 10) || 1);
  query.delete("from");
  query.set("limit", String(PAGE));
  await list(`/api/puzzles?${query}`, params, (body) => {
    if (!body.count) return "No puzzle matches.";
    const total = body.total.toLocaleString();
    return body.count === body.total ? `${total} puzzle${body.total === 1 ? "" : "s"}`
      : `Puzzles ${from.toLocaleString()}-${(from + body.count - 1).toLocaleString()} of ${total}`;
  }, (body) => {
    const filters = new URLSearchParams(params);
    filters.delete("after");
    filters.delete("from");
    $("first").hidden = from === 1;
    $("first").href = `#/?${filters}`;
    $("next").hidden = !body.next;
    if (body.next) {
      filters.set("after", new URLSearchParams(body.next.split("?")[1]).get("after"));
      filters.set("from", String(from + body.count));
      $("next").href = `#/?${filters}`;
    }
  });
}

async function daily() {
  $("first").hidden = $("next").hidden = true;
  await list("/api/daily", new URLSearchParams(), (body) => body.count ?
    `Today's puzzles (${body.date}), one per level: the same on every machine for this catalogue.` :
    "No puzzle in the catalogue yet.");
}

async function randomPuzzle() {
  const query = filtersFromForm();
  query.delete("order_by");
  query.delete("desc");
  query.set("sample", "1");
  try {
    const body = await api(`/api/puzzles?${query}`);
    if (body.count) location.hash = `#/puzzles/${nameOf(body.puzzles[0])}`;
    else say($("message"), "No puzzle matches.");
  } catch (error) {
    say($("message"), error.message, "error");
  }
}

// a puzzle's givens as dark squares on a small grid, with its regions' borders and its diagonals: its clue pattern
// and its shape at a glance
function preview(line, spec) {
  const shape = shapeOf(spec), n = shape.n;
  const ns = "http://www.w3.org/2000/svg", svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
  svg.setAttribute("class", "preview");
  svg.setAttribute("aria-hidden", "true");
  const frame = document.createElementNS(ns, "rect");
  Object.entries({ width: n, height: n, fill: "#fff", stroke: "#999", "stroke-width": n / 40 })
    .forEach(([k, v]) => frame.setAttribute(k, v));
  svg.append(frame);
  const path = (d, cls, width) => {  // widths in cells, in proportion to n: the same on screen for every size
    const p = document.createElementNS(ns, "path");
    Object.entries({ d, class: cls, "stroke-width": width }).forEach(([k, v]) => p.setAttribute(k, v));
    svg.append(p);
  };
  if (shape.diagonals) path(`M0 0L${n} ${n}M${n} 0L0 ${n}`, "diagonal", n / 12);
  path(edges(shape).map(([cell, side]) => {
    const x = cell % n, y = Math.floor(cell / n);
    return side === "right" ? `M${x + 1} ${y}v1` : `M${x} ${y + 1}h1`;
  }).join(""), "border", n / 50);
  for (let cell = 0; cell < n * n; cell++) {
    if (line[cell] === "." || line[cell] === "0") continue;
    const rect = document.createElementNS(ns, "rect");
    Object.entries({ x: cell % n + 0.1, y: Math.floor(cell / n) + 0.1, width: 0.8, height: 0.8, class: "given" })
      .forEach(([k, v]) => rect.setAttribute(k, v));
    svg.append(rect);
  }
  return svg;
}

async function list(url, params, summary, pages) {
  show("browse");
  formFromFilters(params);
  const rows = $("list").querySelector("tbody");
  rows.replaceChildren();
  say($("message"), "Loading...");
  try {
    const body = await api(url);
    for (const p of body.puzzles) {
      const tr = document.createElement("tr");
      tr.tabIndex = 0;
      tr.dataset.number = nameOf(p);
      const look = document.createElement("td");
      look.append(preview(p.puzzle, specOf(p)));
      for (const [value, cls] of [[nameOf(p)], [look], [shapeLabel(specOf(p)), "shape"], [p.clues], [p.level ?? "-"],
                                  [p.score == null ? "-" : p.score.toFixed(1)], [p.hardest ?? "-", "wide"]]) {
        if (value instanceof Node) { tr.append(value); continue; }
        const td = document.createElement("td");
        td.textContent = value;
        if (cls) td.className = cls;
        tr.append(td);
      }
      const open = () => { location.hash = `#/puzzles/${nameOf(p)}`; };
      tr.addEventListener("click", open);
      tr.addEventListener("keydown", (e) => { if (e.key === "Enter") open(); });
      rows.append(tr);
    }
    say($("message"), summary(body));
    if (pages) pages(body);
  } catch (error) {
    say($("message"), error.message, "error");
  }
}

// -- playing -------------------------------------------------------------------------------------------------
const game = { puzzle: null, n: 0, shape: null, units: [], peers: [], inputs: [], removed: new Map(), showMarks: false, pencil: false,
               history: [], future: [], pending: [] };

function symbolValue(ch) {
  const i = SYMBOLS.indexOf(ch.toUpperCase());
  return i >= 0 && i < game.n ? i + 1 : 0;
}

// Where a thick line goes: [cell, "right" | "bottom"] for every side a cell shares with another region (none on a
// Latin square, whose cells are all region -1)
function edges(shape) {
  const { n, region } = shape, out = [];
  for (let cell = 0; cell < n * n; cell++) {
    if (cell % n < n - 1 && region[cell] !== region[cell + 1]) out.push([cell, "right"]);
    if (cell < n * (n - 1) && region[cell] !== region[cell + n]) out.push([cell, "bottom"]);
  }
  return out;
}

const onDiagonal = (n, cell) => Math.floor(cell / n) === cell % n || Math.floor(cell / n) + cell % n === n - 1;

function buildBoard(record) {
  const shape = shapeOf(specOf(record)), n = shape.n;
  const units = unitsOf(shape), peers = [...Array(n * n)].map(() => []);
  for (const unit of units) for (const cell of unit) peers[cell].push(...unit);  // each cell's units' cells
  Object.assign(game, { puzzle: record, n, shape, units, peers, inputs: [], removed: new Map(), showMarks: false, pencil: false,
                        history: [], future: [], pending: [], hint: null, before: 0, since: Date.now() });
  const board = $("board");
  board.style.setProperty("--n", n);
  board.replaceChildren();
  for (let cell = 0; cell < n * n; cell++) {
    const row = Math.floor(cell / n), col = cell % n;
    const div = document.createElement("div");
    div.className = "cell";
    div.setAttribute("role", "gridcell");
    div.dataset.cell = cell;
    if (shape.diagonals && onDiagonal(n, cell)) div.classList.add("diagonal");
    const given = record.puzzle[cell];
    if (given !== "." && given !== "0") {
      div.classList.add("given");
      div.textContent = given;
      div.setAttribute("aria-label", `row ${row + 1} column ${col + 1}: ${given}, given`);
    } else {
      const input = document.createElement("input");
      input.inputMode = n > 9 ? "text" : "numeric";
      input.autocomplete = "off";
      input.maxLength = 1;
      input.setAttribute("aria-label", `row ${row + 1} column ${col + 1}`);
      input.addEventListener("input", () => entered(input));
      input.addEventListener("keydown", (e) => move(e, cell));
      const solved = document.createElement("span");
      solved.className = "solved-digit";
      solved.textContent = record.solution[cell];
      div.append(input, solved);
      game.inputs[cell] = input;
    }
    board.append(div);
  }
  for (const [cell, side] of edges(shape)) board.children[cell].classList.add(`${side}-edge`);
}

function entered(input) {
  const ch = input.value.slice(-1);
  const cell = game.inputs.indexOf(input);
  if (game.pencil) {  // pencil mode: a digit typed toggles that candidate of the cell
    input.value = game.last[cell] || "";
    const digit = symbolValue(ch);
    if (digit && !input.value) {
      remember();
      const gone = game.removed.get(cell) || new Set();
      if (gone.has(digit)) gone.delete(digit); else gone.add(digit);
      game.removed.set(cell, gone);
      game.showMarks = true;
      changed();
    }
    return;
  }
  remember(cell);
  input.value = symbolValue(ch) ? ch.toUpperCase() : "";
  for (const div of $("board").children) div.classList.remove("wrong", "hinted");
  say($("explain"), "");
  markConflicts();
  changed();
}

// -- candidates (pencil marks), undo and redo, and the game kept in the browser --------------------------------
// A blank cell's candidates are the digits its units (row, column, region, diagonals) do not hold yet, less those the player (or an
// applied hint) removed: game.removed, cell -> digits. Shown on demand, always sent with a hint when shown.
function peersOf(cell) {
  return game.peers[cell];
}

function candidatesOf(line, cell) {
  const held = new Set(peersOf(cell).map((p) => symbolValue(line[p])));
  const gone = game.removed.get(cell) || new Set();
  const out = [];
  for (let d = 1; d <= game.n; d++) if (!held.has(d) && !gone.has(d)) out.push(d);
  return out;
}

function renderMarks() {
  const line = currentLine();
  for (const div of $("board").children) {
    const cell = Number(div.dataset.cell), input = game.inputs[cell];
    let marks = div.querySelector(".marks");
    if (!input || input.value || !game.showMarks) { if (marks) marks.remove(); continue; }
    if (!marks) {
      marks = document.createElement("div");
      marks.className = "marks";
      marks.style.setProperty("--box", Math.ceil(Math.sqrt(game.n)));  // 3 columns of marks for 5..9, 4 for 12
      div.append(marks);
    }
    const have = new Set(candidatesOf(line, cell));
    marks.replaceChildren(...[...Array(game.n).keys()].map((i) => {
      const span = document.createElement("span");
      span.textContent = have.has(i + 1) ? SYMBOLS[i] : "";
      return span;
    }));
  }
  $("marks").textContent = game.showMarks ? "Hide candidates" : "Candidates";
  $("pencil").classList.toggle("on", game.pencil);
}

// the player's candidates as /api/hint takes them: one field per cell, the symbols of its candidates
function candidatesParam() {
  const line = currentLine();
  return [...Array(game.n * game.n).keys()].map((cell) => (game.inputs[cell] && !game.inputs[cell].value
    ? candidatesOf(line, cell).map((d) => SYMBOLS[d - 1]).join("") : "")).join(",");
}

function snapshot() {
  return JSON.stringify({ values: game.inputs.map((i) => (i ? i.value : "")),
                          removed: [...game.removed].map(([c, ds]) => [c, [...ds]]), showMarks: game.showMarks,
                          seconds: played() });
}

// the time played on this puzzle, kept with the game: seconds before this visit, plus this visit's
function played() {
  return game.before + Math.floor((Date.now() - game.since) / 1000);
}

function tick() {
  if (!game.puzzle || $("play").hidden) return;
  const s = played();
  $("clock").textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
setInterval(() => {
  tick();
  if (game.puzzle && !$("play").hidden && played() % 10 === 0) {  // the clock kept every 10 s, not only on moves
    try { localStorage.setItem(storageKey(), snapshot()); } catch (e) { /* nothing kept */ }
  }
}, 1000);

function restore(text, withTime = true) {  // undo and redo leave the clock running
  const saved = JSON.parse(text);
  if (withTime && Number.isFinite(saved.seconds)) { game.before = saved.seconds; game.since = Date.now(); }
  saved.values.forEach((v, cell) => { if (game.inputs[cell]) game.inputs[cell].value = v || ""; });
  game.removed = new Map(saved.removed.map(([c, ds]) => [c, new Set(ds)]));
  game.showMarks = Boolean(saved.showMarks);
}

// before a change: what undo goes back to (the cell being typed in is remembered by its value before)
function remember() {
  game.history.push(game.previous ?? snapshot());
  game.future = [];
}

function changed() {
  game.previous = snapshot();
  game.last = game.inputs.map((i) => (i ? i.value : ""));
  renderMarks();
  markConflicts();
  try { localStorage.setItem(storageKey(), game.previous); } catch (e) { /* private mode: nothing kept */ }
}

function storageKey() {
  return `catalogue:${location.host}:${nameOf(game.puzzle)}`;
}

function undo(back) {
  const from = back ? game.history : game.future, to = back ? game.future : game.history;
  if (!from.length) return;
  to.push(snapshot());
  restore(from.pop(), false);
  game.previous = undefined;
  for (const div of $("board").children) div.classList.remove("wrong", "hinted");
  changed();
}

// Apply: the hint's step made on the board: its placements entered, its eliminations removed from the candidates
function applyHint() {
  if (!game.pending.length) return;
  remember();
  for (const change of game.pending) {
    if (change.placed) {
      if (game.inputs[change.cell]) game.inputs[change.cell].value = SYMBOLS[change.digit - 1];
      continue;
    }
    const gone = game.removed.get(change.cell) || new Set();
    gone.add(change.digit);
    game.removed.set(change.cell, gone);
    game.showMarks = true;
  }
  game.pending = [];
  game.hint = null;
  $("apply-hint").hidden = true;
  unhint();
  changed();
}

function move(event, cell) {
  const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -game.n, ArrowDown: game.n }[event.key];
  if (step === undefined) return;
  event.preventDefault();
  for (let next = cell + step; next >= 0 && next < game.n * game.n; next += step) {
    if (game.inputs[next]) { game.inputs[next].focus(); return; }
    if ((step === 1 || step === -1) && Math.floor(next / game.n) !== Math.floor(cell / game.n)) return;
  }
}

function currentLine() {
  let line = "";
  for (let cell = 0; cell < game.n * game.n; cell++) {
    const input = game.inputs[cell];
    line += input ? (input.value || ".") : game.puzzle.puzzle[cell];
  }
  return line;
}

// the cells whose digit also stands in one of their units: the same row, column, region or diagonal
function conflicts(line) {
  const bad = new Set();
  for (const group of game.units) {
    const seen = new Map();
    for (const cell of group) {
      const ch = line[cell];
      if (ch === "." || ch === "0") continue;
      if (seen.has(ch)) { bad.add(cell); bad.add(seen.get(ch)); } else seen.set(ch, cell);
    }
  }
  return bad;
}

function markConflicts() {
  const bad = conflicts(currentLine());
  for (const div of $("board").children) div.classList.toggle("conflict", bad.has(Number(div.dataset.cell)));
  return bad.size;
}

function check() {
  const line = currentLine(), solution = game.puzzle.solution;
  let wrong = 0, blank = 0;
  for (const div of $("board").children) {
    const cell = Number(div.dataset.cell), ch = line[cell];
    const isWrong = Boolean(game.inputs[cell]) && ch !== "." && ch !== solution[cell];
    div.classList.toggle("wrong", isWrong);
    wrong += isWrong;
    blank += ch === ".";
  }
  if (wrong) say($("explain"), `${wrong} digit${wrong === 1 ? " is" : "s are"} not the solution's.`, "error");
  else if (blank) say($("explain"), `All correct so far; ${blank} cell${blank === 1 ? "" : "s"} to go.`);
  else say($("explain"), "Solved!", "solved");
}

// Hints that teach, as HoDoKu's do, in three presses on the same position: the technique and where to look; then
// the pattern's cells; then the whole step, its targets and the candidates it removes drawn apart, and Apply.
const HINT_CLASSES = ["hinted", "region", "pattern", "target"];

function unhint() {
  for (const div of $("board").children) div.classList.remove(...HINT_CLASSES);
  for (const span of $("board").querySelectorAll(".marks span.removed")) span.classList.remove("removed");
}

// a hint's house as its explanation names it (engine/geometry.py unit_name): row 4, column 2, box 7, region 3,
// diagonal 1 (the diagonals come after the regions; a Latin square has none)
function houseName(h) {
  const n = game.n, diagonals = (game.shape.kind === "latin" ? 2 : 3) * n;
  if (h >= diagonals) return `diagonal ${h - diagonals + 1}`;
  const kind = Math.floor(h / n);
  const word = ["row", "column", game.shape.kind === "boxes" ? "box" : "region"][kind];
  return `${word} ${h - kind * n + 1}`;
}

function houseCells(h) {
  return game.units[h];
}

function showHint() {
  const { step, stage } = game.hint;
  unhint();
  const mark = (cells, cls) => {
    for (const cell of cells) $("board").children[cell].classList.add(cls);
  };
  const name = step.name;  // the step's own name: "forcing X-chain", "BUG+1", "X-Wing"
  if (stage === 1) {
    const where = step.houses.length ? step.houses.map(houseName).join(" and ") : "the highlighted cells";
    mark(step.houses.flatMap(houseCells), "region");
    if (!step.houses.length) mark(step.cells.map((c) => c.cell), "region");
    say($("explain"), `Hint 1 of 3: ${name}. Look at ${where}. (Hint again: the pattern's cells.)`);
  } else if (stage === 2) {
    mark(step.cells.map((c) => c.cell), "pattern");
    say($("explain"), `Hint 2 of 3: ${name}, on the cells outlined. (Hint again: what it does.)`);
  } else {
    mark(step.cells.map((c) => c.cell), "pattern");
    mark([...step.placements, ...step.eliminations].map((c) => c.cell), "target");
    for (const e of step.eliminations) {  // the candidates it removes, struck out where they are shown
      const span = $("board").children[e.cell].querySelector(`.marks span:nth-child(${e.digit})`);
      if (span) span.classList.add("removed");
    }
    say($("explain"), `Hint: ${step.explanation}`);
    // Apply makes the step: placements into the grid, eliminations out of the candidates
    game.pending = [...step.placements.map((p) => ({ ...p, placed: true })), ...step.eliminations];
    $("apply-hint").hidden = !game.pending.length;
  }
}

async function hint() {
  unhint();
  if (markConflicts()) {
    say($("explain"), "Some digits conflict (in red): change them first.", "error");
    return;
  }
  const position = currentLine() + (game.showMarks ? candidatesParam() : "");
  if (game.hint && game.hint.position === position && game.hint.stage < 3) {
    game.hint.stage += 1;  // the same position: the next stage of the same hint
    showHint();
    return;
  }
  try {
    const marks = game.showMarks ? `&candidates=${encodeURIComponent(candidatesParam())}` : "";
    const shape = `&shape=${encodeURIComponent(specOf(game.puzzle))}`;  // a 6x6 grid may be 2x3, 3x2 or a jigsaw
    const step = await api(`/api/hint?grid=${encodeURIComponent(currentLine())}${marks}${shape}`);
    if (step.technique === null) {
      game.hint = null;
      say($("explain"), `Hint: ${step.explanation}`);
      return;
    }
    game.hint = { step, stage: 1, position };
    showHint();
  } catch (error) {
    say($("explain"), error.message, "error");
  }
}

function clearEntries() {
  remember();
  for (const input of game.inputs) if (input) input.value = "";
  game.removed = new Map();
  unhint();
  for (const div of $("board").children) div.classList.remove("wrong", "conflict");
  say($("explain"), "");
  changed();
}

async function play(number) {
  show("play");
  say($("caption"), "Loading...");
  $("board").replaceChildren();
  say($("explain"), "");
  try {
    const record = await api(`/api/puzzles/${number}`);
    buildBoard(record);
    $("apply-hint").hidden = true;
    try {  // the game as it was left in this browser: digits, candidates removed, candidates shown
      const saved = localStorage.getItem(storageKey());
      if (saved) restore(saved);
    } catch (e) { /* unreadable: start afresh */ }
    changed();
    const s = game.shape, square = s.kind === "boxes" && s.rows === s.cols && !s.diagonals;
    const shape = square ? "" : `${shapeLabel(specOf(record))} · `;  // every shape but square boxes says what it is
    say($("caption"), `Puzzle ${nameOf(record)} · ${shape}${record.level ?? "ungraded"} · ${record.clues} clues` +
        (record.hardest === "guessing" ? " · needs guessing"  // its score, 20, means no more
         : record.score != null ? ` · score ${record.score.toFixed(1)}` : ""));
    document.title = `catalogue: puzzle ${nameOf(record)}`;
    $("pdf").href = `/puzzles/${nameOf(record)}.pdf?solution=true`;
    $("svg").href = `/puzzles/${nameOf(record)}.svg`;
  } catch (error) {
    say($("caption"), error.message, "error");
  }
}

// -- routing -------------------------------------------------------------------------------------------------
function route() {
  const hash = location.hash.replace(/^#/, "") || "/";
  const puzzle = hash.match(/^\/puzzles\/(\d+(?:\.\d+)?)$/);
  if (puzzle) return play(puzzle[1]);
  if (hash === "/daily") { document.title = "catalogue: today's puzzles"; return daily(); }
  document.title = "catalogue";
  return browse(new URLSearchParams(hash.split("?")[1] || ""));
}

$("filters").addEventListener("submit", (event) => {
  event.preventDefault();
  const target = `#/?${filtersFromForm()}`;
  if (location.hash === target) route(); else location.hash = target;
});
$("random").addEventListener("click", randomPuzzle);
$("hint").addEventListener("click", hint);
$("check").addEventListener("click", check);
$("clear").addEventListener("click", clearEntries);
function printAs(kind) {  // "puzzle" or "solution": the body's class picks what the print style shows
  document.body.classList.add(`print-${kind}`);
  window.print();
  document.body.classList.remove(`print-${kind}`);
}
$("print").addEventListener("click", () => printAs("puzzle"));
$("print-solution").addEventListener("click", () => printAs("solution"));
$("marks").addEventListener("click", () => { remember(); game.showMarks = !game.showMarks; changed(); });
$("pencil").addEventListener("click", () => { game.pencil = !game.pencil; renderMarks(); });
$("apply-hint").addEventListener("click", applyHint);
$("undo").addEventListener("click", () => undo(true));
$("redo").addEventListener("click", () => undo(false));
document.addEventListener("keydown", (e) => {
  if ($("play").hidden || !(e.ctrlKey || e.metaKey)) return;
  const key = e.key.toLowerCase();
  if (key === "z" || key === "y") { e.preventDefault(); undo(key === "z" && !e.shiftKey); }
});
window.addEventListener("hashchange", route);

api("/api/stats").then((s) => {
  say($("summary"), `${s.boards.toLocaleString()} boards, ${s.puzzles.toLocaleString()} puzzles`);
}).catch((error) => say($("summary"), error.message, "error"));
fillChoices().catch((error) => say($("message"), error.message, "error")).finally(route);
