//! The web board in a real headless Chromium, driven through chromedriver
//! (WebDriver): for each game, load the page, start a game, play a move by
//! clicking, wait for the engine's reply and check the board against the
//! server's state.
//!
//! They need Debian's `chromium` and `chromium-driver` (paths can be set
//! with GHAST_CHROMIUM and GHAST_CHROMEDRIVER), so they are ignored by a
//! plain `cargo test`; `.ci/run` installs both and runs them with
//! `cargo test --release --test browser -- --ignored`. With
//! GHAST_SCREENSHOTS=DIR they also save the README's pictures there.

mod web_common;

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use web_common::{Server, kinds_on};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// Attempts at clicking an element that is being redrawn.
const CLICK_TRIES: u32 = 50;
/// Polls for chromedriver to listen, 100 ms apart.
const DRIVER_START_POLLS: u32 = 300;
/// Attempts at opening a WebDriver session.
const SESSION_TRIES: u32 = 5;

/// The Nemoroth picture: both Ghasts' fields, both Basilisks' gaze, a
/// stack, a statue, a Mummy, a digesting Leaf Pile, ichor and all three
/// kinds of compulsion (MO on b3, ICH on e4, FL on c5).
pub const NEMOROTH_EFFECTS: &str = "4b3/8/1g1ph4/2H5/4H2B/1(Hz)3G2/3dL4/W2M1pa2 a a2=7,e4=6 0";

