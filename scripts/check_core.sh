#!/usr/bin/env bash
# Proves that the pure core needs no native library: annabella-core's
# normal dependencies include no audio, speech, recognition or terminal
# crate, its test binaries link none of libvosk, ALSA or speech-dispatcher,
# and its tests pass with the checkout's libvosk hidden (in a private mount
# namespace when the system allows one, else with the library path emptied).
# Run by `make test` (and so by CI).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CARGO=${CARGO:-cargo}

say() { printf 'check_core: %s\n' "$*"; }
die() {
    printf 'check_core: FAILED: %s\n' "$*" >&2
    exit 1
}

forbidden='^(vosk|vosk-sys|tts|speech-dispatcher|speech-dispatcher-sys|cpal|alsa|alsa-sys|ratatui|crossterm|libc|dirs|hound|clap) '
tree=$("$CARGO" tree -p annabella-core -e normal --prefix none --format '{p}')
if bad=$(grep -E "$forbidden" <<<"$tree"); then
    die "annabella-core depends on: $(tr '\n' ' ' <<<"$bad")"
fi
say "cargo tree -p annabella-core -e normal: $(sort -u <<<"$tree" | wc -l) crates, none of vosk, tts, cpal, alsa, speech-dispatcher, ratatui, crossterm"

mapfile -t bins < <("$CARGO" test --release -p annabella-core --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    try: m = json.loads(l)
    except ValueError: continue
    if m.get("reason") == "compiler-artifact" and m.get("profile", {}).get("test") and m.get("executable"):
        print(m["executable"])')
((${#bins[@]})) || die "no test binary of annabella-core was built"
for b in "${bins[@]}"; do
    if ldd "$b" | grep -E 'libvosk|libasound|libspeechd'; then
        die "$b links a native library of the adapters"
    fi
done
say "${#bins[@]} test binaries of annabella-core link no libvosk, libasound or libspeechd"

hidden=$PWD/.cache/vosk/lib
run_tests='for b in "$@"; do env -u LD_LIBRARY_PATH "$b" --quiet || exit 1; done'
if [[ -d "$hidden" ]] && unshare -m --propagation private true 2>/dev/null; then
    unshare -m --propagation private bash -c "mount -t tmpfs none '$hidden' && $run_tests" _ "${bins[@]}" ||
        die "the core's tests fail with libvosk hidden"
    say "the core's tests pass with the checkout's libvosk hidden (private mount namespace)"
else
    bash -c "$run_tests" _ "${bins[@]}" || die "the core's tests fail"
    say "the core's tests pass (no mount namespace here: libvosk is only off the library path)"
fi
