/* The join page: tap a free seat to take it, then go on to the game. */
"use strict";

for (const button of document.querySelectorAll("#seats .seat")) {
  button.addEventListener("click", async () => {
    const gameId = document.body.dataset.gameId;
    try {
      const answer = await Companion.api(
        "POST", `/api/games/${encodeURIComponent(gameId)}/seats/${encodeURIComponent(button.dataset.seat)}`, {});
      window.location = answer.url;
    } catch (error) {
      Companion.toast(error.message, "error", 6000);
    }
  });
}
