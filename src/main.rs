//! The `annabella` command. All work is done by the library's CLI adapter.

fn main() -> std::process::ExitCode {
    // The environment is read once, here; the adapters take it from there.
    annabella::environment::init();
    // Once libvosk was loaded the process ends without its exit-time
    // destructors (see `annabella::voice::recognizer::exit`).
    annabella::voice::recognizer::leave(annabella::cli::main())
}
