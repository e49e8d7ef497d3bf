/* The moat and cellar game's page: the same page on both phones and the host screen.

   It renders only the game JSON the server sends for this phone (secrets are stripped
   there, never here) and posts the table's events: step 1's discards, the vampire
   player's reveal, and the turn's one action. What the player is preparing (discards,
   the action form) lives only on this page until it is recorded. */
"use strict";

const { t, el } = Companion;
const HAND = 8;
const CASTLE = 3;
const SEATS = ["vampire", "human"];

let shownVersion = null;
let discards = { cellar: 0, moat: 0 };
let form = null;
let lastActive = null;

const game = new Companion.Game(document.body.dataset.gameId, render);
game.start();
Companion.keepAwake();

function redraw() { if (game.data) render(game.data); }

function render(data) {
  if (data.version !== shownVersion) {
    shownVersion = data.version;
    discards = { cellar: 0, moat: 0 };
    form = null;
  }
  const v = data.view;
  const yourTurn = v.viewer === v.active && !v.outcome;
  if (yourTurn && lastActive !== null && lastActive !== v.active) Companion.beep();
  lastActive = v.active;
  Companion.hostBar(game, data);
  renderStatus(v);
  renderOutcome(v);
  renderSecret(v);
  renderControls(data, v);
  renderTable(v);
  renderPiles(v);
  renderHistory(v);
}

// -- small pieces ---------------------------------------------------------------------

function character(v, id) { return v.characters[id - 1]; }
function label(v, id) { return `${character(v, id).name} (${id})`; }
function names(v, ids) { return ids.length ? ids.map((id) => label(v, id)).join(", ") : t("empire.nobody"); }
function turnLabel(time, round) { return t(time === "night" ? "empire.night" : "empire.day", { round }); }

function chip(v, id, { selected = false, onclick = null, disabled = false, order = null } = {}) {
  const c = character(v, id);
  const tags = [];
  if (c.identity === "vampire") tags.push(el("span", { class: "tag vampire" }, t("empire.is_vampire")));
  else if (c.told_human) tags.push(el("span", { class: "tag human" }, t("empire.told_human")));
  else if (c.identity === "human") tags.push(el("span", { class: "tag human" }, t("empire.is_human")));
  if (c.revealed) tags.push(el("span", { class: "tag revealed" }, t("empire.revealed")));
  const classes = ["chip", `side-${c.side}`, selected ? "selected" : "", c.place === "dead" ? "dead" : ""];
  const body = [
    el("span", { class: "number" }, String(id)),
    el("span", { class: "name" }, c.name),
    order !== null ? el("span", { class: "order" }, String(order)) : null,
    el("span", { class: "tags" }, tags),
  ];
  if (!onclick) return el("div", { class: classes.join(" "), dataset: { character: id } }, body);
  return el("button", { class: classes.join(" "), onclick, disabled, type: "button",
                        dataset: { character: id }, "aria-pressed": selected ? "true" : "false" }, body);
}

function stepper(name, value, { min = 0, max = 99, disabled = false, onchange }) {
  const set = (next) => { onchange(Math.max(min, Math.min(max, next))); };
  return el("div", { class: "stepper", dataset: { name } },
    el("span", { class: "grow" }, t(`empire.${name}`)),
    el("button", { class: "btn small", type: "button", disabled: disabled || value <= min,
                   "aria-label": `${t(`empire.${name}`)} −`, onclick: () => set(value - 1) }, "−"),
    el("output", { class: "value" }, String(value)),
    el("button", { class: "btn small", type: "button", disabled: disabled || value >= max,
                   "aria-label": `${t(`empire.${name}`)} +`, onclick: () => set(value + 1) }, "+"));
}

function ruling(text) { return el("p", { class: "ruling" }, text); }

// -- status, outcome, secret ------------------------------------------------------------

