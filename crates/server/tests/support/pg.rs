//! PostgreSQL for the tests, shared by the store suite (`src/store_suite.rs`) and the
//! server tests (`tests/postgres.rs`): the server of `CHIMERE_TEST_DATABASE_URL` with a
//! fresh database per test, and throwaway clusters of a test's own (`.ci/pg-cluster`) for
//! the tests that stop the database. Without them a test fails under CI (`CI` set) and is
//! skipped, loudly, elsewhere.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Fails under CI, says so and returns `None` (skip) elsewhere.
pub fn missing<T>(what: &str) -> Option<T> {
    if std::env::var_os("CI").is_some() {
        panic!("{what}");
    }
    eprintln!("SKIPPED: {what}");
    None
}

/// Runs `f` to its end on a runtime of its own, on a thread of its own: callable from
/// plain tests and from async ones alike.
fn block_on<T: Send>(f: impl std::future::Future<Output = T> + Send) -> T {
    std::thread::scope(|scope| {
        scope
            .spawn(|| tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(f))
            .join()
            .unwrap()
    })
}

/// `url` with its database replaced by `db`.
pub fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let base = match base[after_scheme..].find('/') {
        Some(slash) => &base[..after_scheme + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{db}?{q}"),
        None => format!("{base}/{db}"),
    }
}

/// Runs one statement (or several, `;`-separated) on `url`.
pub fn execute(url: &str, sql: &str) {
    block_on(async {
        let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(conn);
        client.batch_execute(sql).await.unwrap();
    })
}

/// The rows of `sql` on `url`, every column read as text (`sql` casts what it needs).
pub fn query_text(url: &str, sql: &str) -> Vec<Vec<Option<String>>> {
    block_on(async {
        let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(conn);
        let rows = client.query(sql, &[]).await.unwrap();
        rows.iter().map(|r| (0..r.len()).map(|i| r.get::<_, Option<String>>(i)).collect()).collect()
    })
}

/// A fresh, empty database on the server of `admin_url`; its URL.
pub fn fresh_database(admin_url: &str, name: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let short: String = name.chars().filter(char::is_ascii_alphanumeric).take(30).collect::<String>().to_lowercase();
    let db = format!("t_{}_{}_{short}", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
    // Two statements: neither may run inside a transaction (as one `;`-separated string would).
    execute(admin_url, &format!("DROP DATABASE IF EXISTS {db}"));
    execute(admin_url, &format!("CREATE DATABASE {db}"));
    with_database(admin_url, &db)
}

/// A fresh database on the tests' PostgreSQL server (`CHIMERE_TEST_DATABASE_URL`).
pub fn test_database(name: &str) -> Option<String> {
    match std::env::var("CHIMERE_TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => Some(fresh_database(&url, name)),
        _ => missing(
            "the PostgreSQL tests need CHIMERE_TEST_DATABASE_URL (start a server with \
             `.ci/pg-cluster init /tmp/chimere-pg` and export the URL it prints)",
        ),
    }
}

/// A throwaway PostgreSQL cluster of the test's own (`.ci/pg-cluster`), removed on drop.
pub struct Cluster {
    dir: PathBuf,
    pub url: String,
}

impl Cluster {
    fn script() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.ci/pg-cluster")
    }

    fn run(&self, what: &str) {
        let out = std::process::Command::new(Self::script()).args([what, self.dir.to_str().unwrap()]).output().unwrap();
        assert!(out.status.success(), "pg-cluster {what}: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Starts one, or `None` (skipped loudly; a failure under CI) when PostgreSQL is missing.
    pub fn start(name: &str) -> Option<Cluster> {
        let installed = std::fs::read_dir("/usr/lib/postgresql")
            .map(|d| d.flatten().any(|v| v.path().join("bin/initdb").exists()))
            .unwrap_or(false);
        if !installed {
            return missing("the PostgreSQL fault tests need Debian's postgresql (apt-get install postgresql)");
        }
        // One at a time within a test binary (two tests of one binary may start clusters
        // together; `pg-cluster init` picks its port and creates its directory unlocked).
        static STARTING: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _one = STARTING.lock().unwrap_or_else(|p| p.into_inner());
        let dir = std::env::temp_dir().join(format!("chimere-pg-{name}-{}", std::process::id()));
        let _ = std::process::Command::new(Self::script()).args(["destroy", dir.to_str().unwrap()]).output();
        let out = std::process::Command::new(Self::script()).args(["init", dir.to_str().unwrap()]).output().unwrap();
        assert!(out.status.success(), "pg-cluster init: {}", String::from_utf8_lossy(&out.stderr));
        let url = String::from_utf8(out.stdout).unwrap().trim().to_string();
        Some(Cluster { dir, url })
    }

    /// Stops the server (fast: open sessions are cut).
    pub fn stop(&self) {
        self.run("stop");
    }

    /// Starts it again, on the same port.
    pub fn restart(&self) {
        self.run("start");
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = std::process::Command::new(Self::script()).args(["destroy", self.dir.to_str().unwrap()]).output();
    }
}
