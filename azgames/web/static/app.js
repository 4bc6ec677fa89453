// The page's side of the browser app. The server holds the game (one session
// per websocket) and sends the whole view after every change: the picture as
// SVG, whose turn, the legal moves with the board places that select them,
// the last step and the result. The page shows it and sends what the person
// does: clicks on the board's places, chosen moves, the set-up of a game.
"use strict";

const $ = (id) => document.getElementById(id);
const MIN_SPEED = 0.1, MAX_SPEED = 50;  // moves per second, the slider's ends (log scale)

let socket = null;
let catalogue = null;
let view = { mode: null };
let autoplay = null;  // the replay's timer while it plays
// A record sent to the server and not answered yet: its replay's first state
// sets the New game form to the record's game, so "play from here" plays it.
let loading = false;
// The server's token, from the address it printed: every request passes it on
// (the page's load also left it in a cookie, which serves where this is absent).
const TOKEN = new URLSearchParams(location.search).get("token");
const POLICY_VIOLATION = 1008;  // the server's close code for a refused page

function withToken(path) {
  return TOKEN ? `${path}?token=${encodeURIComponent(TOKEN)}` : path;
}

// ------------------------------------------------------------ connection
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}${withToken("/ws")}`);
  socket.onopen = () => setConnection("connected", false);
  socket.onclose = (event) => setConnection(event.code === POLICY_VIOLATION
    ? `refused by the server (${event.reason}): open the address that serve printed`
    : "disconnected: reload the page", true);
  socket.onmessage = (event) => receive(JSON.parse(event.data));
}

function setConnection(text, down) {
  $("connection").textContent = text;
  $("connection").classList.toggle("down", down);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    hideNotice();  // the person acts again: the last notice has been read
    socket.send(JSON.stringify(message));
  } else {
    showNotice("not connected to the server: reload the page", true);
  }
}

function receive(message) {
  if (message.type === "state") {
    // A notice stays up: the server sends the state right after it (a click
    // refused, then the position as it stands), and it is hidden when the
    // person next acts.
    view = message;
    if (loading && view.mode === "replay") {
      loading = false;
      formFromRecord(view);
    }
    render();
  } else if (message.type === "notice") {
    showNotice(message.text, false);
  } else if (message.type === "error") {
    loading = false;  // a refused record leaves the form as it was
    showNotice(message.text, true);
  } else if (message.type === "record") {
    download(message.filename, JSON.stringify(message.record, null, 1));
  }
}

// ------------------------------------------------------------ set-up form
async function loadCatalogue() {
  const response = await fetch(withToken("/api/games"));
  if (!response.ok) {
    setConnection(`refused by the server (${response.status}): open the address that serve printed`, true);
    throw new Error(`/api/games: ${response.status}`);
  }
  catalogue = await response.json();
  const select = $("game");
  for (const game of catalogue.games) {
    select.add(new Option(game.long_name, game.name));
  }
  const list = document.createElement("datalist");
  list.id = "agent-names";
  document.body.append(list);
  select.onchange = gameChanged;
  gameChanged();
}

function selectedGame() {
  return catalogue.games.find((g) => g.name === $("game").value);
}

function gameChanged() {
  const game = selectedGame();
  $("game-summary").textContent = game.summary;
  const players = $("players");
  const keep = Number(players.value) || game.min_players;
  players.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) players.add(new Option(String(n), String(n)));
  players.value = String(Math.min(Math.max(keep, game.min_players), game.max_players));
  players.onchange = seatsChanged;
  $("agent-names").replaceChildren(...[catalogue.human, ...game.agents].map((n) => new Option(n)));
  const options = $("options");
  options.replaceChildren();
  for (const [name, value] of Object.entries(game.options)) {
    const label = document.createElement("label");
    label.textContent = name;
    label.title = game.option_help[name] || "";  // the game's own words for its option
    const input = document.createElement("input");
    input.type = "text";
    input.name = name;
    input.value = typeof value === "string" ? value : JSON.stringify(value);
    input.dataset.default = input.value;
    label.append(input);
    options.append(label);
  }
  seatsChanged();
}

function seatsChanged() {
  const game = selectedGame();
  const n = Number($("players").value);
  const seats = $("seats");
  const old = [...seats.querySelectorAll("input")].map((i) => i.value);
  seats.replaceChildren();
  const opponent = game.agents.includes("greedy") ? "greedy" : "random";
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.textContent = `seat ${i}`;
    const input = document.createElement("input");
    input.type = "text";
    input.setAttribute("list", "agent-names");
    input.dataset.seat = String(i);
    input.value = old[i] || (i === 0 ? catalogue.human : opponent);
    label.append(input);
    seats.append(label);
  }
}

// The form set to a loaded record's game, player count and options (as the
// record names them); the seats the person typed stay where they still fit.
function formFromRecord(record) {
  if (!catalogue.games.some((g) => g.name === record.game)) return;
  $("game").value = record.game;
  gameChanged();
  $("players").value = String(record.num_players);
  seatsChanged();
  for (const input of $("options").querySelectorAll("input")) {
    if (!(input.name in record.options)) continue;
    const value = record.options[input.name];
    input.value = typeof value === "string" ? value : JSON.stringify(value);
  }
  // Options that differ from the game's defaults are hidden in a closed box otherwise.
  if (Object.keys(formOptions()).length) $("options-box").open = true;
}

function formSeats() {
  return [...$("seats").querySelectorAll("input")].map((i) => i.value.trim());
}

function formOptions() {
  // Only the options changed from their defaults are sent: the rules fill in the rest.
  const options = {};
  for (const input of $("options").querySelectorAll("input")) {
    if (input.value === input.dataset.default) continue;
    try {
      options[input.name] = JSON.parse(input.value);
    } catch {
      options[input.name] = input.value;  // a plain word: "random", "standard"
    }
  }
  return options;
}

function startGame() {
  stopAutoplay();
  const message = {
    type: "new",
    game: $("game").value,
    num_players: Number($("players").value),
    options: formOptions(),
    seats: formSeats(),
  };
  if ($("seed").value !== "") message.seed = Number($("seed").value);
  send(message);
}

// ------------------------------------------------------------ speed
function speedOf(slider) {
  return MIN_SPEED * Math.pow(MAX_SPEED / MIN_SPEED, slider / 100);
}

function sliderOf(speed) {
  return Math.round(100 * Math.log(speed / MIN_SPEED) / Math.log(MAX_SPEED / MIN_SPEED));
}

function showSpeed(speed) {
  $("speed-label").textContent = `${speed < 1 ? speed.toFixed(2) : speed.toFixed(1)} moves per second`;
}

// ------------------------------------------------------------ the view
function render() {
  const board = $("board");
  if (view.mode === null) return;
  $("title").textContent = `${view.long_name}, ${view.num_players} players` +
    (view.mode === "replay" ? " (replay)" : "");
  // The SVG is parsed as XML and put in the page unchanged; highlights are a
  // style sheet, so the picture shown is exactly the server's.
  const svg = new DOMParser().parseFromString(view.svg, "image/svg+xml").documentElement;
  board.replaceChildren(document.importNode(svg, true));
  board.dataset.ply = String(view.ply);
  board.dataset.mode = view.mode;
  board.classList.toggle("interactive", view.human_to_move);
  highlight();

  $("status").textContent = view.status;
  const result = $("result");
  result.hidden = !view.result;
  result.textContent = view.result ? view.result.text : "";
  $("last-step").textContent = view.last ? `last move: ${view.last.move} by ${view.last.agent}` : "";

  $("picking").hidden = view.clicks.length === 0;
  $("clicks").textContent = view.clicks.length ? `clicked: ${view.clicks.join(" then ")}` : "";
  const choices = $("choices");
  choices.replaceChildren(...view.choices.map((m) => moveButton(m, true)));
  const placeless = $("placeless");
  placeless.replaceChildren(...(view.human_to_move ? view.legal.filter((m) => m.targets.length === 0) : [])
    .map((m) => moveButton(m, true)));

  const legal = $("legal");
  legal.replaceChildren(...view.legal.map((m) => {
    const item = document.createElement("li");
    const button = moveButton(m, view.human_to_move);
    if (m.targets.length) button.title = `click ${m.targets.join(" then ")}`;
    item.append(button);
    return item;
  }));
  $("legal-count").textContent = `(${view.legal.length})`;

  $("pause").textContent = view.paused ? "Resume" : "Pause";
  $("pause").disabled = view.mode !== "play";
  $("undo").disabled = !view.can_undo;
  $("speed").value = String(sliderOf(view.speed));
  showSpeed(view.speed);

  $("replay").hidden = view.mode !== "replay";
  fitBoard();
  if (view.mode === "replay") {
    const slider = $("ply");
    slider.max = String(view.plies);
    slider.value = String(view.ply);
    $("ply-label").textContent = `move ${view.ply} of ${view.plies}`;
    if (autoplay && view.ply >= view.plies) stopAutoplay();
  } else {
    stopAutoplay();
  }
}

// The picture's size: as large as the stage's width and the window's height
// allow, but no smaller than keeps its words readable (the page scrolls
// instead): fitted to a 1280 x 720 window, the legends of the tall and the
// wide pictures were 6 to 8 px high. Its words are the texts with a space in
// them (headers, panels, legends); a single letter or number is a piece's or
// a square's label, drawn small on purpose.
const WORDS_PX = 10.5;  // font size of the smallest words: about 12 px high on the screen

function fitBoard() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const box = svg.viewBox.baseVal;
  const ownText = (t) => [...t.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.data).join("");
  const sizes = [...svg.querySelectorAll("text")]
    .filter((t) => ownText(t).trim().includes(" "))  // not the words of a hover tip (its <title>)
    .map((t) => Number(t.getAttribute("font-size")));
  const readable = sizes.length ? WORDS_PX / Math.min(...sizes) : 0;
  const stage = $("board").clientWidth;
  const replayBar = $("replay").hidden ? 0 : $("replay").offsetHeight;
  const top = $("board").getBoundingClientRect().top + window.scrollY;
  const room = window.innerHeight - top - replayBar - 24;  // the stage's padding and the page's
  const fits = Math.min(stage / box.width, room / box.height);
  const scale = Math.min(Math.max(fits, readable), stage / box.width);
  // Set on the board, not the picture: the SVG in the page stays the server's.
  $("board").style.setProperty("--picture-width", `${Math.floor(box.width * scale)}px`);
  $("board").style.setProperty("--picture-height", `${Math.floor(box.height * scale)}px`);
}

function moveButton(move, enabled) {
  const button = document.createElement("button");
  button.textContent = move.move;
  button.dataset.action = String(move.action);
  button.disabled = !enabled;
  button.onclick = () => send({ type: "choose", action: move.action });
  return button;
}

function highlight() {
  // Places clicked so far, and where a further click may go (or, with no
  // clicks yet, where a move can start): CSS on the data-target attribute.
  // Pieces drawn over a place (class "piece": Azacru's chevrons) take its
  // clicks but not its outline: a dashed chevron read as something else.
  const rule = (targets, style) => targets.length
    ? `${targets.map((t) => `#board [data-target="${CSS.escape(t)}"]:not(.piece)`).join(",")} { ${style} }`
    : "";
  let css = "";
  if (view.human_to_move) {
    const starts = view.clicks.length ? view.next_targets
      : [...new Set(view.legal.filter((m) => m.targets.length).map((m) => m.targets[0]))];
    // Black, dashed where a click may go: the pictures use colour for seats and the last move.
    css += rule(view.clicks, "stroke: #1a1a1a; stroke-width: 5px;");
    css += rule(starts, "stroke: #1a1a1a; stroke-width: 2.5px; stroke-dasharray: 6 4;");
  }
  $("highlight").textContent = css;
}

function showNotice(text, isError) {
  const notice = $("notice");
  notice.textContent = text;
  notice.classList.toggle("error", isError);
  notice.hidden = false;
}

function hideNotice() {
  $("notice").hidden = true;
}

// ------------------------------------------------------------ records
function download(filename, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

function loadFile() {
  const file = $("file").files[0];
  if (!file) return;
  stopAutoplay();
  file.text().then((text) => {
    loading = true;
    send({ type: "load", text });
  });
  $("file").value = "";  // the same file can be loaded again
}

// ------------------------------------------------------------ replay
function seek(ply) {
  if (view.mode !== "replay") return;
  send({ type: "seek", ply: Math.max(0, Math.min(view.plies, ply)) });
}

function toggleAutoplay() {
  if (autoplay) {
    stopAutoplay();
    return;
  }
  if (view.ply >= view.plies) seek(0);
  $("autoplay").textContent = "Stop";
  $("autoplay").setAttribute("aria-label", "stop playing the record");
  $("autoplay").title = "stop playing the record";
  const tick = () => {
    seek(view.ply + 1);
    autoplay = setTimeout(tick, 1000 / speedOf(Number($("speed").value)));
  };
  autoplay = setTimeout(tick, 1000 / speedOf(Number($("speed").value)));
}

function stopAutoplay() {
  if (autoplay) clearTimeout(autoplay);
  autoplay = null;
  $("autoplay").textContent = "Play";
  $("autoplay").setAttribute("aria-label", "play the record");
  $("autoplay").title = "play the record";
}

function playFromHere() {
  stopAutoplay();
  // The form's seats when they suit the record's game; every seat human otherwise.
  const seats = formSeats();
  const suits = $("game").value === view.game && seats.length === view.num_players;
  send(suits ? { type: "play_from_here", seats } : { type: "play_from_here" });
}

// ------------------------------------------------------------ wiring
function clickBoard(event) {
  const place = event.target.closest("[data-target]");
  if (place) send({ type: "click", target: place.dataset.target });
}

function wire() {
  $("start").onclick = startGame;
  $("board").addEventListener("click", clickBoard);
  $("clear").onclick = () => send({ type: "clear" });
  $("undo").onclick = () => send({ type: "undo" });
  $("pause").onclick = () => send({ type: "pause", paused: !view.paused });
  $("speed").value = String(sliderOf(2));
  showSpeed(2);
  $("speed").oninput = () => showSpeed(speedOf(Number($("speed").value)));
  $("speed").onchange = () => send({ type: "speed", moves_per_second: speedOf(Number($("speed").value)) });
  $("save").onclick = () => send({ type: "save" });
  $("file").onchange = loadFile;
  $("ply").oninput = () => seek(Number($("ply").value));
  $("first").onclick = () => seek(0);
  $("prev").onclick = () => seek(view.ply - 1);
  $("next").onclick = () => seek(view.ply + 1);
  $("last").onclick = () => seek(view.plies);
  $("autoplay").onclick = toggleAutoplay;
  $("play-from-here").onclick = playFromHere;
  window.addEventListener("resize", fitBoard);
}

wire();
loadCatalogue().then(connect);
