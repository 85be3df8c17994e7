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
pub mod hub;
pub mod identity;
pub mod load;
pub mod pgn;
pub mod problem_store;
pub mod problems;
pub mod protocol;
pub mod rules;
pub mod setup;
pub mod store;
pub mod store_pg;
#[cfg(test)]
mod store_suite;
pub mod web;
pub mod writer;

use std::net::SocketAddr;
use std::time::Duration;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    pub db: store::Database,
    pub listen: String,
    pub limits: hub::Limits,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: store::Database::Sqlite("chimere.db".into()),
            listen: "127.0.0.1:8080".into(),
            limits: hub::Limits::default(),
        }
    }
}

/// Opens the database, resumes the games in play, binds the address and serves in the
/// background; returns the bound address and the serving task.
pub async fn start(config: Config) -> Result<(SocketAddr, tokio::task::JoinHandle<()>), String> {
    let store = store::open(&config.db).map_err(|e| format!("{}: {e}", config.db.describe()))?;
    let secret = store.secret().map_err(|e| e.to_string())?;
    let hub = hub::Hub::new(store, bot::default_bot(), config.limits.clone())?;
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
    let app = web::App { hub, signer: identity::Signer::new(secret) };
    let listener = listen(&config.listen).await.map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let router = web::router(app);
    // Moves are small messages that must go out at once: no Nagle delay.
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, router).await {
            eprintln!("server stopped: {e}");
        }
    });
    Ok((addr, task))
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

/// Runs the server until it is stopped, printing the address to open.
pub fn run(config: Config) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    rt.block_on(async move {
        let db = config.db.clone();
        let (addr, task) = start(config).await?;
        println!("Chimère is running: open http://{addr}/  (database {})", db.describe());
        tokio::select! {
            _ = task => {}
            _ = tokio::signal::ctrl_c() => println!("stopped"),
        }
        Ok(())
    })
}
