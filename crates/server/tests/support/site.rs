//! A site of several processes for the tests (`multi.rs`): two real `chimere-server`
//! processes on one PostgreSQL (a fresh database on the tests' server, or a cluster of
//! the test's own), and Debian's nginx in front of them with `deploy/nginx.conf` (its
//! addresses replaced by the test's). Needs `support/pg.rs` and `support/process.rs`
//! beside it (as `pg` and `process`).
#![allow(dead_code)]

use super::pg;
use super::process::{ServerProcess, free_port, wait_up};
use chimere_server::client;

/// nginx's master process: stopped with SIGTERM (which stops its workers too; SIGKILL
/// would leave them running).
pub struct Nginx(std::process::Child, std::path::PathBuf);

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = std::process::Command::new("kill").args(["-TERM", &self.0.id().to_string()]).status();
        let _ = self.0.wait();
        let _ = std::fs::remove_dir_all(&self.1);
    }
}

/// nginx with the repository's `deploy/nginx.conf`, listening on `front` and sending to
/// `upstreams`, in a temporary prefix named after `name`; `None` (skipped loudly, a
/// failure under CI) when nginx is not installed.
pub fn nginx(name: &str, front: &str, upstreams: &[&str]) -> Option<Nginx> {
    let Some(bin) = ["/usr/sbin/nginx", "/usr/bin/nginx"].into_iter().find(|p| std::path::Path::new(p).exists()) else {
        return pg::missing("the front-door test needs Debian's nginx (apt-get install nginx)");
    };
    let conf = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/nginx.conf")).unwrap();
    assert!(
        conf.contains("127.0.0.1:8081") && conf.contains("127.0.0.1:8082"),
        "deploy/nginx.conf lists two processes"
    );
    let conf = conf
        .replace("127.0.0.1:8081", upstreams[0])
        .replace("127.0.0.1:8082", upstreams[1])
        .replace("listen 127.0.0.1:8080", &format!("listen {front}"))
        .replace("worker_processes 2;", "worker_processes 1;")
        .replace("worker_connections 16384;", "worker_connections 1024;")
        .replace("worker_rlimit_nofile 65536;", "");
    let dir = std::env::temp_dir().join(format!("chimere-nginx-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("nginx.conf");
    std::fs::write(&path, conf).unwrap();
    let child = std::process::Command::new(bin)
        .args(["-p", dir.to_str().unwrap(), "-e", "stderr", "-c", path.to_str().unwrap(), "-g", "daemon off;"])
        .spawn()
        .unwrap();
    Some(Nginx(child, dir))
}

/// This process's id among the site's (`GET /api/stats`).
pub async fn process_of(addr: &str) -> String {
    let a = client::http(addr, "GET", "/api/stats", None, "").await.unwrap();
    a.json()["process"].as_str().expect("a process id on PostgreSQL").to_string()
}

/// The process that holds the lease of `game`, if any.
pub fn lease_owner(url: &str, game: &str) -> Option<String> {
    pg::query_text(url, &format!("SELECT owner FROM chimere_leases WHERE game = '{game}'"))
        .into_iter()
        .next()
        .and_then(|r| r[0].clone())
}

/// Two processes on one PostgreSQL, and nginx in front of them when it is installed.
pub struct Site {
    /// The database's URL.
    pub url: String,
    /// Each process: its address, its id in the site, the process itself.
    pub addrs: [String; 2],
    pub ids: [String; 2],
    pub procs: [ServerProcess; 2],
    /// The front door's address (nginx), or the second process's without nginx.
    pub door: String,
    pub front: Option<Nginx>,
    _own: Option<pg::Cluster>,
}

impl Site {
    /// Starts the site (`name` names its database and directories), or `None` when
    /// PostgreSQL is missing (skipped loudly; a failure under CI).
    pub async fn start(name: &str) -> Option<Site> {
        // The tests' PostgreSQL server if there is one, else a cluster of this test's own.
        let (url, own) = match std::env::var("CHIMERE_TEST_DATABASE_URL") {
            Ok(u) if !u.is_empty() => (pg::fresh_database(&u, name), None),
            _ => {
                let c = pg::Cluster::start(name)?;
                (c.url.clone(), Some(c))
            }
        };
        let addrs = [format!("127.0.0.1:{}", free_port()), format!("127.0.0.1:{}", free_port())];
        let procs = [ServerProcess::spawn(&url, &addrs[0]), ServerProcess::spawn(&url, &addrs[1])];
        wait_up(&addrs[0]).await;
        wait_up(&addrs[1]).await;
        let front_addr = format!("127.0.0.1:{}", free_port());
        let front = nginx(name, &front_addr, &[&addrs[0], &addrs[1]]);
        let door = if front.is_some() {
            wait_up(&front_addr).await;
            front_addr
        } else {
            addrs[1].clone()
        };
        let ids = [process_of(&addrs[0]).await, process_of(&addrs[1]).await];
        assert_ne!(ids[0], ids[1]);
        Some(Site { url, addrs, ids, procs, door, front, _own: own })
    }

    /// Which of the two processes holds the lease of `game`.
    pub fn owner_of(&self, game: &str) -> Option<usize> {
        let owner = lease_owner(&self.url, game)?;
        self.ids.iter().position(|id| *id == owner)
    }
}
