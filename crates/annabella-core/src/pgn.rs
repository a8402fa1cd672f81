//! Reading games from PGN text (pure: works on any `std::io::Read`, the
//! caller opens files).
//!
//! Only the main line is kept (variations and NAGs are skipped); its
//! comments are kept with the move they follow, and the clock commands in
//! them (`[%clk 1:30:00]`: the mover's time left; `[%emt 0:00:36]`: time
//! spent on the move; cutechess's `{+0.69/29 36s}`) are read. `FEN`,
//! `SetUp` and `Variant` headers are honoured (Chess960).
//!
//! Nothing is skipped silently: move text that is no move in algebraic
//! notation (a typo, `O-0`, UTF-16 or binary data) stops the game there and
//! is reported with its move number and text ([`PgnProblem::Unreadable`]),
//! so that the next move does not get the blame. Input is limited to
//! [`MAX_PGN_BYTES`]; a file that is not text (UTF-16, an image) is refused
//! as a whole ([`PgnReadError::NotText`]). The reader makes one pass over
//! the bytes, with no recursion (nested variations are counted).

use std::io::{self, Read};
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::locale::Locale;
use crate::locale::MsgKey;
use crate::vocab::{Utterance, Vocabulary};

/// The largest PGN input read: 64 MB.
pub const MAX_PGN_BYTES: u64 = 64 * 1024 * 1024;

/// The longest token of move text read as a move (longer is unreadable).
const MAX_MOVE_TOKEN: usize = 32;

/// One game as read from PGN: headers and main-line SAN, not yet checked.
#[derive(Debug, Clone, Default)]
pub struct PgnGame {
    /// Header pairs in file order.
    pub headers: Vec<(String, String)>,
    /// Main-line moves as written, up to the first unreadable one.
    pub sans: Vec<SanPlus>,
    /// Whether the game ended with a result marker (`1-0`, `*`, …); a game
    /// without one was probably cut short.
    pub terminated: bool,
    /// The first main-line move text that is no move in algebraic notation
    /// (as written, shortened); the main line stops before it.
    pub unreadable: Option<String>,
    /// Comment text without clock commands: `comments[0]` before the
    /// first move, `comments[i + 1]` after move `i` (empty: none).
    pub comments: Vec<String>,
    /// Per move: the mover's time left after it (`[%clk]`).
    pub clocks: Vec<Option<Duration>>,
    /// Per move: the time spent on it (`[%emt]`, or cutechess's
    /// `{eval/depth time}` comment).
    pub move_times: Vec<Option<Duration>>,
}

/// A clock time `h:mm:ss`, `m:ss` or `ss`, with optional decimals (the
/// one duration grammar, [`crate::clock::parse_duration`]).
pub fn parse_clock(text: &str) -> Option<Duration> {
    crate::clock::parse_duration(text).ok()
}

/// What one comment holds: its text without `[%...]` commands, the
/// `[%clk]` and the `[%emt]` (or cutechess) times.
fn read_comment(raw: &str) -> (String, Option<Duration>, Option<Duration>) {
    let mut text = String::new();
    let (mut clk, mut emt) = (None, None);
    let mut rest = raw;
    while let Some(open) = rest.find("[%") {
        text.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find(']') else {
            rest = "";
            break;
        };
        let mut cmd = after[..close].split_whitespace();
        match (cmd.next(), cmd.next()) {
            (Some("clk"), Some(t)) => clk = parse_clock(t).or(clk),
            (Some("emt"), Some(t)) => emt = parse_clock(t).or(emt),
            _ => {}
        }
        rest = &after[close + 1..];
    }
    text.push_str(rest);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // cutechess: "+0.69/29 36s" (score/depth, then the move's time), on
    // the last move followed by how the game ended: "-8.11/24 5.0s, White
    // resigns".
    let head = text.split(',').next().unwrap_or_default();
    if emt.is_none()
        && let [score, time] = head.split_whitespace().collect::<Vec<_>>()[..]
        && score.contains('/')
        && time.ends_with('s')
    {
        emt = parse_clock(time);
    }
    (text, clk, emt)
}

impl PgnGame {
    /// Keeps a main-line comment with the move it follows.
    fn comment(&mut self, raw: &[u8]) {
        let (text, clk, emt) = read_comment(&String::from_utf8_lossy(raw));
        let n = self.sans.len();
        self.comments
            .resize(self.comments.len().max(n + 1), String::new());
        if !text.is_empty() {
            let c = &mut self.comments[n];
            if !c.is_empty() {
                c.push(' ');
            }
            c.push_str(&text);
        }
        if n > 0 {
            self.clocks.resize(self.clocks.len().max(n), None);
            self.move_times.resize(self.move_times.len().max(n), None);
            self.clocks[n - 1] = clk.or(self.clocks[n - 1]);
            self.move_times[n - 1] = emt.or(self.move_times[n - 1]);
        }
    }

    /// One comment slot per position and one clock entry per move.
    fn fit(&mut self) {
        let n = self.sans.len();
        self.comments.resize(n + 1, String::new());
        self.clocks.resize(n, None);
        self.move_times.resize(n, None);
    }
}

