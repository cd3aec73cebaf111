// The room's seating screen (tournaments/seating_display.html): the whole list, alphabetical, in columns.
// When it does not fit the screen it is shown a page at a time, each page for PAGE_MS, round and round;
// a push (a redraw, a table broken, a move) redraws the list and the paging starts again on the new one.
(function () {
  "use strict";

  var PAGE_MS = 10000;
  var page = 0;

  function rowsOf() { return Array.prototype.slice.call(document.querySelectorAll("#seating-display [data-role=seating] > li")); }

  // How many rows one screen holds: the list's columns times the rows that fit in its height.
  function perPage(list, rows) {
    rows.forEach(function (row) { row.hidden = false; });
    if (!rows.length) return 1;
    var rowHeight = rows[0].getBoundingClientRect().height || 1;
    // the list's own height (the screen's rest, flex), never past the window's bottom
    var box = list.getBoundingClientRect();
    var height = Math.min(box.height, window.innerHeight - box.top) - 2;
    var columns = parseInt(getComputedStyle(list).columnCount, 10) || 1;
    return Math.max(1, Math.floor(height / rowHeight) * columns);
  }

  function show() {
    var list = document.querySelector("#seating-display [data-role=seating]");
    var label = document.querySelector("#seating-display [data-role=page]");
    if (!list) return;
    var rows = rowsOf();
    var size = perPage(list, rows);
    var pages = Math.max(1, Math.ceil(rows.length / size));
    if (page >= pages) page = 0;
    rows.forEach(function (row, i) { row.hidden = Math.floor(i / size) !== page; });
    list.dataset.page = String(page + 1);
    list.dataset.pages = String(pages);
    if (label) {
      label.textContent = pages > 1 ? " · " + document.body.dataset.pageLabel
        .replace("%(page)s", String(page + 1)).replace("%(pages)s", String(pages)) : "";
    }
  }

  function next() { page += 1; show(); }

  document.addEventListener("htmx:wsAfterMessage", function () { page = 0; show(); });
  window.addEventListener("resize", show);
  document.addEventListener("DOMContentLoaded", function () {
    show();
    setInterval(next, PAGE_MS);
  });
  window.seatingDisplay = { show: show, next: next };
})();
