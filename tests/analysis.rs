//! The designer's analysis: sweeps equal separate sims, shards merged
//! equal the single run, charts are SVG with the expected series, and
//! the comparison shows every section of a single run.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::Test;

use crate::common::{games_dir, load};
use tabula::sim::{self, Shard, SimConfig};
use tabula::sweep::{self, Axis, SweepConfig};
use tabula::{Build, Settings};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tabula(dir: &Path, args: &[&str]) -> Output {
    Test::new().current_dir(dir).args(args).run().output
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_str(&ok(o)).expect("JSON on stdout")
}

fn config(games: u64, seed: u64, players: usize) -> SimConfig {
    SimConfig {
        games,
        seed,
        bots: vec!["random".into(); players],
        jobs: 2,
        max_decisions: 10_000,
        shard: None,
    }
}

#[test]
fn a_sweeps_rows_equal_separate_sims_at_the_same_settings() {
    let path = games_dir().join("experior.yaml");
    let cfg = SweepConfig {
        path: &path,
        dir: &games_dir(),
        base: Settings {
            variants: Vec::new(),
            sets: vec![("max_turns".into(), 6.into())],
        },
        axes: vec![Axis::parse("wound_limit=3..5").unwrap()],
        sim: config(300, 9, 2),
        solve: Some(tabula::solve::Limits::default()),
        build: Build::default(),
    };
    let s = sweep::run(&cfg, &|_, _| {}).unwrap();
    assert_eq!(s.rows.len(), 3);
    for (v, row) in (3..=5).zip(&s.rows) {
        let game = load("experior", &[], &[("max_turns", 6), ("wound_limit", v)]);
        let tally = sim::run(&game, &cfg.sim, &|_| {}).unwrap();
        assert_eq!(row.report, sim::report(&game, &cfg.sim, &tally), "at {v}");
        // The exact value is solve's at that setting.
        let solved = tabula::solve::solve(&game, 9, 2).unwrap();
        match &row.exact {
            Some(sweep::Exact::Solved { worth, .. }) => {
                assert_eq!(*worth, solved.worth, "at {v}");
            }
            other => panic!("at {v}: {other:?}"),
        }
    }
    // The settings differ: a higher limit, longer games.
    let means: Vec<f64> = s.rows.iter().map(|r| r.report.turns.mean).collect();
    assert!(means[0] < means[1] && means[1] < means[2], "{means:?}");
}

#[test]
fn a_sweep_says_where_it_could_not_solve() {
    // The Path has a die: solve refuses it, the sims still run.
    let path = games_dir().join("the-path.yaml");
    let cfg = SweepConfig {
        path: &path,
        dir: &games_dir(),
        base: Settings::default(),
        axes: vec![Axis::parse("players=2..4").unwrap()],
        sim: config(20, 1, 2),
        solve: Some(tabula::solve::Limits::default()),
        build: Build::default(),
    };
    let s = sweep::run(&cfg, &|_, _| {}).unwrap();
    for row in &s.rows {
        match &row.exact {
            Some(sweep::Exact::NotSolved { not_solved, .. }) => {
                assert!(not_solved.contains("solve cannot handle"), "{not_solved}")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(row.report.games, 20);
    }
    // Every seat of each setting has a bot.
    let seats: Vec<usize> = s.rows.iter().map(|r| r.report.seats.len()).collect();
    assert_eq!(seats, [2, 3, 4]);
}

#[test]
fn a_sweep_on_the_command_line_is_the_sims_it_stands_for() {
    let dir = root();
    let sw = json(&tabula(
        &dir,
        &[
            "sweep",
            "experior",
            "wound_limit=10..30:10",
            "--games",
            "200",
            "--seed",
            "4",
            "--json",
        ],
    ));
    let rows = sw["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for (w, row) in ["10", "20", "30"].iter().zip(rows) {
        let set = format!("wound_limit={w}");
        let one = json(&tabula(
            &dir,
            &[
                "sim", "experior", "--set", &set, "--games", "200", "--seed", "4", "--json",
            ],
        ));
        assert_eq!(row["report"], one, "at {set}");
        assert_eq!(
            row["setting"][0][1],
            serde_json::json!(w.parse::<i64>().unwrap())
        );
    }
    // CSV: a header and one line per setting, the setting first.
    let csv = ok(&tabula(
        &dir,
        &[
            "sweep",
            "experior",
            "wound_limit=10,20",
            "--games",
            "50",
            "--csv",
        ],
    ));
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("wound_limit,games,human_bot,human_wins,"),
        "{csv}"
    );
    assert!(lines[0].contains("ended:wound limit"), "{csv}");
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[1].starts_with("10,50,random,") && lines[2].starts_with("20,50,random,"));
}

