// The director's console and the floor's pages (tournaments/templates/tournaments/console*).
// The server decides everything; this only asks for confirmation before an action the record would have
// to correct. (A refusal's fresh console is swapped by htmx's responseHandling, base.html.)
(function () {
  "use strict";

  // Forms marked data-confirm ask first (a disqualification, a correction): the text is the server's.
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (form && form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      evt.preventDefault();
      evt.stopPropagation();
    }
  }, true);
})();

// A receipt's print button (no inline script under the Content-Security-Policy).
document.addEventListener("click", function (evt) {
  if (evt.target.closest && evt.target.closest("[data-print]")) { window.print(); }
});
