//! chimere-server: the web app of `chimere serve`. One process serves the pages, the
//! WebSocket endpoint of live play and the computer opponent, and keeps every game in an
//! embedded SQLite file or a PostgreSQL database (behind the [`store::Store`] trait).
//!
//! Modules: [`store`] (storage; [`store_pg`] its PostgreSQL backend), [`hub`] (the referee: rooms, clocks, messages), [`web`]
//! (HTTP, assets, WebSocket), [`identity`] (signed anonymous ids), [`pgn`], [`setup`]
//! (a game's options), [`bot`] (the computer player's interface), [`rules`] (the rules
//! API as used here), [`writer`] (the moves' writer thread: group commit).

pub mod bot;
pub mod client;
pub mod cluster;
pub mod hub;
pub mod identity;
pub mod load;
pub mod pgn;
pub mod problem_store;
pub mod problems;
pub mod protocol;
pub mod round;
pub mod rules;
pub mod setup;
pub mod store;
pub mod store_pg;
#[cfg(test)]
mod store_suite;
pub mod web;
pub mod writer;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    pub db: store::Database,
    pub listen: String,
    pub limits: hub::Limits,
    /// Origins besides the server's own host whose pages may open live connections
    /// (behind a proxy that rewrites `Host`: the public address, `https://chess.example.org`).
    pub allowed_origins: Vec<web::Origin>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: store::Database::Sqlite("chimere.db".into()),
            listen: "127.0.0.1:8080".into(),
            limits: hub::Limits::default(),
            allowed_origins: Vec::new(),
        }
    }
}

/// A running server: its address and what stops it cleanly.
pub struct Server {
    pub addr: SocketAddr,
    hub: Arc<hub::Hub>,
    stop: web::Stop,
    serving: tokio::task::JoinHandle<()>,
}

/// Opens the database, resumes the games in play, binds the address and serves in the
/// background; returns the bound address and the serving task.
pub async fn start(config: Config) -> Result<(SocketAddr, tokio::task::JoinHandle<()>), String> {
    let server = launch(config).await?;
    Ok((server.addr, server.serving))
}

/// As [`start`], keeping what [`Server::stop`] needs.
pub async fn launch(config: Config) -> Result<Server, String> {
    let store = store::open(&config.db).map_err(|e| format!("{}: {e}", config.db.describe()))?;
    let secret = store.secret().map_err(|e| e.to_string())?;
    // On PostgreSQL the process is one of a site's (see `cluster`): games by lease.
    let (cluster, incoming) = match &config.db {
        store::Database::Postgres(url) => {
            let (c, incoming) = cluster::Cluster::start(url).await?;
            (Some(c), Some(incoming))
        }
        store::Database::Sqlite(_) => (None, None),
    };
    let hub = hub::Hub::new_in(store, bot::default_bot(), config.limits.clone(), cluster)?;
    if let Some(incoming) = incoming {
        hub.serve_cluster(incoming);
    }
    hub.resume_all().await?;
    problems::spawn_queue(hub.store.clone());
    let sweeper = hub.clone();
    let every = Duration::from_millis(config.limits.sweep_ms.max(1));
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.tick().await;
        loop {
            tick.tick().await;
            sweeper.sweep();
        }
    });
    let stop = web::Stop::default();
    let app = web::App {
        hub: hub.clone(),
        signer: identity::Signer::new(secret),
        origins: config.allowed_origins.into(),
        stop: stop.clone(),
    };
    let listener = listen(&config.listen).await.map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let router = web::router(app);
    // Moves are small messages that must go out at once: no Nagle delay.
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let stopped = stop.clone();
    let serving = tokio::spawn(async move {
        let service = router.into_make_service_with_connect_info::<SocketAddr>();
        let stopping = async move { stopped.begun().await };
        if let Err(e) = axum::serve(listener, service).with_graceful_shutdown(stopping).await {
            eprintln!("server stopped: {e}");
        }
    });
    Ok(Server { addr, hub, stop, serving })
}

impl Server {
    /// The clean stop: no new connection is accepted and the requests in progress finish;
    /// every live connection is told (`closing`) and closed; the writes in flight are
    /// stored (later ones are refused); the database is checkpointed and closed (SQLite:
    /// the WAL copied into the file and removed).
    pub async fn stop(self) -> Result<(), String> {
        self.stop.begin();
        let patience = Duration::from_secs(10);
        if tokio::time::timeout(patience, self.serving).await.is_err() {
            eprintln!("requests still in progress after {patience:?}: stopping anyway");
        }
        if tokio::time::timeout(patience, self.stop.all_closed()).await.is_err() {
            eprintln!("live connections still open after {patience:?}: stopping anyway");
        }
        self.hub.writer.close().await;
        self.hub.resign().await;
        self.hub.store.close().map_err(|e| format!("closing the database: {e}"))
    }
}

/// Connections waiting to be accepted. After a restart every player reconnects at once,
/// and a load test opens thousands together: a queue longer than tokio's default (1 024)
/// keeps the kernel from dropping their SYNs (each drop costs the client a 1 s retry).
const ACCEPT_QUEUE: u32 = 4096;

async fn listen(address: &str) -> std::io::Result<tokio::net::TcpListener> {
    let mut last = None;
    for addr in tokio::net::lookup_host(address).await? {
        let socket = if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
        socket.set_reuseaddr(true)?;
        match socket.bind(addr).and_then(|()| socket.listen(ACCEPT_QUEUE)) {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "no address")))
}

/// Runs the server until SIGTERM or Ctrl-C (SIGINT), then stops it cleanly
/// ([`Server::stop`]); a second signal during the stop ends it at once, with an error.
pub fn run(config: Config) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    let result = rt.block_on(async move {
        let mut signals = Signals::new()?;
        let db = config.db.clone();
        let mut server = launch(config).await?;
        println!("Chimère is running: open http://{}/  (database {})", server.addr, db.describe());
        let why = tokio::select! {
            _ = &mut server.serving => return Ok(()),
            why = signals.next() => why,
        };
        println!("{why}: stopping (finishing the writes in flight)");
        tokio::select! {
            done = server.stop() => done?,
            again = signals.next() => return Err(format!("{again} again: stopped before the writes in flight were done")),
        }
        println!("stopped");
        Ok(())
    });
    // A computer player still thinking on the blocking pool is not waited for.
    rt.shutdown_background();
    result
}

/// The signals that stop the server, listened to from the start.
struct Signals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> Result<Signals, String> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let listen = |kind| signal(kind).map_err(|e| format!("cannot listen for signals: {e}"));
            Ok(Signals { term: listen(SignalKind::terminate())?, int: listen(SignalKind::interrupt())? })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }

    /// The next stopping signal, named.
    async fn next(&mut self) -> &'static str {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.term.recv() => "SIGTERM",
                _ = self.int.recv() => "Ctrl-C",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        }
    }
}
