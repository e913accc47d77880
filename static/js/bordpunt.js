// Small behaviours for every page, here rather than inline: the Content-Security-Policy
// allows only the site's own script files.
(function () {
  "use strict";

  // The language switch submits as soon as a language is chosen.
  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-submit-on-change]")) event.target.form.submit();
  });

  // A print button prints the page.
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });
})();
