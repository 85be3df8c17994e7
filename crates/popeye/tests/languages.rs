//! Popeye input in French and German (`tests/data/languages`): the same problems written
//! in the three languages of Popeye's input — full keywords, Popeye's own abbreviations
//! (`opti trac essa`, `Stei Weis`), piece names, neutral units in piece lists and Forsyth
//! lines, conditions, options and twinning. Popeye 4.104 reads the three files alike (the
//! same twins and solutions, each in its language); here each must read as the English.

use chimere_popeye::parse::{Problem, parse_all};

fn read(lang: &str) -> Vec<Problem> {
    let path = format!("{}/tests/data/languages/problems.{lang}.inp", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_all(&text)
        .into_iter()
        .enumerate()
        .map(|(i, p)| p.unwrap_or_else(|e| panic!("{lang} problem {}: {e}", i + 1)))
        .collect()
}

#[test]
fn french_and_german_files_read_as_the_english() {
    let english = read("en");
    assert_eq!(english.len(), 4);
    for lang in ["fr", "de"] {
        let other = read(lang);
        assert_eq!(other.len(), english.len(), "{lang}");
        for (i, (o, e)) in other.iter().zip(&english).enumerate() {
            assert_eq!(o, e, "{lang} problem {}", i + 1);
        }
    }
}
