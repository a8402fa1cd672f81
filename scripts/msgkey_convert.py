#!/usr/bin/env python3
"""Rewrites message keys written as text into typed keys (issue 20 item 2).

Run from the repository root, after merging a branch that adds code with
string keys:

    python3 scripts/msgkey_convert.py            # rewrite in place
    python3 scripts/msgkey_convert.py --check    # list what it would change, exit 1 if anything

Rules (deliberately simple; idempotent, a second run changes nothing):

1. In every tracked `*.rs` file (except build scripts), every plain string
   literal, outside comments, whose whole text is a key of `[messages]` in
   `locales/en.toml` becomes `MsgKey::Variant`: `"voice.not_built"` ->
   `MsgKey::VoiceNotBuilt` (each `.`- or `_`-separated part capitalized and
   joined, as `crates/annabella-core/build.rs` names the variants). This
   covers `message("a.b", ..)`, `msg(vocab, "a.b", ..)`, match arms and
   table rows alike.
2. A literal whose whole text is a plural stem (a key prefix with a message
   for each of zero, one, two, few, many and other: `"time.minutes"`)
   becomes `PluralStem::TimeMinutes`.
3. A file that now names `MsgKey::` or `PluralStem::` and does not import
   them gets `use crate::locale::{MsgKey, PluralStem};` (only the ones it
   uses; `annabella::locale` in tests/, examples/ and benches/): inside
   `mod tests {` when every use is there, else before the file's first
   top-level `use crate::` (`use annabella::`) or else first `use`, else after its leading `//!` and `#![..]` lines.

What it cannot convert (the compiler then points at each):
- keys built at run time (`format!("help.{name}")`, `concat!`), and text
  that is not exactly a key (a prefix such as `"ui.cmd."`);
- the types around a converted literal: a helper `fn msg(.., key: &str)`,
  a function returning `&'static str`, a `[(&str, &str)]` table, a
  comparison with text: change them to `MsgKey` by hand;
- raw strings (`r"..."`) and literals with escapes, which are never keys.
"""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

CATEGORIES = ["zero", "one", "two", "few", "many", "other"]


def variant(key: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[._]", key) if p)


def load_keys(root: Path):
    with open(root / "locales" / "en.toml", "rb") as f:
        messages = tomllib.load(f)["messages"]
    keys = {k: variant(k) for k in messages}
    names = {}
    for k, v in keys.items():
        if v in names:
            sys.exit(f"locales/en.toml: keys {names[v]!r} and {k!r} both make MsgKey::{v}; rename one")
        names[v] = k
    stems = {}
    for k in messages:
        if k.endswith(".other"):
            stem = k[: -len(".other")]
            if all(f"{stem}.{c}" in messages for c in CATEGORIES):
                stems[stem] = variant(stem)
    return keys, stems


def literals(src: str):
    """Yields (start, end, text) of each plain string literal outside
    comments; skips raw strings, byte strings, char literals, lifetimes."""
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r"r#*\"", src[i:]) and not _ident_before(src, i):
            m = re.match(r"r(#*)\"", src[i:])
            close = '"' + m.group(1)
            j = src.find(close, i + len(m.group(0)))
            i = n if j < 0 else j + len(close)
        elif c == "b" and src.startswith('b"', i) and not _ident_before(src, i):
            i = _skip_string(src, i + 1)[0]
        elif c == '"':
            end, has_escape = _skip_string(src, i)
            if not has_escape:
                yield i, end, src[i + 1 : end - 1]
            i = end
        elif c == "'":
            if src.startswith("'\\", i):
                j = i + 2
                while j < n and src[j] != "'":
                    j += 1
                i = j + 1
            elif i + 2 < n and src[i + 2] == "'":
                i += 3
            else:
                # a lifetime, or a char outside the BMP-safe case: move on
                m = re.match(r"'(.)'", src[i:], re.S)
                i += len(m.group(0)) if m else 1
        else:
            i += 1