/// Why a main-line move could not be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PgnProblem {
    /// The text is no move in algebraic notation.
    Unreadable,
    /// No legal move fits it.
    Illegal,
    /// Several legal moves fit it.
    Ambiguous,
    /// A null move (`--`) while in check.
    NullInCheck,
}

/// The first main-line move of a game that could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnMoveError {
    /// Index of the move in the main line (from 0).
    pub index: usize,
    /// The move text as written (shortened if long).
    pub text: String,
    /// Why it could not be played.
    pub problem: PgnProblem,
}

/// A PGN game checked move by move against the rules.
#[derive(Debug, Clone)]
pub struct ReplayedGame {
    /// Start position.
    pub start: Chess,
    /// Castling notation mode (Chess960 or standard).
    pub mode: CastlingMode,
    /// The moves of the main line, in order; `None` is a null move (`--`,
    /// `Z0`: no move recorded, the other side is to move).
    pub moves: Vec<Option<Move>>,
    /// Where replay stopped, if a move could not be played.
    pub error: Option<PgnMoveError>,
}

/// Why a PGN input could not be read at all.
#[derive(Debug)]
pub enum PgnReadError {
    /// The input could not be read.
    Io(io::Error),
    /// More than [`MAX_PGN_BYTES`].
    TooLarge,
    /// Not text: UTF-16 (`utf16`) or binary data.
    NotText {
        /// It looks like UTF-16 text.
        utf16: bool,
    },
}

impl From<io::Error> for PgnReadError {
    fn from(e: io::Error) -> PgnReadError {
        PgnReadError::Io(e)
    }
}

impl std::fmt::Display for PgnReadError {
    /// The reason in the base locale's words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::locale::in_base(|l| self.describe(l)))
    }
}

impl std::error::Error for PgnReadError {}

impl PgnProblem {
    /// Why, in `locale`'s words, without the position (for a move that is
    /// named by its text; [`ReplayedGame::describe_error`] says more).
    pub fn describe(&self, locale: &Locale) -> String {
        let key = match self {
            PgnProblem::Unreadable => MsgKey::PgnNotNotation,
            PgnProblem::Illegal => MsgKey::PgnNoLegalMove,
            PgnProblem::Ambiguous => MsgKey::PgnAmbiguous,
            PgnProblem::NullInCheck => MsgKey::PgnNullInCheck,
        };
        locale.message(key, &[])
    }
}

impl PgnReadError {
    /// The reason in `locale`'s words (for `{error}` in `error.pgn_read`).
    pub fn describe(&self, locale: &Locale) -> String {
        match self {
            PgnReadError::Io(e) => crate::input::describe_io_error(locale, e),
            PgnReadError::TooLarge => locale.message(
                MsgKey::PgnTooLarge,
                &[("limit", &(MAX_PGN_BYTES / (1024 * 1024)).to_string())],
            ),
            PgnReadError::NotText { utf16: true } => locale.message(MsgKey::PgnUtf16, &[]),
            PgnReadError::NotText { utf16: false } => locale.message(MsgKey::PgnBinary, &[]),
        }
    }
}

impl PgnGame {
    /// A header value by (case-insensitive) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the game is Chess960 (a `Variant` header naming it).
    pub fn is_chess960(&self) -> bool {
        self.header("Variant").is_some_and(|v| {
            let v = v.to_ascii_lowercase().replace([' ', '-'], "");
            v.contains("960") || v.contains("fischerandom") || v.contains("fischerrandom")
        })
    }

    /// The start position and castling mode, from the headers.
    ///
    /// # Errors
    ///
    /// Why the `FEN` header is not a position.
    pub fn start(&self) -> Result<(Chess, CastlingMode), FenProblem> {
        let mode = if self.is_chess960() {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        match self.header("FEN") {
            None => Ok((Chess::default(), mode)),
            Some(fen) => read_fen(fen, mode).map(|p| (p, mode)),
        }
    }

    /// Plays the main line, stopping at the first move that cannot be
    /// played (or at unreadable move text).
    ///
    /// # Errors
    ///
    /// Why the `FEN` header is not a position.
    pub fn replay(&self) -> Result<ReplayedGame, FenProblem> {
        let (start, mode) = self.start()?;
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.sans.len());
        let mut error = None;
        let fail = |index: usize, san: &SanPlus, problem| PgnMoveError {
            index,
            text: san.to_string(),
            problem,
        };
        for (i, san) in self.sans.iter().enumerate() {
            if san.san == San::Null {
                match pos.clone().swap_turn() {
                    Ok(p) => {
                        pos = p;
                        moves.push(None);
                        continue;
                    }
                    Err(_) => {
                        error = Some(fail(i, san, PgnProblem::NullInCheck));
                        break;
                    }
                }
            }
            match san.san.to_move(&pos) {
                Ok(m) => {
                    pos.play_unchecked(m);
                    moves.push(Some(m));
                }
                Err(e) => {
                    let problem = match e {
                        SanError::AmbiguousSan => PgnProblem::Ambiguous,
                        SanError::IllegalSan => PgnProblem::Illegal,
                    };
                    error = Some(fail(i, san, problem));
                    break;
                }
            }
        }
        if error.is_none()
            && let Some(text) = &self.unreadable
        {
            error = Some(PgnMoveError {
                index: moves.len(),
                text: text.clone(),
                problem: PgnProblem::Unreadable,
            });
        }
        Ok(ReplayedGame {
            start,
            mode,
            moves,
            error,
        })
    }
}

