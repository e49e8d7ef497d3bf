/* The Middernacht page of every phone (and the host screen): whose turn, what the turned
   lid brings, the player's choices, the graves as the table sees them, every row's ends,
   stakes and garlic. Everything is rendered from the view JSON; nothing secret is in it. */
"use strict";

(() => {
  const { t, el } = Companion;
  const gameId = document.body.dataset.gameId;
  const DEFAULT_COLOURS = ["red", "yellow", "white", "blue", "green", "black"];
  let lidFor = null; // {kind, player, grave, lids}: a tapped grave waiting for its lid (table mode)

  const game = new Companion.Game(gameId, render);
  game.start();
  Companion.keepAwake();

  function chip(colour) {
    const known = DEFAULT_COLOURS.includes(colour) ? `c-${colour}` : "c-other";
    return el("span", { class: `chip ${colour ? known : "c-down"}` }, colour ?? "?");
  }

  /** What this page may do: its own seat's moves, or every player's on the host screen. */
  function movesHere(data) {
    const moves = data.view.moves;
    if (data.you.seat) return moves[data.you.seat] ? { [data.you.seat]: moves[data.you.seat] } : {};
    return data.you.host ? moves : {};
  }

  function send(kind, fields) {
    lidFor = null;
    return game.post(kind, fields);
  }

  function render(data) {
    const view = data.view;
    Companion.hostBar(game, data);
    document.getElementById("who").textContent = view.winner
      ? t("middernacht.winner", { name: view.winner })
      : t("middernacht.turn_of", { name: view.turn });
    document.getElementById("me").textContent = data.you.seat
      ? t("middernacht.you_are", { name: data.you.seat })
      : t(data.you.host ? "middernacht.host_screen" : "middernacht.watching");
    document.getElementById("news").replaceChildren(
      ...view.news.map((line) => el("li", {}, line)),
      ...(view.winner ? [] : [el("li", { class: "muted" }, `${view.waiting_for[0].toUpperCase()}${view.waiting_for.slice(1)}.`)]),
    );
    const moves = movesHere(data);
    if (lidFor && !(moves[lidFor.player] ?? []).some((a) => a.kind === lidFor.kind)) lidFor = null;
    renderControls(view, moves);
    renderGraves(view, moves);
    renderPlayers(view);
    renderCheck(data);
    watchRows(view);
  }

  // -- the player's choices -------------------------------------------------------------

  function renderControls(view, moves) {
    const box = document.getElementById("controls");
    // Another phone's step re-renders this page; while this player's choices stay the
    // same, keep the controls (and a colour he is picking) as they are.
    const signature = JSON.stringify([moves, lidFor, view.open_grave, view.pending]);
    if (box.dataset.signature === signature) return;
    box.dataset.signature = signature;
    const parts = [];
    for (const [player, actions] of Object.entries(moves)) {
      if (Object.keys(moves).length > 1 || player !== view.you) parts.push(el("h2", {}, t("middernacht.for", { name: player })));
      if (lidFor && lidFor.player === player) { parts.push(...lidPicker(lidFor)); continue; }
      for (const action of actions) parts.push(...control(view, player, action));
    }
    box.replaceChildren(...parts);
    box.hidden = parts.length === 0;
  }

  function lidPicker(pick) {
    const buttons = pick.lids.map((lid) => el("button", {
      class: "btn lid", "data-lid": lid,
      onclick: () => send(pick.kind, { player: pick.player, grave: pick.grave, lid }),
    }, lid === "rat" ? el("span", { class: "chip c-rat" }, t("middernacht.rat")) : chip(lid)));
    return [
      el("p", { class: "big" }, t("middernacht.which_lid", { grave: pick.grave })),
      el("div", { class: "row wrap" }, buttons),
      el("button", { class: "btn small", onclick: () => { lidFor = null; render(game.data); } }, t("middernacht.cancel")),
    ];
  }

  /** A colour picker that starts empty, so nobody reports a colour by not choosing one. */
  function colourSelect(colours, id) {
    return el("select", { id, required: true },
      el("option", { value: "", disabled: true, selected: true }, t("middernacht.choose")),
      ...colours.map((colour) => el("option", { value: colour }, colour)));
  }

  function endButtons(action, label, post) {
    const id = `new-end-${Math.random().toString(36).slice(2)}`;
    const parts = [];
    if (action.tell_new_end) {
      parts.push(el("label", { for: id }, t("middernacht.new_end")), colourSelect(action.colours, id));
    }
    const uncovered = () => (action.tell_new_end ? document.getElementById(id).value : undefined);
    parts.push(el("div", { class: "stack" }, action.choices.map((choice) => el("button", {
      class: "btn primary big", "data-end": choice.end,
      onclick: () => post(choice.end, uncovered()),
    }, label(choice)))));
    return parts;
  }

  function control(view, player, action) {
    const grave = view.open_grave?.grave;
    switch (action.kind) {
      case "turn-ends": {
        const left = colourSelect(action.colours, `left-${player}`);
        const right = colourSelect(action.colours, `right-${player}`);
        return [
          el("p", {}, t("middernacht.tell_ends")),
          el("label", { for: left.id }, t("middernacht.left_end")), left,
          el("label", { for: right.id }, t("middernacht.right_end")), right,
          el("button", { class: "btn primary big", id: `ends-${player}`,
            onclick: () => send("turn-ends", { player, left: left.value, right: right.value }) },
          t("middernacht.send_ends")),
        ];
      }
      case "turn-lid":
        return [el("p", { class: "big" }, t("middernacht.tap_grave"))];
      case "open-neighbour":
        return [el("p", { class: "big" }, t("middernacht.tap_neighbour"))];
      case "stop":
        return [el("button", { class: "btn", id: "stop", onclick: () => send("stop", { player }) }, t("middernacht.stop"))];
      case "pass":
        return [el("button", { class: "btn", id: "pass", onclick: () => send("pass", { player }) }, t("middernacht.pass"))];
      case "place-garlic":
        return [el("button", { class: "btn primary big", id: "garlic", onclick: () => send("place-garlic", { player }) },
          t("middernacht.lay_garlic", { grave }))];
      case "place-vampire":
        return endButtons(action,
          (choice) => t("middernacht.lay_vampire", { colour: choice.colour, end: t(`middernacht.${choice.end}`), grave }),
          (end, uncovered) => send("place-vampire", { player, end, uncovered }));
      case "give-vampire": {
        const owed = view.pending.find((transfer) => transfer.giver === player);
        return [
          el("p", { class: "big" }, t("middernacht.give", { giver: player, receiver: owed.receiver })),
          ...endButtons(action,
            (choice) => [chip(choice.colour), " ", t("middernacht.give_end", { colour: choice.colour, end: t(`middernacht.${choice.end}`) })],
            (end, uncovered) => send("give-vampire", { player, end, uncovered })),
        ];
      }
      default:
        return [];
    }
  }

  // -- the board ------------------------------------------------------------------------

  function renderGraves(view, moves) {
    let tap = null;
    for (const [player, actions] of Object.entries(moves)) {
      const found = actions.find((a) => a.kind === "turn-lid" || a.kind === "open-neighbour");
      if (found) tap = { player, ...found };
    }
    const tappable = new Set(tap ? tap.graves : []);
    const near = new Set(view.neighbours);
    const gone = new Set(view.lidless);
    const cells = [];
    for (const letter of "ABCDEF") {
      for (let column = 1; column <= 10; column += 1) {
        const name = `${letter}${column}`;
        const open = view.open_grave?.grave === name;
        const classes = ["grave", gone.has(name) ? "gone" : "", near.has(name) ? "near" : "",
          open ? `open c-${DEFAULT_COLOURS.includes(view.open_grave.lid) ? view.open_grave.lid : "other"}` : "",
          lidFor?.grave === name ? "picked" : ""];
        cells.push(el("button", {
          class: classes.filter(Boolean).join(" "),
          "data-grave": name,
          "aria-label": name,
          disabled: !tappable.has(name),
          onclick: () => tapGrave(tap, name),
        }, name));
      }
    }
    document.getElementById("graves").replaceChildren(...cells);
  }

  function tapGrave(tap, grave) {
    if (!tap) return;
    if (tap.tell_lid) {
      lidFor = { kind: tap.kind, player: tap.player, grave, lids: tap.lids };
      render(game.data);
      document.getElementById("controls").scrollIntoView({ behavior: "smooth", block: "start" });
    } else {
      send(tap.kind, { player: tap.player, grave });
    }
  }

  // -- the players ----------------------------------------------------------------------

  function renderPlayers(view) {
    document.getElementById("players").replaceChildren(...view.players.map((p) => el("li", {
      class: p.name === view.turn && !view.winner ? "player current" : "player",
      "data-player": p.name,
    },
    el("span", { class: "name" }, p.name),
    el("span", { class: "row-ends" }, p.row_length ? chip(p.left) : null,
      el("span", { class: "count" }, t("middernacht.row", { n: p.row_length })),
      p.row_length > 1 ? chip(p.right) : null),
    el("span", { class: "muted small" },
      `${p.stakes} ${t("middernacht.stakes")} · ${p.garlic_in_hand} ${t("middernacht.garlic")} · ${p.garlic_on_board} ${t("middernacht.garlic_down")}`),
    )));
  }

  // -- the table camera watching the rows ---------------------------------------------------

  const CAMERA_EVERY_MS = 5000;
  let cameraTimer = null;
  let lastSeen = null; // the mismatches of the previous look, as text

  /** Show a difference only when two looks in a row agree, so a hand over a row is no alarm. */
  async function lookAtRows() {
    const view = game.data?.view;
    const card = document.getElementById("camera-check");
    if (!view || !view.camera || view.phase === "deal" || view.phase === "over") { card.hidden = true; return; }
    try {
      const answer = await Companion.api("GET", `/middernacht/${encodeURIComponent(gameId)}/camera-rows`);
      const sentences = answer.mismatches.map((m) => m.sentence);
      const key = JSON.stringify(sentences);
      if (key === lastSeen) {
        document.getElementById("camera-mismatches").replaceChildren(
          ...sentences.map((line) => el("li", { class: "mismatch" }, line)));
        card.hidden = sentences.length === 0;
      }
      lastSeen = key;
    } catch (error) {
      card.hidden = true; // no camera frame yet: nothing to say
    }
  }

  function watchRows(view) {
    if (view.camera && cameraTimer === null) cameraTimer = setInterval(lookAtRows, CAMERA_EVERY_MS);
  }

  // -- checking a row from a photo --------------------------------------------------------

  function renderCheck(data) {
    const select = document.getElementById("check-player");
    const names = data.view.players.map((p) => p.name);
    if (select.options.length !== names.length) {
      select.replaceChildren(...names.map((name) => el("option", { value: name }, name)));
      if (data.you.seat) select.value = data.you.seat;
    }
    document.getElementById("check").hidden = !data.you.seat && !data.you.host;
  }

  document.getElementById("check-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const player = document.getElementById("check-player").value;
    const photo = document.getElementById("check-photo").files[0];
    const list = document.getElementById("mismatches");
    try {
      const answer = await Companion.upload(`/middernacht/${encodeURIComponent(gameId)}/row-photo`, { player, photo });
      list.replaceChildren(...(answer.mismatches.length
        ? [...answer.mismatches.map((line) => el("li", { class: "mismatch" }, line)), el("li", { class: "muted" }, t("middernacht.check_fix"))]
        : [el("li", { class: "ok" }, t("middernacht.check_ok", { n: answer.seen, name: player }))]));
    } catch (error) {
      Companion.toast(error.message, "error", 6000);
    }
  });
})();
