//! The command table through the real binary: whatever a front end's help
//! lists, that front end understands, in every locale; and the README's
//! command table is the one the binary generates from the table.

mod common;

use annabella::locale::MsgKey;
use std::process::Command;

/// The literal text of `template` between the placeholder before `{name}`
/// and `{name}`, and after it up to the next placeholder.
fn around(template: &str, name: &str) -> (String, String) {
    let at = template.find(&format!("{{{name}}}")).expect("placeholder");
    let before = &template[..at];
    let before = before.rsplit('}').next().unwrap_or(before);
    let after = &template[at + name.len() + 2..];
    let after = after.split('{').next().unwrap_or(after);
    (before.to_owned(), after.to_owned())
}

/// The commands a help line lists: the text between the template's
/// literal before `{commands}` and the one after it.
fn listed(line: &str, template: &str) -> Option<Vec<String>> {
    let (before, after) = around(template, "commands");
    let start = line.find(before.trim_start())? + before.trim_start().len();
    let rest = &line[start..];
    let end = rest.find(after.trim_end()).unwrap_or(rest.len());
    Some(
        rest[..end]
            .split(", ")
            .map(|w| w.trim().to_owned())
            .filter(|w| !w.is_empty())
            .collect(),
    )
}

#[test]
fn the_readme_command_table_is_the_one_the_binary_generates() {
    let out = Command::new(common::bin())
        .args(["generate", "commands"])
        .output()
        .expect("the binary runs");
    assert!(out.status.success());
    let generated = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(generated.lines().count() > 40, "{generated}");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("the README");
    let begin = "<!-- commands:begin -->\n";
    let start = readme
        .find(begin)
        .expect("the README marks its command table")
        + begin.len();
    let end = readme.find("<!-- commands:end -->").expect("end marker");
    assert_eq!(
        &readme[start..end],
        generated,
        "the README's command table differs from `annabella generate commands`: paste its output"
    );
}

/// In every locale, every command the plain play screen's help and its
/// arbiter menu list is understood when typed there (a command in help but
/// refused as "not a move or command" fails), and so are the script's
/// commands that the table gives a typed word (`status` once was only in
/// `play --help`).
#[test]
fn every_command_the_plain_help_lists_is_understood_there() {
    for code in annabella::locale::builtin_codes() {
        let loc = annabella::locale::builtin(code).expect("locale");
        let dir = tempfile::tempdir().expect("temp dir");
        let help_word = loc.message(MsgKey::UiCmdHelp, &[]);
        let help_word = help_word.split('|').next().expect("a word");
        let arbiter = loc.message(MsgKey::UiCmdArbiter, &[]);
        let arbiter = arbiter.split('|').next().expect("a word");
        let out = run_plain(code, dir.path(), &format!("{help_word}\n{arbiter}\n"));
        let game_template = raw_template(code, MsgKey::UiHelp).expect("template");
        let arbiter_template = raw_template(code, MsgKey::UiHelpArbiter).expect("template");
        let game = out
            .iter()
            .find_map(|l| listed(l, &game_template).filter(|w| w.len() > 10))
            .unwrap_or_else(|| panic!("{code}: no command list in {out:#?}"));
        let menu = out
            .iter()
            .find_map(|l| listed(l, &arbiter_template).filter(|w| w.len() > 5))
            .unwrap_or_else(|| panic!("{code}: no arbiter menu in {out:#?}"));
        // The script's `status` (and every other command with typed words).
        let status = loc.message(MsgKey::UiCmdStatus, &[]);
        let status = status.split('|').next().expect("a word").to_owned();
        assert!(game.contains(&status), "{code}: {game:?}");
        let unknown = raw_template(code, MsgKey::UiUnknown).expect("template");
        let (unknown_start, _) = around(&unknown, "error");
        let lines: String = game.iter().chain(&menu).map(|w| format!("{w}\n")).collect();
        let out = run_plain(code, dir.path(), &lines);
        let refused: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with(unknown_start.trim()))
            .collect();
        assert!(
            refused.is_empty(),
            "{code}: listed in help but not understood: {refused:#?}"
        );
        assert!(
            out.len() > game.len(),
            "{code}: every command answers: {out:#?}"
        );
    }
}

/// A message of a built-in locale with its placeholders left in.
fn raw_template(code: &str, key: MsgKey) -> Option<String> {
    let loc = annabella::locale::builtin(code).ok()?;
    Some(loc.message(key, &[]))
}

fn run_plain(code: &str, data: &std::path::Path, input: &str) -> Vec<String> {
    use std::io::Write;
    let mut child = common::annabella(&["--plain", "-l", code], data)
        .current_dir(data)
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input");
    let out = child.wait_with_output().expect("the binary ends");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}
