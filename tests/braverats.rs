//! BraveRats: golden playthroughs of the base game and every variant, the
//! table of all card pairs, scenarios for the rulings, and agreement with an
//! independent implementation of the rules over many random games.

use crate::common;
use crate::common::Test;

use crate::common::braverats_oracle::{Oracle, Round};
use crate::common::{Scenario, load};
use tabula::bot::{Bot, RandomBot};
use tabula::replay::{Replay, apply_move};
use tabula::{Outcome, Settings, State};

const CARDS: [&str; 8] = [
    "musician",
    "princess",
    "spy",
    "assassin",
    "ambassador",
    "wizard",
    "general",
    "prince",
];

fn pt(variants: &[&str], seed: u64) -> String {
    let game = load("braverats", variants, &[]);
    tabula::playthrough::record(&game, seed, 500).expect("playthrough")
}

#[test]
fn playthrough_base() {
    insta::assert_snapshot!(pt(&[], 1));
}
#[test]
fn playthrough_traitor() {
    insta::assert_snapshot!(pt(&["traitor"], 2));
}
#[test]
fn playthrough_lucky_draw() {
    insta::assert_snapshot!(pt(&["lucky-draw"], 3));
}
#[test]
fn playthrough_fast_rat() {
    insta::assert_snapshot!(pt(&["fast-rat"], 4));
}
#[test]
fn playthrough_draft() {
    insta::assert_snapshot!(pt(&["draft"], 5));
}
#[test]
fn playthrough_random_deal() {
    insta::assert_snapshot!(pt(&["random-deal"], 6));
}
#[test]
fn playthrough_princess_attack() {
    insta::assert_snapshot!(pt(&["princess-attack"], 7));
}
#[test]
fn playthrough_emperor() {
    insta::assert_snapshot!(pt(&["emperor"], 8));
}

/// One round from the start, with an optional General bonus already on a
/// seat: what the engine does, as a line of the table.
fn engine_round(a: usize, b: usize, bonus: Option<usize>) -> (String, Oracle) {
    let mut s = Scenario::new("braverats", &[]);
    let mut o = Oracle::new(4);
    if let Some(seat) = bonus {
        s = s.stat(["red", "blue"][seat], "bonus", 2);
        o.bonus[seat] = 2;
    }
    let s = s.play(&[("red", CARDS[a]), ("blue", CARDS[b])]);
    let r = o.round([a as u8, b as u8]);
    let result = match &s.state.outcome() {
        Some(Outcome::Win(p)) if s.get(["red", "blue"][*p], "victories") < 4 => {
            format!("{} wins the game", ["red", "blue"][*p])
        }
        _ => {
            let (vr, vb) = (s.get("red", "victories"), s.get("blue", "victories"));
            match (vr, vb) {
                (0, 0) => "hold".to_string(),
                (v, 0) => format!("red +{v}"),
                (0, v) => format!("blue +{v}"),
                _ => unreachable!(),
            }
        }
    };
    let mut next = Vec::new();
    for (p, who) in ["red", "blue"].iter().enumerate() {
        if s.get(who, "bonus") == 2 {
            next.push(format!("{who} +2"));
        }
        let first = s.state.decision().and_then(|d| d.first);
        if first == Some(p) {
            next.push(format!("{who} reveals first"));
        }
    }
    let next = if next.is_empty() {
        String::new()
    } else {
        format!("  [next: {}]", next.join(", "))
    };
    // The oracle must agree on everything the line says.
    let oracle_result = match r {
        Round::Hold => "hold".to_string(),
        Round::Win { seat, gain } => format!("{} +{gain}", ["red", "blue"][seat]),
        Round::Game { seat } => format!("{} wins the game", ["red", "blue"][seat]),
    };
    assert_eq!(
        result, oracle_result,
        "{} vs {} bonus {bonus:?}",
        CARDS[a], CARDS[b]
    );
    assert_eq!(s.get("red", "bonus"), o.bonus[0]);
    assert_eq!(s.get("blue", "bonus"), o.bonus[1]);
    assert_eq!(s.state.decision().and_then(|d| d.first), o.first);
    (
        format!("{:<10} vs {:<10} {result}{next}", CARDS[a], CARDS[b]),
        o,
    )
}

