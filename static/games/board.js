// Board screen: clicking a square chooses where a word starts (a second click on the same
// square turns the direction); the server computes the preview and every score.
(function () {
  "use strict";

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
  }

  document.addEventListener("click", function (event) {
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
    markSelected(name);
    field("id_letters").focus();
    document.body.dispatchEvent(new Event("square-chosen"));
  });

  document.addEventListener("change", function (event) {
    if (event.target.id === "id_direction" && field("id_start").value) {
      markSelected(field("id_start").value.toUpperCase());
    }
  });

  // After the board is swapped in, the selection is gone with the old squares.
  document.addEventListener("htmx:afterSettle", function () {
    var start = field("id_start");
    if (start && start.value) markSelected(start.value.toUpperCase());
  });
})();