function renderStatus(v) {
  document.getElementById("when").textContent = turnLabel(v.time, v.round);
  document.getElementById("who").textContent = t("empire.turn_of",
    { name: v.players[v.active], side: t(`empire.side_${v.active}`) });
  const waiting = v.viewer !== "host" && v.viewer !== v.active;
  document.getElementById("step").textContent = v.outcome ? ""
    : [t(`empire.step_${v.step}`), waiting ? t("empire.waiting", { name: v.players[v.active] }) : ""].filter(Boolean).join(" · ");
  document.getElementById("me").textContent = t(`empire.you_${v.viewer}`);
  document.getElementById("status").dataset.time = v.time;
}

function renderOutcome(v) {
  const box = document.getElementById("outcome");
  box.hidden = !v.outcome;
  if (!v.outcome) return;
  const o = v.outcome;
  const key = o.winner ? `empire.won_${o.winner}` : "empire.draw";
  box.replaceChildren(
    el("p", { class: "big" }, t(key, { reason: t(`empire.cause_${o.cause}`) })),
    "vampire" in o.scores ? el("p", {}, t("empire.scores", o.scores)) : null,
    el("p", { class: "muted" }, t("empire.over_help")));
}

function renderSecret(v) {
  const box = document.getElementById("secret");
  box.hidden = v.viewer === "host";
  if (box.hidden) return;
  const ids = v.characters
    .filter((c) => (v.viewer === "vampire" ? c.identity === "vampire" : c.told_human))
    .map((c) => c.id);
  box.replaceChildren(el("h2", {}, t(`empire.secret_${v.viewer}`)),
    el("div", { class: "characters small-chars" }, ids.map((id) => chip(v, id))));
}

// -- the controls of the active player ----------------------------------------------------

function renderControls(data, v) {
  const box = document.getElementById("controls");
  const acting = !v.outcome && (v.viewer === v.active || (data.you.host && !data.you.seat));
  box.hidden = !acting;
  if (!acting) { box.replaceChildren(); return; }
  const parts = v.step === "discard" ? discardControls(v)
    : [...(v.step === "reveal" ? revealControls(v) : []), ...actionControls(v)];
  box.replaceChildren(...parts.filter((part) => part !== null));
}

function discardControls(v) {
  const piles = v.cards[v.active];
  const over = Math.max(0, piles.hand - HAND);
  const total = discards.cellar + discards.moat;
  const change = (pile) => (value) => { discards[pile] = value; redraw(); };
  return [
    el("p", {}, t("empire.you_hold", { name: v.players[v.active], hand: piles.hand, deck: piles.deck })),
    stepper("discard_to_cellar", discards.cellar, { max: piles.hand - discards.moat,
      disabled: piles.cellar_made, onchange: change("cellar") }),
    stepper("discard_to_moat", discards.moat, { max: piles.hand - discards.cellar, onchange: change("moat") }),
    piles.cellar_made ? ruling(t("empire.ruling_m4_moat")) : null,
    over ? ruling(t("empire.ruling_m2_over", { n: over })) : null,
    piles.cellar_made && piles.deck === 0 ? ruling(t("empire.ruling_m4_empty")) : null,
    el("button", { class: "btn primary big", id: "discard-and-draw", disabled: total < over,
                   onclick: () => game.post("discard-and-draw", { ...discards }) },
       total ? t("empire.discard_and_draw", { n: total }) : t("empire.draw_only")),
  ];
}

function revealControls(v) {
  if (v.viewer !== "vampire") return [];
  const hidden = v.characters.filter((c) => c.identity === "vampire" && !c.revealed && c.place !== "dead");
  return [
    el("p", { class: "muted" }, t("empire.reveal_help")),
    el("div", { class: "row" }, hidden.map((c) => el("button", {
      class: "btn", type: "button", dataset: { reveal: c.id },
      onclick: async () => {
        if (await Companion.confirm(t("empire.confirm_reveal", { name: label(v, c.id) }))) {
          game.post("reveal", { character: c.id });
        }
      } }, t("empire.reveal", { name: label(v, c.id) })))),
  ];
}

function newForm(kind, extra = {}) {
  return { kind, character: null, killed: [], refill: [], played: { vampire: 0, human: 0 },
           drew: { vampire: 0, human: 0 }, ...extra };
}

