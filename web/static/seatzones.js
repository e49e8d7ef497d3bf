/* The seat zone editor: the host taps each seat's corners over the camera frame.
   Corners are kept in the frame's own pixels (the size /camera/detections gives), so
   the zones fit the detections whatever size the picture is shown at. Each player of
   the game is one button (data-seat: his name); a saved zone is his whether it names
   him or his seat number, and is saved under his name. Zones of other seats are kept
   by the server and only mentioned here. */
"use strict";

(() => {
  const { t, api, toast } = Companion;
  const gameId = document.body.dataset.gameId;
  const img = document.getElementById("zone-img");
  const canvas = document.getElementById("zone-canvas");
  const buttons = [...document.querySelectorAll(".zone-seat")];
  const COLOURS = ["#e4572e", "#4ea5d9", "#9bc53d", "#f2c14e", "#b07bd9", "#f0f0f0"];
  const zones = new Map(buttons.map((button) => [button.dataset.seat, []]));
  let frame = { width: 1, height: 1 };
  let current = buttons[0]?.dataset.seat;

  function select(seat) {
    current = seat;
    for (const button of buttons) button.classList.toggle("primary", button.dataset.seat === seat);
  }

  function draw() {
    canvas.width = img.clientWidth;
    canvas.height = img.clientHeight;
    const scale = canvas.width / frame.width;
    const pen = canvas.getContext("2d");
    pen.lineWidth = 3;
    pen.font = "bold 18px sans-serif";
    pen.textAlign = "center";
    buttons.forEach((button, index) => {
      const corners = zones.get(button.dataset.seat);
      button.querySelector("span").textContent = corners.length
        ? t("camera.zones_corners", { n: corners.length }) : t("camera.zones_none");
      if (!corners.length) return;
      const colour = COLOURS[index % COLOURS.length];
      pen.strokeStyle = colour;
      pen.fillStyle = colour + "40";
      pen.beginPath();
      corners.forEach(([x, y], k) => (k ? pen.lineTo(x * scale, y * scale) : pen.moveTo(x * scale, y * scale)));
      pen.closePath();
      pen.fill();
      pen.stroke();
      pen.fillStyle = colour;
      for (const [x, y] of corners) pen.fillRect(x * scale - 4, y * scale - 4, 8, 8);
      const cx = corners.reduce((sum, [x]) => sum + x, 0) / corners.length;
      const cy = corners.reduce((sum, [, y]) => sum + y, 0) / corners.length;
      pen.fillText(button.dataset.seat, cx * scale, cy * scale);
    });
  }

  canvas.addEventListener("click", (event) => {
    if (!current) return;
    const box = canvas.getBoundingClientRect();
    const scale = frame.width / box.width;
    zones.get(current).push([
      Math.round((event.clientX - box.left) * scale * 10) / 10,
      Math.round((event.clientY - box.top) * scale * 10) / 10,
    ]);
    draw();
  });
  for (const button of buttons) button.addEventListener("click", () => { select(button.dataset.seat); draw(); });
  document.getElementById("zone-undo").addEventListener("click", () => { zones.get(current)?.pop(); draw(); });
  document.getElementById("zone-clear").addEventListener("click", () => { zones.set(current, []); draw(); });

  const path = `/camera/zones/zones.json?game=${encodeURIComponent(gameId)}`;

  async function save(method, list, message) {
    try {
      show(await api(method, path, method === "POST" ? { zones: list } : {}));
      toast(message);
    } catch (error) { toast(error.message, "error"); }
  }

  document.getElementById("zone-save").addEventListener("click", () => {
    const short = buttons.find((button) => zones.get(button.dataset.seat).length in { 1: 1, 2: 1 });
    if (short) { toast(t("camera.zones_need_three", { name: short.dataset.seat }), "error"); return; }
    const list = [...zones].filter(([, corners]) => corners.length).map(([seat, polygon]) => ({ seat, polygon }));
    save("POST", list, t(list.length ? "camera.zones_saved" : "camera.zones_cleared"));
  });
  document.getElementById("zone-forget").addEventListener("click", () => {
    for (const seat of zones.keys()) zones.set(seat, []);
    save("DELETE", [], t("camera.zones_cleared"));
  });

  function show(answer) {
    document.getElementById("seating").textContent = t(`camera.seating_${answer.seating}`);
    for (const zone of answer.zones) if (zones.has(zone.player)) zones.set(zone.player, zone.polygon);
    const others = answer.zones.filter((zone) => !zones.has(zone.player))
      .map((zone) => (/^\d+$/.test(zone.seat) ? t("camera.zones_seat_n", { n: zone.seat }) : zone.seat));
    const note = document.getElementById("zone-others");
    note.hidden = !others.length;
    note.textContent = t("camera.zones_others", { seats: others.join(", ") });
    draw();
  }

  async function start() {
    try {
      frame = await api("GET", "/camera/detections");
      show(await api("GET", path));
    } catch (error) { toast(error.message, "error"); }
  }

  select(current);
  if (img.complete) start(); else img.addEventListener("load", start);
  window.addEventListener("resize", draw);
})();
