// The open turn's countdown on a phone and on the spelleider's page: counted down from the
// seconds the server said were left (so the device's own clock does not matter). At 0 the
// message beside it ([data-time-up]) shows: a slip now counts as late. Each countdown is
// read once, when it appears (after an htmx swap too), so a preview's swap moves nothing.
(function () {
  "use strict";

  function text(seconds) {
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-countdown]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      if (!clock.dataset.until) {
        clock.dataset.until = String(Date.now() + parseInt(clock.dataset.remaining, 10) * 1000);
      }
      var left = Math.max(0, Math.ceil((Number(clock.dataset.until) - Date.now()) / 1000));
      clock.textContent = text(left);
      var box = clock.closest("[data-clock]");
      var upNote = box ? box.querySelector("[data-time-up]") : null;
      if (upNote) upNote.hidden = left > 0;
    }
  }

  document.body.addEventListener("htmx:afterSettle", tick);
  tick();
  setInterval(tick, 250);
})();