impl ReplayedGame {
    /// Each position with the move played from it (`None`: null move).
    pub fn steps(&self) -> impl Iterator<Item = (Chess, Option<Move>)> + '_ {
        let mut pos = self.start.clone();
        self.moves.iter().map(move |m| {
            let before = pos.clone();
            match m {
                Some(m) => pos.play_unchecked(*m),
                None => {
                    if let Ok(p) = pos.clone().swap_turn() {
                        pos = p;
                    }
                }
            }
            (before, *m)
        })
    }

    /// The position after every move replayed (where an error happened).
    pub fn end(&self) -> Chess {
        let mut pos = self.start.clone();
        for m in &self.moves {
            match m {
                Some(m) => pos.play_unchecked(*m),
                None => {
                    if let Ok(p) = pos.clone().swap_turn() {
                        pos = p;
                    }
                }
            }
        }
        pos
    }

    /// The number of the move at main-line `index` as PGN writes it:
    /// `12.` for White, `12...` for Black (null moves keep the count).
    pub fn move_number(&self, index: usize) -> String {
        let first = usize::try_from(self.start.fullmoves().get()).unwrap_or(1);
        let offset = usize::from(self.start.turn() == Color::Black);
        let number = first.saturating_add((index + offset) / 2);
        if (index + offset).is_multiple_of(2) {
            format!("{number}.")
        } else {
            format!("{number}...")
        }
    }

    /// Explains [`ReplayedGame::error`] in `vocab`'s words: the move number
    /// and the text as written, and why (for an illegal or ambiguous move
    /// the parser's own explanation in this position). `None` without an
    /// error. `file` and `game` name where it was.
    pub fn describe_error(&self, vocab: &Vocabulary, file: &str, game: usize) -> Option<Utterance> {
        let e = self.error.as_ref()?;
        let plain = |s: String| Utterance::plain(s);
        // "4" for White's fourth move, "4..." for Black's.
        let number = self.move_number(e.index);
        let number = number
            .strip_suffix('.')
            .filter(|n| !n.ends_with('.'))
            .unwrap_or(&number);
        let number = plain(number.to_owned());
        let args_base = [
            ("file", plain(file.to_owned())),
            ("game", plain(game.to_string())),
            ("number", number),
            ("move", plain(e.text.clone())),
        ];
        let args: Vec<(&str, &Utterance)> = args_base.iter().map(|(k, v)| (*k, v)).collect();
        if e.problem == PgnProblem::Unreadable {
            return Some(vocab.message(MsgKey::ErrorPgnUnreadable, &args));
        }
        let pos = self.end();
        let reason = match e.problem {
            PgnProblem::NullInCheck => vocab.message(MsgKey::PgnNullInCheck, &[]),
            _ => match vocab.parse(&pos, self.mode, &e.text) {
                Err(why) => vocab.describe_error(&pos, &why),
                Ok(_) => vocab.message(MsgKey::PgnNoLegalMove, &[]),
            },
        };
        let mut args = args;
        args.push(("reason", &reason));
        Some(vocab.message(MsgKey::ErrorPgnMove, &args))
    }
}

/// Why the first game of a PGN input cannot be continued
/// ([`continue_from`]).
#[derive(Debug)]
pub enum ContinueError {
    /// The file cannot be read (or opened).
    Read(PgnReadError),
    /// It holds no game.
    NoGame,
    /// Its FEN is not a position one can play from.
    Fen(FenProblem),
    /// A move cannot be played: the game as replayed, with its error.
    Move(Box<ReplayedGame>),
}

impl ContinueError {
    /// The message for the player in `vocab`'s words: `file` names the
    /// file (for a move that cannot be played: its number, its text and
    /// why).
    pub fn describe(&self, vocab: &Vocabulary, file: &str) -> Utterance {
        let bad = |error: String| {
            vocab.message(
                MsgKey::PlayBadPgn,
                &[
                    ("file", &Utterance::plain(file)),
                    ("error", &Utterance::plain(error)),
                ],
            )
        };
        match self {
            ContinueError::Read(e) => bad(e.describe(vocab.locale())),
            ContinueError::NoGame => {
                vocab.message(MsgKey::ErrorPgnNoGame, &[("file", &Utterance::plain(file))])
            }
            ContinueError::Fen(error) => {
                let why = vocab.message(
                    MsgKey::ErrorBadFen,
                    &[
                        ("error", &Utterance::plain(error.describe(vocab.locale()))),
                        ("example", &Utterance::plain(START_FEN)),
                    ],
                );
                bad(why.display)
            }
            ContinueError::Move(replayed) => replayed
                .describe_error(vocab, file, 1)
                .unwrap_or_else(|| bad(PgnProblem::Illegal.describe(vocab.locale()))),
        }
    }
}

