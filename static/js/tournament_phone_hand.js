// A tournament player's part of the hand at their table (C-33): a tap there sends every phone at the table
// the same public summary (street, pot, stacks by seat, seats dealt in, whose turn, the clock called on a
// seat; no card, no entry), and this draws the player's own seat's part of it, in the words of the page's
// translated template (tournaments/_phone_own.html), and again after each pushed fragment (its seat may change).
(function () {
  "use strict";

  var kept = null; // the latest summary received: {table, version, hand}

  function amount(value, separator) {
    return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  }

  function draw() {
    var slot = document.querySelector('#player-view [data-role="hand"]');
    var words = slot && slot.querySelector('template[data-role="hand-words"]');
    if (!words) return;
    var old = slot.querySelector('[data-role="hand-drawn"]');
    var seat = parseInt(slot.dataset.seat, 10);
    var hand = kept && kept.table === parseInt(slot.dataset.table, 10) ? kept.hand : null;
    if (!hand || hand.dealt.indexOf(seat) < 0) { // no hand there yet, or the player is not dealt in
      if (old) old.remove();
      return;
    }

    var myTurn = hand.in_play && hand.to_act === seat;
    var clock = hand.clock && hand.clock.seat === seat ? hand.clock : null;
    // Only this seat's own: its time to act (CC-114), its act out of turn waiting (TDA-53-A) and, at its turn,
    // what that act or the director's ruling leaves it (TDA-53, CC-134, CC-135, C-08). Another seat's are not
    // drawn here (the table hears them from the dealer).
    var timed = myTurn && hand.time_to_act && hand.time_to_act.seat === seat ? hand.time_to_act : null;
    var waiting = hand.in_play ? (hand.out_of_turn || []).filter(function (o) { return o.seat === seat; })[0] : null;
    var ruled = myTurn && hand.binding && hand.binding.seat === seat ? hand.binding : null;
    var skipped = hand.in_play && hand.skipped === seat;
    var oot = ruled || waiting || null;
    var ruling = !ruled ? "" : skipped ? "ruled-skipped" : ruled.ruling ? "ruled-limited"
      : ruled.act === "fold" ? "ruled-fold" : ruled.every_option ? "ruled-free"
      : ruled.changed && ruled.clause === "CC-134" ? "ruled-call-or-fold" : "ruled-binds";
    var shown = {
      "in-play": hand.in_play, "over": !hand.in_play, "my-turn": myTurn,
      "other-turn": hand.in_play && !myTurn && hand.to_act !== null, "clock": clock !== null,
      "act-time": timed !== null, "oot-waiting": !ruled && !!waiting,
      "ruled-skipped": ruling === "ruled-skipped" || (skipped && !ruled), "ruled-limited": ruling === "ruled-limited",
      "ruled-fold": ruling === "ruled-fold", "ruled-free": ruling === "ruled-free",
      "ruled-call-or-fold": ruling === "ruled-call-or-fold", "ruled-binds": ruling === "ruled-binds"
    };
    var street = words.content.querySelector('[data-street="' + hand.street + '"]');
    var said = oot && oot.act ? words.content.querySelector('[data-act="' + oot.act + '"]') : null;
    var saidTo = "";
    if (oot && oot.to) { // "to 800", in the page's words and its thousands
      var to = words.content.querySelector("[data-act-to]").cloneNode(true);
      to.querySelector('[data-fill="oot-to"]').textContent = amount(oot.to, slot.dataset.thousands);
      saidTo = " " + to.textContent.trim();
    }
    var fills = {
      "hand": String(hand.hand), "street": street ? street.textContent : hand.street,
      "pot": amount(hand.pot, slot.dataset.thousands), "to-act": String(hand.to_act),
      "stack": amount(hand.stacks[String(seat)] || 0, slot.dataset.thousands),
      "clock-seconds": clock ? String(Math.max(0, Math.ceil((clock.ends_ms - Date.now()) / 1000))) : "",
      "act-seconds": timed ? String(Math.max(0, Math.ceil((timed.ends_ms - Date.now()) / 1000))) : "",
      "oot-act": (said ? said.textContent : oot && oot.act ? oot.act : "") + saidTo,
      "oot-clause": ruled ? ruled.clause : ""
    };

    var drawn = document.createElement("div");
    drawn.dataset.role = "hand-drawn";
    drawn.setAttribute("data-kept-until-tap", ""); // a push's morph leaves it (casino.js): a phone never taps
    drawn.className = myTurn ? "tphone-my-turn" : "";
    drawn.appendChild(words.content.cloneNode(true));
    drawn.querySelectorAll("[data-street], [data-act], [data-act-to]").forEach(function (node) { node.remove(); });
    drawn.querySelectorAll("[data-show]").forEach(function (node) {
      if (!shown[node.dataset.show]) node.remove();
    });
    drawn.querySelectorAll("[data-fill]").forEach(function (node) {
      node.textContent = fills[node.dataset.fill];
    });
    var acting = drawn.querySelector('[data-role="act-time"]');
    if (acting) acting.dataset.actEnds = String(timed.ends_ms); // counted down by tablet_clock.js
    var timer = drawn.querySelector('[data-role="clock"]');
    if (timer) { // counted down by tablet_clock.js
      timer.dataset.clockEnds = String(clock.ends_ms);
      timer.dataset.countdown = String(clock.countdown);
    }
    // the same drawing again (a push about something else): left as it is, not announced again
    if (old && old.className === drawn.className && old.innerHTML === drawn.innerHTML) return;
    if (old) old.remove();
    slot.appendChild(drawn);
  }

  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var message = evt.detail.message;
    if (typeof message !== "string" || message.charAt(0) !== "{") return; // a fragment: htmx swaps it
    evt.preventDefault();
    var summary;
    try { summary = JSON.parse(message).table_summary; } catch (error) { return; }
    if (!summary) return;
    // an older version of the same table (a late message) never replaces a newer one
    if (kept && kept.table === summary.table && kept.version > summary.version) return;
    kept = summary;
    draw();
  });
  document.addEventListener("htmx:wsAfterMessage", draw);
})();
