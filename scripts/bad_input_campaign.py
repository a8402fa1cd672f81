#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Bad-input campaign: runs the release binary thousands of times on hostile
and clumsy input and classifies what comes back.

    scripts/bad_input_campaign.py                  # every category, ~5,500 runs
    scripts/bad_input_campaign.py --only parse,pgn --scale 0.2
    scripts/bad_input_campaign.py --binary target/release/annabella --jobs 2
    scripts/bad_input_campaign.py --list           # the categories
    scripts/bad_input_campaign.py --report out.jsonl   # every failure, reproducible

Python 3 standard library only. Each run has a timeout (a hang is a failure).
A run is classified as the first that applies of:

  panic    exit status >= 101, killed by a signal, or "panicked" on stderr
  hang     no exit within the timeout
  debug    Rust debug text in the output: \\u{..}, Some(, Err(, Ok(, names of
           internal types (RawWord, untagged enum), a {placeholder} of the
           locale messages left unfilled, or a raw message key
           (parse.not_understood) -- unless the input itself contained it
  english  a run in a non-English locale whose output holds English: a
           fragment (three words or more) of an English message of
           locales/en.toml that the locale's own messages do not contain, or
           known English library text ("illegal san", "os error")
  ok       everything else (exit 0 or 1 with a clear line)

Adding a category: write a generator `def gen_NAME(ctx, rng, n)` that yields
`Case` objects and register it with `@category("NAME", runs)`. `ctx` gives
the binary, a scratch folder (`ctx.tmp`), the locale data and the shared PGN
games; put the files a case needs under `ctx.tmp` (see `gen_pgn`). A case may
give `check` (a function of the finished `Outcome` returning a failure kind
and detail, or None) for category-specific failures, e.g. a journal that can
no longer be opened.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ["fide", "en", "de", "pl", "he", "ar", "el", "ko"]
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
PROMO_FEN = "8/2P5/8/8/8/8/p7/k6K w - - 0 1"
KINDS = ["panic", "hang", "debug", "english", "ok"]


# --------------------------------------------------------------------------
# Cases and outcomes


@dataclasses.dataclass
class Case:
    """One run of the binary."""

    args: list  # str or bytes items
    stdin: bytes = b""
    locale: str | None = None  # the locale the output should be in
    timeout: float | None = None
    note: str = ""  # what the case tries, for the report
    check: Callable[["Outcome"], tuple[str, str] | None] | None = None
    cwd: str | None = None


@dataclasses.dataclass
class Outcome:
    case: Case
    category: str
    code: int | None
    stdout: bytes
    stderr: bytes
    seconds: float
    kind: str = "ok"
    detail: str = ""


# --------------------------------------------------------------------------
# Context: the locale data the heuristics need


class Context:
    def __init__(self, binary: Path, tmp: Path, pgn_dir: Path):
        self.binary = binary
        self.tmp = tmp
        self.pgn_dir = pgn_dir
        self.pgn_files = sorted(pgn_dir.glob("*.pgn")) if pgn_dir.is_dir() else []
        self.pgn_texts = [p.read_bytes() for p in self.pgn_files]
        self.locale_texts = {}
        self.locales = {}
        for code in LOCALES:
            path = ROOT / "locales" / f"{code}.toml"
            text = path.read_text(encoding="utf-8")
            self.locale_texts[code] = text
            self.locales[code] = tomllib.loads(text)
        self.en_messages = self.locales["en"].get("messages", {})
        self.keys = set(self.en_messages)
        self.placeholders = set()
        for text in self.en_messages.values():
            self.placeholders.update(re.findall(r"\{([a-z_]+)\}", text))
        self.own_messages = {code: self._messages_of(code) for code in LOCALES}
        self.english_fragments = {
            code: self._english_fragments(code) for code in LOCALES if code != "en"
        }
        self.words = {code: self._words_of(code) for code in LOCALES}
        self.counter = 0
        self.data_per_run = True

    def _messages_of(self, code: str) -> str:
        """All message text of a locale, its fallback chain included."""
        texts = []
        seen = set()
        while code and code not in seen:
            seen.add(code)
            data = self.locales.get(code, {})
            texts.extend(data.get("messages", {}).values())
            code = data.get("meta", {}).get("fallback")
        return "\n".join(texts)

    def _english_fragments(self, code: str) -> list[str]:
        own = self.own_messages[code]
        out = set()
        for text in self.en_messages.values():
            for frag in re.split(r"\{[a-z_]+\}", text):
                frag = frag.strip(" .,;:!?'\"()-")
                if len(frag.split()) >= 3 and len(frag) >= 12 and frag not in own:
                    out.add(frag)
        return sorted(out, key=len, reverse=True)

    def _words_of(self, code: str) -> list[str]:
        """Every accepted spelling of the locale's move words."""
        data = self.locales[code]
        out = []

        def add(w):
            if isinstance(w, str):
                out.append(w)
            elif isinstance(w, dict):
                for k in ("display", "spoken"):
                    if isinstance(w.get(k), str):
                        out.append(w[k])
                out.extend(x for x in w.get("accept", []) if isinstance(x, str))

        for section in ("files", "ranks", "pieces", "words"):
            for v in data.get(section, {}).values():
                if isinstance(v, list):
                    out.extend(x for x in v if isinstance(x, str))
                else:
                    add(v)
        for v in data.get("notation", {}).values():
            if isinstance(v, str):
                out.append(v)
            elif isinstance(v, list):
                out.extend(v)
        return out or ["e4"]

    def scratch(self, suffix: str, data: bytes) -> str:
        """A new file under the scratch folder."""
        self.counter += 1
        path = self.tmp / f"f{self.counter}{suffix}"
        path.write_bytes(data)
        return str(path)


# --------------------------------------------------------------------------
# Hostile text


def rand_unicode(rng: random.Random, n: int) -> str:
    pools = [
        (0x20, 0x7E),
        (0xA0, 0x24F),
        (0x300, 0x36F),  # combining marks
        (0x370, 0x3FF),
        (0x590, 0x5FF),
        (0x600, 0x6FF),
        (0x2000, 0x206F),  # spaces, direction marks
        (0xAC00, 0xD7A3),
        (0x1F300, 0x1F64F),
        (0x1, 0x1F),  # control characters
    ]
    out = []
    for _ in range(n):
        lo, hi = rng.choice(pools)
        c = rng.randint(lo, hi)
        out.append(chr(c))
    return "".join(out).replace("\x00", "")


def hostile_phrase(ctx: Context, rng: random.Random, locale: str) -> str | bytes:
    """A move phrase a clumsy or hostile user might type."""
    other = rng.choice(LOCALES)
    words = ctx.words[locale]
    pick = rng.randrange(14)
    if pick == 0:
        return rng.choice(["e4", "Nf3", "ab", "מה", "e4x", "Ζ"]) * rng.choice(
            [1000, 5000, 17000, 40000]
        )
    if pick == 1:
        return "מה" * rng.randint(10, 40) + rng.choice(["§", "x", "?", ""])
    if pick == 2:
        return ""
    if pick == 3:
        return rand_unicode(rng, rng.randint(1, 80))
    if pick == 4:
        return " ".join(rng.choice(ctx.words[other]) for _ in range(rng.randint(1, 6)))
    if pick == 5:
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
    if pick == 6:
        return "".join(rng.choice(words) for _ in range(rng.randint(2, 30)))
    if pick == 7:
        return rng.choice(["c7c8b", "a2b1b", "c7c8n", "c7c8q", "c7c8r", "C7C8B", "c7-c8b"])
    if pick == 8:
        return "".join(chr(rng.randint(1, 31)) for _ in range(rng.randint(1, 20)))
    if pick == 9:
        return " ".join(rng.choice(words) for _ in range(rng.randint(200, 2000)))
    if pick == 10:
        return rng.choice(["{example}", "{words}", "%s", "\\u{30c}", "Some(x)", "parse.empty"])
    if pick == 11:
        return bytes(rng.randrange(1, 256) for _ in range(rng.randint(1, 40)))
    if pick == 12:
        return rng.choice(["O-O", "O-0", "0-0-0", "o-o", "e8=Q", "exd5", "Nbd7", "Kxe1", "--"])
    return rng.choice(words) + rand_unicode(rng, rng.randint(1, 5))


def as_bytes(x: str | bytes) -> bytes:
    return x if isinstance(x, bytes) else x.encode("utf-8", "surrogatepass")


def as_arg(x: str | bytes) -> str | bytes:
    b = as_bytes(x).replace(b"\x00", b"")
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b


# --------------------------------------------------------------------------
# Categories

CATEGORIES: dict[str, tuple[Callable[[Context, random.Random, int], Iterator[Case]], int]] = {}


def category(name: str, runs: int):
    def register(fn):
        CATEGORIES[name] = (fn, runs)
        return fn

    return register


@category("parse", 900)
def gen_parse(ctx, rng, n):
    for _ in range(n):
        loc = rng.choice(LOCALES)
        fen = rng.choice([None, None, PROMO_FEN, "8/8/8/8 w", rand_unicode(rng, 10)])
        args = ["parse", "--locale", loc]
        if fen is not None:
            args += ["--fen", fen]
        phrase = hostile_phrase(ctx, rng, loc)
        yield Case(args + ["--", as_arg(phrase)], locale=loc, note="phrase")


@category("parse-tsv", 500)
def gen_parse_tsv(ctx, rng, n):
    for _ in range(n):
        loc = rng.choice(LOCALES)
        lines = []
        for _ in range(rng.randint(1, 12)):
            kind = rng.randrange(6)
            phrase = as_bytes(hostile_phrase(ctx, rng, loc))
            if kind == 0:
                lines.append(b"")
            elif kind == 1:
                lines.append(phrase)
            elif kind == 2:
                lines.append(as_bytes(rand_unicode(rng, 20)) + b"\t" + phrase)
            else:
                lines.append(rng.choice([START_FEN, PROMO_FEN]).encode() + b"\t" + phrase)
        data = b"\n".join(lines)
        if rng.random() < 0.1:
            data = bytes(rng.randrange(256) for _ in range(rng.randint(1, 3000)))
        if rng.random() < 0.05:
            data = b"\0" * rng.choice([10_000, 2_000_000])
        if rng.random() < 0.5:
            data += b"\n"
        yield Case(["parse", "--tsv", "--locale", loc], stdin=data, locale=loc)


@category("announce", 400)
def gen_announce(ctx, rng, n):
    for _ in range(n):
        loc = rng.choice(LOCALES)
        moves = [as_arg(hostile_phrase(ctx, rng, loc)) for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.5:
            moves = ["e4", "e5"] + moves
        moves = [m if m else "x" for m in moves]
        extra = rng.choice([[], ["--style", "long"], ["--spoken"]])
        yield Case(["announce", "--locale", loc, *extra, "--", *moves], locale=loc)


def script_line(ctx, rng, loc) -> bytes:
    big = str(rng.choice([10**19, 2**64, 10**30, 99999999999, 3600000]))
    pick = rng.randrange(12)
    if pick == 0:
        return f"time {big}s{big}s".encode()
    if pick == 1:
        return f"time +{big}{rng.choice(['s', 'h', 'm', 'ms', ''])}".encode()
    if pick == 2:
        return f"arbiter: {rng.choice(['add', 'remove', 'set'])} {rng.choice(['white', 'black'])} {big}{rng.choice(['s', 'h', ''])}".encode()
    if pick == 3:
        return b"white board: " + as_bytes(hostile_phrase(ctx, rng, loc))
    if pick == 4:
        return b"announce: " + as_bytes(hostile_phrase(ctx, rng, loc))
    if pick == 5:
        return rng.choice([b"press", b"white board: e4", b"black board: e4", b"announce", b"repeat"])
    if pick == 6:
        return as_bytes(rand_unicode(rng, rng.randint(1, 60)))
    if pick == 7:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 60))).replace(b"\n", b"")
    if pick == 8:
        return f"time {rng.choice(['1:2:3:4', '-5', '1e400', 'nan', 'inf', '1.5.5', ':', '::', '99:99:99.9999', '1h1h', '0.0000001'])}".encode()
    if pick == 9:
        return f"sleep {rng.choice(['99999999999999999999', '-1', 'x', '10'])}".encode()
    if pick == 10:
        return b"white sheet: " + as_bytes(hostile_phrase(ctx, rng, loc))
    return b"e4" * rng.choice([100, 17000])


@category("play-script", 600)
def gen_play_script(ctx, rng, n):
    for _ in range(n):
        loc = rng.choice(LOCALES)
        journal = ctx.tmp / f"j{rng.randrange(10**9)}.jsonl"
        lines = [script_line(ctx, rng, loc) for _ in range(rng.randint(1, 8))]
        if rng.random() < 0.5:
            lines = [b"white board: e4", b"announce", b"press"] + lines
        yield Case(
            ["play", "--script", "-", "--locale", loc, "--journal", str(journal)],
            stdin=b"\n".join(lines) + b"\n",
            locale=loc,
        )


@category("plain", 500)
def gen_plain(ctx, rng, n):
    for _ in range(n):
        loc = rng.choice(LOCALES)
        lines = []
        for _ in range(rng.randint(1, 8)):
            pick = rng.randrange(5)
            if pick == 0:
                lines.append(as_bytes(hostile_phrase(ctx, rng, loc)))
            elif pick == 1:
                lines.append(rng.choice([b"e4", b"press", b"time", b"what e4", b"where", b"legal e2", b"sheet"]))
            elif pick == 2:
                lines.append(b"arbiter")
                lines.append(rng.choice([b"add white 99999999999999999999", b"add black 1e30", b"remove white 99999999999", b"add white -5"]))
            elif pick == 3:
                lines.append(bytes(rng.randrange(1, 256) for _ in range(rng.randint(1, 50))).replace(b"\n", b""))
            else:
                lines.append(b"e4" * 17000)
        lines += [b"quit", b"yes"]
        yield Case(
            ["--plain", "--silent", "-l", loc, "--control", rng.choice(["5m", "15m+10s"])],
            stdin=b"\n".join(lines) + b"\n",
            locale=loc,
        )


def mutate_pgn(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    pick = rng.randrange(11)
    if pick == 0 and data:
        return data[: rng.randrange(len(data))], "truncated"
    if pick == 1:
        b = bytearray(data)
        for _ in range(rng.randint(1, 20)):
            if b:
                b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b), "flipped bytes"
    if pick == 2:
        return data.decode("utf-8", "replace").encode(rng.choice(["utf-16", "utf-16-le", "utf-16-be"])), "utf-16"
    if pick == 3:
        return data * rng.choice([200, 2000]), "huge"
    if pick == 4:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 20000))), "binary"
    if pick == 5:
        return b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(256) for _ in range(3000)), "png"
    if pick == 6:
        typo = rng.choice([b"O-0", b"Nf9", b"e4x", b"Qxx", b"Kk1", b"exd", b"zz", b"e9", b"N@f3", b"e4!!!!?"])
        pos = [m.start() for m in re.finditer(rb" [a-hNBRQKO][^ ]*", data)]
        if pos:
            at = rng.choice(pos) + 1
            end = data.find(b" ", at)
            end = len(data) if end < 0 else end
            return data[:at] + typo + data[end:], f"typo {typo!r}"
        return data + b" " + typo, "typo"
    if pick == 7:
        return b"1. " + b"e4 " * rng.choice([10, 100000]), "many moves"
    if pick == 8:
        return b"[Event \"" + b"x" * rng.choice([1000, 1_000_000]) + b"\"]\n\n1. e4 *\n", "huge tag"
    if pick == 9:
        return b"1. e4 " + b"(" * rng.choice([100, 100000]) + b"e5 *", "deep variations"
    return b"{" * 5 + data + b"}", "comments"


