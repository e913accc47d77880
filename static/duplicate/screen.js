// The duplicate room screen: counts down the turn's thinking time from what the server
// said was left (so the screen's own clock does not matter), keeps counting when the
// server cannot be reached, and says so quietly (htmx keeps polling; the last state stays).
(function () {
  "use strict";

  var root = document.getElementById("screen");
  var deadline = null;
  var shownState = null;

  function text(seconds) {
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function read() {
    var panel = root.querySelector(".dup-panel");
    var clock = document.getElementById("screen-countdown");
    var state = panel ? panel.dataset.state : null;
    if (!clock || clock.dataset.remaining === "") {
      deadline = null;
    } else if (state !== shownState || deadline === null) {
      deadline = Date.now() + parseInt(clock.dataset.remaining, 10) * 1000;
    } else {
      // The same turn: follow the server where it differs by more than a second.
      var server = Date.now() + parseInt(clock.dataset.remaining, 10) * 1000;
      if (Math.abs(server - deadline) > 1500) deadline = server;
    }
    shownState = state;
    tick();
  }

  function tick() {
    var clock = document.getElementById("screen-countdown");
    if (!clock || deadline === null) return;
    var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    clock.textContent = text(left);
    clock.classList.toggle("dup-time-up", left === 0);
    clock.classList.toggle("dup-time-short", left > 0 && left <= 30);
  }

  function online(isOnline) {
    root.classList.toggle("offline", !isOnline);
  }

  document.body.addEventListener("htmx:afterSwap", read);
  document.body.addEventListener("htmx:afterRequest", function (event) {
    online(event.detail.successful);
  });
  document.body.addEventListener("htmx:sendError", function () { online(false); });
  document.body.addEventListener("htmx:timeout", function () { online(false); });

  var button = root.querySelector("[data-fullscreen]");
  button.addEventListener("click", function () {
    if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen();
  });
  document.addEventListener("fullscreenchange", function () {
    button.hidden = Boolean(document.fullscreenElement);
  });

  read();
  setInterval(tick, 250);
})();
