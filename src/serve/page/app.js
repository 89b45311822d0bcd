// The page of `tabula serve`: the lobby at `/`, a table at `/t/TOKEN`.
// Plain DOM, no framework. Every string from the server goes through
// textContent (never innerHTML), so a card text cannot inject markup.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);

  // Builds an element: `props` sets text, class, dataset and attributes;
  // children are nodes or strings (strings become text nodes).
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = String(value);
      else if (key === "class") node.className = value;
      else if (key === "data") {
        for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) node.dataset[k] = String(v);
      }
      else if (key === "on") for (const [ev, fn] of Object.entries(value)) node.addEventListener(ev, fn);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined && child !== false) node.append(child);
    }
    return node;
  }

  function show(node, visible) {
    node.hidden = !visible;
  }

  // ---------------------------------------------------------------- lobby

  const lobby = { games: [], bots: [], game: null, players: [], kinds: {}, previewSeq: 0, timer: 0 };

  // The lobby's key, when the server keeps its lobby to its host
  // (`--lobby host`): passed on to every lobby request.
  const lobbyKey = new URLSearchParams(location.search).get("key");

  // JSON in and out; an answer that is not JSON becomes {error}.
  async function api(method, path, body) {
    try {
      const query = lobbyKey ? `?key=${encodeURIComponent(lobbyKey)}` : "";
      const res = await fetch(path + query, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const data = await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }));
      if (!res.ok && !data.error) data.error = `${res.status} ${res.statusText}`;
      return data;
    } catch (e) {
      return { error: `cannot reach the server (${e.message})` };
    }
  }

  function lobbyError(text) {
    $("lobby-error").textContent = text || "";
    show($("lobby-error"), !!text);
  }

  async function startLobby() {
    show($("lobby"), true);
    const data = await api("GET", "/api/games");
    if (data.error) return lobbyError(data.error);
    lobby.games = data.games || [];
    lobby.bots = data.bots || [];
    const select = $("game");
    select.replaceChildren(...lobby.games.map((g) => el("option", { value: g.id, text: g.name || g.id })));
    select.addEventListener("change", () => chooseGame(select.value));
    $("create").addEventListener("click", createTable);
    $("open-save").addEventListener("click", openSave);
    if (lobby.games.length === 0) return lobbyError("No games to offer.");
    chooseGame(lobby.games[0].id);
  }

  // A new game: fresh variant and parameter inputs, its default seats.
  function chooseGame(id) {
    lobby.game = lobby.games.find((g) => g.id === id);
    const game = lobby.game;
    const variants = game.variants || [];
    $("variant-list").replaceChildren(
      ...variants.map((v) =>
        el("label", { class: "check" },
          el("input", { type: "checkbox", class: "variant", value: v.id, on: { change: schedulePreview } }),
          el("span", { text: v.text || v.id })))
    );
    show($("variants"), variants.length > 0);
    const params = game.params || [];
    $("param-list").replaceChildren(...params.map(paramRow));
    show($("params"), params.length > 0);
    lobbyError("");
    renderSeats(game.players || []);
    schedulePreview();
  }

  // A named parameter is a <select> (first option: the default), a
  // number an <input>; left empty, the game's default holds.
  function paramRow(p) {
    const values = Array.isArray(p.values) ? p.values : [];
    let def = p.default;
    if (values.length && typeof def === "number" && values[def] !== undefined) def = values[def];
    const shown = def === null || def === undefined ? "" : String(def);
    let input;
    if (values.length) {
      input = el("select", { class: "param", data: { param: p.id } },
        el("option", { value: "", text: `default (${shown})` }),
        values.map((v) => el("option", { value: v, text: v })));
    } else {
      input = el("input", { type: "number", class: "param", data: { param: p.id }, placeholder: shown, step: 1, min: p.min, max: p.max });
    }
    input.id = `param-${p.id}`;
    input.addEventListener(values.length ? "change" : "input", schedulePreview);
    return el("div", { class: "form-row" }, el("label", { for: input.id, text: p.id, title: p.doc }), input);
  }

  // The settings as /api/preview and /api/tables take them.
  function settings() {
    const variants = [...document.querySelectorAll("input.variant:checked")].map((i) => i.value);
    const sets = {};
    for (const input of document.querySelectorAll(".param")) {
      const text = input.value.trim();
      if (text !== "") sets[input.dataset.param] = /^-?\d+$/.test(text) ? Number(text) : text;
    }
    return { game: lobby.game.id, variants, sets };
  }

  // Typing in a number waits a moment before asking for the seats.
  function schedulePreview() {
    clearTimeout(lobby.timer);
    lobby.timer = setTimeout(preview, 250);
  }

  // The player count may depend on a parameter: ask the server. A later
  // answer wins over an earlier one still in flight.
  async function preview() {
    const seq = ++lobby.previewSeq;
    const data = await api("POST", "/api/preview", settings());
    if (seq !== lobby.previewSeq) return;
    lobbyError(data.error);
    if (!data.error && data.players) renderSeats(data.players);
  }

  // One row per seat; a kind already picked for a player id is kept.
  function renderSeats(players) {
    for (const s of document.querySelectorAll("select.seat")) lobby.kinds[s.dataset.player] = s.value;
    lobby.players = players;
    const kinds = ["person", ...lobby.bots];
    $("seats").replaceChildren(...players.map((p) => {
      const select = el("select", { class: "seat", id: `seat-${p.id}`, data: { player: p.id } },
        kinds.map((k) => el("option", { value: k, text: k })));
      select.value = kinds.includes(lobby.kinds[p.id]) ? lobby.kinds[p.id] : "person";
      return el("div", { class: "form-row" }, el("label", { for: select.id, text: p.name || p.id }), select);
    }));
  }

  async function createTable() {
    const body = settings();
    const seedText = $("seed").value.trim();
    if (seedText !== "" && !/^\d+$/.test(seedText)) return lobbyError("The seed is a whole number (or empty for a random one).");
    body.seed = seedText === "" ? null : seedText; // digits: a seed may pass 2^53
    body.seats = {};
    for (const s of document.querySelectorAll("select.seat")) body.seats[s.dataset.player] = s.value;
    submitTable(body);
  }

  async function openSave() {
    const file = $("save-file").files[0];
    if (!file) return lobbyError("Choose a save file first.");
    submitTable({ save: await file.text() });
  }

  // Either way a table opens, the host link is where the designer goes.
  async function submitTable(body) {
    $("create").disabled = $("open-save").disabled = true;
    const data = await api("POST", "/api/tables", body);
    $("create").disabled = $("open-save").disabled = false;
    if (data.error || !data.host) return lobbyError(data.error || "The server gave no host link.");
    location.href = absolute(data.host);
  }

  // ---------------------------------------------------------------- table

  const table = { closed: false, token: "", socket: null, delay: 500, last: null, logCount: 0, clearError: false, noticeHidden: -1, mock: false, moving: false, pickSig: "", picked: [] };

  function absolute(link) {
    return new URL(link, location.origin).href;
  }

  function startTable(token) {
    table.token = token;
    table.mock = new URLSearchParams(location.search).has("mock");
    show($("table"), true);
    show($("conn"), true);
    $("error-close").addEventListener("click", () => show($("error"), false));
    $("notice-close").addEventListener("click", () => {
      if (table.last && table.last.notice) table.noticeHidden = table.last.notice.seq;
      show($("notice"), false);
    });
    $("reload").addEventListener("click", () => send({ type: "reload" }));
    $("close-table").addEventListener("click", () => {
      if (confirm("Close this table for everyone? Its links stop working and its save is removed (download it first to keep it).")) send({ type: "close" });
    });
    renderDownloads(false);
    if (table.mock) {
      window.tabulaSent = [];
      return setConn(true, "mock");
    }
    setConn(false, "connecting…");
    connect();
  }

  // One socket at a time; when it closes, try again after 0.5 s, 1 s, ...
  // up to 5 s. A state message proves the link works and resets the wait.
  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${proto}//${location.host}/ws/${table.token}`);
    table.socket = socket;
    socket.addEventListener("open", () => setConn(true));
    socket.addEventListener("message", (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      receive(msg);
    });
    socket.addEventListener("close", () => {
      if (table.socket !== socket) return;
      table.socket = null;
      if (table.closed) return setConn(false, "closed");
      setConn(false);
      setTimeout(connect, table.delay);
      table.delay = Math.min(table.delay * 2, 5000);
    });
  }

  function setConn(ok, text) {
    $("conn").textContent = text || (ok ? "connected" : "reconnecting…");
    $("conn").className = ok ? "ok" : "bad";
  }

  // In mock mode (?mock=1) sent messages are kept in window.tabulaSent.
  function send(msg) {
    table.clearError = true;
    if (table.mock) return window.tabulaSent.push(msg);
    if (table.socket && table.socket.readyState === WebSocket.OPEN) table.socket.send(JSON.stringify(msg));
    else receive({ type: "error", message: "Not connected: try again in a moment." });
  }

  function receive(msg) {
    if (msg.type === "state") {
      table.delay = 500;
      render(msg);
    } else if (msg.type === "error") {
      showError(msg.message);
      table.moving = false;
      if (table.last) renderOptions(table.last); // the refused move's buttons come back
    }
  }

  function showError(text) {
    table.clearError = false;
    $("error-text").textContent = text;
    show($("error"), true);
  }

  // The whole table from one state message; only the log is incremental.
  function render(s) {
    table.last = s;
    // The host closed the table: its last screen, and no reconnecting.
    table.closed = !!s.closed;
    if (s.closed) {
      s = Object.assign({}, s, { options: [], undo: null, links: null });
      setConn(false, "closed");
    }
    table.moving = false;
    if (table.clearError) show($("error"), false);
    renderTitle(s);
    $("status").textContent = s.status || "";
    $("status").classList.toggle("your-turn", (s.options || []).length > 0);
    $("result").textContent = s.result || "";
    // The end in this page's words: a seat's loss is not shown as a win.
    $("result").className = resultClass(s);
    show($("result"), !!s.result);
    // The rules come with the first screen and after a reload.
    if (typeof s.rules === "string") {
      $("rules").textContent = s.rules;
      show($("rules-panel"), s.rules.length > 0);
    }
    renderOptions(s);
    renderUndo(s);
    renderBoard(s);
    renderGrid(s);
    $("players").replaceChildren(...(s.players || []).map((p, i) => renderPlayer(p, i, s)));
    $("zones").replaceChildren(...(s.zones || []).map(renderZone));
    show($("zones-panel"), (s.zones || []).length > 0);
    $("vars").replaceChildren(...(s.vars || []).map((v) =>
      el("li", { data: { var: v.id } }, el("span", { class: "var-name", text: `${v.name}: ` }), el("b", { text: v.text ?? v.value }))));
    show($("vars-panel"), (s.vars || []).length > 0);
    renderLog(s);
    renderNotice(s);
    renderLinks(s);
    renderDownloads(!!s.downloads);
  }

  function resultClass(s) {
    if (!s.over || s.role !== "seat") return "";
    const winner = s.view ? s.view.winner : null;
    if (winner === null || winner === undefined) return "draw";
    return winner === s.you ? "win" : "loss";
  }

  function playerName(s, id) {
    const p = (s.players || []).find((q) => q.id === id);
    return p ? p.name : id;
  }

  function renderTitle(s) {
    const role = s.role === "seat" ? `you play ${playerName(s, s.you)}` : s.role;
    $("title").replaceChildren(el("span", { text: s.title }), el("span", { class: "role", text: role }));
  }

  // One big button per option; the prompt says what is being chosen. A
  // pick of several at once is its options to select, and a confirm.
  function renderOptions(s) {
    const options = s.options || [];
    $("prompt").textContent = options.length ? s.prompt || "" : "";
    if (options.length && s.pick) renderPick(s);
    else $("options").replaceChildren(...options.map((o) =>
      el("button", { type: "button", class: o.card ? "option as-card" : "option", data: { choice: o.text }, on: { click: () => choose(o.text) } },
        el("span", { class: "name", text: o.name || o.text }),
        o.detail ? el("small", { class: "detail", text: o.detail }) : null)));
    $("chosen").textContent = s.chosen ? `You chose ${s.chosen}; waiting for the others` : "";
    show($("chosen"), !!s.chosen);
  }

  // `pick: K`: the options as toggles (numbered in the order selected
  // when the order counts); the confirm button is live once K are
  // selected and sends the one legal option they make (the server still
  // checks it). A selection lasts while the same pick is asked.
  function renderPick(s) {
    const p = s.pick;
    const from = p.from || [];
    const sig = JSON.stringify([p.count, p.ordered, s.prompt, from.map((o) => o.text)]);
    if (table.pickSig !== sig) {
      table.pickSig = sig;
      table.picked = [];
    }
    const picked = table.picked;
    const full = picked.length >= p.count;
    const toggles = from.map((o, i) => {
      const at = picked.indexOf(i);
      const on = at >= 0;
      return el("button", {
        type: "button",
        class: ["option", "pick", o.card ? "as-card" : null, on ? "selected" : null, !on && full ? "full" : null].filter(Boolean).join(" "),
        "aria-pressed": on ? "true" : "false",
        data: { part: o.text, index: i },
        on: { click: () => togglePick(i) },
      },
        p.ordered && on ? el("span", { class: "order", text: String(at + 1) }) : null,
        el("span", { class: "name", text: o.name || o.text }),
        o.detail ? el("small", { class: "detail", text: o.detail }) : null);
    });
    const match = pickMatch(s);
    const left = p.count - picked.length;
    const how = `Select ${p.count}${p.ordered ? ", in order," : ""} then confirm`;
    const label = match ? `Confirm: ${picked.map((i) => from[i].name || from[i].text).join(", ")}` : left > 0 ? `Select ${left} more` : "Not a legal choice";
    const confirm = el("button", { type: "button", id: "pick-confirm", class: "confirm", disabled: !match, text: label, on: { click: () => { if (match) choose(match.text); } } });
    $("options").replaceChildren(el("p", { class: "pick-how muted", text: how }), el("div", { class: "pick-from" }, toggles), confirm);
  }

  function togglePick(i) {
    if (table.moving || !table.last) return;
    const at = table.picked.indexOf(i);
    if (at >= 0) table.picked.splice(at, 1);
    else if (table.picked.length < table.last.pick.count) table.picked.push(i);
    renderOptions(table.last);
  }

  // The legal option the selection makes: its parts in the order selected
  // (the order counts), or the same parts in any order.
  function pickMatch(s) {
    const p = s.pick;
    if (table.picked.length !== p.count) return null;
    const chosen = table.picked.map((i) => p.from[i].text);
    const key = (parts) => (p.ordered ? parts : [...parts].sort()).join(" ");
    const want = key(chosen);
    return (s.options || []).find((o) => key(o.text.split(" ")) === want) || null;
  }

  // Buttons go quiet until the server answers, so a double click is one move.
  function choose(text) {
    if (table.moving) return;
    table.moving = true;
    for (const b of document.querySelectorAll("#options button, #grid td.playable")) b.classList.add("sent");
    for (const b of document.querySelectorAll("#options button")) b.disabled = true;
    send({ type: "move", choice: text });
  }

  function renderUndo(s) {
    const bar = $("undo-bar");
    const u = s.undo;
    if (s.role !== "seat" || s.over || s.closed) return bar.replaceChildren();
    if (!u) {
      return bar.replaceChildren(el("button", { type: "button", id: "undo", text: "Ask to undo", on: { click: () => send({ type: "undo" }) } }));
    }
    const waiting = u.waiting || [];
    const who = u.by === s.you ? "You ask" : `${playerName(s, u.by)} asks`;
    const parts = [el("span", { text: `${who} to undo the last decision.` })];
    if (u.you_agree === null && waiting.includes(s.you)) {
      parts.push(
        el("button", { type: "button", id: "undo-yes", text: "Agree", on: { click: () => send({ type: "undo", agree: true }) } }),
        el("button", { type: "button", id: "undo-no", text: "Decline", on: { click: () => send({ type: "undo", agree: false }) } }));
    } else if (waiting.length) {
      parts.push(el("span", { class: "muted", text: ` Waiting for ${waiting.map((p) => playerName(s, p)).join(", ")}.` }));
    }
    bar.replaceChildren(el("div", { class: "undo-ask" }, parts));
  }

  // A marker per player: the initial when initials differ, else the seat number.
  function markers(players) {
    const initials = players.map((p) => (p.name || p.id).charAt(0).toUpperCase());
    const unique = new Set(initials).size === initials.length;
    return players.map((p, i) => (unique ? initials[i] : String(i + 1)));
  }

  // A colour per seat: the one it is named for when it is, else by seat order.
  const NAMED = ["red", "blue", "green", "yellow", "orange", "purple", "black", "white"];
  function colourClass(p, i) {
    const named = NAMED.find((c) => c === String(p.id).toLowerCase() || c === String(p.name).toLowerCase());
    return named ? `c-${named}` : `c${i % 6}`;
  }

  function renderBoard(s) {
    const b = s.board;
    show($("board"), !!b);
    if (!b) return $("board").replaceChildren();
    const players = s.players || [];
    const marks = markers(players);
    const squares = (b.squares || []).map((sq, i) =>
      el("div", { class: "square", data: { square: i, terrain: sq.terrain }, title: sq.terrain ? `${i}: ${sq.terrain}` : String(i) },
        el("span", { class: "num", text: i }),
        el("span", { class: "sym", text: sq.symbol || "" }),
        el("span", { class: "pieces" })));
    for (const piece of b.pieces || []) {
      const i = players.findIndex((p) => p.id === piece.player);
      const square = squares[piece.square];
      if (!square || i < 0) continue;
      square.querySelector(".pieces").append(
        el("span", { class: `piece ${colourClass(players[i], i)}`, data: { player: piece.player }, title: players[i].name, text: marks[i] }));
    }
    $("board").replaceChildren(el("div", { class: "track" }, squares));
    updateBoardPanel(s);
  }

  // Column letters above and below, row numbers either side; a cell an
  // option names is a target: clicking it makes that move.
  function renderGrid(s) {
    const g = s.grid;
    show($("grid"), !!g);
    updateBoardPanel(s);
    if (!g) return $("grid").replaceChildren();
    const byCell = {};
    for (const o of s.options || []) if (o.cell && !(o.cell in byCell)) byCell[o.cell] = o;
    // An option naming a column (a disc dropped into it): every empty
    // cell of that column plays it.
    const byColumn = {};
    for (const o of s.options || []) if (o.column && !(o.column in byColumn)) byColumn[o.column] = o;
    const letters = () => el("tr", {}, el("th"), (g.columns || []).map((c) => el("th", { text: c })), el("th"));
    const rows = (g.rows || []).map((row, r) => {
      const n = (g.row_numbers || [])[r];
      const target = (c, i) => byCell[c.cell] || (!c.piece && !c.hole ? byColumn[(g.columns || [])[i]] : undefined);
      const tr = el("tr", {}, el("th", { text: n }), row.map((c, i) => gridCell(c, target(c, i))), el("th", { text: n }));
      // Hexagons: each row half a cell right of the row below.
      if (g.shape === "hex") tr.style.transform = `translateX(calc(${n - 1} * var(--hex-half)))`;
      return tr;
    });
    const hex = g.shape === "hex";
    $("grid").replaceChildren(el("table", { class: hex ? "grid hex" : "grid" }, hex ? null : el("thead", {}, letters()), el("tbody", {}, rows), el("tfoot", {}, letters())));
  }

  function gridCell(c, option) {
    const p = c.piece;
    const text = c.hole || !p ? "" : p.hidden ? "?" : p.symbol || p.name || p.id;
    const td = el("td", { data: { cell: c.cell }, class: c.hole ? "hole" : p && p.hidden ? "hidden-piece" : null, title: p && !p.hidden ? `${c.cell}: ${p.name}` : c.cell, text });
    if (option) {
      td.classList.add("playable");
      td.tabIndex = 0;
      td.title = `${c.cell}: ${option.name || option.text}`;
      td.addEventListener("click", () => choose(option.text));
      td.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(option.text); } });
    }
    return td;
  }

  function updateBoardPanel(s) {
    show($("board-panel"), !!(s.board || s.grid));
  }

  function renderPlayer(p, i, s) {
    const head = el("h2", {},
      el("span", { class: `piece ${colourClass(p, i)}`, text: markers(s.players)[i] }),
      el("span", { class: "pname", text: p.name }),
      p.you ? el("span", { class: "you", text: "(you)" }) : null,
      el("span", { class: "seat-kind", text: p.seat }),
      p.seat === "person" ? el("span", { class: p.connected ? "dot on" : "dot off", title: p.connected ? "connected" : "not connected" }) : null,
      p.waiting ? el("span", { class: "waiting", text: "to choose" }) : null);
    const stats = (p.stats || []).map((st) =>
      el("li", { data: { stat: st.id } }, `${st.name} `, el("b", { text: st.limit === null || st.limit === undefined ? st.text ?? st.value : `${st.text ?? st.value}/${st.limit}` })));
    return el("section", { class: p.you ? "panel player me" : "panel player", data: { player: p.id } },
      head,
      stats.length ? el("ul", { class: "stats" }, stats) : null,
      (p.zones || []).map(renderZone));
  }

  // A zone the viewer may not see is only its count.
  function renderZone(z) {
    const head = el("h3", {}, z.name || z.id, z.hidden ? null : el("span", { class: "count", text: ` (${z.count})` }));
    if (z.hidden || !z.cards) {
      return el("div", { class: "zone hidden", data: { zone: z.id } }, head, el("div", { class: "muted", text: `${z.count} hidden` }));
    }
    const cards = z.cards.map((c) => c.hidden
      ? el("div", { class: "card back", title: "hidden" })
      : el("div", { class: "card", data: { card: c.id } }, el("b", { text: c.name || c.id }),
        c.from ? el("small", { class: "from", text: c.from }) : null,
        c.text ? el("small", { text: c.text }) : null));
    return el("div", { class: "zone", data: { zone: z.id } }, head,
      el("div", { class: "cards" }, cards.length ? cards : el("span", { class: "muted", text: "empty" })));
  }

  // Appends what is new (or starts over on reset); lines since this seat
  // last moved are marked, and the newest stays in view.
  function renderLog(s) {
    const ol = $("log");
    const log = s.log || { reset: false, from: table.logCount, lines: [] };
    const atBottom = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 40;
    if (log.reset) {
      ol.replaceChildren();
      table.logCount = 0;
    }
    (log.lines || []).forEach((line, k) => {
      const index = (log.from || 0) + k;
      if (!log.reset && index < table.logCount) return; // already shown
      ol.append(el("li", { data: { line: table.logCount }, text: line }));
      table.logCount += 1;
    });
    const newFrom = typeof s.new_from === "number" ? s.new_from : table.logCount;
    for (const li of ol.children) li.classList.toggle("new", Number(li.dataset.line) >= newFrom);
    if (log.reset || atBottom || (log.lines || []).length) ol.scrollTop = ol.scrollHeight;
  }

  // The table's last message stays until dismissed or replaced by a newer one.
  function renderNotice(s) {
    const n = s.notice;
    const visible = !!n && n.seq !== table.noticeHidden;
    show($("notice"), visible);
    if (!n) return;
    $("notice-text").textContent = n.text;
    $("notice").classList.toggle("error", !!n.error);
  }

  function renderLinks(s) {
    show($("host-panel"), !!s.links);
    if (!s.links) return;
    const seats = Object.entries(s.links.seats || {}).map(([id, link]) =>
      el("li", {}, el("span", { class: "link-name", text: playerName(s, id) }),
        link ? copyable(absolute(link), { "data-seat": id }) : el("span", { class: "muted", text: "bot" })));
    const spectator = s.links.spectator
      ? el("li", {}, el("span", { class: "link-name", text: "spectator" }), copyable(absolute(s.links.spectator), { id: "spectator-link" }))
      : null;
    $("links").replaceChildren(...seats, ...(spectator ? [spectator] : []));
  }

  // A link to pass on, with a button that copies it where the browser allows.
  function copyable(url, attrs) {
    const a = el("a", Object.assign({ href: url, text: url, class: "link" }, attrs));
    const button = el("button", { type: "button", class: "copy", text: "copy" });
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(url);
        button.textContent = "copied";
      } catch (e) {
        getSelection().selectAllChildren(a); // copy by hand
      }
    });
    return el("span", { class: "copyable" }, a, button);
  }

  function renderDownloads(allowed) {
    const base = `/t/${table.token}`;
    const link = (id, path, text) => el("a", { id, href: `${base}/${path}`, download: path, text });
    const links = allowed ? [link("download-save", "save.yaml", "Download the save"), link("download-replay", "replay.yaml", "Download the replay")] : [];
    $("downloads").replaceChildren(...links, link("download-log", "log.txt", "Download the log"));
  }

  // ---------------------------------------------------------------- start

  // For tests: render a state message as if it came from the socket.
  window.tabulaRender = (state) => receive(Object.assign({ type: "state" }, state));
  window.tabulaReceive = receive;

  const match = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  if (match) startTable(match[1]);
  else startLobby();
})();
