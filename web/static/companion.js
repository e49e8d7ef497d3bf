/* The shell every game page builds on: texts, JSON calls with the CSRF token and the
   expected version, the live stream, toasts, confirmation, wake lock, and the host
   tools. No framework; everything is served by the table server (works offline). */
"use strict";

const Companion = (() => {
  const texts = JSON.parse(document.getElementById("texts").textContent);
  const csrf = document.querySelector('meta[name="csrf-token"]').content;

  /** The text for a key, with {fields} filled in. */
  function t(key, fields = {}) {
    const text = texts[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
  }

  /** Build an element; children may be strings (added as text, never as HTML). */
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "class") node.className = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  class ApiError extends Error {
    constructor(message, status, reason) { super(message); this.status = status; this.reason = reason; }
  }

  /** Call the JSON API; resolves to the answer or throws an ApiError with one sentence. */
  async function api(method, path, body) {
    const options = { method, headers: { "Accept": "application/json" }, credentials: "same-origin" };
    if (method !== "GET") {
      options.headers["Content-Type"] = "application/json";
      options.headers["X-CSRF-Token"] = csrf;
      options.body = JSON.stringify(body ?? {});
    }
    return send(path, options);
  }

  /** Send a file (a photo) as multipart form data. */
  async function upload(path, fields) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return send(path, { method: "POST", body: form, credentials: "same-origin",
                        headers: { "Accept": "application/json", "X-CSRF-Token": csrf } });
  }

  async function send(path, options) {
    let response;
    try {
      response = await fetch(path, options);
    } catch (error) {
      throw new ApiError(t("error.network"), 0, "network");
    }
    let answer = null;
    try { answer = await response.json(); } catch (error) { answer = null; }
    if (!response.ok) {
      throw new ApiError(answer?.error ?? t("error.500"), response.status, answer?.reason ?? "http");
    }
    return answer;
  }

  /** Say something briefly. An error stays until the user taps anywhere (to dismiss it
      or to act again), so it is read, and never lingers over the screens that follow. */
  function toast(message, kind = "info", ms = 4000) {
    const text = String(message);
    const box = el("div", { class: `toast ${kind}` }, text.charAt(0).toUpperCase() + text.slice(1));
    document.getElementById("toasts").append(box);
    if (kind !== "error") setTimeout(() => box.remove(), ms);
  }

  // Capture phase: old errors go before the tap's own handler can raise a new one.
  for (const kind of ["click", "change"]) {
    document.addEventListener(kind, () => {
      for (const box of document.querySelectorAll("#toasts .toast.error")) box.remove();
    }, true);
  }

  /** Ask a yes/no question in the page's own dialog; resolves to true for yes. */
  function confirm(message) {
    const dialog = document.getElementById("confirm");
    document.getElementById("confirm-text").textContent = message;
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
      dialog.showModal();
    });
  }

  /**
   * Keep the screen on while the page is shown, where the browser allows it. The Wake
   * Lock API needs HTTPS, which a table server on the LAN does not have; there a tiny
   * silent video, looping out of sight once the player has touched the page, keeps
   * most phones awake.
   */
  function keepAwake() {
    const again = (take) => document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") take();
    });
    if ("wakeLock" in navigator) {
      const take = () => navigator.wakeLock.request("screen").catch(() => {});
      take();
      again(take);
      return;
    }
    const video = el("video", { class: "awake", src: "/static/awake.webm", loop: true, playsinline: true,
                                muted: true, "aria-hidden": "true" });
    video.muted = true;
    document.body.append(video);
    const play = () => video.play().catch(() => {});
    document.addEventListener("pointerdown", play, { once: true, capture: true });
    again(play);
  }

  /** A short beep and a buzz, where the phone allows. Browsers allow sound only after
      the player touched the page, so the first touch anywhere unlocks it for cues that
      arrive later from the live stream. */
  let audio = null;
  function unlockSound() {
    try {
      audio = audio ?? new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (error) { /* no sound on this device */ }
  }
  document.addEventListener("pointerdown", unlockSound, { once: true, capture: true });

  function beep(frequency = 660, ms = 180) {
    try {
      unlockSound();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = frequency;
      gain.gain.value = 0.25;
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + ms / 1000);
    } catch (error) { /* no sound on this device */ }
    if (navigator.vibrate) navigator.vibrate(ms);
  }

  function setLink(ok) {
    const dot = document.getElementById("link-state");
    if (dot) dot.dataset.state = ok ? "ok" : "lost";
  }

  /**
   * One game as a page sees it. Keeps the latest game JSON, refetches it whenever the
   * live stream says the version (or the seats) changed, and posts events naming the
   * version they were made on. `onChange(game)` renders the page.
   */
  class Game {
    constructor(id, onChange) {
      this.id = id;
      this.onChange = onChange;
      this.data = null;
      this.busy = false;
      this.seen = null;
      this.onCue = null;
    }

    get base() { return `/api/games/${encodeURIComponent(this.id)}`; }

    async refresh() {
      try {
        this.data = await api("GET", this.base);
        setLink(true);
        this.onChange(this.data);
      } catch (error) {
        if (error.reason === "network") setLink(false); else toast(error.message, "error");
      }
    }

    /**
     * Follow the live stream. A stream cut silently (a phone leaving the Wi-Fi) stops
     * sending heartbeats, so after 35 s of silence, and whenever the browser says it is
     * online again or the page is shown again, the game is refetched and the stream
     * reopened. While the stream is down the page polls every 5 s.
     *
     * A hidden page closes its stream (each holds one of the server's few threads) and
     * does nothing until it is shown again. The stream's address (`stream` in the game
     * JSON) carries a lease that the server honours for a while after the fetch; a
     * refused or ended stream is reopened at a fresh address, while the page is shown.
     */
    follow() {
      this.open();
      setInterval(() => {
        if (document.visibilityState === "hidden") return;
        if (!this.stream || Date.now() - this.heard > 35000) this.reopen();
        else if (this.stream.readyState === EventSource.CLOSED) this.reopen();
        else if (this.stream.readyState !== EventSource.OPEN) this.refresh();
      }, 5000);
      window.addEventListener("online", () => this.reopen());
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "visible") this.reopen();
        else this.close();
      });
    }

    open() {
      const stream = new EventSource(this.data?.stream ?? `${this.base}/stream`);
      this.heard = Date.now();
      const heard = () => { this.heard = Date.now(); setLink(true); };
      stream.addEventListener("version", (message) => {
        heard();
        const news = JSON.parse(message.data);
        const key = `${news.version}.${news.seats}`;
        if (key !== this.seen) { this.seen = key; this.refresh(); }
      });
      stream.addEventListener("ping", heard);
      stream.addEventListener("cue", (message) => {
        heard();
        if (this.onCue) this.onCue(JSON.parse(message.data).name);
      });
      stream.addEventListener("gone", () => { stream.close(); window.location = "/"; });
      stream.onerror = () => {
        setLink(false);
        // Refused (an old lease) rather than cut: the browser will not retry by itself.
        const refused = stream.readyState === EventSource.CLOSED;
        if (refused && document.visibilityState === "visible" && Date.now() - this.opened > 5000) {
          this.reopen();
        }
      };
      stream.onopen = heard;
      this.stream = stream;
      this.opened = Date.now();
    }

    close() {
      if (this.stream) this.stream.close();
      this.stream = null;
    }

    /** Fetch the game (a fresh stream address with it), then follow the stream again. */
    async reopen() {
      this.close();
      this.seen = null;
      await this.refresh();
      if (!this.stream && document.visibilityState !== "hidden") this.open();
    }

    async start() {
      await this.refresh();
      this.follow();
    }

    /** Post an event made on the state shown now; a stale one refreshes the page. */
    async post(kind, data = {}) {
      return this.call("events", { kind, data, version: this.data.version });
    }

    async call(path, body) {
      if (this.busy) return null;
      this.busy = true;
      try {
        this.data = await api("POST", `${this.base}/${path}`, body);
        this.onChange(this.data);
        return this.data;
      } catch (error) {
        if (error.reason === "stale_state") { toast(t("shell.stale")); await this.refresh(); }
        else toast(error.message, "error", 6000);
        return null;
      } finally {
        this.busy = false;
      }
    }

    /** Ring a cue on every phone of the game (not game state: nothing is stored). */
    async cue(name) {
      try {
        await api("POST", `${this.base}/cue`, { name });
      } catch (error) { toast(error.message, "error"); }
    }

    async undo() {
      if (await confirm(t("shell.confirm_undo"))) {
        if (await this.call("undo", { version: this.data.version })) toast(t("shell.undone"));
      }
    }

    async redo() {
      if (await confirm(t("shell.confirm_redo"))) await this.call("redo", { version: this.data.version });
    }

    async freeSeat(seat) {
      if (!(await confirm(t("shell.confirm_free", { seat })))) return;
      try {
        await api("POST", `${this.base}/seats/${encodeURIComponent(seat)}/free`, {});
        await this.refresh();
      } catch (error) { toast(error.message, "error"); }
    }
  }

  /** Fill the shared host tools (shell/hostbar.html) from the game JSON. */
  function hostBar(game, data) {
    const bar = document.getElementById("hostbar");
    if (!bar) return;
    bar.hidden = !data.you.host;
    if (!data.you.host) return;
    const details = bar.querySelector("details");
    if (!bar.dataset.shown) {
      // Open the room code and QR while phones still have to join; later the host folds it.
      bar.dataset.shown = "yes";
      details.open = data.seats.some((seat) => !seat.taken);
    }
    document.getElementById("room-code").textContent = data.room ?? "";
    document.getElementById("room-url").textContent = data.join_url ?? "";
    const qr = document.getElementById("room-qr");
    const src = `/g/${encodeURIComponent(data.id)}/qr.svg`;
    if (qr.getAttribute("src") !== src) qr.src = src;
    const list = document.getElementById("seat-list");
    list.replaceChildren(...data.seats.map((seat) => el("li", {},
      el("span", { class: `dot ${seat.taken ? "on" : ""}` }),
      el("span", { class: "name" }, seat.name),
      el("span", { class: "muted" }, seat.taken ? t("shell.seat_joined") : t("shell.seat_free")),
      seat.taken ? el("button", { class: "btn small danger", onclick: () => game.freeSeat(seat.name) },
                      t("shell.free_seat")) : null)));
    const undo = document.getElementById("undo");
    const redo = document.getElementById("redo");
    undo.disabled = !data.can_undo;
    redo.disabled = !data.can_redo;
    undo.onclick = () => game.undo();
    redo.onclick = () => game.redo();
    document.getElementById("export-game").href = `/api/games/${encodeURIComponent(data.id)}/export`;
  }

  return { t, el, api, upload, toast, confirm, keepAwake, beep, Game, hostBar, ApiError };
})();
