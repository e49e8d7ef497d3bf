/* Importing an exported game from the start page (web/transfer.py does the checking):
   the file is read here, posted as JSON, and the new game opens on this screen, which
   becomes its host. Exporting needs no script: the host bar's link downloads the file. */
"use strict";

(() => {
  const form = document.getElementById("import-game");
  if (!form) return;
  const MAX_BYTES = 2 * 1024 * 1024;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = form.querySelector("input[type=file]").files[0];
    if (!file) return;
    if (file.size > MAX_BYTES) {
      Companion.toast(Companion.t("shell.import_too_large"), "error");
      return;
    }
    let exported;
    try {
      exported = JSON.parse(await file.text());
    } catch (error) {
      Companion.toast(Companion.t("shell.import_not_json"), "error");
      return;
    }
    try {
      const game = await Companion.api("POST", "/api/games/import", exported);
      window.location.assign(game.url);
    } catch (error) {
      Companion.toast(error.message, "error");
    }
  });
})();
