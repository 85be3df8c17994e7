//! A small scripted client of the server (plain HTTP/1.1 over TCP, and WebSocket through
//! tokio-tungstenite), used by the load benchmark and the tests.

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// An HTTP answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
    /// The `name=value` of the identity cookie set by this answer.
    pub fn cookie(&self) -> Option<String> {
        self.headers
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
            .filter_map(|(_, v)| v.split(';').next())
            .find(|c| c.starts_with(crate::identity::COOKIE))
            .map(str::to_string)
    }
}

/// One HTTP request (connection closed after it).
pub async fn http(addr: &str, method: &str, path: &str, cookie: Option<&str>, body: &str) -> Result<Answer, String> {
    let mut s = TcpStream::connect(addr).await.map_err(|e| format!("connect {addr}: {e}"))?;
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").ok_or("no HTTP header")?;
    let mut lines = head.lines();
    let status: u16 =
        lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|c| c.parse().ok()).ok_or("no status")?;
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_string(), v.trim().to_string())).collect();
    let chunked = headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let body = if chunked { dechunk(rest) } else { rest.to_string() };
    Ok(Answer { status, headers, body })
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A new identity: the cookie the server issues.
pub async fn identity(addr: &str) -> Result<String, String> {
    http(addr, "GET", "/api/me", None, "").await?.cookie().ok_or_else(|| "no cookie issued".to_string())
}

/// A live connection to one game.
pub struct Live {
    ws: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
}

impl Live {
    /// Connects to game `id` (with the identity cookie, if any).
    pub async fn connect(addr: &str, id: &str, cookie: Option<&str>) -> Result<Live, String> {
        let mut req = format!("ws://{addr}/ws/{id}").into_client_request().map_err(|e| e.to_string())?;
        if let Some(c) = cookie {
            req.headers_mut().insert("Cookie", c.parse().map_err(|_| "bad cookie")?);
        }
        let (ws, _) = tokio_tungstenite::connect_async_with_config(req, None, true)
            .await
            .map_err(|e| format!("websocket: {e}"))?;
        Ok(Live { ws })
    }

    pub async fn send_text(&mut self, text: &str) -> Result<(), String> {
        self.ws.send(Message::Text(text.into())).await.map_err(|e| e.to_string())
    }

    pub async fn send(&mut self, v: &Value) -> Result<(), String> {
        self.send_text(&v.to_string()).await
    }

    /// The next JSON message.
    pub async fn recv(&mut self) -> Result<Value, String> {
        let text = self.recv_text().await?;
        serde_json::from_str(&text).map_err(|e| e.to_string())
    }

    /// The next text message, as received.
    pub async fn recv_text(&mut self) -> Result<String, String> {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(t))) => return Ok(t.as_str().to_string()),
                Some(Ok(Message::Close(_))) | None => return Err("closed".into()),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.to_string()),
            }
        }
    }

    /// The next message within `ms` milliseconds.
    pub async fn recv_within(&mut self, ms: u64) -> Result<Value, String> {
        tokio::time::timeout(std::time::Duration::from_millis(ms), self.recv())
            .await
            .map_err(|_| "timeout".to_string())?
    }

    /// The next text message within `ms` milliseconds.
    pub async fn recv_text_within(&mut self, ms: u64) -> Result<String, String> {
        tokio::time::timeout(std::time::Duration::from_millis(ms), self.recv_text())
            .await
            .map_err(|_| "timeout".to_string())?
    }

    /// Reads messages until one satisfies `f` (within `ms` overall).
    pub async fn until(&mut self, ms: u64, f: impl Fn(&Value) -> bool) -> Result<Value, String> {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_millis(ms);
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let v = tokio::time::timeout(left, self.recv()).await.map_err(|_| "timeout".to_string())??;
            if f(&v) {
                return Ok(v);
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
