//! A real `chimere-server` process for the tests that stop, kill or multiply it
//! (`live.rs`, `harden.rs`, `postgres.rs`, `multi.rs`); each uses a part of it.
#![allow(dead_code)]

use chimere_server::client;
use std::time::Duration;

/// A free port on the loopback interface.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The server process; killed (SIGKILL) when dropped, so that a failing test leaves none.
pub struct ServerProcess(std::process::Child);

impl ServerProcess {
    pub fn spawn(db: &str, addr: &str) -> ServerProcess {
        ServerProcess(
            std::process::Command::new(env!("CARGO_BIN_EXE_chimere-server"))
                .args(["--db", db, "--listen", addr])
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap(),
        )
    }

    pub fn kill_9(&mut self) {
        self.0.kill().unwrap(); // SIGKILL on Unix
        self.0.wait().unwrap();
    }

    /// Sends a signal by name (`TERM`, `INT`).
    pub fn signal(&self, name: &str) {
        let ok = std::process::Command::new("kill").args([&format!("-{name}"), &self.0.id().to_string()]).status();
        assert!(ok.unwrap().success(), "kill -{name}");
    }

    /// The exit status within 20 s.
    pub async fn exit(&mut self) -> std::process::ExitStatus {
        for _ in 0..400 {
            if let Some(s) = self.0.try_wait().unwrap() {
                return s;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the server did not stop");
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until the server at `addr` answers (15 s at most).
pub async fn wait_up(addr: &str) {
    for _ in 0..300 {
        if client::http(addr, "GET", "/api/me", None, "").await.is_ok_and(|a| a.status == 200) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("server at {addr} did not start");
}