#[test]
fn all_64_pairs_with_and_without_a_general_bonus() {
    let mut out = String::new();
    for (title, bonus) in [
        ("no bonus", None),
        ("red has +2 (General last round)", Some(0)),
        ("blue has +2 (General last round)", Some(1)),
    ] {
        out += &format!("== {title}\n");
        for a in 0..8 {
            for b in 0..8 {
                out += &engine_round(a, b, bonus).0;
                out += "\n";
            }
        }
    }
    insta::assert_snapshot!(out);
}

#[test]
fn b3_musician_holds_against_every_power_but_the_wizard() {
    let s = Scenario::new("braverats", &[]).play(&[("red", "musician"), ("blue", "prince")]);
    assert_eq!(
        (s.get("red", "victories"), s.get("blue", "victories")),
        (0, 0)
    );
    // The next round takes the held one.
    let s = s.play(&[("red", "general"), ("blue", "spy")]);
    assert_eq!(
        s.get("red", "victories"),
        2,
        "6 beats 2, plus the held round"
    );
    // Wizard vs Musician: 5 beats 0 on strength.
    let s = Scenario::new("braverats", &[]).play(&[("red", "musician"), ("blue", "wizard")]);
    assert_eq!(s.get("blue", "victories"), 1);
    // The Musician does not cancel the Spy's or the General's next-round effect.
    let s = Scenario::new("braverats", &[]).play(&[("red", "musician"), ("blue", "general")]);
    assert_eq!(s.get("blue", "bonus"), 2);
    let s = Scenario::new("braverats", &[]).play(&[("red", "musician"), ("blue", "spy")]);
    assert_eq!(s.state.waiting(), vec![0], "red reveals first");
}

#[test]
fn b5_prince() {
    let s = Scenario::new("braverats", &[]).play(&[("red", "prince"), ("blue", "assassin")]);
    assert_eq!(
        s.get("red", "victories"),
        1,
        "the Prince beats the Assassin"
    );
    let s = Scenario::new("braverats", &[]).play(&[("red", "prince"), ("blue", "prince")]);
    assert_eq!(
        s.get("red", "victories") + s.get("blue", "victories"),
        0,
        "two Princes: 7 = 7, hold"
    );
    // Prince vs Wizard: strength decides, the General's bonus included.
    let s = Scenario::new("braverats", &[]).play(&[("red", "prince"), ("blue", "wizard")]);
    assert_eq!(s.get("red", "victories"), 1, "7 beats 5");
    let s = Scenario::new("braverats", &[])
        .stat("blue", "bonus", 2)
        .play(&[("red", "prince"), ("blue", "wizard")]);
    assert_eq!(
        s.get("red", "victories") + s.get("blue", "victories"),
        0,
        "7 = 5 + 2: hold"
    );
    let s = Scenario::new("braverats", &[])
        .stat("blue", "bonus", 2)
        .play(&[("red", "prince"), ("blue", "prince")]);
    assert_eq!(s.get("blue", "victories"), 1, "two Princes: 9 beats 7");
    // Prince vs Princess: the Princess's player wins the game at once.
    let s = Scenario::new("braverats", &[])
        .stat("red", "victories", 3)
        .play(&[("red", "prince"), ("blue", "princess")]);
    assert_eq!(s.winner().as_deref(), Some("blue"));
}

