//! `deal`: in play it is a loop of draws; when `solve` lists chance it is
//! one draw of which cards each player gets from a pile whose shuffle
//! waits. Both must give the same positions with the same chances.

use crate::common;

use std::collections::BTreeMap;

use tabula::Game;

/// A two-player game whose setup hook is `setup`, over `deck` (card ids
/// among x, y, n, w, repeated as wanted), with a hand zone `hand_zone`
/// (YAML flow mapping body) and a shared deck.
fn game(deck: &str, hand_zone: &str, setup: &str) -> (tempfile::TempDir, Game) {
    game_with(deck, hand_zone, "", setup)
}

/// `game`, with setup steps `steps` (YAML lines) between the deck's
/// cards and the hook.
fn game_with(deck: &str, hand_zone: &str, steps: &str, setup: &str) -> (tempfile::TempDir, Game) {
    let yaml = format!(
        "id: dealt\nname: Dealt\nscript: ../scripts/dealt.rhai\nplayers:\n  - {{id: a, name: A}}\n  - {{id: b, name: B}}\n\
         cards:\n  x: {{name: X}}\n  y: {{name: Y}}\n  n: {{name: N}}\n  w: {{name: W}}\n\
         zones:\n  hand: {{per: player, {hand_zone}}}\n  deck: {{per: game, visibility: public}}\n\
         setup:\n  - put: {{zone: deck, cards: [{deck}]}}\n{steps}  - hook: setup\n\
         flow:\n  turn:\n    - hook: step\n  max_turns: 3\n"
    );
    let script = format!(
        "fn setup() {{\n{setup}\n}}\nfn step() {{ ask(\"a\", \"pick\", [\"x\", \"y\"], \"picked\"); }}\n\
         fn picked(c) {{ if has(\"a\", \"hand\", c.a) {{ end_game(\"a\"); }} else {{ end_game(\"b\"); }} }}\n"
    );
    common::load_folder("dealt", &yaml, &script)
}

/// (a's hand, b's hand, the deck) -> chance.
type Listed = BTreeMap<(Vec<u16>, Vec<u16>, Vec<u16>), f64>;

/// Every setup as (a's hand, b's hand, the deck), hands sorted when
/// `sets`, with its chance (positions that read the same merged).
fn listed(g: &Game, sets: bool) -> Listed {
    let def = g.def();
    let (hand, deck) = (def.zone("hand").unwrap(), def.zone("deck").unwrap());
    let mut out = BTreeMap::new();
    for (p, st) in tabula::tree::roots(g, None).unwrap() {
        let mut h: Vec<Vec<u16>> = (0..2).map(|o| st.zone(g, hand, o).to_vec()).collect();
        if sets {
            h.iter_mut().for_each(|v| v.sort());
        }
        let d = st.zone(g, deck, 0).to_vec();
        *out.entry((h[0].clone(), h[1].clone(), d)).or_insert(0.0) += p;
    }
    out
}

fn same(a: &Listed, b: &Listed) {
    assert_eq!(a.len(), b.len(), "different positions:\n{a:?}\n{b:?}");
    for (k, p) in a {
        let q = b.get(k).unwrap_or_else(|| panic!("{k:?} only on one side"));
        assert!((p - q).abs() < 1e-12, "{k:?}: {p} against {q}");
    }
    let total: f64 = a.values().sum();
    assert!((total - 1.0).abs() < 1e-9, "chances add up to {total}");
}

const LOOP: &str =
    r#"    for i in 0..EACH { for p in players() { draw("", "deck", p, "hand"); } }"#;

fn by_loop(each: usize) -> String {
    format!(
        "    shuffle(\"\", \"deck\");\n{}",
        LOOP.replace("EACH", &each.to_string())
    )
}

fn by_deal(each: usize, after: &str) -> String {
    format!("    shuffle(\"\", \"deck\");\n    deal(\"\", \"deck\", \"hand\", {each});\n{after}")
}

/// The game dealt by a loop of `draw`s and by `deal`, `each` to a
/// player, with `after` run next in both: (guard, looped), (guard, dealt).
fn both(
    deck: &str,
    hands: &str,
    each: usize,
    after: &str,
) -> ((tempfile::TempDir, Game), (tempfile::TempDir, Game)) {
    (
        game(deck, hands, &format!("{}\n{after}", by_loop(each))),
        game(deck, hands, &by_deal(each, after)),
    )
}

#[test]
fn a_deal_into_hands_without_order_is_the_loop_of_draws() {
    let deck = "x, x, y, y, n, w";
    let hands = "visibility: public, unordered: true";
    let ((_t1, looped), (_t2, dealt)) = both(deck, hands, 3, "");
    let (a, b) = (listed(&looped, true), listed(&dealt, true));
    same(&a, &b);
    // a's hand decides b's: the multisets of 3 from x x y y n w, the t^3
    // of (1 + t + t^2)^2 (1 + t)^2.
    assert_eq!(a.len(), 10);
}

#[test]
fn a_deal_into_ordered_hands_keeps_the_order_drawn() {
    // Two each from six: two left in the deck, whose order is drawn when
    // the hook ends; hands keep the order cards came in.
    let deck = "x, x, y, y, n, w";
    let hands = "visibility: public";
    let ((_t1, looped), (_t2, dealt)) = both(deck, hands, 2, "");
    same(&listed(&looped, false), &listed(&dealt, false));
}

