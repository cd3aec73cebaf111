// The director's console and the floor's pages (tournaments/templates/tournaments/console*).
// The server decides everything; this only shows the fresh console that comes back with a refusal
// (400 bad input, 409 the event changed, 422 a rule's refusal) instead of treating it as an error,
// and asks for confirmation before an action the record would have to correct.
(function () {
  "use strict";

  document.addEventListener("htmx:beforeSwap", function (evt) {
    var xhr = evt.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (status === 400 || status === 409 || status === 422 ||
        (status === 403 && xhr.getResponseHeader("X-Rule-Refusal"))) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
  });

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
