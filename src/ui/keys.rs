//! The play screen's keys (full screen), one row each: what the manual
//! page lists. A key the screen learns gets a row here (and its words
//! under `man.key.*`); `tests/man_page.rs` checks the keys the screen's
//! code handles against this table.

use crate::locale::MsgKey;

/// (the key as the manual page names it, the message key of what it
/// does), in the order the manual page lists them.
pub const SCREEN_KEYS: &[(&str, MsgKey)] = &[
    ("Enter", MsgKey::ManKeyEnter),
    ("F1", MsgKey::ManKeyF1),
    ("?", MsgKey::ManKeyQuestion),
    ("F2", MsgKey::ManKeyF2),
    ("F3", MsgKey::ManKeyF3),
    ("Backspace", MsgKey::ManKeyBackspace),
    ("Esc", MsgKey::ManKeyEsc),
    ("Ctrl+U", MsgKey::ManKeyCtrlU),
    ("PageUp", MsgKey::ManKeyPageUp),
    ("PageDown", MsgKey::ManKeyPageDown),
    ("Ctrl+C", MsgKey::ManKeyCtrlC),
    ("Ctrl+D", MsgKey::ManKeyCtrlC),
];
