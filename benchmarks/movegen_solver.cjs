// The external solver's side of benchmarks/movegen.py: times scrabble-solver (npm, pinned
// there) on the same positions and racks as our engine, in a node process of its own.
//
// Run by benchmarks/movegen.py, not by hand: `node movegen_solver.cjs <solver dir> <input>`.
// <solver dir> is the unpacked tarball's `package` folder (its node_modules links made by
// the benchmark's setup). <input> is JSON: {"configs": {kind: config}, "word_lists": {kind:
// file of words, one a line}, "repeats": n, "positions": [{"rules": kind, "board": [15 rows,
// "." empty, a letter a tile, lowercase a blank], "rack": "ABC?"}]}. Prints JSON on stdout,
// a row per position: after a warm-up, the best of n runs of "all plays" and of "best
// play" in seconds (the solver has only "all plays": best is the highest score over
// them), the number of plays, the top score, and a digest of the plays (each "score:"
// then the new tiles as row, column and letter, the key benchmarks/movegen.py makes of
// ours).
"use strict";

const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const [solverDir, inputPath] = process.argv.slice(2);
const packages = path.join(solverDir, "packages");
const { solve } = require(path.join(packages, "solver", "build"));
const { buildGaddag } = require(path.join(packages, "gaddag", "build"));
const { Board, Cell, Config, Tile } = require(path.join(packages, "types", "build"));
const { BLANK, EMPTY_CELL } = require(path.join(packages, "constants", "build"));

const input = JSON.parse(fs.readFileSync(inputPath, "utf8"));
const configs = {};
const gaddags = {};
for (const [kind, config] of Object.entries(input.configs)) {
  configs[kind] = new Config(config);
  const words = fs.readFileSync(input.word_lists[kind], "utf8").split("\n").filter(Boolean);
  gaddags[kind] = buildGaddag(words);
}

function board(rows) {
  return new Board({
    rows: rows.map((row, y) =>
      [...row].map((ch, x) => {
        if (ch === ".") {
          return new Cell({ isEmpty: true, tile: Tile.Null, x, y });
        }
        const isBlank = ch === ch.toLowerCase();
        return new Cell({ isEmpty: false, tile: new Tile({ character: ch.toLowerCase(), isBlank }), x, y });
      }),
    ),
  });
}

function rack(text) {
  return [...text].map((ch) =>
    ch === "?" ? new Tile({ character: BLANK, isBlank: true }) : new Tile({ character: ch.toLowerCase() }),
  );
}

// "score:" then (row, column, letter) of each new tile, in board order: lowercase = blank.
function key(result, rows) {
  let x = result.x;
  let y = result.y;
  let out = `${result.points}:`;
  result.tiles.forEach((character, index) => {
    while (rows[y][x] !== ".") {
      result.isHorizontal ? ++x : ++y;
    }
    const letter = result.blankIndices.includes(index) ? character : character.toUpperCase();
    out += `${String(y).padStart(2, "0")}${String(x).padStart(2, "0")}${letter}`;
    result.isHorizontal ? ++x : ++y;
  });
  return out;
}

function best(results) {
  let top = null;
  for (const result of results) {
    if (top === null || result.points > top.points) {
      top = result;
    }
  }
  return top;
}

const out = [];
for (const position of input.positions) {
  const gaddag = gaddags[position.rules];
  const config = configs[position.rules];
  const args = () => [gaddag, config, board(position.board), rack(position.rack)];
  solve(...args()); // warm-up
  let all = Infinity;
  let bestTime = Infinity;
  let results = [];
  for (let run = 0; run < input.repeats; ++run) {
    let call = args();
    let start = process.hrtime.bigint();
    results = solve(...call);
    all = Math.min(all, Number(process.hrtime.bigint() - start) / 1e9);
    call = args();
    start = process.hrtime.bigint();
    best(solve(...call));
    bestTime = Math.min(bestTime, Number(process.hrtime.bigint() - start) / 1e9);
  }
  const keys = results.map((result) => key(result, position.board)).sort();
  out.push({
    all,
    best: bestTime,
    count: results.length,
    top: results.length ? best(results).points : null,
    digest: crypto.createHash("sha1").update(keys.join("\n")).digest("hex"),
  });
}
process.stdout.write(JSON.stringify(out));
