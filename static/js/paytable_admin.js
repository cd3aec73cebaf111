// The paytable's admin page: the exact house edge of the pays as they are typed.
// The engine counts it on the server (tables/admin.py, house_edge_view): this page only asks, a
// quarter of a second after the last keystroke, and shows the answer or what is wrong with the input.
(function () {
  "use strict";

  function start() {
    var output = document.getElementById("paytable-edge");
    if (!output) return;
    var inputs = Array.prototype.slice.call(document.querySelectorAll("input[data-award]"));
    var timer = null;
    var asked = 0;

    function ask() {
      var query = new URLSearchParams();
      inputs.forEach(function (input) { query.set(input.name, input.value); });
      var mine = ++asked;
      fetch(output.dataset.url + "?" + query.toString(), { credentials: "same-origin" })
        .then(function (response) { return response.json(); })
        .then(function (answer) {
          if (mine !== asked) return; // a later keystroke's answer is the one to show
          output.textContent = answer.error || answer.text;
          output.classList.toggle("errornote", Boolean(answer.error));
        })
        .catch(function () { output.textContent = ""; });
    }

    inputs.forEach(function (input) {
      input.addEventListener("input", function () {
        clearTimeout(timer);
        timer = setTimeout(ask, 250);
      });
    });
    ask();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