/// The first game of a PGN input, replayed, to continue it (`annabella
/// play --from-pgn`). `input` is the opened file (or why it could not be
/// opened).
///
/// # Errors
///
/// Why it cannot be continued: the file cannot be read, holds no game,
/// has a bad FEN, or a move that cannot be played
/// ([`ContinueError::describe`] words it).
pub fn continue_from<R: Read>(
    input: io::Result<R>,
) -> Result<(PgnGame, ReplayedGame), ContinueError> {
    let games = input
        .map_err(PgnReadError::from)
        .and_then(read_games)
        .map_err(ContinueError::Read)?;
    let Some(game) = games.into_iter().next() else {
        return Err(ContinueError::NoGame);
    };
    let replayed = game.replay().map_err(ContinueError::Fen)?;
    if replayed.error.is_some() {
        return Err(ContinueError::Move(Box::new(replayed)));
    }
    Ok((game, replayed))
}

/// The standard start position, as an example of a FEN.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Parses a FEN into a position, or says why not (the same as
/// [`read_fen`]).
///
/// # Errors
///
/// The first problem found, typed ([`FenProblem::describe`] words it).
pub fn position_from_fen(fen: &str, mode: CastlingMode) -> Result<Chess, FenProblem> {
    read_fen(fen, mode)
}

/// Why a FEN is not a position one can play from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenProblem {
    /// Not a FEN at all (wrong number of fields, stray text).
    Syntax,
    /// The piece placement is not eight ranks of eight squares.
    Board,
    /// The side to move is not `w` or `b`.
    Turn,
    /// The castling rights are not written right, or do not fit the
    /// position.
    Castling,
    /// The en passant square is wrong.
    EnPassant,
    /// The move counters are not numbers.
    Counters,
    /// No pieces at all.
    EmptyBoard,
    /// A side without a king, or with several.
    Kings,
    /// Pawns on the first or last rank.
    PawnsOnBackRank,
    /// The side not to move is in check.
    OppositeCheck,
    /// A check no legal game can reach.
    ImpossibleCheck,
    /// More pieces than a game can have.
    TooMuchMaterial,
}

impl FenProblem {
    /// The reason in `locale`'s words (for `{error}` in `error.bad_fen`).
    pub fn describe(&self, locale: &Locale) -> String {
        let key = match self {
            FenProblem::Syntax => MsgKey::FenSyntax,
            FenProblem::Board => MsgKey::FenBoard,
            FenProblem::Turn => MsgKey::FenTurn,
            FenProblem::Castling => MsgKey::FenCastling,
            FenProblem::EnPassant => MsgKey::FenEnPassant,
            FenProblem::Counters => MsgKey::FenCounters,
            FenProblem::EmptyBoard => MsgKey::FenEmptyBoard,
            FenProblem::Kings => MsgKey::FenKings,
            FenProblem::PawnsOnBackRank => MsgKey::FenPawnsOnBackRank,
            FenProblem::OppositeCheck => MsgKey::FenOppositeCheck,
            FenProblem::ImpossibleCheck => MsgKey::FenImpossibleCheck,
            FenProblem::TooMuchMaterial => MsgKey::FenTooMuchMaterial,
        };
        locale.message(key, &[])
    }
}

impl std::fmt::Display for FenProblem {
    /// The reason in the base locale's words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::locale::in_base(|l| self.describe(l)))
    }
}

impl std::error::Error for FenProblem {}

/// Parses a FEN into a position, or says why not.
///
/// # Errors
///
/// The first problem found.
pub fn read_fen(fen: &str, mode: CastlingMode) -> Result<Chess, FenProblem> {
    use shakmaty::PositionErrorKinds as K;
    use shakmaty::fen::ParseFenError as P;
    let fen: Fen = fen.trim().parse().map_err(|e| match e {
        P::InvalidBoard => FenProblem::Board,
        P::InvalidTurn => FenProblem::Turn,
        P::InvalidCastling => FenProblem::Castling,
        P::InvalidEpSquare => FenProblem::EnPassant,
        P::InvalidHalfmoveClock | P::InvalidFullmoves => FenProblem::Counters,
        _ => FenProblem::Syntax,
    })?;
    fen.into_position(mode).map_err(|e| {
        let kinds = e.kinds();
        [
            (K::EMPTY_BOARD, FenProblem::EmptyBoard),
            (K::MISSING_KING | K::TOO_MANY_KINGS, FenProblem::Kings),
            (K::PAWNS_ON_BACKRANK, FenProblem::PawnsOnBackRank),
            (K::INVALID_CASTLING_RIGHTS, FenProblem::Castling),
            (K::INVALID_EP_SQUARE, FenProblem::EnPassant),
            (K::OPPOSITE_CHECK, FenProblem::OppositeCheck),
            (K::IMPOSSIBLE_CHECK, FenProblem::ImpossibleCheck),
        ]
        .into_iter()
        .find(|(k, _)| kinds.intersects(*k))
        .map_or(FenProblem::TooMuchMaterial, |(_, p)| p)
    })
}

