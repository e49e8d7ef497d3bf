/* The Bite Night page of every phone and of the host screen.

   It renders the engine's view (GET /api/games/<id>) and posts the engine's events;
   it decides nothing itself. What a phone may do is what the view's `next_events`
   allows, for its own seat (the host screen for every seat). */
"use strict";

(() => {
  const { t, el } = Companion;
  const $ = (id) => document.getElementById(id);
  const gameId = document.body.dataset.gameId;
  const catalogue = JSON.parse($("catalogue").textContent);
  const cards = Object.fromEntries(catalogue.cards.map((card) => [card.id, card]));
  const GRAVE_KINDS = new Set(["grave", "grave-any", "skip-two", "graveyard-closed"]);

  let data = null;        // the latest game JSON
  let review = null;      // a photo being checked: {player, url, found}
  let seen = null;        // what the table camera sees per seat (GET .../camera)
  const chosen = {};      // an ask's tiles chosen so far, by "step.player"

  const game = new Companion.Game(gameId, render);
  game.onCue = (name) => { if (name === "grab") countdown(); };
  game.start();
  Companion.keepAwake();

  // -- who may do what -------------------------------------------------------------

  const view = () => data.view;
  const me = () => data.you.seat;
  const isHost = () => data.you.host;
  const canActFor = (name) => isHost() || me() === name;
  const seated = () => isHost() || me() !== null;
  const allowed = (kind) => view().next_events.includes(kind);

  // -- tiles and cards -------------------------------------------------------------

  function parseTile(id) {
    const [colour, motif, heart] = id.split("-");
    return { colour, motif, heart: heart === "heart" };
  }
  const tileId = ({ colour, motif, heart }) => `${colour}-${motif}${heart ? "-heart" : ""}`;

  function tileName(id) {
    const tile = parseTile(id);
    return t(tile.heart ? "bitenight.tile_name_heart" : "bitenight.tile_name", {
      colour: t(`bitenight.colour.${tile.colour}`), motif: t(`bitenight.motif.${tile.motif}`) });
  }
  const tileNames = (ids) => ids.map(tileName).join(", ");
  const tileSrc = (id) => `/tileset/${encodeURIComponent(view().tileset)}/faces/${id}.png`;
  const tileImg = (id) => el("img", { class: "tile", src: tileSrc(id), alt: tileName(id), title: tileName(id) });

  function cardLabel(id) {
    const card = cards[id];
    const arg = id.includes(":") ? id.split(":")[1] : "";
    const motifs = (motif) => t(`bitenight.motifs.${motif}`);
    switch (card.kind) {
      case "motif": return t("bitenight.card.motif", { motifs: motifs(arg) });
      case "color": return t("bitenight.card.color", { colour: t(`bitenight.colour.${arg}`) });
      case "pair": return t("bitenight.card.pair", { motifs: motifs(arg) });
      case "combo": {
        const [a, b] = arg.split("+");
        return t("bitenight.card.combo", { a: motifs(a), b: motifs(b) });
      }
      case "grave": return t("bitenight.card.grave", { motifs: motifs(arg) });
      default: return t(`bitenight.card.${card.kind}`);
    }
  }

  /** Tiles that show what a card is about (the card's own artwork is not ours to copy). */
  function cardPictures(id) {
    const card = cards[id];
    const arg = id.includes(":") ? id.split(":")[1] : "";
    switch (card.kind) {
      case "motif": return [`red-${arg}`, `blue-${arg}`];
      case "color": return [`${arg}-vampire`, `${arg}-maiden`];
      case "pair": return [`green-${arg}`, `green-${arg}`];
      case "combo": { const [a, b] = arg.split("+"); return [`yellow-${a}`, `yellow-${b}`]; }
      case "color-set": return ["blue-vampire", "red-monk", "yellow-maiden", "green-coffin", "purple-garlic"];
      case "grave": return [`purple-${arg}`, `purple-${arg}`];
      default: return [];
    }
  }

  function cardFace(id) {
    const card = cards[id];
    const kind = card.advanced ? "advanced" : GRAVE_KINDS.has(card.kind) ? "grave" : "";
    return el("div", { class: `cardface ${kind}`, dataset: { card: id } },
      el("div", { class: "pics" }, cardPictures(id).map((tile) =>
        el("img", { src: tileSrc(tile), alt: "" }))),
      el("span", {}, cardLabel(id)),
      card.advanced ? el("span", { class: "tag" }, t("bitenight.advanced")) : null);
  }

  // -- the page ----------------------------------------------------------------------

  function render(fresh) {
    data = fresh;
    const v = view();
    document.body.dataset.version = String(data.version);  // lets a watcher (or a test) see which state is shown
    Companion.hostBar(game, data);
    const who = $("who");
    who.replaceChildren(me() ? t("bitenight.you_are", { seat: me() })
      : isHost() ? t("bitenight.host_screen") : t("bitenight.watching"));
    if (!seated() && data.room) {
      who.append(" ", el("a", { class: "btn small", href: `/r/${data.room}` }, t("bitenight.join_seat")));
    }
    $("progress").textContent = v.phase === "game-over" ? t("bitenight.progress_done", v)
      : v.phase === "rendezvous" || v.phase === "cycle-scored" ? t("bitenight.progress_rendezvous", v)
      : t("bitenight.progress", v);
    $("doing").textContent = v.doing.charAt(0).toUpperCase() + v.doing.slice(1);
    $("stage").replaceChildren(stage(v));
    // A phone shows its own collection first; the others follow in seat order.
    const order = [...v.players].sort((a, b) => (b === me()) - (a === me()));
    $("collections").replaceChildren(...order.map((name) => playerBox(v, name)));
    $("graveyard-count").textContent = v.graveyard.length ? `(${v.graveyard.length})` : "";
    $("graveyard").replaceChildren(...(v.graveyard.length ? v.graveyard.map(tileImg)
      : [el("p", { class: "muted" }, t("bitenight.graveyard_empty"))]));
    $("pad").replaceChildren(scorePad(v));
    graveStrip(v);
    followCamera(v);
    // Once a cycle is scored the pad is what everyone looks at: put it under the stage.
    const finished = v.phase === "cycle-scored" || v.phase === "game-over";
    const anchor = finished ? $("stage") : $("graveyard-card");
    if (anchor.nextElementSibling !== $("pad-card")) anchor.after($("pad-card"));
  }

  /** During the rendezvous the graveyard stays in sight at the foot of the screen. */
  function graveStrip(v) {
    const strip = $("grave-strip");
    strip.hidden = v.phase !== "rendezvous";
    document.body.classList.toggle("with-strip", !strip.hidden);
    $("grave-strip-count").textContent = `(${v.graveyard.length})`;
    $("grave-strip-tiles").replaceChildren(...v.graveyard.map(tileImg));
  }

  function stage(v) {
    const box = el("div", { class: "card stage", id: `stage-${v.phase}` });
    const build = { placing, grabbing, rendezvous: rendezvousStage,
                    "cycle-scored": cycleScored, "game-over": gameOver }[v.phase];
    build(box, v);
    return box;
  }

  function bigButton(label, onclick, primary = true) {
    return el("button", { class: `btn big ${primary ? "primary" : ""}`, onclick }, label);
  }

  function placing(box, v) {
    box.append(el("h2", {}, t("bitenight.placing_title", v)),
      el("p", {}, t("bitenight.placing_order", { starter: v.starting_player })),
      el("ol", { class: "order" }, v.placing_order.map((name, index) => {
        const state = index < v.cards_placed ? "done" : index === v.cards_placed ? "next" : "";
        return el("li", { class: state }, el("span", {}, name),
          el("span", { class: "muted" }, state === "done" ? t("bitenight.placed")
            : state === "next" ? t("bitenight.to_place") : ""));
      })));
    const next = v.next_to_place;
    if (next && canActFor(next)) {
      const label = me() === next ? t("bitenight.i_placed") : t("bitenight.they_placed", { name: next });
      box.append(bigButton(label, () => game.post("place-card", { player: next })));
    }
  }

  function grabbing(box, v) {
    box.append(el("h2", {}, t("bitenight.grab_title", v)), el("p", {}, t("bitenight.grab_help")));
    if (seated()) box.append(bigButton(t("bitenight.countdown"), () => game.cue("grab")));
    box.append(el("p", {}, t("bitenight.read_then_end", { n: v.tiles_expected })));
    if (seated() && allowed("end-round")) {
      box.append(bigButton(t("bitenight.end_round"), () => game.post("end-round"), false));
    }
  }

  function rendezvousStage(box, v) {
    const r = v.rendezvous;
    box.append(el("h2", {}, t("bitenight.rendezvous_title", { leader: v.cycle_leader })),
      el("p", { class: "big" }, t("bitenight.cards_left", { n: r.cards_left })));
    if (r.skip_left) box.append(el("p", {}, t("bitenight.skip_left", { n: r.skip_left })));
    if (r.waiting.length) {
      box.append(el("p", { class: "muted" }, t("bitenight.waiting_beside")),
        el("div", { class: "row" }, r.waiting.map(cardFace)));
    }
    if (r.current) {
      box.append(el("div", { class: "step", id: "current-card" }, cardFace(r.current),
        el("p", { class: "big grow" }, t("bitenight.card_waits", { n: r.position + 1 }))));
      for (const ask of r.asks) box.append(askView(ask));
      if (r.last_step) box.append(el("details", {}, el("summary", {}, t("bitenight.previous_card")), stepView(r.last_step)));
    } else {
      if (r.last_step) box.append(stepView(r.last_step));
      if (r.cards_left > 0 && seated() && allowed("reveal-card")) {
        box.append(bigButton(t("bitenight.reveal_next"), revealNext));
      }
    }
    if (r.steps.length > 1) {
      box.append(el("details", { class: "history" }, el("summary", {}, t("bitenight.all_steps")),
        el("ol", {}, r.steps.map((step) => el("li", {},
          `${cardLabel(step.card)}: ${t(`bitenight.effect.${step.effect}`)}`)))));
    }
  }

  /** Before the next card, the camera (when there is one) checks the table matches. */
  async function revealNext() {
    const off = cameraOn(view()) && seen
      ? view().players.filter((name) => seen.seats[name].missing.length || seen.seats[name].extra.length)
      : [];
    if (off.length && !(await Companion.confirm(t("bitenight.reveal_anyway", { names: off.join(", ") })))) return;
    openCardPicker();
  }

  function stepView(step) {
    const points = Object.entries(step.points);
    const details = el("div", { class: "grow" },
      el("p", { class: "big" }, t("bitenight.last_card", { n: step.index + 1 }), " · ",
        t(`bitenight.effect.${step.effect}`)));
    if (step.effect === "scored") {
      details.append(el("ul", { class: "points" }, points.map(([name, n]) =>
        el("li", {}, t("bitenight.points_of", { name, points: n })))));
    }
    if (step.moves.length) {
      details.append(el("ul", { class: "moves" }, step.moves.map((move) =>
        el("li", {}, t("bitenight.move", { tile: tileName(move.tile), from: move.from, to: move.to })))));
    } else if (step.effect === "moved") {
      details.append(el("p", { class: "muted" }, t("bitenight.nothing_moves")));
    }
    const shown = el("div", { class: "step", id: "last-step" }, cardFace(step.card), details);
    return step.ruling ? el("div", {}, shown, el("p", { class: "ruling" }, step.ruling)) : shown;
  }

  function countNoun(ask) {
    const card = cards[ask.card];
    return card.kind === "grave"
      ? `${ask.count} ${t(`bitenight.motifs.${ask.card.split(":")[1]}`)}`
      : t("bitenight.n_tiles", { n: ask.count });
  }

  function askView(ask) {
    const key = `${ask.step}.${ask.player}`;
    const box = el("div", { class: "ask", dataset: { player: ask.player } });
    const sentence = ask.action === "take" ? "bitenight.ask_take" : "bitenight.ask_give";
    box.append(el("p", {}, t(sentence, { name: ask.player, count: countNoun(ask),
                                         tiles: tileNames(ask.suggestion) })));
    if (canActFor(ask.player)) {
      const target = me() === ask.player ? box
        : box.appendChild(el("details", {}, el("summary", {}, t("bitenight.answer_for", { name: ask.player }))));
      const picked = chosen[key] ?? (chosen[key] = new Set(ask.suggestion));
      const counter = el("p", { class: "muted" });
      const update = () => { counter.textContent = t("bitenight.chosen", { n: picked.size, count: ask.count }); };
      target.append(el("p", {}, t(ask.action === "take" ? "bitenight.choose_take" : "bitenight.choose_give",
                               { count: ask.count })),
        el("div", { class: "tiles" }, ask.options.map((id) => {
          const button = el("button", { class: `tile-button ${picked.has(id) ? "chosen" : ""}`,
                                        type: "button", dataset: { tile: id } }, tileImg(id));
          button.onclick = () => {
            if (picked.has(id)) picked.delete(id); else picked.add(id);
            button.classList.toggle("chosen", picked.has(id));
            update();
          };
          return button;
        })), counter,
        bigButton(t("bitenight.confirm_choice"), async () => {
          if (await game.post("choose-tiles", { player: ask.player, tiles: [...picked] })) delete chosen[key];
        }));
      update();
    } else {
      box.append(el("p", { class: "muted" }, t("bitenight.waiting_for", { name: ask.player })));
    }
    box.append(el("p", { class: "ruling" }, ask.ruling));
    return box;
  }

  function cycleScored(box, v) {
    box.append(el("h2", {}, t("bitenight.cycle_scored", { n: v.cycle })));
    if (v.rendezvous?.last_step) box.append(stepView(v.rendezvous.last_step));
    if (isHost()) box.append(bigButton(t("bitenight.next_cycle", { n: v.cycle + 1 }), () => game.post("next-cycle")));
    else box.append(el("p", { class: "muted" }, t("bitenight.wait_host_cycle")));
  }

  function gameOver(box, v) {
    const names = v.winners.join(" & ");
    box.append(el("h2", {}, t("bitenight.game_over")),
      el("p", { class: "winner", id: "winner" },
        t(v.winners.length > 1 ? "bitenight.winners" : "bitenight.winner", { names })));
    if (v.win_ruling) box.append(el("p", { class: "ruling" }, v.win_ruling));
  }

  // -- collections -------------------------------------------------------------------

  function playerBox(v, name) {
    const held = v.collections[name];
    const editable = canActFor(name) && allowed("set-collection");
    const counting = v.phase === "placing" || v.phase === "grabbing";
    const count = counting
      ? el("span", { class: `count ${held.length === v.tiles_expected ? "ok" : "off"}` },
          t("bitenight.holds", { n: held.length, expected: v.tiles_expected }))
      : el("span", { class: "count" }, t("bitenight.holds_now", { n: held.length }));
    const box = el("div", { class: `player ${me() === name ? "mine" : ""}`, dataset: { player: name } },
      el("header", {}, el("span", { class: "name" }, name), count));
    const tiles = el("div", { class: "tiles" });
    for (const id of held) {
      tiles.append(editable
        ? el("button", { class: "tile-button", type: "button", dataset: { tile: id },
                         onclick: () => openTilePicker(name, id) }, tileImg(id))
        : tileImg(id));
    }
    if (editable) {
      tiles.append(el("button", { class: "tile-button add", type: "button", title: t("bitenight.add_tile"),
                                  "aria-label": t("bitenight.add_tile"), onclick: () => openTilePicker(name, null) }, "+"));
    }
    if (!held.length && !editable) tiles.append(el("p", { class: "muted" }, t("bitenight.no_tiles")));
    box.append(tiles);
    if (editable) box.append(readingTools(v, name));
    if (review && review.player === name) box.append(reviewPanel(review));
    return box;
  }

  function readingTools(v, name) {
    const input = el("input", { type: "file", accept: "image/*", capture: "environment" });
    input.addEventListener("change", () => { if (input.files[0]) readPhoto(name, input.files[0]); });
    const label = me() === name ? t("bitenight.take_photo") : t("bitenight.take_photo_for", { name });
    const tools = el("div", { class: "row tools" }, el("label", { class: "btn file-button" }, label, input));
    if (cameraOn(v)) {
      tools.prepend(el("button", { class: "btn primary", type: "button", dataset: { camera: name },
        onclick: () => {
          const tiles = seen?.seats[name]?.seen;
          if (tiles) game.post("set-collection", { player: name, tiles });
          else Companion.toast(t("bitenight.camera_off"), "error");
        } }, t("bitenight.camera_accept")));
    }
    return tools;
  }

  // -- the table camera --------------------------------------------------------------

  const cameraOn = (v) => v.reading === "camera" && v.camera;
  let cameraTimer = null;

  /** While the game reads from the camera, refresh its picture and what it sees. */
  function followCamera(v) {
    $("camera-card").hidden = !cameraOn(v);
    if (!cameraOn(v) || cameraTimer) { showSeen(); return; }
    const look = async () => {
      $("camera-img").src = `/camera/frame.jpg?at=${Date.now()}`;
      try {
        seen = await Companion.api("GET", `/bite-night/${encodeURIComponent(gameId)}/camera`);
      } catch (error) {
        seen = null;
      }
      showSeen();
    };
    look();
    cameraTimer = setInterval(look, 2000);
  }

  /** One line per player: does the table match the game? */
  function showSeen() {
    const box = $("camera-check");
    if (!data || !cameraOn(view())) return;
    if (!seen) { box.replaceChildren(el("p", { class: "muted" }, t("bitenight.camera_off"))); return; }
    box.replaceChildren(...view().players.map((name) => {
      const seat = seen.seats[name];
      const differences = [
        seat.missing.length ? t("bitenight.camera_missing", { tiles: tileNames(seat.missing) }) : null,
        seat.extra.length ? t("bitenight.camera_extra", { tiles: tileNames(seat.extra) }) : null,
      ].filter(Boolean);
      const verdict = differences.length ? t("bitenight.camera_differs", { name, detail: differences.join("; ") })
        : `${name}: ${t("bitenight.camera_matches")}`;
      const doubt = seat.unsure.length ? ` ${t("bitenight.camera_unsure", { tiles: tileNames(seat.unsure) })}` : "";
      return el("p", { class: `check ${differences.length ? "off" : "ok"}`, dataset: { player: name } },
        verdict + doubt);
    }));
  }

  async function readPhoto(player, file) {
    if (review) URL.revokeObjectURL(review.url);
    review = { player, url: URL.createObjectURL(file), found: null };
    render(data);
    try {
      review.found = await Companion.upload(`/bite-night/${encodeURIComponent(gameId)}/photo`, { player, photo: file });
    } catch (error) {
      Companion.toast(error.message, "error", 6000);
      URL.revokeObjectURL(review.url);
      review = null;
    }
    render(data);
  }

  function reviewPanel(shown) {
    const panel = el("div", { class: "review-box", id: "review" });
    const picture = el("div", { class: "review" }, el("img", { src: shown.url, alt: "" }));
    panel.append(picture);
    if (!shown.found) {
      panel.append(el("p", { class: "muted" }, t("bitenight.reading_photo_wait")));
      return panel;
    }
    const found = shown.found;
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", `0 0 ${found.width} ${found.height}`);
    svg.setAttribute("preserveAspectRatio", "none");
    const fontSize = Math.max(found.width, found.height) / 40;
    // A tile read unsurely is drawn in orange with a question mark, here and in the
    // strip below, so that the player checks those few rather than every tile.
    for (const tile of found.tiles) {
      const polygon = document.createElementNS(svg.namespaceURI, "polygon");
      polygon.setAttribute("points", tile.polygon.map(([x, y]) => `${x},${y}`).join(" "));
      const label = document.createElementNS(svg.namespaceURI, "text");
      label.setAttribute("x", tile.center[0]);
      label.setAttribute("y", tile.center[1]);
      label.setAttribute("text-anchor", "middle");
      label.setAttribute("font-size", fontSize);
      label.textContent = tile.unsure ? `${tileName(tile.id)} ?` : tileName(tile.id);
      if (tile.unsure) { polygon.classList.add("unsure"); label.classList.add("unsure"); }
      svg.append(polygon, label);
    }
    picture.append(svg);
    const ids = found.tiles.map((tile) => tile.id);
    const unsure = found.tiles.filter((tile) => tile.unsure).map((tile) => tile.id);
    const strip = found.tiles.map((tile) => {
      const img = tileImg(tile.id);
      if (tile.unsure) img.classList.add("unsure");
      return img;
    });
    // While collections are counted, a photo that shows fewer or more tiles than the
    // player should hold says so: a tile the camera missed is not drawn anywhere.
    const v = view();
    const counting = v.phase === "placing" || v.phase === "grabbing";
    const countOff = counting && ids.length !== v.tiles_expected
      ? ` ${t("bitenight.photo_count_off", { expected: v.tiles_expected })}` : "";
    panel.append(el("p", {}, (unsure.length ? t("bitenight.photo_found_unsure", { n: ids.length, tiles: tileNames(unsure) })
                                            : t("bitenight.photo_found", { n: ids.length })) + countOff),
      el("div", { class: "tiles small" }, strip),
      el("div", { class: "row" },
        el("button", { class: "btn primary", id: "use-found", onclick: async () => {
          if (await game.post("set-collection", { player: shown.player, tiles: ids })) closeReview();
        } }, t("bitenight.use_found", { n: ids.length })),
        el("button", { class: "btn", onclick: () => { closeReview(); render(data); } }, t("bitenight.discard"))));
    return panel;
  }

  function closeReview() {
    if (review) URL.revokeObjectURL(review.url);
    review = null;
  }

  // -- pickers -----------------------------------------------------------------------

  function openPicker(title, fill) {
    const dialog = $("picker");
    $("picker-title").textContent = title;
    const body = $("picker-body");
    body.replaceChildren();
    fill(body, () => dialog.close());
    if (!dialog.open) dialog.showModal();
  }

  function openCardPicker() {
    openPicker(t("bitenight.which_card"), (body, close) => {
      const grid = el("div", { class: "card-grid" });
      const shown = catalogue.cards.filter((card) => !card.advanced || view().deck === "advanced");
      const usedUp = view().used_up ?? {};
      for (const card of shown) {
        // A card whose every copy came up already stays in its place (players look for
        // it where it always is), greyed out and saying why it cannot come up again.
        const copies = usedUp[card.id];
        const why = copies === undefined ? null
          : t(copies === 1 ? "bitenight.card_used_up" : "bitenight.card_used_up_all", { n: copies });
        grid.append(el("button", { type: "button", class: why ? "used-up" : null, disabled: Boolean(why),
          title: why, dataset: { card: card.id }, onclick: () => {
            close();
            game.post("reveal-card", { card: card.id });
          } }, cardFace(card.id), why ? el("span", { class: "why" }, why) : null));
      }
      body.append(grid);
    });
  }

  /** Change (or add) a tile of a collection by motif, colour and heart, with pictures. */
  function openTilePicker(player, current) {
    const tile = current ? parseTile(current) : { colour: "blue", motif: "vampire", heart: false };
    openPicker(current ? t("bitenight.change_tile") : t("bitenight.new_tile"), (body, close) => {
      const draw = () => {
        const id = tileId(tile);
        const option = (label, over, on) => el("button", { type: "button", class: on ? "on" : "",
          onclick: () => { Object.assign(tile, over); draw(); } }, tileImg(tileId({ ...tile, ...over })), label);
        const actions = el("div", { class: "row" },
          el("button", { type: "button", class: "btn primary", id: "pick-apply", onclick: () => {
            close();
            if (!current) game.post("add-tile", { player, tile: id });
            else if (id !== current) game.post("replace-tile", { player, tile: current, by: id });
          } }, current ? t("bitenight.apply_change") : t("bitenight.apply_add")),
          current ? el("button", { type: "button", class: "btn danger", id: "pick-remove", onclick: () => {
            close();
            game.post("remove-tile", { player, tile: current });
          } }, t("bitenight.remove_tile")) : null);
        body.replaceChildren(
          el("div", { class: "preview" }, tileImg(id), el("span", {}, tileName(id))),
          actions,
          el("h3", {}, t("bitenight.motif")),
          el("div", { class: "options", id: "pick-motif" }, catalogue.motifs.map((motif) =>
            option(t(`bitenight.motif.${motif}`), { motif }, motif === tile.motif))),
          el("h3", {}, t("bitenight.colour")),
          el("div", { class: "options", id: "pick-colour" }, catalogue.colours.map((colour) =>
            option(t(`bitenight.colour.${colour}`), { colour }, colour === tile.colour))),
          el("h3", {}, t("bitenight.heart")),
          el("div", { class: "options", id: "pick-heart" },
            option(t("bitenight.without_heart"), { heart: false }, !tile.heart),
            option(t("bitenight.with_heart"), { heart: true }, tile.heart)));
      };
      draw();
    });
  }

  // -- score pad ---------------------------------------------------------------------

  function scorePad(v) {
    const players = v.players;
    // Each cycle's points, and from the second cycle on the running total beneath them.
    const rows = v.score_pad.rows.map((row, index) => el("tr", {}, el("td", {}, t("bitenight.cycle_n", { n: row.cycle })),
      players.map((name) => el("td", {}, String(row.points[name]),
        index > 0 && row.total ? el("span", { class: "running" }, t("bitenight.running", { n: row.total[name] })) : null))));
    if (v.phase === "rendezvous" && v.rendezvous) {
      rows.push(el("tr", { class: "live" }, el("td", {}, t("bitenight.this_cycle", { n: v.cycle })),
        players.map((name) => el("td", {}, v.rendezvous.points[name]))));
    }
    if (!rows.length) return el("p", { class: "muted" }, t("bitenight.no_scores"));
    const sum = el("tr", { class: "sum" }, el("td", {}, t("bitenight.sum")),
      players.map((name) => el("td", { class: v.winners.includes(name) ? "win" : "" }, v.score_pad.sum[name])));
    return el("table", { class: "pad", id: "score-pad" },
      el("thead", {}, el("tr", {}, el("th", {}), players.map((name) => el("th", {}, name)))),
      el("tbody", {}, rows, sum));
  }

  // -- the 1-2-3 ---------------------------------------------------------------------

  function countdown() {
    const box = $("countdown");
    const text = $("countdown-text");
    const beats = ["3", "2", "1"];
    box.hidden = false;
    let beat = 0;
    const tick = () => {
      if (beat < beats.length) {
        text.textContent = beats[beat];
        text.className = "";
        Companion.beep(660, 150);
        beat += 1;
        setTimeout(tick, 800);
      } else {
        text.textContent = t("bitenight.grab");
        text.className = "grab";
        Companion.beep(990, 450);
        setTimeout(() => { box.hidden = true; }, 1200);
      }
    };
    tick();
  }
})();
