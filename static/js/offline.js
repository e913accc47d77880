// A dropped connection loses nothing (the board, the results page, the slip page): a form
// marked `data-offline` that is sent while the Wi-Fi is gone stays in this browser
// (localStorage, per page), the page says that it waits, and it is sent once the
// connection is back. Each form carries its key (clubs/submissions.py): sent twice, it is
// saved once, so a copy whose answer was lost is simply sent again.
// `data-offline="queue"`: each send is a move of its own (the board; the form is emptied
// for the next one, and a move typed after another that waits is sent on the board that
// one's save gives). `data-offline="replace"`: the form is one whole (a slip, the round's
// results); sent again while it waits, the newer text replaces the older.
(function () {
  "use strict";

  var WAITING = "bordpunt-waiting:";
  var DRAFT = "bordpunt-draft:";
  var REFUSED = "bordpunt-refused:";
  var sending = false;

  function storeKey(prefix) {
    return prefix + window.location.pathname;
  }

  function read(storage, prefix) {
    try {
      return JSON.parse(storage.getItem(storeKey(prefix)) || "null");
    } catch (error) {
      return null;
    }
  }

  function write(storage, prefix, value) {
    try {
      if (value === null) storage.removeItem(storeKey(prefix));
      else storage.setItem(storeKey(prefix), JSON.stringify(value));
    } catch (error) {
      /* private mode: the page still waits in memory until it is closed */
    }
  }

  function waiting() {
    return read(window.localStorage, WAITING) || [];
  }

  function keep(list) {
    write(window.localStorage, WAITING, list.length ? list : null);
    notice();
  }

  function texts() {
    return document.getElementById("save-failed-texts") || { dataset: {} };
  }

  // A fresh key for the next send of a form that was emptied (a version 4 UUID; crypto's
  // randomUUID is for secure pages only, and the club's Wi-Fi serves plain http).
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (byte) {
      return (byte + 0x100).toString(16).slice(1);
    }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function typed(field) {
    return field && field.tagName === "INPUT" && ["text", "number", "search"].indexOf(field.type) >= 0;
  }

  // What the user typed, to show while it waits: the typed fields' values.
  function labelOf(fields, form) {
    return fields.filter(function (pair) {
      return pair[1] && typed(form.elements.namedItem(pair[0]));
    }).map(function (pair) {
      return pair[1];
    }).join(" ");
  }

  function record(form, data) {
    var fields = [];
    data.forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") fields.push([name, value]);
    });
    var list = waiting();
    var entry = {
      form: form.id,
      action: form.getAttribute("action") || window.location.pathname,
      fields: fields,
      label: labelOf(fields, form),
      // Typed on a board that had not yet taken the move that waits before it.
      chained: list.length > 0,
    };
    if (form.dataset.offline === "replace") {
      list = list.filter(function (other) {
        return other.form !== form.id;
      });
    }
    list.push(entry);
    keep(list);
    if (form.dataset.offline === "queue") {
      form.reset();
      var key = form.querySelector("input[name='submission']");
      if (key) key.value = newKey();
    }
  }

  function forget(form) {
    var list = waiting();
    var others = list.filter(function (entry) {
      return entry.form !== form.id;
    });
    if (others.length !== list.length) keep(others);
  }

  function notice() {
    var list = waiting();
    var shown = document.getElementById("offline-waiting");
    if (!list.length) {
      if (shown) shown.remove();
      return;
    }
    var anchor = document.querySelector("form[data-offline]") || document.querySelector("main");
    if (!anchor) return;
    if (!shown) {
      shown = document.createElement("div");
      shown.id = "offline-waiting";
      shown.className = "alert alert-warning";
      shown.setAttribute("role", "status");
    }
    if (shown.nextElementSibling !== anchor) anchor.before(shown);
    var labels = list.map(function (entry) {
      return entry.label;
    }).filter(Boolean);
    shown.textContent = texts().dataset.waiting + (labels.length ? " " + labels.join(" · ") : "");
  }

  // Sent while the browser knows it has no connection: kept, not sent. A whole form sent
  // again online replaces what of it waits: sent later, the older text would be answered
  // as saved (its key is the same) and the page reloaded over the newer one's answer.
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!form.matches("form[data-offline]")) return;
      if (navigator.onLine !== false) {
        if (form.dataset.offline === "replace") forget(form);
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
      var data;
      try {
        data = new FormData(form, event.submitter);
      } catch (error) {
        data = new FormData(form);
      }
      record(form, data);
    },
    true
  );

  // Sent, but it never arrived, or its answer did not (the browser thought it was online);
  // or the proxy answered for an app server that could not: 502 (gone, perhaps in the
  // middle of the save), 504 (no answer in time). Kept as without a connection, and sent
  // again with its key: a save that went through after all is saved once. (An app
  // server's own 503 says what is wrong and leaves the form as typed: static/js/bordpunt.js.)
  function keepUnsent(event) {
    var form = event.detail.elt; // the form's own send, not a live preview inside it
    var config = event.detail.requestConfig;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (event.type === "htmx:responseError" && status !== 502 && status !== 504) return;
    if (!form || !form.matches || !form.matches("form[data-offline]")) return;
    if (!config || config.verb !== "post" || !config.formData) return;
    record(form, config.formData);
  }
  document.addEventListener("htmx:sendError", keepUnsent);
  document.addEventListener("htmx:responseError", keepUnsent);

  function csrf() {
    var field = document.querySelector("input[name='csrfmiddlewaretoken']");
    if (field) return field.value;
    var match = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function loggedOut(response) {
    var login = texts().dataset.login;
    return response.redirected && login && new URL(response.url).pathname === login;
  }

  // The version of the board the server's answer shows: a move typed after another that
  // waited is a move on the board after that one.
  function versionIn(html) {
    var field = new DOMParser().parseFromString(html, "text/html").querySelector("input[name='version']");
    return field ? field.value : null;
  }

  // Why the server refused a send, in its own words: the texts its page marks
  // `data-refusal` (a move's refusal, a slip's, the results page's messages and rows).
  function reasonIn(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    return Array.prototype.map.call(page.querySelectorAll("[data-refusal]"), function (node) {
      return node.textContent.replace(/\s+/g, " ").trim();
    }).filter(Boolean).join(" ");
  }

  // Kept as typed over the reload that shows what the server saved: the fields typed and
  // not yet sent, and a waiting send the server refused (it says why when sent again).
  function keepDrafts(refused) {
    var drafts = {};
    document.querySelectorAll("form[data-offline]").forEach(function (form) {
      Array.prototype.forEach.call(form.elements, function (field) {
        if (typed(field) && field.value && field.value !== field.defaultValue) {
          drafts[form.id] = drafts[form.id] || [];
          drafts[form.id].push([field.name, field.value]);
        }
      });
    });
    if (refused) drafts[refused.form] = refused.fields.filter(function (pair) {
      return pair[0] !== "version" && pair[0] !== "submission";
    });
    write(window.sessionStorage, DRAFT, drafts);
  }

  function restoreDrafts() {
    var drafts = read(window.sessionStorage, DRAFT);
    if (!drafts) return;
    write(window.sessionStorage, DRAFT, null);
    Object.keys(drafts).forEach(function (id) {
      var form = document.getElementById(id);
      if (!form) return;
      drafts[id].forEach(function (pair) {
        var field = form.elements.namedItem(pair[0]);
        if (typed(field)) field.value = pair[1];
      });
    });
  }

  // Send what waits, oldest first, each once; then show the page as the server has it.
  function flush() {
    if (sending || navigator.onLine === false || !waiting().length) return;
    sending = true;
    var version = null;
    var landed = null;
    function next() {
      var list = waiting();
      if (!list.length) return done(null);
      var entry = list[0];
      var body = new URLSearchParams();
      entry.fields.forEach(function (pair) {
        var value = pair[0] === "version" && entry.chained && version !== null ? version : pair[1];
        body.append(pair[0], value);
      });
      body.append("csrfmiddlewaretoken", csrf());
      fetch(entry.action, { method: "POST", body: body, credentials: "same-origin" }).then(
        function (response) {
          return response.text().then(function (html) {
            if (response.status >= 500) return stop(); // the server's fault: try again later
            if (loggedOut(response)) {
              // Still waiting: sent again, with the same key, once logged in again.
              sending = false;
              window.location.assign(response.url);
              return;
            }
            keep(waiting().slice(1));
            // Refused: shown typed again, with the server's reason.
            if (!response.redirected) return done(entry, reasonIn(html));
            version = versionIn(html);
            landed = response.url;
            next();
          }, stop); // the answer's body lost on the way: sent again later, with its key
        },
        stop // still no connection
      );
    }
    function stop() {
      sending = false;
      notice();
    }
    function done(refused, reason) {
      if (refused) {
        // What was typed after it assumed the board it would have made: not sent, shown
        // with it as not saved, to be typed again.
        var later = waiting().filter(function (entry) {
          return entry.chained;
        });
        keep(waiting().filter(function (entry) {
          return !entry.chained;
        }));
        write(window.sessionStorage, REFUSED, {
          label: refused.label,
          reason: reason,
          later: later.map(function (entry) {
            return entry.label;
          }).filter(Boolean),
        });
      }
      keepDrafts(refused);
      sending = false;
      if (landed && !refused && landed !== window.location.href) window.location.assign(landed);
      else window.location.reload();
    }
    next();
  }

  // A send that the server refused when it came: said once, beside the form, which holds
  // it as it was typed, with the server's reason (a move that does not fit the board, a
  // turn that is over, a result changed since it was first sent) and what was typed after
  // it and not sent.
  function refusedNotice() {
    var refused = read(window.sessionStorage, REFUSED);
    write(window.sessionStorage, REFUSED, null);
    var anchor = document.querySelector("form[data-offline]") || document.querySelector("main");
    if (!refused || !anchor) return;
    var shown = document.createElement("div");
    shown.id = "offline-refused";
    shown.className = "alert alert-danger";
    shown.setAttribute("role", "alert");
    var lines = [
      (texts().dataset.refused + " " + (refused.label || "")).trim(),
      refused.reason || texts().dataset.refusedCheck,
    ];
    if (refused.later && refused.later.length) {
      lines.push(texts().dataset.refusedLater + " " + refused.later.join(" · "));
    }
    lines.forEach(function (line) {
      var part = document.createElement("div");
      part.textContent = line;
      shown.appendChild(part);
    });
    anchor.before(shown);
  }

  function start() {
    refusedNotice();
    restoreDrafts();
    notice();
    flush();
  }

  // A form the browser sends itself (the round's results; not htmx) cannot see the proxy
  // answer 502/503/504 for an app server that could not: the browser shows the proxy's
  // page (deploy/fout-bezig.html), which notes the address it stands for. Kept: what each
  // such send held. Back on the form's page at that address, the send waits as if it had
  // been sent without a connection. Any other page that loads after it is the server's
  // answer: nothing to keep.
  var SENT = "bordpunt-sent";
  var PROXY_FAILED = "bordpunt-proxy-failed"; // written by deploy/fout-bezig.html
  function take(key) {
    try {
      var value = JSON.parse(window.sessionStorage.getItem(key) || "null");
      window.sessionStorage.removeItem(key);
      return value;
    } catch (error) {
      return null;
    }
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var boosted = form.closest("[hx-boost]");
    if (!form.matches("form[data-offline]") || event.defaultPrevented) return;
    if (boosted && boosted.getAttribute("hx-boost") === "true") return; // htmx: keepUnsent
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    try {
      window.sessionStorage.setItem(SENT, JSON.stringify({ path: window.location.pathname, form: form.id, fields: fields }));
    } catch (error) {
      /* private mode: nothing kept */
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var sent = take(SENT);
    var failed = take(PROXY_FAILED);
    var form = sent && document.getElementById(sent.form);
    if (!form || sent.path !== window.location.pathname || failed !== sent.path) return;
    var data = new FormData();
    sent.fields.forEach(function (pair) {
      data.append(pair[0], pair[1]);
    });
    record(form, data);
    var drafts = read(window.sessionStorage, DRAFT) || {};
    drafts[form.id] = sent.fields; // shown as typed while it waits (restoreDrafts)
    write(window.sessionStorage, DRAFT, drafts);
  });

  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:load", notice);
  window.addEventListener("online", flush);
  setInterval(flush, 5000);
})();