/// Reads every game of a PGN stream (at most [`MAX_PGN_BYTES`]).
///
/// # Errors
///
/// A read error, input over the limit, or input that is not text.
pub fn read_games<R: Read>(input: R) -> Result<Vec<PgnGame>, PgnReadError> {
    let mut bytes = Vec::new();
    input.take(MAX_PGN_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_PGN_BYTES {
        return Err(PgnReadError::TooLarge);
    }
    if let Some(utf16) = not_text(&bytes) {
        return Err(PgnReadError::NotText { utf16 });
    }
    Ok(parse_games(&bytes))
}

/// `Some(utf16?)` when the bytes are not text: a UTF-16 byte-order mark,
/// or a NUL byte (UTF-16 text of Latin letters has one every other byte;
/// images and other binary files have them too).
fn not_text(bytes: &[u8]) -> Option<bool> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Some(true);
    }
    let head = &bytes[..bytes.len().min(64 * 1024)];
    let nuls = head.iter().filter(|&&b| b == 0).count();
    if nuls == 0 {
        return None;
    }
    // UTF-16 text of ASCII: every other byte is NUL.
    let even = head.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd = head.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    let half = head.len() / 2;
    Some(half > 0 && (even * 10 >= half * 9 || odd * 10 >= half * 9))
}

/// Whether a byte ends a move token.
fn ends_token(b: u8) -> bool {
    b.is_ascii_whitespace()
        || matches!(
            b,
            b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$' | b'!' | b'?' | b'*' | b'"'
        )
}

/// The PGN grammar's pieces, one pass over the bytes.
struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn rest(&self) -> &[u8] {
        self.bytes.get(self.at..).unwrap_or(&[])
    }

    /// Skips to just after the next `byte` (or to the end).
    fn skip_past(&mut self, byte: u8) {
        match self.rest().iter().position(|&b| b == byte) {
            Some(i) => self.at += i + 1,
            None => self.at = self.bytes.len(),
        }
    }

    /// Whether `at` starts a line.
    fn at_line_start(&self) -> bool {
        self.at == 0 || self.bytes.get(self.at - 1) == Some(&b'\n')
    }

    /// A tag pair `[Name "value"]`, the `[` already seen; `None` if it is
    /// malformed (the rest of its line is skipped).
    fn tag(&mut self) -> Option<(String, String)> {
        self.at += 1;
        while self.peek().is_some_and(|b| b == b' ' || b == b'\t') {
            self.at += 1;
        }
        let start = self.at;
        while self
            .peek()
            .is_some_and(|b| !b.is_ascii_whitespace() && b != b'"' && b != b']')
        {
            self.at += 1;
        }
        let name = String::from_utf8_lossy(&self.bytes[start..self.at]).into_owned();
        while self.peek().is_some_and(|b| b == b' ' || b == b'\t') {
            self.at += 1;
        }
        if self.peek() != Some(b'"') || name.is_empty() {
            self.skip_past(b'\n');
            return None;
        }
        self.at += 1;
        let mut value = Vec::new();
        loop {
            match self.peek() {
                None | Some(b'\n') => return None,
                Some(b'\\') => {
                    self.at += 1;
                    if let Some(b) = self.peek().filter(|&b| b != b'\n') {
                        value.push(b);
                        self.at += 1;
                    }
                }
                Some(b'"') => {
                    self.at += 1;
                    break;
                }
                Some(b) => {
                    value.push(b);
                    self.at += 1;
                }
            }
        }
        // Up to the closing bracket on the same line.
        match self.rest().iter().position(|&b| b == b']' || b == b'\n') {
            Some(i) if self.rest()[i] == b']' => self.at += i + 1,
            _ => return None,
        }
        Some((name, String::from_utf8_lossy(&value).into_owned()))
    }

    /// Skips a variation, the `(` already seen: nested variations are
    /// counted, comments inside are skipped.
    fn skip_variation(&mut self) {
        self.at += 1;
        let mut depth = 1usize;
        while let Some(b) = self.peek() {
            match b {
                b'(' => {
                    depth += 1;
                    self.at += 1;
                }
                b')' => {
                    depth -= 1;
                    self.at += 1;
                    if depth == 0 {
                        return;
                    }
                }
                b'{' => self.skip_past(b'}'),
                b';' => self.skip_past(b'\n'),
                _ => self.at += 1,
            }
        }
    }

    /// The token starting here (up to a byte that ends tokens; at least
    /// one byte).
    fn token(&mut self) -> &[u8] {
        let start = self.at;
        self.at += 1;
        while self.peek().is_some_and(|b| !ends_token(b)) {
            self.at += 1;
        }
        &self.bytes[start..self.at]
    }
}

/// A result marker: `1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`.
fn is_result(token: &[u8]) -> bool {
    matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") || token == "½-½".as_bytes()
}