#[test]
fn b7_ambassador_after_holds() {
    let s = Scenario::new("braverats", &[])
        .play(&[("red", "spy"), ("blue", "spy")])
        .play(&[("red", "ambassador"), ("blue", "princess")]);
    assert_eq!(
        s.get("red", "victories"),
        3,
        "2 for the Ambassador + 1 held"
    );
    // A held round that had an Ambassador in it counts 1 when taken.
    let s = Scenario::new("braverats", &[])
        .play(&[("red", "ambassador"), ("blue", "ambassador")])
        .play(&[("red", "general"), ("blue", "spy")]);
    assert_eq!(s.get("red", "victories"), 2);
    // Nullified by a Wizard, the Ambassador counts 1 (and loses anyway on 4 vs 5).
    let s = Scenario::new("braverats", &[])
        .stat("red", "bonus", 2)
        .play(&[("red", "ambassador"), ("blue", "wizard")]);
    assert_eq!(
        s.get("red", "victories"),
        1,
        "6 beats 5, power nullified: 1"
    );
}

#[test]
fn b9_general_bonus() {
    // +2 next round, and a Wizard then does not cancel it.
    let s = Scenario::new("braverats", &[])
        .play(&[("red", "general"), ("blue", "prince")])
        .play(&[("red", "spy"), ("blue", "wizard")]);
    // Round 1: Prince wins. Round 2: red Spy 2 + 2 = 4 vs Wizard 5: blue.
    assert_eq!(s.get("blue", "victories"), 2);
    let s = Scenario::new("braverats", &[])
        .play(&[("red", "general"), ("blue", "prince")])
        .play(&[("red", "wizard"), ("blue", "wizard")]);
    assert_eq!(s.get("red", "victories"), 1, "Wizard 5 + 2 beats Wizard 5");
    // A Wizard against the General in the same round cancels the +2.
    let s = Scenario::new("braverats", &[]).play(&[("red", "general"), ("blue", "wizard")]);
    assert_eq!(s.get("red", "bonus"), 0);
    assert_eq!(s.get("red", "victories"), 1, "6 beats 5");
}

#[test]
fn b10_spy_makes_the_opponent_reveal_first() {
    let game = load("braverats", &[], &[]);
    let (mut st, _) = State::new(&game, 1).unwrap();
    apply_move(
        &game,
        &mut st,
        &[
            ("red".into(), "spy".into()),
            ("blue".into(), "general".into()),
        ],
    )
    .unwrap();
    // Blue must choose first; red is not asked yet.
    assert_eq!(st.waiting(), vec![1]);
    assert!(apply_move(&game, &mut st.clone(), &[("red".into(), "prince".into())]).is_err());
    let log = apply_move(&game, &mut st, &[("blue".into(), "wizard".into())]).unwrap();
    assert_eq!(tabula::phrase(&game, &log[0]), "Blue reveals Wizard first");
    assert_eq!(st.waiting(), vec![0]);
    // Red's view shows blue's card; a spectator sees it too (it is revealed).
    let v = tabula::view::view(&game, &st, Some(0)).unwrap();
    assert_eq!(
        v.decision.as_ref().unwrap().chosen["blue"].as_deref(),
        Some("wizard")
    );
    let log = apply_move(&game, &mut st, &[("red".into(), "musician".into())]).unwrap();
    let texts: Vec<String> = log.iter().map(|e| tabula::phrase(&game, e)).collect();
    assert_eq!(
        texts[1..],
        [
            "Blue's Wizard has +2 from last round's General: strength 7.",
            "Musician vs Wizard: 7 beats 0; Blue wins the round - Red 0, Blue 2",
            "--- turn 3 ---"
        ]
    );
    assert_eq!(
        texts[1..3],
        [
            "Blue's Wizard has +2 from last round's General: strength 7.",
            "Musician vs Wizard: 7 beats 0; Blue wins the round - Red 0, Blue 2"
        ]
    );
    // Two Spies cancel: nobody reveals first.
    let s = Scenario::new("braverats", &[]).play(&[("red", "spy"), ("blue", "spy")]);
    assert_eq!(s.state.waiting(), vec![0, 1]);
    // A Wizard against the Spy cancels it.
    let s = Scenario::new("braverats", &[]).play(&[("red", "spy"), ("blue", "wizard")]);
    assert_eq!(s.state.waiting(), vec![0, 1]);
    // Hidden until revealed: with no Spy, red's view does not show blue's choice.
    let (mut st, _) = State::new(&game, 1).unwrap();
    apply_move(&game, &mut st, &[("blue".into(), "prince".into())]).unwrap();
    let v = tabula::view::view(&game, &st, Some(0)).unwrap();
    assert_eq!(
        v.decision.unwrap().chosen["blue"].as_deref(),
        Some("(chosen)")
    );
}

