//! Experior: golden playthroughs and one scenario per ruling (E2-E7 of
//! shared/rules/experior.md).

use crate::common::{Scenario, load};
use tabula::Outcome;

fn pt(sets: &[(&str, i64)], seed: u64) -> String {
    let game = load("experior", &[], sets);
    tabula::playthrough::record(&game, seed, 2000).expect("playthrough")
}

#[test]
fn playthrough_wound_limit_20_seed_1() {
    insta::assert_snapshot!(pt(&[("wound_limit", 20)], 1));
}

#[test]
fn playthrough_wound_limit_20_seed_2() {
    insta::assert_snapshot!(pt(&[("wound_limit", 20)], 2));
}

#[test]
fn playthrough_default_seed_7() {
    insta::assert_snapshot!(pt(&[], 7));
}

#[test]
fn e2_the_card_just_played_rests_one_turn() {
    let s = Scenario::new("experior", &[]);
    assert_eq!(s.legal("human").len(), 6, "turn 1 offers all six");
    let s = s.play(&[("human", "quick-sword"), ("elf", "quick-sword")]);
    let legal = s.legal("human");
    assert_eq!(legal.len(), 5);
    assert!(!legal.contains(&"quick-sword".to_string()));
    let mut s = s;
    assert!(
        s.try_play(&[("human", "quick-sword"), ("elf", "quick-bow")])
            .is_err()
    );
    let s = s.play(&[("human", "strong-bow"), ("elf", "quick-bow")]);
    let legal = s.legal("human");
    assert_eq!(legal.len(), 5);
    assert!(
        legal.contains(&"quick-sword".to_string()),
        "back in hand after the next turn"
    );
    assert!(!legal.contains(&"strong-bow".to_string()));
}

#[test]
fn e3_sword_beats_bow_bow_beats_magic_magic_beats_sword() {
    let s = Scenario::new("experior", &[]).play(&[("human", "quick-sword"), ("elf", "quick-bow")]);
    assert_eq!((s.get("elf", "wounds"), s.get("human", "wounds")), (3, 0));
    let s = Scenario::new("experior", &[]).play(&[("human", "quick-bow"), ("elf", "quick-magic")]);
    assert_eq!((s.get("elf", "wounds"), s.get("human", "wounds")), (2, 0));
    let s =
        Scenario::new("experior", &[]).play(&[("human", "quick-sword"), ("elf", "quick-magic")]);
    assert_eq!((s.get("human", "wounds"), s.get("elf", "wounds")), (2, 0));
}

#[test]
fn e3_same_type_quick_wins() {
    let s = Scenario::new("experior", &[]).play(&[("human", "strong-bow"), ("elf", "quick-bow")]);
    assert_eq!(s.get("human", "wounds"), 3, "elf's quick bow with bow 3");
    assert_eq!(s.get("elf", "wounds"), 0);
    assert_eq!(s.get("elf", "bow"), 4);
}

#[test]
fn e3_same_type_and_modality_less_experienced_gains() {
    let s =
        Scenario::new("experior", &[]).play(&[("human", "quick-sword"), ("elf", "quick-sword")]);
    assert_eq!((s.get("human", "wounds"), s.get("elf", "wounds")), (0, 0));
    assert_eq!(
        (s.get("human", "sword"), s.get("elf", "sword")),
        (3, 3),
        "elf 2 -> 3"
    );
    // Equal experience: nobody gains.
    let s =
        Scenario::new("experior", &[]).play(&[("human", "strong-magic"), ("elf", "strong-magic")]);
    assert_eq!((s.get("human", "magic"), s.get("elf", "magic")), (2, 2));
}

#[test]
fn e4_damage_reads_experience_before_the_gain() {
    let s =
        Scenario::new("experior", &[]).play(&[("human", "strong-sword"), ("elf", "strong-bow")]);
    assert_eq!(s.get("elf", "wounds"), 9, "3 x sword 3");
    assert_eq!(s.get("human", "sword"), 4);
    let s = s.play(&[("human", "quick-sword"), ("elf", "quick-bow")]);
    assert_eq!(s.get("elf", "wounds"), 13, "9 + quick sword 4");
    assert_eq!(s.get("human", "sword"), 5);
}

