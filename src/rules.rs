//! Match rules on top of `shakmaty` (pure core, no I/O).

/// How FIDE classifies a game by its time control (Art. 7.5, Appendices A
/// and B): penalties for illegal moves differ between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Standard (classical) play: more than 60 minutes for 60 moves.
    Standard,
    /// Rapid: more than 10 and at most 60 minutes for 60 moves.
    Rapid,
    /// Blitz: at most 10 minutes for 60 moves.
    Blitz,
}