#[test]
fn strength_numbers_are_aliases() {
    let s = Scenario::new("braverats", &[]).play(&[("red", "7"), ("blue", "3")]);
    assert_eq!(s.get("red", "victories"), 1);
}

#[test]
fn a_card_already_played_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("again.yaml");
    std::fs::write(
        &f,
        "game: braverats\nmoves:\n  - {red: prince, blue: 3}\n  - {red: 7, blue: wizard}\n",
    )
    .unwrap();
    let err = Test::new()
        .games_dir(common::games_dir())
        .arg("replay")
        .arg(&f)
        .status(1)
        .stderr_has("move 2: red: `7` is not playable now")
        .stderr_has("legal: Musician, Princess, Spy, Assassin, Ambassador, Wizard, General")
        .run()
        .stderr;
    assert!(!err.contains("panicked"));
}

/// A random game through the engine, as replay moves.
fn random_moves(game: &tabula::Game, seed: u64) -> Vec<Vec<(String, String)>> {
    let (mut st, _) = State::new(game, seed).unwrap();
    let mut bots = [RandomBot::new(seed * 2 + 1), RandomBot::new(seed * 2 + 2)];
    let mut moves = Vec::new();
    while let Some(d) = st.decision() {
        let mut m = Vec::new();
        for _ in 0..d.players.len() {
            let p = st.waiting()[0];
            let c = bots[p].choose(game, &st, p).unwrap();
            m.push((game.def().players[p].id.clone(), c.text(game).to_string()));
            st.act(game, p, c).unwrap();
        }
        moves.push(m);
    }
    moves
}

fn oracle_of(moves: &[Vec<(String, String)>], to_win: i64) -> Oracle {
    let mut o = Oracle::new(to_win);
    for m in moves {
        let card = |p: &str| {
            let text = &m.iter().find(|(q, _)| q == p).unwrap().1;
            CARDS.iter().position(|c| c == text).unwrap() as u8
        };
        o.round([card("red"), card("blue")]);
    }
    o
}

#[test]
fn engine_agrees_with_the_oracle_on_many_random_games() {
    for (variants, to_win) in [(vec![], 4), (vec!["fast-rat"], 3)] {
        let game = load("braverats", &variants, &[]);
        for seed in 0..3000 {
            let moves = random_moves(&game, seed);
            let o = oracle_of(&moves, to_win);
            let replay = Replay {
                game: "braverats".into(),
                settings: Settings {
                    variants: variants.iter().map(|v| v.to_string()).collect(),
                    sets: vec![],
                },
                seed,
                moves: moves.clone(),
                ..Replay::default()
            };
            let played = tabula::replay::play(&replay, None, &common::games_dir()).unwrap();
            let v = tabula::view::view(&played.game, &played.state, None).unwrap();
            assert_eq!(
                [
                    v.players["red"]["victories"],
                    v.players["blue"]["victories"]
                ],
                o.victories,
                "seed {seed} {moves:?}"
            );
            let winner = o
                .over
                .expect("oracle over")
                .map(|i| ["red", "blue"][i].to_string());
            assert_eq!(v.winner, winner, "seed {seed}");
            assert!(v.over);
        }
    }
}

