//! What the recognizer heard (pure): the alternatives of one utterance,
//! best first, with word confidences, read from Vosk's result JSON.

use serde::{Deserialize, Serialize};

/// One word of an alternative.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct HeardWord {
    /// The word as the model spells it.
    pub word: String,
    /// The model's confidence in the word (0–1), where Vosk gives one
    /// (results without alternatives).
    #[serde(default)]
    pub conf: Option<f32>,
}

/// One transcript the recognizer considers possible.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Alternative {
    /// The words joined by spaces.
    pub text: String,
    /// Vosk's score of the alternative (higher is better; not a
    /// probability), where given.
    #[serde(default)]
    pub confidence: Option<f32>,
    /// The words with their confidences, where given.
    #[serde(default)]
    pub words: Vec<HeardWord>,
}

/// Everything the recognizer said about one utterance: the alternatives,
/// best first.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Hearing {
    /// Best first.
    pub alternatives: Vec<Alternative>,
}

#[derive(Deserialize)]
struct RawWord {
    word: String,
    #[serde(default)]
    conf: Option<f32>,
}

#[derive(Deserialize)]
struct RawAlternative {
    #[serde(default)]
    confidence: Option<f32>,
    #[serde(default)]
    result: Vec<RawWord>,
    #[serde(default)]
    text: String,
}

#[derive(Deserialize)]
struct RawResult {
    #[serde(default)]
    alternatives: Option<Vec<RawAlternative>>,
    #[serde(default)]
    result: Vec<RawWord>,
    #[serde(default)]
    text: String,
}

impl Hearing {
    /// Reads Vosk's result JSON: either `{"alternatives": [...]}` (with
    /// `set_max_alternatives`) or `{"result": [...], "text": ...}`.
    pub fn from_vosk_json(json: &str) -> Result<Hearing, serde_json::Error> {
        let raw: RawResult = serde_json::from_str(json)?;
        let conv = |words: Vec<RawWord>| {
            words
                .into_iter()
                .map(|w| HeardWord {
                    word: w.word,
                    conf: w.conf,
                })
                .collect()
        };
        let alternatives = match raw.alternatives {
            Some(alts) => alts
                .into_iter()
                .map(|a| Alternative {
                    text: a.text,
                    confidence: a.confidence,
                    words: conv(a.result),
                })
                .collect(),
            None => vec![Alternative {
                text: raw.text,
                confidence: None,
                words: conv(raw.result),
            }],
        };
        Ok(Hearing { alternatives })
    }

    /// Reads what [`Decoding::finish`](super::recognizer::Decoding::finish)
    /// records: `{"nbest": ALTERNATIVES, "words": SINGLE}`, or a plain Vosk
    /// result.
    pub fn from_recorded_json(json: &str) -> Result<Hearing, serde_json::Error> {
        #[derive(Deserialize)]
        struct Both {
            nbest: serde_json::Value,
            words: serde_json::Value,
        }
        match serde_json::from_str::<Both>(json) {
            Ok(both) => {
                let mut h = Hearing::from_vosk_json(&both.nbest.to_string())?;
                let w = Hearing::from_vosk_json(&both.words.to_string())?;
                h.merge_word_confidences(&w);
                Ok(h)
            }
            Err(_) => Hearing::from_vosk_json(json),
        }
    }

    /// Adds the word confidences of `single` (a result without
    /// alternatives, from a second decoding of the same audio with the
    /// freer word-loop grammar) to the best alternative. If that decoding
    /// heard another transcript, the best alternative's words get
    /// confidence 0: the two disagree, so nothing is certain.
    pub fn merge_word_confidences(&mut self, single: &Hearing) {
        let Some(best) = single.alternatives.first() else {
            return;
        };
        let Some(top) = self.alternatives.first_mut() else {
            return;
        };
        let same = top.text.trim() == best.text.trim()
            && top.words.len() == best.words.len()
            && top
                .words
                .iter()
                .zip(&best.words)
                .all(|(a, b)| a.word == b.word);
        for (i, w) in top.words.iter_mut().enumerate() {
            w.conf = if same {
                best.words.get(i).and_then(|c| c.conf)
            } else {
                Some(0.0)
            };
        }
    }

    /// The best transcript ("" if nothing was heard).
    pub fn best_text(&self) -> &str {
        self.alternatives
            .first()
            .map(|a| a.text.trim())
            .unwrap_or("")
    }
}
