// tracker: small behaviours htmx does not cover. No inline script anywhere (strict CSP).
(function () {
  "use strict";

  // htmx.ajax, whose promise rejects (with nothing) when the request fails: offline, a reload's
  // kept entry sent again left "Uncaught (in promise) undefined" (a tester). The failure is the
  // connection banner's to say (htmx:sendError); what follows the answer waits for one.
  function ajax(verb, path, options) {
    var asked = htmx.ajax(verb, path, options);
    if (!asked || !asked.then) { return asked; }
    return new Promise(function (resolve) { asked.then(resolve, function () { /* said by the banner */ }); });
  }

  // The phone's own large text (its font size at 125% or more, which sizes the page's rem): the
  // action tabs take two rows, their words then grow too (app.css, "Large text").
  // Looked at again with each new screen and resize: a font size changed while the game is open
  // (left at one row of 10.5 px tabs: a tester at 200%).
  function markLargeText() {
    var rootPx = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    document.documentElement.classList.toggle("large-text", rootPx >= 20);
  }
  markLargeText();
  window.addEventListener("resize", markLargeText);
  document.body.addEventListener("htmx:afterSettle", markLargeText);
  // The action tabs' height (two rows when the page is zoomed, 200%: a control reached with Tab
  // stopped under them, the room kept for one row; an accessibility tester): --tabs-h (app.css)
  function measureTabs() {
    var nav = document.querySelector("nav.actions");
    document.documentElement.style.setProperty("--tabs-h", (nav ? Math.ceil(nav.getBoundingClientRect().height) : 0) + "px");
  }
  measureTabs();
  window.addEventListener("resize", measureTabs);
  document.body.addEventListener("htmx:afterSettle", measureTabs);

  // The game log a phone had open stays open (with the focus it had) when a redraw comes, the
  // other phone's entry say: it closed, the focus fell to the page and the page jumped up (a tester)
  // It comes open in the new screen itself, and with every entry when all were shown ("Show all
  // N entries": the log as it was until the whole one, asked again, replaces it): the focus htmx
  // gives back during the swap (a token chip this script had focused) lays the page out before
  // any handler runs, and the page, shorter by the closed log, had its scroll cut (it jumped up
  // by the log's length), and every poll took the whole log back to its 20 lines (two testers).
  var logWasOpen = false, logHadFocus = false, wholeLog = null;
  var LOG_TAG = '<details class="log" id="log"';
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    if (!evt.detail.target || evt.detail.target.id !== "game") { return; }
    var log = document.getElementById("log");
    logWasOpen = !!log && log.open;
    logHadFocus = !!log && log.contains(document.activeElement);
    wholeLog = null;
    var html = evt.detail.serverResponse;
    var start = logWasOpen && typeof html === "string" ? html.indexOf(LOG_TAG) : -1;
    var end = start < 0 ? -1 : html.indexOf("</details>", start) + "</details>".length;
    if (end < start + LOG_TAG.length) { return; }
    var drawn = html.slice(start, end), more = /id="log-all" href="([^"]*)"/.exec(drawn);
    var all = log.hasAttribute("data-all");
    if (all && more) {
      wholeLog = more[1].replace(/&amp;/g, "&");
      drawn = log.outerHTML;
    } else {  // (all of a log an undo took down to 20 lines is all of it: still all when it grows again)
      var rest = drawn.slice(LOG_TAG.length);
      drawn = LOG_TAG + (/^ open[ >]/.test(rest) ? "" : " open") + (all ? " data-all" : "") + rest;
    }
    evt.detail.serverResponse = html.slice(0, start) + drawn + html.slice(end);
  });
  document.body.addEventListener("htmx:afterSwap", function (evt) {
    if (!evt.detail.target || evt.detail.target.id !== "game") { return; }
    var log = document.getElementById("log");
    if (log && logWasOpen) { log.open = true; }
    var summary = log && logHadFocus && log.querySelector("summary");
    if (summary) { summary.focus({ preventScroll: true }); }
    if (log && wholeLog) { htmx.ajax("GET", wholeLog, { target: "#log", swap: "outerHTML" }); }
    logWasOpen = logHadFocus = false;
    wholeLog = null;
  });

  var STRONG = ["victory", "royal_due", "discard_due", "privilege_taken", "extra_turn", "noble_due", "final_round"];

  // A short beep through WebAudio, only when the table switched the alert sound on.
  function beep() {
    if (document.body.getAttribute("data-sound") !== "on") { return; }
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      var ctx = new Ctx();
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.08;
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.15);
    } catch (e) { /* no audio: the banner and the vibration remain */ }
  }

  // A screen the table's phones share (tracker/screens.py: drawn once, sent to both as it is)
  // carries no phone's own values: each of its forms gets a fresh entry_id here (the key that
  // makes a save sent again stored once) and this page's CSRF token, as the screen arrives.
  // Set as attributes too, so the copy kept for offline use has them.
  function entryId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);  // (crypto.randomUUID needs HTTPS; a café's server may not have it)
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  function pageHeaders() {  // what htmx sends with every request of this page (the CSRF token)
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (e) { return {}; }
  }
  function csrfToken() { return pageHeaders()["X-CSRFToken"] || ""; }
  function setValue(input, value) { input.setAttribute("value", value); input.value = value; }
  function ownValues(root) {
    if (!root || !root.querySelectorAll) { return; }
    var token = null;
    Array.prototype.forEach.call(root.querySelectorAll('input[name="entry_id"], input[name="csrf_token"]'), function (input) {
      if (input.value) { return; }  // (drawn for this phone alone: its own token, a key per form)
      if (input.name === "csrf_token" && token === null) { token = csrfToken(); }
      setValue(input, input.name === "entry_id" ? entryId() : token);
    });
  }
  ownValues(document.body);
  htmx.onLoad(ownValues);

  // Alerts come from the rules engine as an HX-Trigger event; we only make them felt.
  document.body.addEventListener("tracker:alerts", function (evt) {
    var alerts = (evt.detail && evt.detail.value) || evt.detail || [];
    var felt = Array.prototype.some.call(alerts, function (a) {  // (one this phone showed already: not again, below)
      return STRONG.indexOf(a.kind) >= 0 && !(a.earlier && toasted[toastKey(a.at, String(a.message))]);
    });
    if (!felt) { return; }
    if (navigator.vibrate) { navigator.vibrate(120); }
    beep();
  });

  // A new screen a poll (or a tap on a screen the game had moved on from) brings tells what
  // another phone did: its undo, and an entry of this phone's own player ("On another phone: ✓ Ben
  // took 3 red"; a tester's phone showed it with the same tick as its own saves). Another player's
  // entry, made on their own phone, is said as it is. Of several entries missed at once, only
  // those of this phone's player are marked (each sentence names its seat: data-player).
  // (registered before the read-out below, which then says it too)
  // An undo of this phone's whose answer was lost (undoInDoubt, set by lost() below) and that
  // did reach the server comes back as the next screen's "Undone: …": this phone's own, not
  // another phone's (a tester, with one phone, read "On another phone: Undone: …").
  var undoInDoubt = false;
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    var ownUndo = undoInDoubt;
    if (evt.detail.target && evt.detail.target.id === "game") { undoInDoubt = false; }
    var path = evt.detail.pathInfo && evt.detail.pathInfo.requestPath;
    var verb = evt.detail.requestConfig && evt.detail.requestConfig.verb;
    var game = document.getElementById("game"), box = document.getElementById("alerts");
    if (!path || !(path.indexOf("/poll") >= 0 || verb === "get") || !evt.detail.target ||
        evt.detail.target.id !== "game" || !box) { return; }
    var label = box.getAttribute("data-other-phone"), mine = /(?:^|\s)mine-(\d)(?:\s|$)/.exec(document.body.className);
    var done = box.querySelector(".alert-done"), marked = [];
    var parts = done ? done.querySelectorAll("[data-player]") : [];
    if (mine && parts.length) {
      marked = Array.prototype.filter.call(parts, function (part) { return part.getAttribute("data-player") === mine[1]; });
    } else if (mine && done && game.getAttribute("data-last-player") === mine[1]) {
      marked = [done];
    }
    // (the server's notice only: those this script adds itself, "tap again", are this phone's own,
    // and so is the server's own "tap again" answering this phone's tap on a screen gone by; a
    // spectator's screen, which records nothing, says nothing of phones: a tester)
    if (game.classList.contains("watching")) { return; }
    var tapAgain = box.getAttribute("data-tap-again");
    var notice = ownUndo ? null : Array.prototype.filter.call(box.querySelectorAll(".alert-notice"), function (p) {
      return p.className === "alert alert-notice" && p.textContent.trim() !== tapAgain;
    })[0];
    marked.concat([notice]).forEach(function (p) {
      if (!p || !label || p.querySelector(".other-phone")) { return; }
      var said = document.createElement("span");
      said.className = "other-phone";
      said.textContent = label + " ";
      p.insertBefore(said, p.firstChild);
    });
  });

  // Screen readers: the toasts of a new screen are read from the page's lasting live region
  // (a region that arrives with its text, as the swapped screen's own does, is not read).
  // Three or four panels on a short phone fold another player's tokens away (app.css): their ▾,
  // or a tap on the panel, opens them until tapped again, across the screen's redraws (a tester
  // could not read the other players' gems at all)
  // (the page's body keeps which are open, as body.open-<seat>: the screen redrawn keeps them, unflashed)
  function showOpenedPanels() {
    Array.prototype.forEach.call(document.querySelectorAll(".spanels > .spanel [data-show-tokens]"), function (button) {
      var open = document.body.classList.contains("open-" + button.getAttribute("data-show-tokens"));
      button.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("[data-show-tokens]");
    var panel = evt.target.closest && evt.target.closest(".spanels > .spanel");
    if (!panel || (!button && evt.target.closest("a, button, input, select, textarea, label, summary, form"))) { return; }
    var toggle = panel.querySelector("[data-show-tokens]");
    if (!button && (!toggle || toggle.offsetParent === null)) { return; }  // (folded only on a short phone)
    document.body.classList.toggle("open-" + panel.getAttribute("data-seat"));
    showOpenedPanels();
  });
  document.body.addEventListener("htmx:afterSettle", showOpenedPanels);
  // An alert raised with a prompt (a privilege to the other player from a take of 12 tokens) is
  // told again once the prompt is answered (server: it lay hidden under the prompt on the phone
  // that answered it). A phone that showed it as a toast already (the other player's, waiting
  // beside the prompt; a watch screen) does not show it a second time: a tester's table nearly
  // handed over a second scroll. Each alert names the entry that raised it (data-at: the entry
  // count then and a checksum of the entry, so that another entry made in its place after an
  // undo is not taken for it). What was shown is kept for the tab's life (a reload between the
  // two, a tester's pull to refresh, showed it twice).
  var gameEl = document.getElementById("game");
  var toastedKey = gameEl ? "tracker-toasted-" + gameEl.getAttribute("data-game") : null;
  var toasted = {};
  try { toasted = JSON.parse(sessionStorage.getItem(toastedKey) || "{}") || {}; } catch (e) { toasted = {}; }
  function toastKey(at, text) { return at + "|" + text.trim(); }
  function alertKey(p) { return toastKey(p.getAttribute("data-at"), p.textContent); }
  function noteToasts() {
    var alerts = document.getElementById("alerts");
    if (!alerts || !toastedKey) { return; }
    Array.prototype.forEach.call(alerts.querySelectorAll(".alert[data-earlier]"), function (p) {
      if (toasted[alertKey(p)]) { p.remove(); }
    });
    var newest = 0;
    Array.prototype.forEach.call(alerts.querySelectorAll(".alert[data-at]:not(.visually-hidden)"), function (p) {
      newest = Math.max(newest, parseInt(p.getAttribute("data-at"), 10) || 0);
      if (p.checkVisibility ? p.checkVisibility() : p.offsetParent !== null) { toasted[alertKey(p)] = true; }
    });
    Object.keys(toasted).forEach(function (key) {  // (a turn's prompts lie a few entries back at most)
      if ((parseInt(key, 10) || 0) < newest - 8) { delete toasted[key]; }
    });
    try { sessionStorage.setItem(toastedKey, JSON.stringify(toasted)); } catch (e) { /* private mode: this page only */ }
  }
  noteToasts();
  // Toasts that came while the page was hidden (the phone asleep on the table, another app in
  // front) wait for it to be looked at: they faded unseen, and Ben never read "On another phone:
  // Ben returned 2 green" (a tester). Their fade starts when the page shows again.
  function holdToasts() {
    var alerts = document.getElementById("alerts");
    if (alerts) { alerts.classList.toggle("held", document.visibilityState === "hidden"); }
  }
  holdToasts();
  document.addEventListener("visibilitychange", holdToasts);
  document.body.addEventListener("htmx:afterSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "game") { noteToasts(); holdToasts(); }
  });
  // (again once settled: htmx's settle gives the new #alerts its class as drawn, "held" dropped)
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "game") { holdToasts(); }
  });
  var announcer = document.getElementById("announcer");
  // A near-win warning ("Ben: 19 prestige — 1 more to win") is a line of the screen, no alert:
  // one the new screen shows and the one before did not is read out with the toasts.
  function nearWins() {
    return Array.prototype.map.call(document.querySelectorAll("#game .near-win"), function (li) {
      return li.textContent.replace(/^\s*⚠\s*/, "").replace(/\s+/g, " ").trim();  // (the sign is for the eye)
    });
  }
  var nearShown = nearWins();
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    if (!announcer || !evt.detail.target || evt.detail.target.id !== "game") { return; }
    // (an alert the entry's toast says in other words is not said twice: a noble's visit). What was
    // recorded is said before what it caused ("Jiu bought … . Jiu: extra turn.", not the other way
    // round: a Korean tester); alerts of the entries before a prompt it answered, before both.
    var lines = Array.prototype.slice.call(document.querySelectorAll("#alerts .alert:not([data-unsaid])"));
    var recorded = lines.filter(function (p) { return p.classList.contains("alert-done"); });
    var earlier = lines.filter(function (p) { return p.hasAttribute("data-earlier"); });
    lines = earlier.concat(recorded, lines.filter(function (p) { return recorded.indexOf(p) < 0 && earlier.indexOf(p) < 0; }));
    var said = lines.map(function (p) {
      return p.textContent.trim().replace(/^✓\s*/, "");  // (the tick is for the eye: "check mark" read out)
    });
    var near = nearWins();
    var toasts = document.getElementById("alerts");
    near.forEach(function (text) {
      if (nearShown.indexOf(text) >= 0) { return; }
      said.push(/[.!?]$/.test(text) ? text : text + ".");
      // shown as a toast too: the turn line that states it may be scrolled away on a small phone
      // (a first-time player missed "Ana: 16 prestige — 4 more to win" when it came)
      if (!toasts) { return; }
      var toast = document.createElement("p");
      toast.className = "alert alert-near_win";
      toast.setAttribute("data-kind", "near_win");
      toast.setAttribute("data-unsaid", "");  // (read out above, with the toasts)
      toast.textContent = "⚠ " + text;
      toasts.insertBefore(toast, toasts.querySelector(".alert-done"));
    });
    nearShown = near;
    var turn = document.querySelector("#turnbar .whose-turn");  // and whose turn it is now
    if (said.length && turn) { said.push(turn.textContent.trim() + "."); }
    announcer.textContent = "";
    clearTimeout(screenSaid.timer);
    screenSaid = { text: said.join(" "), at: Date.now(), timer: null, out: false };
    if (said.length) { announced = { text: screenSaid.text, at: Date.now() }; }
    if (said.length) {
      var saying = screenSaid;
      saying.timer = setTimeout(function () { announcer.textContent = saying.text; saying.out = true; }, 50);
    }
  });
  // (what the last redraw reads out, for a notice about it said just after: ``sayNotice``; ``out``
  // once it is in the live region)
  var screenSaid = { text: "", at: 0, timer: null, out: false };
  // (what the live region was last given by a redraw or a notice, and when: a word said just
  // after, the Buy sheet's new buyer, goes with it, not in its place)
  var announced = { text: "", at: 0 };

  // The review's turn stepper redraws the replay: the turn it shows and what happened is read out.
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    var path = evt.detail.pathInfo && evt.detail.pathInfo.requestPath;
    var moment = document.getElementById("moment");
    if (!announcer || !moment || !path || path.indexOf("/review") < 0) { return; }
    announcer.textContent = "";
    var parts = Array.prototype.map.call(moment.querySelectorAll("h2, li"), function (el) { return el.textContent.trim(); });
    setTimeout(function () { announcer.textContent = parts.join(" ").replace(/\s+/g, " ").trim(); }, 50);
  });

  // A tap in a sheet redraws it: its "Saving will record…" line (or the refusal) is read out too.
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    var cfg = evt.detail.requestConfig;
    if (!announcer || !cfg || !cfg.triggeringEvent || !evt.detail.target || evt.detail.target.id !== "sheet") { return; }
    // (the royal sheet lists one preview per card: the token to steal chosen, its save's is the news)
    // (a royal card that steals, chosen: the question which token, not another card's preview)
    var tapped = function (selector) { return !!(cfg.elt && cfg.elt.closest && cfg.elt.closest(selector)); };
    var question = tapped("[data-royal]") && !document.querySelector("#sheet form[data-steal]") ?
      document.getElementById("steal-question") : null;
    var line = question || document.querySelector("#sheet form[data-steal] :is(.preview, .preview-error)") ||
               document.querySelector("#sheet .preview, #sheet .preview-error");
    // a sheet opened by its tab says which sheet it is (its heading: the focus is on its first control)
    // (so does a reserved card tapped in the player's panel: the sheet it opened below, and for a
    // secret one how many cards it may be, were said nothing, an accessibility tester)
    var fromPanel = tapped("[data-buy-reserved]");
    var opened = tapped("nav.actions, [data-plan-link]") || fromPanel ? document.querySelector("#sheet .sheet-body h3") : null;
    var plan = tapped("[data-plan-link]") ? document.getElementById("plan-note-text") : null;
    // a level tab or colour filter says what is listed now ("Level 2", "Only red cards", "5 cards listed")
    var listed = tapped("a.tab, a.filter") ? [document.querySelector("#sheet nav.tabs a.tab.on"), document.getElementById("filter-shown"),
      document.querySelector("#sheet #grid-said, #sheet #level-out, #sheet #cards > p.hint")] :
      fromPanel && /[?&]reveal=/.test(cfg.elt.getAttribute("hx-get") || "") ?
      [document.getElementById("secret-which"), document.querySelector("#sheet #grid-said")] : [];
    // (what a sheet says it cannot do, data-said: "No privilege to use. The bag is empty…", an accessibility tester)
    var why = opened ? Array.prototype.slice.call(document.querySelectorAll("#sheet .sheet-body [data-said]")) : [];
    // a token picked or put back with no preview yet: how many of how many
    var count = !line && tapped(".pick-source a, .pick-chosen a") ? document.getElementById("pick-said") : null;
    var parts = [opened, plan].concat(listed, why, [line, count]).filter(Boolean);
    var said = parts.map(function (el, i) {
      // each part a sentence of its own ("Level 2. 29 cards listed.", not "Level 2 29 cards")
      var text = (el.getAttribute("aria-label") || el.textContent).replace(/\s+/g, " ").trim();
      return i < parts.length - 1 && !/[.!?:)]$/.test(text) ? text + "." : text;
    });
    announcer.textContent = "";  // (nothing to say: nothing said before, now untrue, is left to be read)
    if (!said.length) { return; }
    setTimeout(function () { announcer.textContent = said.join(" "); }, 50);
  });

  // The victory banner stays until someone closes it; a finished game's "Show the result"
  // brings it back (its review and next-game buttons with it).
  // It is a modal dialog: it takes the focus when it appears (the winning entry, the other
  // phone's, the page loaded, "Show the result"), keeps Tab inside it, and Close or Esc hands the
  // focus to "Show the result" (the controls under it were reached first, hidden by it).
  document.addEventListener("click", function (evt) {
    var btn = evt.target.closest("[data-dismiss], [data-open]");
    if (!btn) { return; }
    var open = btn.hasAttribute("data-open");
    var el = document.getElementById(btn.getAttribute(open ? "data-open" : "data-dismiss"));
    if (!el) { return; }
    el.hidden = !open;
    if (el.id === "victory") { open ? focusVictory() : victoryClosed(); }
  });
  // A banner closed stays closed for that game's result, on this tab: the page loaded again or
  // its log opened in full brought it back over the log each time (a tester). A result reached
  // again (undone, then won anew) is another version: shown again.
  function victoryKey() {
    var game = document.getElementById("game");
    return game ? "tracker-victory-closed-" + location.pathname : null;
  }
  function keepVictoryClosed(closed) {
    var key = victoryKey(), game = document.getElementById("game");
    try {
      if (closed && key) { sessionStorage.setItem(key, game.getAttribute("data-version")); }
      else if (key) { sessionStorage.removeItem(key); }
    } catch (e) { /* no storage: closed until the page is drawn again */ }
  }
  function closedBefore() {
    var el = document.getElementById("victory"), key = victoryKey();
    var version = document.getElementById("game") && document.getElementById("game").getAttribute("data-version");
    try {
      if (el && !el.hidden && key && sessionStorage.getItem(key) === version) { el.hidden = true; }
    } catch (e) { /* no storage */ }
  }
  closedBefore();
  function openVictory() {
    var el = document.getElementById("victory");
    return el && !el.hidden ? el : null;
  }
  // (a finished game opened afresh: no ring drawn on Close before any key is pressed, as after a
  // tap; the focus is there for a keyboard's Tab and a screen reader all the same)
  function focusVictory(fresh) {
    var el = openVictory(), close = el && el.querySelector("#dismiss-victory");
    if (el && !fresh) { keepVictoryClosed(false); overlayStepOpen("victory"); }  // ("Show the result", or a win just made)
    // turned to the winner across the table and taller than the screen (a phone on its side):
    // shown from the winner's start, "★ Ben wins!", at the screen's far end (it opened on its
    // buttons, and neither player saw who won: a tester)
    var card = el && el.querySelector(".victory-card");
    if (card && getComputedStyle(card).transform !== "none" && el.scrollHeight > el.clientHeight) {
      el.scrollTop = el.scrollHeight;
    }
    if (close && !el.contains(document.activeElement)) { close.focus(fresh ? { preventScroll: true, focusVisible: false } : { preventScroll: true }); }
  }
  function victoryClosed() {
    keepVictoryClosed(true);
    overlayStepClosed("victory");
    var show = document.getElementById("show-result");
    if (show) { show.focus({ preventScroll: true }); }
  }
  document.addEventListener("keydown", function (evt) {
    var el = openVictory();
    // (the undo question asked over the banner is a modal dialog: its keys are its own, Esc
    // closes it and Tab goes round its two buttons)
    if (!el || document.querySelector("dialog[open]")) { return; }
    if (evt.key === "Escape") { el.hidden = true; victoryClosed(); evt.preventDefault(); return; }
    if (evt.key !== "Tab") { return; }
    var all = Array.prototype.filter.call(el.querySelectorAll("a[href], button, input, select, textarea"),
                                          function (c) { return !c.disabled && c.getClientRects().length; });
    if (!all.length) { return; }
    var first = all[0], last = all[all.length - 1], at = all.indexOf(document.activeElement);
    if (at === -1 || (evt.shiftKey && at === 0) || (!evt.shiftKey && at === all.length - 1)) {
      (evt.shiftKey ? last : first).focus();
      evt.preventDefault();
    }
  });
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "game") { closedBefore(); focusVictory(); }
  });
  focusVictory(true);

  // A save button marked aria-disabled (the preview says the rules refuse it) does not post.
  document.addEventListener("submit", function (evt) {
    var btn = evt.target.querySelector("button[aria-disabled='true']");
    if (btn) { evt.preventDefault(); }
  }, true);
  document.body.addEventListener("htmx:confirm", function (evt) {
    var form = evt.target.tagName === "FORM" ? evt.target : null;  // never a sheet's link (htmx.ajax: the body)
    if (form && form.querySelector("button[aria-disabled='true']")) { evt.preventDefault(); return; }
    // An entry of this phone's still on its way (waiting for the network, or its answer): Undo
    // waits for it. Sent now, it was judged before that entry (refused unsaid once the entry got
    // through, or it took back the other player's entry, told as another phone's: a tester).
    if (form && form.id === "undo-form" && (pending || resending || sending)) {
      evt.preventDefault();
      sayNotice("undo-wait", true);
      return;
    }
    // Undo asks on the screen, in the app's dialog (its "Undo it" sends the request unasked again).
    var dialog = form && form.id === "undo-form" ? document.getElementById("undo-dialog") : null;
    if (!dialog || !dialog.showModal || !evt.detail.question) { return; }
    evt.preventDefault();
    dialog.returnValue = "";
    dialog.addEventListener("close", function () {
      // (sent once its Back step is taken back: the answer's screen is drawn on the game's own step)
      overlayStepClosed("undo", function () {
        if (dialog.returnValue === "undo") { evt.detail.issueRequest(true); }
      });
    }, { once: true });
    dialog.showModal();
    overlayStepOpen("undo");
  });

  // Lost connection: say so, keep the entry (same form, so the same entry_id) and send it
  // again when the network is back; the server stores it once whatever happens.
  // The entry is also kept in the phone's localStorage until it is answered: a reload, the phone
  // discarding the tab, or the game opened again in another tab or from the home-screen icon
  // (a new session: kept per tab, it was lost there unsaid, a tester) sends it again on the next
  // load of its game; a tap that was no entry (a chip, a tab) is only said to have done nothing.
  var pending = null;
  var retryTimer = null;
  var banner = document.getElementById("connection");
  var KEPT = "tracker:unsent-entry:" + location.pathname;  // one per game: another game's never replaces it
  var resending = false;
  // What it says (its data-kind): "entry", an entry kept to be sent again; "tap", a tap that did
  // nothing; "undo", an undo whose answer was lost (it may have been made); "poll", only the
  // background poll failed (nobody tapped): the screen may be behind the table; "stale", the page
  // itself is the copy the service worker kept for offline use; "server", the server's own error
  // on a save or an undo ("server-tap" on a tap that only asked for a sheet: nothing recorded).
  // A poll's failure never replaces what a tap's said; an entry waiting to be sent is always what
  // it says; "session", the phone's session had ended (renewed below); "back", a tap's failure
  // said while the polls get through again. What a tap's failure said ("tap", "back", "server",
  // "session") lasts until the next tap or key.
  function showOffline(kind) {
    if (!banner) { return; }
    if (!kind) { banner.hidden = true; banner.removeAttribute("data-kind"); return; }
    if ((kind === "poll" || kind === "poll-server") && !banner.hidden) { return; }
    banner.setAttribute("data-kind", pending || resending ? "entry" : kind);
    banner.hidden = false;
    // the entry waiting, named (a reload while offline drew the sheet empty, and nothing said which
    // entry would be sent: the same move could be entered again, a tester)
    var waiting = document.getElementById("connection-entry");
    if (waiting) {
      var said = pending || resending ? keptSaid() : "";
      waiting.textContent = said ? " " + waiting.getAttribute("data-said").replace("%(entry)s", said) : "";
    }
  }
  function keptSaid() {
    try { return (JSON.parse(localStorage.getItem(KEPT) || "null") || {}).said || ""; } catch (e) { return ""; }
  }
  // (a page that is no game, History say, has no poll to catch up with: it is loaded again once
  // the phone is back online; it said "the game may have moved on", over a list of games)
  if (document.body.hasAttribute("data-stale")) { showOffline(document.getElementById("game") ? "stale" : "stale-page"); }
  // The offline page, shown by the service worker at the address that could not load (a game
  // this phone never opened): "Try again" is that address, and it loads again by itself, as such
  // a page does, once the server answers (it said "the game reopens as soon as the network is
  // back" and never did, and "Try again" led home, where that game was not offered: a tester).
  var offlinePage = document.querySelector("[data-offline-page]");
  var offlineAsked = !!offlinePage && location.pathname !== offlinePage.getAttribute("data-offline-page");
  var offlineAgain = offlineAsked ? document.getElementById("offline-again") : null;
  if (offlineAgain) { offlineAgain.href = location.href; }
  // (asked of the server itself every few seconds: the phone's "online" is not always said, nor
  // always true; a HEAD request passes the service worker by)
  var staleCheck = null;
  function reloadWhenBack() {
    clearTimeout(staleCheck);
    if (!offlineAsked && (!document.body.hasAttribute("data-stale") || document.getElementById("game"))) { return; }
    fetch(location.href, { method: "HEAD", cache: "no-store" }).then(function (resp) {
      // (at most one reload in 10 s: a slow network can hand the kept copy back again)
      var last = 0;
      try { last = Number(sessionStorage.getItem("tracker:stale-reload")) || 0; } catch (e) { last = 0; }
      // (any answer of the server's own, a 404 too, is the page to show; a gateway's is no answer)
      if ([502, 503, 504].indexOf(resp.status) < 0 && Date.now() - last > 10000) {
        try { sessionStorage.setItem("tracker:stale-reload", String(Date.now())); } catch (e) { /* none kept */ }
        location.reload();
      } else { staleCheck = setTimeout(reloadWhenBack, 3000); }
    }, function () { staleCheck = setTimeout(reloadWhenBack, 3000); });
  }
  reloadWhenBack();
  window.addEventListener("online", reloadWhenBack);
  // A form that loads a page (Start the game, Join, Settings) sent without network: the
  // browser's own error page took its place, and Back showed it emptied (a tester's names, typed
  // offline, were lost). It stays, what was typed kept, and the banner says to tap again.
  // The phone online and the server down (restarting, a proxy's 502, mobile data that connects
  // and carries nothing) did the same: a form that writes (method post) first asks the server at
  // its own address (HEAD: answered at once, 405, by the app; a redirect is not followed, so no
  // page is drawn for it) and is sent only once that got an answer from the app, said busy
  // meanwhile. A proxy's 502 for an app that is down says the server failed, as a tap's does.
  var CHECK_MS = 5000;
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    // (not the Undo question's own form, method "dialog", which only closes it: offline, its
    // buttons were held and the question could not be answered, a tester)
    if (evt.defaultPrevented || !form || form.hasAttribute("hx-post") || form.hasAttribute("hx-get")
        || (form.getAttribute("method") || "").toLowerCase() === "dialog") { return; }
    if (navigator.onLine === false) { evt.preventDefault(); showOffline("tap"); return; }
    if ((form.getAttribute("method") || "").toLowerCase() !== "post" || !window.fetch) { return; }
    // Sent, its answer still to come: a second tap is not sent again (a tester's Import tapped twice
    // during a 12 s restore was answered "Nothing new: all 438 games are already stored", the first
    // one's work, its answer dropped). Said busy meanwhile; free again after a minute, or once the
    // page is shown again (Back).
    if (form.hasAttribute("data-sent")) { evt.preventDefault(); return; }
    if (form.getAttribute("data-checked") === "1") {
      form.removeAttribute("data-checked");
      form.setAttribute("data-sent", "");
      form.setAttribute("aria-busy", "true");
      setTimeout(function () { formFree(form); }, 60000);
      return;
    }
    evt.preventDefault();
    if (form.hasAttribute("data-checking")) { return; }  // (a second tap while it asks)
    var submitter = evt.submitter || null;
    form.setAttribute("data-checking", "");
    form.setAttribute("aria-busy", "true");
    var gaveUp = false;
    var timer = setTimeout(function () { gaveUp = true; done("tap"); }, CHECK_MS);
    function done(failure) {
      clearTimeout(timer);
      if (!form.hasAttribute("data-checking")) { return; }
      form.removeAttribute("data-checking");
      form.removeAttribute("aria-busy");
      if (failure) { showOffline(failure); return; }
      form.setAttribute("data-checked", "1");
      if (form.requestSubmit) { form.requestSubmit(submitter && submitter.form === form ? submitter : undefined); } else { form.submit(); }
    }
    fetch(form.action, { method: "HEAD", cache: "no-store", credentials: "same-origin", redirect: "manual" }).then(function (resp) {
      if (!gaveUp) { done([502, 503, 504].indexOf(resp.status) >= 0 ? "server-tap" : null); }
    }, function () { if (!gaveUp) { done("tap"); } });
  });
  function formFree(form) {
    form.removeAttribute("data-sent");
    form.removeAttribute("aria-busy");
  }
  window.addEventListener("pageshow", function () {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-sent]"), formFree);
  });
  function lasting() { return !!banner && !banner.hidden && ["tap", "back", "server", "server-tap", "session"].indexOf(banner.getAttribute("data-kind")) >= 0; }
  function clearLasting() { if (lasting()) { showOffline(null); } }  // (the new tap may say it again, for itself)
  document.addEventListener("click", clearLasting, true);  // not on pointerdown: the page moves up as it hides
  document.addEventListener("keydown", clearLasting, true);
  function keep(form) {
    try {
      var preview = form.querySelector(".preview[data-entry]");
      localStorage.setItem(KEPT, JSON.stringify({ action: form.getAttribute("hx-post"),
        values: Object.fromEntries(new FormData(form)), said: preview ? preview.getAttribute("data-entry") : "" }));
    } catch (e) { /* no storage: the retry below still runs while the page stays */ }
  }
  function forget() { try { localStorage.removeItem(KEPT); } catch (e) { /* nothing kept */ } }
  // The save on its way (an entry, sent again or not, or the undo): a retry waits for its answer
  // or its failure, never queued behind it (the same entry answered twice); each retry waits
  // longer for its answer, 5 s, 10, 20, then 30: on a slow network (6 s to answer) every retry
  // cut off at 5 s was sent again for ever, the screen stuck on "No connection" (a tester).
  var saveXhr = null, resendTries = 0;
  function saving() { return !!saveXhr && saveXhr.readyState > 0 && saveXhr.readyState < 4; }
  function resend() {
    if (saving()) { return; }
    if (pending && !document.body.contains(pending)) {
      // a later tap redrew the sheet and its form went: the copy kept for a reload is sent instead
      pending = null;
      sendKept();
      if (!resending) { showOffline(null); }
      return;
    }
    if (!pending) { return; }
    if (pending.requestSubmit) { pending.requestSubmit(); } else { htmx.trigger(pending, "submit"); }
  }
  // No answer: the network failed, the request timed out (htmx-config "timeout": a request that
  // hangs froze the screen, unsaid), a proxy or the server failed (5xx: nothing says whether a
  // write was made; its entry_id makes sending it again safe), or a page that is no answer of
  // this app came instead (notOurs, below).
  function failed(evt) {
    var xhr = evt.detail.xhr;
    return !xhr || xhr.status === 0 || xhr.status >= 500 || xhr.notOurs === true;
  }
  // The form a request saves: an entry (its entry_id makes sending it again safe) or the undo.
  // Only the form's own POST: a preview asked from inside it (the Fix sheet's, as counts are
  // typed) is a GET, and sending the form for it saved an unsaved fix.
  function savedForm(evt) {
    var config = evt.detail.requestConfig;
    var elt = (config && config.elt) || evt.detail.elt;
    var form = elt && elt.closest ? elt.closest("form") : null;
    if (!form || !config || String(config.verb || "").toLowerCase() !== "post") { return null; }
    return form.querySelector("input[name='entry_id']") || form.id === "undo-form" ? form : null;
  }
  function serverFailed(evt) { return !!evt.detail.xhr && evt.detail.xhr.status >= 500 && GATEWAY.indexOf(evt.detail.xhr.status) < 0; }
  function lost(evt) {
    var elt = (evt.detail.requestConfig && evt.detail.requestConfig.elt) || evt.detail.elt;  // the element that asked (beforeSwap's elt is the target)
    var form = savedForm(evt);
    if (form && form.id !== "undo-form") { pending = form; keep(form); }
    var undo = !!(form && form.id === "undo-form");
    if (undo) { undoInDoubt = true; }
    showOffline(undo ? "undo" : elt && elt.id === "poller" ? "poll" : "tap");
    clearInterval(retryTimer);
    retryTimer = setInterval(function () {
      if (navigator.onLine === false || saving()) { return; }
      if (pending) { resend(); } else if (resending) { sendKept(); }
    }, 3000);
  }
  document.body.addEventListener("htmx:sendError", lost);
  document.body.addEventListener("htmx:timeout", lost);
  // An entry on its way is kept from the moment it leaves until it is answered: Back or a reload
  // while the network stalls ended the page under it, and the entry went unsaid (a tester). The
  // next load of its game sends it again (stored once by its entry_id, or refused with the news).
  var sending = null;
  document.body.addEventListener("htmx:beforeSend", function (evt) {
    var form = savedForm(evt);
    if (form && form.id !== "undo-form") { sending = form; keep(form); }
    if (form || (resending && String(evt.detail.requestConfig && evt.detail.requestConfig.verb).toLowerCase() === "post")) {
      saveXhr = evt.detail.xhr || null;
    }
  });
  // A network that stalls (the Wi-Fi still "connected", nothing getting through) fails nothing
  // until the 12 s timeout: a save or an undo still on its way after 3 s says so at once, and an
  // entry sent again waits 5 s, not 12, before the next try (the network may be back by then).
  var slowTimer = null;
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    if (!savedForm(evt) || !evt.detail.xhr) { return; }
    var xhr = evt.detail.xhr;
    clearTimeout(slowTimer);
    slowTimer = setTimeout(function () {
      if (xhr.readyState > 0 && xhr.readyState < 4 && banner && banner.hidden) { showOffline("slow"); }
    }, 3000);
  });
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    if (savedForm(evt)) { clearTimeout(slowTimer); }
  });
  document.body.addEventListener("htmx:configRequest", function (evt) {
    if ((pending && evt.detail.elt === pending) || (resending && evt.detail.verb === "post")) {
      // (the first wait no longer than the page's own timeout, htmx.config.timeout: 12 s)
      evt.detail.timeout = Math.min(30000, Math.min(5000, htmx.config.timeout || 5000) * Math.pow(2, resendTries));
      resendTries += 1;
    }
  });
  // A gateway's 502/503/504 is a network that failed on its way; any other 5xx is the server's
  // own failure: said, never sent again by itself (a retry loop would block the screen's polls).
  var GATEWAY = [502, 503, 504];
  document.body.addEventListener("htmx:responseError", function (evt) {
    var status = evt.detail.xhr ? evt.detail.xhr.status : 0;
    if (status >= 500 && GATEWAY.indexOf(status) < 0) {
      // (a background poll's failure is the screen maybe behind, gone with the next poll that
      // gets through; a tap that asked for a sheet recorded nothing: "it may not have been
      // recorded" stayed up over ten polls after one failed poll, a tester)
      var verb = String(evt.detail.requestConfig && evt.detail.requestConfig.verb || "").toLowerCase();
      if (pending || resending) { /* said as the entry waiting */ }
      else if (isPoller(evt)) { showOffline("poll-server"); }  // (not "No connection": the server answered, a re-tester)
      else { showOffline(verb === "post" ? "server" : "server-tap"); }
    } else if (failed(evt)) { lost(evt); }
  });
  // A phone whose session ended while its page stayed open (its session cookie lost) sends a
  // CSRF token that matches none: the refusal brings a fresh one (Tracker-CSRF). The page takes
  // it; a save is sent again at once (its entry_id unchanged: stored once), anything else (an
  // undo, with its question) is said to need another tap. A tester's Undo and royal card did
  // nothing, silently, until the page was reloaded.
  document.body.addEventListener("htmx:responseError", function (evt) {
    var xhr = evt.detail.xhr;
    var token = xhr && xhr.status === 400 ? xhr.getResponseHeader("Tracker-CSRF") : null;
    if (!token) { return; }
    var headers = pageHeaders();
    headers["X-CSRFToken"] = token;
    document.body.setAttribute("hx-headers", JSON.stringify(headers));
    Array.prototype.forEach.call(document.querySelectorAll('input[name="csrf_token"]'), function (input) { setValue(input, token); });
    var form = savedForm(evt);
    if (form && form.id !== "undo-form" && !form.hasAttribute("data-renewed")) {
      form.setAttribute("data-renewed", "1");  // once: a second refusal is said, not sent again
      setTimeout(function () { if (form.requestSubmit) { form.requestSubmit(); } else { htmx.trigger(form, "submit"); } }, 0);
    } else {
      setTimeout(function () { showOffline("session"); }, 0);  // after htmx:afterRequest, which clears the banner
    }
  });
  // Whether a request is the waiting entry's own: by the form that asked it (savedForm), not by
  // the answer's element, which htmx names the body once the swap took the form away (the entry
  // answered was then sent once more from its kept copy)
  function isPending(evt) { return !!pending && savedForm(evt) === pending; }
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    if (failed(evt)) {
      // the server's own failure of a request sent again: stop sending it (said by the banner)
      if (serverFailed(evt) && isPending(evt)) { pending = null; forget(); clearInterval(retryTimer); showOffline("server"); }
      if (serverFailed(evt) && sending && savedForm(evt) === sending) { sending = null; if (!pending) { forget(); } }
      if (serverFailed(evt) && resending && evt.detail.requestConfig && evt.detail.requestConfig.verb === "post") {
        resending = false; forget(); clearInterval(retryTimer); showOffline("server");
      }
      return;
    }
    // a poll that gets through says nothing about a failed tap, nor about a save still on its way
    // (it hid "the network is slow" while the save stalled); everything else the network's return ends
    var said = lasting() || (!!banner && !banner.hidden && banner.getAttribute("data-kind") === "slow");
    var polled = !!(evt.detail.elt && evt.detail.elt.id === "poller");
    if (!(said && polled)) { showOffline(null); }
    // (but that the network is back, it does: the tap's "once the network is back" stayed up for
    // a minute of polls that got through, and the player could not tell: a tester)
    else if (banner.getAttribute("data-kind") === "tap") { banner.setAttribute("data-kind", "back"); }
    document.body.removeAttribute("data-stale");  // the server answers: what it draws is no old copy
    if (isPending(evt)) { pending = null; forget(); }
    if (sending && savedForm(evt) === sending) { sending = null; if (!pending && !resending) { forget(); } }
    if (resending && evt.detail.requestConfig && evt.detail.requestConfig.verb === "post") { resending = false; forget(); }
    if (pending) { resend(); }  // the network answers again: the waiting entry goes now, not at the next retry
    if (!pending && !resending) { clearInterval(retryTimer); resendTries = 0; }
  });
  // (an entry another tab of this game kept, closed since, is sent from this one too when the
  // network comes back or the page is shown again: it sat there unsent, a tester; stored once)
  function idle() { return !pending && !resending && !sending && !saving(); }
  window.addEventListener("online", function () { if (pending) { resend(); } else if (resending && !saving()) { sendKept(); } else if (idle()) { sendKept(); } });
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible" && idle()) { sendKept(); } });
  window.addEventListener("beforeunload", function (evt) {
    if (pending || resending) { evt.preventDefault(); evt.returnValue = ""; }  // kept anyway; the browser asks
  });
  function sendKept() {
    var kept = null;
    try { kept = JSON.parse(localStorage.getItem(KEPT) || "null"); } catch (e) { kept = null; }
    if (!kept || !kept.action || !document.getElementById("game") || !window.htmx) {
      return;
    }
    // sent once more, kept until answered: stored once by its entry_id, or refused with the news
    // if the game moved on; failing again, it is tried again with the connection banner
    // (with this page's CSRF token, the header's: the one kept is its session's, and a phone whose
    // session ended since had it refused and the entry dropped, a tester)
    var values = Object.assign({}, kept.values);
    delete values.csrf_token;
    resending = true;
    ajax("POST", kept.action, { target: "#game", swap: "outerHTML", values: values });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", sendKept); } else { sendKept(); }
  // While an entry waits to be sent again, a poll must not redraw the screen under it (its form
  // would be gone, and the entry with it): the retry comes first, and its answer (the entry
  // stored, or the other phone's news with a notice) redraws the screen.
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    if ((pending || resending || Date.now() < pollNotBefore) && isPoller(evt)) { evt.preventDefault(); }  // (the back-off below)
  });
  // The background poll backs off while it fails (the server restarting on a café's night, every
  // phone of every table asked again every 2 s, a tester): after a second failure in a row it
  // waits 4 s, then 8 s, 16 s, and then every 30 s, give or take a fifth (the phones not in
  // step). Anything that gets through, a tap, the network's return or the page shown again
  // brings it back to every 2 s.
  var pollFailures = 0, pollNotBefore = 0;
  function pollAgain() { pollFailures = 0; pollNotBefore = 0; }
  function isPoller(evt) { var elt = evt.detail.requestConfig && evt.detail.requestConfig.elt || evt.detail.elt; return !!elt && elt.id === "poller"; }
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    // an undo whose answer was lost, and the game still at the screen's version once the polls get
    // through: it never reached the server (the banner went with no word, read as done: a tester)
    if (undoInDoubt && isPoller(evt) && evt.detail.xhr && evt.detail.xhr.status === 204) {
      undoInDoubt = false;
      sayNotice("undo-lost");
    }
    // (or with entries made on another phone since, and no undo among the writes: one write is one
    // version, an entry one more entry, an undo one fewer; the banner went with no word, a tester)
    if (undoCheck && isPoller(evt) && !failed(evt)) {
      var check = undoCheck;
      undoCheck = null;
      var game = document.getElementById("game");
      var versions = game ? parseInt(game.dataset.version, 10) - check.version : NaN;
      undoLostSaid = versions > 0 && versions === entriesShown() - check.entries;  // (said once settled, below)
    }
    if (!failed(evt)) { pollAgain(); return; }
    if (!isPoller(evt)) { return; }
    pollFailures += 1;
    if (pollFailures > 1) { pollNotBefore = Date.now() + Math.min(30000, 1000 * Math.pow(2, pollFailures)) * (0.8 + Math.random() * 0.4); }
  });
  document.addEventListener("click", pollAgain, true);
  window.addEventListener("online", pollAgain);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") { pollAgain(); } });

  // A poll answered while this phone's own request is on its way (a tap's sheet, an entry, a fix,
  // an undo) would redraw the very screen that request answers, and the answer would land nowhere:
  // the tap lost unsaid, a refused fix unsaid. That poll's screen is dropped instead; the request's
  // own answer (a sheet asked with the version shown brings the new screen if the game moved; a
  // write that lost the race says so) or the next poll brings the other phone's news.
  var ownRequests = [];
  function ownOnItsWay() { return ownRequests.some(function (xhr) { return xhr.readyState > 0 && xhr.readyState < 4; }); }
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    var target = evt.detail.target;
    var path = evt.detail.pathInfo && evt.detail.pathInfo.requestPath;
    if (target && (target.id === "sheet" || target.id === "game") && !isPoll(path) && evt.detail.xhr) {
      ownRequests.push(evt.detail.xhr);
    }
  });
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var path = evt.detail.pathInfo && evt.detail.pathInfo.requestPath;
    if (!evt.detail.target || evt.detail.target.id !== "game" || !isPoll(path)) { return; }
    ownRequests = ownRequests.filter(function (xhr) { return xhr.readyState > 0 && xhr.readyState < 4; });
    // (registered before every other beforeSwap listener, none of which then sees this poll)
    // (and while an entry waits to be sent again: a poll that left with the save came back after
    // the save's answer was given up; it redrew the screen under the entry, said "another phone's
    // entry" cleared the picks, and the entry, this phone's own, was sent again: a tester)
    if (ownRequests.length || pending || resending) { evt.detail.shouldSwap = false; evt.stopImmediatePropagation(); }
  });
  // An answer that is no screen of this app (a Wi-Fi login page, a proxy's page answered 200)
  // never replaces the game or its sheet (it stayed until a reload): it counts as no connection.
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || (target.id !== "game" && target.id !== "sheet") || !evt.detail.shouldSwap) { return; }
    var body = String(evt.detail.serverResponse || "");
    if (body.indexOf('id="game"') >= 0 || body.indexOf("data-sheet=") >= 0) { return; }
    evt.detail.shouldSwap = false;
    evt.stopImmediatePropagation();
    if (evt.detail.xhr) { evt.detail.xhr.notOurs = true; }  // its afterRequest is no answer either
    lost(evt);
  });
  // After this phone's own entry, undo or correction, show the new screen from its top (both
  // panels, whose turn): a tall sheet (buy, reserve) had scrolled the page down. On a small
  // phone (360×640, a 3- or 4-player Splendor) the sheet then lay below the fold and the next
  // player scrolled or tapped its tab again on every turn: the page scrolls just enough to show
  // the sheet (its chips and save) above the action tabs, never past whose turn it is (Duel's
  // turn line, Splendor's acting player's panel). A prompt the
  // rules raised (royal card, discard, noble) is brought into view instead, as it must be answered
  // (centred: clear of the toasts and the tabs at the bottom of the screen). The other phone's
  // entry (a poll) does the same when it raises a prompt or answers the one shown, and a prompt
  // owed when the screen opens (a reload, the other phone) is shown at once: with four Splendor
  // panels it lies below the fold, and only a red 13/10 hinted at it.
  var promptBefore = false;
  // A prompt this phone shows: one owed by another player while this phone waits behind "…
  // returns 1 token on their phone" is in the sheet, hidden; placing it sent the page to its top
  // (a tester reading the log), and so did its answer.
  function shownPrompt(selector) {
    var prompt = document.querySelector(selector);
    return prompt && prompt.getClientRects().length ? prompt : null;
  }
  function showPrompt() {
    // (the undo question the server asks again, under a finished game's screen, as well)
    var prompt = shownPrompt("#sheet .prompt, #undo-confirm");
    if (!prompt) { return false; }
    // (a phone on its side, table mode: a prompt turned to the player across, in the column
    // beside the board, shows from its heading, at the column's far end; it showed its last choices)
    if (sideBySide() && placeTurnedSheet(0)) { return true; }
    // Seen whole above the tabs (and a notice over it) with the screen at its top, the screen
    // goes to its top (table mode: the panel across stays at the top edge, where its player
    // reads it); already seen whole where the page is, it stays. Else it is brought into view,
    // and one taller than the screen (a phone on its side) shows from its top: its first choice.
    var box = prompt.getBoundingClientRect(), alerts = document.querySelector(".alerts");
    var floor = tabsFloor() - (alerts ? alerts.getBoundingClientRect().height : 0);
    if (box.bottom + window.scrollY <= floor) { window.scrollTo(0, 0); return true; }
    if (box.top >= 0 && box.bottom <= floor) { return true; }
    // one that fits above the tabs is scrolled just into view, its bottom on that line: as much
    // of the screen above as there is room for stays (centred, a small discard prompt scrolled
    // the panels and the turn line away, and the page's foot filled the screen: a tester)
    if (box.height <= floor - 8) { window.scrollBy(0, box.bottom > floor ? box.bottom - floor : box.top - 8); return true; }
    prompt.scrollIntoView({ block: prompt.offsetHeight > window.innerHeight * 0.8 ? "start" : "center" });
    return true;
  }
  // A phone on its side shows the sheet on the right, kept in view (app.css): three or four
  // Splendor panels on the left push the acting player's below the fold, so it is scrolled into
  // view (the sheet stays where it is).
  function sideBySide() {
    var entry = document.getElementById("entry");
    return !!entry && getComputedStyle(entry).position === "fixed";
  }
  function showActing() {
    var panel = document.querySelector("#game.splendor .panel.is-current");
    if (!panel) { return; }
    var box = panel.getBoundingClientRect(), floor = window.innerHeight - 8;
    if (box.bottom > floor) { window.scrollBy(0, Math.min(box.bottom - floor, box.top - 8)); }
  }
  function showTurn() {
    window.scrollTo(0, 0);
    var body = document.querySelector("#sheet .sheet-body");
    // (table mode: the player to act sits across, their panel upside down above the turn line,
    // all of it theirs to read: the screen stays at its top; the near player's turn is placed as
    // without table mode, their chips then above the tabs: a tester's first tap scrolled them away)
    if (document.body.classList.contains("table-mode") &&
        (!body || sideBySide() || getComputedStyle(body).transform !== "none")) { uncutTurnedSheet(); return; }
    if (sideBySide()) { showActing(); return; }
    // Splendor: the final round's notice, else the acting player's panel
    var keep = document.getElementById("final-round") || document.querySelector("#game.splendor .panel.is-current") ||
               document.getElementById("turnbar");
    if (!body || !keep) { return; }
    var floor = tabsFloor();
    var below = body.getBoundingClientRect().bottom + saveRoom(body) - floor;
    var room = keep.getBoundingClientRect().top - 8;
    // (the chips to tap come first: on a 320×568 phone two-line names left them under the tabs
    // with the turn line kept; the sheet's heading above them says whose turn it is: a tester)
    var chips = body.querySelector(".pick-source");
    var need = chips ? chips.getBoundingClientRect().bottom - floor : 0;
    if (below > 0 && Math.max(room, need) > 0) { window.scrollBy(0, Math.min(below, Math.max(room, need))); }
  }
  // One phone each ("At the bottom"): the phone of the player whose turn the other phone's entry
  // just made is placed as the saving phone is.
  var turnSwapped = null;
  function turnKey() {  // the turn and the player to act, as the screen shows them (an extra turn is a new one)
    var game = document.getElementById("game");
    return game ? game.getAttribute("data-turn") + "/" + game.getAttribute("data-current") : null;
  }
  function mineToAct() {
    var game = document.getElementById("game");
    var mine = /(?:^|\s)mine-(\d)(?:\s|$)/.exec(document.body.className);
    return !!game && !!mine && game.getAttribute("data-current") === mine[1];
  }
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "game") {
      promptBefore = !!shownPrompt("#sheet .prompt");
      turnSwapped = turnKey();
    }
  });
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    var cfg = evt.detail.requestConfig;
    if (!cfg || !evt.detail.target || evt.detail.target.id !== "game") { return; }
    var own = cfg.verb === "post";
    var handedOver = !own && mineToAct() && turnKey() !== turnSwapped;
    if (own || !promptBefore) {
      if (!showPrompt() && (own || handedOver)) { showTurn(); }
    } else if (!shownPrompt("#sheet .prompt")) {
      window.scrollTo(0, 0);  // the other phone answered the prompt this one showed
    }
  });
  if (showPrompt()) {
    // a prompt owed when the screen opens takes the focus too, quietly (it must be answered: a
    // keyboard started 5–6 Tabs above its choices, a screen reader at the page's top; a tester)
    var owedFirst = firstControl();
    if (owedFirst && document.activeElement === document.body) { owedFirst.focus({ preventScroll: true }); }
  } else if (sideBySide() && !document.body.classList.contains("table-mode")) { showActing(); }
  // A sheet turned to the player across the table (table mode): its start, their top, is its
  // bottom, placed just above the action tabs (``floor``: that line, in the window). Beside the
  // table (a tablet on its side) the sheet scrolls in its own column: that column goes to its end
  // (it showed the grid's last cards, the sheet's level tabs cut off). Else the page scrolls,
  // back up too when the sheet grew shorter (a card picked: the page stayed down, the player's
  // own panel off the top). False when no sheet is turned.
  function placeTurnedSheet(floor) {
    var body = document.querySelector("#sheet .sheet-body");
    if (!body || getComputedStyle(body).transform === "none") { return false; }
    var entry = document.getElementById("entry");
    if (sideBySide() && entry) {
      entry.scrollTop = entry.scrollHeight;
      return true;
    }
    window.scrollBy(0, body.getBoundingClientRect().bottom - (floor - saveRoom(body)));
    return true;
  }
  // A sheet of token chips with nothing picked yet: the room its preview and save will take once a
  // chip is tapped (about a line of preview and the button), kept above the tabs when the sheet
  // opens, so that the first tap does not have the page scroll under the finger to show them
  // (a tester's second tap missed its chip, or the save came half under the tabs). 0 otherwise.
  // The line just above the action tabs fixed at the screen's bottom, in the window (8 px clear).
  function tabsFloor() {
    var bar = document.querySelector("nav.actions");
    return window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0) - 8;
  }
  var SAVE_ROOM = 100;
  function saveRoom(body) {
    var picker = body && body.querySelector(".picker");
    return picker && !picker.parentElement.querySelector("form button.save") ? SAVE_ROOM : 0;
  }
  if (document.body.classList.contains("table-mode") && sideBySide()) { placeTurnedSheet(0); }
  // The window resized (a tablet turned, a laptop's window made smaller): a column that now
  // scrolls, left at its top (the far end of a sheet turned to the player across, their last
  // choices), is placed as on a fresh load, their heading in view (it was not: a tester).
  // One turned to one column (a tablet to portrait) places its prompt as a fresh load does.
  var resizePlaced = null, wasSide = sideBySide();
  window.addEventListener("resize", function () {
    clearTimeout(resizePlaced);
    resizePlaced = setTimeout(function () {
      var entry = document.getElementById("entry"), side = sideBySide(), turned = side !== wasSide;
      wasSide = side;
      if (!document.body.classList.contains("table-mode") || !entry) { return; }
      if (!side) {
        if (turned) { showPrompt(); }
      } else if (entry.scrollTop < 1 && entry.scrollHeight > entry.clientHeight + 1) { placeTurnedSheet(0); }
    }, 150);
  });
  // The turned sheet's start (its heading, the first thing its player reads) just under the tabs,
  // on a screen shown from its top (a tall panel across, two rows of reserved cards): the page
  // scrolls the few pixels that bring it above them (a tester read half of "Ben takes up to 3
  // tokens"). Farther down (a small phone) the screen stays at its top: the panel across, its
  // tokens at the top edge, is that player's to read first (an earlier tester). Never so far
  // that a card of that panel (a reserved card, which buys it) leaves the top edge: a tester's
  // second row of reserved cards was cut while a toast lay over the heading anyway.
  var UNCUT_AT_MOST = 60;
  function uncutTurnedSheet() {
    var body = document.querySelector("#sheet .sheet-body");
    if (!body || sideBySide() || getComputedStyle(body).transform === "none") { return; }
    var floor = tabsFloor();
    var below = body.getBoundingClientRect().bottom - floor;
    if (below <= 0 || below > UNCUT_AT_MOST) { return; }
    Array.prototype.forEach.call(document.querySelectorAll(".panel a[href], .panel button"), function (el) {
      var top = el.getBoundingClientRect().top;
      if (top >= 0 && top < below) { below = top; }
    });
    if (below > 0) { window.scrollBy(0, below); }
  }
  if (document.body.classList.contains("table-mode") && !document.querySelector("#sheet .prompt")) { uncutTurnedSheet(); }

  // The other phone's entry redraws this screen (a poll): a sheet this phone had open to plan
  // its move (buy, reserve, privileges, fix) opens again, drawn for the new position, unless the
  // rules raised a prompt (when the turn moved on, the screen shows from its top). What was
  // picked on it comes back when that entry was a fix (a correction), or a privilege used or the
  // board refilled in the same turn while a card was being chosen (the move is still to come);
  // after the move itself only the
  // browsing does (a level, a colour): the same plan saved again would record the move twice.
  // This phone's own entry or undo starts from the default sheet.
  var openSheet = null;
  var turnBefore = null;
  // (a sheet opened by its address, a reload or a phone woken from sleep, is open too: a plan
  // reloaded was dropped at the other phone's next entry)
  (function () {
    var query = new URLSearchParams(location.search);
    var name = query.get("sheet");
    if ((name !== "buy" && name !== "reserve") || !document.getElementById("sheet")) { return; }
    query.delete("sheet"); query.delete("v");
    openSheet = location.pathname.replace(/\/$/, "") + "/sheet/" + name + (query.toString() ? "?" + query.toString() : "");
  })();
  function turnShown() {
    var game = document.getElementById("game");
    return game ? game.getAttribute("data-turn") : null;
  }
  function partOfTurnSince() {  // a privilege used or the board refilled: the turn's action is still to come
    var game = document.getElementById("game");
    return !!game && /^(use_privileges|replenish)$/.test(game.getAttribute("data-last") || "") && turnShown() === turnBefore;
  }
  function onlyFixedSince() {
    var game = document.getElementById("game");
    return !!game && game.getAttribute("data-last") === "correction" && turnShown() === turnBefore;
  }
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    var target = evt.detail.target;
    var path = evt.detail.pathInfo && evt.detail.pathInfo.requestPath;
    if (!evt.detail.successful || !target || !path) { return; }
    if (target.id === "sheet") {
      openSheet = /\/sheet\/take$/.test(path) ? null : path;
    } else if (target.id === "game" && evt.detail.requestConfig && evt.detail.requestConfig.verb === "post") {
      openSheet = null;
    }
  });
  // what a sheet's address says of browsing only (a level, a colour; a plan of this phone's own
  // purchase, by its seat), and of the screen it was asked from (its version, entries listed)
  var BROWSING = ["src", "color", "plan"], ASKED_FROM = ["v", "n"];
  // a sheet's address with something chosen on it (tokens, a card, a payment), not only browsed
  function picked(path) {
    var chosen = false;
    var params = new URL(path, location.href).searchParams;
    var plan = params.has("plan");  // (a plan's card is only looked at: it stays, see browsingOnly)
    params.forEach(function (value, key) {
      if (BROWSING.indexOf(key) < 0 && ASKED_FROM.indexOf(key) < 0 && !(plan && key === "card")) { chosen = true; }
    });
    return chosen;
  }
  function browsingOnly(path) {
    var url = new URL(path, location.href);
    if (!/\/sheet\/(buy|reserve)$/.test(url.pathname)) { return null; }
    var kept = new URLSearchParams();
    // (a plan of this phone's own purchase goes on: "plan", the seat; and the card it looks at,
    // which nobody's entry makes wrong: dropped, a tester lost it at every entry of the others;
    // also into the real Buy sheet once the turn comes, chosen there (a tester had to find it
    // again); the server leaves it out once someone took it, as "plan" still says)
    BROWSING.concat(url.searchParams.has("plan") ? ["card"] : []).forEach(function (k) {
      if (url.searchParams.has(k)) { kept.set(k, url.searchParams.get(k)); }
    });
    return url.pathname + (kept.toString() ? "?" + kept.toString() : "");
  }
  // The Fix form keeps what was typed in it across the other phone's entry (a poll), and when
  // its save lost the race to that entry (409): the form being typed in stays on the screen
  // (focus kept) until the Fix sheet drawn for the new position, on the same seat, takes its
  // place; then each count typed is put back where the entry left that count as it was, a count
  // the entry changed shows its new value, marked, and the form says so.
  var fixSeat = null;    // the seat of the Fix form kept on the screen, waiting for its new drawing
  var keptSheet = null;  // that form's sheet, from the redraw's swap to its settling
  var keptFocus = null;
  var typedFix = null;   // what was typed in it, read as the new drawing comes
  function fixTyped() {
    var form = document.querySelector("#sheet form.correction");
    if (!form) { return null; }
    var typed = {};
    Array.prototype.forEach.call(form.querySelectorAll("input[type=number], input[name=note]"), function (input) {
      if (input.value !== input.defaultValue) { typed[input.name] = { value: input.value, was: input.defaultValue }; }
    });
    var active = document.activeElement;
    return { seat: form.elements.player.value, typed: typed,
             focus: active && active.form === form && active.name ? active.name : null };
  }
  var fixBase = null;  // the Fix sheet's address on the new screen (its tab, or its button beside a prompt)
  function fixAddress(seat) {
    var tab = document.getElementById("action-correction") || document.getElementById("fix-during-prompt");
    var base = fixBase || (tab && tab.getAttribute("hx-get"));
    fixBase = null;
    return base ? base + (base.indexOf("?") < 0 ? "?" : "&") + "p=" + encodeURIComponent(seat) : null;
  }
  function focusField(form, name) {
    var input = name && form && form.elements[name];
    if (input && input.focus) { input.focus({ preventScroll: true }); }
  }
  function fixRestore() {
    var form = document.querySelector("#sheet form.correction");
    var kept = typedFix;
    typedFix = null;
    if (!kept || !form || form.elements.player.value !== kept.seat) { return; }
    var moved = false;
    Object.keys(kept.typed).forEach(function (name) {
      var input = form.elements[name];
      if (!input) { return; }
      if (input.defaultValue === kept.typed[name].was) { input.value = kept.typed[name].value; }
      else { input.classList.add("moved"); moved = true; }
    });
    var note = document.getElementById("fix-moved");
    if (note && moved) { note.hidden = false; }
    focusField(form, kept.focus);
    if (Object.keys(kept.typed).length) { form.dispatchEvent(new Event("input", { bubbles: true })); }  // its "Saving will record" line
  }
  function isPoll(path) { return !!path && path.indexOf("/poll") >= 0; }
  // Entries another phone records a second or two apart: the second one's screen came while the
  // first one's toast was still up and replaced it unread (a tester saw "✓ Ana took 1 white, 2
  // green" and no word of the replenish before it). While a toast a poll brought is still up,
  // the next poll asks for the news since the screen before it (since, sn: its version and
  // entries), and its toast tells them all; a tap, or this phone's own write, ends it.
  var toldSince = null;
  function shownMarks() {
    var poller = document.getElementById("poller"), url = poller && poller.getAttribute("hx-get") || "";
    var v = /[?&]v=(\d+)/.exec(url), n = /[?&]n=(\d+)/.exec(url);
    return v && n ? { v: v[1], n: n[1] } : null;
  }
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    if (!evt.detail.target || evt.detail.target.id !== "game") { return; }
    var polled = isPoll(evt.detail.pathInfo && evt.detail.pathInfo.requestPath);
    var status = evt.detail.xhr ? evt.detail.xhr.status : 0;
    if (polled && status !== 200) { return; }  // (nothing new: 204)
    var still = toldSince && Date.now() < toldSince.until;
    var marks = polled ? (still ? toldSince : shownMarks()) : null;
    toldSince = marks ? { v: marks.v, n: marks.n, until: Date.now() + 3000 } : null;
  });
  document.addEventListener("click", function () { toldSince = null; }, true);
  document.body.addEventListener("htmx:configRequest", function (evt) {
    if (!toldSince || !evt.detail.elt || evt.detail.elt.id !== "poller") { return; }
    if (Date.now() >= toldSince.until) { toldSince = null; return; }
    evt.detail.parameters.since = toldSince.v;
    evt.detail.parameters.sn = toldSince.n;
  });
  var entriesBefore = NaN;
  function entriesShown() {  // the entries the screen shows: its poller's n (NaN on a spectator's)
    var poller = document.getElementById("poller");
    var n = poller && /[?&]n=(\d+)/.exec(poller.getAttribute("hx-get") || "");
    return n ? parseInt(n[1], 10) : NaN;
  }
  var planScroll = null, headingBefore = "", undoCheck = null, undoLostSaid = false;
  // (after the screen's own words, with them: registered after the listener that reads them)
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    if (!undoLostSaid || !evt.detail.target || evt.detail.target.id !== "game") { return; }
    undoLostSaid = false;
    sayNotice("undo-lost");
  });
  function sheetHeading() {
    var h = document.querySelector("#sheet .sheet-body h3");
    return h ? h.textContent.replace(/\s+/g, " ").trim() : "";
  }
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "game") {
      turnBefore = turnShown();
      entriesBefore = entriesShown();
      headingBefore = sheetHeading();
      // an undo in doubt: the screen before the poll's, to tell whether the undo was made
      var shown = document.getElementById("game");
      var polled = isPoll(evt.detail.pathInfo && evt.detail.pathInfo.requestPath);
      undoCheck = undoInDoubt && polled && shown ? { version: parseInt(shown.dataset.version, 10), entries: entriesShown() } : null;
      // (where a plan was read: the screen redrawn with the short default sheet cut the page's
      // height, and the plan came back below the reader's place: a tester at 390×844)
      planScroll = document.querySelector("#sheet [data-plan]") ? window.scrollY : null;
      var path = evt.detail.pathInfo && evt.detail.pathInfo.requestPath;
      var lostRace = evt.detail.xhr && evt.detail.xhr.status === 409;
      var form = isPoll(path) || lostRace ? document.querySelector("#sheet form.correction") : null;
      var active = document.activeElement;
      fixSeat = form ? form.elements.player.value : null;
      keptSheet = form ? Array.prototype.slice.call(document.getElementById("sheet").childNodes) : null;
      keptFocus = form && active && active.form === form ? active.name : null;
    } else if (sheetTarget(evt) && fixSeat !== null) {
      typedFix = fixTyped();  // the kept form, with all that was typed until now
      fixSeat = null;
    }
  });
  document.body.addEventListener("htmx:afterSwap", function (evt) {
    if (!keptSheet || !evt.detail.target || evt.detail.target.id !== "game") { return; }
    var nodes = keptSheet;
    keptSheet = null;
    var sheet = document.getElementById("sheet");
    // (a prompt the other phone's entry raised keeps the fix too: its Fix button's address, and the
    // Fix sheet drawn on the new screen leads back to the prompt)
    var fixControl = sheet && sheet.querySelector("#action-correction, #fix-during-prompt");
    if (!fixControl) { fixSeat = null; return; }
    fixBase = fixControl.getAttribute("hx-get");  // read before the kept sheet takes the new one's place
    sheet.replaceChildren.apply(sheet, nodes);
    focusField(sheet.querySelector("form.correction"), keptFocus);
  });
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    var target = evt.detail.target;
    var path = evt.detail.pathInfo && evt.detail.pathInfo.requestPath;
    if (!target || target.id !== "game") { return; }
    if (fixSeat !== null) {
      // A fix under way is about the tokens on the table, whoever's turn it is now.
      openSheet = fixAddress(fixSeat);
      if (openSheet) { ajax("GET", openSheet, { target: "#sheet" }); } else { fixSeat = null; }
      return;
    }
    if (!document.querySelector("#sheet [data-sheet]")) { return; }
    // (a prompt the other player answers leaves this phone's plan of its own purchase open: it
    // closed until their royal card was chosen, unsaid: a tester)
    var planning = !!openSheet && /[?&]plan=/.test(openSheet) && !mineToAct();
    var overPrompt = !!document.querySelector("#sheet .prompt");
    if (overPrompt && !planning) { return; }
    if (!openSheet || !isPoll(path)) { return; }
    if (turnShown() !== turnBefore && !planning) {
      // the turn moved on: the screen shows from its top (whose turn, what changed), not the
      // middle of a card grid now drawn for the player to act (a plan of this phone's own
      // purchase, still not its turn, stays where it was read: three at the table, it went
      // below the fold at every turn of the others: a tester)
      window.scrollTo(0, 0);
    }
    var cleared = null;  // the notice of what this phone had picked and the entry cleared
    var moveToCome = partOfTurnSince() && /\/sheet\/(buy|reserve)\b/.test(openSheet);  // (a privilege pick is spent)
    if (!onlyFixedSince() && !moveToCome) {
      // what this phone had picked goes: said (a tester's half-chosen take went without a word)
      // (an undo said as one: "another phone's entry" misnamed it; the poller's n is the entries shown)
      // (a royal card, tokens to return or a noble chosen on the other phone: nothing to choose again)
      if (picked(openSheet)) {
        // (an undo that gave the turn back to the other player: "choose again" told a player
        // who could not, their sheet behind "Ana plays on their phone": a tester)
        var mine = /(?:^|\s)mine-\d(?:\s|$)/.test(document.body.className);
        // (so did an entry of this phone's player made on another phone: "choose again" told Mia to
        // choose what she could no longer enter, a tester)
        var waiting = mine && !mineToAct();
        cleared = entriesShown() < entriesBefore ? (waiting ? "picks-undone-wait" : "picks-undone")
                  : /\/sheet\/(royal|discard|noble)\b/.test(openSheet) ? "picks-settled"
                  : waiting && !planning ? "picks-gone-wait" : "picks-gone";
      }
      openSheet = browsingOnly(openSheet);
    }
    // (said once the plan is back over the prompt: no notice is drawn over a prompt)
    if (cleared && !overPrompt) { sayNotice(cleared); }
    if (!openSheet) { return; }
    var asked = ajax("GET", openSheet, { target: "#sheet" });
    if (cleared && overPrompt && asked && asked.then) { asked.then(function () { sayNotice(cleared); }); }
    // the sheet opened again for another player ("Ben buys: costs after Ben's bonuses", the focus
    // still on a card): said after the news, or a screen reader read on as if the costs were Ana's
    // (an accessibility tester)
    var was = headingBefore;
    if (was && asked && asked.then) {
      asked.then(function () {
        var now = sheetHeading();
        // after what was just given to the live region (the news, "choose again"), with it: said
        // alone, it replaced them before they were read (a tester)
        if (now && now !== was) { sayAfterScreen(now + ".", true); }
      });
    }
    var readAt = planning ? planScroll : null;
    if (readAt !== null && asked && asked.then) {
      asked.then(function () { if (document.querySelector("#sheet [data-plan]")) { window.scrollTo(0, readAt); } });
    }
  });
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    if (typedFix && evt.detail.target && evt.detail.target.id === "sheet") { fixRestore(); }
  });

  // The Fix sheet's save bar, pinned above the tabs, grows with what its preview says (a
  // refusal takes three lines): the room a field scrolled into view keeps below it follows the
  // bar's height (a field reached with the keyboard's next-field key sat under a grown bar), and
  // a field being typed that the bar grows over comes above it.
  var fixBar = null;
  var fixBarWatch = window.ResizeObserver ? new ResizeObserver(function () {
    if (!fixBar) { return; }
    document.documentElement.style.setProperty("--fix-bar", fixBar.offsetHeight + "px");
    var field = document.activeElement;
    if (!field || !field.form || !field.form.contains(fixBar) || fixBar.contains(field) ||
        getComputedStyle(fixBar).position !== "sticky") { return; }
    var under = field.getBoundingClientRect().bottom - fixBar.getBoundingClientRect().top;
    if (under > 0) { window.scrollBy(0, under + 8); }
  }) : null;
  function watchFixBar() {
    var bar = document.querySelector("#sheet .correction .fix-save");
    if (bar === fixBar || !fixBarWatch) { return; }
    if (fixBar) { fixBarWatch.unobserve(fixBar); }
    fixBar = bar;
    if (bar) { fixBarWatch.observe(bar); } else { document.documentElement.style.removeProperty("--fix-bar"); }
  }
  document.body.addEventListener("htmx:afterSettle", watchFixBar);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", watchFixBar); } else { watchFixBar(); }

  // A sheet opened or redrawn by a tap (a tab, a chip, a card) shows its save button above the
  // action tabs that stay at the bottom of the screen: the page scrolls just enough, never so
  // far that the sheet's own top leaves the screen.
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    var cfg = evt.detail.requestConfig;
    if (!cfg || !evt.detail.target || evt.detail.target.id !== "sheet") { return; }
    var sheet = evt.detail.target;
    var floor = tabsFloor();
    // A chip tapped on a turned sheet: its chips are where they were (app.css keeps them at the
    // edge that stays put), under the finger for the next tap; placed again, they moved by what
    // the tap added (a tester's quick second tap missed). The save came in farther from its player.
    var chip = cfg.triggeringEvent && cfg.elt && cfg.elt.closest ? cfg.elt.closest(".picker") : null;
    var body = sheet.querySelector(".sheet-body");
    if (chip && body && getComputedStyle(body).transform !== "none") { return; }
    // (a turned sheet opened again after the other phone's entry too: the redraw put it at its end)
    // (and once more after htmx's own "show:#sheet:top", which scrolls after this event: a reserved
    // card tapped in the panel across showed the end of its grid, a tester)
    if (placeTurnedSheet(floor)) { setTimeout(function () { placeTurnedSheet(tabsFloor()); }, 0); return; }
    if (!cfg.triggeringEvent) { return; }
    // Another action tab tapped far down a long sheet (Buy's grid): the new sheet starts at its top
    // (Reserve opened at the end of its grid, its secret cards and filters off the screen: a tester)
    var tab = cfg.elt && cfg.elt.closest ? cfg.elt.closest("nav.actions") : null;
    if (tab && sheet.getBoundingClientRect().top < 0) { window.scrollBy(0, sheet.getBoundingClientRect().top - 8); return; }
    var saves = sheet.querySelectorAll("form button.save");
    var last = saves.length ? saves[saves.length - 1] : sheet;
    // the Fix sheet's save stays in reach by itself (pinned above the tabs): what it must show is
    // the first counts to fix, above that bar (a tester's Fix tab showed the names, the counts
    // hidden): hidden, the sheet comes to the screen's top (the bar grows as it settles)
    var counts = sheet.querySelector("form.correction fieldset");
    var pinned = counts && sheet.querySelector("form.correction .fix-save");
    if (counts && pinned && getComputedStyle(pinned).position === "sticky") {
      var hidden = counts.getBoundingClientRect().bottom > Math.min(floor, pinned.getBoundingClientRect().top - 8);
      if (hidden && sheet.getBoundingClientRect().top > 8) { window.scrollBy(0, sheet.getBoundingClientRect().top - 8); }
      return;
    }
    var below = last.getBoundingClientRect().bottom + (chip ? 0 : saveRoom(body)) - floor;
    var room = sheet.getBoundingClientRect().top - 8;
    if (below > 0 && room > 0) { window.scrollBy(0, Math.min(below, room)); }
  });

  // Keyboard play: the entry tabs, chips, filters, cards and the buttons drawn as links (a secret
  // card's level, a royal card, "← other card", the skip link) act like buttons, so Space presses
  // them too; a screen redrawn after a saved entry gives the focus to its sheet's
  // first control (else it fell to the page; a redrawn sheet is handled below).
  var byKey = false;
  document.addEventListener("keydown", function (evt) {
    byKey = true;
    if (document.activeElement && document.activeElement.classList) { document.activeElement.classList.remove("quiet-focus"); }
    var link = evt.key === " " && evt.target.closest ? evt.target.closest("a.chip-btn, a.action, a.filter, a.tab, a.card, a.small-btn, a.button, a.royal-card, a.mini-card") : null;
    if (link) { evt.preventDefault(); link.click(); }
  }, true);
  document.addEventListener("pointerdown", function () { byKey = false; }, true);
  // With touch too (a screen reader's swipes go on from the focus: it fell to the page's top, a
  // tester with TalkBack): quietly, no scroll, and never into a field (the keyboard would open).
  function quietly(control) {
    control.classList.add("quiet-focus");
    control.addEventListener("blur", function () { control.classList.remove("quiet-focus"); }, { once: true });
  }
  var wasQuiet = false;
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var active = document.activeElement;
    if (evt.detail.target && evt.detail.target.id === "game") { wasQuiet = !!(active && active.classList && active.classList.contains("quiet-focus")); }
  });
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "game") { return; }
    var focused = document.activeElement;
    if (focused && focused !== document.body && document.body.contains(focused)) {
      // htmx gives the focus back to the new control of the same id: as quietly as it was given
      // (the second entry of the other phone drew the ring round the white chip: a tester)
      if (wasQuiet && !byKey && focused.classList) { quietly(focused); }
      return;
    }
    var first = firstControl();
    if (!first || (!byKey && first.matches("input, select, textarea"))) { return; }
    if (byKey) { first.focus(); return; }
    // no ring drawn by it (a phone not yet tapped took it for a chosen chip, a tester): the
    // ring comes back with the first key
    quietly(first);
    first.focus({ preventScroll: true });
  });
  function firstControl() {
    // (nothing to press in the sheet, say an empty board: the tabs, where the next step is; a
    // prompt whose every choice saves at once, the royal card: its question, the choices next)
    return document.querySelector("#sheet .sheet-body [data-focus-first]") ||
           document.querySelector("#sheet .sheet-body a[href], #sheet .sheet-body button:not([aria-disabled='true']), " +
                                  "#sheet .sheet-body input:not([type=hidden])") ||
           document.querySelector("#sheet nav.actions a[href]:not(.on), #sheet nav.actions button");
  }

  // The toasts sit above the action tabs, where the next sheet's save button lands: the first
  // tap or key after an entry (the table going on) clears them instead of waiting them out.
  function clearToasts() {
    if (justRedrawn()) { return; }  // that tap is dropped (below): the toast says why the screen changed
    var alerts = document.getElementById("alerts");
    if (alerts && alerts.firstElementChild) { alerts.classList.add("cleared"); }
  }

  // The other phone's entry redraws the screen under a finger: a tap landing within a moment of
  // that redraw was aimed at the screen before (a discard chip becomes the next player's take
  // chip), so it does nothing; the next tap, on what is now shown, does. This phone's own save or
  // undo redraws it too: the second and third taps of a quick triple tap on "Take 3" or "Undo
  // it" landed on the new screen (a chip of the prompt below, a player's page). Those do nothing
  // either, unsaid (the finger was still on the save just made: no "tap again").
  // (after the other phone's entry 0.3 s: a tester's taps 0.3 s after their turn came back,
  // answers to it, were dropped two times in three at 0.4 s; after this phone's own save 0.4 s:
  // the finger may still be on the save)
  var REDRAW_GUARD_MS = 300, SAVE_GUARD_MS = 400;
  var guardTimer = null;
  function justRedrawn() { return /(?:^|\s)just-(?:redrawn|saved)(?:\s|$)/.test(document.body.className); }
  // The undo question open when the other phone's entry redraws the screen goes with it: said,
  // so the player knows nothing was undone (the entry it asked about may not be the last now).
  var undoAsked = false;
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var dialog = document.getElementById("undo-dialog");
    undoAsked = !!(evt.detail.target && evt.detail.target.id === "game" && dialog && dialog.open &&
                   isPoll(evt.detail.pathInfo && evt.detail.pathInfo.requestPath));
  });
  document.body.addEventListener("htmx:afterSwap", function (evt) {
    var path = evt.detail.pathInfo && evt.detail.pathInfo.requestPath;
    var verb = evt.detail.requestConfig && evt.detail.requestConfig.verb;
    var own = verb === "post";
    if (undoAsked && evt.detail.target && evt.detail.target.id === "game") { undoAsked = false; sayNotice("undo-gone"); }
    if (!evt.detail.target || evt.detail.target.id !== "game" || !(isPoll(path) || own)) { return; }
    document.body.classList.remove("just-redrawn", "just-saved");
    document.body.classList.add(own ? "just-saved" : "just-redrawn");
    clearTimeout(guardTimer);
    guardTimer = setTimeout(function () { document.body.classList.remove("just-redrawn", "just-saved"); },
                            own ? SAVE_GUARD_MS : REDRAW_GUARD_MS);
  });
  // The tap that did nothing is said to have done nothing (it felt missed, and was tapped again
  // on whatever now lay under the finger).
  function sayTapAgain() { sayNotice("tap-again"); }
  // A notice the screen adds itself (its words in the alerts' data-<name>): once, as a toast.
  function sayNotice(name, overPrompt) {
    var alerts = document.getElementById("alerts");
    // (not over a prompt: the royal card, tokens to return or noble it asks for lie under the toasts;
    // ``overPrompt``, a notice that answers a tap of its own, is: Undo held said nothing, a tester)
    // (a prompt this phone only waits behind, "Owen returns 2 tokens on their phone", is not shown: said)
    var prompt = document.querySelector("#sheet .prompt");
    if (!alerts || alerts.querySelector(".alert-" + name) || (prompt && prompt.offsetParent !== null && !overPrompt)) { return; }
    var line = document.createElement("p");
    line.className = "alert alert-notice alert-" + name;
    // (words the page shell keeps, not drawn with every screen, are on the announcer)
    line.textContent = alerts.getAttribute("data-" + name) || (announcer && announcer.getAttribute("data-" + name)) || "";
    alerts.classList.remove("cleared");
    alerts.appendChild(line);
    sayAfterScreen(line.textContent);
  }
  // Said after what the same redraw reads out (the other phone's entry), not in its place:
  // with it, when the redraw's words are still to come (said once, not twice: a tester heard
  // "Kay took 1 white. Lou's turn." and then the same again with the notice); after them, alone,
  // unless ``withRecent``: then after whatever the region was given in the last 2 s, with it
  function sayAfterScreen(text, withRecent) {
    if (!announcer) { return; }
    var before = "";
    if (Date.now() - screenSaid.at < 1000 && screenSaid.text && !screenSaid.out) {
      clearTimeout(screenSaid.timer);
      before = screenSaid.text + " ";
      screenSaid.out = true;
    } else if (withRecent && announced.text && Date.now() - announced.at < 2000) {
      before = announced.text + " ";
    }
    announced = { text: before + text, at: Date.now() };
    announcer.textContent = "";
    setTimeout(function () { announcer.textContent = before + text; }, 60);
  }
  // The action tabs never move (fixed at the bottom, the same in every screen): a tab tapped at
  // once on the turn coming back opens its sheet, which records nothing (a couple's phones: the
  // tap that "did nothing" came at the very moment the player wanted to act). Undo is still
  // guarded: the entry it would take back just changed.
  // After this phone's own save only a tap where the save's was is its finger still there (a
  // double tap); a tap elsewhere is the player's next move on the new screen, and counts (a
  // tester's quick chips after a save did nothing, unsaid). A click with no point (a key, a
  // script) is held as before.
  var lastTap = null;
  function nearLastTap(evt) {
    return !lastTap || evt.detail === 0 || Math.abs(evt.clientX - lastTap.x) + Math.abs(evt.clientY - lastTap.y) <= 32;
  }
  document.addEventListener("click", function (evt) {
    // (after this phone's own save, anywhere: the page grew shorter and the links below the game,
    // History, Players, rose under the finger still on the save)
    var saved = document.body.classList.contains("just-saved");
    var control = evt.target.closest ? evt.target.closest(saved ? "a, button" : "#game a, #game button") : null;
    var held = !!control && justRedrawn() && !(saved && !nearLastTap(evt)) &&
      !(control.closest("nav.actions") && !control.closest("#undo-form, .undo"));
    if (!held) { if (evt.detail > 0) { lastTap = { x: evt.clientX, y: evt.clientY }; } return; }
    evt.preventDefault(); evt.stopImmediatePropagation();
    if (document.body.classList.contains("just-redrawn")) { sayTapAgain(); }
  }, true);
  document.addEventListener("pointerdown", clearToasts, true);
  document.addEventListener("keydown", clearToasts, true);
  // "Whose phone is this?" redrawn as another phone takes a seat: "(on another phone)" widens that
  // seat's button and the others move, so a tap just after it is held, said, not taken (a tester's
  // tap aimed at Benjamin made the phone Alexandra's)
  var WHOSE_GUARD_MS = 700, whoseRedrawn = 0;
  document.body.addEventListener("htmx:afterSwap", function (evt) {
    var elt = evt.detail.requestConfig && evt.detail.requestConfig.elt;
    if (elt && elt.id === "whose-phone") { whoseRedrawn = Date.now(); }
  });
  document.addEventListener("click", function (evt) {
    var inQuestion = evt.target.closest && evt.target.closest("#whose-phone a");
    if (!inQuestion || Date.now() - whoseRedrawn >= WHOSE_GUARD_MS) { return; }
    evt.preventDefault(); evt.stopImmediatePropagation();
    sayNotice("seat-moved");  // (not "a new entry": none was made)
  }, true);

  // A refused Fix save says why under the form (with its rule), where the live "Saving will
  // record" line said the same: the line steps aside until the counts are typed again.
  document.addEventListener("input", function (evt) {
    var form = evt.target && evt.target.form;
    var refusal = form && form.classList.contains("correction") && form.querySelector("#entry-error");
    if (refusal && refusal.firstChild) { refusal.replaceChildren(); }
  });
  // "Make it add up": one tap types the count that makes a total hold again (the board's, the
  // bag's or the player's), and the preview says what saving now records.
  document.addEventListener("click", function (evt) {
    var fix = evt.target.closest ? evt.target.closest("[data-fix]") : null;
    if (!fix || !fix.form) { return; }
    var counts = JSON.parse(fix.getAttribute("data-fix")), field = null;
    Object.keys(counts).forEach(function (name) {
      var input = fix.form.elements.namedItem(name);
      if (input) { input.value = counts[name]; field = input; }
    });
    if (field) { field.dispatchEvent(new Event("input", { bubbles: true })); }
  });

  // One phone each: the other player's sheet or prompt shows once this phone chooses to enter
  // it (an action tab, "Enter it here"), until the turn changes hands.
  var enterHereTurn = null;
  document.addEventListener("click", function (evt) {
    var want = evt.target.closest ? evt.target.closest("[data-enter-here], nav.actions a.action") : null;
    if (!want || !document.getElementById("game")) { return; }
    document.body.classList.add("enter-here");
    enterHereTurn = turnKey();
    var closePlan = document.getElementById("close-plan");
    if (want.hasAttribute("data-enter-here") && closePlan && window.htmx) {
      // a plan of this phone's own purchase was open: the move to enter is the other player's
      history.replaceState(history.state, "", closePlan.getAttribute("href"));
      ajax("GET", closePlan.getAttribute("hx-get"), { target: "#sheet" });
      return;
    }
    if (want.hasAttribute("data-enter-here")) {
      var first = firstControl();
      if (first) { first.focus({ preventScroll: true }); }
      // said: whose turn this phone now enters, and the sheet's heading (the focus went straight to
      // a chip, and nothing said whose turn it was: an accessibility tester)
      var words = [document.getElementById("entering-for"), document.querySelector("#sheet .sheet-body h3")]
        .filter(Boolean).map(function (el) { return el.textContent.replace(/\s+/g, " ").trim(); });
      if (words.length) { sayAfterScreen(words.join(" ")); }
    }
  });
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    if (!evt.detail.target || evt.detail.target.id !== "game") { return; }
    if (turnKey() !== enterHereTurn) {
      document.body.classList.remove("enter-here");
      enterHereTurn = null;
    }
    enterAlways();
  });
  // Three or four at the table with fewer phones: "Always enter X's turns here" keeps the turns of
  // a player with no phone open on this phone (this game only, kept in localStorage), said above
  // the sheet with a Stop; before, every phone asked "Enter it here" at each of their turns.
  function alwaysKey() {
    var game = document.getElementById("game");
    return game ? "tracker:always:" + game.getAttribute("data-game") : null;
  }
  function alwaysSeats() {
    try { return JSON.parse(localStorage.getItem(alwaysKey()) || "[]"); } catch (e) { return []; }
  }
  function keepAlwaysSeats(seats) {
    try {
      if (seats.length) { localStorage.setItem(alwaysKey(), JSON.stringify(seats)); } else { localStorage.removeItem(alwaysKey()); }
    } catch (e) { /* private browsing: for this screen only */ }
  }
  function enterAlways() {
    var game = document.getElementById("game");
    var on = !!game && !!alwaysKey() && alwaysSeats().indexOf(Number(game.getAttribute("data-current"))) >= 0;
    document.body.classList.toggle("always-here", on);
    if (on) { document.body.classList.add("enter-here"); enterHereTurn = turnKey(); }
  }
  document.addEventListener("click", function (evt) {
    var always = evt.target.closest ? evt.target.closest("[data-enter-always], [data-enter-always-stop]") : null;
    if (!always || !alwaysKey()) { return; }
    var stop = always.hasAttribute("data-enter-always-stop");
    var seat = Number(always.getAttribute(stop ? "data-enter-always-stop" : "data-enter-always"));
    var seats = alwaysSeats().filter(function (s) { return s !== seat; });
    keepAlwaysSeats(stop ? seats : seats.concat([seat]));
    if (stop) { document.body.classList.remove("enter-here"); enterHereTurn = null; }
    enterAlways();
    if (!stop) {
      var first = firstControl();
      if (first) { first.focus({ preventScroll: true }); }
    }
  });
  enterAlways();

  // A Buy or Reserve sheet's skip link hands the focus to its first card (the address keeps no
  // "#cards", which would be a history step of its own).
  document.addEventListener("click", function (evt) {
    var skip = evt.target.closest ? evt.target.closest("a[data-skip]") : null;
    if (!skip) { return; }
    var first = document.querySelector("#" + skip.getAttribute("data-skip") + " a[href]");
    if (!first) { return; }
    evt.preventDefault();
    first.focus();
  });

  // New game form: "Who starts?" names each seat as typed above it, and offers a Splendor third
  // or fourth seat only once its name is typed (three names offered a "Fourth player").
  function seatsOffered() {
    for (var i = 2; i < 4; i++) {
      var name = document.getElementById("player" + i);
      var label = document.querySelector('[data-name-of="' + i + '"]');
      var choice = label && label.closest("label");
      if (!name || !choice) { continue; }
      choice.hidden = !name.value.trim();
      var radio = choice.querySelector("input");
      if (choice.hidden && radio && radio.checked) {
        var first = radio.form.querySelector("input[name=first][value='0']");
        if (first) { first.checked = true; }
      }
    }
  }
  seatsOffered();
  // Classic Splendor's nobles on display: how many are ticked of the players + 1 the names typed
  // call for, said as they are tapped (a tester ticked six for four players and only heard of it
  // on Start).
  function noblesCounted() {
    var box = document.getElementById("noble-count");
    if (!box) { return; }
    var players = 0;
    for (var i = 0; i < 4; i++) {
      var field = document.getElementById("player" + i);
      if (field && field.value.trim()) { players++; }
    }
    // (before two names are typed, the players are not known yet: a table that lays its nobles out
    // first, four players, could tick only three and was not told why, a tester; up to five, then)
    var known = players >= 2;
    var need = known ? players + 1 : 5;
    var boxes = box.closest("form").querySelectorAll("input[name=noble]");
    var ticked = box.closest("form").querySelectorAll("input[name=noble]:checked").length;
    box.textContent = box.getAttribute(known ? "data-template" : "data-template-unnamed").replace("{n}", ticked).replace("{need}", need);
    box.classList.toggle("over", ticked > need);
    // as many as the names call for: the others cannot be ticked until one is unticked (a tester
    // ticked five for three players, the count said so in red and every box still took a tick);
    // a name typed later calls for one more and frees them again
    Array.prototype.forEach.call(boxes, function (input) { input.disabled = !input.checked && ticked >= need; });
  }
  noblesCounted();
  // (the browser puts the ticks back after Back once the page is drawn: counted again then, the
  // count said "0 of 3" beside five ticks, every tile free: a tester)
  window.addEventListener("pageshow", function () { seatsOffered(); noblesCounted(); });
  document.addEventListener("change", function (evt) { if (evt.target.name === "noble") { noblesCounted(); } });
  // What a page's form led to, said low on a long page (the nobles' refusal on the new-game form,
  // a player page's "… is forgotten" or refusal), is brought into view: the page opens at its top.
  var outcome = document.querySelector("[data-into-view]");
  if (outcome && outcome.scrollIntoView) { outcome.scrollIntoView({ block: "center" }); }
  document.addEventListener("input", function (evt) {
    var seat = /^player(\d)$/.exec(evt.target.id || "");
    var label = seat && document.querySelector('[data-name-of="' + seat[1] + '"]');
    if (label) { label.textContent = evt.target.value.trim() || label.getAttribute("data-place"); }
    if (seat) { seatsOffered(); noblesCounted(); }
  });

  // History's import: the chosen file's name is said beside the app's own "Choose a file" button
  // (the browser's own button, hidden, would speak the browser's language).
  function sayFileChosen(input) {
    var pick = input && input.closest && input.closest(".file-pick");
    var name = pick && pick.querySelector("[data-file-name]");
    if (!name) { return; }
    if (!name.hasAttribute("data-none")) { name.setAttribute("data-none", name.textContent); }
    var file = input.files && input.files[0];
    name.textContent = file ? file.name : name.getAttribute("data-none");
  }
  document.addEventListener("change", function (evt) { sayFileChosen(evt.target); });
  // (a page brought back by Back keeps the file chosen, with no "change": a tester saw "No file
  // chosen" beside a file that was then uploaded)
  window.addEventListener("pageshow", function () {
    Array.prototype.forEach.call(document.querySelectorAll(".file-pick input[type=file]"), sayFileChosen);
  });

  // New game form: going back to Duel with a third or fourth starter chosen (hidden in Duel)
  // chooses the first player again, visibly.
  document.addEventListener("change", function (evt) {
    var input = evt.target;
    if (input.name !== "game" || input.value !== "duel" || !input.form) { return; }
    var chosen = input.form.querySelector("input[name=first]:checked");
    var first = input.form.querySelector("input[name=first][value='0']");
    if (chosen && first && chosen.closest(".splendor-only")) { first.checked = true; }
  });

  // A control of the sheet named by what it stands for (a chip's colour, a tab, a card...), so
  // that it can be found again in the sheet drawn after it: ".pick-source [data-kind="red"]".
  var KEYS = ["data-kind", "data-tab", "data-card", "data-wild", "data-steal", "data-royal", "data-reveal", "data-gold-for",
              "data-filter", "data-gold-reset", "data-back", "data-seat"];
  function controlKey(el) {
    if (el.id) { return "#" + el.id; }
    for (var i = 0; i < KEYS.length; i++) {
      var value = el.getAttribute(KEYS[i]);
      if (value) {
        var area = el.closest(".pick-source, .pick-chosen, .tabs, .choice-row, .grid");
        return (area ? "." + area.classList[0] + " " : "") + "[" + KEYS[i] + '="' + value.replace(/"/g, "") + '"]';
      }
    }
    return null;
  }

  // Taps faster than the network: each tap in a sheet asks the server for the sheet it leads to
  // (the picked tokens are in its address), so a tap on the sheet still shown while the previous
  // tap's answer is on its way would be counted on the old sheet and lost. Such taps wait and
  // are made again, in order, on each new sheet: three quick taps on red pick three reds. A save
  // tapped meanwhile waits too, and saves the sheet those taps lead to. A waiting tap whose
  // control is gone or disabled on the new sheet ends the wait (the rest were meant for it).
  var sheetBusy = false;
  // while a tap's sheet is on its way the sheet shown is about to change: its preview is dimmed
  function busy(on) { sheetBusy = on; document.body.classList.toggle("sheet-busy", on); }
  var waitingTaps = [];
  function sheetTarget(evt) { return evt.detail.target && evt.detail.target.id === "sheet"; }
  // a control of the sheet that a tap replays, and what it stands for: a save by what its form
  // records, another control by its key
  var SHEET_CONTROL = "#sheet a[hx-get], #sheet button.save";
  function sheetControlKey(control) {
    var form = control.closest("form");
    return control.matches("button") ? (form ? saveKey(form) : null) : controlKey(control);
  }
  document.addEventListener("click", function (evt) {
    var control = sheetBusy && evt.target.closest ? evt.target.closest(SHEET_CONTROL) : null;
    if (!control) { return; }
    evt.preventDefault();
    evt.stopPropagation();
    var key = sheetControlKey(control);
    if (!key) { return; }
    waitingTaps.push(key);
    // A card (or a secret card of a level) tapped while another card's answer is on its way:
    // the sheet that comes shows the first card chosen, without the grid. The card's own
    // address (its level, colour and id, nothing picked before) chooses it there instead: the
    // last card tapped is the one chosen.
    var grid = control.closest(".grid");
    var sheet = control.closest("[data-sheet]");
    if (sheet && ((grid && control.hasAttribute("data-card")) || control.classList.contains("secret"))) {
      cardAddress[key] = { href: control.getAttribute("hx-get"), sheet: sheet.getAttribute("data-sheet") };
    }
  }, true);
  var cardAddress = {};
  // A save button by what its form records: the entry type, and the royal card, noble or token
  // to steal it names (a royal sheet has a save per card).
  function saveKey(form) {
    var holder = form.closest("[data-royal], [data-noble]");
    return "save:" + [form.getAttribute("data-type"), form.getAttribute("data-steal") || "",
                      holder ? holder.getAttribute("data-royal") || holder.getAttribute("data-noble") : ""].join("|");
  }
  function replay(key) {
    if (key.indexOf("save:") === 0) {  // the one save of the new sheet that records the same thing
      var live = document.querySelectorAll('#sheet form button.save:not([aria-disabled="true"])');
      var saves = Array.prototype.filter.call(live, function (b) { return saveKey(b.closest("form")) === key; });
      if (!saves.length) {
        // a token to steal chosen by a tap before the save: the same entry and card, its new steal
        var loose = key.split("|");
        saves = Array.prototype.filter.call(live, function (b) {
          var other = saveKey(b.closest("form")).split("|");
          return other[0] === loose[0] && other[2] === loose[2];
        });
      }
      if (saves.length === 1) { saves[0].click(); return true; }
      // a royal card whose save became a plain choice (another card was chosen meanwhile): it is
      // chosen, and its own save then says what it records (never recorded unseen)
      var royal = key.split("|")[2];
      var chooser = royal && document.querySelector('#sheet a[hx-get][data-royal="' + royal.replace(/"/g, "") + '"]');
      if (chooser) { chooser.click(); return true; }
      return false;
    }
    var el = document.querySelector("#sheet " + key);
    if (el && el.matches("a[hx-get]")) { el.click(); return true; }
    var card = cardAddress[key];
    if (!el && card && document.querySelector('#sheet [data-sheet="' + card.sheet + '"]')) {
      ajax("GET", card.href, { target: "#sheet" });
      return true;
    }
    return false;
  }
  // A mouse press that began on a sheet's control just before the sheet was redrawn (the last
  // chip's answer came between the button going down and up) makes no click: the control it went
  // down on is gone. Released on the same control of the new sheet, it is that control's click.
  // (A finger's tap makes its click after it lifts, on what is then under it: nothing to do.)
  var pressed = null, clicked = false;
  document.addEventListener("pointerdown", function (evt) {
    var control = evt.pointerType === "mouse" && evt.target.closest ? evt.target.closest(SHEET_CONTROL) : null;
    pressed = control ? { el: control, key: sheetControlKey(control) } : null;
  }, true);
  document.addEventListener("click", function () { clicked = true; }, true);
  document.addEventListener("pointerup", function (evt) {
    var was = pressed;
    pressed = null;
    clicked = false;
    if (!was || !was.key || document.contains(was.el) || !evt.target.closest) { return; }
    var now = evt.target.closest(SHEET_CONTROL);
    if (!now || sheetControlKey(now) !== was.key) { return; }
    // (the browser's own click, had it made one, comes in this same turn of the event loop)
    setTimeout(function () { if (!clicked && document.contains(now)) { now.click(); } }, 0);
  }, true);

  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    if (sheetTarget(evt)) { busy(true); }
  });
  // A sheet redrawn by a tap stays where it was on the screen: the browser's scroll anchoring,
  // its anchor gone with the old sheet, held on to what lies below and scrolled the page (a
  // tester's "My reserve" tab over a long level-1 grid opened its secret card's list at the
  // bottom, its heading off the screen). Off while the sheet is swapped, and while the whole
  // game is (a poll's new screen: three at the table, the take sheet gone for "Cy plays on their
  // phone", the browser anchored to what followed and scrolled 265 px, whose turn off the top:
  // a tester); where the screen then goes is this script's to say (below).
  // (and the game log, "Show all N entries": its link gone with the old log, the page kept the
  // links under the log in place and went to its end, entries 40 to 17 passed over: a tester)
  function anchoredSwap(evt) {
    return sheetTarget(evt) || (evt.detail.target && (evt.detail.target.id === "game" || evt.detail.target.id === "log"));
  }
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    if (anchoredSwap(evt) && evt.detail.shouldSwap) { document.documentElement.classList.add("sheet-swap"); }
  });
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    if (anchoredSwap(evt)) { setTimeout(function () { document.documentElement.classList.remove("sheet-swap"); }, 0); }
  });
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    // no sheet came (an error, or a page that is no answer of this app): the sheet shown takes taps again
    if (sheetTarget(evt) && (!evt.detail.successful || failed(evt))) { busy(false); waitingTaps = []; }
  });
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "game") { busy(false); waitingTaps = []; cardAddress = {}; return; }
    if (!sheetTarget(evt)) { return; }
    busy(false);
    var next = waitingTaps.shift();
    if (next && !replay(next)) { waitingTaps = []; }
    if (!waitingTaps.length) { cardAddress = {}; }
  });

  // Each sheet request says which version of the game this screen shows (v) and how many
  // entries it lists (n, as the poll does): if another phone recorded something since, the
  // server answers with the new screen and its toast instead of a sheet for the new position
  // drawn under the old one (a tap must never carry a plan made for one turn into the next).
  document.body.addEventListener("htmx:configRequest", function (evt) {
    var game = document.getElementById("game");
    if (!sheetTarget(evt) || evt.detail.verb !== "get" || !game || !game.dataset.version) { return; }
    evt.detail.parameters.v = game.dataset.version;
    var poller = document.getElementById("poller");
    var count = poller && /[?&]n=(\d+)/.exec(poller.getAttribute("hx-get") || "");
    if (count) { evt.detail.parameters.n = count[1]; }
  });

  // Keyboard: a sheet redrawn by a tap inside it (a token chip, a card) gives the focus back to
  // the same control in the new sheet, not to the top of the page; an action tab hands it to the
  // sheet it opened (its first control), not keep it in the tab bar after the sheet.
  // The other phone's entry redraws the whole screen under a sheet this phone had open (a Buy
  // sheet's level tab focused): the sheet is opened again after it, and the focus goes back to
  // that control, not to the sheet's first (the focus fell to the page: an accessibility tester).
  var refocus = null, redrawFocus = null, intoSheet = false;
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var active = document.activeElement;
    var sheet = document.getElementById("sheet");
    // a reserved card of the panel opens the Buy sheet far below it: the focus goes to its heading
    intoSheet = sheetTarget(evt) && !!active && !!active.closest && !!active.closest("[data-buy-reserved]");
    if (evt.detail.target && evt.detail.target.id === "game") {
      redrawFocus = active && sheet && sheet.contains(active) ? controlKey(active) : null;
    }
    refocus = null;
    if (!sheetTarget(evt) || !active || !evt.detail.target.contains(active)) { return; }
    refocus = redrawFocus || controlKey(active);
    redrawFocus = null;
  });
  ["pointerdown", "keydown"].forEach(function (name) {
    document.addEventListener(name, function () { redrawFocus = null; }, true);  // a move of the player's own since
  });
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    var heading = intoSheet && sheetTarget(evt) ? document.querySelector("#sheet .sheet-body h3") : null;
    intoSheet = false;
    if (heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
      return;
    }
    if (!refocus || !sheetTarget(evt)) { return; }
    // focused elsewhere between the swap and now (a tap, a script): kept (htmx itself gives the
    // focus back to the control of the same id, which this goes on from)
    var now = document.activeElement;
    if (now && now !== document.body && document.body.contains(now) && controlKey(now) !== refocus) {
      refocus = null;
      return;
    }
    var again = /^#(action-|plan-link-)/.test(refocus) ? firstControl() : null;
    if (refocus === "#close-plan") {  // back to the waiting line: this phone's own plan link
      again = Array.prototype.filter.call(document.querySelectorAll("#sheet .plan-link"), function (a) { return a.offsetParent !== null; })[0] || null;
    }
    // a royal card chosen before its token to steal: on to the tokens
    if (/data-royal/.test(refocus)) { again = document.querySelector("#sheet .steal-choices a[href]"); }
    // a control the tap took away (a card chosen from a grid, a secret card of a level, the token
    // chip a full pick removed): the focus goes to the save it led to, not to the sheet's first link
    // (a blind player pressed Enter again on "Level 1" and lost the choice)
    // so does the last choice before a save (the token to steal, a joker's colour)
    // A card chosen whose save cannot be made yet (a joker's colour to choose, a card the player
    // cannot pay for): its next choice, else its save, which says why (the focus fell to the page).
    var gone = !document.querySelector("#sheet " + refocus) && !/^#remove-/.test(refocus);
    var chosen = gone || /data-steal|data-wild/.test(refocus) ?
      document.querySelector("#sheet form button.save:not([aria-disabled='true'])") ||
      // (a card that steals: its tokens, not the save they keep disabled, an accessibility tester)
      (gone ? document.querySelector("#sheet [data-wild], #sheet .steal-choices a[data-steal], #sheet form button.save") : null) : null;
    // (else the sheet's first control: the first link of #sheet was the waiting line's, hidden)
    again = again || chosen || document.querySelector("#sheet " + refocus) || firstControl();
    refocus = null;
    if (again) { again.focus({ preventScroll: true }); }
  });

  // A last choice before the save (the token to steal, a joker's colour) puts that save under the
  // choices: it is brought into view (it sat just below the screen's edge, under the tabs).
  // So does a card chosen from a grid. A royal card that steals, chosen, brings its question
  // which token (with a large font the page, scrolled down to the card's button, shrank under
  // it and left the tokens above the screen). Seen against the screen above the tabs and, on a
  // phone on its side, the sheet's own scrolling box.
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    var cfg = evt.detail.requestConfig, elt = cfg && cfg.elt;
    if (!sheetTarget(evt) || !elt || !elt.matches || !elt.matches("[data-steal], [data-wild], [data-card], [data-royal]")) { return; }
    var shown = elt.matches("[data-royal]") ? document.querySelector("#sheet .steal-choices") :
                document.querySelector("#sheet form[data-steal] button.save") ||
                document.querySelector("#sheet form button.save:not(.secondary)");
    if (!shown) { return; }
    var tabs = document.querySelector("nav.actions");
    var entry = document.getElementById("entry").getBoundingClientRect();
    var screenBottom = window.innerHeight - (tabs ? tabs.getBoundingClientRect().height : 0);
    var bottom = Math.min(screenBottom, entry.bottom);
    var box = shown.getBoundingClientRect();
    // As much as fits of the sheet above it too, from its heading: the card chosen and its payment
    // (centred, the save left half the screen empty below it; and a grid swapped for the shorter
    // chosen card left the page scrolled to its end, the payment above the screen: a first-time
    // player on a small phone read only "Buy this card")
    var body = document.querySelector("#sheet .sheet-body");
    var top = body ? body.getBoundingClientRect().top : box.top;
    var own = getComputedStyle(document.getElementById("entry")).overflowY;
    if (own === "auto" || own === "scroll") {  // (a phone on its side: the sheet scrolls in its own box)
      if (box.bottom > bottom || box.top < Math.max(0, entry.top)) { shown.scrollIntoView({ block: "center" }); }
    } else if (box.bottom > bottom) {
      window.scrollBy(0, Math.max(0, Math.min(box.bottom - bottom + 8, top)));
    } else if (top < 0) {
      window.scrollBy(0, -Math.max(0, Math.min(-top, screenBottom - box.bottom - 8)));
    }
  });

  // Back: a sheet opened by a tab is a history step (the phone's back gesture closes it), and so
  // is the first token picked on the Take sheet or a discard (Back puts the picks down). When this
  // phone closes the sheet (its entry, undo or fix saved, or the Take tab), htmx only rewrites that
  // step's address to the game's own: the step before it has the same address, so Back reloaded
  // the same screen before it left the game. The step is taken back instead (the screen stays).
  // Each sheet step remembers in its history state the address it was opened from. The other
  // phone's entry (a poll) keeps the step: the sheet being planned opens again on it.
  var sheetFrom = null, closing = false, saved = false, skipPop = false;
  function here() { return location.pathname + location.search; }
  function stamp(from) {
    var step = { trackerSheetFrom: from, trackerCardStep: cardStep || undefined };  // (a card's step stays one)
    history.replaceState(Object.assign({}, history.state || {}, step), "", location.href);
  }
  var openedFrom = null;  // read before htmx saves the page, which writes its own history state
  document.body.addEventListener("htmx:beforeSwap", function () {
    openedFrom = (history.state && history.state.trackerSheetFrom) || null;
  });
  document.body.addEventListener("htmx:beforeHistoryUpdate", function (evt) {
    var d = evt.detail, cfg = d.requestConfig || {}, path = d.pathInfo && d.pathInfo.requestPath;
    // (an answer whose element left the page, a poll sent before this phone's save, fires no
    // beforeSwap here: what was read for the previous answer is never used twice)
    sheetFrom = d.history.type === "push" ? here() : openedFrom;
    openedFrom = null;
    saved = cfg.verb === "post" && d.xhr && d.xhr.status < 300;
    closing = saved || /\/sheet\/take$/.test(path || "");
  });
  function afterHistory(evt) {
    var from = sheetFrom;
    sheetFrom = null;
    if (!from) { return; }
    if (evt.type === "htmx:pushedIntoHistory" || here() !== from || !closing) { stamp(from); return; }
    stepBack(saved, true);  // back on the step it was opened from: nothing to draw, the screen is there
  }
  // The step taken back keeps the screen as the app placed it, not where the browser left that
  // step: a prompt in view (one raised by the other phone jumped back to the top), the top after
  // this phone's saved entry (as far down as its sheet needs: showTurn), else where it is.
  // The browser's own restoring (the scroll the step had when its sheet was opened, applied
  // after popstate, later than this) is turned off on a game screen, which places itself.
  var keepScroll = null;
  if (document.getElementById("game") && "scrollRestoration" in history) {
    history.scrollRestoration = "manual";
    // leaving the game for another page (History, Players): Back returns where the player was
    window.addEventListener("pagehide", function () { history.scrollRestoration = "auto"; });
    window.addEventListener("pageshow", function (evt) { if (evt.persisted) { history.scrollRestoration = "manual"; } });
  }
  function stepBack(top, sheet) {
    skipPop = true;
    keepScroll = top ? "top" : [window.scrollX, window.scrollY];
    // (the sheet's step taken back: a card chosen on it takes its own along)
    var steps = sheet && cardStep ? 2 : 1;
    if (sheet) { cardStep = false; }
    history.go(-steps);
  }
  function restoreScroll() {
    var at = keepScroll;
    if (!at) { return; }
    function put() {
      if (showPrompt()) { return; }
      if (at === "top") { showTurn(); } else { window.scrollTo(at[0], at[1]); }
    }
    put();
    requestAnimationFrame(function () {
      put();
      if (keepScroll === at) { keepScroll = null; }
    });
  }
  document.body.addEventListener("htmx:pushedIntoHistory", afterHistory);
  document.body.addEventListener("htmx:replacedInHistory", afterHistory);
  window.addEventListener("popstate", function (evt) {
    if (!skipPop && !overlayStep && cardStep) {
      // Back from a card chosen on Buy or Reserve: the grid again, as "other card" shows it
      // (the phone's back gesture closed the whole sheet: a tester), on the sheet's own step;
      // a card still on its way is not shown when it comes
      evt.stopImmediatePropagation();
      cardStep = false;
      var other = cardShown();
      if (other) { other.click(); } else { dropCard = cardRequest; }
      return;
    }
    if (!skipPop && overlayStep) {  // Back from the undo question's or the banner's step: it closes
      evt.stopImmediatePropagation();
      var kind = overlayStep, dialog = document.getElementById("undo-dialog");
      overlayStep = null;
      // (the question asked over the banner, answered, and Back before its close event came:
      // the step is the banner's again: a full test run)
      if (kind === "undo" && !(dialog && dialog.open) && openVictory()) { kind = "victory"; }
      if (kind === "undo") {
        if (dialog && dialog.open) { dialog.close(""); }  // (no answer: nothing is undone)
        // (asked over the banner: the banner keeps a step of its own, so Back closes it next)
        if (openVictory()) { overlayStepOpen("victory"); }
      } else if (openVictory()) {
        openVictory().hidden = true;
        victoryClosed();
      }
      return;
    }
    if (!skipPop && evt.state && evt.state.trackerOverlay) {
      // Forward onto such a step: the banner shows again, a question is not asked again
      evt.stopImmediatePropagation();
      var banner = document.getElementById("victory");
      if (evt.state.trackerOverlay === "victory" && banner) {
        banner.hidden = false;
        overlayStep = "victory";
        focusVictory();
      } else {
        stepBack(false);
      }
      return;
    }
    if (!skipPop) {
      // Back or Forward onto a sheet's step: htmx loads it afresh, which forgets the step's state
      if (evt.state && evt.state.trackerSheetFrom) { carryStep(evt.state.trackerSheetFrom, here()); }
      return;
    }
    skipPop = false;
    evt.stopImmediatePropagation();  // before htmx's own handler, which would reload the page
    restoreScroll();
    var then = afterStepBack;
    afterStepBack = null;
    if (then) { then(); }
  }, true);
  // A card chosen on the Buy or Reserve sheet (a secret card too) is a Back step of its own, on
  // the sheet's: Back shows the grid again. Added at the tap (a step added later, without it, a
  // phone's Back may skip). A save, or anything that closes the sheet, takes both steps back
  // (stepBack); "other card", or a tab or link that rewrites the address, takes the card's back
  // first, then asks.
  var cardStep = false, cardRequest = null, dropCard = null;
  var CARD_LINK = "#sheet a.card[data-card], #sheet a.secret";
  function cardShown() { return document.querySelector("#sheet [data-back]"); }  // (its "other card")
  function takeCardStepBack(then) {  // the sheet's step stays
    cardStep = false;
    afterStepBack = then;
    stepBack(false);
  }
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = evt.detail.elt;
    if (elt && elt.matches && elt.matches(CARD_LINK)) { cardRequest = evt.detail.xhr; }
  });
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    if (dropCard && evt.detail.xhr === dropCard) { evt.detail.shouldSwap = false; }
    if (evt.detail.xhr === cardRequest) { cardRequest = dropCard = null; }
  });
  document.addEventListener("click", function (evt) {
    var el = evt.target.closest && evt.target.closest(CARD_LINK);
    if (!el || evt.defaultPrevented || evt.button !== 0 || evt.ctrlKey || evt.metaKey || evt.shiftKey) { return; }
    var from = history.state && history.state.trackerSheetFrom;
    if (cardStep || skipPop || !from || from === here()) { return; }
    history.pushState({ trackerSheetFrom: from, trackerCardStep: true }, "", location.href);
    cardStep = true;
  }, true);
  document.body.addEventListener("htmx:confirm", function (evt) {
    var elt = evt.detail.elt;
    if (!cardStep || skipPop || evt.detail.verb !== "get" || !elt || !elt.getAttribute) { return; }
    if (!elt.hasAttribute("data-back") && !elt.getAttribute("hx-push-url") && !elt.getAttribute("hx-replace-url")) { return; }
    // (sent once the card's step is taken back: its answer names the sheet's step)
    evt.preventDefault();
    takeCardStepBack(function () { evt.detail.issueRequest(true); });
  });
  // the sheet still open but no card chosen on it any more (a level tab, the other phone's entry
  // redrawing it): the card's step goes, the sheet's stays (a sheet gone: both, below)
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    var target = evt.detail.target;
    if (!cardStep || skipPop || !target || (target.id !== "game" && target.id !== "sheet")) { return; }
    if (cardShown() || !sheetShown() || ownOnItsWay()) { return; }
    // (the step under it takes the address of what is shown: the level now, the version drawn)
    var shown = location.href;
    takeCardStepBack(function () { history.replaceState(history.state, "", shown); });
  });
  // A page loaded again on a card's step (a reload; a display choice, carried below): the card
  // is still chosen (its address says it), and its step is still one
  cardStep = !!(history.state && history.state.trackerCardStep && cardShown());

  // The undo question and the victory banner are a Back step of their own, as a sheet is: the
  // phone's back gesture closes them (it left the game: a tester). Closed by their own buttons or
  // Esc, the step is taken back. A step is added only when neither is open already and no step
  // is being taken back (then once it is).
  var overlayStep = null, afterStepBack = null;
  function overlayStepOpen(kind) {
    if (overlayStep === kind || (history.state && history.state.trackerOverlay)) { overlayStep = kind; return; }
    // the game over (the other phone's entry) under an open sheet, a card or picks: their steps
    // go first, the banner's takes their place (Back after it did nothing twice: a helper)
    if (kind === "victory" && !skipPop && history.state && history.state.trackerSheetFrom) { stepBack(false, true); }
    if (skipPop) {
      var before = afterStepBack;
      afterStepBack = function () { if (before) { before(); } overlayStepOpen(kind); };
      return;
    }
    history.pushState({ trackerOverlay: kind }, "", location.href);
    overlayStep = kind;
  }
  function overlayStepClosed(kind, then) {
    var stepKind = history.state && history.state.trackerOverlay;
    if (overlayStep !== kind || stepKind !== kind) {
      // (the undo question asked over the banner had the banner's step: it stays the banner's)
      if (overlayStep === kind) { overlayStep = stepKind === "victory" && openVictory() ? "victory" : null; }
      if (then) { then(); }
      return;
    }
    overlayStep = null;
    afterStepBack = then || null;
    stepBack(false);
  }
  // A page loaded again on such a step (reloaded with the question or banner up): the question is
  // gone, and the banner shows as on any load, with no step; the step would only lead back to this
  // same page (the first Back did nothing: a tester), so it is taken back at once.
  if (history.state && history.state.trackerOverlay) { stepBack(false); }
  // the screen redrawn under it (the other phone's entry, an undo): a question or banner gone with
  // it takes its step along
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    if (!overlayStep || !evt.detail.target || evt.detail.target.id !== "game") { return; }
    var gone = overlayStep === "undo" ? !document.querySelector("#undo-dialog[open]") : !openVictory();
    if (gone) { overlayStepClosed(overlayStep); }
  });
  // A sheet's step that no longer shows a sheet (the other phone's entry closed it, a race lost,
  // a prompt raised, a tap on a screen that had moved on) goes too, once nothing is on its way.
  function sheetShown() {  // (Take's step, or a discard's, is its picks: the step goes once none is left)
    var sheet = document.querySelector("#sheet [data-sheet]");
    if (sheet && /^(take|discard)$/.test(sheet.getAttribute("data-sheet"))) { return !!sheet.querySelector(".pick-chosen a.chosen"); }
    return !!sheet && !sheet.classList.contains("prompt");
  }
  document.body.addEventListener("htmx:afterSettle", function (evt) {
    var target = evt.detail.target;
    if (!target || (target.id !== "game" && target.id !== "sheet") || skipPop) { return; }
    var from = history.state && history.state.trackerSheetFrom;
    if (!from || from !== here() || sheetShown()) { return; }
    if (ownOnItsWay()) { return; }
    if (leaving) { return; }  // (a link followed as the screen came: going back would stop it)
    stepBack(false, true);
  });
  var leaving = false;
  window.addEventListener("beforeunload", function () {
    leaving = true;
    setTimeout(function () { leaving = false; }, 3000);  // (a leave the player called off)
  });
  // A page loaded afresh (a display choice, a step come back to) keeps where its sheet came from.
  function carryStep(from, to) {
    var card = !!(history.state && history.state.trackerCardStep);
    try { sessionStorage.setItem("trackerSheetFrom", JSON.stringify([from, to, card])); } catch (e) { /* one Back more */ }
  }
  try {
    var carried = JSON.parse(sessionStorage.getItem("trackerSheetFrom") || "null");
    sessionStorage.removeItem("trackerSheetFrom");
    if (carried && carried[1] === here() && carried[0] !== here() && !(history.state && history.state.trackerSheetFrom)) {
      cardStep = !!(carried[2] && cardShown());
      stamp(carried[0]);
    }
  } catch (e) { /* no sessionStorage */ }

  // Share's "Back to the game", the page opened from that game: Back in the history, not a new
  // step (the phone's Back then led to Share again, and to a second copy of the game, before
  // Home: a tester). When it asks whose phone this is (?whose=ask), the game asks once it is back.
  // Share may have loaded itself again since (a new watch link: a step more; a display choice: in
  // its own place), the game then further back, as counted when Share was first opened from it.
  var BACK_TO = "tracker:back-to:", SHARE_FROM = "tracker:share-from:" + location.pathname;
  function referrerPath() {
    try {
      var from = document.referrer ? new URL(document.referrer) : null;
      return from && from.origin === location.origin ? from.pathname : null;
    } catch (e) { return null; }
  }
  var backLink = document.getElementById("back-to-game");
  if (backLink) {
    try {
      var gamePath = new URL(backLink.href, location.href).pathname;
      if (referrerPath() === gamePath) {
        sessionStorage.setItem(SHARE_FROM, JSON.stringify({ game: gamePath, length: history.length }));
      } else if (referrerPath() !== location.pathname) {
        sessionStorage.removeItem(SHARE_FROM);  // (opened from elsewhere: the game is no step back)
      }
    } catch (e) { /* the link, then */ }
  }
  document.addEventListener("click", function (evt) {
    var link = evt.target.closest && evt.target.closest("#back-to-game");
    if (!link || evt.defaultPrevented || evt.button !== 0 || evt.ctrlKey || evt.metaKey || evt.shiftKey) { return; }
    var to = new URL(link.href, location.href), opened = null;
    try { opened = JSON.parse(sessionStorage.getItem(SHARE_FROM) || "null"); } catch (e) { opened = null; }
    var steps = opened && opened.game === to.pathname && history.length >= opened.length ? history.length - opened.length + 1
      : referrerPath() === to.pathname ? 1 : 0;
    if (!steps || history.length <= steps) { return; }
    try { sessionStorage.setItem(BACK_TO + to.pathname, to.search); } catch (e) { return; }  // (the link, then)
    evt.preventDefault();
    history.go(-steps);
  });
  function backToAsked() {
    var asked = null;
    try { asked = sessionStorage.getItem(BACK_TO + location.pathname); sessionStorage.removeItem(BACK_TO + location.pathname); } catch (e) { asked = null; }
    if (asked && asked !== location.search) { location.replace(location.pathname + asked); }
  }
  backToAsked();
  window.addEventListener("pageshow", function (evt) { if (evt.persisted) { backToAsked(); } });

  // A display choice (settings) comes back to the same page: it takes that page's place in the
  // history, not a step of its own (two choices made, three Backs reloaded the same screen).
  // It comes back to the page as it is now (the sheet open, or closed since the page loaded).
  document.addEventListener("click", function (evt) {
    var link = evt.target.closest && evt.target.closest('a[href*="/settings?"]');
    if (!link || evt.defaultPrevented || evt.button !== 0 || evt.ctrlKey || evt.metaKey || evt.shiftKey) { return; }
    evt.preventDefault();
    var url = new URL(link.href);
    var prefix = url.pathname.replace(/\/settings$/, "");  // a proxy's path prefix, not part of "next"
    if (location.pathname.indexOf(prefix) === 0) {
      var search = new URLSearchParams(location.search);
      // "Whose phone is this?" is asked on arrival: any choice here answers it, but "This phone: … ✎"
      // (data-ask-whose) asks it again
      if (link.hasAttribute("data-ask-whose")) { search.set("whose", "ask"); } else { search.delete("whose"); }
      search.delete("taken");  // (the seat another phone had just taken: answered now)
      var query = search.toString();
      url.searchParams.set("next", location.pathname.slice(prefix.length) + (query ? "?" + query : ""));
    }
    if (history.state && history.state.trackerSheetFrom) { carryStep(history.state.trackerSheetFrom, here()); }
    // a choice made in Settings comes back to Settings, open, the choice marked: the page came
    // back at its top, Settings closed, and a first-time player could not tell it had worked
    // (but whose phone this is is seen in the game's layout, "This phone: Leo ✎" in its waiting
    // line: it comes back at the game's top, that player's side in place; it stayed down at
    // Settings, a tester)
    if (link.closest("#settings") && !/[?&]mine=/.test(link.getAttribute("href"))) {
      try { sessionStorage.setItem("trackerSettingsBack", url.searchParams.get("next") || ""); } catch (e) { /* at the top */ }
    }
    // the turn line's "⟲ Table" pressed with a key (a click of no pointer: detail 0) keeps the
    // focus on it across the page it reloads (it fell to the page's top: a keyboard tester)
    if (link.id === "table-btn" && evt.detail === 0) {
      try { sessionStorage.setItem("trackerFocusTable", "1"); } catch (e) { /* the page's top */ }
    }
    // the game log open comes back open (table mode turned on closed the log being read: a tester)
    var openLog = document.getElementById("log");
    if (openLog && openLog.open) {
      try { sessionStorage.setItem("trackerLogOpen", location.pathname); } catch (e) { /* closed */ }
    }
    location.replace(url.href);
  });
  try {
    var tableKey = sessionStorage.getItem("trackerFocusTable"), logKey = sessionStorage.getItem("trackerLogOpen");
    sessionStorage.removeItem("trackerFocusTable");
    sessionStorage.removeItem("trackerLogOpen");
    var tableBtn = document.getElementById("table-btn"), logBack = document.getElementById("log");
    if (tableKey && tableBtn) { tableBtn.focus({ preventScroll: true }); }
    if (logKey === location.pathname && logBack) { logBack.open = true; }
  } catch (e) { /* no sessionStorage */ }
  try {
    var settingsBack = sessionStorage.getItem("trackerSettingsBack");
    sessionStorage.removeItem("trackerSettingsBack");
    var settingsBox = document.getElementById("settings");
    if (settingsBack !== null && settingsBox && location.pathname.endsWith(settingsBack.split("?")[0])) {  // (under a proxy's prefix too)
      settingsBox.open = true;
      settingsBox.scrollIntoView({ block: "end" });
    }
  } catch (e) { /* no sessionStorage: at the top */ }

  // Times in the history and review are shown in this phone's time zone: tell the server which
  // one it is (an IANA name such as "Asia/Seoul"; the server ignores names it does not know).
  try {
    var tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (tz && /^[A-Za-z0-9_+\/-]+$/.test(tz) && document.cookie.split("; ").indexOf("tz=" + tz) < 0) {
      document.cookie = "tz=" + tz + "; path=/; max-age=31536000; samesite=lax";
      // A page that shows times, or a night's tally (which games were "tonight": the night ends at
      // 6 a.m. where the table is, data-zoned), was drawn in the instance's zone: draw it again in this one.
      if (document.querySelector("time[datetime], [data-zoned]") && document.cookie.indexOf("tz=" + tz) >= 0) { location.reload(); }
    }
  } catch (e) { /* no Intl: the instance's default time zone */ }

  // Keep the screen awake while a game is open; browsers drop the lock when the page hides.
  var lock = null;
  function wake() {
    if (!("wakeLock" in navigator) || !document.getElementById("game") || document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(function () { lock = null; });
  }
  document.addEventListener("visibilitychange", wake);
  wake();

  // Installable app: cache the static shell.
  if ("serviceWorker" in navigator) {
    // its address as the page gives it (under a proxy's path prefix too)
    var sw = document.body.getAttribute("data-sw");
    if (sw) { navigator.serviceWorker.register(sw).catch(function () { /* optional */ }); }
    // The offline page is kept in the language of the day the worker was installed: a phone that
    // now reads another (Settings, its own language) has it fetched again, in this one.
    navigator.serviceWorker.ready.then(function (reg) {
      var lang = document.documentElement.lang, said = null;
      try { said = localStorage.getItem("tracker-offline-lang"); } catch (e) { return; }
      if (said === lang || !reg.active || !navigator.onLine) { return; }
      reg.active.postMessage({ type: "language" });
      try { localStorage.setItem("tracker-offline-lang", lang); } catch (e) { /* private mode */ }
    });
    // The copy a reload without network shows is the screen as this phone last showed it, not as
    // it first loaded (turn 1 after a whole evening of redraws): after each redraw of the game the
    // page, as it stands, is handed to the service worker, which keeps it under the game's address.
    var keepTimer = null;
    document.body.addEventListener("htmx:afterSettle", function (evt) {
      if (!evt.detail.target || evt.detail.target.id !== "game" || !navigator.serviceWorker.controller) { return; }
      clearTimeout(keepTimer);
      keepTimer = setTimeout(keepPage, 1000);
    });
    // counts typed into a sheet (the Fix sheet) are kept too, a moment after the last one
    document.addEventListener("input", function (evt) {
      if (!evt.target.closest || !evt.target.closest("#sheet") || !navigator.serviceWorker.controller) { return; }
      clearTimeout(keepTimer);
      keepTimer = setTimeout(keepPage, 1000);
    });
    function keepPage() {
      var game = document.getElementById("game");
      if (!game || !navigator.serviceWorker.controller || document.body.hasAttribute("data-stale")) { return; }
      var copy = document.documentElement.cloneNode(true);
      var body = copy.querySelector("body");
      ["just-redrawn", "just-saved", "sheet-busy"].forEach(function (c) { body.classList.remove(c); });  // moments, not state
      var alerts = copy.querySelector("#alerts");
      if (alerts) { alerts.textContent = ""; }
      var banner = copy.querySelector("#connection");
      if (banner) { banner.hidden = true; banner.removeAttribute("data-kind"); }
      Array.prototype.forEach.call(copy.querySelectorAll("dialog[open]"), function (d) { d.removeAttribute("open"); });
      // what was typed (the Fix sheet's counts) lives in the fields, not their markup: written in
      Array.prototype.forEach.call(copy.querySelectorAll("input:not([type=hidden])"), function (input) {
        if (input.type === "checkbox" || input.type === "radio") { input.toggleAttribute("checked", input.checked); }
        else { input.setAttribute("value", input.value); }
      });
      navigator.serviceWorker.controller.postMessage({ type: "keep-page", url: location.pathname,
        html: "<!doctype html>\n" + copy.outerHTML });
    }
  }

  // A spectator's screen (a club's, on a wall: no hand to tap) follows the table to its next game
  // by itself, a while after the game before ended (its link says how long, in seconds).
  var following = null;
  function followNextGame() {
    var link = document.querySelector("a[data-follow-after]");
    if (!link || following) { return; }
    var seconds = parseInt(link.getAttribute("data-follow-after"), 10) || 60;
    following = setTimeout(function () {
      var still = document.querySelector("a[data-follow-after]");
      if (still) { location.assign(still.href); } else { following = null; }
    }, seconds * 1000);
  }
  followNextGame();
  document.body.addEventListener("htmx:afterSettle", followNextGame);

  // The share page's links: copied with a tap, or sent (the phone's own share sheet, where it
  // has one). A plain-http address on a home network has no clipboard API: the text is selected
  // and copied the older way, and failing that the player is told to press and hold the link.
  function showShareActions() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-share-actions]"), function (p) { p.hidden = false; });
    Array.prototype.forEach.call(document.querySelectorAll("[data-share]"), function (b) { b.hidden = !navigator.share; });
  }
  showShareActions();
  document.body.addEventListener("htmx:afterSettle", showShareActions);
  function copyOldWay(text) {
    var field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.className = "visually-hidden";
    document.body.appendChild(field);
    field.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    field.remove();
    return done;
  }
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(function () { return true; }, function () { return copyOldWay(text); });
    }
    return Promise.resolve(copyOldWay(text));
  }
  document.addEventListener("click", function (evt) {
    var copy = evt.target.closest && evt.target.closest("[data-copy]");
    if (copy) {
      var said = copy.parentNode.querySelector("[data-copied]");
      copyText(copy.getAttribute("data-copy")).then(function (done) {
        // (one link on the clipboard: the other's "Link copied." goes)
        Array.prototype.forEach.call(document.querySelectorAll("[data-copied]"), function (s) { s.textContent = ""; });
        if (said) { said.textContent = said.getAttribute(done ? "data-copied" : "data-not-copied"); }
      });
      return;
    }
    var send = evt.target.closest && evt.target.closest("[data-share]");
    if (send && navigator.share) {
      navigator.share({ url: send.getAttribute("data-share"), title: document.title }).catch(function () { /* closed */ });
    }
  });
})();
