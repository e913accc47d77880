// The club-room screen: shows one panel at a time in turn, keeps its place when htmx
// brings fresh panels, and says so quietly when the server cannot be reached (htmx keeps
// polling; the last known state stays up).
(function () {
  "use strict";

  var root = document.getElementById("screen");
  var container = document.getElementById("screen-panels");
  var dots = root.querySelector(".screen-dots");
  var current = null;
  var lastResponse = null;

  function panels() {
    return Array.prototype.slice.call(container.querySelectorAll("[data-panel]"));
  }

  function show(key) {
    var list = panels();
    if (!list.length) return;
    if (!list.some(function (panel) { return panel.dataset.panel === key; })) {
      key = list[0].dataset.panel;
    }
    list.forEach(function (panel) {
      panel.classList.toggle("active", panel.dataset.panel === key);
    });
    current = key;
    dots.textContent = list.map(function (panel) {
      return panel.dataset.panel === key ? "●" : "○";
    }).join(" ");
  }

  function next() {
    var list = panels();
    if (!list.length) return;
    var index = list.findIndex(function (panel) { return panel.dataset.panel === current; });
    show(list[(index + 1) % list.length].dataset.panel);
  }

  function online(isOnline) {
    root.classList.toggle("offline", !isOnline);
  }

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    // An unchanged answer (a 304 the browser turned back into its cached copy) is not
    // swapped: the panel on show does not flicker.
    var text = event.detail.xhr.responseText;
    if (event.detail.xhr.status === 200 && text === lastResponse) event.detail.shouldSwap = false;
    if (event.detail.xhr.status === 200) lastResponse = text;
  });
  document.body.addEventListener("htmx:afterSwap", function () { show(current); });
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

  show(null);
  setInterval(next, (parseInt(root.dataset.panelSeconds, 10) || 12) * 1000);
})();
