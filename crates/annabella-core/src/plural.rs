//! CLDR plural rules: the category of a number in a language (from the
//! CLDR data of `icu_plurals`), for every built-in and user locale. The
//! locale's messages choose their forms by it (`time.hours.few`).

/// CLDR plural categories (cardinal numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PluralCategory {
    /// Arabic 0.
    Zero,
    /// 1 (and what a language counts with it).
    One,
    /// Hebrew and Arabic 2.
    Two,
    /// Polish 2–4, 22–24, …; Arabic 3–10, 103–110, …
    Few,
    /// Polish 0, 5–21, 25–31, …; Arabic 11–99, 111–199, …
    Many,
    /// Everything else.
    Other,
}

impl PluralCategory {
    /// The suffix of message keys (`time.hours.few`).
    pub fn key(self) -> &'static str {
        match self {
            PluralCategory::Zero => "zero",
            PluralCategory::One => "one",
            PluralCategory::Two => "two",
            PluralCategory::Few => "few",
            PluralCategory::Many => "many",
            PluralCategory::Other => "other",
        }
    }
}

/// The CLDR plural category of the whole number `n` in `language` (a BCP 47
/// tag such as `pl`, `de-AT` or `ko`), from the CLDR data of `icu_plurals`:
/// every language CLDR knows has its own rules (Korean counts everything as
/// `Other`, Russian and Czech have `Few` and `Many`), built-in or a user's
/// locale file. A tag CLDR cannot read gets the root rules (`Other`).
pub fn plural_category(language: &str, n: u64) -> PluralCategory {
    use icu_plurals::{PluralCategory as Cldr, PluralRules};
    let tag = language.trim().replace('_', "-");
    let primary = tag.split('-').next().unwrap_or("");
    let Some(rules) = [tag.as_str(), primary]
        .into_iter()
        .filter_map(|t| t.parse::<icu_locale_core::Locale>().ok())
        .find_map(|l| PluralRules::try_new_cardinal((&l).into()).ok())
    else {
        return PluralCategory::Other;
    };
    match rules.category_for(n) {
        Cldr::Zero => PluralCategory::Zero,
        Cldr::One => PluralCategory::One,
        Cldr::Two => PluralCategory::Two,
        Cldr::Few => PluralCategory::Few,
        Cldr::Many => PluralCategory::Many,
        Cldr::Other => PluralCategory::Other,
    }
}
