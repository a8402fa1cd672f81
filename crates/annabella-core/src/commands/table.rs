//! The one command table: every command of every front end, one row each.
//!
//! A row says how the command is given in each front end — its spellings
//! in the `play` script, the message key of its typed words (the play
//! screen, full screen and `--plain`), the message key of its spoken forms
//! — whether it belongs to the arbiter, whether it is said back for a yes
//! before it acts, and the message key of its one-line help. [`Cmd`] is
//! generated from the rows (by [`table!`]); the play screen's words
//! ([`super::CommandWords`]), the spoken command words
//! ([`super::spoken::SpokenCommandWords`]), the names of commands in
//! messages ([`crate::game::Verbs`]), the script parser
//! ([`crate::game::script`]), help, the manual page and the README's command
//! table all read it. Adding a command is one row here plus its words in
//! the locales (`ui.cmd.KEY`, `help.cmd.KEY`, and `voice.cmd.…` if spoken).

use crate::locale::MsgKey;

/// Which help list a command is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Menu {
    /// The game's help (the play screen's prompt).
    Game,
    /// The arbiter menu's help (the command also works at the game prompt).
    Arbiter,
    /// Both menus.
    Both,
    /// The answer to a question (yes, no): named in the question itself.
    Answer,
    /// Not listed in a typed help (script-only or spoken-only commands).
    None,
}

/// When a command is said back and waits for a yes before it acts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Confirm {
    /// Never: it acts at once (or changes nothing that matters).
    Never,
    /// Always on the play screen and by voice (it cannot be undone).
    Always,
    /// Only when it was heard (a typed command is what the player typed).
    Spoken,
}

/// An argument in a command's example (how a message shows the command
/// when it needs more than its word: "add white 2m").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Example {
    /// The word for White.
    White,
    /// Two minutes (`2m`).
    TwoMinutes,
    /// A move (the script's `MOVE`).
    Move,
}

/// One row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The command.
    pub cmd: Cmd,
    /// Its name: the stem of its message keys (`claim_cannot_win`), and
    /// the name the manual page and the README use.
    pub name: &'static str,
    /// The message key of its typed words (`ui.cmd.NAME`: spellings
    /// separated by `|`, the first shown), if it can be typed.
    pub typed: Option<MsgKey>,
    /// The message key of its spoken forms (`voice.cmd.…`), if it can be
    /// said.
    pub spoken: Option<MsgKey>,
    /// The message key of its one-line help (`help.cmd.NAME`).
    pub help: MsgKey,
    /// Its spellings in the `play` script (the first shown), lower case;
    /// `arbiter: …` for the arbiter's script commands. Empty: not in the
    /// script.
    pub script: &'static [&'static str],
    /// What the script takes around the spelling, for the script's help
    /// (`[white|black] … : MOVE`): the part before the spelling and after.
    pub script_args: (&'static str, &'static str),
    /// The help list that shows it.
    pub menu: Menu,
    /// The arbiter's (or the assistant's on the arbiter's behalf).
    pub arbiter: bool,
    /// Said back for a yes before it acts.
    pub confirm: Confirm,
    /// Only in games with Guideline III announced (`--quickplay`).
    pub quickplay: bool,
    /// A question about the game that changes nothing (the time, the
    /// board, the scoresheet, help): answered at once, also while the
    /// engine thinks (D.2.6: the time on request).
    pub question: bool,
    /// What follows its word when a message names it.
    pub example: &'static [Example],
    /// Typed alone: words after it are refused, not ignored (`press
    /// now`, `quit e4`), so nothing is done that the words did not say.
    pub bare: bool,
    /// Built with [`Row::untyped`] (so without `ui.cmd.NAME`).
    untyped: bool,
}