/// Chromium under chromedriver, with a profile of its own; both end when
/// dropped.
struct Browser {
    driver: Child,
    client: Option<Client>,
    profile: std::path::PathBuf,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Browser {
    async fn start(name: &str) -> Browser {
        let port = free_port();
        let driver_path = std::env::var("GHAST_CHROMEDRIVER").unwrap_or(CHROMEDRIVER.into());
        let driver = Command::new(&driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {driver_path}: {e}"));
        for _ in 0..DRIVER_START_POLLS {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let profile =
            std::env::temp_dir().join(format!("ghast-browser-{}-{name}", std::process::id()));
        let binary = std::env::var("GHAST_CHROMIUM").unwrap_or(CHROMIUM.into());
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": binary,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--window-size=1500,1100",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        });
        let Value::Object(capabilities) = capabilities else {
            unreachable!()
        };
        // chromedriver may accept the connection and reset it while it is
        // still starting on a loaded machine: try again a few times.
        let mut attempt = 1;
        let client = loop {
            match ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&format!("http://127.0.0.1:{port}"))
                .await
            {
                Ok(client) => break client,
                Err(e) if attempt < SESSION_TRIES => {
                    eprintln!("WebDriver session, attempt {attempt}: {e}");
                    attempt += 1;
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                Err(e) => panic!("a WebDriver session: {e}"),
            }
        };
        Browser {
            driver,
            client: Some(client),
            profile,
        }
    }

    fn client(&self) -> &Client {
        self.client.as_ref().expect("open")
    }

    async fn close(mut self) {
        if let Some(c) = self.client.take() {
            let _ = c.close().await;
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Clicks the element; the board is redrawn whenever the state changes,
/// so an element found just before a redraw is looked up again.
async fn click(c: &Client, css: &str) {
    for _ in 0..CLICK_TRIES {
        let element = c
            .wait()
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"));
        match element.click().await {
            Ok(()) => return,
            Err(e) if e.to_string().contains("stale") => {
                tokio::time::sleep(Duration::from_millis(100)).await
            }
            Err(e) => panic!("click {css}: {e}"),
        }
    }
    panic!("{css} kept being redrawn");
}

async fn click_square(c: &Client, square: &str) {
    click(c, &format!("polygon[data-square='{square}']")).await;
}

/// Waits until the page has played `ply` moves.
async fn wait_for_ply(c: &Client, ply: usize) {
    c.wait()
        .at_most(Duration::from_secs(120))
        .for_element(Locator::Css(&format!(
            "body[data-ply='{ply}']:not([data-thinking])"
        )))
        .await
        .unwrap_or_else(|e| panic!("ply {ply}: {e}"));
}

async fn body_data(c: &Client, key: &str) -> String {
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .attr(&format!("data-{key}"))
        .await
        .unwrap()
        .unwrap_or_default()
}

/// Sets up `position` through the Position box and waits for the new game.
async fn set_up(c: &Client, position: &str) {
    let before = body_data(c, "game").await;
    let area = c.find(Locator::Id("position")).await.unwrap();
    area.clear().await.unwrap();
    area.send_keys(position).await.unwrap();
    click(c, "#setup").await;
    c.wait()
        .for_element(Locator::Css(&format!(
            "body[data-ply='0']:not([data-game='{before}'])"
        )))
        .await
        .expect("the new game");
}

/// Chooses `value` in the select box `id`.
async fn select(c: &Client, id: &str, value: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("{id} = {value}: {e}"));
}

/// How many elements match `css`.
async fn count(c: &Client, css: &str) -> usize {
    c.find_all(Locator::Css(css)).await.unwrap().len()
}

/// Sets the engine to a shallow fixed depth, as a person would.
async fn quick_engine(c: &Client) {
    select(c, "limit-kind", "depth").await;
    let value = c.find(Locator::Id("limit-value")).await.unwrap();
    value.clear().await.unwrap();
    value.send_keys("2").await.unwrap();
}

/// Every square's drawn pieces agree with the server's board.
async fn check_board(c: &Client, server: &Server) -> Value {
    let id = body_data(c, "game").await;
    let state = server.json("GET", &format!("/api/games/{id}"), "", 200);
    let drawn = c
        .execute(
            "const n = {}; for (const g of document.querySelectorAll('g.piece')) \
             n[g.dataset.square] = (n[g.dataset.square] || 0) + 1; return n;",
            vec![],
        )
        .await
        .unwrap();
    for cell in state["board"]["cells"].as_array().unwrap() {
        let name = cell["name"].as_str().unwrap();
        let expected = cell["occupants"].as_array().unwrap().len() as u64;
        assert_eq!(
            drawn[name].as_u64().unwrap_or(0),
            expected,
            "pieces drawn on {name}"
        );
    }
    state
}

async fn screenshot(c: &Client, name: &str) {
    let Ok(dir) = std::env::var("GHAST_SCREENSHOTS") else {
        return;
    };
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(std::path::Path::new(&dir).join(name), png).expect("save screenshot");
}

/// Loads the page for `variant`, plays `from`-`to` by clicking (choosing
/// `choice` where several moves share the squares), waits for the reply.
async fn play_one_move(
    server: &Server,
    browser: &Browser,
    variant: &str,
    from: &str,
    to: &str,
    expected: &str,
) -> Value {
    let c = browser.client();
    c.goto(&server.url(&format!("/?variant={variant}")))
        .await
        .unwrap();
    c.wait()
        .for_element(Locator::Css(&format!("body[data-variant='{variant}']")))
        .await
        .unwrap();
    quick_engine(c).await;
    click_square(c, from).await;
    c.wait()
        .for_element(Locator::Css(".target"))
        .await
        .expect("destinations shown");
    click_square(c, to).await;
    wait_for_ply(c, 2).await;
    let state = check_board(c, server).await;
    assert_eq!(state["moves"][0]["notation"], expected);
    assert!(
        state["moves"][1]["engine"].is_object(),
        "the engine replied"
    );
    let items = c.find_all(Locator::Css("#move-list span")).await.unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].text().await.unwrap(), expected);
    state
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver (run by .ci/run)"]
async fn nimrod_move_reply_and_analysis() {
    let server = Server::start();
    let browser = Browser::start("nimrod").await;
    let state = play_one_move(&server, &browser, "nimrod", "e2", "e4", "e2e4").await;
    assert_eq!(state["side_to_move"], "white");
    let c = browser.client();
    // Analysis: lines stream in, the best move gets its arrow.
    click(c, "#analyse").await;
    c.wait()
        .at_most(Duration::from_secs(60))
        .for_element(Locator::Css("#lines tbody tr td.pv span"))
        .await
        .expect("an analysis line");
    c.wait()
        .for_element(Locator::Css(".best-move"))
        .await
        .expect("the best-move arrow");
    screenshot(c, "board-nimrod.png").await;
    click(c, "#stop").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver (run by .ci/run)"]
async fn nimrod_corner_board_is_turned() {
    let server = Server::start();
    let browser = Browser::start("corner").await;
    // A corner Pawn steps north (towards a8).
    play_one_move(&server, &browser, "nimrod-corner", "g4", "g5", "g4g5").await;
    let c = browser.client();
    assert_eq!(count(c, "polygon[data-square]").await, 64);
    // h1 is drawn at the bottom, a8 at the top.
    let y = |square: &'static str| async move {
        c.find(Locator::Css(&format!("polygon[data-square='{square}']")))
            .await
            .unwrap()
            .rectangle()
            .await
            .unwrap()
            .1
    };
    assert!(y("a8").await < y("h1").await);
    screenshot(c, "board-nimrod-corner.png").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver (run by .ci/run)"]
async fn nimrod_promotion_offers_a_choice() {
    let server = Server::start();
    let browser = Browser::start("promotion").await;
    let c = browser.client();
    c.goto(&server.url("/?variant=nimrod")).await.unwrap();
    c.wait()
        .for_element(Locator::Css("body[data-variant='nimrod']"))
        .await
        .unwrap();
    select(c, "mode", "none").await;
    set_up(c, "w3k2u/1P4P1/8/8/8/8/1p4p1/W3K2U w - - 0 1").await;
    click_square(c, "b7").await;
    click_square(c, "b8").await;
    // Six promotions share b7-b8; pick the Hawkress.
    let buttons = c
        .wait()
        .for_element(Locator::Css("#choice-buttons"))
        .await
        .unwrap()
        .find_all(Locator::Css("button"))
        .await
        .unwrap();
    assert_eq!(buttons.len(), 6);
    click(c, "button[data-notation='b7b8w']").await;
    wait_for_ply(c, 1).await;
    let state = check_board(c, &server).await;
    assert_eq!(state["moves"][0]["notation"], "b7b8w");
    assert_eq!(kinds_on(&state, "b8"), ["hawkress"]);
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver (run by .ci/run)"]
async fn vyremorn_mounting_a_disk_and_the_reply() {
    let server = Server::start();
    let browser = Browser::start("vyremorn").await;
    // The Arbalest d4 mounts the Disk d5.
    let state = play_one_move(&server, &browser, "vyremorn", "d4", "d5", "d4d5").await;
    assert_eq!(kinds_on(&state, "d5"), ["disk", "arbalest"]);
    assert_eq!(count(browser.client(), "polygon[data-square]").await, 132);
    screenshot(browser.client(), "board-vyremorn.png").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver (run by .ci/run)"]
async fn nemoroth_move_reply_and_effect_layers() {
    let server = Server::start();
    let browser = Browser::start("nemoroth").await;
    let state = play_one_move(&server, &browser, "nemoroth", "a2", "a3", "a2a3").await;
    let c = browser.client();
    // A scream: click the Go Away b1, then click it again.
    let scream = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["kind"] == "scream" && m["from"] == "b1")
        .expect("b1 may scream")["notation"]
        .clone();
    click_square(c, "b1").await;
    click_square(c, "b1").await;
    wait_for_ply(c, 4).await;
    let state = check_board(c, &server).await;
    assert_eq!(state["moves"][2]["notation"], scream);
    // Set up the effects position; every layer is drawn.
    select(c, "mode", "none").await;
    set_up(c, NEMOROTH_EFFECTS).await;
    let state = check_board(c, &server).await;
    assert_eq!(state["position"], NEMOROTH_EFFECTS);
    assert_eq!(count(c, "[data-effect='ghast-field']").await, 25 + 20);
    assert_eq!(count(c, "[data-effect='gaze']").await, 4);
    assert_eq!(count(c, "[data-effect='compelled']").await, 3);
    screenshot(c, "board-nemoroth.png").await;
    // Switching a layer off removes it.
    click(c, "#show-fields").await;
    assert_eq!(count(c, "[data-effect='ghast-field']").await, 0);
    // A bad position string gets a clear error and keeps the game.
    let position = c.find(Locator::Id("position")).await.unwrap();
    position.clear().await.unwrap();
    position.send_keys("8/8/8 a - 0").await.unwrap();
    click(c, "#setup").await;
    let error = c
        .wait()
        .for_element(Locator::Css("#setup-error:not(:empty)"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(error.starts_with("bad position"), "{error}");
    browser.close().await;
}
