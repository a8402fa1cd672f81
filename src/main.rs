//! The `annabella` command. All work is done by the library's CLI adapter.

fn main() -> std::process::ExitCode {
    annabella::cli::main()
}
