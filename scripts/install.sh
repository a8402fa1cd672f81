#!/usr/bin/env bash
# Installs annabella into a prefix, or removes exactly what it installed.
#
#   scripts/install.sh install PREFIX BINARY   (make install runs this)
#   scripts/install.sh uninstall PREFIX        (make uninstall runs this)
#
# Installed (each path is recorded in PREFIX/share/annabella/install-manifest,
# with the folders this run created, so uninstall removes exactly these):
#   PREFIX/bin/annabella
#   PREFIX/lib/annabella/libvosk.so      found through the binary's run path
#                                        $ORIGIN/../lib/annabella (see build.rs)
#   PREFIX/share/man/man1/annabella.1    from the clap definitions
#   PREFIX/share/bash-completion/completions/annabella
#   PREFIX/share/zsh/site-functions/_annabella
#   PREFIX/share/fish/vendor_completions.d/annabella.fish
# The manual page and completions are written by the binary itself
# (`annabella generate man|bash|zsh|fish`, a hidden subcommand).
#
# Environment: VOSK_LIB_DIR, the folder of libvosk.so (default: the
# checkout's .cache/vosk/lib, where scripts/setup.sh puts it).
set -euo pipefail

die() {
    printf 'install: error: %s\n' "$*" >&2
    exit 1
}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ACTION=${1:-}
PREFIX=${2:-}
[[ -n "$PREFIX" ]] || die "usage: $0 install PREFIX BINARY | uninstall PREFIX"
[[ "$PREFIX" == /* ]] || PREFIX=$PWD/$PREFIX
MANIFEST_REL=share/annabella/install-manifest
MANIFEST=$PREFIX/$MANIFEST_REL

# Folders made by this run, deepest last (recorded as "dir PATH").
CREATED=()
make_dir() {
    local d=$1 missing=()
    while [[ ! -d "$d" ]]; do
        missing=("$d" "${missing[@]}")
        d=$(dirname "$d")
    done
    local m
    for m in "${missing[@]}"; do
        mkdir "$m" || die "cannot create the folder $m"
        CREATED+=("$m")
    done
}

FILES=()
# put SOURCE DEST MODE: copies through a temporary name in the same folder,
# then renames, so a file is complete or absent.
put() {
    local src=$1 dest=$2 mode=$3 tmp
    make_dir "$(dirname "$dest")"
    tmp=$(mktemp "$(dirname "$dest")/.annabella-install.XXXXXX")
    cp -- "$src" "$tmp" && chmod "$mode" "$tmp" && mv -f -- "$tmp" "$dest" ||
        { rm -f -- "$tmp"; die "cannot write $dest"; }
    FILES+=("$dest")
}

do_install() {
    local bin=${1:-}
    [[ -x "$bin" ]] || die "no binary at '$bin': build it first (cargo build --release)"
    local vosk_dir=${VOSK_LIB_DIR:-$ROOT/.cache/vosk/lib}
    [[ "$vosk_dir" == /* ]] || vosk_dir=$ROOT/$vosk_dir
    [[ -f "$vosk_dir/libvosk.so" ]] ||
        die "no libvosk.so in $vosk_dir: run scripts/setup.sh run (or set VOSK_LIB_DIR)"
    if [[ -f "$MANIFEST" ]]; then
        # An earlier install: replace it cleanly.
        do_uninstall quiet
    fi
    GEN=$(mktemp -d)
    trap 'rm -rf -- "$GEN"' EXIT
    local gen=$GEN
    "$bin" generate man >"$gen/annabella.1" || die "$bin could not write its manual page"
    "$bin" generate bash >"$gen/annabella.bash" || die "$bin could not write the bash completion"
    "$bin" generate zsh >"$gen/_annabella" || die "$bin could not write the zsh completion"
    "$bin" generate fish >"$gen/annabella.fish" || die "$bin could not write the fish completion"
    put "$bin" "$PREFIX/bin/annabella" 755
    put "$vosk_dir/libvosk.so" "$PREFIX/lib/annabella/libvosk.so" 644
    put "$gen/annabella.1" "$PREFIX/share/man/man1/annabella.1" 644
    put "$gen/annabella.bash" "$PREFIX/share/bash-completion/completions/annabella" 644
    put "$gen/_annabella" "$PREFIX/share/zsh/site-functions/_annabella" 644
    put "$gen/annabella.fish" "$PREFIX/share/fish/vendor_completions.d/annabella.fish" 644
    make_dir "$(dirname "$MANIFEST")"
    {
        local p
        for p in "${FILES[@]}"; do printf 'file %s\n' "$p"; done
        printf 'file %s\n' "$MANIFEST"
        for p in "${CREATED[@]}"; do printf 'dir %s\n' "$p"; done
    } >"$MANIFEST.tmp"
    mv -f -- "$MANIFEST.tmp" "$MANIFEST"
    if command -v readelf >/dev/null 2>&1 &&
        ! readelf -d "$PREFIX/bin/annabella" | grep -q 'ORIGIN/../lib/annabella'; then
        printf 'install: warning: the binary has no run path $ORIGIN/../lib/annabella (built before build.rs added it?): rebuild with cargo build --release and install again\n' >&2
    fi
    printf 'install: annabella installed in %s (%d files; remove with make uninstall PREFIX=%s)\n' \
        "$PREFIX" "$((${#FILES[@]} + 1))" "$PREFIX"
    case ":$PATH:" in
        *":$PREFIX/bin:"*) ;;
        *) printf 'install: %s/bin is not on PATH: add it, e.g. in ~/.profile: export PATH="%s/bin:$PATH"\n' "$PREFIX" "$PREFIX" ;;
    esac
}

do_uninstall() {
    local quiet=${1:-}
    if [[ ! -f "$MANIFEST" ]]; then
        [[ -n "$quiet" ]] && return 0
        die "nothing to remove: no $MANIFEST (annabella was not installed in $PREFIX by make install)"
    fi
    local kind path n=0 dirs=()
    while read -r kind path; do
        case "$kind" in
            file)
                # Only paths inside the prefix, whatever the manifest says.
                [[ "$path" == "$PREFIX"/* ]] || continue
                rm -f -- "$path" && n=$((n + 1))
                ;;
            dir) [[ "$path" == "$PREFIX"/* || "$path" == "$PREFIX" ]] && dirs=("$path" "${dirs[@]}") ;;
        esac
    done <"$MANIFEST"
    local d
    for d in "${dirs[@]}"; do
        rmdir -- "$d" 2>/dev/null || true
    done
    [[ -n "$quiet" ]] || printf 'install: removed annabella from %s (%d files)\n' "$PREFIX" "$n"
}

case "$ACTION" in
    install) do_install "${3:-}" ;;
    uninstall) do_uninstall ;;
    *) die "usage: $0 install PREFIX BINARY | uninstall PREFIX" ;;
esac
