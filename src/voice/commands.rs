//! The spoken commands: the rows of the core's command table that can be
//! said, with their forms in the locale (re-exported from
//! [`annabella_core::commands::spoken`]).

pub use annabella_core::commands::spoken::{
    ChoiceNumbers, NUMBER_KEYS, SpokenCommandWords, find_whole_phrase,
};
