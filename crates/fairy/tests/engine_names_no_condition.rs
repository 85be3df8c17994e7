//! The engine (the rules modules, move generation, the position) names no condition: it
//! reaches conditions only through the `Condition` hooks and the `Capabilities` they
//! declare. A direct call into a condition's module would show as a `conditions::` path.

use std::path::Path;

#[test]
fn the_engine_names_no_condition() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![src.join("moves.rs"), src.join("position.rs")];
    for e in std::fs::read_dir(src.join("rules")).expect("the rules modules") {
        files.push(e.expect("an entry").path());
    }
    assert!(files.len() >= 7, "{files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            assert!(!code.contains("conditions::"), "{}:{}: {line}", f.display(), n + 1);
        }
    }
}
