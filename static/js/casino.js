// What every screen that posts shares (docs/realtime.md, "Keys, refusals and the morph"): the request keys
// the browser makes, the refusals shown as screens, and the morph that keeps what the user has under way.
(function () {
  "use strict";

  // ------------------------------------------------------------------ request keys

  // A fragment is the same bytes for every viewer (it goes through Redis to each of them), so it carries
  // no key: the browser makes one per tap. The same request sent again (a double tap, a retry after the
  // network dropped it) sends the same key and is applied once; any other request gets a new one.
  // Kept on the element that asked, with what it asked, until an answer arrives.
  var keys = new WeakMap();

  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    // randomUUID needs a secure context (https or localhost); getRandomValues does not.
    var b = crypto.getRandomValues(new Uint8Array(16)), hex = "";
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    for (var i = 0; i < 16; i++) { hex += (b[i] + 0x100).toString(16).slice(1); }
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function asked(verb, path, formData) {
    var parts = [verb, path];
    formData.forEach(function (value, name) { if (name !== "key") { parts.push(name + "=" + value); } });
    return parts.join("\n");
  }

  function keyFor(elt, request) {
    var had = keys.get(elt);
    if (had && had.request === request) { return had.key; }
    var key = newKey();
    keys.set(elt, { request: request, key: key });
    return key;
  }

  // htmx's requests: a form with the key field ({% guard %}) gets its key here.
  document.addEventListener("htmx:configRequest", function (evt) {
    var d = evt.detail;
    if (!d.formData || !d.formData.has("key")) { return; }
    d.parameters.key = keyFor(d.elt, asked(d.verb, d.path, d.formData));
  });
  // An answer (any status) ends the request: the next tap is a new one. No answer (status 0: the network
  // failed, a timeout) keeps the key for the retry.
  document.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail.xhr;
    if (xhr && xhr.status > 0) { keys.delete(evt.detail.elt); }
  });
  // A live page's plain form that a socket pushed carries no CSRF token (a fragment is the same bytes for
  // every viewer, and the token is the session's): it takes the page's own, which <body>'s hx-headers holds
  // for htmx (the cookie is HttpOnly), as it is sent. The decks page and the bank's pages (issue #39).
  function withCsrfToken(form) {
    if ((form.method || "").toLowerCase() !== "post" || form.elements.namedItem("csrfmiddlewaretoken")) { return; }
    if (new URL(form.action, window.location.href).origin !== window.location.origin) { return; }  // ours only
    var token = "";
    try { token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch (e) { return; }
    if (!token) { return; }
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = "csrfmiddlewaretoken";
    input.value = token;
    form.appendChild(input);
  }

  // The pages' plain forms (post, then redirect): the key goes into the form's field as it is sent.
  // A second click before the page changes is the same request, with the same key.
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (evt.defaultPrevented || !form || !form.elements) { return; }  // htmx sends it, or it was cancelled
    withCsrfToken(form);
    var field = form.elements.namedItem("key");
    if (!field || field.type !== "hidden") { return; }
    field.value = "";
    field.value = keyFor(form, asked("post", form.action, new FormData(form)));
  });

  // ------------------------------------------------------------------ the second tap

  // A destructive tap (a button with data-confirm: a dead hand, a misdeal, an undo, a hand backed up) is
  // sent on the second tap of the same button, within a few seconds; the first one only says what the
  // second will do. A push that redraws the button takes the first tap back (the safe way). No confirm()
  // popup: it blocks the page's pushes and a test's browser cannot see it.
  var ARMED_MS = 5000;

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest ? evt.target.closest("button[data-confirm]") : null;
    if (!button) { return; }
    var armedAt = parseInt(button.dataset.armedAt || "0", 10);
    if (armedAt && Date.now() - armedAt < ARMED_MS) { return; }  // the second tap: sent
    evt.preventDefault();
    evt.stopPropagation();
    if (!button.dataset.label) { button.dataset.label = button.textContent; }
    button.dataset.armedAt = String(Date.now());
    button.classList.add("is-armed");
    button.textContent = button.dataset.confirm;
    // its words may take a line more: the whole button kept on screen, to be read before the second tap
    // (TDA-53's button at the foot of a 1024x768 tablet went below it)
    var below = button.getBoundingClientRect().bottom - window.innerHeight;
    if (below > 0) { window.scrollBy(0, Math.ceil(below) + 8); }
    setTimeout(function () {
      if (button.dataset.armedAt && Date.now() - parseInt(button.dataset.armedAt, 10) >= ARMED_MS) { disarm(button); }
    }, ARMED_MS + 50);
  }, true);

  function disarm(button) {
    if (button.dataset.label) { button.textContent = button.dataset.label; }
    delete button.dataset.armedAt;
    delete button.dataset.label;
    button.classList.remove("is-armed");
  }

  // ------------------------------------------------------------------ refusals

  // A refused tap (400 bad input, 409 a stale screen, 422 a rule's refusal) is answered with the fresh
  // screen and the reason in it: htmx.config.responseHandling (base.html) swaps those. A 403 is a refusal
  // to show only when the server marks it as a rule's (X-Rule-Refusal); a plain 403 is a session that ended
  // (live.js). responseHandling matches status codes only, hence this one case here.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var xhr = evt.detail.xhr;
    if (xhr && xhr.status === 403 && xhr.getResponseHeader("X-Rule-Refusal")) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
  });

  // ------------------------------------------------------------------ the morph

  // Every swap morphs (idiomorph): what the server did not change stays the same element, so focus, the
  // cursor and scroll stay. A push must also keep what the user has under way on the screen: a typed value,
  // a ticked box, a <select>'s choice, an open <details>. The form whose own request is being answered takes
  // the server's values: that tap is done with.
  //
  // An answer is swapped in the task that delivered it (no swap delay, no view transition), so it is
  // "answering" until that task ends and no longer, whatever htmx announces afterwards: htmx:afterSwap does
  // not come for an answer htmx does not swap itself (the removed form's, below), and htmx:afterRequest is
  // dispatched on the form that asked, which a push may have removed from the page already (the push of the
  // tap's own version came first): nothing on the document hears it. The flag left set made the next push,
  // another device's, take the tap's notice away (data-kept-until-tap, THB-54).
  var answering = null;
  document.addEventListener("htmx:beforeSwap", function (evt) {
    answering = evt.detail.requestConfig ? evt.detail.requestConfig.elt : null;
    queueMicrotask(function () { answering = null; });  // runs once htmx's handling of the answer returns
  });
  document.addEventListener("htmx:afterSwap", function () { answering = null; });

  function isAnswered(el) { return !!(answering && answering.contains && answering.contains(el)); }

  function serverValue(field) {           // what the server sent for a field (its default)
    if (field.type === "checkbox" || field.type === "radio") { return field.hasAttribute("checked"); }
    if (field.tagName === "SELECT") {
      var chosen = field.querySelector("option[selected]") || field.querySelector("option");
      return chosen ? chosen.value : "";
    }
    if (field.tagName === "TEXTAREA") { return field.defaultValue; }
    return field.getAttribute("value") || "";
  }
  function userValue(field) {
    if (field.type === "checkbox" || field.type === "radio") { return field.checked; }
    return field.value;
  }
  function isField(node) {
    return node.nodeType === 1 && (node.tagName === "SELECT" || node.tagName === "TEXTAREA" ||
      (node.tagName === "INPUT" && node.type !== "hidden" && node.type !== "submit" && node.type !== "button"));
  }

  // A field the user changed and the server did not, with what the user had. Its value or ticked state is
  // never overwritten (rather than put back afterwards: a radio set to the server's choice would untick the
  // user's one in the same group before that one is reached).
  var kept = new WeakMap();
  var callbacks = {
    beforeNodeMorphed: function (old, fresh) {
      if (isField(old) && isField(fresh) && !isAnswered(old) && userValue(old) !== serverValue(old) &&
          serverValue(old) === serverValue(fresh)) {
        kept.set(old, userValue(old));
      }
      return true;
    },
    afterNodeMorphed: function (old) {
      if (!kept.has(old)) { return; }
      var value = kept.get(old);
      kept.delete(old);
      // A <select>'s choice lives in its options, which the morph has just set to the server's.
      if (old.tagName === "SELECT" && old.querySelector("option[value=\"" + CSS.escape(value) + "\"]")) { old.value = value; }
    },
    // A notice the answer to a tap brought (data-kept-until-tap) stays through the pushes that follow, which
    // do not carry it: it goes with the next answer, once the user has acted on the screen again.
    beforeNodeRemoved: function (node) {
      return !(node.nodeType === 1 && !answering && node.hasAttribute("data-kept-until-tap"));
    },
    beforeAttributeUpdated: function (name, el) {
      if ((name === "value" || name === "checked") && kept.has(el)) { return false; }
      // A <details> stays as the user left it (open or closed), unless it holds the form just answered.
      if (name === "open" && el.tagName === "DETAILS") { return isAnswered(el) || !!(answering && el.contains(answering)); }
      return true;
    },
  };

  document.addEventListener("DOMContentLoaded", function () {
    if (window.Idiomorph) { Idiomorph.defaults.callbacks = Object.assign({}, Idiomorph.defaults.callbacks, callbacks); }
  });

  // The answer to a tap whose form a push has already morphed away (the push of the tap's own version, or
  // of a change made in the same moment, came first): htmx finds a swap's extension from the element that
  // asked, and from a detached one it finds none and falls back to an innerHTML swap, which nests the
  // screen inside itself. The answer is morphed into its target here instead, unless the screen already
  // shows a newer version.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var d = evt.detail, elt = d.requestConfig ? d.requestConfig.elt : null, target = d.target;
    if (!d.shouldSwap || !elt || elt.isConnected || !target || !target.isConnected || !window.Idiomorph) { return; }
    d.shouldSwap = false;
    var tpl = document.createElement("template");
    tpl.innerHTML = d.serverResponse;
    var fresh = tpl.content.firstElementChild;
    if (!fresh || fresh.id !== target.id) { return; }
    var had = parseInt(target.dataset.version || "0", 10), got = parseInt(fresh.dataset.version || "0", 10);
    if (got < had) { return; }
    Idiomorph.morph(target, fresh, { morphStyle: "outerHTML" });
    htmx.process(target);
  });

  // A push over the socket swaps each element of the fragment by its id (htmx's out-of-band swap): the
  // "live-morph" extension (on <body>) makes that swap a morph too.
  if (window.htmx) {
    htmx.defineExtension("live-morph", {
      transformResponse: function (text, xhr) {
        if (xhr) { return text; }        // an answer to a request: its element's hx-swap says how
        var tpl = document.createElement("template");
        tpl.innerHTML = text;
        var roots = tpl.content.children;
        for (var i = 0; i < roots.length; i++) {
          if (roots[i].id && !roots[i].hasAttribute("hx-swap-oob")) { roots[i].setAttribute("hx-swap-oob", "morph"); }
        }
        return tpl.innerHTML;
      },
    });
  }
})();
