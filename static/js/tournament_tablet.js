// The tournament dealer's tablet (docs/tournament-tablets.md, "The tablet at the table"): the card picker
// and the shortcuts that send the folds or checks of a street (the second tap of a destructive action is
// casino.js's). The server decides everything; this only helps the dealer tap.
(function () {
  "use strict";

  // ------------------------------------------------------------------ card picker

  // The cards being picked, in the order tapped, for one step of one hand ({key, cards}): a push morphs
  // the form and keeps the ticked boxes (casino.js), not the order they were ticked in.
  var picked = null;

  function pickerOf(el) { return el && el.closest ? el.closest("[data-card-picker]") : null; }

  function keyOf(form) {
    var tablet = form.closest("[data-hand]");
    return (tablet ? tablet.dataset.hand : "") + "|" + form.id + "|" + form.dataset.pickerKey;
  }

  function ticked(form) {
    var codes = [];
    form.querySelectorAll("input[data-card]:checked").forEach(function (b) { codes.push(b.value); });
    var ordered = picked && picked.key === keyOf(form) ? picked.cards.filter(function (c) {
      return codes.indexOf(c) >= 0;
    }) : [];
    codes.forEach(function (c) { if (ordered.indexOf(c) < 0) { ordered.push(c); } });
    return ordered;
  }

  // The one field the server reads ("Ts 8s 4d"), the cards shown as tapped, the rest closed once enough.
  function update(form) {
    var need = parseInt(form.dataset.cardPicker, 10);
    var codes = ticked(form);
    form.querySelector("[data-order]").value = codes.join(" ");
    form.querySelectorAll("input[data-card]").forEach(function (b) {
      var used = b.closest("label").classList.contains("is-used");
      b.disabled = used || (!b.checked && codes.length >= need);
    });
    var shown = form.querySelector("[data-chosen]");
    shown.textContent = codes.length ? codes.map(function (c) {
      var box = form.querySelector("input[data-card][value='" + c + "']");
      return box ? box.closest("label").title : c;
    }).join("  ") : shown.dataset.msgPick;
    var submit = form.querySelector("[data-picker-submit]");
    if (submit) { submit.disabled = codes.length !== need; }
    return codes.length === need;
  }

  document.addEventListener("change", function (evt) {
    var form = pickerOf(evt.target);
    if (!form || !evt.target.hasAttribute("data-card")) { return; }
    var key = keyOf(form);
    if (!picked || picked.key !== key) { picked = { key: key, cards: [] }; }
    picked.cards = picked.cards.filter(function (c) { return c !== evt.target.value; });
    if (evt.target.checked) { picked.cards.push(evt.target.value); }
    // The last card the step needs sends it, as on the pit's tablet: no confirming tap.
    if (update(form) && evt.target.checked && window.htmx) {
      if (form.requestSubmit) { form.requestSubmit(); } else { htmx.trigger(form, "submit"); }
    }
  });

  // The field is filled again just before the form is read (a morph puts the server's empty value back).
  document.addEventListener("submit", function (evt) {
    var form = pickerOf(evt.target);
    if (form && ticked(form).length) { update(form); }
  }, true);
  document.addEventListener("htmx:beforeRequest", function (evt) {
    if (pickerOf(evt.detail.elt)) { picked = null; }  // sent: their order is done with
  });

  // ------------------------------------------------------------------ shortcuts

  // "Folds to seat 9" and "Everyone checks": the folds (or checks) are sent one after the other, each its
  // own tap's post with the version its screen showed, each sent once the answer to the one before is on
  // screen. It stops at the target seat, at the end of the street or hand, and at any refusal.
  var shortcut = null;
  var SHORTCUT_STEPS = 10;

  function tablet() { return document.getElementById("deal-table"); }

  function stopShortcut() {
    shortcut = null;
    var t = tablet();
    if (t) { t.classList.remove("is-running-shortcut"); }
  }

  function stepShortcut() {
    var t = tablet();
    if (!shortcut || !t) { stopShortcut(); return; }
    if (t.dataset.version === shortcut.sentAt) { return; }  // the answer to the last one is not in yet
    var panel = t.querySelector("[data-step='betting']");
    if (!panel || t.dataset.hand !== shortcut.hand || shortcut.steps >= SHORTCUT_STEPS) { stopShortcut(); return; }
    var seat = panel.dataset.toAct;
    var form = null;
    if (shortcut.kind === "fold" && seat !== shortcut.target) { form = document.getElementById("tap-fold-" + seat); }
    if (shortcut.kind === "check" && panel.dataset.street === shortcut.street) {
      form = document.getElementById("tap-check-" + seat);
    }
    if (!form) { stopShortcut(); return; }
    shortcut.sentAt = t.dataset.version;
    shortcut.steps += 1;
    t.classList.add("is-running-shortcut");
    if (form.requestSubmit) { form.requestSubmit(); } else { htmx.trigger(form, "submit"); }
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest ? evt.target.closest("[data-fold-to], [data-check-around]") : null;
    var t = tablet();
    if (!button || !t || shortcut) { return; }
    var panel = t.querySelector("[data-step='betting']");
    if (!panel) { return; }
    shortcut = { kind: button.hasAttribute("data-fold-to") ? "fold" : "check", target: button.dataset.foldTo,
                 hand: t.dataset.hand, street: panel.dataset.street, sentAt: null, steps: 0 };
    stepShortcut();
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail.xhr;
    if (shortcut && xhr && xhr.status !== 200) { stopShortcut(); }  // a refusal: the dealer reads why
  });
  function afterSwap() { if (shortcut) { setTimeout(stepShortcut, 0); } }
  document.addEventListener("htmx:afterSettle", afterSwap);
  document.addEventListener("htmx:oobAfterSwap", afterSwap);

  // ------------------------------------------------------------------ each new screen

  function setUp(root) {
    if (!root || !root.querySelectorAll) { return; }
    if (root.matches && root.matches("[data-card-picker]")) { update(root); }
    root.querySelectorAll("[data-card-picker]").forEach(update);
  }
  document.addEventListener("htmx:load", function (evt) { setUp(evt.detail.elt); });
  document.addEventListener("htmx:afterSettle", function (evt) { setUp(evt.detail.elt); });
  document.addEventListener("htmx:oobAfterSwap", function (evt) { setUp(evt.detail.target || evt.detail.elt); });
  document.addEventListener("DOMContentLoaded", function () { setUp(document); });
})();
