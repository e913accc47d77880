// Board screen: clicking a square chooses where a word starts (a second click on the same
// square turns the direction); so does Enter on a square reached with the arrow keys. The
// server computes the preview and every score.
// On a phone the large board (squares of at least 44 px) is the default; it then scrolls
// inside its frame, and a tapped square is kept in view while the letters are typed.
// A refused move's reason stands under the field that was used: it is scrolled into view
// and that field gets the focus, also when htmx swapped the page in.
(function () {
  "use strict";

  var ZOOM_KEY = "bordpunt-board-zoom";

  function field(id) {
    return document.getElementById(id);
  }

  function markSelected(name) {
    document.querySelectorAll(".sq.selected").forEach(function (square) {
      square.classList.remove("selected", "down");
    });
    var square = document.querySelector('.sq[data-square="' + name + '"]');
    if (square) {
      square.classList.add("selected");
      if (field("id_direction").value === "down") square.classList.add("down");
    }
    return square;
  }

  function keepInView(square) {
    if (square) square.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  // Where the zoom button shows (below Bootstrap's lg): the large board, its squares big
  // enough to tap, on a board that takes a move; the whole board in view on one that
  // takes none (a finished game, a replay). A choice made with the button holds.
  var NARROW = window.matchMedia("(max-width: 991.98px)");

  function applyZoom() {
    var button = field("zoom");
    var frame = field("board-frame");
    if (!button || !frame) return;
    var chosen = sessionStorage.getItem(ZOOM_KEY);
    var zoomed = chosen === null ? NARROW.matches && frame.hasAttribute("data-takes-a-move") : chosen === "1";
    button.hidden = false;
    button.setAttribute("aria-pressed", zoomed ? "true" : "false");
    frame.classList.toggle("zoomed", zoomed);
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("#zoom")) {
      var zoomed = !field("board-frame").classList.contains("zoomed");
      sessionStorage.setItem(ZOOM_KEY, zoomed ? "1" : "0");
      applyZoom();
      keepInView(document.querySelector(".sq.selected"));
      return;
    }
    var square = event.target.closest(".sq[data-square]");
    var start = field("id_start");
    if (!square || !start || !square.closest("#board-page")) return;
    var name = square.dataset.square;
    var direction = field("id_direction");
    if (start.value.toUpperCase() === name) {
      direction.value = direction.value === "across" ? "down" : "across";
    }
    start.value = name;
    field("id_notation").value = "";
    // The letters field is below the board: focus it without scrolling the square away.
    field("id_letters").focus({ preventScroll: true });
    keepInView(markSelected(name));
    document.body.dispatchEvent(new Event("square-chosen"));
  });

  // The board's grid is one stop in the tab order (H8 at first); the arrow keys move along
  // its rows and columns, and Enter or Space presses the square, as a click does.
  var STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  document.addEventListener("keydown", function (event) {
    var step = STEPS[event.key];
    var square = event.target.closest && event.target.closest('[role="grid"] .sq');
    if (!step || !square) return;
    var row = square.closest('[role="row"]');
    var rows = Array.prototype.slice.call(row.parentNode.querySelectorAll('[role="row"]'));
    var inRow = Array.prototype.slice.call(row.querySelectorAll(".sq"));
    var target = rows[rows.indexOf(row) + step[0]];
    var next = target && target.querySelectorAll(".sq")[inRow.indexOf(square) + step[1]];
    if (!next) return;
    event.preventDefault();
    square.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });

  document.addEventListener("change", function (event) {
    if (event.target.id === "id_direction" && field("id_start").value) {
      markSelected(field("id_start").value.toUpperCase());
    }
  });

  function showRefusal() {
    var refusal = field("move-error");
    if (!refusal) return;
    var used = document.querySelector('[aria-describedby~="move-error"]') || refusal;
    used.focus({ preventScroll: true });
    // Instant, not Bootstrap's smooth scrolling: it would still be under way when read.
    refusal.scrollIntoView({ block: "center", behavior: "instant" });
    refusal.dataset.shown = "true";
  }

  // The large board at once when the page is swapped in, not after htmx's settle delay:
  // the board growing then would push the refusal out of view again.
  document.addEventListener("htmx:afterSwap", applyZoom);

  // After the board is swapped in, the selection is gone with the old squares.
  document.addEventListener("htmx:afterSettle", function (event) {
    applyZoom();
    var start = field("id_start");
    if (start && start.value) markSelected(start.value.toUpperCase());
    // Only a whole page (a saved or refused move), not the live preview; after htmx has
    // scrolled the swapped page to its top (a boosted form's "show:top").
    if (event.detail.target && event.detail.target.tagName === "MAIN") {
      window.setTimeout(showRefusal, 0);
    }
  });

  applyZoom();
  showRefusal();
})();
