// The game clock on the board page: one button per player ends their turn and starts the
// next player's clock. The clock is computed from its presses, as the server computes it
// (rules/clock.py: the same rules), on the server's time line: a reload or a second device
// shows the same clock. A press made without a connection is kept (localStorage) and sent
// once the connection is back, with the moment it was made; the server decides what it
// believes (games/clock.py: a press sent later counts no earlier than 3 s before it
// arrived, so that it cannot move time from one player to the other). The page's main part is swapped after every move (htmx):
// the clock starts again from the fresh state the page brings.
(function () {
  "use strict";

  var timer = null;
  var current = null;

  function keyOf(game) {
    return "bordpunt-clock-" + game;
  }

  function kept(game) {
    try {
      return JSON.parse(localStorage.getItem(keyOf(game)) || "[]");
    } catch (error) {
      return [];
    }
  }

  function keep(game, presses) {
    if (presses.length) localStorage.setItem(keyOf(game), JSON.stringify(presses));
    else localStorage.removeItem(keyOf(game));
  }

  // rules.clock.clock_state, for the screen.
  function stateAt(data, events, now) {
    var left = data.budget.slice();
    var toMove = null, paused = false, since = 0, flag = null, stopped = false, turnUsed = 0;
    function run(moment) {
      var player = toMove === null || paused || stopped ? null : toMove;
      if (player === null || moment <= since) return;
      var elapsed = moment - since;
      if (flag === null && left[player] - elapsed <= 0) {
        flag = player;
        if (data.flag_ends) {
          turnUsed += Math.max(left[player], 0);
          since += Math.max(left[player], 0);
          left[player] = 0;
          stopped = true;
          return;
        }
      }
      left[player] -= elapsed;
      turnUsed += elapsed;
      since = moment;
    }
    events.forEach(function (event) {
      var kind = event[0], at = event[1], player = event[2];
      run(at);
      if (stopped) return;
      if (kind === "start") {
        toMove = player || 0;
        since = at;
      } else if (kind === "switch" && toMove !== null) {
        toMove = (toMove + 1) % left.length;
        since = at;
        turnUsed = 0;
      } else if (kind === "pause") {
        paused = true;
      } else if (kind === "resume") {
        paused = false;
        since = at;
      }
    });
    run(now);
    return {
      left: left,
      toMove: toMove,
      paused: paused,
      flag: flag,
      stopped: stopped,
      running: toMove === null || paused || stopped ? null : toMove,
    };
  }

  function shown(ms) {
    var sign = ms < 0 ? "-" : "";
    var seconds = Math.floor(Math.abs(ms) / 1000);
    if (ms > 0) seconds = Math.ceil(ms / 1000); // 0:00 only when the time is gone
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    return sign + minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function csrf() {
    var match = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function start(section) {
    var data = JSON.parse(document.getElementById("clock-data").textContent);
    var game = section.dataset.game;
    var clock = {
      section: section,
      url: section.dataset.url,
      game: game,
      data: data,
      // The server's moment on the clock's time line, from this device's clock.
      offset: data.now - Date.now(),
      events: data.events.slice(),
      pending: kept(game).filter(function (press) {
        return press.sequence >= data.sequence;
      }),
      offline: false,
      flagSent: false,
    };
    clock.pending.forEach(function (press) {
      clock.events.push([press.action, press.at, press.player]);
    });
    current = clock;
    if (timer) clearInterval(timer);
    timer = setInterval(function () {
      show(clock);
    }, 250);
    show(clock);
    send(clock);
  }

  function now(clock) {
    return clock.offset + Date.now();
  }

  function show(clock) {
    var state = stateAt(clock.data, clock.events, now(clock));
    var section = clock.section;
    section.querySelectorAll(".clock-side").forEach(function (button) {
      var player = Number(button.dataset.player);
      button.querySelector(".clock-time").textContent = shown(state.left[player]);
      button.classList.toggle("running", state.running === player);
      button.classList.toggle("flag", state.flag === player);
      button.setAttribute("aria-pressed", state.running === player ? "true" : "false");
      button.disabled = state.stopped || state.paused || state.toMove !== player;
    });
    var pause = document.getElementById("clock-pause");
    pause.textContent = state.paused ? pause.dataset.resume : pause.dataset.pause;
    pause.disabled = state.stopped;
    var status = document.getElementById("clock-status");
    var text = "";
    if (state.flag !== null && clock.data.flag_ends) {
      text = status.dataset.flag.replace("%(name)s", clock.data.names[state.flag]);
    } else if (clock.offline) {
      text = status.dataset.offline;
    } else if (state.paused) {
      text = status.dataset.paused;
    }
    if (status.textContent !== text) status.textContent = text;
    var frame = document.getElementById("board-frame");
    var turn = document.getElementById("clock-turn-board");
    if (frame && turn) frame.classList.toggle("turned", turn.checked && state.toMove === 1);
    if (state.flag !== null && clock.data.flag_ends && state.stopped && !clock.flagSent) {
      clock.flagSent = true;
      post(clock, { action: "flag" }).then(function (answer) {
        if (answer && answer.ok && answer.json.flag_recorded) {
          window.location.reload(); // the board shows the flag fall and the result
          return;
        }
        // The server's clock has the last word: take it, and ask again in a while.
        if (answer && answer.json) resync(clock, answer.ok ? answer.json : answer.json.clock);
        setTimeout(function () {
          clock.flagSent = false;
        }, 3000);
      });
    }
    return state;
  }

  function press(clock, action, player) {
    var state = show(clock);
    if (state.stopped) return;
    if (action === "switch" && state.running !== player) return;
    var entry = {
      action: action,
      player: player === null ? "" : player,
      sequence: clock.events.length,
      at: Math.max(0, Math.round(now(clock))),
    };
    clock.events.push([action, entry.at, player]);
    clock.pending.push(entry);
    keep(clock.game, clock.pending);
    show(clock);
    send(clock);
  }

  function post(clock, fields) {
    var body = new URLSearchParams();
    Object.keys(fields).forEach(function (name) {
      body.append(name, fields[name]);
    });
    return fetch(clock.url, {
      method: "POST",
      headers: { Accept: "application/json", "X-CSRFToken": csrf() },
      body: body,
      credentials: "same-origin",
    }).then(
      function (response) {
        return response.json().then(function (json) {
          return { ok: response.ok, status: response.status, json: json };
        });
      },
      function () {
        return null; // no connection
      }
    );
  }

  function resync(clock, server) {
    if (!server || !server.started) return;
    clock.data = server;
    clock.offset = server.now - Date.now();
    clock.events = server.events.slice();
    clock.pending.forEach(function (press) {
      clock.events.push([press.action, press.at, press.player]);
    });
  }

  function send(clock) {
    if (clock.sending || !clock.pending.length) return;
    var entry = clock.pending[0];
    clock.sending = true;
    var fields = Object.assign({}, entry, { queued: clock.offline || entry.queued ? "1" : "" });
    post(clock, fields).then(function (answer) {
      clock.sending = false;
      if (current !== clock) return;
      if (answer === null) {
        clock.offline = true;
        entry.queued = true;
        keep(clock.game, clock.pending);
        setTimeout(function () {
          send(clock);
        }, 3000);
        show(clock);
        return;
      }
      clock.offline = false;
      clock.pending.shift();
      var server = answer.ok ? answer.json : answer.json.clock;
      if (!answer.ok) {
        clock.pending = []; // the server's clock is the clock: what it refused is gone
        var status = document.getElementById("clock-status");
        if (status && answer.json.error) status.textContent = answer.json.error;
      }
      keep(clock.game, clock.pending);
      resync(clock, server);
      show(clock);
      send(clock);
    });
  }

  document.addEventListener("click", function (event) {
    var clock = current;
    if (!clock || !document.body.contains(clock.section)) return;
    var side = event.target.closest(".clock-side");
    if (side) {
      press(clock, "switch", Number(side.dataset.player));
      return;
    }
    if (event.target.closest("#clock-pause")) {
      var state = stateAt(clock.data, clock.events, now(clock));
      press(clock, state.paused ? "resume" : "pause", null);
    }
  });

  document.addEventListener("change", function (event) {
    if (event.target.id === "clock-turn-board") {
      localStorage.setItem("bordpunt-clock-turn", event.target.checked ? "1" : "");
      if (current) show(current);
    }
  });

  document.addEventListener("submit", function (event) {
    if (event.target.id !== "clock-start-form") return;
    event.preventDefault();
    var form = event.target;
    // getAttribute: the form's field named "action" shadows the form's action property.
    fetch(form.getAttribute("action"), {
      method: "POST",
      headers: { Accept: "application/json", "X-CSRFToken": csrf() },
      body: new URLSearchParams(new FormData(form)),
      credentials: "same-origin",
    }).then(function () {
      window.location.reload();
    });
  });

  function init() {
    var section = document.getElementById("clock");
    var turn = document.getElementById("clock-turn-board");
    if (turn) turn.checked = localStorage.getItem("bordpunt-clock-turn") === "1";
    if (section && (!current || current.section !== section)) start(section);
    if (!section && timer) {
      clearInterval(timer);
      timer = null;
      current = null;
    }
  }

  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:load", init);
  window.addEventListener("online", function () {
    if (current) send(current);
  });
})();