async function pass() {
  if (await Companion.confirm(t("empire.confirm_pass"))) game.post("pass", {});
}

function actionControls(v) {
  if (v.step === "attack") {
    form = form ?? newForm("combat");
    return [el("p", { class: "big" }, t("empire.attack_help", { name: label(v, v.suspect) })),
            ...actionForm(v),
            el("button", { class: "btn", type: "button", id: "pass", onclick: pass }, t("empire.pass"))];
  }
  if (form) return actionForm(v);
  const own = v.active === "vampire" ? "hide" : "holy_water";
  const start = (kind) => () => { form = newForm(kind); redraw(); };
  return [
    el("h2", {}, t("empire.choose_action")),
    el("div", { class: "actions" },
      el("button", { class: "btn big", type: "button", id: `action-${own}`,
                     onclick: start(own === "hide" ? "hide" : "holy-water") }, t(`empire.${own}`)),
      el("button", { class: "btn big", type: "button", id: "action-combat", onclick: start("combat") },
         t("empire.combat")),
      el("button", { class: "btn big", type: "button", id: "pass", onclick: pass }, t("empire.pass"))),
  ];
}

/** How many characters must turn up from the city to bring the castle back to three. */
function refillNeeded(v) {
  const leaving = form.kind === "hide" ? (form.character ? 1 : 0) : form.killed.length;
  const city = v.city.length + (form.kind === "hide" && form.character ? 1 : 0);
  return Math.max(0, Math.min(CASTLE - (v.castle.length - leaving), city));
}

function toggle(list, id, limit = Infinity) {
  const at = list.indexOf(id);
  if (at >= 0) list.splice(at, 1);
  else if (list.length < limit) list.push(id);
}

function actionForm(v) {
  const parts = [];
  const pick = (id) => () => { form.character = form.character === id ? null : id; form.refill = []; redraw(); };
  if (form.kind === "hide" || form.kind === "holy-water") {
    parts.push(el("p", {}, t(form.kind === "hide" ? "empire.pick_hide" : "empire.pick_holy")));
    parts.push(el("div", { class: "characters", id: "pick-character" }, v.castle.map((id) => chip(v, id, {
      selected: form.character === id, onclick: pick(id),
      disabled: form.kind === "holy-water" && character(v, id).revealed }))));
  }
  if (form.kind === "combat") {
    const targets = v.step === "attack" ? [v.suspect] : v.castle;
    parts.push(el("p", {}, t("empire.pick_killed")));
    parts.push(el("div", { class: "characters", id: "pick-killed" }, targets.map((id) => chip(v, id, {
      selected: form.killed.includes(id),
      onclick: () => { toggle(form.killed, id); form.refill = []; redraw(); } }))));
  }
  let complete = form.kind !== "hide" && form.kind !== "holy-water" ? true : form.character !== null;
  if (form.kind !== "holy-water") {
    const need = refillNeeded(v);
    if (need) {
      const city = [...v.city, ...(form.kind === "hide" && form.character ? [form.character] : [])];
      parts.push(el("p", {}, t("empire.pick_refill", { picked: form.refill.length, need })));
      parts.push(el("div", { class: "characters small-chars", id: "pick-refill" }, city.sort((a, b) => a - b)
        .map((id) => chip(v, id, {
          selected: form.refill.includes(id),
          order: form.refill.includes(id) ? form.refill.indexOf(id) + 1 : null,
          onclick: () => { toggle(form.refill, id, need); redraw(); } }))));
    }
    complete = complete && form.refill.length === need;
  }
  parts.push(el("h2", {}, t("empire.played")));
  for (const seat of SEATS) {
    parts.push(stepper(`played_${seat}`, form.played[seat], { max: v.cards[seat].hand,
      onchange: (n) => { form.played[seat] = n; redraw(); } }));
  }
  parts.push(ruling(t("empire.ruling_m3")));
  parts.push(el("details", { class: "drew" }, el("summary", {}, t("empire.drew")),
    ...SEATS.map((seat) => stepper(`drew_${seat}`, form.drew[seat], { max: 20,
      onchange: (n) => { form.drew[seat] = n; redraw(); } }))));
  if (form.drew.vampire || form.drew.human) parts.at(-1).open = true;
  parts.push(el("div", { class: "row" },
    v.step === "attack" ? null
      : el("button", { class: "btn", type: "button", onclick: () => { form = null; redraw(); } }, t("empire.cancel")),
    el("button", { class: "btn primary grow", type: "button", id: "record", disabled: !complete,
                   onclick: () => game.post(form.kind, eventData()) },
       v.step === "attack" ? t("empire.attack", { name: label(v, v.suspect) }) : t("empire.record"))));
  return parts;
}

