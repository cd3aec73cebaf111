// The clock called on a player at a tournament table (C-04): the seconds left on the dealer's tablet,
// counted from the end the server set (data-clock-ends, epoch ms). The last ones (data-countdown) are
// marked for the dealer to count aloud (CC-115). At zero the dealer taps "Time is up": the server checks
// the time itself and applies the house's outcome (C-05); this page never decides it.
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
  }

  setInterval(tick, 250);
  document.addEventListener("htmx:afterSwap", tick);
})();
