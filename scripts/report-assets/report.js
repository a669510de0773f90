// Fanout's benchmark report: every table with class "sortable" sorts on a click of a column's header, numbers as
// numbers (a cell's data-value, or its text), ascending first, descending on a second click. The header's aria-sort
// says which order the table is in.
(function () {
  "use strict";

  function key(cell) {
    const text = cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent.trim();
    const number = parseFloat(text.replace(/[×%,\s]/g, ""));
    return Number.isNaN(number) || !/^[-+]?[0-9.]/.test(text) ? { text: text } : { number: number };
  }

  function compare(a, b) {
    if (a.number !== undefined && b.number !== undefined) return a.number - b.number;
    if (a.number !== undefined) return -1;
    if (b.number !== undefined) return 1;
    return a.text.localeCompare(b.text, undefined, { numeric: true });
  }

  function sort(table, column, header) {
    const body = table.tBodies[0];
    const descending = header.getAttribute("aria-sort") === "ascending";
    const rows = Array.from(body.rows).map(function (row, index) {
      return { row: row, key: key(row.cells[column]), index: index };
    });
    rows.sort(function (a, b) {
      const order = compare(a.key, b.key) || a.index - b.index;
      return descending ? -order : order;
    });
    for (const entry of rows) body.appendChild(entry.row);
    for (const other of table.tHead.rows[0].cells) other.removeAttribute("aria-sort");
    header.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }

  for (const table of document.querySelectorAll("table.sortable")) {
    Array.from(table.tHead.rows[0].cells).forEach(function (header, column) {
      header.tabIndex = 0;
      header.title = "Sort by this column";
      header.addEventListener("click", function () { sort(table, column, header); });
      header.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sort(table, column, header); }
      });
    });
  }
  document.documentElement.dataset.sortable = "ready";
})();
