//! Shared by the web tests: a `ghast serve --port 0` child process and a
//! minimal HTTP/1.1 client (requests go only to that loopback server).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Longest wait for one answer; only a hung server reaches it.
const READ_TIMEOUT: Duration = Duration::from_secs(120);

/// A running `ghast serve`, stopped when dropped; it derefs to a
/// [`Client`] of itself.
pub struct Server {
    child: Child,
    client: Client,
}

/// Talks HTTP to a server.
#[derive(Clone)]
pub struct Client {
    /// `127.0.0.1:PORT`
    pub address: String,
}

impl std::ops::Deref for Server {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.client
    }
}

impl Server {
    pub fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ghast"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("ghast starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut first)
            .expect("the URL line");
        let address = first
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no URL in {first:?}"))
            .to_string();
        Server {
            child,
            client: Client { address },
        }
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Client {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(&self.address).expect("connect");
        stream.set_read_timeout(Some(READ_TIMEOUT)).unwrap();
        stream
    }

    /// Sends a request; returns the status and the body.
    pub fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        let mut stream = self.connect();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.address,
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        // A server refusing a huge body may close before reading it all.
        let _ = stream.write_all(body);
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        let text = String::from_utf8_lossy(&raw).to_string();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {head:?}"));
        (status, body.to_string())
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, b"")
    }

    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        self.request("POST", path, body.as_bytes())
    }

    /// GET or POST expecting `status`, returning the JSON body.
    pub fn json(&self, method: &str, path: &str, body: &str, status: u16) -> serde_json::Value {
        let (got, text) = self.request(method, path, body.as_bytes());
        assert_eq!(got, status, "{method} {path} {body}: {text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}"))
    }

    /// Creates a game, returning its id and state.
    pub fn create(&self, body: &str) -> (String, serde_json::Value) {
        let created = self.json("POST", "/api/games", body, 201);
        (
            created["id"].as_str().expect("id").to_string(),
            created["state"].clone(),
        )
    }

    /// Opens a game's event stream.
    pub fn events(&self, id: &str) -> Events {
        let mut stream = self.connect();
        let head = format!(
            "GET /api/games/{id}/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            self.address
        );
        stream.write_all(head.as_bytes()).unwrap();
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.contains("200"), "events: {line}");
        Events { reader }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server-sent event stream.
pub struct Events {
    reader: BufReader<TcpStream>,
}

impl Events {
    /// The next event named `name` (others are skipped), as JSON.
    pub fn next(&mut self, name: &str) -> serde_json::Value {
        let mut event = String::new();
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).expect("event stream");
            assert!(n > 0, "event stream closed");
            let line = line.trim_end();
            if let Some(e) = line.strip_prefix("event: ") {
                event = e.to_string();
            } else if let Some(data) = line.strip_prefix("data: ")
                && event == name
            {
                return serde_json::from_str(data).expect("event JSON");
            }
        }
    }
}

/// The cell `name` of a STATE's board.
pub fn cell<'a>(state: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    state["board"]["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no cell {name}"))
}

/// The kinds on the cell `name`, bottom to top.
pub fn kinds_on(state: &serde_json::Value, name: &str) -> Vec<String> {
    cell(state, name)["occupants"]
        .as_array()
        .expect("occupants")
        .iter()
        .map(|o| o["kind"].as_str().expect("kind").to_string())
        .collect()
}