/// A move number: digits and dots (`12.`, `12...`, `12`).
fn is_move_number(token: &[u8]) -> bool {
    token.first().is_some_and(u8::is_ascii_digit)
        && token.iter().all(|&b| b.is_ascii_digit() || b == b'.')
}

/// Move text as shown in messages: at most 32 characters, control
/// characters replaced.
fn shown(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(token);
    let mut out: String = text
        .chars()
        .take(MAX_MOVE_TOKEN)
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    if text.chars().count() > MAX_MOVE_TOKEN {
        out.push('…');
    }
    out
}

/// Reads the games of PGN bytes (already checked to be text).
fn parse_games(bytes: &[u8]) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut s = Scanner { bytes, at: 0 };
    if s.rest().starts_with(b"\xEF\xBB\xBF") {
        s.at = 3;
    }
    let mut game = PgnGame::default();
    // Whether the game has anything of its own (a tag, a move, a result).
    let mut started = false;
    let mut in_movetext = false;
    let finish = |game: &mut PgnGame, started: &mut bool, games: &mut Vec<PgnGame>| {
        if *started {
            game.fit();
            games.push(std::mem::take(game));
        }
        *game = PgnGame::default();
        *started = false;
    };
    while let Some(b) = s.peek() {
        match b {
            b'%' if s.at_line_start() => s.skip_past(b'\n'),
            _ if b.is_ascii_whitespace() => s.at += 1,
            b'[' => {
                if in_movetext {
                    finish(&mut game, &mut started, &mut games);
                    in_movetext = false;
                }
                if let Some(tag) = s.tag() {
                    game.headers.push(tag);
                    started = true;
                }
            }
            b'{' => {
                s.at += 1;
                let body = s.rest();
                let len = body.iter().position(|&b| b == b'}').unwrap_or(body.len());
                if game.unreadable.is_none() {
                    game.comment(&body[..len]);
                }
                s.at += len + 1;
            }
            b';' => s.skip_past(b'\n'),
            b'(' => s.skip_variation(),
            b')' | b']' | b'}' | b'"' => s.at += 1,
            b'$' | b'!' | b'?' => {
                s.at += 1;
                while s
                    .peek()
                    .is_some_and(|b| !ends_token(b) || b == b'!' || b == b'?')
                {
                    s.at += 1;
                }
            }
            _ => {
                let token = s.token();
                in_movetext = true;
                if is_result(token) {
                    game.terminated = true;
                    started = true;
                    finish(&mut game, &mut started, &mut games);
                    in_movetext = false;
                    continue;
                }
                if is_move_number(token) {
                    continue;
                }
                started = true;
                if game.unreadable.is_some() {
                    continue;
                }
                // "1.e4": a move number glued to the move.
                let token = match token.iter().position(|&b| b == b'.') {
                    Some(i) if is_move_number(&token[..=i]) => {
                        let mut j = i;
                        while token.get(j) == Some(&b'.') {
                            j += 1;
                        }
                        &token[j..]
                    }
                    _ => token,
                };
                match read_move(token) {
                    Some(san) => game.sans.push(san),
                    None => game.unreadable = Some(shown(token)),
                }
            }
        }
    }
    finish(&mut game, &mut started, &mut games);
    games
}

