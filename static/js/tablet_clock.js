// The clock called on a player at a tournament table (C-04): the seconds left on the dealer's tablet,
// counted from the end the server set (data-clock-ends, epoch ms). The last ones (data-countdown) are
// marked for the dealer to count aloud (CC-115). At zero the dealer taps "Time is up": the server checks
// the time itself and applies the house's outcome (C-05); this page never decides it. It also counts the
// seat in turn's time to act (CC-114), which is not the called clock.
(function () {
  "use strict";

  function tick() {
    var clocks = document.querySelectorAll("[data-clock-ends]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var left = Math.max(0, Math.ceil((parseInt(clock.dataset.clockEnds, 10) - Date.now()) / 1000));
      var shown = clock.querySelector("[data-clock-left]");
      if (shown) shown.textContent = String(left);
      clock.classList.toggle("counting", left <= parseInt(clock.dataset.countdown || "0", 10));
      clock.classList.toggle("ran-out", left === 0);
    }
    // The seat in turn's time to act (CC-114, C-04), from the end the server read off the hand's record
    // (data-act-ends, epoch ms): at zero the tablet asks the dealer to call the clock or the floor
    // (CC-115); nothing is recorded for it.
    var timers = document.querySelectorAll("[data-act-ends]");
    for (var j = 0; j < timers.length; j++) {
      var timer = timers[j];
      var rest = Math.max(0, Math.ceil((parseInt(timer.dataset.actEnds, 10) - Date.now()) / 1000));
      var text = timer.querySelector("[data-act-left]");
      if (text) text.textContent = String(rest);
      timer.classList.toggle("ran-out", rest === 0);
      var up = document.querySelector('[data-act-time-up="' + timer.dataset.actSeat + '"]');
      if (up) up.hidden = rest > 0;
    }
  }

  setInterval(tick, 250);
  document.addEventListener("htmx:afterSwap", tick);
})();