#[test]
fn replay_json_agrees_with_the_oracle() {
    let game = load("braverats", &[], &[]);
    let tmp = tempfile::tempdir().unwrap();
    for seed in 0..150 {
        let moves = random_moves(&game, 10_000 + seed);
        let o = oracle_of(&moves, 4);
        let r = Replay {
            game: "braverats".into(),
            seed: 10_000 + seed,
            moves,
            ..Replay::default()
        };
        let f = tmp.path().join(format!("{seed}.yaml"));
        r.save(&f).unwrap();
        let out = Test::new()
            .args([
                "--games-dir",
                common::games_dir().to_str().unwrap(),
                "replay",
                f.to_str().unwrap(),
                "--json",
            ])
            .run()
            .output;
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["players"]["red"]["victories"], o.victories[0]);
        assert_eq!(v["players"]["blue"]["victories"], o.victories[1]);
        let winner = o.over.unwrap().map(|i| ["red", "blue"][i]);
        assert_eq!(v["winner"].as_str(), winner, "seed {seed}");
    }
}

/// imperio is braverats with other names: the same seeded random games give
/// the same moves and outcomes, in the base game and every variant.
#[test]
fn imperio_matches_braverats_game_for_game() {
    let variants = [
        "",
        "traitor",
        "lucky-draw",
        "fast-rat",
        "draft",
        "random-deal",
        "princess-attack",
        "emperor",
    ];
    for v in variants {
        let vs: Vec<&str> = if v.is_empty() { vec![] } else { vec![v] };
        let br = load("braverats", &vs, &[]);
        let im = load("imperio", &vs, &[]);
        for seed in 0..200 {
            let a = random_moves(&br, seed);
            let b = random_moves(&im, seed);
            let rename = |p: &str| {
                if p == "red" {
                    "empire".to_string()
                } else {
                    "rebels".to_string()
                }
            };
            let a_renamed: Vec<Vec<(String, String)>> = a
                .iter()
                .map(|m| m.iter().map(|(p, c)| (rename(p), c.clone())).collect())
                .collect();
            assert_eq!(a_renamed, b, "variant {v} seed {seed}");
            let pa = tabula::replay::play(
                &Replay {
                    game: "braverats".into(),
                    settings: br_settings(&vs),
                    seed,
                    moves: a,
                    ..Replay::default()
                },
                None,
                &common::games_dir(),
            )
            .unwrap();
            let pb = tabula::replay::play(
                &Replay {
                    game: "imperio".into(),
                    settings: br_settings(&vs),
                    seed,
                    moves: b,
                    ..Replay::default()
                },
                None,
                &common::games_dir(),
            )
            .unwrap();
            assert_eq!(
                pa.state.outcome(),
                pb.state.outcome(),
                "variant {v} seed {seed}"
            );
            assert_eq!(pa.state.match_wins(), pb.state.match_wins());
        }
    }
}

fn br_settings(vs: &[&str]) -> Settings {
    Settings {
        variants: vs.iter().map(|v| v.to_string()).collect(),
        sets: vec![],
    }
}

#[test]
fn imperio_shows_each_factions_names() {
    let game = load("imperio", &[], &[]);
    let (mut st, _) = State::new(&game, 1).unwrap();
    let log = apply_move(
        &game,
        &mut st,
        &[
            ("empire".into(), "death-star".into()),
            ("rebels".into(), "luke".into()),
        ],
    )
    .unwrap();
    let text: Vec<String> = log.iter().map(|e| tabula::phrase(&game, e)).collect();
    assert_eq!(
        text[0],
        "revealed: Empire Death Star, Rebel Alliance Luke Skywalker"
    );
    assert!(
        text[1]
            == "Death Star vs Luke Skywalker: Luke Skywalker wins over Death Star: Rebel Alliance wins the game.",
        "{text:?}"
    );
    assert_eq!(st.outcome(), Some(Outcome::Win(1)));
}

