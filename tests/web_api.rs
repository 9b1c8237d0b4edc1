//! The HTTP API of `ghast serve` (protocol.md, "Web board"): every
//! endpoint, and every kind of bad input answered with a 4xx and a message
//! while the server keeps running.

mod web_common;

use serde_json::Value;
use web_common::{Client, Server, kinds_on};

fn error_of(body: &str) -> String {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    v["error"].as_str().expect("an error message").to_string()
}

#[test]
fn variants_and_new_games_of_every_variant() {
    let server = Server::start();
    let variants = server.json("GET", "/api/variants", "", 200);
    let names: Vec<&str> = variants
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "nimrod",
            "nimrod-corner",
            "dragon-nimrod",
            "dragon-nimrod-corner",
            "vyremorn",
            "nemoroth"
        ]
    );
    for (variant, cells, moves) in [
        ("nimrod", 64, 20),
        ("nimrod-corner", 64, 16),
        ("vyremorn", 132, 50),
        ("nemoroth", 64, 33),
    ] {
        let (id, state) = server.create(&format!("{{\"variant\": \"{variant}\"}}"));
        assert_eq!(state["variant"], variant);
        assert_eq!(state["id"], id.as_str());
        assert_eq!(state["side_to_move"], "white");
        assert_eq!(state["outcome"], Value::Null);
        assert_eq!(state["legal_moves"].as_array().unwrap().len(), moves);
        assert_eq!(state["legal"].as_array().unwrap().len(), moves);
        assert_eq!(state["board"]["cells"].as_array().unwrap().len(), cells);
        let start = variants
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == variant)
            .unwrap();
        assert_eq!(state["position"], start["start_position"]);
        // GET answers the same state.
        let again = server.json("GET", &format!("/api/games/{id}"), "", 200);
        assert_eq!(again["position"], state["position"]);
    }
}

