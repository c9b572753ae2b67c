// tileref spectator page: step through moves without reloading (links, arrow keys, Home/End),
// follow the game live (server-sent events), count the clock down. The page works without it.
"use strict";
(function () {
  const main = document.getElementById("spectacle");
  const token = document.body.dataset.token;
  if (!main || !token) return;
  const base = "/t/" + encodeURIComponent(token);
  let busy = null;

  function shown() { return Number(main.dataset.ply); }
  function last() { return Number(main.dataset.last); }
  function live() { return main.dataset.live === "1"; }

  async function show(ply, push) {
    const query = ply === null ? "" : "?ply=" + ply;
    const request = fetch(base + "/part" + query, { headers: { Accept: "text/html" } });
    busy = request;
    const response = await request;
    if (busy !== request || !response.ok) return;
    const html = await response.text();
    main.innerHTML = html;
    main.dataset.ply = response.headers.get("X-Ply");
    main.dataset.last = response.headers.get("X-Last");
    main.dataset.live = ply === null ? "1" : "0";
    if (push) history.pushState({ ply: ply }, "", base + query);
    const current = main.querySelector(".moves .current");
    if (current && push) current.scrollIntoView({ block: "nearest" });
    tick();
  }

  function go(ply) {
    const target = Math.max(0, Math.min(last(), ply));
    show(target === last() ? null : target, true);
  }

  main.addEventListener("click", function (event) {
    const link = event.target.closest("a[data-ply]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    go(Number(link.dataset.ply));
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = { ArrowLeft: shown() - 1, ArrowRight: shown() + 1, Home: 0, End: last() };
    if (!(event.key in keys)) return;
    event.preventDefault();
    go(keys[event.key]);
  });

  window.addEventListener("popstate", function () {
    const ply = new URLSearchParams(location.search).get("ply");
    show(ply === null ? null : Number(ply), false);
  });

  function tick() {
    const now = Date.now() / 1000;
    for (const time of main.querySelectorAll("time[data-deadline]")) {
      const left = Math.max(0, Math.round(Number(time.dataset.deadline) - now));
      const d = Math.floor(left / 86400), h = Math.floor(left / 3600) % 24;
      const m = Math.floor(left / 60) % 60, s = left % 60;
      const pad = function (n) { return String(n).padStart(2, "0"); };
      time.textContent = (d ? d + "d " : "") + pad(h) + ":" + pad(m) + ":" + pad(s);
    }
  }
  setInterval(tick, 1000);
  tick();

  if (window.EventSource) {
    const stream = new EventSource(base + "/live");
    let lost = false;
    stream.addEventListener("error", function () { lost = true; });
    stream.addEventListener("open", function () {  // back after a break: what happened meanwhile
      if (lost) show(live() ? null : shown(), false);
      lost = false;
    });
    stream.addEventListener("change", function (event) {
      const data = JSON.parse(event.data);
      if (live()) show(null, false);
      else if (data.last !== last()) show(shown(), false);
    });
  }
})();
