//! Odd but readable positions (oracle positions with random squares changed) never
//! panic the rules: generation, notation, make/unmake, status and perft.

use chimere_dynamo::Dynamo;

#[test]
fn mutated_oracle_positions_never_panic() {
    let accepted = chimere_testkit::mutated_oracle_positions::<Dynamo>("dynamo.jsonl", 0x0DD, 400);
    assert!(accepted > 50, "only {accepted} mutants were readable");
}
