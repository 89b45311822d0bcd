//! A checked move and an unchecked one: `act` refuses a player who may not
//! choose now and an illegal choice, leaving the state as it was;
//! `apply_unchecked` still refuses a player with no part in the decision.

use crate::common;

use tabula::{Choice, State};

#[test]
fn act_refuses_a_player_who_may_not_choose_and_keeps_the_state() {
    // The Path: one player decides at a time.
    let game = common::load("the-path", &[], &[("players", 2)]);
    let (mut st, _) = State::new(&game, 3).unwrap();
    // Play on to a decision of one player alone.
    while st.decision().unwrap().players.len() > 1 {
        let p = st.first_waiting().unwrap();
        let c = st.legal(p)[0].clone();
        st.act(&game, p, c).unwrap();
    }
    let who = st.first_waiting().unwrap();
    let other = 1 - who;
    assert_eq!(st.waiting(), vec![who]);
    let choice = st.legal(who)[0].clone();
    let before = st.key(&game);
    let e = st.act(&game, other, choice.clone()).unwrap_err();
    assert!(e.message.contains("decision now"), "{e}");
    assert_eq!(st.key(&game), before, "the state is as it was");
    let e = st
        .apply_unchecked(&game, other, choice.clone())
        .unwrap_err();
    assert!(e.message.contains("no part in this decision"), "{e}");
    assert_eq!(st.key(&game), before);
    // An illegal choice is refused by `act` too.
    let e = st
        .act(&game, who, Choice::Word("no-such-move".into()))
        .unwrap_err();
    assert!(e.message.contains("not a legal choice"), "{e}");
    assert_eq!(st.key(&game), before);
    // And the right player's legal choice goes through.
    st.act(&game, who, choice).unwrap();
    assert_ne!(st.key(&game), before);
}

#[test]
fn an_ordered_reveal_waits_for_the_first_player() {
    // BraveRats: after a Spy, the other player reveals first.
    let game = common::load("braverats", &[], &[]);
    let (mut st, _) = State::new(&game, 1).unwrap();
    let spy = st.parse(&game, 0, "spy").unwrap();
    st.act(&game, 0, spy).unwrap();
    let general = st.parse(&game, 1, "general").unwrap();
    st.act(&game, 1, general).unwrap();
    assert_eq!(st.waiting(), vec![1], "blue reveals first");
    let prince = st.legal(1)[0].clone();
    assert!(st.legal(0).is_empty());
    let e = st.act(&game, 0, prince).unwrap_err();
    assert!(e.message.contains("not red's decision"), "{e}");
}

#[test]
fn a_choice_is_typed_in_any_case_and_by_the_players_own_names() {
    let game = common::load("imperio", &[], &[]);
    let (st, _) = State::new(&game, 1).unwrap();
    let (empire, rebels) = (0, 1);
    let prince = game.def().card("prince").unwrap();
    for typed in [
        "Death Star",
        "death star",
        "DEATH-STAR",
        "prince",
        "Prince",
        "death",
    ] {
        let c = st.parse(&game, empire, typed);
        assert_eq!(c.ok(), Some(Choice::Card(prince)), "{typed}");
    }
    let c = st.parse(&game, rebels, "admiral ackbar").unwrap();
    assert_eq!(c, Choice::Card(prince));
    // Each side is offered its own names.
    let labels: Vec<String> = st
        .legal(rebels)
        .iter()
        .map(|c| tabula::text::label(&game, c, rebels))
        .collect();
    assert_eq!(labels[7], "Admiral Ackbar");
    let base = common::load("braverats", &[], &[]);
    let (st, _) = State::new(&base, 1).unwrap();
    assert_eq!(
        st.parse(&base, 0, "GEN").unwrap(),
        Choice::Card(base.def().card("general").unwrap())
    );
    // By its name: plain to type, so no id beside it.
    assert_eq!(tabula::text::label(&base, &st.legal(0)[6], 0), "General");
    let e = st.parse(&base, 0, "NOPE").unwrap_err();
    assert!(e.message.contains("not a legal choice"), "{e}");
}

#[test]
fn a_stat_shows_its_owners_own_name() {
    let game = common::load("imperio", &[], &[]);
    let (st, _) = State::new(&game, 1).unwrap();
    let text = tabula::view::render(&game, &st, Some(0)).unwrap();
    assert!(
        text.contains("Empire (you): Victories 0, Palpatine bonus 0"),
        "{text}"
    );
    assert!(
        text.contains("Rebel Alliance: Victories 0, Yoda bonus 0"),
        "{text}"
    );
}

#[test]
fn a_match_shows_its_game_and_score_in_the_state() {
    let game = common::load("braverats", &["emperor"], &[]);
    let (mut st, _) = State::new(&game, 2).unwrap();
    let header = |st: &State| {
        tabula::view::render(&game, st, Some(0))
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert!(
        header(&st).ends_with("game 1 of the match, Red 0 : Blue 0 (first to 2)"),
        "{}",
        header(&st)
    );
    while st.game_no() == 1 {
        // Red plays its cards in order, Blue from the strongest down.
        let p = st.first_waiting().unwrap();
        let legal = st.legal(p);
        let c = if p == 0 {
            legal[0].clone()
        } else {
            legal[legal.len() - 1].clone()
        };
        st.act(&game, p, c).unwrap();
    }
    let score = st.match_wins().to_vec();
    let expected = format!(
        "game 2 of the match, Red {} : Blue {} (first to 2)",
        score[0], score[1]
    );
    assert_eq!(score.iter().sum::<u32>(), 1);
    assert!(header(&st).ends_with(&expected), "{}", header(&st));
}

#[test]
fn inherited_card_texts_name_the_cards_of_the_game_played() {
    let base = common::load("braverats", &[], &[]);
    let theme = common::load("imperio", &[], &[]);
    let text = |g: &tabula::Game| {
        g.def().cards[g.def().card("princess").unwrap() as usize]
            .text
            .clone()
    };
    assert!(
        text(&base).contains("played the Prince, you win"),
        "{}",
        text(&base)
    );
    assert!(
        text(&theme).contains("played the Death Star / Admiral Ackbar, you win"),
        "{}",
        text(&theme)
    );
}