/// One move token in SAN (`Nf3`, `exd5`, `e8=Q+`, `O-O`, `0-0-0`, `--`,
/// `Z0`), or `None`.
fn read_move(token: &[u8]) -> Option<SanPlus> {
    if token.is_empty() || token.len() > MAX_MOVE_TOKEN {
        return None;
    }
    let (body, suffix) = match token.last() {
        Some(b'+' | b'#') => (&token[..token.len() - 1], &token[token.len() - 1..]),
        _ => (token, &b""[..]),
    };
    // Castling written with zeros, as many programs do.
    let castle: Option<&[u8]> = match body {
        b"0-0" => Some(b"O-O"),
        b"0-0-0" => Some(b"O-O-O"),
        _ => None,
    };
    // An en passant capture may say so ("exd6e.p.").
    let token = token
        .strip_suffix(b"e.p.")
        .filter(|t| t.len() >= 4)
        .unwrap_or(token);
    let text: Vec<u8> = match castle {
        Some(c) => [c, suffix].concat(),
        None => token.to_vec(),
    };
    SanPlus::from_ascii(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_comments_variations_and_nags() {
        let pgn =
            b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 {best} e5 $1 (1... c5 2. Nf3) 2. Nf3 Nc6 *\n";
        let games = read_games(&pgn[..]).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].header("white"), Some("A"));
        let r = games[0].replay().unwrap();
        assert_eq!(r.moves.len(), 4);
        assert!(r.error.is_none());
    }

    #[test]
    fn comments_and_clock_times_stay_with_their_moves() {
        let pgn = b"{A game} 1. e4 {[%clk 1:29:50] best} e5 {[%clk 1:29:58]} (1... c5 {no}) \
            2. Nf3 {+0.69/29 36s} Nc6 {[%emt 0:00:12] [%eval 0.3]} *";
        let g = &read_games(&pgn[..]).unwrap()[0];
        assert_eq!(
            g.comments,
            ["A game", "best", "", "+0.69/29 36s", ""].map(String::from)
        );
        assert_eq!(
            g.clocks,
            [
                Some(Duration::from_secs(5390)),
                Some(Duration::from_secs(5398)),
                None,
                None
            ]
        );
        assert_eq!(
            g.move_times,
            [
                None,
                None,
                Some(Duration::from_secs(36)),
                Some(Duration::from_secs(12))
            ]
        );
        assert_eq!(parse_clock("0:00:07.5"), Some(Duration::from_millis(7500)));
        assert_eq!(parse_clock("x"), None);
    }

    #[test]
    fn illegal_move_stops_the_replay() {
        let pgn = b"1. e4 e5 2. Qxf7 *";
        let games = read_games(&pgn[..]).unwrap();
        assert!(games[0].terminated);
        let r = games[0].replay().unwrap();
        assert_eq!(r.moves.len(), 2);
        assert_eq!(
            r.error,
            Some(PgnMoveError {
                index: 2,
                text: "Qxf7".into(),
                problem: PgnProblem::Illegal
            })
        );
    }

    #[test]
    fn cut_short_game_has_no_result_marker() {
        let games = read_games(&b"1. e4 e5 2. Nf3 Nc6 3. Bb"[..]).unwrap();
        assert!(!games[0].terminated);
    }

    #[test]
    fn null_move_passes_the_turn() {
        let games = read_games(&b"1. e4 Z0 2. d4 -- 3. c4 *"[..]).unwrap();
        let r = games[0].replay().unwrap();
        assert!(r.error.is_none(), "{:?}", r.error);
        assert_eq!(r.moves.len(), 5);
        assert_eq!(r.moves[1], None);
        let steps: Vec<_> = r.steps().collect();
        assert_eq!(steps[4].0.turn(), shakmaty::Color::White);
    }

    #[test]
    fn bad_fen_is_an_error_not_a_panic() {
        let pgn = b"[FEN \"this is no fen\"]\n\n1. e4 *";
        let games = read_games(&pgn[..]).unwrap();
        assert!(games[0].replay().is_err());
    }

    #[test]
    fn chess960_header_switches_mode() {
        let pgn = b"[Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\n9. g3 *";
        let games = read_games(&pgn[..]).unwrap();
        let r = games[0].replay().unwrap();
        assert_eq!(r.mode, CastlingMode::Chess960);
        assert_eq!(r.moves.len(), 1);
    }

    #[test]
    fn unreadable_move_text_is_reported_not_skipped() {
        // Issue 13: a typo was skipped silently and the next move got the
        // blame. Each of these stops the game at the bad text, with its
        // index and text.
        for (pgn, index, text) in [
            ("1. e4 e5 2. O-0 Nc6 *", 2, "O-0"),
            ("1. e4 e5 2. Nf9 Nc6 *", 2, "Nf9"),
            ("1. e4 e5x 2. Nf3 *", 1, "e5x"),
            ("1. e4 e5 2. Nf3 Nc6 3. Bb5 Kk1 *", 5, "Kk1"),
            ("1. e4 \u{00e9}5 *", 1, "\u{00e9}5"),
        ] {
            let games = read_games(pgn.as_bytes()).unwrap();
            assert_eq!(games.len(), 1, "{pgn}");
            let r = games[0].replay().unwrap();
            assert_eq!(r.moves.len(), index, "{pgn}");
            assert_eq!(
                r.error,
                Some(PgnMoveError {
                    index,
                    text: text.into(),
                    problem: PgnProblem::Unreadable
                }),
                "{pgn}"
            );
        }
        // Castling with zeros, null moves, glued move numbers, annotations
        // and en passant marks are moves.
        let games = read_games(
            &b"1.e4 Nf6 2.e5!? d5?! 3.exd6e.p. -- 4.Nf3 e6 5.Be2 Be7 6.0-0 0-0 7.Z0 *"[..],
        )
        .unwrap();
        let r = games[0].replay().unwrap();
        assert_eq!(r.error, None);
        assert_eq!(r.moves.len(), 13);
        assert_eq!(r.moves.iter().filter(|m| m.is_none()).count(), 2);
    }

    #[test]
    fn text_that_is_not_pgn_is_refused_as_a_whole() {
        let utf16: Vec<u8> = "1. e4 e5 *"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(matches!(
            read_games(utf16.as_slice()),
            Err(PgnReadError::NotText { utf16: true })
        ));
        let mut bom = vec![0xFF, 0xFE];
        bom.extend_from_slice(&utf16);
        assert!(matches!(
            read_games(bom.as_slice()),
            Err(PgnReadError::NotText { utf16: true })
        ));
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0";
        assert!(matches!(
            read_games(&png[..]),
            Err(PgnReadError::NotText { utf16: false })
        ));
        let huge = io::repeat(b' ').take(MAX_PGN_BYTES + 1);
        assert!(matches!(read_games(huge), Err(PgnReadError::TooLarge)));
    }

    #[test]
    fn games_split_at_tags_and_results() {
        let pgn = b"[White \"A\"]\n\n1. e4 1-0\n\n[White \"B\"]\n[Black \"C\"]\n\n1. d4 d5 *\n1. c4 0-1 {trailing}";
        let games = read_games(&pgn[..]).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].header("White"), Some("A"));
        assert_eq!(games[1].header("Black"), Some("C"));
        assert_eq!(games[1].sans.len(), 2);
        assert!(games[2].headers.is_empty() && games[2].terminated);
        // Deep variations and a tag with escapes.
        let mut deep = b"[Event \"a \\\"b\\\" c\"]\n1. e4 ".to_vec();
        deep.extend(std::iter::repeat_n(b'(', 100_000));
        deep.extend_from_slice(b"e5 *");
        let games = read_games(deep.as_slice()).unwrap();
        assert_eq!(games[0].header("Event"), Some("a \"b\" c"));
        assert_eq!(games[0].sans.len(), 1);
    }

    #[test]
    fn the_shared_games_read_as_pgn_reader_reads_them() {
        // The reader agrees with the pgn-reader crate on real games.
        use pgn_reader::{RawTag, Reader, Skip, Visitor};
        use std::ops::ControlFlow;
        #[derive(Default)]
        struct Seen {
            headers: Vec<(String, String)>,
            sans: Vec<String>,
        }
        struct V;
        impl Visitor for V {
            type Tags = Seen;
            type Movetext = Seen;
            type Output = Seen;
            fn begin_tags(&mut self) -> ControlFlow<Seen, Seen> {
                ControlFlow::Continue(Seen::default())
            }
            fn tag(&mut self, t: &mut Seen, name: &[u8], value: RawTag<'_>) -> ControlFlow<Seen> {
                t.headers.push((
                    String::from_utf8_lossy(name).into_owned(),
                    value.decode_utf8_lossy().into_owned(),
                ));
                ControlFlow::Continue(())
            }
            fn begin_movetext(&mut self, t: Seen) -> ControlFlow<Seen, Seen> {
                ControlFlow::Continue(t)
            }
            fn san(&mut self, m: &mut Seen, san: SanPlus) -> ControlFlow<Seen> {
                m.sans.push(san.to_string());
                ControlFlow::Continue(())
            }
            fn begin_variation(&mut self, _: &mut Seen) -> ControlFlow<Seen, Skip> {
                ControlFlow::Continue(Skip(true))
            }
            fn end_game(&mut self, m: Seen) -> Seen {
                m
            }
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/pgn");
        let mut games = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "pgn") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let ours = read_games(bytes.as_slice()).unwrap();
            let mut reader = Reader::new(bytes.as_slice());
            let mut theirs = Vec::new();
            while let Some(g) = reader.read_game(&mut V).unwrap() {
                theirs.push(g);
            }
            assert_eq!(ours.len(), theirs.len(), "{}", path.display());
            for (a, b) in ours.iter().zip(&theirs) {
                games += 1;
                assert_eq!(a.headers, b.headers, "{}", path.display());
                let sans: Vec<String> = a.sans.iter().map(ToString::to_string).collect();
                assert_eq!(sans, b.sans, "{}", path.display());
                assert!(a.terminated && a.unreadable.is_none());
            }
        }
        assert!(games >= 14, "{games}");
    }

    #[test]
    fn move_errors_are_worded_from_the_locale() {
        // Issue 13: "illegal san" (English library text) inside translated
        // sentences, and the move number as a bare index.
        let games = read_games(&b"1. e4 e5 2. Qxf7 *"[..]).unwrap();
        let r = games[0].replay().unwrap();
        assert_eq!(r.move_number(2), "2.");
        assert_eq!(r.move_number(3), "2...");
        for code in crate::locale::builtin_codes() {
            let v = Vocabulary::builtin(code).unwrap();
            let said = r.describe_error(&v, "g.pgn", 1).unwrap();
            assert!(
                !said.display.contains("illegal san"),
                "{code}: {}",
                said.display
            );
            // The reason is the parser's own, in this locale.
            let pos = r.end();
            let why = v.describe_error(
                &pos,
                &v.parse(&pos, CastlingMode::Standard, "Qxf7").unwrap_err(),
            );
            let expected = v.message(
                MsgKey::ErrorPgnMove,
                &[
                    ("file", &Utterance::plain("g.pgn")),
                    ("game", &Utterance::plain("1")),
                    ("number", &Utterance::plain("2")),
                    ("move", &Utterance::plain("Qxf7")),
                    ("reason", &why),
                ],
            );
            assert_eq!(said, expected, "{code}");
        }
        let games = read_games(&b"1. e4 O-0 *"[..]).unwrap();
        let r = games[0].replay().unwrap();
        let v = Vocabulary::builtin("de").unwrap();
        let expected = v.message(
            MsgKey::ErrorPgnUnreadable,
            &[
                ("file", &Utterance::plain("g.pgn")),
                ("game", &Utterance::plain("1")),
                ("number", &Utterance::plain("1...")),
                ("move", &Utterance::plain("O-0")),
            ],
        );
        assert_eq!(r.describe_error(&v, "g.pgn", 1), Some(expected));
    }
}