impl Row {
    /// A row with no front end yet (the table's rows add theirs): typed
    /// with the words of message `typed` (`ui.cmd.NAME`), explained by
    /// `help` (`help.cmd.NAME`). A key the base locale lacks stops the
    /// build (the table is a constant).
    pub const fn new(cmd: Cmd, name: &'static str, typed: &'static str, help: &'static str) -> Row {
        let help = match MsgKey::from_key(help) {
            Some(key) => key,
            None => panic!("a command's help.cmd.NAME is not in locales/en.toml"),
        };
        Row {
            cmd,
            name,
            typed: MsgKey::from_key(typed),
            spoken: None,
            help,
            script: &[],
            script_args: ("", ""),
            menu: Menu::None,
            arbiter: false,
            confirm: Confirm::Never,
            quickplay: false,
            question: false,
            example: &[],
            bare: false,
            untyped: false,
        }
    }

    /// Not typed on the play screen.
    pub const fn untyped(mut self) -> Row {
        self.typed = None;
        self.untyped = true;
        self
    }

    /// Listed in this help.
    pub const fn menu(mut self, menu: Menu) -> Row {
        self.menu = menu;
        self
    }

    /// Also said, with these forms.
    pub const fn spoken(mut self, key: MsgKey) -> Row {
        self.spoken = Some(key);
        self
    }

    /// In the script, with these spellings.
    pub const fn script(mut self, spellings: &'static [&'static str]) -> Row {
        self.script = spellings;
        self
    }

    /// What the script takes before and after the spelling.
    pub const fn args(mut self, before: &'static str, after: &'static str) -> Row {
        self.script_args = (before, after);
        self
    }

    /// The arbiter's (listed in the arbiter menu).
    pub const fn arbiter(mut self) -> Row {
        self.arbiter = true;
        self.menu = Menu::Arbiter;
        self
    }

    /// Said back for a yes.
    pub const fn confirm(mut self, confirm: Confirm) -> Row {
        self.confirm = confirm;
        self
    }

    /// Only with Guideline III.
    pub const fn quickplay(mut self) -> Row {
        self.quickplay = true;
        self
    }

    /// Asks about the game and changes nothing (see [`Row::question`]).
    pub const fn question(mut self) -> Row {
        self.question = true;
        self
    }

    /// Takes nothing after its word when typed (see [`Row::bare`]).
    pub const fn bare(mut self) -> Row {
        self.bare = true;
        self
    }

    /// Named in messages with these arguments.
    pub const fn example(mut self, example: &'static [Example]) -> Row {
        self.example = example;
        self
    }

    /// In the script's help and the script.
    pub fn in_script(&self) -> bool {
        !self.script.is_empty()
    }

    /// The arbiter's own decision (`arbiter: …` in the script), given on
    /// the play screen through the arbiter menu: messages name it with
    /// the menu's word first ("arbiter correct").
    pub fn is_arbiters_own(&self) -> bool {
        self.script
            .first()
            .is_some_and(|s| s.starts_with("arbiter:"))
    }
}

