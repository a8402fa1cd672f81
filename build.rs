//! Tells the linker where libvosk.so is, and bakes that folder into the
//! binaries' run path, so that they (test binaries too) start without
//! LD_LIBRARY_PATH.
//!
//! The run path's first entry is `$ORIGIN/../lib/annabella`: an installed
//! binary (`make install`: `PREFIX/bin/annabella` beside
//! `PREFIX/lib/annabella/libvosk.so`) loads its own copy and never the
//! checkout's, so moving or deleting the checkout breaks nothing. For the
//! binaries in `target/` that folder does not exist and the checkout's is
//! used.
//!
//! The folder is `$VOSK_LIB_DIR` if set (a relative path is taken from the
//! crate's root), else `.cache/vosk/lib` in the crate's root, where
//! `scripts/setup.sh` puts the library. Only the lines are printed: a missing
//! folder is not an error here (the link reports it if libvosk is needed).

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=VOSK_LIB_DIR");

    let manifest_dir =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let dir = match env::var_os("VOSK_LIB_DIR").filter(|v| !v.is_empty()) {
        Some(v) => manifest_dir.join(v), // join keeps an absolute path as it is
        None => manifest_dir.join(".cache").join("vosk").join("lib"),
    };
    let dir = dir.canonicalize().unwrap_or(dir);
    let dir = dir.display();

    println!("cargo:rustc-link-search=native={dir}");
    // `$ORIGIN` reaches the linker as written (no shell in between).
    println!("cargo:rustc-link-arg=-Wl,-rpath,$ORIGIN/../lib/annabella");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
}