#[test]
fn set_up_positions_and_reject_bad_ones() {
    let server = Server::start();
    let fen = "w3k2u/1P4P1/8/8/8/8/1p4p1/W3K2U w - - 0 1";
    let (_, state) = server.create(&format!(
        "{{\"variant\": \"nimrod\", \"position\": \"{fen}\"}}"
    ));
    assert_eq!(state["position"], fen);
    assert_eq!(state["start_position"], fen);
    // A bad position names what is wrong.
    let (status, body) = server.post(
        "/api/games",
        r#"{"variant": "vyremorn", "position": "not a position"}"#,
    );
    assert_eq!(status, 400);
    assert!(error_of(&body).starts_with("bad position"), "{body}");
    let (status, body) = server.post("/api/games", r#"{"variant": "chess"}"#);
    assert_eq!(status, 400);
    assert!(
        error_of(&body).contains("unknown variant 'chess'"),
        "{body}"
    );
    for bad in [
        "{",
        "[]",
        r#"{"position": "8/8/8/8/8/8/8/8 a - 0"}"#,
        r#"{"variant": "nimrod", "colour": "white"}"#,
        r#"{"variant": 7}"#,
    ] {
        let (status, body) = server.post("/api/games", bad);
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(error_of(&body).starts_with("bad JSON body"), "{body}");
    }
}

#[test]
fn unknown_ids_and_routes_answer_404() {
    let server = Server::start();
    for path in [
        "/api/games/1",
        "/api/games/abc",
        "/api/games/99999999999999999999999",
        "/api/nothing",
    ] {
        let (status, body) = server.get(path);
        assert_eq!(status, 404, "{path}");
        assert!(!error_of(&body).is_empty());
    }
    for suffix in ["moves", "undo", "go", "analysis", "stop"] {
        let (status, _) = server.post(&format!("/api/games/42/{suffix}"), "{}");
        assert_eq!(status, 404, "{suffix}");
    }
    assert_eq!(server.get("/api/games/42/pgn").0, 404);
    assert_eq!(server.get("/api/games/42/events").0, 404);
}

#[test]
fn moves_undo_and_bad_moves() {
    let mut server = Server::start();
    let (id, _) = server.create(r#"{"variant": "nimrod"}"#);
    let moves = format!("/api/games/{id}/moves");
    let state = server.json("POST", &moves, r#"{"move": "e2e4"}"#, 200);
    assert_eq!(state["side_to_move"], "black");
    assert_eq!(state["moves"][0]["notation"], "e2e4");
    assert_eq!(state["moves"][0]["side"], "white");
    assert_eq!(kinds_on(&state, "e4"), ["pawn"]);
    // Illegal, garbled, empty and mistyped moves: 400 with the reason.
    for (body, needle) in [
        (r#"{"move": "e7e5x"}"#, "e7e5x"),
        (r#"{"move": "e2e4"}"#, "illegal move 'e2e4'"),
        (r#"{"move": "zz"}"#, "cannot parse move"),
        (r#"{"move": ""}"#, "cannot parse move"),
    ] {
        let (status, text) = server.post(&moves, body);
        assert_eq!(status, 400, "{body}: {text}");
        assert!(error_of(&text).contains(needle), "{body}: {text}");
    }
    for body in ["", "{", r#"{"move": 5}"#, r#"{"mv": "e7e5"}"#] {
        let (status, text) = server.post(&moves, body);
        assert_eq!(status, 400, "{body}: {text}");
        assert!(error_of(&text).starts_with("bad JSON body"), "{text}");
    }
    // A huge body is refused before it is parsed.
    let huge = format!("{{\"move\": \"{}\"}}", "a".repeat(200_000));
    let (status, _) = server.post(&moves, &huge);
    assert_eq!(status, 413);
    // The position is as it was; undo takes the move back.
    let state = server.json("GET", &format!("/api/games/{id}"), "", 200);
    assert_eq!(state["moves"].as_array().unwrap().len(), 1);
    server.json("POST", &moves, r#"{"move": "e7e5"}"#, 200);
    let undone = server.json("POST", &format!("/api/games/{id}/undo"), "", 200);
    assert_eq!(undone["moves"].as_array().unwrap().len(), 1);
    let undone = server.json(
        "POST",
        &format!("/api/games/{id}/undo"),
        r#"{"plies": 5}"#,
        200,
    );
    assert_eq!(undone["moves"].as_array().unwrap().len(), 0);
    assert_eq!(undone["position"], undone["start_position"]);
    let (status, _) = server.post(&format!("/api/games/{id}/undo"), r#"{"plies": -1}"#);
    assert_eq!(status, 400);
    assert!(server.alive());
}

#[test]
fn the_game_end_is_reported_and_ends_play() {
    let server = Server::start();
    // Rulebook T6: the Zombie enters ichor with the Obsidian Human; Obsidian
    // has nothing left and loses.
    let (id, _) =
        server.create(r#"{"variant": "nemoroth", "position": "8/8/8/8/2hZ4/8/8/8 a c4=6 0"}"#);
    let state = server.json(
        "POST",
        &format!("/api/games/{id}/moves"),
        r#"{"move": "d4c4"}"#,
        200,
    );
    assert_eq!(state["outcome"]["result"], "1-0");
    assert_eq!(state["outcome"]["winner"], "white");
    assert_eq!(state["outcome"]["reason"], "no legal move");
    assert_eq!(state["legal_moves"].as_array().unwrap().len(), 0);
    let (status, body) = server.post(&format!("/api/games/{id}/go"), r#"{"depth": 1}"#);
    assert_eq!(status, 400);
    assert!(error_of(&body).contains("over"), "{body}");
    let (status, _) = server.post(&format!("/api/games/{id}/moves"), r#"{"move": "a1a2"}"#);
    assert_eq!(status, 400);
    let pgn = server.get(&format!("/api/games/{id}/pgn")).1;
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"no legal move\"]"), "{pgn}");
    assert!(pgn.contains("1. d4c4 1-0"), "{pgn}");
}

#[test]
fn the_engine_moves_with_each_kind_of_limit() {
    let server = Server::start();
    let (id, _) = server.create(r#"{"variant": "vyremorn"}"#);
    let go = format!("/api/games/{id}/go");
    let reply = server.json("POST", &go, r#"{"depth": 2}"#, 200);
    let mv = reply["move"].as_str().unwrap();
    assert_eq!(reply["pv"][0], mv);
    assert!(reply["score"].get("cp").is_some() || reply["score"].get("mate").is_some());
    assert_eq!(reply["state"]["moves"][0]["notation"], mv);
    assert_eq!(reply["state"]["moves"][0]["engine"]["depth"], 2);
    assert_eq!(reply["state"]["side_to_move"], "black");
    let reply = server.json("POST", &go, r#"{"nodes": 2000}"#, 200);
    assert!(reply["nodes"].as_u64().unwrap() > 0);
    let reply = server.json("POST", &go, r#"{"movetime": 50}"#, 200);
    assert_eq!(reply["state"]["moves"].as_array().unwrap().len(), 3);
    for bad in [
        r#"{"depth": 0}"#,
        r#"{"depth": 1000}"#,
        r#"{"movetime": 100000000}"#,
        r#"{"nodes": 0}"#,
        r#"{"movetime": "fast"}"#,
        r#"{"depht": 3}"#,
    ] {
        let (status, body) = server.post(&go, bad);
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(!error_of(&body).is_empty());
    }
    let pgn = server.get(&format!("/api/games/{id}/pgn")).1;
    assert!(pgn.contains("[Variant \"vyremorn\"]"), "{pgn}");
    assert!(pgn.contains("[White \"ghast\"]"), "{pgn}");
    assert!(pgn.contains("/2 "), "engine comment with the depth: {pgn}");
    assert!(pgn.trim_end().ends_with('*'), "{pgn}");
}

#[test]
fn analysis_streams_multipv_lines_and_stops() {
    let server = Server::start();
    let (id, _) = server.create(r#"{"variant": "nimrod"}"#);
    let stop = format!("/api/games/{id}/stop");
    assert_eq!(server.json("POST", &stop, "", 200)["stopped"], Value::Null);
    let mut events = server.events(&id);
    let started = server.json(
        "POST",
        &format!("/api/games/{id}/analysis"),
        r#"{"depth": 3, "multipv": 2}"#,
        202,
    );
    assert_eq!(started["thinking"], "analysis");
    let mut seen = [false; 2];
    while !(seen[0] && seen[1]) {
        let line = events.next("info");
        let k = line["multipv"].as_u64().unwrap() as usize;
        assert!((1..=2).contains(&k));
        seen[k - 1] = true;
        // Each PV move comes described, starting from the position.
        let first = &line["pv_moves"][0];
        assert_eq!(first["notation"], line["pv"][0]);
        assert!(first["from"].is_string() && first["to"].is_string());
    }
    let done = events.next("done");
    assert_eq!(done["kind"], "analysis");
    assert!(done["best"].is_string());
    // An analysis ends by itself at its limit; the game is unchanged.
    let state = server.json("GET", &format!("/api/games/{id}"), "", 200);
    assert_eq!(state["moves"].as_array().unwrap().len(), 0);
    // A move while analysing stops the analysis and is played.
    server.json("POST", &format!("/api/games/{id}/analysis"), r#"{}"#, 202);
    events.next("info");
    let state = server.json(
        "POST",
        &format!("/api/games/{id}/moves"),
        r#"{"move": "d2d4"}"#,
        200,
    );
    assert_eq!(state["thinking"], Value::Null);
    assert_eq!(state["moves"][0]["notation"], "d2d4");
    let (status, _) = server.post(&format!("/api/games/{id}/analysis"), r#"{"multipv": 0}"#);
    assert_eq!(status, 400);
}

#[test]
fn the_position_is_locked_while_the_engine_chooses_its_move() {
    let server = Server::start();
    let (id, _) = server.create(r#"{"variant": "nemoroth"}"#);
    let mut events = server.events(&id);
    let client: Client = (*server).clone();
    let go_path = format!("/api/games/{id}/go");
    let thinker = std::thread::spawn(move || client.post(&go_path, r#"{"depth": 60}"#));
    // The search has reported, so it is running.
    events.next("info");
    for (path, body) in [
        ("moves", r#"{"move": "a2a3"}"#),
        ("undo", "{}"),
        ("go", r#"{"depth": 1}"#),
        ("analysis", "{}"),
    ] {
        let (status, text) = server.post(&format!("/api/games/{id}/{path}"), body);
        assert_eq!(status, 409, "{path}: {text}");
        assert!(error_of(&text).contains("thinking"));
    }
    let stopped = server.json("POST", &format!("/api/games/{id}/stop"), "", 200);
    assert_eq!(stopped["stopped"], "go");
    let (status, body) = thinker.join().unwrap();
    assert_eq!(status, 200, "{body}");
    let reply: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(reply["state"]["moves"].as_array().unwrap().len(), 1);
    assert_eq!(reply["state"]["thinking"], Value::Null);
}

#[test]
fn the_store_drops_the_oldest_game() {
    let server = Server::start();
    let (first, _) = server.create(r#"{"variant": "nimrod"}"#);
    let mut last = first.clone();
    for _ in 0..64 {
        last = server.create(r#"{"variant": "nimrod"}"#).0;
    }
    assert_eq!(server.get(&format!("/api/games/{first}")).0, 404);
    assert_eq!(server.get(&format!("/api/games/{last}")).0, 200);
    let second: u64 = first.parse::<u64>().unwrap() + 1;
    assert_eq!(server.get(&format!("/api/games/{second}")).0, 200);
}

#[test]
fn the_page_is_served() {
    let server = Server::start();
    let (status, html) = server.get("/");
    assert_eq!(status, 200);
    assert!(html.contains("<svg id=\"board\""));
    for asset in ["/app.js", "/style.css"] {
        let (status, body) = server.get(asset);
        assert_eq!(status, 200, "{asset}");
        assert!(!body.is_empty());
    }
}

#[test]
fn a_client_leaving_during_go_does_not_lock_the_game() {
    let server = Server::start();
    let (id, _) = server.create(r#"{"variant": "nimrod"}"#);
    let mut events = server.events(&id);
    {
        use std::io::Write;
        let mut leaving = std::net::TcpStream::connect(&server.address).unwrap();
        let body = r#"{"depth": 60}"#;
        write!(
            leaving,
            "POST /api/games/{id}/go HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        events.next("info");
    }
    server.json("POST", &format!("/api/games/{id}/stop"), "", 200);
    // The engine's move is still played, and the game goes on.
    let played = events.next("move");
    assert_eq!(played["engine"], true);
    let state = server.json("GET", &format!("/api/games/{id}"), "", 200);
    assert_eq!(state["thinking"], Value::Null);
    let reply = state["legal_moves"][0].as_str().unwrap();
    let after = server.json(
        "POST",
        &format!("/api/games/{id}/moves"),
        &format!("{{\"move\": \"{reply}\"}}"),
        200,
    );
    assert_eq!(after["moves"].as_array().unwrap().len(), 2);
}
