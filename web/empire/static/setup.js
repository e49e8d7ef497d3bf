/* The host's setup form: names and deck sizes; the server deals the secret. */
"use strict";

document.getElementById("setup").addEventListener("submit", async (event) => {
  event.preventDefault();
  const value = (id) => document.getElementById(id).value.trim();
  const players = {};
  if (value("vampire-name")) players.vampire = value("vampire-name");
  if (value("human-name")) players.human = value("human-name");
  const setup = {
    players,
    decks: { vampire: Number(value("vampire-deck")), human: Number(value("human-deck")) },
    characters: [...document.querySelectorAll(".character-name")].map((input) => input.value.trim()),
  };
  const button = document.getElementById("start");
  button.disabled = true;
  try {
    const answer = await Companion.api("POST", "/empire/games", { title: value("title"), setup });
    window.location = answer.url;
  } catch (error) {
    Companion.toast(error.message, "error", 6000);
    button.disabled = false;
  }
});
