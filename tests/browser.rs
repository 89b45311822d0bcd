//! `tabula serve` in a real browser: headless Chromium, driven through
//! chromedriver (WebDriver), plays a short game with two seats in two
//! browsers and reads the screens. `.ci/run` installs Debian's chromium
//! and chromium-driver; without them a local run says it skipped.

use crate::web;

use std::io::Write;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::web::Running;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

/// chromedriver and chromium, where Debian puts them (or
/// `TABULA_CHROMEDRIVER` / `TABULA_CHROMIUM`).
fn browser() -> Option<(String, String)> {
    let driver =
        std::env::var("TABULA_CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    let chromium = std::env::var("TABULA_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let found =
        std::path::Path::new(&driver).is_file() && std::path::Path::new(&chromium).is_file();
    found.then_some((driver, chromium))
}

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn start_driver(driver: &str) -> (Driver, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let d = Driver(child);
    let start = Instant::now();
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "chromedriver did not start"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (d, format!("http://127.0.0.1:{port}"))
}

/// A browser of its own (its own profile: a second browser context).
async fn open(webdriver: &str, chromium: &str, profile: &std::path::Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--window-size=1200,900",
                format!("--user-data-dir={}", profile.display()),
            ]
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(webdriver)
        .await
        .unwrap()
}