function eventData() {
  const data = { played: { ...form.played }, drew: { ...form.drew } };
  if (form.kind === "hide") Object.assign(data, { character: form.character, refill: form.refill });
  if (form.kind === "holy-water") data.character = form.character;
  if (form.kind === "combat") Object.assign(data, { killed: form.killed, refill: form.refill });
  return data;
}

// -- the table ------------------------------------------------------------------------------

function renderTable(v) {
  document.getElementById("castle").replaceChildren(...v.castle.map((id) => chip(v, id)));
  document.getElementById("city").replaceChildren(...v.city.map((id) => chip(v, id)));
  const dead = document.getElementById("dead");
  dead.replaceChildren(...(v.dead.length ? v.dead.map((id) => chip(v, id))
                                          : [el("p", { class: "muted" }, t("empire.nobody"))]));
}

function renderPiles(v) {
  document.getElementById("piles").replaceChildren(...SEATS.map((seat) => {
    const p = v.cards[seat];
    return el("div", { class: `seat-piles ${seat === v.active ? "active" : ""}`, dataset: { seat } },
      el("h3", {}, `${v.players[seat]} · ${t(`empire.side_${seat}`)}`),
      el("dl", {}, ["deck", "hand", "cellar", "moat"].map((pile) => el("div", { dataset: { pile } },
        el("dt", {}, t(`empire.${pile}`)), el("dd", {}, String(p[pile]))))),
      p.cellar_made ? el("p", { class: "tag" }, t("empire.cellar_made")) : null,
      p.out_of_cards ? el("p", { class: "tag revealed" }, t("empire.out_of_cards")) : null);
  }));
}

function historyText(v, entry) {
  const who = v.players[entry.seat];
  const f = entry.facts;
  const lines = [];
  switch (entry.kind) {
    case "discard-and-draw":
      lines.push((f.cellar || f.moat)
        ? t("empire.h_discard", { who, cellar: f.cellar ?? 0, moat: f.moat ?? 0, drawn: f.drawn })
        : t("empire.h_draw_only", { who, drawn: f.drawn }));
      break;
    case "reveal": lines.push(t("empire.h_reveal", { who, name: label(v, f.character) })); break;
    case "hide":
      lines.push(t("empire.h_hide", { who, name: label(v, f.character), refill: names(v, f.refill ?? []) }));
      break;
    case "holy-water":
      lines.push(t(f.vampire ? "empire.h_holy_vampire" : "empire.h_holy_human", { who, name: label(v, f.character) }));
      break;
    case "combat":
      lines.push(t("empire.h_combat", { who, killed: names(v, f.killed ?? []), refill: names(v, f.refill ?? []) }));
      break;
    default: lines.push(t("empire.h_pass", { who }));
  }
  if (entry.played.vampire || entry.played.human) lines.push(t("empire.h_played", entry.played));
  for (const seat of f.cellar_made ?? []) lines.push(t("empire.h_cellar_made", { who: v.players[seat] }));
  if (entry.ended) lines.push(t("empire.h_ended"));
  return lines.join(" ");
}

function renderHistory(v) {
  document.getElementById("history").replaceChildren(...v.history.map((entry) => el("li", {},
    el("span", { class: "muted" }, `${turnLabel(entry.time, entry.round)} · `), historyText(v, entry))));
}
