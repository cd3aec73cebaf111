// The tables' screens: the chip keypad, the card picker and refused taps (docs/tables.md, "Screens").
// The server decides everything; this only helps the dealer type: it adds chips, checks the
// table limits as the amount is typed (THB-19, THB-20, THB-52) and keeps the picker to the number of
// cards the step needs. A refusal's screen is swapped by htmx's responseHandling, and a push keeps what
// was typed or ticked because it morphs (casino.js).
(function () {
  "use strict";

  // ------------------------------------------------------------------ chip keypad

  function keypadOf(el) { return el && el.closest ? el.closest("[data-keypad]") : null; }

  function checked(form, name) { return form.querySelector("input[name=" + name + "]:checked"); }

  function validate(form) {
    var amountInput = form.querySelector("[data-amount]");
    var hint = form.querySelector("[data-hint]");
    var submit = form.querySelector("button[type=submit]");
    var box = checked(form, "box");
    var spot = checked(form, "spot");
    var raw = amountInput.value.trim();
    var message = "";
    var ok = /^[0-9]+$/.test(raw) && parseInt(raw, 10) > 0;
    if (box && spot) {
      var amount = parseInt(raw || "0", 10);
      var min = parseInt(spot.dataset.min, 10), max = parseInt(spot.dataset.max, 10);
      var hasAnte = parseInt(box.dataset.ante || "0", 10) > 0;
      var hasBonus = parseInt(box.dataset.bonus || "0", 10) > 0;
      if (spot.value === "bonus" && !hasAnte) { ok = false; message = form.dataset.msgNoAnte; }
      else if ((spot.value === "ante" && hasAnte) || (spot.value === "bonus" && hasBonus)) {
        ok = false; message = form.dataset.msgHas;
      } else if (raw && amount < min) { ok = false; message = form.dataset.msgLow + " " + min; }
      else if (raw && amount > max) { ok = false; message = form.dataset.msgHigh + " " + max; }
      else if (ok && spot.value === "ante") { message = form.dataset.msgFlop + " " + (2 * amount); }
    }
    hint.textContent = message;
    hint.classList.toggle("error", !ok && message !== "");
    submit.disabled = !ok;
  }

  document.addEventListener("click", function (evt) {
    var chip = evt.target.closest("[data-chip]");
    var clear = evt.target.closest("[data-clear]");
    var form = keypadOf(chip || clear);
    if (!form) return;
    var input = form.querySelector("[data-amount]");
    if (chip) {
      var now = parseInt(input.value || "0", 10) || 0;
      input.value = String(now + parseInt(chip.dataset.chip, 10));
    } else {
      input.value = "";
    }
    validate(form);
  });

  document.addEventListener("input", function (evt) {
    var form = keypadOf(evt.target);
    if (form) { validate(form); }
  });
  document.addEventListener("change", function (evt) {
    var form = keypadOf(evt.target);
    if (form) { validate(form); }
    var picker = evt.target.closest ? evt.target.closest("[data-picker]") : null;
    if (picker && evt.target.name === "cards") {
      // The dealer's order, not the grid's: a flop tapped 2c 7d 9h is recorded 2c 7d 9h.
      var key = pickerKey(picker);
      if (!picked || picked.key !== key) { picked = { key: key, cards: [] }; }
      picked.cards = picked.cards.filter(function (c) { return c !== evt.target.value; });
      if (evt.target.checked) { picked.cards.push(evt.target.value); }
      updatePicker(picker);
      // The last card the step needs sends it: no confirming tap per card entry (issue #16). A mistyped
      // card is taken back with "Undo" right after, as before.
      var need = parseInt(picker.dataset.picker, 10);
      if (evt.target.checked && pickedCodes(picker).length === need && window.htmx) {
        if (picker.requestSubmit) { picker.requestSubmit(); } else { htmx.trigger(picker, "submit"); }
      }
    }
  });

  // A sent set of cards is done with: their order is forgotten.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    if (evt.detail.elt && evt.detail.elt.hasAttribute && evt.detail.elt.hasAttribute("data-picker")) { picked = null; }
  });

  // ------------------------------------------------------------------ card picker

  // The cards being picked, in the order tapped, for one step of one hand: {key, cards: [codes]}.
  var picked = null;

  function pickerKey(form) {
    var tablet = form.closest("[data-hand]");
    return (tablet ? tablet.dataset.hand : "") + "|" + form.dataset.pickerKey;
  }

  function pickedCodes(form) {
    var codes = [];
    form.querySelectorAll("input[name=cards]:checked").forEach(function (b) { codes.push(b.value); });
    var ordered = picked && picked.key === pickerKey(form) ? picked.cards.filter(function (c) {
      return codes.indexOf(c) >= 0;
    }) : [];
    codes.forEach(function (c) { if (ordered.indexOf(c) < 0) ordered.push(c); });
    return ordered;
  }

  function updatePicker(form) {
    var need = parseInt(form.dataset.picker, 10);
    var boxes = form.querySelectorAll("input[name=cards]");
    var codes = pickedCodes(form);
    var chosen = codes.map(function (c) {
      var box = form.querySelector("input[name=cards][value='" + c + "']");
      return box ? box.closest("label").title : c;
    });
    var order = form.querySelector("[data-order]");
    if (order) order.value = codes.join(" ");
    boxes.forEach(function (b) {
      var used = b.closest("label").classList.contains("is-used");
      b.disabled = used || (!b.checked && chosen.length >= need);
    });
    var shown = form.querySelector("[data-chosen]");
    shown.textContent = chosen.length ? chosen.join("  ") : form.dataset.msgPick;
    form.querySelector("[data-picker-submit]").disabled = chosen.length !== need;
  }

  // ------------------------------------------------------------------ each new screen

  // A new or morphed screen: the keypad's hint and the picker's state follow what is typed and ticked
  // (a push morphs, so what the dealer had under way is still there: casino.js).
  function setUp(root) {
    if (!root || !root.querySelectorAll) return;
    root.querySelectorAll("[data-keypad]").forEach(validate);
    root.querySelectorAll("[data-picker]").forEach(updatePicker);
  }

  document.addEventListener("htmx:load", function (evt) { setUp(evt.detail.elt); });
  document.addEventListener("DOMContentLoaded", function () { setUp(document); });
})();