#[test]
fn e5_bonus_attack_greater_spread_deals_three_times_highest() {
    // Human spreads 5-2 = 3 after winning; elf 3-2 = 1.
    let s = Scenario::new("experior", &[("wound_limit", 5)])
        .stat("human", "sword", 4)
        .play(&[("human", "strong-sword"), ("elf", "quick-bow")]);
    // elf: 12 wounds from the attack; then human's bonus: 3 x 5 = 15 more.
    assert_eq!(s.get("elf", "wounds"), 27);
    assert_eq!(s.get("human", "wounds"), 0);
    assert_eq!(
        s.get("human", "sword"),
        5,
        "the bonus attack grants no experience"
    );
    assert_eq!(s.winner().as_deref(), Some("human"));
}

#[test]
fn e5_equal_spreads_equal_wounds_no_bonus_then_e6_draw() {
    let s = Scenario::new("experior", &[("wound_limit", 1)])
        .stat("human", "wounds", 1)
        .stat("elf", "wounds", 1)
        .play(&[("human", "quick-magic"), ("elf", "quick-magic")]);
    // Equal magic: no gain; spreads 3-2 = 1 each; wounds 1 each: no bonus.
    assert_eq!((s.get("human", "wounds"), s.get("elf", "wounds")), (1, 1));
    assert_eq!(s.state.outcome(), Some(Outcome::Draw));
    assert!(s.last_log().contains("draw"), "{}", s.last_log());
}

#[test]
fn e5_equal_spreads_fewer_wounds_gets_the_bonus() {
    // Both spreads 1 after a no-damage turn; elf has fewer wounds.
    let s = Scenario::new("experior", &[("wound_limit", 5)])
        .stat("human", "wounds", 6)
        .stat("elf", "wounds", 4)
        .play(&[("human", "quick-magic"), ("elf", "quick-magic")]);
    // Elf attacks with 3 x highest (bow 3) = 9: human 6 + 9 = 15.
    assert_eq!(s.get("human", "wounds"), 15);
    assert_eq!(s.get("elf", "wounds"), 4);
    assert_eq!(s.winner().as_deref(), Some("elf"));
}

#[test]
fn e6_fewer_wounds_wins_after_the_bonus() {
    // The bonus attack can turn the result: human reaches the limit first
    // but has the greater spread.
    let s = Scenario::new("experior", &[("wound_limit", 10)])
        .stat("human", "sword", 9)
        .stat("human", "wounds", 8)
        .stat("elf", "wounds", 0)
        .play(&[("human", "quick-magic"), ("elf", "quick-sword")]);
    // Magic beats sword: elf takes 2 (human magic 2 -> 3). Nobody at 10 yet.
    assert_eq!(s.get("elf", "wounds"), 2);
    assert!(s.state.outcome().is_none());
    let s = s.play(&[("human", "quick-sword"), ("elf", "quick-magic")]);
    // Elf's magic beats sword: human takes 2 -> 10 = limit. Spreads: human
    // sword 9, magic 3, bow 2 -> 7; elf magic 3, bow 3, sword 2 -> 1.
    // Human's bonus: 3 x 9 = 27 -> elf 29. Human (10) wins.
    assert_eq!(s.get("human", "wounds"), 10);
    assert_eq!(s.get("elf", "wounds"), 29);
    assert_eq!(s.winner().as_deref(), Some("human"));
}

#[test]
fn e7_max_turns_ends_in_a_draw() {
    let mut s = Scenario::new("experior", &[("max_turns", 3)]);
    // Ties with equal experience change nothing.
    for (h, e) in [
        ("quick-magic", "quick-magic"),
        ("strong-magic", "strong-magic"),
        ("quick-magic", "quick-magic"),
    ] {
        assert!(s.state.outcome().is_none());
        s = s.play(&[("human", h), ("elf", e)]);
    }
    assert_eq!(s.state.outcome(), Some(Outcome::Draw));
    assert_eq!(s.state.turn(), 3);
}