#[test]
fn sweeps_refuse_bad_settings_before_running() {
    let dir = root();
    // The command line's own errors exit 2 (as clap's do), the game's 1.
    for (args, code, says) in [
        (vec!["wound_limit=30..10"], 2, "FROM (30) is above TO (10)"),
        (vec!["nothing=1..3"], 1, "nothing"),
        (
            vec!["wound_limit=1..3", "wound_limit=4..5"],
            1,
            "swept twice",
        ),
        (vec!["wound_limit=0..2"], 1, "at the setting wound_limit=0"),
        (
            vec!["wound_limit=1..3", "--chart", "out.png"],
            1,
            "must end in .svg or .html",
        ),
    ] {
        let mut all = vec!["sweep", "experior"];
        all.extend(args.iter().copied());
        let o = tabula(&dir, &all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn shards_cover_every_game_once() {
    for games in 0..40u64 {
        for n in 1..9u64 {
            let mut next = 0;
            let mut sizes = Vec::new();
            for k in 1..=n {
                let r = Shard { k, n }.range(games);
                assert_eq!(r.start, next, "{games} games, {k}/{n}");
                next = r.end;
                sizes.push(r.end - r.start);
            }
            assert_eq!(next, games);
            let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(hi - lo <= 1, "{games}/{n}: {sizes:?}");
        }
    }
    for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
        assert!(Shard::parse(bad).is_err(), "{bad}");
    }
    assert_eq!(Shard::parse("2/5"), Ok(Shard { k: 2, n: 5 }));
}

#[test]
fn a_sharded_sim_merged_equals_the_single_run() {
    // The Path: four seats in a drawn turn order, end reasons, cards.
    let game = load("the-path", &["four-players"], &[]);
    let cfg = config(150, 3, 4);
    let whole = sim::report(&game, &cfg, &sim::run(&game, &cfg, &|_| {}).unwrap());
    assert!(whole.places.is_some(), "the turn order is drawn");
    let parts: Vec<sim::Part> = [3, 1, 2]
        .iter()
        .map(|&k| {
            let cfg = SimConfig {
                shard: Some(Shard { k, n: 3 }),
                ..cfg.clone()
            };
            sim::Part {
                shard: Shard { k, n: 3 },
                total_games: cfg.games,
                run: sim::RunInfo::of(&game, &cfg),
                tally: sim::run(&game, &cfg, &|_| {}).unwrap(),
            }
        })
        .collect();
    assert_eq!(parts.iter().map(|p| p.tally.games).sum::<u64>(), 150);
    assert_eq!(sim::merge(&parts).unwrap(), whole);
    // Not all shards, or one twice: refused.
    let e = sim::merge(&parts[..2]).unwrap_err();
    assert!(e.message.contains("shard 2/3 is missing"), "{}", e.message);
    let twice = [parts[0].clone(), parts[0].clone(), parts[1].clone()];
    let e = sim::merge(&twice).unwrap_err();
    assert!(e.message.contains("given twice"), "{}", e.message);
}

#[test]
fn merge_on_the_command_line_gives_the_single_runs_json() {
    let dir = root();
    let tmp = tempfile::tempdir().unwrap();
    let common = [
        "sim",
        "braverats",
        "--games",
        "120",
        "--seed",
        "11",
        "--compare",
        "fast-rat",
        "--json",
    ];
    let whole = ok(&tabula(&dir, &common));
    let mut files = Vec::new();
    for k in 1..=4 {
        let shard = format!("{k}/4");
        let mut args = common.to_vec();
        args.extend(["--shard", &shard]);
        let f = tmp.path().join(format!("part-{k}.json"));
        std::fs::write(&f, ok(&tabula(&dir, &args))).unwrap();
        files.push(f.to_string_lossy().into_owned());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(ok(&tabula(&dir, &args)), whole);
    // A whole run is not a shard; another seed's shard is another run.
    let o = tabula(&dir, &["merge", &files[0], &files[1]]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("shards 3, 4 of 4 are missing"));
    let f = tmp.path().join("whole.json");
    std::fs::write(&f, &whole).unwrap();
    let o = tabula(&dir, &["merge", f.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("a whole run, not a shard"));
    let mut other = common.to_vec();
    other[5] = "12";
    other.extend(["--shard", "2/4"]);
    let f = tmp.path().join("other.json");
    std::fs::write(&f, ok(&tabula(&dir, &other))).unwrap();
    let o = tabula(
        &dir,
        &[
            "merge",
            &files[0],
            f.to_str().unwrap(),
            &files[2],
            &files[3],
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("seed 12 against seed 11"), "{err}");
}

#[test]
fn merge_refuses_shards_of_edited_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let scripts = tmp.path().join("scripts");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::create_dir_all(&scripts).unwrap();
    let yaml = std::fs::read_to_string(games_dir().join("braverats.yaml")).unwrap();
    std::fs::write(games.join("braverats.yaml"), &yaml).unwrap();
    std::fs::copy(
        root().join("scripts/braverats.rhai"),
        scripts.join("braverats.rhai"),
    )
    .unwrap();
    let run = |k: &str| {
        let f = tmp.path().join(format!("p{}.json", &k[..1]));
        let o = tabula(
            tmp.path(),
            &["sim", "braverats", "--games", "20", "--shard", k, "--json"],
        );
        std::fs::write(&f, ok(&o)).unwrap();
        f.to_string_lossy().into_owned()
    };
    let a = run("1/2");
    // A rules text edited between the shards (a comment: same play).
    std::fs::write(games.join("braverats.yaml"), format!("{yaml}\n# edited\n")).unwrap();
    let b = run("2/2");
    let o = tabula(tmp.path(), &["merge", &a, &b]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("its rules files differ"), "{err}");
}

/// The text of every `<text>` element of an SVG document, which must parse.
fn svg_texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("the chart is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert!(root.attribute("width").is_some() && root.attribute("height").is_some());
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or_default().trim().to_string())
        .collect()
}

/// Solid lines through three points or more (axes, ticks, error bars and
/// the dashes of a dashed line have two).
fn lines_in(svg: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .filter(|n| {
            n.attribute("points")
                .unwrap_or("")
                .split_whitespace()
                .count()
                >= 3
        })
        .count()
}

/// Whether some stroke is drawn in this colour (a dashed line's dashes).
fn drawn_in(svg: &str, color: &str) -> bool {
    svg.contains(&format!("stroke=\"{color}\""))
}

#[test]
fn a_sweep_chart_is_svg_with_a_line_per_figure() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("w.svg");
    ok(&tabula(
        &root(),
        &[
            "sweep",
            "experior",
            "wound_limit=4..6",
            "--set",
            "max_turns=6",
            "--games",
            "100",
            "--solve",
            "--chart",
            out.to_str().unwrap(),
        ],
    ));
    let svg = std::fs::read_to_string(&out).unwrap();
    let texts = svg_texts(&svg);
    for name in [
        "human wins",
        "elf wins",
        "draws",
        "human wins (exact)",
        "elf wins (exact)",
        "turns (mean)",
        "wound_limit",
        "experior: 100 games per setting, seed 0",
    ] {
        assert!(texts.iter().any(|t| t == name), "no `{name}` in {texts:?}");
    }
    // The x axis names the swept values, whole numbers only.
    for tick in ["4", "5", "6"] {
        assert!(texts.iter().any(|t| t == tick), "no tick {tick}");
    }
    assert!(!texts.iter().any(|t| t == "4.5"), "{texts:?}");
    // Two seats and draws solid; the exact chances (in the seats'
    // colours) and the length dashed.
    assert!(lines_in(&svg) >= 3, "{svg}");
    assert!(drawn_in(&svg, "#282828"), "no length line");
}

#[test]
fn a_grid_sweep_draws_a_panel_per_value_of_the_second_parameter() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("g.html");
    ok(&tabula(
        &root(),
        &[
            "sweep",
            "experior",
            "wound_limit=10,20",
            "max_turns=30,60",
            "--games",
            "50",
            "--chart",
            out.to_str().unwrap(),
        ],
    ));
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!doctype html>"));
    let svg = &html[html.find("<svg").unwrap()..html.rfind("</svg>").unwrap() + 6];
    let texts = svg_texts(svg);
    for panel in ["max_turns=30", "max_turns=60"] {
        assert!(
            texts.iter().any(|t| t.starts_with(panel)),
            "no panel {panel}: {texts:?}"
        );
    }
    assert_eq!(texts.iter().filter(|t| *t == "human wins").count(), 2);
}

#[test]
fn a_sim_chart_shows_each_columns_rates_and_lengths() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("s.svg");
    ok(&tabula(
        &root(),
        &[
            "sim",
            "braverats",
            "--games",
            "200",
            "--compare",
            "fast-rat",
            "--chart",
            out.to_str().unwrap(),
        ],
    ));
    let svg = std::fs::read_to_string(&out).unwrap();
    let texts = svg_texts(&svg);
    for name in [
        "Win rates (95% CI)",
        "red (random)",
        "blue (random)",
        "draws",
        "base",
        "fast-rat",
        "Game length (share of games by turns)",
        "turns",
    ] {
        assert!(texts.iter().any(|t| t == name), "no `{name}` in {texts:?}");
    }
    // One length distribution per column.
    assert_eq!(lines_in(&svg), 2, "{svg}");
}

