//! The play screen's keys (full screen), one row each: what the manual
//! page lists. A key the screen learns gets a row here (and its words
//! under `man.key.*`); `tests/man_page.rs` checks the keys the screen's
//! code handles against this table.

/// (the key as the manual page names it, the message key of what it
/// does), in the order the manual page lists them.
pub const SCREEN_KEYS: &[(&str, &str)] = &[
    ("Enter", "man.key.enter"),
    ("F1", "man.key.f1"),
    ("?", "man.key.question"),
    ("F2", "man.key.f2"),
    ("F3", "man.key.f3"),
    ("Backspace", "man.key.backspace"),
    ("Esc", "man.key.esc"),
    ("Ctrl+U", "man.key.ctrl_u"),
    ("PageUp", "man.key.page_up"),
    ("PageDown", "man.key.page_down"),
    ("Ctrl+C", "man.key.ctrl_c"),
    ("Ctrl+D", "man.key.ctrl_c"),
];
