//! The HTTP API (protocol.md, "Web board"). Every error is a 4xx answer
//! with `{"error": message}`; nothing a client sends stops the server.

use super::games::{EngineNote, GameEntry, SearchKind, State, Store, lock};
use super::session::{self, AnalysisLine, Engine, SearchLimits, SearchResult};
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State as Shared};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

/// Largest accepted request body.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Bounds of a search request.
pub const MAX_MOVETIME_MS: u64 = 600_000;
pub const MAX_DEPTH: u32 = 100;
pub const MAX_NODES: u64 = 1_000_000_000_000;
/// An analysis without a limit ends after this long unless stopped.
pub const ANALYSIS_CAP_MS: u64 = MAX_MOVETIME_MS;
/// `go` without a limit thinks this long.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

pub type AppState = Arc<Mutex<Store>>;
type Game = Arc<Mutex<GameEntry>>;

/// A 4xx answer with a message.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
    fn busy() -> ApiError {
        ApiError::new(
            StatusCode::CONFLICT,
            "the engine is thinking about its move; wait for it or POST .../stop",
        )
    }
    pub fn not_found(what: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, what)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// Parses a JSON body; an empty body counts as `{}` when `T` allows it.
fn parse_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> ApiResult<T> {
    let bytes = body.map_err(|r| ApiError::new(r.status(), r.body_text()))?;
    let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        &bytes
    };
    serde_json::from_slice(text).map_err(|e| ApiError::bad(format!("bad JSON body: {e}")))
}

fn game(state: &AppState, id: &str) -> ApiResult<Game> {
    let not_found = || ApiError::not_found(format!("no game with id '{id}'"));
    let id: u64 = id.parse().map_err(|_| not_found())?;
    let store = state.lock().unwrap_or_else(|p| p.into_inner());
    store.get(id).ok_or_else(not_found)
}

fn state_of(game: &Game) -> Json<State> {
    Json(lock(game).state())
}

pub async fn variants() -> Json<Vec<session::VariantInfo>> {
    Json(session::variants())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: String,
    position: Option<String>,
}

pub async fn create(
    Shared(state): Shared<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let request: NewGame = parse_body(body)?;
    let position = request
        .position
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty());
    if !session::is_variant(&request.variant) {
        return Err(ApiError::bad(format!(
            "unknown variant '{}'; known variants: {}",
            request.variant,
            session::variant_names()
        )));
    }
    let engine = Engine::new(&request.variant, position.as_deref(), &[]).map_err(ApiError::bad)?;
    let game = state
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(engine, position);
    let entry = lock(&game);
    let body = serde_json::json!({ "id": entry.id.to_string(), "state": entry.state() });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

