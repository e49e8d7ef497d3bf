/* The host's setup form: players in seat order, who lays the lids, the layout number. */
"use strict";

document.getElementById("setup").addEventListener("submit", async (event) => {
  event.preventDefault();
  const players = [...document.querySelectorAll(".player-name")]
    .map((input) => input.value.trim()).filter((name) => name);
  const mode = document.querySelector('input[name="mode"]:checked').value;
  const setup = { players, mode };
  const seed = document.getElementById("seed").value.trim();
  if (mode === "seeded" && seed) setup.seed = Number(seed);
  const button = document.getElementById("start");
  button.disabled = true;
  try {
    const title = document.getElementById("title").value.trim();
    const answer = await Companion.api("POST", "/middernacht/games", { title, setup });
    window.location = answer.url;
  } catch (error) {
    Companion.toast(error.message, "error", 6000);
    button.disabled = false;
  }
});
