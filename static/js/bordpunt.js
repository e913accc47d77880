// Small behaviours for every page, here rather than inline: the Content-Security-Policy
// allows only the site's own script files.
(function () {
  "use strict";

  // The language switch submits as soon as a language is chosen.
  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-submit-on-change]")) event.target.form.submit();
  });

  // A save sent in the background (the board) that the server could not keep (503: busy,
  // read-only, disk full, unreachable) or that never arrived: htmx leaves the page as it
  // was, so what was typed is still in its field; say so next to the form, with the
  // server's own words for the fault.
  function saveFailed(event, text) {
    var texts = document.getElementById("save-failed-texts");
    var config = event.detail.requestConfig;
    var form = event.detail.elt.closest("form");
    if (!texts || !form || !form.isConnected || !config || config.verb !== "post") return;
    var alert = document.getElementById("save-failed") || document.createElement("div");
    alert.id = "save-failed";
    alert.className = "alert alert-danger";
    alert.setAttribute("role", "alert");
    alert.textContent = text + " " + texts.dataset.kept;
    form.before(alert);
  }
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status !== 503) return;
    var page = new DOMParser().parseFromString(xhr.responseText, "text/html");
    var title = page.querySelector("h1");
    var explanation = page.querySelector("main p");
    saveFailed(event, [title, explanation].map(function (node) {
      return node ? node.textContent.trim() : "";
    }).join(". ").replace(/\.\./g, "."));
  });
  document.addEventListener("htmx:sendError", function (event) {
    var texts = document.getElementById("save-failed-texts");
    // A form that waits for the connection says so itself (static/js/offline.js).
    if (event.detail.elt.closest("form[data-offline]")) return;
    if (texts) saveFailed(event, texts.dataset.offline);
  });

  // A table's "All columns" button (templates/_columns_toggle.html): on a phone it shows
  // the columns that are hidden there, and hides them again. The choice is kept in this
  // browser per kind of table, so a secretary who wants the round's actions on the phone
  // opens them once, not on every round.
  function showColumns(button, table, expanded) {
    button.setAttribute("aria-expanded", expanded ? "true" : "false");
    table.classList.toggle("columns-all", expanded);
  }
  function columnsKey(table) {
    return "bordpunt.columns." + table.id;
  }
  function remembered(key) {
    try { return window.localStorage.getItem(key) === "all"; } catch (error) { return false; }
  }
  function remember(key, expanded) {
    try { window.localStorage.setItem(key, expanded ? "all" : "few"); } catch (error) { /* private mode */ }
  }
  document.querySelectorAll(".columns-toggle").forEach(function (button) {
    var table = document.getElementById(button.getAttribute("aria-controls"));
    if (table && remembered(columnsKey(table))) showColumns(button, table, true);
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest(".columns-toggle");
    if (!button) return;
    var table = document.getElementById(button.getAttribute("aria-controls"));
    if (!table) return;
    var expanded = button.getAttribute("aria-expanded") !== "true";
    showColumns(button, table, expanded);
    remember(columnsKey(table), expanded);
  });

  // A table wider than its scroll container (.table-responsive, .sheet-scroll), or the
  // large board in its frame, says so: the edge it continues past fades (bordpunt.css),
  // on a phone as on a narrow window, and the fade goes once that edge is reached.
  // Measured again when the container or what it holds changes size (the "All columns"
  // button, the board's size button, an htmx swap).
  var SCROLLERS = ".table-responsive, .sheet-scroll, .board-frame";
  function markScrolls(box) {
    var hidden = box.scrollWidth - box.clientWidth;
    var left = Math.abs(box.scrollLeft);
    box.classList.toggle("scrolls-on", hidden - left > 1);
    box.classList.toggle("scrolls-back", hidden > 1 && left > 1);
  }
  var resized = "ResizeObserver" in window ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      var box = entry.target.closest(SCROLLERS);
      if (box) markScrolls(box);
    });
  }) : null;
  function watchScrolls() {
    document.querySelectorAll(SCROLLERS).forEach(function (box) {
      markScrolls(box);
      if (resized) {
        // What grows inside the container: its table, or the board (its large size).
        resized.observe(box);
        resized.observe(box.querySelector("table, .board") || box);
      }
      if (box.dataset.scrollsWatched) return;
      box.dataset.scrollsWatched = "1";
      box.addEventListener("scroll", function () { markScrolls(box); }, { passive: true });
    });
  }
  watchScrolls();
  document.addEventListener("htmx:afterSettle", watchScrolls);

  // A print button prints the page.
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });
})();
