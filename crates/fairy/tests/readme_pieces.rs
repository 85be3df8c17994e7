//! The README's table of the Popeye pieces read (`### Fairy pieces`) is the walk table:
//! every letter it names reads as a kind, and every kind of the walk table is named.

use chimere_core::Kind;
use chimere_fairy::walk::{KINDS, kind_of_letters, letters};
use std::collections::BTreeSet;

#[test]
fn the_readme_table_names_the_walk_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let readme = std::fs::read_to_string(path).expect("README.md");
    let start = readme.find("| family | pieces (Popeye letters) |").expect("the pieces table");
    let rows: Vec<&str> = readme[start..].lines().skip(2).take_while(|l| l.starts_with('|')).collect();
    assert!(rows.len() >= 8, "{rows:?}");
    let mut named = BTreeSet::new();
    for row in rows {
        let cell = row.split('|').nth(2).expect("two cells");
        // The letters: the words of capitals and digits (`Z`, `CA`, `15`), besides names.
        for w in cell.split([' ', ',']).filter(|w| !w.is_empty()) {
            let is_code = w.len() <= 2 && w.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
            if is_code {
                let k = kind_of_letters(w).unwrap_or_else(|| panic!("README names `{w}`, which is not read"));
                named.insert(k.index());
            }
        }
    }
    let missing: Vec<&str> = (0..KINDS).filter(|k| !named.contains(k)).map(|k| letters(Kind(k as u8))).collect();
    assert!(missing.is_empty(), "kinds read but not in the README table: {missing:?}");
}
