/* The host screen's setup form: names in seat order, deck, reading, tile set. */
"use strict";

(() => {
  const form = document.getElementById("setup");
  const starting = document.getElementById("starting");
  const names = () => [...form.querySelectorAll('input[name="player"]')]
    .map((input) => input.value.trim()).filter((name) => name);

  function refreshStarting() {
    const chosen = starting.value;
    starting.replaceChildren(...names().map((name) => Companion.el("option", { value: name }, name)));
    if (names().includes(chosen)) starting.value = chosen;
  }
  form.addEventListener("input", (event) => { if (event.target.name === "player") refreshStarting(); });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const players = names();
    if (players.length < 3 || players.length > 4) {
      Companion.toast(Companion.t("bitenight.need_players"), "error");
      return;
    }
    const value = (name) => form.querySelector(`input[name="${name}"]:checked`).value;
    const body = {
      kind: "bite-night",
      title: document.getElementById("title").value.trim(),
      setup: {
        players,
        starting_player: starting.value || players[0],
        deck: value("deck"),
        reading: value("reading"),
        tileset: document.getElementById("tileset").value,
      },
    };
    try {
      const created = await Companion.api("POST", "/api/games", body);
      window.location = created.url;
    } catch (error) {
      Companion.toast(error.message, "error", 6000);
    }
  });
})();