@category("pgn", 800)
def gen_pgn(ctx, rng, n):
    for _ in range(n):
        loc = rng.choice(LOCALES)
        if not ctx.pgn_texts:
            return
        data, note = mutate_pgn(rng, rng.choice(ctx.pgn_texts))
        special = rng.random()
        if special < 0.01:
            path = "/dev/zero"
            note = "/dev/zero"
        elif special < 0.02:
            path = str(ctx.tmp)
            note = "a folder"
        else:
            path = ctx.scratch(".pgn", data)
        check = rng.choice([[], ["--check"]])
        yield Case(["replay", "--locale", loc, *check, path], locale=loc, note=note)


@category("play-from-pgn", 200)
def gen_play_from_pgn(ctx, rng, n):
    for _ in range(n):
        loc = rng.choice(LOCALES)
        data, note = mutate_pgn(rng, rng.choice(ctx.pgn_texts))
        path = ctx.scratch(".pgn", data)
        journal = ctx.tmp / f"j{rng.randrange(10**9)}.jsonl"
        yield Case(
            ["play", "--script", "-", "--locale", loc, "--from-pgn", path, "--journal", str(journal)],
            stdin=b"status\n",
            locale=loc,
            note=note,
        )


def mutate_toml(rng: random.Random, text: str) -> tuple[str, str]:
    lines = text.splitlines()
    pick = rng.randrange(12)
    if pick == 0:
        del lines[rng.randrange(len(lines))]
        return "\n".join(lines), "line deleted"
    if pick == 1:
        i = rng.randrange(len(lines))
        lines[i] = re.sub(r"= .*", rng.choice(["= 5", "= true", "= []", "= {}", '= { display = 3 }', '= ""', "= [1, 2]"]), lines[i])
        return "\n".join(lines), "wrong type"
    if pick == 2:
        return text[: rng.randrange(len(text))], "truncated"
    if pick == 3:
        b = bytearray(text.encode())
        for _ in range(rng.randint(1, 10)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return b.decode("utf-8", "replace"), "flipped bytes"
    if pick == 4:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
        return "\n".join(lines), "duplicated line"
    if pick == 5:
        return text.replace("{", "{x").replace("{xx", "{"), "placeholders renamed"
    if pick == 6:
        return re.sub(r'code = "[^"]*"', 'code = "en"', text).replace('"parse.', '"parsex.'), "code en, keys broken"
    if pick == 7:
        return re.sub(r"\n\[messages\][\s\S]*", "\n", re.sub(r'code = "[^"]*"', 'code = "en"', text)), "code en, no messages"
    if pick == 8:
        return text + "\n[nonsense]\nx = 1\n", "unknown table"
    if pick == 9:
        return text.replace("[files]", "[files]\ni = \"india\""), "ninth file"
    if pick == 10:
        return text + '\n[numbers]\n"1" = "' + "x" * 100000 + '"\n', "huge value"
    return rand_unicode(rng, 200), "garbage"


@category("locale-file", 600)
def gen_locale_file(ctx, rng, n):
    for _ in range(n):
        base = rng.choice(LOCALES)
        text, note = mutate_toml(rng, ctx.locale_texts[base])
        data = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.05:
            data = bytes(rng.randrange(256) for _ in range(2000))
            note = "binary"
        path = ctx.scratch(".toml", data)
        if rng.random() < 0.01:
            path, note = "/dev/zero", "/dev/zero"
        cmd = rng.choice([["parse", "--locale", path, "e4"], ["announce", "--locale", path, "e4", "e5"], ["replay", "--locale", path, str(ctx.pgn_files[0]) if ctx.pgn_files else "x.pgn"]])
        # The output language of a broken file is not checked (no locale).
        yield Case(cmd, locale=None, note=note)


@category("clock", 600)
def gen_clock(ctx, rng, n):
    cmds = ["press", "press white", "time", "time black", "moves", "turn", "pause", "resume", "help", "add white 2m", "take black 30s"]
    for _ in range(n):
        loc = rng.choice(LOCALES)
        lines = []
        for _ in range(rng.randint(1, 8)):
            pick = rng.randrange(7)
            if pick == 0:
                lines.append(rng.choice(cmds).encode())
            elif pick == 1:
                big = rng.choice(["10000000000000000000s10000000000000000000s", "99999999999999999999h", "1e30", "-5m", "1h1h", "5000h", "0s", "9" * 500])
                lines.append(f"{rng.choice(['add', 'take'])} {rng.choice(['white', 'black'])} {big}".encode())
            elif pick == 2:
                lines.append(as_bytes(rand_unicode(rng, rng.randint(1, 40))))
            elif pick == 3:
                lines.append(bytes(rng.randrange(1, 256) for _ in range(30)).replace(b"\n", b""))
            elif pick == 4:
                lines.append(b"time " * rng.choice([10, 20000]))
            elif pick == 5:
                lines.append(b"")
            else:
                lines.append(as_bytes(hostile_phrase(ctx, rng, loc)))
        lines.append(b"quit")
        yield Case(["clock", "--plain", "--locale", loc, "--control", "5m+3s"], stdin=b"\n".join(lines) + b"\n", locale=loc)


def hostile_control(rng: random.Random) -> str:
    pick = rng.randrange(8)
    if pick == 0:
        return rng.choice(["15m\u030c", "15m é", "1h\u200f30m", "90m/40+30m+30s\x07", "٩٠m", "15ｍ"])
    if pick == 1:
        return rng.choice(["9" * 30 + "h", "10000000000000000000s10000000000000000000s", "1000h", "101h", "90m/4294967296+30m"])
    if pick == 2:
        return "".join(rng.choice("0123456789hmsdb/+, ") for _ in range(rng.randint(0, 30)))
    if pick == 3:
        return rand_unicode(rng, rng.randint(1, 20))
    if pick == 4:
        return "1m/1+" * rng.choice([9, 5000]) + "1m"
    if pick == 5:
        return rng.choice(["", " ", "+", "/", "m", "90", "15x", "30m1h", "15m+10s+5s", "0m", "15m+2h"])
    if pick == 6:
        return "1" * rng.choice([100, 100000]) + "m"
    return rng.choice(["5m+3s", "90m/40+30m+30s", "3m d2s", "40/90m, 30m"])


@category("time-control", 600)
def gen_time_control(ctx, rng, n):
    for _ in range(n):
        loc = rng.choice(LOCALES)
        control = hostile_control(rng)
        pick = rng.randrange(4)
        if pick == 0:
            yield Case(["clock", "--plain", "--locale", loc, "--control", control], stdin=b"quit\n", locale=loc)
        elif pick == 1:
            journal = ctx.tmp / f"j{rng.randrange(10**9)}.jsonl"
            yield Case(["play", "--script", "-", "--locale", loc, "--control", control, "--journal", str(journal)], stdin=b"status\n", locale=loc)
        elif pick == 2:
            yield Case(["--plain", "--silent", "-l", loc, "--control", control], stdin=b"quit\nyes\n", locale=loc)
        else:
            every = hostile_control(rng).replace(",", "")
            warn = ",".join(hostile_control(rng).replace(",", "") for _ in range(rng.randint(1, 3)))
            yield Case(["clock", "--plain", "--locale", loc, "--control", "5m", "--every", every or "x", "--warn", warn or "x"], stdin=b"quit\n", locale=loc)


# --------------------------------------------------------------------------
# Classification

ENGLISH_LIBRARY = [
    "illegal san",
    "ambiguous san",
    "invalid fen",
    "invalid board",
    "os error",
    "stream did not contain valid UTF-8",
    "expected a number at position",
    "after the last period only an increment may follow",
    "untagged enum",
    "invalid type:",
    "missing field",
    "unknown field",
]
DEBUG_PATTERNS = [
    re.compile(r"\\u\{[0-9a-fA-F]+\}"),
    re.compile(r"\b(Some|Ok|Err)\("),
    re.compile(r"\bRaw[A-Z][A-Za-z]+\b"),
    re.compile(r"untagged enum"),
    re.compile(r"\bUserError\b"),
]


def classify(ctx: Context, o: Outcome) -> None:
    out = (o.stdout + b"\n" + o.stderr).decode("utf-8", "replace")
    given = " ".join(a if isinstance(a, str) else a.decode("utf-8", "replace") for a in o.case.args)
    given += "\n" + o.case.stdin.decode("utf-8", "replace")
    if o.code is None:
        o.kind, o.detail = "hang", f"no exit within {o.case.timeout}s"
        return
    if o.code < 0 or o.code >= 101 or "panicked" in out:
        sig = f"signal {-o.code}" if o.code < 0 else f"exit {o.code}"
        line = next((l for l in out.splitlines() if "panicked" in l or "overflow" in l), "")
        o.kind, o.detail = "panic", f"{sig}: {line[:200]}"
        return
    for pat in DEBUG_PATTERNS:
        m = pat.search(out)
        if m and m.group(0) not in given:
            o.kind, o.detail = "debug", context_of(out, m.start())
            return
    for m in re.finditer(r"\{([a-z_]+)\}", out):
        if m.group(1) in ctx.placeholders and m.group(0) not in given:
            o.kind, o.detail = "debug", "placeholder left: " + context_of(out, m.start())
            return
    for m in re.finditer(r"\b([a-z]+(?:\.[a-z_0-9]+)+)\b", out):
        if m.group(1) in ctx.keys and m.group(1) not in given:
            o.kind, o.detail = "debug", "raw key: " + context_of(out, m.start())
            return
    if o.case.check:
        found = o.case.check(o)
        if found:
            o.kind, o.detail = found
            return
    loc = o.case.locale
    if loc and loc != "en":
        for frag in ENGLISH_LIBRARY + ctx.english_fragments[loc]:
            i = out.find(frag)
            if i >= 0 and frag not in given:
                o.kind, o.detail = "english", f"{frag!r}: " + context_of(out, i)
                return
    o.kind = "ok"


def context_of(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    end = len(text) if end < 0 else end
    line = text[start:end]
    if len(line) > 240:
        i = at - start
        line = line[max(0, i - 100) : i + 140]
    return line


# --------------------------------------------------------------------------
# Running


def run_case(ctx: Context, category: str, case: Case, timeout: float, env: dict) -> Outcome:
    if ctx.data_per_run:
        # Each run its own data folder (journals), so that runs in
        # parallel do not meet; --shared-data shows what they do then.
        data = tempfile.mkdtemp(prefix="data-", dir=ctx.tmp)
        env = dict(env, XDG_DATA_HOME=data)
    try:
        return run_in(ctx, category, case, timeout, env)
    finally:
        if ctx.data_per_run:
            shutil.rmtree(data, ignore_errors=True)


def run_in(ctx: Context, category: str, case: Case, timeout: float, env: dict) -> Outcome:
    args = [str(ctx.binary)] + case.args
    t0 = time.monotonic()
    limit = case.timeout or timeout
    case.timeout = limit
    try:
        p = subprocess.Popen(
            args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=case.cwd or str(ctx.tmp),
            start_new_session=True,
        )
    except OSError as e:  # e.g. an argument too long for the system
        return Outcome(case, category, 0, b"", str(e).encode(), 0.0, "ok", f"not started: {e}")
    try:
        out, err = p.communicate(case.stdin, timeout=limit)
        code = p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        code = None
    o = Outcome(case, category, code, out[:2_000_000], err[:2_000_000], time.monotonic() - t0)
    classify(ctx, o)
    return o


def describe_case(case: Case) -> dict:
    def show(a):
        s = a if isinstance(a, str) else a.decode("utf-8", "backslashreplace")
        return s if len(s) <= 300 else s[:300] + f"... ({len(s)} chars)"

    stdin = case.stdin.decode("utf-8", "backslashreplace")
    return {
        "args": [show(a) for a in case.args],
        "stdin": stdin if len(stdin) <= 600 else stdin[:600] + f"... ({len(case.stdin)} bytes)",
        "note": case.note,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=str(ROOT / "target" / "release" / "annabella"))
    ap.add_argument("--pgn", default="/work/shared/pgn", help="folder of real PGN games to mutate")
    ap.add_argument("--only", default="", help="comma-separated categories")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every category's run count")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per run (a hang)")
    ap.add_argument("--report", default="", help="write every failing run as JSON lines here")
    ap.add_argument("--examples", type=int, default=2, help="failures shown per category and kind")
    ap.add_argument("--list", action="store_true")
    ap.add_argument(
        "--shared-data",
        action="store_true",
        help="one XDG_DATA_HOME for all runs (parallel games then race for journal names)",
    )
    a = ap.parse_args()
    if a.list:
        for name, (fn, runs) in CATEGORIES.items():
            print(f"{name}\t{runs}")
        return 0
    binary = Path(a.binary).resolve()
    if not binary.exists():
        print(f"no binary at {binary}: build it with cargo build --release", file=sys.stderr)
        return 2
    chosen = [c for c in a.only.split(",") if c] or list(CATEGORIES)
    unknown = [c for c in chosen if c not in CATEGORIES]
    if unknown:
        print(f"unknown categories: {', '.join(unknown)} (see --list)", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="annabella-campaign-"))
    try:
        data = tmp / "data"
        data.mkdir()
        env = dict(os.environ)
        env.update({"XDG_DATA_HOME": str(data), "RUST_BACKTRACE": "0", "LANG": "C.UTF-8"})
        ctx = Context(binary, tmp, Path(a.pgn))
        ctx.data_per_run = not a.shared_data
        cases = []
        for name in chosen:
            fn, runs = CATEGORIES[name]
            rng = random.Random(f"{a.seed}:{name}")
            n = max(1, round(runs * a.scale))
            cases.extend((name, c) for c in fn(ctx, rng, n))
        results: dict[str, dict[str, int]] = {n: {k: 0 for k in KINDS} for n in chosen}
        examples: dict[tuple[str, str], list[Outcome]] = {}
        report = open(a.report, "w", encoding="utf-8") if a.report else None
        t0 = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
            futures = [pool.submit(run_case, ctx, name, c, a.timeout, env) for name, c in cases]
            for i, f in enumerate(concurrent.futures.as_completed(futures), 1):
                o = f.result()
                results[o.category][o.kind] += 1
                if o.kind != "ok":
                    examples.setdefault((o.category, o.kind), []).append(o)
                    if report:
                        rec = describe_case(o.case) | {"category": o.category, "kind": o.kind, "detail": o.detail, "code": o.code}
                        report.write(json.dumps(rec, ensure_ascii=False) + "\n")
                if i % 500 == 0:
                    print(f"... {i}/{len(cases)} runs, {time.monotonic() - t0:.0f} s", file=sys.stderr)
        if report:
            report.close()
        print_table(results, time.monotonic() - t0)
        for (cat, kind), outs in sorted(examples.items()):
            for o in outs[: a.examples]:
                d = describe_case(o.case)
                print(f"\n[{cat} / {kind}] {o.detail}\n  args: {d['args']}")
                if d["stdin"]:
                    print(f"  stdin: {d['stdin'][:200]!r}")
                if d["note"]:
                    print(f"  note: {d['note']}")
        failures = sum(r[k] for r in results.values() for k in KINDS if k != "ok")
        return 1 if failures else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def print_table(results: dict[str, dict[str, int]], seconds: float) -> None:
    head = ["category", "runs"] + KINDS
    rows = []
    total = {k: 0 for k in KINDS}
    for cat, r in results.items():
        rows.append([cat, str(sum(r.values()))] + [str(r[k]) for k in KINDS])
        for k in KINDS:
            total[k] += r[k]
    rows.append(["total", str(sum(total.values()))] + [str(total[k]) for k in KINDS])
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    line = lambda cells: "| " + " | ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    print(f"({seconds:.0f} s)")


if __name__ == "__main__":
    sys.exit(main())
