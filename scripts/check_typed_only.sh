#!/usr/bin/env bash
# Proves that annabella builds and plays without speech recognition and
# without the speech-dispatcher client (`--no-default-features`: a
# typed-only client): its normal dependencies hold no vosk or tts crate, the
# binary links no libvosk or libspeechd, a typed game in --plain ends in
# checkmate with the result saved, and asking it for spoken moves gives one
# line and typing goes on. Run by `make test` (and so by CI).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CARGO=${CARGO:-cargo}
TARGET=${TYPED_ONLY_TARGET:-target/typed-only}

say() { printf 'check_typed_only: %s\n' "$*"; }
die() {
    printf 'check_typed_only: FAILED: %s\n' "$*" >&2
    exit 1
}

forbidden='^(vosk|vosk-sys|tts|speech-dispatcher|speech-dispatcher-sys|cpal|alsa|alsa-sys) '
tree=$("$CARGO" tree -p annabella --no-default-features -e normal --prefix none --format '{p}')
if bad=$(grep -E "$forbidden" <<<"$tree"); then
    die "annabella --no-default-features depends on: $(tr '\n' ' ' <<<"$bad")"
fi
say "cargo tree -p annabella --no-default-features -e normal: none of vosk, tts, speech-dispatcher, cpal, alsa"

"$CARGO" clippy --quiet --no-default-features --lib --bins --target-dir "$TARGET" -- -D warnings
"$CARGO" build --quiet --no-default-features --bin annabella --target-dir "$TARGET"
bin=$TARGET/debug/annabella
if ldd "$bin" | grep -E 'libvosk|libspeechd|libasound'; then
    die "$bin links libvosk, libspeechd or libasound"
fi
say "$bin links no libvosk, libspeechd or libasound"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Fool's mate, typed, with spoken moves asked for: refused in one line
# (this build has no speech recognition), the game goes on by typing.
out=$(printf '%s\n' 'Felix drei' press 'Felix drei' 'Eva fuenf' press 'Eva fuenf' \
    'Gustav vier' press 'Gustav vier' 'Dame Hector vier' press quit yes |
    "$bin" --plain --silent --voice --journal "$work/g.jsonl" --save "$work/g.pgn" 2>&1) ||
    die "the typed game failed: $out"
grep -q '^\[Result "0-1"\]' "$work/g.pgn" || die "no 0-1 in the saved game: $(cat "$work/g.pgn" 2>&1) / $out"
grep -q ' Qh4#' "$work/g.pgn" || die "the moves are not in the saved game: $(cat "$work/g.pgn")"
moves=$(grep -c '"kind":"board"' "$work/g.jsonl")
((moves >= 4)) || die "the journal holds $moves board moves"
say "a typed game in --plain: checkmate, 0-1 saved, $moves board events in the journal; --voice refused in one line: $(grep -c . <<<"$out") lines in all"
