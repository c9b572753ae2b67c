// tileref spectator page: step through moves without reloading (links, arrow keys, Home/End),
// follow the game live (server-sent events: only what changed), count the clock down. The page works without it.
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
    if (response.headers.get("X-At") !== null) main.dataset.at = response.headers.get("X-At");
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

  // ---- live updates (server-sent events) ----------------------------------------------------
  // Each `change` event says only what changed (bot/adapters/web/pages.py, live_update): the move
  // list's items from ply `from` on (a rollback replaces from where the log changed), the new
  // picture's address, the status line, the players table, and whether the game has ended.

  // Replace the move list's items from ply `fromPly` on with `itemsHtml` (<li value=N>…).
  function appendMoves(fromPly, itemsHtml) {
    const moves = main.querySelector(".moves");
    if (!moves) return;
    let list = moves.querySelector("ol");
    if (!list) {
      for (const empty of moves.querySelectorAll("p")) empty.remove();
      list = document.createElement("ol");
      moves.appendChild(list);
    }
    for (const item of list.querySelectorAll("li[value]")) {
      if (Number(item.getAttribute("value")) >= fromPly) item.remove();
    }
    list.insertAdjacentHTML("beforeend", itemsHtml);
  }

  // Show the picture at `url` (an address that names its position, cached for good).
  function showPicture(url, alt) {
    const image = main.querySelector(".board img");
    if (!image) return;
    if (image.getAttribute("src") !== url) image.setAttribute("src", url);
    if (alt) image.setAttribute("alt", alt);
  }

  // Point the step controls at ply `ply` of `lastPly`.
  function showSteps(ply, lastPly, counter) {
    const targets = { start: 0, back: Math.max(0, ply - 1), forward: Math.min(lastPly, ply + 1), now: lastPly };
    for (const link of main.querySelectorAll("a[data-step]")) {
      const target = targets[link.dataset.step];
      if (target === undefined) continue;
      link.dataset.ply = String(target);
      link.setAttribute("href", base + "?ply=" + target);
    }
    const count = main.querySelector(".steps span");
    if (count && counter) count.textContent = counter;
  }

  function replaceWith(selector, html) {
    const old = main.querySelector(selector);
    if (!old || !html) return;
    const holder = document.createElement("div");
    holder.innerHTML = html;
    if (holder.firstElementChild) old.replaceWith(holder.firstElementChild);
  }

  function applyChange(change) {
    if (change.reload) { show(live() ? null : shown(), false); return; }
    if (change.lobby !== undefined) {
      if (main.querySelector(".board")) location.reload(); else main.innerHTML = change.lobby;
      return;
    }
    if (!main.querySelector(".board")) { location.reload(); return; }  // the game has just started
    const wasLive = live();
    appendMoves(change.from, change.items);
    main.dataset.last = String(change.last);
    main.dataset.at = change.at;
    main.dataset.ended = change.ended ? "1" : "0";
    if (wasLive || shown() > change.last) {
      main.dataset.ply = String(change.last);
      main.dataset.live = "1";
      showPicture(change.picture, change.alt);
      replaceWith(".status", change.status);
      replaceWith(".players", change.players);
      const download = main.querySelector(".board a[download]");
      if (download && change.position) download.setAttribute("href", change.position);
      for (const item of main.querySelectorAll(".moves li.current")) {
        item.classList.remove("current"); item.removeAttribute("aria-current");
      }
      const newest = main.querySelector('.moves li[value="' + change.last + '"]');
      if (newest) { newest.classList.add("current"); newest.setAttribute("aria-current", "step"); }
      showSteps(change.last, change.last, change.counter);
      tick();
    } else {
      showSteps(shown(), change.last, null);
    }
  }

  const connection = document.getElementById("connection");
  function say(text) {
    if (!connection) return;
    connection.textContent = text || "";
    connection.hidden = !text;
  }

  function follow() {
    if (!window.EventSource) return;
    const at = main.dataset.at;
    const stream = new EventSource(base + "/live" + (at ? "?at=" + encodeURIComponent(at) : ""));
    stream.addEventListener("open", function () { say(""); });
    stream.addEventListener("error", function () {
      if (main.dataset.ended === "1") {  // nothing more will come: stop asking
        stream.close();
        say(connection && connection.dataset.gone);
        return;
      }
      say(connection && connection.dataset.lost);
      if (stream.readyState === EventSource.CLOSED) setTimeout(follow, 5000);  // refused: try again later
    });
    stream.addEventListener("change", function (event) { applyChange(JSON.parse(event.data)); });
  }
  follow();

  window.tileref = { appendMoves: appendMoves, showPicture: showPicture, showSteps: showSteps };
})();