#[test]
fn places_in_the_turn_order_are_reported_only_where_it_varies() {
    let cfg = config(200, 1, 2);
    let game = load("braverats", &[], &[]);
    let r = sim::report(&game, &cfg, &sim::run(&game, &cfg, &|_| {}).unwrap());
    assert_eq!((r.places, r.first_place_advantage), (None, None));
    let game = load("the-path", &[], &[]);
    let r = sim::report(&game, &cfg, &sim::run(&game, &cfg, &|_| {}).unwrap());
    let places = r.places.expect("the turn order is drawn");
    let by_place: u64 = places.iter().map(|p| p.count).sum();
    let by_seat: u64 = r.seats.iter().map(|s| s.wins.count).sum();
    assert_eq!(by_place, by_seat);
    assert!(r.first_place_advantage.is_some());
}

#[test]
fn compare_shows_every_section_of_a_single_run() {
    let o = tabula(
        &root(),
        &[
            "sim",
            "braverats",
            "--games",
            "300",
            "--compare",
            "fast-rat",
            "--seed",
            "2",
        ],
    );
    insta::assert_snapshot!(ok(&o));
    let csv = ok(&tabula(
        &root(),
        &[
            "sim",
            "braverats",
            "--games",
            "30",
            "--compare",
            "fast-rat",
            "--csv",
        ],
    ));
    let firsts: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(firsts, ["base", "base", "fast-rat", "fast-rat"]);
}
