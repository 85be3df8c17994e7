//! `chimere-server [--db FILE|URL] [--database-url URL] [--listen ADDR]`: the same server as `chimere serve`, as its
//! own binary (the tests start it as a real process to kill it).

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
            ("--abandon-secs", Some(v)) => match v.parse::<i64>() {
                Ok(s) => config.limits.abandon_ms = s * 1000,
                Err(_) => fail("--abandon-secs takes a number of seconds"),
            },
            _ => fail("usage: chimere-server [--db FILE|URL] [--database-url URL] [--listen ADDR] [--abandon-secs N]"),
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

fn fail(msg: &str) -> ! {
    eprintln!("chimere-server: {msg}");
    std::process::exit(2);
}
