//! `chimere-server [--db FILE|URL] [--database-url URL] [--listen ADDR] [--allow-origin ORIGIN]… [--abandon-secs N] [--seek-grace-secs N] [--first-move-secs N]`: the same
//! server as `chimere serve`, as its own binary (the tests start it as a real process to kill or stop it).

fn main() {
    let mut config = chimere_server::Config::default();
    let (mut db, mut database_url) = (None, None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next();
        match (a.as_str(), value) {
            ("--db", Some(v)) => db = Some(v),
            ("--database-url", Some(v)) => database_url = Some(v),
            ("--listen", Some(v)) => config.listen = v,
            ("--allow-origin", Some(v)) => match v.parse() {
                Ok(o) => config.allowed_origins.push(o),
                Err(e) => fail(&format!("--allow-origin: {e}")),
            },
            ("--abandon-secs", Some(v)) => config.limits.abandon_ms = seconds("--abandon-secs", &v),
            ("--seek-grace-secs", Some(v)) => config.limits.seek_grace_ms = seconds("--seek-grace-secs", &v),
            ("--first-move-secs", Some(v)) => config.limits.first_move_ms = seconds("--first-move-secs", &v),
            _ => fail(
                "usage: chimere-server [--db FILE|URL] [--database-url URL] [--listen ADDR] [--allow-origin ORIGIN]... [--abandon-secs N] [--seek-grace-secs N] [--first-move-secs N]",
            ),
        }
    }
    match chimere_server::store::Database::choose(db.as_deref(), database_url.as_deref()) {
        Ok(db) => config.db = db,
        Err(e) => fail(&e),
    }
    if let Err(e) = chimere_server::run(config) {
        fail(&e);
    }
}

/// A timer shortened for a test, in whole seconds.
fn seconds(flag: &str, v: &str) -> i64 {
    match v.parse::<i64>() {
        Ok(s) if s >= 0 => s * 1000,
        _ => fail(&format!("{flag} takes a number of seconds")),
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("chimere-server: {msg}");
    std::process::exit(2);
}
