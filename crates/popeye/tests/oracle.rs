//! Popeye oracle: for every `"kind": "moves"` record of the implemented conditions, the
//! set of first moves we print must equal Popeye's.

use chimere_testkit::oracle_text;
use std::collections::BTreeSet;

/// The slugs implemented so far (explicit on purpose).
const SLUGS: &[&str] = &[
    "circe-plain",
    "circe-antipode",
    "circe-chameleon",
    "circe-clone",
    "circe-couscous",
    "circe-diagramme",
    "circe-equipollent",
    "circe-inverse",
    "circe-kamikaze",
    "circe-malefique-martien",
    "circe-symetrique",
    "super-circe",
    "circe-assassin",
    "circe-parachute",
    "circe-volcanic",
    "circe-strict",
    "circe-rex-inclusiv",
    "anticirce-colonne",
    "anticirce-echange",
    "anticirce-equipollent",
    "anticirce-malefique",
    "anti-super-circe",
    "fusil",
    "ghost",
    "kamikaze-rex-inclusiv",
    "rose",
    "locusauteur",
];

fn moves_of(output: &str) -> BTreeSet<String> {
    output
        .lines()
        .filter_map(|l| l.trim().strip_prefix("1.").and_then(|r| r.strip_suffix(" !")).map(str::to_string))
        .collect()
}

/// Checks one slug; returns (passing, total, failure report).
fn check_slug(slug: &str) -> (usize, usize, Vec<String>) {
    let text = oracle_text(&format!("popeye/{slug}.jsonl"));
    let (mut pass, mut total, mut fails) = (0, 0, Vec::new());
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let rec: serde_json::Value = serde_json::from_str(line).expect("JSON");
        if rec["kind"] != "moves" {
            continue;
        }
        total += 1;
        let input = rec["input"].as_str().expect("input");
        let expected: BTreeSet<String> =
            rec["expected_moves"].as_array().expect("moves").iter().map(|m| m.as_str().unwrap().to_string()).collect();
        match chimere_popeye::solve_text(input) {
            Err(e) => fails.push(format!("{slug}:{} error {e}", n + 1)),
            Ok(out) => {
                let ours = moves_of(&out);
                if ours == expected {
                    pass += 1;
                } else {
                    let missing: Vec<_> = expected.difference(&ours).collect();
                    let extra: Vec<_> = ours.difference(&expected).collect();
                    fails.push(format!(
                        "{slug}:{} ({})\n    missing {missing:?}\n    extra   {extra:?}",
                        n + 1,
                        rec["note"].as_str().unwrap_or("")
                    ));
                }
            }
        }
    }
    (pass, total, fails)
}

#[test]
fn popeye_oracle_move_lists() {
    let mut all = Vec::new();
    let mut summary = Vec::new();
    for slug in SLUGS {
        let (p, t, f) = check_slug(slug);
        summary.push(format!("{slug}: {p}/{t}"));
        all.extend(f);
    }
    eprintln!("{}", summary.join("\n"));
    assert!(all.is_empty(), "{} records differ:\n{}", all.len(), all.join("\n"));
}
