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

  // A push replaces a screen while its user may be typing in one of its forms (the director's
  // console: a push comes at every bust at any table). A fragment marked data-keep-typed keeps what
  // was typed and where the cursor was: each field that differs from what the server sent is put back
  // in the same field (same form action, same name) of the new fragment, unless the server changed
  // that field's own value too. A form the user submitted is replaced by its response, not a push.
  var kept = null;
  function fieldKey(field) {
    var form = field.form;
    return (form ? form.getAttribute("action") || "" : "") + "|" + field.name;
  }
  function typedFields(root) {
    return root.querySelectorAll("input[name]:not([type=hidden]):not([type=checkbox]):not([type=radio])," +
                                 "textarea[name], select[name]");
  }
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    kept = null;
    if (evt.defaultPrevented) return;
    var screens = document.querySelectorAll("[data-keep-typed][id]");
    for (var i = 0; i < screens.length; i++) {
      var fields = typedFields(screens[i]);
      for (var j = 0; j < fields.length; j++) {
        var f = fields[j];
        var sent = f.tagName === "SELECT" ? null : f.defaultValue;
        var focused = f === document.activeElement;
        if ((sent !== null && f.value !== sent) || focused) {
          kept = kept || [];
          kept.push({ key: fieldKey(f), value: f.value, sent: sent, focused: focused,
                      start: focused && f.selectionStart !== undefined ? f.selectionStart : null,
                      end: focused && f.selectionEnd !== undefined ? f.selectionEnd : null });
        }
      }
    }
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!kept) return;
    var byKey = {};
    var screens = document.querySelectorAll("[data-keep-typed][id]");
    for (var i = 0; i < screens.length; i++) {
      var fields = typedFields(screens[i]);
      for (var j = 0; j < fields.length; j++) { byKey[fieldKey(fields[j])] = fields[j]; }
    }
    kept.forEach(function (k) {
      var f = byKey[k.key];
      if (!f) return;
      if (k.sent !== null && f.value === f.defaultValue && f.defaultValue === k.sent) { f.value = k.value; }
      if (k.focused) {
        f.focus();
        if (k.start !== null) { try { f.setSelectionRange(k.start, k.end); } catch (e) { /* not a text field */ } }
      }
    });
    kept = null;
  });

  // A confirmation opened on a screen (a <details> with data-confirm: the pit boss's "Yes, approve 5000")
  // stays open through a push: the pit's console is pushed at every tap at any of its tables, which
  // closed it under the boss's finger. Matched by the nearest element with an id and its data-confirm.
  var opened = null;
  function confirmKey(details) {
    var owner = details.parentElement && details.parentElement.closest("[id]");
    return (owner ? owner.id : "") + "|" + details.getAttribute("data-confirm");
  }
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    opened = null;
    if (evt.defaultPrevented) return;
    var open = document.querySelectorAll("details[data-confirm][open]");
    for (var i = 0; i < open.length; i++) { (opened = opened || []).push(confirmKey(open[i])); }
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!opened) return;
    var all = document.querySelectorAll("details[data-confirm]");
    for (var i = 0; i < all.length; i++) {
      if (opened.indexOf(confirmKey(all[i])) >= 0) { all[i].open = true; }
    }
    opened = null;
  });

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