def _ident_before(src: str, i: int) -> bool:
    return i > 0 and (src[i - 1].isalnum() or src[i - 1] == "_")


def _skip_string(src: str, i: int):
    """From the opening quote at i: (index after the closing quote, whether
    the literal has an escape)."""
    j, esc = i + 1, False
    while j < len(src):
        if src[j] == "\\":
            esc = True
            j += 2
        elif src[j] == '"':
            return j + 1, esc
        else:
            j += 1
    return len(src), esc


def convert(src: str, keys, stems):
    out, last, count = [], 0, 0
    for start, end, text in literals(src):
        if text in keys:
            new = f"MsgKey::{keys[text]}"
        elif text in stems:
            new = f"PluralStem::{stems[text]}"
        else:
            continue
        out.append(src[last:start])
        out.append(new)
        last = end
        count += 1
    out.append(src[last:])
    return "".join(out), count


def imported(src: str, name: str) -> bool:
    for m in re.finditer(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s[^;]*;", src, re.M):
        if re.search(rf"\b{name}\b", m.group(0)):
            return True
    # defined here (locale.rs includes the generated file)
    return "message_keys.rs" in src or bool(re.search(rf"\b(?:enum|struct|type)\s+{name}\b", src))


def add_imports(src: str, path: str, names):
    if not names:
        return src
    parts = path.split("/")
    outside = any(p in ("tests", "examples", "benches") for p in parts[:-1])
    if not outside:
        base = "crate"
    elif parts[0] == "crates":
        base = parts[1].replace("-", "_")
    else:
        base = "annabella"
    items = names[0] if len(names) == 1 else "{" + ", ".join(names) + "}"
    lines = src.split("\n")
    uses = [i for i, l in enumerate(lines) if re.search(r"(?<![\w:])(MsgKey|PluralStem)::", l)]
    tests = next((i for i, l in enumerate(lines) if re.match(r"^\s*mod tests \{\s*$", l)), None)
    if tests is not None and uses and min(uses) > tests:
        indent = re.match(r"^(\s*)", lines[tests]).group(1) + "    "
        lines.insert(tests + 1, f"{indent}use {base}::locale::{items};")
        return "\n".join(lines)
    first_use = next(
        (i for i, l in enumerate(lines) if l.startswith(f"use {base}::")),
        next((i for i, l in enumerate(lines) if l.startswith("use ")), None),
    )
    if first_use is not None:
        lines.insert(first_use, f"use {base}::locale::{items};")
        return "\n".join(lines)
    at = 0
    for i, l in enumerate(lines):
        if l.startswith("//!") or l.startswith("#![") or (l.strip() == "" and i == at):
            at = i + 1
        else:
            break
    lines[at:at] = ["", f"use {base}::locale::{items};", ""]
    return "\n".join(lines)


def main():
    check = "--check" in sys.argv[1:]
    root = Path(
        subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()
    )
    keys, stems = load_keys(root)
    files = subprocess.check_output(["git", "ls-files", "*.rs"], cwd=root, text=True).split()
    changed = 0
    for path in files:
        if path.endswith("build.rs"):
            continue
        full = root / path
        if not full.exists():
            continue
        src = full.read_text()
        new, count = convert(src, keys, stems)
        # Only unqualified uses need the import (not `locale::MsgKey::ALL`).
        need = [
            n
            for n in ("MsgKey", "PluralStem")
            if re.search(rf"(?<![\w:]){n}::", new) and not imported(new, n)
        ]
        new = add_imports(new, path, need)
        if new != src:
            changed += 1
            print(f"{path}: {count} literal(s){', import ' + ', '.join(need) if need else ''}")
            if not check:
                full.write_text(new)
    print(f"{changed} file(s) {'would change' if check else 'changed'}")
    if check and changed:
        sys.exit(1)


if __name__ == "__main__":
    main()