/// The text of the element `css` once `ok` holds of it (30 s at most).
async fn text_when(c: &Client, css: &str, ok: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    let mut last = String::new();
    while start.elapsed() < Duration::from_secs(30) {
        if let Ok(e) = c.find(Locator::Css(css)).await {
            last = e.text().await.unwrap_or_default();
            if ok(&last) {
                return last;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{css}: still `{last}` after 30 s");
}

async fn click(c: &Client, css: &str) {
    let start = Instant::now();
    loop {
        if let Ok(e) = c.find(Locator::Css(css)).await
            && e.click().await.is_ok()
        {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no {css} to click"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The browser, or None when this machine has none (CI always has).
fn browser_or_skip(test: &str) -> Option<(String, String)> {
    let found = browser();
    if found.is_none() {
        assert!(
            std::env::var("CI").is_err(),
            "CI installs chromium and chromium-driver (.ci/run): none found"
        );
        // Straight to stderr: the test harness shows no `eprintln!` of a
        // test that passes.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: no /usr/bin/chromedriver and /usr/bin/chromium \
             (apt-get install chromium chromium-driver, or set TABULA_CHROMEDRIVER and TABULA_CHROMIUM)"
        );
    }
    found
}

/// Connect Four's moves name columns: a click on any empty cell of one
/// drops the disc, which lands at the bottom.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_on_a_grid_column_drops_a_disc() {
    let Some((driver, chromium)) = browser_or_skip("a_click_on_a_grid_column_drops_a_disc") else {
        return;
    };
    let state = tempfile::tempdir().unwrap();
    let dir = web::root().join("examples/connect-four/games");
    let r = Running::start(&dir, &["connect-four"], state.path()).await;
    let t = r
        .open(json!({"game": "connect-four", "seed": 1, "seats": {"yellow": "random"}}))
        .await;
    let (_driver, webdriver) = start_driver(&driver).await;
    let profile = tempfile::tempdir().unwrap();
    let red = open(&webdriver, &chromium, profile.path()).await;
    red.goto(&r.url(t["seats"]["red"].as_str().unwrap()))
        .await
        .unwrap();
    text_when(&red, "#status", |t| t.starts_with("Your turn")).await;
    click(&red, "#grid td[data-cell=d4].playable").await;
    text_when(&red, "#grid td[data-cell=d1]", |t| !t.is_empty()).await;
    let above = red
        .find(Locator::Css("#grid td[data-cell=d4]"))
        .await
        .unwrap();
    assert_eq!(
        above.text().await.unwrap(),
        "",
        "the disc fell to the bottom"
    );
    // The bot answered and it is red's turn again.
    text_when(&red, "#status", |t| t.starts_with("Your turn")).await;
    red.close().await.unwrap();
    r.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_play_a_short_game_and_each_screen_says_its_own() {
    let Some((driver, chromium)) =
        browser_or_skip("two_browsers_play_a_short_game_and_each_screen_says_its_own")
    else {
        return;
    };
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(&web::root().join("games"), &["braverats"], state.path()).await;
    // One round decides it: red's Prince against blue's Spy.
    let t = r
        .open(json!({"game": "braverats", "seed": 11, "sets": {"victories_to_win": 1}}))
        .await;
    let (_driver, webdriver) = start_driver(&driver).await;
    let (pr, pb) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let red = open(&webdriver, &chromium, pr.path()).await;
    let blue = open(&webdriver, &chromium, pb.path()).await;
    red.goto(&r.url(t["seats"]["red"].as_str().unwrap()))
        .await
        .unwrap();
    blue.goto(&r.url(t["seats"]["blue"].as_str().unwrap()))
        .await
        .unwrap();
    for c in [&red, &blue] {
        text_when(c, "#conn", |t| t == "connected").await;
        text_when(c, "#status", |t| t.starts_with("Your turn")).await;
        assert!(
            text_when(c, "#title", |t| t.contains("BraveRats"))
                .await
                .contains("you play")
        );
    }
    // Each sees its own hand and only the count of the other's.
    let mine = text_when(
        &red,
        "section.player[data-player=red] .zone[data-zone=hand]",
        |t| t.contains("Prince"),
    )
    .await;
    assert!(mine.contains("Musician"), "{mine}");
    let theirs = text_when(
        &red,
        "section.player[data-player=blue] .zone[data-zone=hand]",
        |t| t.contains("8 hidden"),
    )
    .await;
    assert!(!theirs.contains("Prince"), "{theirs}");
    // Red chooses by clicking; blue is told only that red has chosen.
    click(&red, "#options button.option[data-choice=prince]").await;
    text_when(&red, "#status", |t| {
        t.starts_with("You have chosen; waiting for Blue")
    })
    .await;
    text_when(&blue, "section.player[data-player=red]", |t| {
        !t.contains("to choose")
    })
    .await;
    let said = blue
        .find(Locator::Css("#chosen"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(said, "", "blue's page shows no choice of red's");
    click(&blue, "#options button.option[data-choice=spy]").await;
    // The round is revealed in both logs, and each is told the end.
    for c in [&red, &blue] {
        text_when(c, "#log", |t| t.contains("revealed: Red Prince, Blue Spy")).await;
    }
    let won = text_when(&red, "#result", |t| !t.is_empty()).await;
    assert!(won.starts_with("You win"), "{won}");
    let lost = text_when(&blue, "#result", |t| !t.is_empty()).await;
    assert!(lost.starts_with("You lose: Red wins"), "{lost}");
    assert_eq!(
        red.find_all(Locator::Css("#options button.option"))
            .await
            .unwrap()
            .len(),
        0
    );
    // The end in each page's words and colours: no undo after it, and the
    // rules and every card's text are there to read.
    for (c, class) in [(&red, "win"), (&blue, "loss")] {
        let result = c.find(Locator::Css("#result")).await.unwrap();
        assert_eq!(result.attr("class").await.unwrap().as_deref(), Some(class));
        assert!(c.find_all(Locator::Css("#undo")).await.unwrap().is_empty());
        let rules = c
            .execute(
                "return document.getElementById('rules').textContent",
                vec![],
            )
            .await
            .unwrap();
        let rules = rules.as_str().unwrap();
        assert!(
            rules.contains("Cards:") && rules.contains("This round is put on hold"),
            "{rules}"
        );
    }
    // The save is the players' now that the game is over.
    let link = red.find(Locator::Css("a#download-save")).await.unwrap();
    assert!(
        link.attr("href")
            .await
            .unwrap()
            .unwrap()
            .ends_with("/save.yaml")
    );
    red.close().await.unwrap();
    blue.close().await.unwrap();
    r.stop().await;
}

/// Hearts' pass is one pick of three: the page shows the hand's thirteen
/// cards as toggles (not 286 buttons, one a set), a confirm that waits
/// for three, and sends the one choice they make.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hearts_pass_is_three_cards_selected_then_confirmed() {
    let Some((driver, chromium)) =
        browser_or_skip("hearts_pass_is_three_cards_selected_then_confirmed")
    else {
        return;
    };
    let state = tempfile::tempdir().unwrap();
    let dir = web::root().join("tests/reference/games");
    let r = Running::start(&dir, &["hearts"], state.path()).await;
    let t = r
        .open(json!({"game": "hearts", "seed": 1,
            "seats": {"east": "random", "south": "random", "west": "random"}}))
        .await;
    let (_driver, webdriver) = start_driver(&driver).await;
    let profile = tempfile::tempdir().unwrap();
    let north = open(&webdriver, &chromium, profile.path()).await;
    north
        .goto(&r.url(t["seats"]["north"].as_str().unwrap()))
        .await
        .unwrap();
    text_when(&north, "#status", |t| t.contains("three cards to pass")).await;
    let count = |css: &'static str| {
        let north = &north;
        async move { north.find_all(Locator::Css(css)).await.unwrap().len() }
    };
    assert_eq!(count("#options button.option.pick").await, 13);
    assert_eq!(count("#options button.option:not(.pick)").await, 0);
    let confirm_disabled = || async {
        let b = north.find(Locator::Css("#pick-confirm")).await.unwrap();
        b.attr("disabled").await.unwrap().is_some()
    };
    assert!(confirm_disabled().await, "nothing selected yet");
    // A card selected and selected again is not selected.
    click(&north, "#options button.pick[data-part='2h']").await;
    click(&north, "#options button.pick[data-part='2h']").await;
    for card in ["ks", "qh", "3s"] {
        assert!(confirm_disabled().await);
        click(&north, &format!("#options button.pick[data-part='{card}']")).await;
    }
    assert_eq!(count("#options button.pick.selected").await, 3);
    let label = text_when(&north, "#pick-confirm", |t| t.starts_with("Confirm")).await;
    assert!(label.contains("K♠") && label.contains("Q♥"), "{label}");
    // A fourth is not taken.
    click(&north, "#options button.pick[data-part='kh']").await;
    assert_eq!(count("#options button.pick.selected").await, 3);
    click(&north, "#pick-confirm").await;
    text_when(&north, "#log", |t| t.contains("The cards are passed.")).await;
    // East's hand, on north's page: the three north passed, known to north.
    let east = text_when(
        &north,
        "section.player[data-player=east] .zone[data-zone=hand]",
        |t| t.contains("Q♥"),
    )
    .await;
    assert!(east.contains("K♠") && east.contains("3♠"), "{east}");
    let error = north.find(Locator::Css("#error")).await.unwrap();
    assert!(!error.is_displayed().await.unwrap(), "no error shown");
    north.close().await.unwrap();
    r.stop().await;
}