pub async fn show(
    Shared(state): Shared<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<State>> {
    Ok(state_of(&game(&state, &id)?))
}

/// Stops a running analysis and waits for it to end, so the position may
/// change; refuses while the engine is choosing its move.
async fn settle(game: &Game) -> ApiResult<()> {
    let task = {
        let mut entry = lock(game);
        match entry.running.as_ref().map(|r| r.kind) {
            None => return Ok(()),
            Some(SearchKind::Go) => return Err(ApiError::busy()),
            Some(SearchKind::Analysis) => {}
        }
        entry.engine.stop();
        entry.running.as_mut().and_then(|r| r.task.take())
    };
    if let Some(task) = task {
        // A task that panicked has nothing left to clean up.
        let _ = task.await;
    }
    let mut entry = lock(game);
    entry.running = None;
    Ok(())
}

/// Refuses moves and searches once the game is over.
fn still_playing(entry: &GameEntry) -> ApiResult<()> {
    match entry.engine.outcome() {
        Some(o) => Err(ApiError::bad(format!(
            "the game is over: {}",
            super::games::OutcomeView::from(o).reason
        ))),
        None => Ok(()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayMove {
    #[serde(rename = "move")]
    text: String,
}

pub async fn play(
    Shared(state): Shared<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<State>> {
    let game = game(&state, &id)?;
    let request: PlayMove = parse_body(body)?;
    settle(&game).await?;
    let mut entry = lock(&game);
    still_playing(&entry)?;
    let played = entry.play(&request.text, None).map_err(ApiError::bad)?;
    entry.channel.broadcast(
        "move",
        &serde_json::json!({ "move": played, "engine": false }),
    );
    Ok(Json(entry.state()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Undo {
    plies: Option<usize>,
}

pub async fn undo(
    Shared(state): Shared<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<State>> {
    let game = game(&state, &id)?;
    let request: Undo = parse_body(body)?;
    settle(&game).await?;
    let mut entry = lock(&game);
    entry
        .undo(request.plies.unwrap_or(1))
        .map_err(ApiError::bad)?;
    let plies = entry.record.len();
    entry
        .channel
        .broadcast("undo", &serde_json::json!({ "plies": plies }));
    Ok(Json(entry.state()))
}

/// A search request: at most the bounds above; `multipv` for analysis.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SearchRequest {
    movetime: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    multipv: Option<usize>,
}

impl SearchRequest {
    fn limits(&self) -> ApiResult<SearchLimits> {
        let check = |name: &str, value: Option<u64>, max: u64| match value {
            Some(v) if v == 0 || v > max => Err(ApiError::bad(format!(
                "'{name}' must be between 1 and {max}, not {v}"
            ))),
            _ => Ok(()),
        };
        check("movetime", self.movetime, MAX_MOVETIME_MS)?;
        check("depth", self.depth.map(u64::from), MAX_DEPTH as u64)?;
        check("nodes", self.nodes, MAX_NODES)?;
        check(
            "multipv",
            self.multipv.map(|m| m as u64),
            session::max_multipv() as u64,
        )?;
        Ok(SearchLimits {
            movetime_ms: self.movetime,
            depth: self.depth,
            nodes: self.nodes,
            multipv: self.multipv.unwrap_or(1),
        })
    }
}

/// Starts a search of `kind` on the game, streaming its lines.
fn start_search(
    game: &Game,
    kind: SearchKind,
    limits: SearchLimits,
) -> ApiResult<tokio::sync::oneshot::Receiver<SearchResult>> {
    let mut entry = lock(game);
    if entry.running.is_some() {
        return Err(ApiError::busy());
    }
    still_playing(&entry)?;
    let channel = entry.channel.clone();
    channel.set_last_pv(Vec::new());
    let on_line = move |line: AnalysisLine| {
        if line.multipv <= 1 {
            channel.set_last_pv(line.pv.clone());
        }
        channel.broadcast("info", &line);
    };
    let reply = entry
        .engine
        .search(limits, on_line)
        .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e))?;
    entry.running = Some(super::games::Running { kind, task: None });
    Ok(reply)
}

pub async fn go(
    Shared(state): Shared<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let game = game(&state, &id)?;
    let request: SearchRequest = parse_body(body)?;
    let mut limits = request.limits()?;
    if limits.movetime_ms.is_none() && limits.depth.is_none() && limits.nodes.is_none() {
        limits.movetime_ms = Some(DEFAULT_MOVETIME_MS);
    }
    settle(&game).await?;
    let started = std::time::Instant::now();
    let reply = start_search(&game, SearchKind::Go, limits)?;
    // The move is played even if the client leaves before the search
    // ends, so the game is never left locked.
    let (answer, answered) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let outcome = match reply.await {
            Ok(result) => play_engine_move(&game, &result, started),
            Err(_) => {
                lock(&game).running = None;
                Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the search failed",
                ))
            }
        };
        let _ = answer.send(outcome);
    });
    answered
        .await
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the search failed"))?
        .map(Json)
}

/// Ends a `go`: plays its move and describes it.
fn play_engine_move(
    game: &Game,
    result: &SearchResult,
    started: std::time::Instant,
) -> ApiResult<serde_json::Value> {
    let mut entry = lock(game);
    entry.running = None;
    entry.channel.search_done(SearchKind::Go, result);
    let best = result
        .best
        .clone()
        .ok_or_else(|| ApiError::bad("the engine has no legal move"))?;
    let note = EngineNote {
        score: result.score,
        depth: result.depth,
        nodes: result.nodes,
        time_ms: started.elapsed().as_millis() as u64,
    };
    let played = entry.play(&best, Some(note)).map_err(ApiError::bad)?;
    entry.channel.broadcast(
        "move",
        &serde_json::json!({ "move": played, "engine": true }),
    );
    Ok(serde_json::json!({
        "move": played,
        "score": result.score,
        "depth": result.depth,
        "nodes": result.nodes,
        "pv": entry.channel.last_pv(),
        "state": entry.state(),
    }))
}

pub async fn analyse(
    Shared(state): Shared<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<(StatusCode, Json<State>)> {
    let game = game(&state, &id)?;
    let request: SearchRequest = parse_body(body)?;
    let mut limits = request.limits()?;
    if limits.movetime_ms.is_none() && limits.depth.is_none() && limits.nodes.is_none() {
        limits.movetime_ms = Some(ANALYSIS_CAP_MS);
    }
    settle(&game).await?;
    let reply = start_search(&game, SearchKind::Analysis, limits)?;
    let finisher = game.clone();
    let task = tokio::spawn(async move {
        if let Ok(result) = reply.await {
            let mut entry = lock(&finisher);
            entry.running = None;
            entry.channel.search_done(SearchKind::Analysis, &result);
        }
    });
    let mut entry = lock(&game);
    if let Some(r) = entry.running.as_mut() {
        r.task = Some(task);
    }
    Ok((StatusCode::ACCEPTED, Json(entry.state())))
}

pub async fn stop(
    Shared(state): Shared<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    let game = game(&state, &id)?;
    let mut entry = lock(&game);
    let stopped = entry.running.as_ref().map(|r| r.kind);
    if stopped.is_some() {
        // Returns once the search has delivered its result.
        entry.engine.stop();
    }
    Ok(Json(serde_json::json!({ "stopped": stopped })))
}

pub async fn events(
    Shared(state): Shared<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Sse<impl tokio_stream::Stream<Item = Result<SseEvent, Infallible>>>> {
    let game = game(&state, &id)?;
    let receiver = lock(&game).channel.subscribe();
    let stream = UnboundedReceiverStream::new(receiver)
        .map(|e| Ok(SseEvent::default().event(e.name).data(e.data)));
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

pub async fn pgn(Shared(state): Shared<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let game = game(&state, &id)?;
    let text = lock(&game).pgn();
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        text,
    )
        .into_response())
}

pub async fn no_route() -> ApiError {
    ApiError::not_found("no such endpoint (see protocol.md, \"Web board\")")
}
