// Live screens: versions, reconnection and expired sessions (docs/realtime.md).
// Every pushed fragment carries data-version. A fragment older than what the
// screen shows is dropped; a jump of more than one version means a push was
// lost, so the screen asks for the current state instead of trusting a guess.
(function () {
  "use strict";

  function statusBar(text) {
    var bar = document.getElementById("connection-status");
    if (!bar) return;
    bar.textContent = text || "";
    bar.hidden = !text;
  }

  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var tpl = document.createElement("template");
    tpl.innerHTML = evt.detail.message;
    var incoming = tpl.content.querySelectorAll("[id][data-version]");
    for (var i = 0; i < incoming.length; i++) {
      var current = document.getElementById(incoming[i].id);
      if (!current) continue;
      var had = parseInt(current.dataset.version || "0", 10);
      var got = parseInt(incoming[i].dataset.version || "0", 10);
      // The goodbye of a link or a right that ended is final, whatever version the screen showed.
      if (incoming[i].hasAttribute("data-access-ended")) continue;
      if (got < had) { evt.preventDefault(); return; }            // stale: a newer one is already shown
      // The tablet already shows this version (the tap's own answer came first): redrawing it again
      // would only drop what the dealer started on it since (issue #16: cards tapped in between).
      if (got === had && had > 0 && current.hasAttribute("data-skip-same-version")) { evt.preventDefault(); return; }
      // A gap means a push was lost: ask for the current state. Not on a screen whose versions skip by
      // design (data-version-gaps: a tournament table's tablet sums its table's and its event's versions
      // and is not redrawn for the event's changes elsewhere); each of its pushes is the whole state.
      if (got > had + 1 && had > 0 && !incoming[i].hasAttribute("data-version-gaps")) {
        evt.detail.socketWrapper.send(JSON.stringify({ refresh: true }));
      }
    }
  });

  // What the user has under way (a typed value, a choice, an open <details>, ticked cards) survives a push:
  // the push is a morph (casino.js), not a replacement.

  var wasClosed = false;
  document.addEventListener("htmx:wsClose", function () {
    wasClosed = true;
    statusBar(document.body.dataset.offline);
  });
  document.addEventListener("htmx:wsOpen", function (evt) {
    statusBar("");
    // The server sends the current state on every connect; asking again after a
    // drop costs one render and covers a push lost while we were away.
    if (wasClosed) { evt.detail.socketWrapper.send(JSON.stringify({ refresh: true })); }
    wasClosed = false;
  });

  // A 403 after a logout in another tab: say so and go to the login page.
  // A 503 from the server's database outage (casino.unavailable): show its message, keep the screen,
  // and clear the message once a request goes through again.
  var unavailableShown = false;
  document.addEventListener("htmx:responseError", function (evt) {
    var xhr = evt.detail.xhr;
    if (xhr && xhr.status === 403 && !xhr.getResponseHeader("X-Rule-Refusal")) {
      statusBar(document.body.dataset.sessionEnded);
      setTimeout(function () { window.location.href = document.body.dataset.loginUrl; }, 1500);
    } else if (xhr && xhr.status === 503 && xhr.getResponseHeader("X-Database-Unavailable")) {
      statusBar(xhr.responseText);
      unavailableShown = true;
    }
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (unavailableShown && evt.detail.successful) { statusBar(""); unavailableShown = false; }
  });

  document.addEventListener("DOMContentLoaded", function () {
    if (window.htmx) { htmx.config.wsReconnectDelay = "full-jitter"; }
  });
})();