#[test]
fn emperor_is_a_match_of_games() {
    let game = load("braverats", &["emperor"], &[]);
    let (mut st, _) = State::new(&game, 3).unwrap();
    // Game 1: red's Princess takes blue's Prince at once.
    let log = apply_move(
        &game,
        &mut st,
        &[
            ("red".into(), "princess".into()),
            ("blue".into(), "prince".into()),
        ],
    )
    .unwrap();
    assert!(st.outcome().is_none(), "the match goes on");
    assert_eq!(st.game_no(), 2);
    assert_eq!(st.match_wins(), [1, 0]);
    assert!(
        log.iter()
            .any(|e| tabula::phrase(&game, e) == "Red wins game 1. Match: Red 1, Blue 0."),
        "{log:?}"
    );
    assert_eq!(st.legal(0).len(), 8, "fresh hands");
    // Game 2 likewise: red wins the match 2-0.
    apply_move(
        &game,
        &mut st,
        &[
            ("red".into(), "princess".into()),
            ("blue".into(), "prince".into()),
        ],
    )
    .unwrap();
    assert_eq!(st.outcome(), Some(Outcome::Win(0)));
    // A drawn game is replayed: eight holds.
    let (mut st, _) = State::new(&game, 3).unwrap();
    for c in CARDS {
        apply_move(
            &game,
            &mut st,
            &[("red".into(), c.into()), ("blue".into(), c.into())],
        )
        .unwrap();
    }
    assert!(st.outcome().is_none());
    assert_eq!((st.game_no(), st.match_wins()), (2, &[0, 0][..]));
}

#[test]
fn draft_deals_all_sixteen_with_hidden_packets() {
    let game = load("braverats", &["draft"], &[]);
    let (st, _) = State::new(&game, 9).unwrap();
    // Red leads: 4 cards to keep one of; blue sees only a count.
    let d = st.decision().unwrap();
    assert_eq!(&*d.players, &[0]);
    assert_eq!(&*d.name, "keep");
    let blue = tabula::view::view(&game, &st, Some(1)).unwrap();
    assert_eq!(
        blue.zones["draft"]["red"],
        tabula::view::ZoneView::Count { count: 4 }
    );
    let red = tabula::view::view(&game, &st, Some(0)).unwrap();
    assert!(matches!(&red.zones["draft"]["red"], tabula::view::ZoneView::Cards(c) if c.len() == 4));
    // Play the draft out at random: 12 picks (3 per packet), then the first round.
    let mut st = st;
    let mut bot = RandomBot::new(1);
    let mut picks = 0;
    while &*st.decision().unwrap().name == "keep" {
        let p = st.waiting()[0];
        let c = bot.choose(&game, &st, p).unwrap();
        st.act(&game, p, c).unwrap();
        picks += 1;
    }
    assert_eq!(picks, 12);
    for p in 0..2 {
        assert_eq!(st.zone(&game, game.def().zone("hand").unwrap(), p).len(), 8);
    }
}

/// E lists its deals, not the 16! orders of the shuffle: 12,870 ways to
/// give red 8 of the 16 cards, 1,107 hands once two copies of a card look
/// alike (the x^8 of (1 + x + x^2)^8), each as likely as the ways to make
/// it: a hand of both copies of four cards is 1 / 12,870.
#[test]
fn random_deal_lists_every_hand_with_its_chance() {
    let game = load("braverats", &["random-deal"], &[]);
    let setups = tabula::tree::roots(&game, None).unwrap();
    assert_eq!(setups.len(), 1107);
    let total: f64 = setups.iter().map(|(p, _)| p).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    let hand = game.def().zone("hand").unwrap();
    for (p, st) in &setups {
        let red = st.zone(&game, hand, 0);
        assert_eq!((red.len(), st.zone(&game, hand, 1).len()), (8, 8));
        // C(2, k) for each card: 2 where red holds one copy, else 1.
        let ways: u32 = (0..8)
            .map(|c| match red.iter().filter(|&&x| x == c).count() {
                1 => 2,
                _ => 1,
            })
            .product();
        let want = f64::from(ways) / 12_870.0;
        assert!((p - want).abs() < 1e-12, "{red:?}: {p} against {want}");
    }
}