#[test]
fn a_pile_looked_at_after_a_deal_is_shuffled_first() {
    // The rest of the deck is drawn from, read and moved after the deal.
    let deck = "x, y, y, n, w, w, x";
    let hands = "visibility: public, unordered: true";
    let after = r#"    draw("", "deck", "a", "hand");
    let top = cards("", "deck");
    if top[top.len() - 1] == "w" { move_all("", "deck", "b", "hand"); }"#;
    let ((_t1, looped), (_t2, dealt)) = both(deck, hands, 2, after);
    same(&listed(&looped, true), &listed(&dealt, true));
}

#[test]
fn a_deal_of_sixteen_lists_its_hands_not_its_orders() {
    // Four each of four cards, eight to each hand: 16! orders of the deck
    // are too many to list, but the hands are the ways of taking 8 of the
    // 16 in groups: chance C(4,i)C(4,j)C(4,k)C(4,l) / C(16,8).
    let deck = "x, x, x, x, y, y, y, y, n, n, n, n, w, w, w, w";
    let hands = "visibility: public, unordered: true";
    let ((_t1, looped), (_t2, dealt)) = both(deck, hands, 8, "");
    let e = tabula::tree::roots(&looped, None).unwrap_err();
    assert!(
        matches!(e.refusal(), Some(tabula::Refusal::TooMuchChance { .. })),
        "{e}"
    );
    let got = listed(&dealt, true);
    let choose = |n: u64, k: u64| (0..k).fold(1u64, |c, j| c * (n - j) / (j + 1));
    let mut expected = 0;
    for (k, p) in &got {
        let counts: Vec<u64> = (0..4u16)
            .map(|c| k.0.iter().filter(|&&x| x == c).count() as u64)
            .collect();
        let ways: u64 = counts.iter().map(|&i| choose(4, i)).product();
        let want = ways as f64 / choose(16, 8) as f64;
        assert!((p - want).abs() < 1e-12, "{k:?}: {p} against {want}");
        assert_eq!(k.0.len() + k.1.len(), 16);
        expected += 1;
    }
    // Counts 0..=4 of four kinds summing to 8.
    let all = (0..=4)
        .flat_map(|i| (0..=4).flat_map(move |j| (0..=4).map(move |k| (i, j, k))))
        .filter(|&(i, j, k)| (8 - i - j - k) >= 0 && 8 - i - j - k <= 4)
        .count();
    assert_eq!(expected, all);
}

#[test]
fn deal_in_play_is_the_loop_of_draws() {
    let deck = "x, x, y, y, n, w, w";
    let hands = "visibility: public";
    let ((_t1, looped), (_t2, dealt)) = both(deck, hands, 3, "");
    for seed in 0..20 {
        let a = tabula::State::new_quiet(&looped, seed).unwrap();
        let b = tabula::State::new_quiet(&dealt, seed).unwrap();
        assert_eq!(a.key(&looped), b.key(&dealt), "seed {seed}");
    }
}

#[test]
fn a_deal_to_a_shared_zone_or_of_fewer_than_none_says_why() {
    let (tmp, g) = game(
        "x, y",
        "visibility: public",
        r#"    deal("", "deck", "deck", 1);"#,
    );
    let e = tabula::State::new_quiet(&g, 0).unwrap_err();
    assert!(
        e.message.contains("deal goes to a zone each player has"),
        "{e}"
    );
    drop(tmp);
    let (_tmp, g) = game(
        "x, y",
        "visibility: public",
        r#"    deal("", "deck", "hand", -1);"#,
    );
    let e = tabula::State::new_quiet(&g, 0).unwrap_err();
    assert!(e.message.contains("must be 0 or more"), "{e}");
}

#[test]
fn a_deal_after_a_setup_step_shuffle_lists_hands_too() {
    // The deck shuffled by the YAML, dealt by the hook: the hook itself
    // draws nothing, so the memo keeps a record of it from a game played
    // first; listing chance must not replay that record.
    let deck = "x, x, y, y, n, w";
    let hands = "visibility: public, unordered: true";
    let steps = "  - shuffle: deck\n";
    let (_t1, looped) = game(deck, hands, &by_loop(3));
    let (_t2, dealt) = game_with(deck, hands, steps, r#"    deal("", "deck", "hand", 3);"#);
    same(&listed(&looped, true), &listed(&dealt, true));
    // Three x and a y: some of 40 games played first leave the y on top
    // as the deck was put, the order a replay would read.
    let (_t4, looped) = game("x, x, x, y", hands, &by_loop(2));
    let (_t5, dealt) = game_with(
        "x, x, x, y",
        hands,
        steps,
        r#"    deal("", "deck", "hand", 2);"#,
    );
    for seed in 0..40 {
        tabula::State::new_quiet(&dealt, seed).unwrap();
    }
    let listed_dealt = listed(&dealt, true);
    assert_eq!(listed_dealt.len(), 2, "{listed_dealt:?}");
    same(&listed(&looped, true), &listed_dealt);
    // 16 cards: listed by hands, where the orders are too many.
    let deck = "x, x, x, x, y, y, y, y, n, n, n, n, w, w, w, w";
    let (_t3, dealt) = game_with(deck, hands, steps, r#"    deal("", "deck", "hand", 8);"#);
    assert_eq!(tabula::tree::roots(&dealt, None).unwrap().len(), 85);
}
