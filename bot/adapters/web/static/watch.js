// tileref spectator page: step through moves without reloading (links, arrow keys, Home/End,
// autoplay), follow the game live (server-sent events that carry only what changed), count the
// clock down, share a move. The page works without it.
//
// The move list only grows: new items arrive through `appendMoves(fromPly, itemsHtml)` (also
// `window.tileref.appendMoves`, for the live-update handler), which replaces any item from
// `fromPly` on, keeps the newest move in view unless the reader scrolled away, and keeps the
// round jumps in step. Steps queue: a key pressed while a step is being fetched is not lost.
"use strict";
(function () {
  const main = document.getElementById("spectacle");
  const token = document.body.dataset.token;
  if (!main || !token) return;
  document.documentElement.classList.add("js");
  const base = "/t/" + encodeURIComponent(token);
  const announcer = document.getElementById("announce");
  const NEAR_END = 24;  // px: a list scrolled this close to its end is following the game

  let pending;          // what to fetch next: undefined (nothing), {ply: null|number, step: bool}
  let running = false;  // a fetch is in flight
  let aimed = null;     // the ply the reader last stepped to, until it is shown
  let chosenBoard = 0;  // Tetromic on a phone: whose board is shown
  let playing = null;   // autoplay's timer
  let speed = 1000;     // autoplay: ms per move

  function shown() { return Number(main.dataset.ply); }
  function last() { return Number(main.dataset.last); }
  function live() { return main.dataset.live === "1"; }
  function aim() { return aimed === null ? shown() : aimed; }

  function say(text) {  // one polite announcement (cleared first, so the same words are read again)
    if (!announcer || !text) return;
    announcer.textContent = "";
    window.setTimeout(function () { announcer.textContent = text; }, 50);
  }

  // ---- the move list ------------------------------------------------------------------------

  function list() { return main.querySelector(".moves ol"); }

  function following(ol) { return ol.scrollHeight - ol.scrollTop - ol.clientHeight <= NEAR_END; }

  function reveal(ol, item) {  // scroll the list (never the page) so `item` is in view
    const top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < ol.scrollTop) ol.scrollTop = Math.max(0, top - 8);
    else if (bottom > ol.scrollTop + ol.clientHeight) ol.scrollTop = bottom - ol.clientHeight + 8;
  }

  function highlight(ply) {
    const ol = list();
    if (!ol) return null;
    for (const old of ol.querySelectorAll("li.current")) {
      old.classList.remove("current");
      old.removeAttribute("aria-current");
    }
    const item = ol.querySelector('li[value="' + ply + '"]');
    if (item) {
      item.classList.add("current");
      item.setAttribute("aria-current", "step");
    }
    return item;
  }

  function syncRounds() {  // the round jumps: one link per round heading in the list
    const nav = main.querySelector(".moves nav.rounds");
    const ol = list();
    if (!nav || !ol) return;
    const have = nav.querySelectorAll("a[data-round]").length;
    const headings = ol.querySelectorAll("h3[id^='round-']");
    if (have === headings.length) return;
    for (const link of nav.querySelectorAll("a[data-round]")) link.remove();
    headings.forEach(function (heading, index) {
      const ply = heading.closest("li").value;
      const link = document.createElement("a");
      link.href = "?ply=" + ply;
      link.dataset.ply = String(ply);
      link.dataset.round = String(index + 1);
      link.textContent = String(index + 1);
      nav.append(link);
    });
  }

  // Items from `fromPly` on are replaced by `itemsHtml` (the server's `<li value=N>…` items,
  // `pages.move_items`); the newest is announced when the page follows the game live. Returns
  // the items added.
  function appendMoves(fromPly, itemsHtml) {
    const ol = list();
    if (!ol) return [];
    const follow = following(ol);
    for (const item of Array.from(ol.children)) {
      if (item.value >= fromPly) item.remove();
    }
    const holder = document.createElement("template");
    holder.innerHTML = itemsHtml;
    const added = Array.from(holder.content.children);
    ol.append(holder.content);
    const empty = main.querySelector(".moves .empty");
    if (empty && ol.children.length) empty.remove();
    syncRounds();
    highlight(shown());
    if (follow) ol.scrollTop = ol.scrollHeight;
    if (added.length && live()) say(added[added.length - 1].dataset.said);
    return added;
  }

  // The board picture now at `src`; each part (Tetromic's boards one at a time) at `src` with
  // `part=N` added.
  function setBoardPicture(src) {
    const whole = main.querySelector(".board img.whole");
    if (whole) whole.src = src;
    for (const image of main.querySelectorAll(".board img.part")) {
      image.src = src + (src.includes("?") ? "&" : "?") + "part=" + image.dataset.board;
    }
  }

  function syncMoves(fresh) {  // bring the list in line with a freshly fetched one
    const ol = list(), next = fresh.querySelector(".moves ol");
    if (!ol || !next) return [];
    const have = Array.from(ol.children), want = Array.from(next.children);
    let same = 0;
    while (same < have.length && same < want.length && have[same].dataset.said === want[same].dataset.said) same++;
    if (same === have.length && same === want.length) return [];
    return appendMoves(same + 1, want.slice(same).map(function (item) { return item.outerHTML; }).join(""));
  }

  // ---- the changing parts ---------------------------------------------------------------------

  function focusedKey() {
    const active = document.activeElement;
    return active && main.contains(active) && active.dataset ? active.dataset.focus : undefined;
  }

  function apply(html, headers, step) {  // a fetched `/part`: swap the parts, sync the list
    const fresh = document.createElement("template");
    fresh.innerHTML = html;
    const key = focusedKey();
    const parts = ["play", "players"];
    const fits = parts.every(function (name) {
      return main.querySelector('[data-part="' + name + '"]') && fresh.content.querySelector('[data-part="' + name + '"]');
    }) && list() && fresh.content.querySelector(".moves ol");
    main.dataset.ply = headers.get("X-Ply");
    main.dataset.last = headers.get("X-Last");
    if (headers.get("X-At") !== null) main.dataset.at = headers.get("X-At");
    if (fits) {
      for (const name of parts) {
        main.querySelector('[data-part="' + name + '"]').replaceWith(fresh.content.querySelector('[data-part="' + name + '"]'));
      }
      syncMoves(fresh.content);
    } else {
      main.replaceChildren(fresh.content);
    }
    const current = highlight(shown());
    const ol = list();
    if (step && current && ol) reveal(ol, current);
    if (key) {
      const again = main.querySelector('[data-focus="' + key + '"]');
      if (again) again.focus({ preventScroll: true });
    }
    setup();
  }

  async function pump() {  // fetch what is pending, one at a time; steps asked meanwhile queue
    if (running) return;
    running = true;
    try {
      while (pending !== undefined) {
        const asked = pending;
        pending = undefined;
        const query = asked.ply === null ? "" : "?ply=" + asked.ply;
        const response = await fetch(base + "/part" + query, { headers: { Accept: "text/html" } });
        if (!response.ok) continue;
        const html = await response.text();
        if (pending !== undefined && pending.step && !asked.step) continue;  // a step overtook it
        main.dataset.live = asked.ply === null ? "1" : "0";
        apply(html, response.headers, asked.step);
        if (asked.step && pending === undefined) {
          const counter = main.querySelector(".steps .counter");
          if (counter) say(counter.textContent);
        }
      }
    } catch (error) {
      pending = undefined;
    } finally {
      running = false;
      if (pending === undefined) aimed = null;
    }
  }

  function go(ply) {  // step to `ply` (the newest: follow the game), replacing the history entry
    const target = Math.max(0, Math.min(last(), ply));
    aimed = target;
    const now = target === last();
    history.replaceState({ ply: target }, "", base + (now ? "" : "?ply=" + target));
    pending = { ply: now ? null : target, step: true };
    pump();
  }

  function refresh() {  // the table changed: fetch what is shown again (unless a step is queued)
    if (pending === undefined) pending = { ply: live() ? null : shown(), step: false };
    pump();
  }

  // ---- controls -------------------------------------------------------------------------------

  function setup() {  // show the controls that need this script, in their current state
    const box = main.querySelector(".autoplay");
    if (box) {
      box.hidden = false;
      const button = box.querySelector("[data-action='autoplay']");
      if (button) button.setAttribute("aria-pressed", playing ? "true" : "false");
      const choice = box.querySelector("select");
      if (choice) choice.value = String(speed);
    }
    const share = main.querySelector("[data-action='share']");
    if (share) share.hidden = false;
    const tabs = main.querySelector(".parts .tabs");
    if (tabs) {
      tabs.hidden = false;
      const count = tabs.querySelectorAll("button").length;
      if (chosenBoard >= count) chosenBoard = 0;
      for (const button of tabs.querySelectorAll("button")) {
        button.setAttribute("aria-pressed", Number(button.dataset.board) === chosenBoard ? "true" : "false");
      }
      for (const image of main.querySelectorAll(".parts img.part")) {
        image.classList.toggle("chosen", Number(image.dataset.board) === chosenBoard);
      }
    }
  }

  function stopPlaying() {
    if (playing) window.clearTimeout(playing);
    playing = null;
    setup();
  }

  function playNext() {
    if (aim() >= last()) { stopPlaying(); return; }
    go(aim() + 1);
    playing = window.setTimeout(playNext, speed);
  }

  function togglePlaying() {
    if (playing) { stopPlaying(); return; }
    if (aim() >= last()) go(0);
    playing = window.setTimeout(playNext, speed);
    setup();
  }

  async function share(button) {
    const url = location.origin + base + "?ply=" + shown();
    if (navigator.share) {
      try { await navigator.share({ title: document.title, url: url }); return; } catch (error) {
        if (error && error.name === "AbortError") return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      say(button.dataset.copied || url);
    } catch (error) {
      window.prompt(button.textContent, url);
    }
  }

  main.addEventListener("click", function (event) {
    const target = event.target;
    const action = target.closest("[data-action]");
    if (action && action.dataset.action === "autoplay") { togglePlaying(); return; }
    if (action && action.dataset.action === "share") { share(action); return; }
    const tab = target.closest(".parts button[data-board]");
    if (tab) { chosenBoard = Number(tab.dataset.board); setup(); return; }
    const link = target.closest("a[data-ply]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    if (playing && !link.closest(".autoplay")) stopPlaying();
    go(Number(link.dataset.ply));
  });

  main.addEventListener("change", function (event) {
    if (event.target.dataset.action !== "speed") return;
    speed = Number(event.target.value) || 1000;
    if (playing) { window.clearTimeout(playing); playing = window.setTimeout(playNext, speed); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("select, input, textarea")) return;
    const keys = { ArrowLeft: aim() - 1, ArrowRight: aim() + 1, Home: 0, End: last() };
    if (!(event.key in keys)) return;
    event.preventDefault();
    go(keys[event.key]);
  });

  window.addEventListener("popstate", function () {
    const ply = new URLSearchParams(location.search).get("ply");
    pending = { ply: ply === null ? null : Number(ply), step: true };
    pump();
  });

  function tick() {
    const now = Date.now() / 1000;
    for (const time of main.querySelectorAll("time[data-deadline]")) {
      const left = Math.max(0, Math.round(Number(time.dataset.deadline) - now));
      const d = Math.floor(left / 86400), h = Math.floor(left / 3600) % 24;
      const m = Math.floor(left / 60) % 60, s = left % 60;
      const pad = function (n) { return String(n).padStart(2, "0"); };
      time.textContent = (d ? d + "d " : "") + pad(h) + ":" + pad(m) + ":" + pad(s);
      // at zero the countdown gives way to "the turn's time is up" until the update that follows
      const running = time.closest(".running"), over = running && running.parentElement.querySelector(".over");
      if (running && over) { running.hidden = left === 0; over.hidden = left !== 0; }
    }
  }
  setInterval(tick, 1000);
  tick();
  setup();
  (function firstView() {  // the list opens on the newest move, or on the one shown
    const ol = list();
    if (!ol) return;
    const current = ol.querySelector("li.current");
    if (live() || !current) ol.scrollTop = ol.scrollHeight;
    else reveal(ol, current);
  })();

  // ---- live updates (server-sent events) ----------------------------------------------------
  // Each `change` event says only what changed (bot/adapters/web/pages.py, live_update): the move
  // list's items from ply `from` on (a rollback replaces them from where the log changed), the new
  // picture's address and text, the status, the players table, and whether the game has ended.
  // A page that reconnects names the newest position it knows (`at`) and hears only what it missed.

  function replaceWith(selector, html) {
    const old = main.querySelector(selector);
    if (!old || !html) return;
    const holder = document.createElement("template");
    holder.innerHTML = html;
    if (holder.content.firstElementChild) old.replaceWith(holder.content.firstElementChild);
  }

  // The step links and the counter at ply `ply` of `lastPly` (`counter`: its words, else made
  // from the counter's own template): a reader who stepped back stays where they are while the
  // total grows.
  function pointSteps(ply, lastPly, counter) {
    const targets = { start: 0, back: Math.max(0, ply - 1), forward: Math.min(lastPly, ply + 1), now: lastPly };
    for (const link of main.querySelectorAll("a[data-step]")) {
      const target = targets[link.dataset.step];
      if (target === undefined) continue;
      link.dataset.ply = String(target);
      link.setAttribute("href", base + "?ply=" + target);
    }
    const count = main.querySelector(".steps .counter");
    if (!count) return;
    if (counter) count.textContent = counter;
    else if (count.dataset.counting) {  // "Move {ply} of {last}", in the page's language
      count.textContent = count.dataset.counting.replace("{ply}", String(ply)).replace("{last}", String(lastPly));
    }
  }

  function applyChange(change) {
    if (change.reload || change.lobby !== undefined || !main.querySelector(".board")) {
      refresh();  // the lobby changed, the game began, or the page must be read again
      return;
    }
    const wasLive = live();
    main.dataset.last = String(change.last);
    main.dataset.at = change.at;
    main.dataset.ended = change.ended ? "1" : "0";
    if (wasLive && pending === undefined) main.dataset.ply = String(change.last);
    appendMoves(change.from, change.items);
    if (wasLive && pending === undefined) {
      setBoardPicture(change.picture);
      const whole = main.querySelector(".board img.whole");
      if (whole && change.alt) whole.setAttribute("alt", change.alt);
      for (const image of main.querySelectorAll(".board img.part")) if (change.alt) image.setAttribute("alt", change.alt);
      const download = main.querySelector(".board .position a[download]");
      if (download && change.position) download.setAttribute("href", change.position);
      replaceWith(".state", change.status);
      replaceWith('[data-part="players"]', change.players);
      pointSteps(change.last, change.last, change.counter);
      highlight(change.last);
      tick();
    } else {
      pointSteps(shown(), change.last, null);
    }
  }

  const connection = document.getElementById("connection");
  function connectionSays(text) {  // "Reconnecting…", or that the server has stopped; "" hides it
    if (!connection) return;
    if (text && text !== connection.textContent) say(text);  // read once, by the page's one live region
    connection.textContent = text || "";
    connection.hidden = !text;
  }

  function follow() {
    if (!window.EventSource) return;
    const at = main.dataset.at;
    const stream = new EventSource(base + "/live" + (at ? "?at=" + encodeURIComponent(at) : ""));
    stream.addEventListener("open", function () { connectionSays(""); });
    stream.addEventListener("error", function () {
      if (main.dataset.ended === "1") {  // nothing more will come: stop asking
        stream.close();
        connectionSays(connection && connection.dataset.gone);
        return;
      }
      connectionSays(connection && connection.dataset.lost);
      if (stream.readyState === EventSource.CLOSED) setTimeout(follow, 5000);  // refused: try again later
    });
    stream.addEventListener("change", function (event) { applyChange(JSON.parse(event.data)); });
  }
  follow();

  window.tileref = { appendMoves: appendMoves, setBoardPicture: setBoardPicture, refresh: refresh, go: go,
                     applyChange: applyChange };
})();
