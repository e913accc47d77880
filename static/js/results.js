// The round's results page at keyboard speed. Tab goes from score to score; the outcome
// and the reason are out of the Tab order, so that a plain score costs no extra key:
// - `*` in a score jumps to that table's outcome (pick with a letter or the arrows; Tab
//   goes on to the next table, Enter saves);
// - a table that already has a result gets its reason into the Tab order once it changes;
// - the form is sent once, however often Enter is pressed.
// Without this script the page still works with the mouse and the server checks all.
(function () {
  "use strict";

  var form = document.getElementById("results-form");
  if (!form) return;

  function rowOf(element) {
    return element.closest("tr.result-row");
  }

  function changed(row) {
    return Array.prototype.some.call(row.querySelectorAll("input.score, select"), function (field) {
      if (field.tagName === "SELECT") {
        return Array.prototype.some.call(field.options, function (option) {
          return option.selected !== option.defaultSelected;
        });
      }
      return field.value !== field.defaultValue;
    });
  }

  form.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.key === "*" && target.matches("input.score")) {
      event.preventDefault();
      rowOf(target).querySelector("select[data-outcome]").focus();
    } else if (event.key === "Enter" && target.matches("select[data-outcome]")) {
      event.preventDefault();
      form.requestSubmit();
    } else if (event.key === "Escape" && target.matches("select[data-outcome]")) {
      rowOf(target).querySelector("input.score").focus();
    }
  });

  function reasonInOrder(event) {
    var row = rowOf(event.target);
    if (!row || !row.hasAttribute("data-saved")) return;
    var reason = row.querySelector("input[name$='-reason']");
    if (reason && changed(row)) reason.removeAttribute("tabindex");
  }
  // A second Enter or click while the page is saving would only be refused as out of date.
  form.addEventListener("submit", function (event) {
    if (form.dataset.saving) event.preventDefault();
    form.dataset.saving = "yes";
  });

  form.addEventListener("input", reasonInOrder);
  form.addEventListener("change", reasonInOrder);
})();
