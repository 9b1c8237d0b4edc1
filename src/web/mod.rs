//! `ghast serve`: a local web board for every variant, with the engine
//! in-process (README, "Web board"; the API is in protocol.md).
//!
//! - [`session`]: every call into the engine;
//! - [`games`]: the bounded store of games, their records, STATE and PGN;
//! - [`api`]: the HTTP endpoints;
//! - `static/`: the page (HTML, CSS, JavaScript), compiled into the binary.
//!   It draws the board only from STATE's `board` and `legal`: no rules in
//!   JavaScript.

pub mod api;
pub mod games;
pub mod session;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// The port `ghast serve` listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 8077;
pub const DEFAULT_HOST: &str = "127.0.0.1";
/// Threads answering requests (searches run on threads of their own).
const WORKER_THREADS: usize = 2;

const INDEX_HTML: &str = include_str!("static/index.html");
const APP_JS: &str = include_str!("static/app.js");
const STYLE_CSS: &str = include_str!("static/style.css");

/// Options of `ghast serve`.
#[derive(clap::Args, Clone, Debug)]
pub struct ServeArgs {
    /// Port to listen on; 0 picks a free one (the URL printed says which).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Address to listen on. Anything but a loopback address lets other
    /// machines play on (and load) this engine.
    #[arg(long, default_value = DEFAULT_HOST)]
    pub host: String,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
}

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type)], body)
}

/// The whole application: the page and the API.
pub fn router() -> Router {
    let state: api::AppState = Arc::new(Mutex::new(games::Store::default()));
    let games = Router::new()
        .route("/", post(api::create))
        .route("/{id}", get(api::show))
        .route("/{id}/moves", post(api::play))
        .route("/{id}/undo", post(api::undo))
        .route("/{id}/go", post(api::go))
        .route("/{id}/analysis", post(api::analyse))
        .route("/{id}/stop", post(api::stop))
        .route("/{id}/events", get(api::events))
        .route("/{id}/pgn", get(api::pgn));
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/api/variants", get(api::variants))
        .nest("/api/games", games)
        .fallback(api::no_route)
        .layer(DefaultBodyLimit::max(api::MAX_BODY_BYTES))
        .with_state(state)
}

/// Runs the server until the process is stopped.
pub fn serve(args: &ServeArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKER_THREADS)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server runtime: {e}"))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
            .await
            .map_err(|e| format!("cannot listen on {}:{}: {e}", args.host, args.port))?;
        let address = listener
            .local_addr()
            .map_err(|e| format!("cannot read the listening address: {e}"))?;
        let url = format!("http://{address}/");
        println!("ghast serve: open {url} (Ctrl-C stops the server)");
        // Scripts and tests read the URL from the first line.
        let _ = std::io::stdout().flush();
        if args.open {
            open_browser(&url);
        }
        axum::serve(listener, router())
            .await
            .map_err(|e| format!("server error: {e}"))
    })
}

/// Asks the desktop to open `url`; failing that, says so (the URL is
/// printed anyway).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("ghast serve: cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}
