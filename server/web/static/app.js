/* Mafia Table phone page: the player's private hand (docs/PROTOCOL.md "Web controller").
 *
 * Speaks the wire protocol over a WebSocket, one JSON message per text frame. Shows only
 * what the server sends to this seat (every message is kept in window.__received, which
 * the tests read), the actions the seat may take now (`legal`, each a button with
 * data-action = the action's JSON) and whose turn it is.
 *
 * Fairness (PROTOCOL.md "What a client must stamp"): `pong.tc`, `t_shown` and `t_press`
 * are all performance.now() ms. t_shown is the timestamp of the animation frame after
 * the one that first drew the window's card (the frame that was presented); t_press is
 * the pointerdown/touchstart event's timeStamp (same clock).
 *
 * Claims (a reaction window's claim and pass actions) sit in a bar pinned to the bottom of
 * the screen (#claimbar), so they are on screen whatever the hand's size or the notices.
 * A view that cannot be drawn (an unexpected field) never leaves the phone stuck: the
 * actions are still offered, with plain labels, and the error is kept in
 * window.__renderErrors. A seat taken over on another device (`taken_over`) leaves this
 * phone with a sentence and a button to take it back, not with dead buttons.
 *
 * Countdowns (#countdown, above the screen): a seat held for its player who lost the
 * connection, while no stand-in may play it (`stand_in_at`, server ms), and a restarted
 * server's wait for its players (`table_paused` with `until`), counted in seconds on
 * this phone's clock through the server's `clock.offset_ms`. A reaction window counts
 * down in the claim bar (#wincount: its `timeout_ms` from the update that opened it) and
 * a timed turn beside the status (#turncount: `timer.deadline`).
 *
 * Around the match, as the pygame client has them: the photo finish of each race
 * (`race`) and a history of the match's moves (#history), quick reactions (`emote`),
 * Leave (`leave`, two taps), watching a full table as a spectator (`join` with
 * `spectate`: the public view, no actions), the host's Start and Add a bot on a table
 * that waits for him (`start: "host"`), and at the end a podium with Play again
 * (`rematch`). While a match runs the screen is kept awake (Wake Lock, released when the
 * page is hidden), and the phone vibrates when it is this seat's move once a first tap
 * has allowed vibrations.
 */
