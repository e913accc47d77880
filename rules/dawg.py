"""A word list as a minimal DAWG in three flat integer arrays, for move generation.

Pure Python: this module imports nothing from Django. The move generator
(:mod:`rules.movegen`) walks words letter by letter from the start; the marisa trie that
:class:`rules.lexicon.Lexicon` uses answers ``word in lexicon`` fast but has no cheap
"which letters may follow this prefix". A DAWG (directed acyclic word graph: the trie
of the words with equal suffix subtrees merged, Daciuk et al. 2000) answers exactly
that, and merging keeps it small: the Gouds 8 list (349k words) has about 100k nodes.

Encoding (no Python object per node, so it loads in milliseconds and adds a few MB):

* ``masks[n]``: bits 0..25 say which letters ``A``..``Z`` follow node ``n``; bit 26
  says the path to ``n`` spells a word (:data:`TERMINAL`).
* ``bases[n]``: where the children of ``n`` start in ``targets``.
* ``targets[bases[n] + rank]``: the child reached by the letter whose bit has ``rank``
  lower set bits in ``masks[n]``, i.e.
  ``targets[bases[n] + (masks[n] & ((1 << letter) - 1)).bit_count()]``.

* ``heights[n]``: the most letters a word can still take after node ``n`` (0 at a
  leaf), for the move generator's top search; made by :func:`build` while it minimises
  (every child is final before its parent), so no process walks the graph for it.

Node 0 is the root. The file (``<kind>.dawg`` beside ``<kind>.marisa``) is a header
line, then the three arrays as little-endian ``uint32`` and the heights as bytes,
compressed with zlib; :func:`build` writes it from the same sorted words as the marisa
file, so the two can never disagree, and a test checks that they hold the same words.
A file of the first format (no heights: a club's own list built by an older version)
still opens; its heights are then worked out once, on first use.
"""

from __future__ import annotations

import functools
import sys
import zlib
from array import array
from collections.abc import Iterable, Iterator
from pathlib import Path

__all__ = ["ALL_LETTERS", "MAGIC", "SUFFIX", "TERMINAL", "Dawg", "build"]

#: The bit that marks a node where a word ends.
TERMINAL = 1 << 26
#: Bits of all 26 letters.
ALL_LETTERS = TERMINAL - 1
MAGIC = b"bordpunt-dawg 2\n"
#: The first format, without the heights.
_MAGIC_1 = b"bordpunt-dawg 1\n"
SUFFIX = ".dawg"


class Dawg:
    """A read-only minimal DAWG over ``A``-``Z`` (see the module docstring)."""

    __slots__ = ("_heights", "bases", "masks", "name", "targets")

    def __init__(
        self,
        masks: array[int],
        bases: array[int],
        targets: array[int],
        name: str = "",
        heights: array[int] | None = None,
    ):
        self.masks = masks
        self.bases = bases
        self.targets = targets
        self.name = name
        self._heights = heights

    def heights(self) -> array[int]:
        """Per node, the most letters a word can still take after it (0 at a leaf).

        The top search (:mod:`rules.movegen`) bounds a play with it: a prefix that no
        word extends by ``n`` letters cannot empty a rack of ``n``. Stored in the file;
        worked out here only for a file of the first format (once per DAWG).
        """
        if self._heights is None:
            masks, bases, targets = self.masks, self.bases, self.targets
            heights = array("B", [0]) * len(masks)
            done = bytearray(len(masks))
            stack = [0]
            while stack:
                node = stack[-1]
                if done[node]:
                    stack.pop()
                    continue
                base = bases[node]
                kids = targets[base : base + (masks[node] & ALL_LETTERS).bit_count()]
                pending = [kid for kid in kids if not done[kid]]
                if pending:
                    stack.extend(pending)
                    continue
                heights[node] = 1 + max(heights[kid] for kid in kids) if kids else 0
                done[node] = 1
                stack.pop()
            self._heights = heights
        return self._heights

    def __repr__(self) -> str:
        return f"<Dawg {self.name or '(unnamed)'}: {len(self.masks)} nodes>"

    # -- queries --------------------------------------------------------------------

    def child(self, node: int, letter: int) -> int:
        """The node after ``letter`` (0..25) from ``node``, or -1."""
        mask = self.masks[node]
        bit = 1 << letter
        if not mask & bit:
            return -1
        return self.targets[self.bases[node] + (mask & (bit - 1)).bit_count()]

    def walk(self, word: str, node: int = 0) -> int:
        """The node reached by spelling ``word`` (uppercase) from ``node``, or -1."""
        masks, bases, targets = self.masks, self.bases, self.targets
        for ch in word:
            mask = masks[node]
            bit = 1 << (ord(ch) - 65)
            if not mask & bit:
                return -1
            node = targets[bases[node] + (mask & (bit - 1)).bit_count()]
        return node

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word.isascii() or not word.isupper():
            return False
        node = self.walk(word)
        return node >= 0 and bool(self.masks[node] & TERMINAL)

    def __iter__(self) -> Iterator[str]:
        """Every word, in alphabetical order."""
        masks, bases, targets = self.masks, self.bases, self.targets
        stack: list[tuple[int, str]] = [(0, "")]
        while stack:
            node, prefix = stack.pop()
            mask = masks[node]
            if mask & TERMINAL and prefix:
                yield prefix
            base = bases[node]
            children = [(65 + i, r) for r, i in enumerate(_bits(mask & ALL_LETTERS))]
            for ch, rank in reversed(children):
                stack.append((targets[base + rank], prefix + chr(ch)))

    # -- files ----------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        parts = []
        for arr in (self.masks, self.bases, self.targets):
            out = array("I", arr)
            if sys.byteorder != "little":
                out.byteswap()
            parts.append(out.tobytes())
        parts.append(array("B", self.heights()).tobytes())
        header = MAGIC + f"{len(self.masks)} {len(self.targets)}\n".encode()
        return header + zlib.compress(b"".join(parts), 9)

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "") -> Dawg:
        if data.startswith(MAGIC):
            with_heights = True
        elif data.startswith(_MAGIC_1):
            with_heights = False
        else:
            raise ValueError("not a Bordpunt DAWG file")
        end = data.index(b"\n", len(MAGIC))
        n_nodes, n_targets = (int(x) for x in data[len(MAGIC) : end].split())
        raw = zlib.decompress(data[end + 1 :])
        if len(raw) != 4 * (2 * n_nodes + n_targets) + (n_nodes if with_heights else 0):
            raise ValueError("DAWG file is truncated")
        arrays = []
        offset = 0
        for count in (n_nodes, n_nodes, n_targets):
            arr = array("I")
            arr.frombytes(raw[offset : offset + 4 * count])
            if sys.byteorder != "little":
                arr.byteswap()
            arrays.append(arr)
            offset += 4 * count
        heights = array("B", raw[offset:]) if with_heights else None
        return cls(arrays[0], arrays[1], arrays[2], name=name, heights=heights)

    def save(self, path: str | Path) -> None:
        Path(path).write_bytes(self.to_bytes())

    @classmethod
    def open(cls, path: str | Path) -> Dawg:
        path = Path(path)
        return cls.from_bytes(path.read_bytes(), name=path.stem)

    @classmethod
    def default(cls, kind: str) -> Dawg:
        """The shipped DAWG for a lexicon kind (``gouds8``, ``standard``); loaded once."""
        from rules.lexicon import _check_kind

        _check_kind(kind)
        return _load_default(kind)

    @classmethod
    def from_words(cls, words: Iterable[str], name: str = "") -> Dawg:
        return build(words, name=name)