/// Generates [`Cmd`] and [`TABLE`] from the rows: `Variant "name" .method(…)…;`
/// builds `Row::new(Cmd::Variant, "name", "ui.cmd.name", "help.cmd.name")`
/// and applies the methods.
macro_rules! table {
    ($( $(#[$doc:meta])* $variant:ident $name:literal $( . $m:ident ( $($arg:expr),* ) )* ; )*) => {
        /// A command, of any front end (see the module documentation).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Cmd {
            $( $(#[$doc])* $variant, )*
        }

        /// The table: one row per command, in help order.
        pub const TABLE: &[Row] = &[
            $( Row::new(
                Cmd::$variant,
                $name,
                concat!("ui.cmd.", $name),
                concat!("help.cmd.", $name),
            ) $( .$m($($arg),*) )* , )*
        ];

        // Every typed command has its words (`ui.cmd.NAME`) in the base
        // locale: a missing key stops the build.
        const _: () = {
            let mut i = 0;
            while i < TABLE.len() {
                assert!(
                    TABLE[i].typed.is_some() || TABLE[i].untyped,
                    "a typed command's ui.cmd.NAME is not in locales/en.toml"
                );
                i += 1;
            }
        };
    };
}

table! {
    // The game's commands, in help order.
    /// Lists what can be typed now; `help WORD` explains one command.
    Help "help" .menu(Menu::Both) .spoken(MsgKey::VoiceCmdHelp) .question();
    /// Presses the clock: completes the move just made (D.2.4).
    Press "press" .menu(Menu::Game) .spoken(MsgKey::VoiceCmdClock) .script(&["press"]) .bare();
    /// Takes back the move just made, before the clock is pressed (D.2.8).
    TakeBack "takeback" .menu(Menu::Game) .script(&["takeback", "take back"]) .bare();
    /// Both players' times and move counts (D.2.6, D.2.10.4).
    Time "time" .menu(Menu::Game) .spoken(MsgKey::VoiceCmdTime) .script(&["clock"]) .question() .bare();
    /// The time of the player to move (or of the named side).
    MyTime "mytime" .menu(Menu::Game) .question();
    /// The low-time alarm: says it, or sets its warnings and countdown for
    /// this game (`alarm 2m 30s`, `alarm countdown 5`, `alarm off`).
    Alarm "alarm" .menu(Menu::Game);
    /// Moves completed by both players.
    Count "count" .menu(Menu::Game) .question() .bare();
    /// Where the game stands: whose turn, the move, the clocks, what waits
    /// for an answer.
    Status "status" .menu(Menu::Game) .script(&["status"]) .question() .bare();
    /// Says the last announcement again.
    Repeat "repeat" .menu(Menu::Game) .spoken(MsgKey::VoiceCmdRepeat) .question() .bare();
    /// Stops annabella's speech at once (the F3 key of the full screen).
    Quiet "quiet" .menu(Menu::Game) .bare();
    /// What is on a square.
    What "what" .menu(Menu::Game) .question();
    /// Where the pieces of a kind are.
    Where "where" .menu(Menu::Game) .question();
    /// Scans a file.
    File "file" .menu(Menu::Game) .question();
    /// Scans a rank.
    Rank "rank" .menu(Menu::Game) .question();
    /// Lists all pieces of a side.
    Pieces "pieces" .menu(Menu::Game) .question();
    /// The last move.
    Last "last" .menu(Menu::Game) .question();
    /// The last five moves, in words.
    LastFive "last_five" .menu(Menu::Game) .spoken(MsgKey::VoiceCmdLastFive) .question();
    /// Legal moves of the piece on a square.
    Legal "legal" .menu(Menu::Game) .question();
    /// Scans the diagonals through a square.
    Diagonal "diagonal" .menu(Menu::Game) .question();
    /// Scans from a square in one direction (towards a second square), or
    /// in every direction, up to the first piece.
    Ray "ray" .menu(Menu::Game) .question();
    /// The squares the piece on a square attacks.
    Attacks "attacks" .menu(Menu::Game) .question();
    /// The pieces that attack a square (the opponent's, for a piece).
    Attackers "attackers" .menu(Menu::Game) .question();
    /// The pieces that defend the piece on a square.
    Defenders "defenders" .menu(Menu::Game) .question();
    /// The position in FEN (printed, and copied on the full screen).
    Fen "fen" .menu(Menu::Game) .question() .bare();
    /// The scoresheet so far.
    Sheet "sheet" .menu(Menu::Game) .spoken(MsgKey::VoiceCmdMoves) .question();
    /// Offers a draw (9.1.2).
    Draw "draw" .menu(Menu::Game) .spoken(MsgKey::VoiceCmdDraw)
        .script(&["offer draw", "offers draw"]) .args("[white|black] ", "")
        .confirm(Confirm::Always);
    /// Accepts a draw offer (9.1.2).
    Accept "accept" .menu(Menu::Game) .spoken(MsgKey::VoiceCmdAccept)
        .script(&["accept draw", "accepts draw"]) .args("[white|black] ", "")
        .confirm(Confirm::Always);
    /// Declines a draw offer.
    Decline "decline" .menu(Menu::Game) .spoken(MsgKey::VoiceCmdDecline)
        .script(&["decline draw", "declines draw"]) .args("[white|black] ", "");
    /// Claims a draw: threefold repetition, fifty moves (9.2, 9.3); in
    /// unsupervised rapid or blitz, the win for an illegal move (A.5.2).
    Claim "claim" .menu(Menu::Game) .spoken(MsgKey::VoiceCmdClaim)
        .script(&["claim", "claims", "claim draw", "claims draw"]) .args("[white|black] ", " [: MOVE]")
        .confirm(Confirm::Always);
    /// Guideline III.4: the player having the move asks for an increment
    /// of five seconds for both players (also a draw offer).
    RequestIncrement "request_increment" .menu(Menu::Game) .quickplay()
        .script(&["request increment", "requests increment"]) .args("[white|black] ", "");
    /// Guideline III.5/III.6: a draw claim, the opponent cannot win by
    /// normal means.
    ClaimCannotWin "claim_cannot_win" .menu(Menu::Game) .quickplay()
        .script(&["claim cannot win", "claims cannot win"])
        .args("[white|black] ", " [and no effort]") .confirm(Confirm::Always);
    /// Guideline III.5/III.6: a draw claim, the opponent makes no effort
    /// to win by normal means.
    ClaimNoEffort "claim_no_effort" .menu(Menu::Game) .quickplay()
        .script(&["claim no effort", "claims no effort"]) .args("[white|black] ", "")
        .confirm(Confirm::Always);
    /// The player to move resigns (or the named side; 5.1.2).
    Resign "resign" .menu(Menu::Game) .spoken(MsgKey::VoiceCmdResign)
        .script(&["resign", "resigns"]) .args("[white|black] ", "") .confirm(Confirm::Always);
    /// Opens the arbiter menu.
    Arbiter "arbiter" .menu(Menu::Game);
    /// Saves the game as PGN.
    Save "save" .menu(Menu::Game);
    /// The speech rate, voice and verbosity: said, changed, saved.
    Settings "settings" .menu(Menu::Game);
    /// Goes through the game by ear once it is over.
    Review "review" .menu(Menu::Game) .bare();
    /// Quits (after a yes).
    Quit "quit" .menu(Menu::Game) .confirm(Confirm::Always) .bare();

    // The arbiter's commands (they also work at the game prompt).
    /// The arbiter corrects the boards and scoresheets (D.2.9).
    Correct "correct" .arbiter() .script(&["arbiter: correct"]);
    /// The arbiter stops the clock (6.11.1).
    Pause "pause" .arbiter() .script(&["arbiter: pause"]);
    /// The arbiter restarts the clock.
    Resume "resume" .arbiter() .script(&["arbiter: resume"]);
    /// The arbiter adds time to a side.
    Add "add" .arbiter() .script(&["arbiter: add"]) .args("", " white|black TIME")
        .example(&[Example::White, Example::TwoMinutes]);
    /// The arbiter removes time from a side.
    Remove "remove" .arbiter() .script(&["arbiter: remove"]) .args("", " white|black TIME");
    /// The arbiter sets a side's remaining time.
    Set "set" .arbiter() .script(&["arbiter: set"]) .args("", " white|black TIME");
    /// The arbiter's penalty for an illegal move completed by a side (7.5).
    Penalty "penalty" .arbiter() .script(&["arbiter: penalty"]) .args("", " white|black");
    /// The assistant reports that a player touched a piece (D.2.10.5, 4.3).
    Touch "touch" .arbiter() .script(&["touch", "touches"]) .args("[white|black] ", ": SQUARE");
    /// Adjournment: the player to move writes his sealed move (Guideline
    /// I.1); `press` then closes the envelope.
    Seal "seal" .arbiter() .script(&["seal"]) .args("", ": MOVE [@ date, time and place]")
        .example(&[Example::Move]);
    /// At resumption: a player is present, or has arrived (Guideline I.9).
    Present "present" .arbiter() .script(&["present", "arrived"]) .args("[white|black] ", "");
    /// At resumption: the sealed move is opened and played (I.7, I.8).
    OpenSeal "open_seal" .arbiter() .script(&["open seal"]);
    /// At resumption: a player is absent (Guideline I.9).
    Absent "absent" .arbiter() .script(&["absent"]) .args("", " white|black");
    /// The event's default time (6.7, Guideline I.10).
    Default "default" .arbiter() .script(&["arbiter: default time"]) .args("", " TIME");
    /// A player may arrive after the default time (Guideline I.10).
    Excuse "excuse" .arbiter() .script(&["arbiter: excuse"]) .args("", " white|black");
    /// Guideline III.4: the arbiter grants the increment.
    GrantIncrement "grant_increment" .arbiter() .quickplay()
        .script(&["arbiter: grant increment"]);
    /// Guideline III.4: the arbiter refuses the increment.
    RefuseIncrement "refuse_increment" .arbiter() .quickplay()
        .script(&["arbiter: refuse increment"]);
    /// Guideline III.5.1: the arbiter agrees with the draw claim.
    Agree "agree" .arbiter() .quickplay() .script(&["arbiter: agree", "arbiter: agree claim"]);
    /// Guideline III.5.2: the arbiter postpones the decision.
    Postpone "postpone" .arbiter() .quickplay() .script(&["arbiter: postpone"])
        .args("", " [2m]") .example(&[Example::TwoMinutes]);
    /// Guideline III.5.3: the arbiter rejects the draw claim.
    Reject "reject" .arbiter() .quickplay() .script(&["arbiter: reject", "arbiter: reject claim"]);
    /// Guideline III.5.2: after a flag fall, a draw.
    DecideDraw "decide_draw" .arbiter() .quickplay() .script(&["arbiter: decide draw"]);
    /// Guideline III.5.2: after a flag fall, the flag fall stands.
    DecideLoss "decide_loss" .arbiter() .quickplay() .script(&["arbiter: decide loss"]);
    /// Back from the arbiter menu to the game.
    Back "back" .arbiter();

    // Answers to a question.
    /// Yes (a confirmation, or the first move asked about).
    Yes "yes" .menu(Menu::Answer) .spoken(MsgKey::VoiceCmdYes);
    /// No.
    No "no" .menu(Menu::Answer) .spoken(MsgKey::VoiceCmdNo);
    /// Drops what was heard; nothing is played (spoken).
    Cancel "cancel" .untyped() .spoken(MsgKey::VoiceCmdCancel);

    // The script's own lines (the play screen does these by typing a move,
    // and by the screen's own bookkeeping).
    /// A move made on a board (the mover's own move, or the repetition of
    /// the opponent's move).
    Board "board" .untyped() .script(&["board"]) .args("white|black ", ": MOVE");
    /// An entry on a scoresheet (with `(=)`: a draw offer).
    Write "write" .untyped() .script(&["sheet"]) .args("white|black ", ": ENTRY");
    /// The mover announces (what was said, if it differs: a slip of the
    /// tongue, corrected by announcing again).
    Announce "announce" .untyped() .script(&["announce"]) .args("", " [: MOVE]");
    /// The opponent repeats the move aloud.
    RepeatMove "repeat_move" .untyped() .script(&["repeat"]) .args("[white|black] ", " [: MOVE]");
    /// Sets or advances the game time (`time 12.5`, `time +2m`).
    GameTime "game_time" .untyped() .script(&["time"]) .args("", " SECONDS|+SECONDS");
    /// Pauses in real time (not saved).
    Sleep "sleep" .untyped() .script(&["sleep"]) .args("", " MILLISECONDS");
}

impl Cmd {
    /// Its row.
    pub fn row(self) -> &'static Row {
        // The table holds every command once, in declaration order.
        &TABLE[self as usize]
    }

    /// Every command, in table order.
    pub fn all() -> impl Iterator<Item = Cmd> {
        TABLE.iter().map(|r| r.cmd)
    }

    /// The commands listed in `menu`'s typed help (both-menu commands in
    /// each), in table order.
    pub fn listed(menu: Menu) -> impl Iterator<Item = Cmd> {
        TABLE
            .iter()
            .filter(move |r| {
                r.typed.is_some()
                    && (r.menu == menu || (r.menu == Menu::Both && menu != Menu::Answer))
            })
            .map(|r| r.cmd)
    }

    /// The commands that can be typed on the play screen.
    pub fn typed() -> impl Iterator<Item = Cmd> {
        TABLE.iter().filter(|r| r.typed.is_some()).map(|r| r.cmd)
    }

    /// The commands that can be said.
    pub fn spoken() -> impl Iterator<Item = Cmd> {
        TABLE.iter().filter(|r| r.spoken.is_some()).map(|r| r.cmd)
    }

    /// The message key of its typed words (`ui.cmd.NAME`; empty if it
    /// cannot be typed).
    pub fn message_key(self) -> Option<MsgKey> {
        self.row().typed
    }

    /// The message key of its one-line help.
    pub fn help_key(self) -> MsgKey {
        self.row().help
    }

    /// Its name (the stem of its keys).
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The arbiter's command.
    pub fn is_arbiter(self) -> bool {
        self.row().arbiter
    }

    /// Offered only with Guideline III.
    pub fn is_quickplay(self) -> bool {
        self.row().quickplay
    }
}

/// The table as Markdown for the README (`annabella generate commands`),
/// with the words and help lines of `locale`: one row per command, the
/// front ends that take it, whether it is the arbiter's and whether it is
/// said back for a yes.
pub fn markdown(locale: &crate::locale::Locale) -> String {
    let first = |key: Option<MsgKey>| {
        key.map(|k| locale.message(k, &[]))
            .and_then(|w| w.split('|').next().map(str::to_owned))
            .map(|w| format!("`{w}`"))
            .unwrap_or_else(|| "—".to_owned())
    };
    let mut out = String::from(
        "| command | `play` script | typed (`--plain`, full screen) | spoken | arbiter | said back | what it does |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for r in TABLE {
        let script = if r.in_script() {
            let (before, after) = r.script_args;
            format!("`{before}{}{after}`", r.script[0]).replace('|', "\\|")
        } else {
            "—".to_owned()
        };
        let confirm = match r.confirm {
            Confirm::Never => "",
            Confirm::Always => "yes",
            Confirm::Spoken => "when spoken",
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            r.name,
            script,
            first(r.typed),
            first(r.spoken),
            if r.arbiter { "yes" } else { "" },
            confirm,
            locale.message(r.help, &[]).replace('|', "\\|"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_its_commands_row_and_names_are_unique() {
        for (i, r) in TABLE.iter().enumerate() {
            assert_eq!(r.cmd as usize, i, "{:?}", r.cmd);
            assert_eq!(r.cmd.row(), r);
            assert!(
                TABLE[i + 1..].iter().all(|o| o.name != r.name),
                "name {} twice",
                r.name
            );
        }
    }

    #[test]
    fn every_command_has_a_front_end() {
        for r in TABLE {
            assert!(
                r.typed.is_some() || r.spoken.is_some() || r.in_script(),
                "{:?} cannot be given anywhere",
                r.cmd
            );
            // A listed command can be typed; an unlisted typed one would be
            // undiscoverable.
            assert_eq!(r.typed.is_some(), r.menu != Menu::None, "{:?}", r.cmd);
        }
    }

    #[test]
    fn no_script_spelling_is_two_commands() {
        let mut seen: Vec<(&str, Cmd)> = Vec::new();
        for r in TABLE {
            for s in r.script {
                assert_eq!(*s, s.to_lowercase(), "{s}");
                if let Some((_, other)) = seen.iter().find(|(x, _)| x == s) {
                    panic!("script spelling {s:?} is {other:?} and {:?}", r.cmd);
                }
                seen.push((s, r.cmd));
            }
        }
    }

    #[test]
    fn help_lists_the_game_and_the_arbiter_menu() {
        let game: Vec<Cmd> = Cmd::listed(Menu::Game).collect();
        let arbiter: Vec<Cmd> = Cmd::listed(Menu::Arbiter).collect();
        assert_eq!(game.first(), Some(&Cmd::Help));
        assert!(arbiter.contains(&Cmd::Help) && arbiter.contains(&Cmd::Back));
        assert!(!game.contains(&Cmd::Correct) && arbiter.contains(&Cmd::Correct));
        assert!(!game.contains(&Cmd::Yes) && !arbiter.contains(&Cmd::Yes));
        assert!(
            !game.contains(&Cmd::Board),
            "script-only commands are not typed"
        );
    }
}
