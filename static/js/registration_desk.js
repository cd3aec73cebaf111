// The registration desk (tournaments/templates/tournaments/console_registration.html, issue #36): the entries
// list narrowed as the search is typed, and the date of birth shown as dd/mm/yyyy while its digits are typed.
// The server decides everything: Enter sends the search (which also finds ID numbers, never put in the page).
(function () {
  "use strict";

  // the desk's folding (tournaments.desk.fold): accents and case ignored
  function fold(text) {
    return (text || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function filterEntries(input) {
    var table = document.getElementById(input.dataset.deskFilter);
    if (!table) { return; }
    var query = fold(input.value).trim(), number = query.replace(/^#/, "").trim();
    var words = query.split(/\s+/).filter(Boolean), shown = 0, rows = table.querySelectorAll("tbody tr[data-find]");
    rows.forEach(function (row) {
      var find = row.dataset.find, match = !words.length || row.dataset.entry === number ||
        words.every(function (w) { return find.indexOf(w) !== -1; });
      row.hidden = !match;
      if (match) { shown += 1; }
    });
    var none = document.getElementById("desk-live-none");
    if (none) { none.hidden = shown > 0 || !rows.length; }
  }

  document.addEventListener("input", function (evt) {
    var el = evt.target;
    if (el.matches && el.matches("input[data-desk-filter]")) { filterEntries(el); }
    if (el.matches && el.matches("input[data-date-typing]")) {
      // 01051990 typed on the numeric keypad reads as 01/05/1990; anything else is left as typed
      var digits = el.value.replace(/\D/g, "");
      if (/^[\d/]*\d$/.test(el.value) && digits.length > 2 && digits.length <= 8) {
        el.value = digits.slice(0, 2) + "/" + digits.slice(2, 4) + (digits.length > 4 ? "/" + digits.slice(4) : "");
      }
    }
  });
})();