"use strict";
(function () {
  const W = window;
  W.__received = [];
  const $ = (sel) => document.querySelector(sel);
  const params = new URLSearchParams(location.search);

  const S = {
    lang: "en", own: {}, client: {}, ws: null, seq: 0, waiting: {}, room: null, table: null,
    summary: null, seat: null, token: null, name: "", game: null, view: null, legal: [],
    step: 0, seats: [], status: "", result: null, notice: "", busy: false, memory: {},
    drawnCard: null, windowId: null, tShown: null, shownFor: null, prevLegal: 0,
    retry: 0, closing: false, playing: false, offset: null, pause: null, takenOver: false,
    spectator: false, race: null, history: [], winClock: null, turnClock: null, tapped: false,
    wakeLock: null, leaveArmed: 0, rematchAsked: false, toast: null, hint: null, hinting: false,
  };
  W.__mafia = S;  // for tests and the fairness benchmark

  // ------------------------------------------------------------------ strings
  function pickLang() {
    const stored = localStorage.getItem("mafia.lang");
    if (stored === "en" || stored === "fr") return stored;
    const wanted = params.get("lang") || navigator.language || "en";
    return wanted.toLowerCase().startsWith("fr") ? "fr" : "en";
  }

  function t(key, vars) {
    let s = (S.own[S.lang] || {})[key];
    if (s === undefined) s = S.client[key];
    if (s === undefined) s = (S.own.en || {})[key];
    if (s === undefined) return key;
    return s.replace(/%\{(\w+)\}/g, (_, k) => (vars && vars[k] !== undefined ? vars[k] : ""));
  }

  async function loadStrings() {
    try {
      S.own = await (await fetch("strings.json")).json();
    } catch (e) { S.own = {}; }
    try {
      S.client = await (await fetch("api/strings/" + S.lang)).json();
    } catch (e) { S.client = {}; }
    document.documentElement.lang = S.lang;
  }

  // A server sentence (docs/PROTOCOL.md "Server sentences") in this phone's language:
  // `server.<code>` of the client's strings filled with its parameters (a parameter that is
  // a sentence itself is translated first); the server's English `message` for a sentence
  // that is missing, malformed or of a code this page does not know.
  function sentenceText(sentence, depth) {
    if (!sentence || typeof sentence !== "object" || typeof sentence.code !== "string" || (depth || 0) > 4) return null;
    const key = "server." + sentence.code;
    let s = (S.client || {})[key];
    if (typeof s !== "string") return null;
    const params = sentence.params && typeof sentence.params === "object" ? sentence.params : {};
    const vars = {};
    for (const k of Object.keys(params)) {
      const v = params[k];
      if (v && typeof v === "object") { const inner = sentenceText(v, (depth || 0) + 1); if (inner === null) return null; vars[k] = inner; }
      else if (typeof v === "string" || typeof v === "number") vars[k] = String(v);
      else return null;
    }
    return s.replace(/%\{(\w+)\}/g, (_, k) => (vars[k] !== undefined ? vars[k] : ""));
  }

  function said(msg) {
    const text = msg ? sentenceText(msg.sentence, 0) : null;
    return text !== null ? text : String((msg && msg.message) || "");
  }
  W.__mafiaSaid = said;

  function esc(x) {
    return String(x).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  }

  // ------------------------------------------------------------------ network
  function wsUrl() {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  }

  function connect() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl());
      S.ws = ws;
      S.waiting = {};
      S.offset = null;  // the server may have restarted: its clock is another one
      ws.onopen = () => resolve(ws);
      ws.onerror = () => reject(new Error("websocket"));
      ws.onmessage = (ev) => {
        let msg;
        try { msg = JSON.parse(ev.data); } catch (e) { return; }
        if (msg.type === "ping") {  // at once, before anything else (clock sync)
          ws.send(JSON.stringify({type: "pong", id: msg.id, tc: performance.now()}));
        }
        W.__received.push(msg);
        onMessage(msg);
      };
      ws.onclose = () => { if (S.ws === ws) onClosed(); };
    });
  }

  function request(type, fields) {
    const seq = ++S.seq;
    const msg = Object.assign({v: 1, type: type, seq: seq}, fields || {});
    return new Promise((resolve, reject) => {
      S.waiting[seq] = {resolve, reject};
      if (!S.ws || S.ws.readyState !== 1) { delete S.waiting[seq]; reject({code: "closed", message: t("web.no_server")}); return; }
      S.ws.send(JSON.stringify(msg));
    });
  }

  function onClosed() {
    S.ws = null;
    for (const k in S.waiting) S.waiting[k].reject({code: "closed", message: t("web.no_server")});
    S.waiting = {};
    if (S.closing || (!S.token && !S.spectator)) return;
    netNotice(t("web.reconnecting"));
    const delay = Math.min(10000, 500 * Math.pow(2, S.retry++));
    setTimeout(S.spectator ? () => watch(S.table) : resume, delay);
  }

  function netNotice(text) {
    const n = $("#net");
    n.textContent = text || "";
    n.hidden = !text;
  }

  // ------------------------------------------------------------------ storage
  function roomKey() { return "mafia.room." + S.room; }

  function saveSeat() {
    localStorage.setItem(roomKey(), JSON.stringify({token: S.token, table: S.table, seat: S.seat, name: S.name}));
    localStorage.setItem("mafia.name", S.name);
  }

  function storedSeat() {
    try { return JSON.parse(localStorage.getItem(roomKey()) || "null"); } catch (e) { return null; }
  }

  // ------------------------------------------------------------------ joining
  async function lookUp(code) {
    const r = await fetch("api/room/" + encodeURIComponent(code));
    const body = await r.json();
    if (!r.ok) throw body;
    return body;
  }

  function showJoin(message) {
    S.playing = false;
    const name = S.name || localStorage.getItem("mafia.name") || "";
    $("#screen").innerHTML = `
      <section class="join">
        <p class="sub">${esc(t("web.subtitle"))}</p>
        <label>${esc(t("web.room"))}<input id="room-code" maxlength="5" autocapitalize="characters" autocomplete="off" value="${esc(S.room || "")}"></label>
        <label>${esc(t("web.name"))}<input id="player-name" maxlength="40" autocomplete="nickname" value="${esc(name)}"></label>
        <button id="find" class="big" type="button">${esc(t("web.find"))}</button>
        <p id="join-message" class="notice">${esc(message || "")}</p>
        <div id="seats"></div>
      </section>`;
    $("#find").addEventListener("click", findTable);
    if (S.room && !message) findTable();
  }

  async function findTable() {
    const code = ($("#room-code").value || "").toUpperCase().replace(/[^A-Z]/g, "");
    S.name = ($("#player-name").value || "").trim();
    S.room = code;
    let info;
    try {
      info = await lookUp(code);
    } catch (e) {
      $("#join-message").textContent = e && e.error === "too_many_codes" ? t("web.too_many_codes") : t("web.bad_room", {code: code});
      $("#seats").innerHTML = "";
      return;
    }
    S.room = info.room;
    history.replaceState(null, "", "?room=" + info.room);
    const mine = storedSeat();
    if (mine && mine.token && mine.table === info.table.id && !mine.taken) { S.name = S.name || mine.name; resumeWith(mine); return; }
    renderSeats(info.table);
  }

  function renderSeats(table) {
    S.summary = table;
    const game = t("game." + table.game);
    let html = `<p>${esc(t("web.pick_seat", {table: table.name, game: game}))}</p>`;
    if (table.status !== "waiting") html = `<p>${esc(t("web.started"))}</p>`;
    html += '<div class="seat-list">';
    for (const s of table.seats) {
      const free = s.name === null && !s.bot && table.status === "waiting";
      const label = free ? t("web.free") : (s.name || "") + (s.bot ? " · " + t("web.bot") : "") + (s.away ? " · " + t("web.away") : "");
      html += `<button type="button" class="seat big${free ? "" : " taken"}" id="seat-${s.seat}" data-seat="${s.seat}" ${free ? "" : "disabled"}>
        <b>${esc(t("web.seat", {n: s.seat + 1}))}</b><span>${esc(label)}</span></button>`;
    }
    html += "</div>";
    const free = table.status === "waiting" && table.seats.some((s) => s.name === null && !s.bot);
    if (!free && table.status === "waiting") html += `<p class="info">${esc(t("web.full"))}</p>`;
    // a full table, or one that plays already, is watched (the pygame client's Watch)
    html += `<button id="watch" class="big quiet" type="button">${esc(t("web.watch"))}</button>`;
    $("#seats").innerHTML = html;
    for (const b of document.querySelectorAll("button.seat:not([disabled])")) {
      b.addEventListener("click", () => takeSeat(table.id, Number(b.dataset.seat)));
    }
    $("#watch").addEventListener("click", () => watch(table.id));
  }

  // Watch a table as a spectator: the public view, no actions, no token (a lost
  // connection watches again).
  async function watch(tableId) {
    const box = $("#player-name");
    if (box && box.value.trim()) S.name = box.value.trim();
    const msgBox = $("#join-message");
    if (msgBox) msgBox.textContent = t("web.connecting");
    try {
      if (!S.ws) await greet();
      await request("join", {table: tableId, spectate: true, room: S.room});
      S.table = tableId; S.seat = null; S.token = null; S.spectator = true; S.retry = 0;
      netNotice("");
      if (!S.playing) renderWaiting();
    } catch (e) {
      if (S.spectator && (!S.ws || S.ws.readyState !== 1)) return;  // onClosed tries again
      if (msgBox) msgBox.textContent = t("web.error", {message: said(e) || e.code || ""});
    }
  }

  // Leave the table: two taps (the first arms the button for 4 s), then `leave`; the seat
  // is forgotten on this phone (a bot plays it; the server still keeps its token).
  function leaveTapped(button) {
    const now = performance.now();
    if (!S.leaveArmed || now - S.leaveArmed > 4000) {
      S.leaveArmed = now;
      button.textContent = t("web.leave_confirm");
      button.classList.add("armed");
      return;
    }
    S.leaveArmed = 0;
    const done = () => {
      localStorage.removeItem(roomKey());
      localStorage.removeItem(roomKey() + ".memory");
      S.closing = true;
      if (S.ws) { try { S.ws.close(); } catch (e) { /* closed already */ } }
      S.ws = null; S.closing = false;
      Object.assign(S, {token: null, seat: null, table: null, view: null, legal: [], playing: false,
                        spectator: false, result: null, race: null, history: [], winClock: null,
                        turnClock: null, notice: "", pause: null, rematchAsked: false});
      releaseWakeLock();
      document.body.style.paddingBottom = "";
      $("#who").textContent = "";
      tick();
      showJoin(t("web.left"));
    };
    request("leave", {table: S.table}).then(done, done);
  }

  function leaveButton() {
    const armed = S.leaveArmed && performance.now() - S.leaveArmed <= 4000;  // kept across a redraw
    return `<button id="leave" class="big quiet${armed ? " armed" : ""}" type="button">${esc(t(armed ? "web.leave_confirm" : "web.leave"))}</button>`;
  }

  function wireLeave(root) {
    const b = root.querySelector("#leave");
    if (b) b.addEventListener("click", () => leaveTapped(b));
  }

  // The host's controls on a table waiting for him (the pygame lobby's): add bots to the
  // free seats, then start. The server checks that this connection is the host.
  function hostControls(tb) {
    if (!tb || S.seat === null || tb.host !== S.seat || tb.status !== "waiting") return "";
    const free = tb.seats.filter((s) => s.name === null && !s.bot).length;
    let h = `<div class="hostbox"><p class="info">${esc(t("web.host_you"))}</p>`;
    if (free) h += `<button id="add-bot" class="big quiet" type="button">${esc(t("web.add_bot"))}</button>`;
    if ((tb.options || {}).start === "host") {
      h += `<button id="start" class="big" type="button"${free ? " disabled" : ""}>${esc(t("web.start"))}</button>`;
    }
    return h + "</div>";
  }

  function wireHost(root) {
    const hostAsk = (type) => request(type, {table: S.table}).catch((e) => {
      const n = $("#host-message");
      if (n) n.textContent = t("web.error", {message: said(e)});
    });
    const add = root.querySelector("#add-bot"), go = root.querySelector("#start");
    if (add) add.addEventListener("click", () => hostAsk("add_bot"));
    if (go) go.addEventListener("click", () => hostAsk("start"));
  }

  async function greet() {
    await connect();
    const welcome = await request("hello", {name: S.name || "Phone"});
    S.name = welcome.name;
  }

  // This phone's own key for its join at this room (PROTOCOL.md "Asking again"): a join
  // whose reply was lost with the connection is asked again with it: the same seat.
  function joinKey() {
    let key = localStorage.getItem(roomKey() + ".key");
    if (!key) {
      const bytes = new Uint8Array(24);
      crypto.getRandomValues(bytes);
      key = btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      localStorage.setItem(roomKey() + ".key", key);
    }
    return key;
  }

  // join, asked again with backoff (0.5 s doubling to 10 s, for at most 60 s) while the
  // connection cannot be opened or drops before the reply
  async function joinAsking(tableId, seat) {
    const key = joinKey();
    const started = performance.now();
    for (let attempt = 0; ; attempt++) {
      try {
        if (!S.ws) await greet();
        return await request("join", {table: tableId, seat: seat, key: key, room: S.room});  // a private table needs its code
      } catch (e) {
        const lost = e && (e.code === "closed" || e.message === "websocket");
        if (!lost || performance.now() - started > 60000) throw e;
        S.ws = null;
        $("#join-message").textContent = t("web.reconnecting");
        await new Promise((r) => setTimeout(r, Math.min(10000, 500 * Math.pow(2, attempt))));
      }
    }
  }

  async function takeSeat(tableId, seat) {
    const box = $("#player-name");
    if (box && box.value.trim()) S.name = box.value.trim();
    $("#join-message").textContent = t("web.connecting");
    try {
      const joined = await joinAsking(tableId, seat);
      S.table = joined.table; S.seat = joined.seat; S.token = joined.token; S.retry = 0; S.memory = {};
      localStorage.removeItem(roomKey() + ".memory");
      saveSeat();
      renderWaiting();
    } catch (e) {
      $("#join-message").textContent = t("web.error", {message: said(e) || e.code || ""});
      try { renderSeats((await lookUp(S.room)).table); } catch (_) { /* keep the list */ }
    }
  }

  async function resumeWith(mine) {
    S.token = mine.token; S.table = mine.table; S.seat = mine.seat; S.name = S.name || mine.name || "";
    try { S.memory = JSON.parse(localStorage.getItem(roomKey() + ".memory") || "{}") || {}; } catch (e) { S.memory = {}; }
    await resume();
  }

  async function resume() {
    if (!S.token) return;
    netNotice(t("web.connecting"));
    try {
      await greet();
      const fields = {token: S.token};
      if (S.view) fields.step = S.step;
      const joined = await request("reconnect", fields);
      S.table = joined.table; S.seat = joined.seat; S.retry = 0;
      saveSeat();
      netNotice("");
      if (!S.view) renderWaiting();
    } catch (e) {
      if (e && e.code === "bad_token") {
        localStorage.removeItem(roomKey());
        S.token = null; S.view = null;
        netNotice("");
        if (S.ws) { S.closing = true; S.ws.close(); S.closing = false; S.ws = null; }
        showJoin(t("web.gone"));
        return;
      }
      if (!S.ws || S.ws.readyState !== 1) return;  // onClosed retries
    }
  }

  // Another device showed this seat's token: the seat is its now. No window, no button of
  // the seat stays; this phone does not ask for it back by itself (that would take it from
  // the other device, even on a reload), only when the player says so.
  function takenOver() {
    S.playing = false; S.view = null; S.legal = []; S.windowId = null; S.busy = false; S.notice = "";
    S.pause = null; S.closing = true; S.takenOver = true;
    localStorage.setItem(roomKey(), JSON.stringify({token: S.token, table: S.table, seat: S.seat, name: S.name, taken: true}));
    if (S.ws) { try { S.ws.close(); } catch (e) { /* closed already */ } }
    netNotice("");
    tick();
    showTakenOver();
  }

  function showTakenOver() {
    document.body.style.paddingBottom = "";
    $("#screen").innerHTML = `<section class="taken"><p class="big-text" id="taken-over">${esc(t("web.taken_over"))}</p>
      <button id="take-back" class="big" type="button">${esc(t("web.take_back"))}</button></section>`;
    $("#take-back").addEventListener("click", () => {
      S.closing = false; S.retry = 0; S.takenOver = false;
      saveSeat();  // no longer marked as taken: this phone plays the seat again
      resume();
    });
  }

  function whoText() {
    return S.spectator ? t("web.watching_as", {name: S.name}) : t("web.you_are", {name: S.name, n: (S.seat === null ? 0 : S.seat) + 1});
  }

  function renderWaiting() {
    const tb = S.summary && S.summary.id === S.table ? S.summary : null;
    const taken = tb ? tb.seats.filter((s) => s.name !== null || s.bot).length : 0;
    $("#who").textContent = whoText();
    const screen = $("#screen");
    const html = `<section class="waiting"><p class="big-text">${esc(t("web.waiting_players", {n: taken, total: tb ? tb.seats.length : "?"}))}</p>` +
      (S.spectator ? `<p class="info center">${esc(t("web.watching"))}</p>` : "") +
      guarded("host controls", () => hostControls(tb), () => "") +
      `<p id="host-message" class="notice"></p>${leaveButton()}</section>`;
    document.body.style.paddingBottom = "";
    // a table message that changes nothing here (a spectator came) keeps the buttons
    // under the player's finger
    if (screen.querySelector(".waiting") && S.waitingHtml === html) return;
    S.waitingHtml = html;
    screen.innerHTML = html;
    wireHost(screen);
    wireLeave(screen);
  }

  // ------------------------------------------------------------------ messages
  function onMessage(msg) {
    if (msg.re !== undefined && S.waiting[msg.re]) {
      const w = S.waiting[msg.re];
      delete S.waiting[msg.re];
      if (msg.type === "error") w.reject(msg); else w.resolve(msg);
      if (msg.type === "error" && S.playing) { S.notice = t("web.error", {message: said(msg)}); S.busy = false; render(); }
      if (msg.type === "ack") { S.busy = false; }
      return;
    }
    switch (msg.type) {
      case "clock":
        if (typeof msg.offset_ms === "number") S.offset = msg.offset_ms;
        break;
      case "table_paused":
        if (msg.table !== S.table) break;
        // until - t_server: a phone back on a restarted server has no clock sync with it yet
        S.pause = {until: typeof msg.until === "number" ? msg.until : null, why: {sentence: msg.sentence, message: msg.message},
                   local: typeof msg.until === "number" && typeof msg.t_server === "number"
                     ? performance.now() + msg.until - msg.t_server : null};
        tick();
        break;
      case "table_resumed":
        if (msg.table !== S.table) break;
        S.pause = null;
        tick();
        break;
      case "table":
        if (S.takenOver) break;
        if (msg.table.id === S.table || S.table === null) {
          S.summary = msg.table;
          S.seats = msg.table.seats;
          if (!S.playing) renderWaiting(); else render();
          tick();
        }
        break;
      case "match_started":
        if (msg.table !== S.table) break;
        S.game = msg.game; S.seats = msg.seats; S.playing = true; S.result = null; S.busy = false;
        S.rematchAsked = false; S.winClock = null;
        if (!msg.resumed) { S.memory = {}; S.history = []; S.race = null; }
        keepAwake();
        learn(msg.missed || []);
        setState(msg);
        break;
      case "update":
        if (msg.table !== S.table) break;
        learn(msg.events || []);
        remember(msg.events || []);
        setState(msg);
        break;
      case "claim_result":
        if (msg.table !== S.table) break;
        S.notice = msg.outcome === "won" ? t("web.claim_won", {message: said(msg)}) : t("web.claim_other", {message: said(msg)});
        note(S.notice);
        render();
        break;
      case "race":
        if (msg.table !== S.table || !Array.isArray(msg.claims)) break;
        S.race = msg;
        note(raceLine(msg));
        render();
        break;
      case "emote":
        if (msg.table === S.table) showEmote(msg);
        break;
      case "moved":  // the host moved this phone to the spectators
        if (msg.table !== S.table) break;
        localStorage.removeItem(roomKey());
        S.seat = null; S.token = null; S.spectator = true; S.legal = [];
        if (S.playing) render(); else renderWaiting();
        break;
      case "match_over":
        if (msg.table !== S.table) break;
        S.result = msg.result && typeof msg.result === "object" ? msg.result : {};
        S.winClock = null; S.turnClock = null;
        note(t("web.over"));
        render();
        break;
      case "taken_over":
        if (msg.table === S.table) takenOver();
        break;
      default:
        break;
    }
  }

  function setState(msg) {
    const wasMine = S.legal.length > 0;
    S.view = msg.view; S.legal = Array.isArray(msg.legal) ? msg.legal : []; S.step = msg.step;
    S.busy = false;
    clocks(msg);
    render();
    const mine = S.legal.length > 0;
    // vibrate() needs a tap on the page first (a browser's user activation): before it,
    // a call is refused and logged, so the phone waits for the player's first tap
    if (mine && !wasMine && S.tapped && navigator.vibrate) {
      try { navigator.vibrate(S.view && S.view.window ? [80, 40, 80] : 150); } catch (e) { /* not allowed */ }
    }
    stampWindow();
  }

  // This phone's time (performance.now() ms) of a server time, through the clock offset;
  // before the first clock sync, from the message's own t_server (one way late at most).
  function localTime(serverMs, msg) {
    if (S.offset !== null) return serverMs - S.offset;
    return performance.now() + serverMs - (typeof msg.t_server === "number" ? msg.t_server : serverMs);
  }

  // The open window's and the turn's deadlines, for the countdowns (tick).
  function clocks(msg) {
    const w = S.view && S.view.window;
    if (w && typeof w.timeout_ms === "number") {
      if (!S.winClock || S.winClock.id !== w.window) {
        const opened = typeof msg.window_shown === "number" ? msg.window_shown : msg.t_server;
        S.winClock = {id: w.window, total: w.timeout_ms,
                      end: typeof opened === "number" ? localTime(opened + w.timeout_ms, msg) : performance.now() + w.timeout_ms};
        S.race = null;  // a new race
      }
    } else {
      S.winClock = null;
    }
    const timer = msg.timer;
    S.turnClock = timer && typeof timer.deadline === "number" && typeof timer.seat === "number"
      ? {seat: timer.seat, end: localTime(timer.deadline, msg)} : null;
  }

  // t_shown: the frame after the one that drew the window's card was presented.
  function stampWindow() {
    const w = S.view && S.view.window;
    const id = w ? w.window : null;
    if (id === null || id === S.windowId) { if (id === null) S.windowId = null; return; }
    S.windowId = id;
    S.tShown = null;
    requestAnimationFrame(() => requestAnimationFrame((ts) => {
      if (S.windowId === id) {
        S.tShown = ts; S.shownFor = id;
        document.dispatchEvent(new CustomEvent("mafia:shown", {detail: {window: id, t_shown: ts}}));
      }
    }));
  }

  // Omerta: what this seat knows of its own face-down cards (PROTOCOL omerta.md
  // "What a client must remember itself"). Other games keep no memory.
  function learn(events) {
    if (S.game !== "omerta") return;
    const me = S.seat;
    for (const e of events) {
      switch (e.type) {
        case "round_started": S.memory = {}; S.drawnCard = null; break;
        case "look":
          if (e.seat === me && e.cards && e.reason !== "safe") e.slots.forEach((s, i) => { S.memory[s] = e.cards[i]; });
          break;
        case "draw": if (e.seat === me) S.drawnCard = e.card || null; break;
        case "replace": if (e.seat === me && S.drawnCard) { S.memory[e.slot] = S.drawnCard; } if (e.seat === me) S.drawnCard = null; break;
        case "discard": if (e.seat === me) S.drawnCard = null; break;
        case "safe_swap": if (e.seat === me && e.card) S.memory[e.slot] = e.card; break;
        case "swap": {
          const [a, b] = e.slots; const ca = S.memory[a], cb = S.memory[b];
          delete S.memory[a]; delete S.memory[b];
          if (cb) S.memory[a] = cb; if (ca) S.memory[b] = ca;
          break;
        }
        case "shuffle": for (const s of e.slots) delete S.memory[s]; break;
        case "snap": case "counter": if (e.success) delete S.memory[e.slot]; break;
        case "driver": if (e.success) for (const s of e.slots) delete S.memory[s]; break;
        default: break;
      }
    }
    try { localStorage.setItem(roomKey() + ".memory", JSON.stringify(S.memory)); } catch (e) { /* full */ }
  }

  // ------------------------------------------------------------------ history, races, emotes
  const HISTORY_KEPT = 40;

  function note(text) {
    if (!text) return;
    S.history.push(String(text));
    if (S.history.length > HISTORY_KEPT) S.history.splice(0, S.history.length - HISTORY_KEPT);
  }

  // One line of the history per event that tells a move (the others are the TV's).
  function eventLine(e) {
    const who = typeof e.seat === "number" ? playerName(e.seat) : "";
    switch (e.type) {
      case "round_started": return typeof e.round === "number" ? t("hist.round", {round: e.round}) : null;
      case "turn": return who ? t("web.turn_of", {name: who}) : null;
      case "omerta": return t("hist.omerta", {name: who});
      case "snap": return t(e.success ? "hist.snap_ok" : "hist.snap_wrong", {name: who});
      case "counter": return t("hist.counter", {name: who});
      case "penalty": return t("hist.penalty", {name: who});
      case "play":
        if (S.game === "family_business" && e.card) return t("hist.play", {name: who, card: fbCardName(e.card)});
        if (S.game === "mafiosi" && e.card) return t("hist.play", {name: who, card: mafCard(e.card)});
        return null;
      case "recruit": return e.card ? t("hist.recruit", {name: who, card: famCard(e.card)}) : null;
      case "eliminated": return t("hist.eliminated", {name: who});
      case "trick_won": return t("hist.trick_won", {name: who});
      default: return null;
    }
  }

  function remember(events) {
    for (const e of events) {
      if (!e || typeof e !== "object") continue;
      note(guarded("history of " + e.type, () => eventLine(e), () => null));
    }
  }

  // The photo finish: "Lena 231 ms · Marc 236 ms", the winner first.
  function raceLine(msg) {
    const runners = msg.claims.filter((c) => c && typeof c.seat === "number" && typeof c.reaction_ms === "number")
      .map((c) => t("web.race_runner", {name: playerName(c.seat), ms: Math.round(c.reaction_ms)}));
    return t("web.race", {runners: runners.join(" · ")});
  }

  function showEmote(msg) {
    const text = t("emote." + String(msg.emote));
    const line = t("web.emote_from", {name: typeof msg.seat === "number" ? playerName(msg.seat) : String(msg.name || ""), emote: text});
    note(line);
    const box = $("#toast");
    if (!box) return;
    box.textContent = line;
    box.hidden = false;
    clearTimeout(S.toast);
    S.toast = setTimeout(() => { box.hidden = true; }, 3000);
  }

  const EMOTES = ["clap", "laugh", "shock", "well_played"];

  function emoteRow() {
    if (S.spectator || S.seat === null) return "";
    return `<div class="emotes">${EMOTES.map((e) => `<button type="button" class="emote" id="emote-${e}" data-emote="${e}">${esc(t("emote." + e))}</button>`).join("")}</div>`;
  }

  function wireEmotes(root) {
    for (const b of root.querySelectorAll("button.emote")) {
      b.addEventListener("click", () => {
        request("emote", {table: S.table, emote: b.dataset.emote}).then(showEmote, (e) => {
          S.notice = t("web.error", {message: said(e)});
          render();
        });
      });
    }
  }

  // ------------------------------------------------------------------ hint
  // At a table whose host allows hints (Table.options.hints), a seated player asks the
  // server "what would a strong player do?" (`hint`, answered to this phone only); the
  // suggested action's button is outlined and the suggestion said until the table moves on.
  function hintsAllowed() {
    const o = S.summary && S.summary.options;
    return !!(S.summary && (S.summary.hints === true || (o && o.hints === true))) && !S.spectator && S.seat !== null && !S.result;
  }

  function hintButton() {
    if (!hintsAllowed() || !S.legal.length) return "";
    return `<button type="button" class="hint" id="hint"${S.hinting ? " disabled" : ""}>${esc(t("web.hint"))}</button>`;
  }

  // An action as one string whatever the order of its fields.
  function canon(a) {
    return JSON.stringify(Object.keys(a).sort().reduce((o, k) => { o[k] = a[k]; return o; }, {}));
  }

  function wireHint(root) {
    const b = root.querySelector("#hint");
    if (b) {
      b.addEventListener("click", () => {
        S.hinting = true;
        b.disabled = true;
        request("hint", {table: S.table}).then((reply) => {
          S.hinting = false;
          const a = reply && reply.action;
          if (a && typeof a === "object" && S.legal.some((x) => canon(x) === canon(a))) {
            S.hint = {step: S.step, key: canon(a),
                      text: t("web.hint_says", {what: guarded("label of the hint", () => label(a), () => String(a.type))})};
          }
          render();
        }, (e) => {
          S.hinting = false;
          S.notice = t("web.error", {message: said(e)});
          render();
        });
      });
    }
    if (!S.hint) return;
    for (const button of root.querySelectorAll("button[data-action]")) {
      if (canon(JSON.parse(button.dataset.action)) === S.hint.key) {
        button.classList.add("hinted");
        if (button.scrollIntoView) button.scrollIntoView({block: "nearest"});
      }
    }
  }

  function hintLine() {
    return S.hint ? `<p class="hintline" id="hintline">${esc(S.hint.text)}</p>` : "";
  }

  function historyHtml() {
    if (!S.history.length) return "";
    const items = S.history.slice().reverse().map((line) => `<li>${esc(line)}</li>`).join("");  // the latest first
    return `<details id="history" class="history"${S.historyOpen ? " open" : ""}><summary>${esc(t("web.history"))}</summary><ul>${items}</ul></details>`;
  }

  // ------------------------------------------------------------------ screen awake
  // Wake Lock (where the browser has it): the screen stays on while a match runs and the
  // page is seen; a hidden page loses its lock (the browser releases it) and asks again
  // when seen.
  function keepAwake() {
    if (!S.playing || S.wakeLock || document.visibilityState !== "visible") return;
    if (!navigator.wakeLock || typeof navigator.wakeLock.request !== "function") return;
    S.wakeLock = "asking";
    navigator.wakeLock.request("screen").then((lock) => {
      S.wakeLock = lock;
      lock.addEventListener("release", () => { if (S.wakeLock === lock) S.wakeLock = null; });
      if (!S.playing) releaseWakeLock();
    }, () => { S.wakeLock = null; });
  }

  function releaseWakeLock() {
    const lock = S.wakeLock;
    S.wakeLock = null;
    if (lock && typeof lock.release === "function") lock.release().catch(() => {});
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") keepAwake(); else releaseWakeLock();
  });
  // The first tap: vibrations are allowed from now on, and a lock refused before it may
  // be granted now.
  document.addEventListener("pointerdown", () => { S.tapped = true; keepAwake(); }, true);

  // ------------------------------------------------------------------ countdowns
  // Whole seconds (rounded up) until a server time, on this phone's clock; null before
  // the first clock sync.
  function secondsTo(serverMs) {
    if (S.offset === null) return null;
    return Math.max(0, Math.ceil((serverMs - S.offset - performance.now()) / 1000));
  }

  function countdownLines() {
    const lines = [];
    if (S.pause) {
      const n = S.pause.local !== null ? Math.max(0, Math.ceil((S.pause.local - performance.now()) / 1000))
        : S.pause.until !== null ? secondsTo(S.pause.until) : null;
      lines.push(n !== null ? t("web.paused_restart", {n: n}) : t("web.paused", {reason: said(S.pause.why)}));
    }
    for (const s of S.seats || []) {
      if (!s || !s.away || s.bot || typeof s.stand_in_at !== "number" || s.seat === S.seat) continue;
      const n = secondsTo(s.stand_in_at);
      if (n) lines.push(t("web.away_countdown", {name: s.name || t("web.seat", {n: s.seat + 1}), n: n}));
    }
    return lines;
  }

  function clockText(end) {
    return t("web.seconds", {n: Math.max(0, Math.ceil((end - performance.now()) / 1000))});
  }

  function tick() {
    const win = $("#wincount");
    if (win && S.winClock) {
      const left = Math.max(0, S.winClock.end - performance.now());
      const text = clockText(S.winClock.end);
      const label = win.querySelector("b");
      if (label && label.textContent !== text) label.textContent = text;
      const fill = win.querySelector("i");
      if (fill) fill.style.width = Math.min(100, 100 * left / Math.max(1, S.winClock.total)).toFixed(1) + "%";
    }
    const turn = $("#turncount");
    if (turn) {
      const text = S.turnClock ? clockText(S.turnClock.end) : "";
      if (turn.textContent !== text) turn.textContent = text;
    }
    const box = $("#countdown");
    if (!box) return;
    const lines = S.token && !S.takenOver ? countdownLines() : [];
    const text = lines.join("\n");
    if (box.textContent !== text) box.textContent = text;
    box.hidden = !lines.length;
  }
  setInterval(tick, 200);

  // ------------------------------------------------------------------ names
  function seatName(p) {
    if (p === S.seat) return t("web.you");
    const s = (S.seats || [])[p];
    return s && s.name ? s.name : t("web.seat", {n: p + 1});
  }

  // A seat's player by name, this phone's own too: the history and the photo finish are
  // sentences about people ("Lena plays 7♣"), where "you" would not agree with the verb.
  function playerName(p) {
    if (p === S.seat && S.name) return S.name;
    const s = (S.seats || [])[p];
    return s && s.name ? s.name : t("web.seat", {n: p + 1});
  }

  function omCard(c) {
    if (!c) return t("web.unknown");
    return c.kind === "bottle" ? t("om.bottle", {value: c.value}) : t("char." + c.name);
  }

  function omCardHtml(c, extra) {
    if (!c) return `<div class="card down">${esc(t("web.unknown"))}${extra || ""}</div>`;
    if (c.kind === "bottle") return `<div class="card bottle"><b>${c.value}</b><small>${esc(t("om.bottle", {value: c.value}))}</small>${extra || ""}</div>`;
    return `<div class="card character"><b>${esc(t("char." + c.name))}</b><small>${c.points}</small>${extra || ""}</div>`;
  }

  function slotOwner(slot) {
    for (const p of S.view.players) {
      const i = p.slots.findIndex((x) => x.slot === slot);
      if (i >= 0) return {seat: p.seat, n: i + 1};
    }
    return {seat: null, n: "?"};
  }

  function slotName(slot) {
    const o = slotOwner(slot);
    return o.seat === S.seat ? t("web.your_card", {n: o.n}) : t("web.their_card", {name: seatName(o.seat), n: o.n});
  }

  function fbCardName(c) { return c ? t("fb.card." + c.code) : "?"; }

  function fbMobsters() {
    const map = {};
    const v = S.view;
    const add = (m) => { if (m && m.kind === "mobster") map[m.id] = m; };
    (v.players || []).forEach((p) => (p.front || []).forEach(add));
    (v.hit_list || []).forEach(add); (v.cemetery || []).forEach(add);
    return map;
  }

  function fbMob(id, mobs) {
    const m = mobs[id];
    return m ? t("fb.mob", {name: m.name, owner: seatName(m.gang)}) : "#" + id;
  }

  function famCard(c) {
    if (!c) return "?";
    return t("family." + c.family) + " " + c.value;
  }

  function famCards() {
    const map = {};
    const v = S.view;
    (v.street || []).forEach((c) => { map[c.id] = c; });
    for (const p of v.players || []) { (p.hand || []).forEach((c) => { map[c.id] = c; }); (p.gang || []).forEach((c) => { map[c.id] = c; }); }
    return map;
  }

  const SUITS = {hearts: "♥", diamonds: "♦", spades: "♠", clubs: "♣"};
  function mafCard(c) {
    if (!c) return "?";
    if (c.rank === "joker") return "🃏";
    return c.rank + SUITS[c.suit];
  }

  function mafCardHtml(c, cls, attrs) {
    const red = c.suit === "hearts" || c.suit === "diamonds";
    const label = c.rank === "joker" ? "Joker" : c.rank;
    const suit = c.rank === "joker" ? "★" : SUITS[c.suit];
    return `<button type="button" class="pcard ${red ? "red" : "black"} ${cls || ""}" ${attrs || ""}><b>${esc(label)}</b><span>${suit}</span></button>`;
  }

  // ------------------------------------------------------------------ action labels
  function label(a) {
    const g = S.game, v = S.view;
    if (g === "omerta") {
      switch (a.type) {
        case "peek": return t("om.peek", {a: slotOwner(a.slots[0]).n, b: slotOwner(a.slots[1]).n});
        case "take_discard": return t("om.take_discard", {card: omCard(v.discard[v.discard.length - 1])});
        case "replace": case "snap": case "mole": case "hitwoman": return t("om." + a.type, {n: slotOwner(a.slot).n});
        case "safe_swap": return t("om.safe_swap", {n: slotOwner(a.slot).n, index: a.index + 1});
        case "henchman": return t("om.henchman", {a: slotName(a.slots[0]), b: slotName(a.slots[1])});
        case "lady": case "mamma": return t("om." + a.type, {target: seatName(a.target)});
        case "snitch": return t("om.snitch", {a: seatName(a.recipients[0]), b: seatName(a.recipients[1])});
        case "driver": return t("om.driver", {slots: a.slots.map(slotName).join(", ")});
        case "police_patrol": return t("om.police_patrol", {slot: slotName(a.slot)});
        default: return t("om." + a.type);
      }
    }
    if (g === "family_business") {
      const mobs = fbMobsters();
      switch (a.type) {
        case "void": return t("fb.void");
        case "contract": case "pay_off": return t("fb." + a.type, {target: seatName(a.target)});
        case "hit": return t("fb.hit", {victim: fbMob(a.victim, mobs)});
        case "rescue": return t("fb.rescue", {mobster: fbMob(a.mobster, mobs)});
        case "substitution": return t("fb.substitution", {mobster: fbMob(a.mobster, mobs), other: fbMob(a.other, mobs)});
        case "turncoat": return t("fb.turncoat", {victim: fbMob(a.victim, mobs), revived: fbMob(a.revived, mobs)});
        case "place": case "order": return t("fb." + a.type, {mobster: fbMob(a.mobster, mobs)});
        case "counter": return t("fb.counter", {card: fbCardName((v.hand || []).find((c) => c.id === a.card))});
        case "no_counter": return t("fb.no_counter");
        default: return t("fb.play");
      }
    }
    if (g === "famiglia") {
      const cards = famCards();
      const n = (id) => famCard(cards[id]);
      switch (a.type) {
        case "renew": case "accountant": case "take_free": return t("fam." + a.type, {card: n(a.card)});
        case "swap": return t("fam.swap", {gang: n(a.from_gang), hand: n(a.from_hand)});
        case "brute": return t("fam.brute", {card: n(a.card), target: n(a.target), amount: a.amount});
        case "take_pair": return t("fam.take_pair", {card: n(a.card), gang: n(a.to_gang), keep: n(a.keep)});
        case "pass": return t("fam.pass");
        default: return a.type;
      }
    }
    if (g === "mafiosi") {  // the card itself ("7♥"): the page shows cards, not words
      const c = a.type !== "keep_point_card" ? (v.hand || []).find((x) => x.id === a.card) : null;
      return c ? mafCard(c) : t("maf.keep");
    }
    return a.type;
  }

  function isClaim(a) {
    const w = S.view && S.view.window;
    return !!(w && w.claim_types && w.claim_types.indexOf(a.type) >= 0);
  }

  // `inner`: the button's HTML, already escaped (else the escaped label or `text`).
  function actionButton(a, i, text, cls, inner) {
    const claim = isClaim(a);
    const shown = inner !== undefined ? inner : esc(text === undefined ? guarded("label of " + a.type, () => label(a), () => a.type) : text);
    return `<button type="button" class="act big ${claim ? "claim" : ""} ${cls || ""}" id="act-${i}" data-i="${i}" data-type="${esc(a.type)}" data-action="${esc(JSON.stringify(a))}"${claim ? ' data-claim="1"' : ""}>${shown}</button>`;
  }

  // ------------------------------------------------------------------ sending
  function send(a, tPress) {
    if (S.busy || !S.ws) return;
    const fields = {table: S.table, action: a};
    if (isClaim(a)) {
      fields.t_press = tPress;
      if (S.tShown !== null && S.shownFor === S.view.window.window) fields.t_shown = S.tShown;
    }
    S.busy = true;
    S.notice = "";
    for (const b of document.querySelectorAll("button.act")) b.disabled = true;
    request("action", fields).then(() => { S.busy = false; }, () => { S.busy = false; render(); });
  }
  W.__mafiaSend = send;

  function wireActions(root) {
    for (const b of root.querySelectorAll("button[data-action]")) {
      const a = JSON.parse(b.dataset.action);
      if (b.dataset.claim) {
        const fire = (ev) => { ev.preventDefault(); send(a, ev.timeStamp); };
        b.addEventListener("pointerdown", fire);
        if (!W.PointerEvent) b.addEventListener("touchstart", fire, {passive: false});
      } else {
        b.addEventListener("click", () => send(a, performance.now()));
      }
    }
  }

  // ------------------------------------------------------------------ rendering
  function statusLine() {
    const v = S.view;
    // a timed turn counts down beside the status (tick fills #turncount)
    const clock = S.turnClock && !S.result ? `<span id="turncount" class="turncount">${esc(clockText(S.turnClock.end))}</span>` : "";
    if (S.result || (v && (v.phase === "over"))) return `<div class="status over">${esc(t("web.over"))}</div>`;
    if (S.legal.length) return `<div class="status mine">${esc(v && v.turn === S.seat && !v.window ? t("web.your_turn") : t("web.act_now"))}${clock}</div>`;
    if (v && typeof v.turn === "number" && v.turn >= 0 && v.turn !== S.seat && !v.window) return `<div class="status">${esc(t("web.turn_of", {name: seatName(v.turn)}))}${clock}</div>`;
    return `<div class="status">${esc(t(S.spectator ? "web.watching" : "web.wait_others"))}${clock}</div>`;
  }

  // The end of a match: a podium (the winners first, then the others by how close their
  // score came to the winners', whichever way the game counts) and Play again.
  function podium(r) {
    const scores = Array.isArray(r.scores) ? r.scores : [];
    const winners = Array.isArray(r.winners) ? r.winners.filter((w) => typeof w === "number") : [];
    const best = winners.length && typeof scores[winners[0]] === "number" ? scores[winners[0]] : null;
    const seats = scores.map((s, i) => i);
    seats.sort((a, b) => {
      const wa = winners.indexOf(a) >= 0 ? 0 : 1, wb = winners.indexOf(b) >= 0 ? 0 : 1;
      if (wa !== wb) return wa - wb;
      if (best === null || typeof scores[a] !== "number" || typeof scores[b] !== "number") return a - b;
      return Math.abs(scores[a] - best) - Math.abs(scores[b] - best) || a - b;
    });
    let rank = 0, prev = null;
    const rows = seats.map((seat, i) => {
      const key = (winners.indexOf(seat) >= 0 ? "w" : "") + String(scores[seat]);
      if (key !== prev) { rank = i + 1; prev = key; }
      return `<li class="place p${Math.min(rank, 4)}${seat === S.seat ? " me" : ""}"><span class="medal">${esc(String(rank))}</span><span class="pname">${esc(seatName(seat))}</span><b>${esc(String(scores[seat]))}</b></li>`;
    }).join("");
    return `<ol class="podium">${rows}</ol>`;
  }

  function playAgain() {
    if (S.spectator || S.seat === null) return "";
    const tb = S.summary && S.summary.id === S.table ? S.summary : null;
    const asked = tb && Array.isArray(tb.rematch) ? tb.rematch : [];
    const mine = S.rematchAsked || asked.indexOf(S.seat) >= 0;
    const others = asked.filter((s) => s !== S.seat).map(seatName);
    let h = `<button id="play-again" class="big" type="button"${mine ? " disabled" : ""}>${esc(t(mine ? "web.play_again_asked" : "web.play_again"))}</button>`;
    if (others.length) h += `<p class="info center">${esc(t("web.play_again_others", {names: others.join(", ")}))}</p>`;
    return h;
  }

  function resultHtml() {
    const r = S.result;
    if (!r) return "";
    const names = (r.winners || []).map(seatName).join(", ");
    return `<section class="result"><p>${esc(t("web.winners", {names: names}))}</p>` +
      guarded("podium", () => podium(r), () => `<p>${esc(t("web.scores", {scores: (r.scores || []).join(" · ")}))}</p>`) +
      playAgain() + `</section>`;
  }

  function wireResult(root) {
    const b = root.querySelector("#play-again");
    if (!b) return;
    b.addEventListener("click", () => {
      b.disabled = true;
      S.rematchAsked = true;
      request("rematch", {table: S.table}).then((reply) => {
        if (reply && reply.table) S.summary = reply.table;
        render();
      }, (e) => {
        S.rematchAsked = false;
        S.notice = t("web.error", {message: said(e)});
        render();
      });
    });
  }

  function raceHtml() {
    if (!S.race) return "";
    return `<p id="race" class="race">${esc(raceLine(S.race))}</p>`;
  }

  const VIEWS = {omerta: (v) => renderOmerta(v), family_business: (v) => renderFB(v),
                 famiglia: (v) => renderFamiglia(v), mafiosi: (v) => renderMafiosi(v)};
  const PUBLIC_VIEWS = {omerta: (v) => watchOmerta(v), family_business: (v) => watchFB(v),
                        famiglia: (v) => watchFamiglia(v), mafiosi: (v) => watchMafiosi(v)};
  W.__renderErrors = [];

  // `draw()`, or `fallback()` when it throws: one view that cannot be drawn never takes
  // the actions (and the rest of the screen) with it.
  function guarded(what, draw, fallback) {
    try {
      return draw();
    } catch (e) {
      W.__renderErrors.push(what + ": " + (e && e.message ? e.message : String(e)));
      try { console.error("mafia: cannot draw the " + what, e); } catch (_) { /* no console */ }
      return fallback();
    }
  }

  // The actions as plain buttons, for a view that could not be drawn.
  function fallbackView() {
    const rest = S.legal.filter((a) => !inBar(a));
    let h = `<p class="notice">${esc(t("web.render_error"))}</p>`;
    if (rest.length) h += `<div class="actions">${actionsList(rest)}</div>`;
    return h;
  }

  // A reaction window's claim and pass actions of this seat: in the pinned bar.
  function inBar(a) {
    const w = S.view && S.view.window;
    return !!w && (isClaim(a) || a.type === w.pass_type);
  }

  function claimBar() {
    const acts = S.legal.filter(inBar);
    if (!acts.length) return "";
    const claims = acts.filter(isClaim), passes = acts.filter((a) => !isClaim(a));
    const cols = claims.length > 6 ? 4 : claims.length > 2 ? 3 : Math.max(1, claims.length);
    const claimButtons = claims.map((a) => actionButton(a, S.legal.indexOf(a), undefined, "", barInner(a))).join("");
    // the window's time left, over the whole bar (tick counts it down)
    const clock = S.winClock ? `<div id="wincount" class="wincount"><b>${esc(clockText(S.winClock.end))}</b><i></i></div>` : "";
    return `<div id="claimbar" class="claimbar cols-${cols}">${clock}${claimButtons}${actionsList(passes)}</div>`;
  }

  // A snap in the bar names the card by its place and by what this seat remembers of it,
  // so that the player need not scroll up to his cards in the race.
  function barInner(a) {
    if (S.game !== "omerta" || a.type !== "snap") return undefined;
    const known = S.memory[a.slot];
    return `${esc(t("om.snap_word"))}<span>${esc(t("web.card_n", {n: slotOwner(a.slot).n}))}</span><small>${esc(known ? omCard(known) : t("om.unknown_card"))}</small>`;
  }

  function render() {
    if (!S.playing || !S.view) return;
    const v = S.view;
    $("#who").textContent = whoText();
    const watching = S.spectator || S.seat === null;
    const view = (watching ? PUBLIC_VIEWS : VIEWS)[S.game];
    const body = guarded(S.game + " view", () => (view ? view(v) : ""), fallbackView);
    const head = guarded("header", () => `<div class="gamebar"><b>${esc(t("game." + S.game))}</b>${v.round ? " · " + esc(t("web.round", {round: v.round, rounds: v.rounds})) : ""}</div>` + statusLine(), () => "");
    const bar = guarded("claim bar", claimBar, () => `<div id="claimbar" class="claimbar">${S.legal.filter(inBar).map((a) => actionButton(a, S.legal.indexOf(a), a.type)).join("")}</div>`);
    if (S.hint && (S.hint.step !== S.step || !S.legal.some((x) => canon(x) === S.hint.key))) S.hint = null;
    const screen = $("#screen");
    const open = screen.querySelector("#history");
    if (open) S.historyOpen = open.open;
    screen.innerHTML = head + guarded("race", raceHtml, () => "") + (S.notice ? `<p class="notice">${esc(S.notice)}</p>` : "") +
      (hintLine() || hintButton()) + (S.result ? guarded("result", resultHtml, () => "") + body : body) +
      `<div class="tools">${emoteRow()}${guarded("history", historyHtml, () => "")}${leaveButton()}</div>` + bar;
    screen.dataset.step = String(S.step);
    screen.dataset.legal = String(S.legal.length);
    padForClaimBar();
    wireActions(screen);
    wireHint(screen);
    wireEmotes(screen);
    wireResult(screen);
    wireLeave(screen);
    tick();
  }

  // The page scrolls above the pinned claim bar: nothing hides under it.
  function padForClaimBar() {
    const pinned = $("#claimbar");
    document.body.style.paddingBottom = pinned ? (pinned.offsetHeight + 16) + "px" : "";
  }
  window.addEventListener("resize", padForClaimBar);

  function actionsList(list, offset) {
    return list.map((a) => actionButton(a, S.legal.indexOf(a))).join("");
  }

  function renderOmerta(v) {
    const me = v.players[S.seat];
    let h = "";
    const w = v.window;
    if (w && w.kind === "snap") h += `<div class="prompt hot side"><span>${esc(t("om.snap_prompt", {value: w.value}))}</span>${omCardHtml(v.discard[v.discard.length - 1])}</div>`;
    if (w && w.kind === "hitwoman" && (w.targets || []).indexOf(S.seat) >= 0) h += `<div class="prompt hot">${esc(t("om.hitwoman_prompt", {name: seatName(w.attacker), power: t("char." + w.attack.type)}))}</div>`;
    if (v.phase === "peek" && S.legal.length) h += `<div class="prompt">${esc(t("om.peek_prompt"))}</div>`;
    // own cards, from memory
    h += `<h3>${esc(t("om.your_cards"))}</h3><div class="row cards">`;
    me.slots.forEach((s, i) => {
      const known = S.memory[s.slot];
      const extra = `<i class="n">${i + 1}</i>${s.patrol !== null ? '<i class="patrol">🚓</i>' : ""}`;
      h += omCardHtml(known || null, extra).replace('class="card', `data-slot="${s.slot}" class="card`);
    });
    h += "</div>";
    if (v.drawn && v.turn === S.seat && v.drawn.card) h += `<h3>${esc(t("om.drawn"))}</h3><div class="row cards">${omCardHtml(v.drawn.card)}</div>`;
    if (v.safe_cards) h += `<h3>${esc(t("om.safe"))}</h3><div class="row cards">${v.safe_cards.map((c) => omCardHtml(c)).join("")}</div>`;
    if (v.discard.length && !(w && w.kind === "snap")) h += `<h3>${esc(t("om.discard_top"))}</h3><div class="row cards">${omCardHtml(v.discard[v.discard.length - 1])}</div>`;
    const others = S.legal.filter((a) => !inBar(a));
    if (others.length) h += `<div class="actions">${actionsList(others)}</div>`;
    if (!S.legal.length && !S.result) h += `<p class="idle">${esc(t("web.nothing"))}</p>`;
    return h;
  }

  function renderFB(v) {
    let h = "";
    const w = v.window;
    if (w && w.kind === "counter" && w.eligible.indexOf(S.seat) >= 0) {
      const against = w.target !== null && w.target !== undefined ? t("fb.against", {target: seatName(w.target)}) : "";
      h += `<div class="prompt hot">${esc(t("fb.counter_prompt", {name: seatName(w.attacker), card: fbCardName(w.card), against: against}))}`;
      if (w.card) h += `<small class="effect">${esc(t("fb.effect." + w.card.code))}</small>`;
      h += "</div>";
    }
    const list = (v.hit_list || []).map((m) => m.name).join(", ") || t("fb.empty");
    h += `<p class="info">${esc(t("fb.hit_list", {names: list}))}</p>`;
    const byCard = {}, loose = [];
    for (const a of S.legal) {
      if (a.card !== undefined && a.type !== "counter") (byCard[a.card] = byCard[a.card] || []).push(a); else loose.push(a);
    }
    const choices = loose.filter((a) => !inBar(a));
    if (choices.length) h += `<h3>${esc(t("fb.choose"))}</h3><div class="actions">${actionsList(choices)}</div>`;
    h += `<h3>${esc(t("fb.your_hand"))}</h3><div class="hand">`;
    for (const c of v.hand || []) {
      const acts = byCard[c.id] || [];
      h += `<div class="fbcard cat-${esc(c.category)}${acts.length ? " playable" : ""}" data-card="${c.id}">
        <div class="fbname"><b>${esc(fbCardName(c))}</b><small>${esc(t("fb.cat." + c.category))}</small></div>
        <p class="effect">${esc(t("fb.effect." + c.code))}</p>
        ${acts.length ? `<div class="actions small">${actionsList(acts)}</div>` : ""}</div>`;
    }
    h += "</div>";
    if (!S.legal.length && !S.result) h += `<p class="idle">${esc(t("web.nothing"))}</p>`;
    return h;
  }

  function renderFamiglia(v) {
    const me = v.players[S.seat];
    let h = `<h3>${esc(t("fam.street"))}</h3><div class="row cards">${(v.street || []).map(famHtml).join("")}</div>`;
    h += `<h3>${esc(t("web.hand"))}</h3><div class="row cards">${(me.hand || []).map(famHtml).join("")}</div>`;
    h += `<h3>${esc(t("fam.gang"))}</h3><div class="row cards">${(me.gang || []).map(famHtml).join("")}</div>`;
    h += `<div class="actions">${actionsList(S.legal)}</div>`;
    if (!S.legal.length && !S.result) h += `<p class="idle">${esc(t("web.nothing"))}</p>`;
    return h;
  }

  // ------------------------------------------------------------------ watching
  // A spectator's screen: the public view only (the server sends nothing else), each
  // player's name with what everybody sees of him, and the public cards of the game.
  function playersList(v, extra) {
    const rows = (Array.isArray(v.players) ? v.players : []).map((p) => {
      const turn = p.seat === v.turn ? " turn" : "";
      return `<li class="pl${turn}"><b>${esc(seatName(p.seat))}</b><span>${esc(extra(p))}</span></li>`;
    }).join("");
    return `<h3>${esc(t("web.players"))}</h3><ul class="players">${rows}</ul>`;
  }

  function count(n) { return typeof n === "number" ? t("web.cards", {n: n}) : ""; }

  function watchOmerta(v) {
    let h = "";
    const w = v.window;
    if (w && w.kind === "snap") h += `<div class="prompt hot side"><span>${esc(t("om.snap_prompt", {value: w.value}))}</span>${omCardHtml(v.discard[v.discard.length - 1])}</div>`;
    h += playersList(v, (p) => count((p.slots || []).length));
    if ((v.discard || []).length && !(w && w.kind === "snap")) h += `<h3>${esc(t("om.discard_top"))}</h3><div class="row cards">${omCardHtml(v.discard[v.discard.length - 1])}</div>`;
    return h;
  }

  function watchFB(v) {
    const list = (v.hit_list || []).map((m) => m.name).join(", ") || t("fb.empty");
    let h = `<p class="info">${esc(t("fb.hit_list", {names: list}))}</p>`;
    h += playersList(v, (p) => p.in_game === false ? t("web.out") : t("web.alive", {n: Array.isArray(p.front) ? p.front.length : "?"}));
    return h;
  }

  function watchFamiglia(v) {
    let h = `<h3>${esc(t("fam.street"))}</h3><div class="row cards">${(v.street || []).map(famHtml).join("")}</div>`;
    h += playersList(v, (p) => count(p.hand_count) + (typeof p.score === "number" ? " · " + t("web.score", {n: p.score}) : ""));
    for (const p of v.players || []) {
      if ((p.gang || []).length) h += `<h3>${esc(t("web.gang_of", {name: seatName(p.seat)}))}</h3><div class="row cards">${p.gang.map(famHtml).join("")}</div>`;
    }
    return h;
  }

  function watchMafiosi(v) {
    let h = "";
    if ((v.trick || []).length) h += `<h3>${esc(t("maf.trick"))}</h3><div class="row">${v.trick.map((x) => mafCardHtml(x.card, "small", "disabled") + `<span class="who">${esc(seatName(x.seat))}</span>`).join("")}</div>`;
    h += playersList(v, (p) => count(p.hand_count));
    return h;
  }

  function famHtml(c) {
    const low = c.effective !== undefined && c.effective !== c.value ? ` → ${c.effective}` : "";
    return `<div class="card fam fam-${esc(c.family)}"><b>${c.value}${low}</b><small>${esc(t("family." + c.family))}</small><i class="vp">${c.vp} ${esc(t("family.vp"))}</i></div>`;
  }

  function renderMafiosi(v) {
    const me = v.players[S.seat];
    let h = "";
    const prompt = v.phase === "bouncer" ? "maf.bouncer_prompt" : v.phase === "point" ? "maf.point_prompt" : v.phase === "play" ? "maf.play_prompt" : null;
    if (prompt && S.legal.length) h += `<div class="prompt">${esc(t(prompt))}</div>`;
    if (me.bouncer) h += `<p class="info">${esc(t("maf.bouncer", {card: mafCard(me.bouncer)}))}</p>`;
    if ((v.trick || []).length) h += `<h3>${esc(t("maf.trick"))}</h3><div class="row">${v.trick.map((x) => mafCardHtml(x.card, "small", "disabled") + `<span class="who">${esc(seatName(x.seat))}</span>`).join("")}</div>`;
    const byCard = {};
    S.legal.forEach((a) => { byCard[a.card] = a; });
    h += `<h3>${esc(t("web.hand"))}</h3><div class="hand maf">`;
    for (const c of v.hand || []) {
      const a = byCard[c.id];
      if (a && a.type !== "keep_point_card") {
        const i = S.legal.indexOf(a);
        h += mafCardHtml(c, "act raised", `id="act-${i}" data-i="${i}" data-type="${a.type}" data-action='${esc(JSON.stringify(a))}' title="${esc(c.reason || "")}"`);
      } else {
        h += mafCardHtml(c, "", `disabled title="${esc(c.reason || "")}"`);
      }
    }
    h += "</div>";
    const keeps = S.legal.filter((a) => a.type === "keep_point_card");
    if (keeps.length) {
      const known = {};
      (me.won || []).forEach((c) => { known[c.id] = c; });
      if (me.bouncer) known[me.bouncer.id] = me.bouncer;
      (v.hand || []).forEach((c) => { known[c.id] = c; });
      h += `<h3>${esc(t("maf.won"))}</h3><div class="hand maf">`;
      for (const a of keeps) {
        const i = S.legal.indexOf(a), c = known[a.card];
        h += c ? mafCardHtml(c, "act raised", `id="act-${i}" data-i="${i}" data-type="${a.type}" data-action='${esc(JSON.stringify(a))}'`) : actionButton(a, i);
      }
      h += "</div>";
    }
    if (!S.legal.length && !S.result) h += `<p class="idle">${esc(t("web.nothing"))}</p>`;
    return h;
  }

  // ------------------------------------------------------------------ start
  async function start() {
    S.lang = pickLang();
    await loadStrings();
    const langButton = $("#lang");
    langButton.textContent = t("web.language");
    langButton.addEventListener("click", async () => {
      S.lang = S.lang === "fr" ? "en" : "fr";
      localStorage.setItem("mafia.lang", S.lang);
      await loadStrings();
      langButton.textContent = t("web.language");
      if (S.takenOver) showTakenOver(); else if (S.playing) render(); else if (S.token) renderWaiting(); else showJoin();
    });
    $("#title").textContent = t("web.title");
    S.name = localStorage.getItem("mafia.name") || "";
    if (params.get("name")) S.name = params.get("name");
    S.room = (params.get("room") || "").toUpperCase() || null;
    if (S.room) {
      const mine = storedSeat();
      if (mine && mine.token) {
        try {
          const info = await lookUp(S.room);
          if (info.table.id === mine.table && mine.taken) {
            S.summary = info.table; S.token = mine.token; S.table = mine.table; S.seat = mine.seat;
            S.name = S.name || mine.name || ""; S.closing = true; S.takenOver = true;
            showTakenOver();
            return;
          }
          if (info.table.id === mine.table) { S.summary = info.table; await resumeWith(mine); return; }
        } catch (e) { /* the room is gone */ }
        localStorage.removeItem(roomKey());
      }
    }
    showJoin();
  }

  start();
})();
