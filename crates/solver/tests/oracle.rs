//! Popeye oracle: every record of `../shared/oracle/popeye-solve/*.jsonl` and every `solve`
//! record of `../shared/oracle/popeye/*.jsonl`, solved by `chimere-solver` and compared
//! with Popeye's solutions as `solver.md` §1 says ([`chimere_solver::compare`]). Records
//! marked `deviation` or not comparable in the data are skipped with their reason; the
//! records where the rules engine (not the solver) reads a condition differently from
//! Popeye are listed in [`ENGINE_DEVIATIONS`] with the reason: they must still differ (a
//! listed record that starts to agree fails, so the list stays true).

use chimere_solver::{Settings, compare::same_solutions, solve_input};
use chimere_testkit::shared_dir;

/// (file, line of the record, reason): the fairy engine's rules differ from Popeye's here.
const ENGINE_DEVIATIONS: &[(&str, usize, &str)] = &[
    (
        "popeye/reflective-kings.jsonl",
        4,
        "Reflective kings: the spec counts every reflected walk for check, Popeye only walks the king's side owns (solver.md §5)",
    ),
    ("popeye/reflective-kings.jsonl", 5, "reflective kings (see above)"),
];

/// (file, line, why): records where Popeye's printed answer is not Popeye's own answer to the
/// problem — it changes with Popeye's hash table. Checked by hand with Popeye 4.104: with
/// `-maxmem 0` (its hash table off) Popeye prints exactly the solver's lines. They must
/// still differ, like the engine deviations.
const ORACLE_HASH_ARTEFACTS: &[(&str, usize, &str)] = &[(
    "popeye-solve/ultra-patrouille.jsonl",
    2,
    "ser-h#6: Popeye's hash table drops the six six-move lines (1.Ke4-e5 ... 6.f5-f4 e3*f4 #); \
     `py -maxmem 0` prints them, and then its output equals ours (also for ser-h#8: 36 lines)",
)];

fn deviation(file: &str, line: usize) -> Option<&'static str> {
    ENGINE_DEVIATIONS.iter().chain(ORACLE_HASH_ARTEFACTS).find(|(f, l, _)| *f == file && *l == line).map(|(_, _, w)| *w)
}

/// Popeye's output of a `popeye/` record, rebuilt from its solution lines.
fn expected_of(rec: &serde_json::Value) -> Option<String> {
    if let Some(o) = rec["popeye_output"].as_str() {
        return Some(o.to_string());
    }
    let lines = rec["expected_solution_lines"].as_array()?;
    Some(lines.iter().filter_map(|l| l.as_str()).collect::<Vec<_>>().join("\n"))
}

#[test]
fn popeye_solutions_agree() {
    let settings = Settings { threads: 1, progress: false, hash_mb: 64, ..Settings::default() };
    let (mut agree, mut total, mut skipped, mut known) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for dir in ["popeye-solve", "popeye"] {
        let path = shared_dir().join("oracle").join(dir);
        let mut files: Vec<_> = std::fs::read_dir(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (set CHIMERE_SHARED)", path.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        files.sort();
        for f in files {
            let name = format!("{dir}/{}", f.file_name().unwrap().to_string_lossy());
            let text = std::fs::read_to_string(&f).unwrap();
            for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let rec: serde_json::Value = serde_json::from_str(line).expect("JSON");
                if dir == "popeye" && rec["kind"] != "solve" {
                    continue;
                }
                total += 1;
                if let Some(why) = rec.get("deviation").filter(|v| !v.is_null()) {
                    eprintln!("{name}:{}: skipped (deviation: {why})", i + 1);
                    skipped += 1;
                    continue;
                }
                if rec.get("comparable") == Some(&serde_json::Value::Bool(false)) {
                    eprintln!("{name}:{}: skipped (not comparable)", i + 1);
                    skipped += 1;
                    continue;
                }
                let input = rec["input"].as_str().expect("input");
                let expected = expected_of(&rec).expect("expected output");
                let mut out = Vec::new();
                let mut err = Vec::new();
                solve_input(input, &settings, &mut out, &mut err).expect("i/o");
                let got = String::from_utf8_lossy(&out);
                let verdict = same_solutions(&expected, &got);
                match (deviation(&name, i + 1), verdict) {
                    (None, Ok(())) => agree += 1,
                    (None, Err(d)) => {
                        failures.push(format!("{name}:{}: {d}\n{}", i + 1, String::from_utf8_lossy(&err)))
                    }
                    (Some(_), Ok(())) => {
                        failures.push(format!("{name}:{} is listed as an engine deviation but agrees", i + 1))
                    }
                    (Some(why), Err(_)) => {
                        eprintln!("{name}:{}: known engine deviation: {why}", i + 1);
                        known += 1;
                    }
                }
            }
        }
    }
    eprintln!("popeye oracle: {agree} of {total} agree, {known} known engine deviations, {skipped} skipped");
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
}
