// The tournament clock on a screen (the room's TV, a player's phone): docs/tournament-screens.md.
//
// The server keeps the clock (stored times, casino.rules.tournament.clock); a screen never keeps its
// own timer. Every fragment the server sends carries its "now" (data-server-now, epoch ms) and, for
// each running countdown, the instant it ends (data-countdown-to, epoch ms). When a fragment arrives
// the screen measures how far its own clock is from the server's (one subtraction) and from then on
// shows  ends_at - (Date.now() + offset)  at each tick. Nothing is added up tick after tick, so a
// slow or sleeping tab, a reload, a dropped network (live.js reconnects, and the server sends the
// current state on every connect) or a server restart never makes it drift: the next tick is right.
//
// When a countdown reaches zero the step changed on the server without any write (levels end by
// time): the screen asks its socket for the current state once ({"refresh": true}, which every live
// socket answers), and shows the new level the server computes. Paused: no data-countdown-to, the
// time left is shown as the server rendered it, and the screen says paused (never "break").
(function () {
  "use strict";

  var TICK_MS = 200;
  // A little past the boundary (the server is then surely past it too), spread over a few hundred ms so
  // that a room's screens do not all ask in the same instant.
  var ASK_AFTER_ZERO_MS = 400 + Math.floor(Math.random() * 300);
  var offsetMs = 0;              // server clock - this device's clock, measured at each render
  var measuredFrom = null;       // the element whose data-server-now gave offsetMs
  var socket = null;             // the htmx ws socket wrapper of this page, once open
  var askedFor = {};             // countdown targets we already asked a refresh for
  var retries = 0;               // reconnections tried since the socket was last open

  function serverNow() { return Date.now() + offsetMs; }

  function measure(root) {
    var sent = parseInt(root.getAttribute("data-server-now"), 10);
    if (!isNaN(sent)) { offsetMs = sent - Date.now(); }
    measuredFrom = root;
  }

  function twoDigits(n) { return (n < 10 ? "0" : "") + n; }

  // 75 -> "1:15", 3725 -> "1:02:05" (a TV reads minutes and seconds; hours only when there are some).
  function formatSeconds(total) {
    total = Math.max(0, total);
    var h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    return h > 0 ? h + ":" + twoDigits(m) + ":" + twoDigits(s) : m + ":" + twoDigits(s);
  }

  // Whole seconds left until target, rounded up: a level "ends at 0:00", not one second early.
  function secondsUntil(targetMs, nowMs) { return Math.max(0, Math.ceil((targetMs - nowMs) / 1000)); }

  function askForCurrentState(target) {
    if (askedFor[target]) return;
    askedFor[target] = true;
    if (socket) { socket.send(JSON.stringify({ refresh: true })); }
    // Without an open socket: live.js asks for the current state as soon as it reconnects.
  }

  function tick() {
    var roots = document.querySelectorAll("[data-server-now]");
    var now;
    for (var r = 0; r < roots.length; r++) {
      var root = roots[r];
      if (root !== measuredFrom && r === 0) { measure(root); }
      now = serverNow();
      var since = root.querySelectorAll("[data-countup-from]");   // the last level, past its time
      for (var k = 0; k < since.length; k++) {
        var from = parseInt(since[k].getAttribute("data-countup-from"), 10);
        if (!isNaN(from)) { since[k].textContent = "+" + formatSeconds(Math.floor((now - from) / 1000)); }
      }
      var counters = root.querySelectorAll("[data-countdown-to]");
      for (var i = 0; i < counters.length; i++) {
        var target = parseInt(counters[i].getAttribute("data-countdown-to"), 10);
        if (isNaN(target)) continue;
        var text = formatSeconds(secondsUntil(target, now));
        if (counters[i].textContent !== text) { counters[i].textContent = text; }
        if (now >= target + ASK_AFTER_ZERO_MS && counters[i].hasAttribute("data-refresh-at-zero")) {
          askForCurrentState(target);
        }
      }
    }
  }

  document.addEventListener("htmx:wsOpen", function (evt) { socket = evt.detail.socketWrapper; retries = 0; });
  document.addEventListener("htmx:wsClose", function (evt) {
    socket = null;
    // htmx's ws extension reconnects after an abnormal close (1006, 1011-1013) only. A server that shuts
    // down cleanly says 1000 or 1001 ("going away"): a room's TV must come back by itself all the same.
    // Never after 4401/4403: the server ended this screen's right (live.js shows its goodbye).
    var code = evt.detail.event && evt.detail.event.code;
    if (code === 1000 || code === 1001) {
      var wrapper = evt.detail.socketWrapper;
      var delay = Math.min(30000, 500 * Math.pow(2, retries)) * (0.5 + Math.random() / 2);
      retries += 1;
      setTimeout(function () { wrapper.reconnect(); }, delay);
    }
  });
  // A new fragment is in: measure the offset now, not at the next tick.
  document.addEventListener("htmx:wsAfterMessage", function () {
    var root = document.querySelector("[data-server-now]");
    if (root) { measure(root); }
    tick();
  });
  document.addEventListener("DOMContentLoaded", function () {
    tick();
    setInterval(tick, TICK_MS);
  });

  // For tests (tests/browser/test_tournament_clock_display.py): the pure parts.
  window.tournamentClock = {
    formatSeconds: formatSeconds,
    secondsUntil: secondsUntil,
    offsetMs: function () { return offsetMs; }
  };
})();