@functools.cache
def _load_default(kind: str) -> Dawg:
    from rules.lexicon import DATA_DIR

    return Dawg.open(DATA_DIR / f"{kind}{SUFFIX}")


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Node:
    __slots__ = ("children", "final", "height", "number")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.final = False
        self.number = -1
        self.height = 0


def build(words: Iterable[str], name: str = "") -> Dawg:
    """A minimal DAWG of ``words`` (uppercase ``A``-``Z``; duplicates are ignored).

    Daciuk's incremental construction over the sorted words: after each word, the
    part of the previous word's path that the new word does not share is replaced
    node by node with an equal node already registered, if there is one.
    """
    root = _Node()
    register: dict[tuple[object, ...], _Node] = {}
    # (parent, letter, child) along the last word's path, not yet minimised.
    unchecked: list[tuple[_Node, int, _Node]] = []
    counter = 0

    def minimise(down_to: int) -> None:
        nonlocal counter
        while len(unchecked) > down_to:
            parent, letter, child = unchecked.pop()
            if child.children:
                child.height = 1 + max(c.height for c in child.children.values())
            key = (child.final, *((k, c.number) for k, c in child.children.items()))
            found = register.get(key)
            if found is not None:
                parent.children[letter] = found
            else:
                child.number = counter
                counter += 1
                register[key] = child

    previous = ""
    for word in sorted(set(words)):
        if not word or not word.isascii() or not word.isalpha() or not word.isupper():
            raise ValueError(f"not an uppercase A-Z word: {word!r}")
        common = 0
        for a, b in zip(word, previous, strict=False):
            if a != b:
                break
            common += 1
        minimise(common)
        node = unchecked[-1][2] if unchecked else root
        for ch in word[common:]:
            child = _Node()
            node.children[ord(ch) - 65] = child
            unchecked.append((node, ord(ch) - 65, child))
            node = child
        node.final = True
        previous = word
    minimise(0)
    if root.children:
        root.height = 1 + max(c.height for c in root.children.values())

    # Number the nodes root first, breadth first, and lay out their children.
    masks = array("I")
    bases = array("I")
    targets = array("I")
    heights = array("B")
    order: dict[int, int] = {id(root): 0}
    queue = [root]
    head = 0
    while head < len(queue):
        node = queue[head]
        head += 1
        mask = TERMINAL if node.final else 0
        for letter in node.children:
            mask |= 1 << letter
        masks.append(mask)
        bases.append(len(targets))
        heights.append(node.height)
        for letter in sorted(node.children):
            child = node.children[letter]
            number = order.get(id(child))
            if number is None:
                number = len(queue)
                order[id(child)] = number
                queue.append(child)
            targets.append(number)
    return Dawg(masks, bases, targets, name=name, heights=heights)
