//! The server's state folder read back as a stranger's input (issue #58):
//! planted files cannot make it write outside the folder nor run another
//! folder's game, table numbers never wrap nor take over kept files, a
//! folder that cannot be made private is refused, and what an interrupted
//! write or opening left is cleaned up and said.

use std::path::Path;

use tabula::serve::store::MOST_ID;
use tabula::serve::{NewTable, Server};

use crate::common;

const TOKEN: &str = "0123456789abcdef0123456789abcdef";

fn server(state: &Path) -> tabula::Result<Server> {
    Server::new(crate::web::config(&common::games_dir(), &[], state))
}

/// A table's links file as the server writes one, for table `id`.
fn links(id: &str, game: &str, token: &str) -> String {
    format!(
        r#"{{"id": "{id}", "game": "{game}", "host": "{token}", "spectator": "{TOKEN}", "seats": ["{TOKEN}", null]}}"#
    )
}

fn plant(state: &Path, name: &str, text: &str) {
    std::fs::write(state.join(name), text).unwrap();
}

fn braverats() -> NewTable {
    NewTable {
        game: "braverats".into(),
        seed: Some(1),
        seats: vec![("blue".into(), "random".into())],
        ..NewTable::default()
    }
}

/// Every file under `dir`, as paths relative to it.
fn files(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = walk(dir)
        .into_iter()
        .map(|p| p.strip_prefix(dir).unwrap().display().to_string())
        .collect();
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn planted_links_and_saves_are_refused_and_nothing_is_written_outside() {
    let root = tempfile::tempdir().unwrap();
    let state = root.path().join("state");
    std::fs::create_dir(&state).unwrap();
    let save = "game: braverats\nseed: 1\nseats: {red: person, blue: random}\nmoves: []\n";
    // A number that names another table, a path for an id, a token that is
    // not one, a game id that is a path.
    plant(
        &state,
        "2.table.json",
        &links("../../escape", "braverats", TOKEN),
    );
    plant(&state, "2.yaml", save);
    plant(&state, "3.table.json", &links("4", "braverats", TOKEN));
    plant(&state, "3.yaml", save);
    plant(&state, "4.yaml", save);
    plant(&state, "5.table.json", &links("5", "braverats", "../x"));
    plant(&state, "5.yaml", save);
    plant(&state, "6.table.json", &links("6", "../../games/x", TOKEN));
    plant(&state, "6.yaml", save);
    // A file not named by a table's number.
    plant(&state, "07.table.json", &links("07", "braverats", TOKEN));
    // A save whose game is a file elsewhere: its folder's script would run.
    plant(&state, "8.table.json", &links("8", "braverats", TOKEN));
    let away = format!(
        "game: {}\nseed: 1\nmoves: []\n",
        common::games_dir().join("braverats.yaml").display()
    );
    plant(&state, "8.yaml", &away);
    let before = files(root.path());
    let s = server(&state).unwrap();
    let (opened, problems) = s.restore();
    assert!(opened.is_empty(), "{problems:?}");
    let said = problems.join("\n");
    for (table, why) in [
        ("2.table.json", "its links name table `../../escape`"),
        ("3.table.json", "its links name table `4`"),
        ("5.table.json", "`../x` is not a link's token"),
        ("6.table.json", "`../../games/x` is not a game's id"),
        ("07.table.json", "a table's files are named by its number"),
    ] {
        assert!(
            problems
                .iter()
                .any(|p| p.contains(table) && p.contains(why)),
            "{table}: no `{why}` in\n{said}"
        );
    }
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("table 8 ") && p.contains("is offered here")),
        "{said}"
    );
    // A table opened now lands in the folder, numbered past every file.
    let o = s.open(&braverats()).unwrap();
    assert_eq!(o.table, "9");
    // Gone: 4.yaml, a save with no links beside it (no link leads to it).
    let mut after: Vec<String> = before.into_iter().filter(|f| f != "state/4.yaml").collect();
    after.extend(["state/9.table.json".to_string(), "state/9.yaml".to_string()]);
    after.sort();
    assert_eq!(files(root.path()), after, "only table 9's files are new");
    s.stop();
}

#[test]
fn table_numbers_never_wrap_nor_take_over_kept_files() {
    let state = tempfile::tempdir().unwrap();
    let dir = state.path();
    let save = "game: braverats\nseed: 1\nseats: {red: person, blue: random}\nmoves: []\n";
    // A kept table the server will not bring back (its save is broken),
    // and a planted one numbered at the top of u64.
    plant(dir, "1.table.json", &links("1", "braverats", TOKEN));
    plant(dir, "1.yaml", "game: braverats\nmoves: [[[\n");
    let top = u64::MAX.to_string();
    plant(
        dir,
        &format!("{top}.table.json"),
        &links(&top, "braverats", TOKEN),
    );
    plant(dir, &format!("{top}.yaml"), save);
    let kept = std::fs::read(dir.join("1.yaml")).unwrap();
    let s = server(dir).unwrap();
    let (opened, problems) = s.restore();
    assert!(opened.is_empty(), "{problems:?}");
    assert!(
        problems
            .iter()
            .any(|p| p.contains(&format!("{top}.table.json"))),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.starts_with("table 1")),
        "{problems:?}"
    );
    // A number whose files appeared since is passed over too.
    plant(dir, "2.yaml", save);
    let o = s.open(&braverats()).unwrap();
    assert_eq!(o.table, "3");
    assert_eq!(std::fs::read(dir.join("1.yaml")).unwrap(), kept);
    s.stop();
    // At the top of the numbers: refused, with where and what to do.
    let full = tempfile::tempdir().unwrap();
    let most = MOST_ID.to_string();
    plant(
        full.path(),
        &format!("{most}.table.json"),
        &links(&most, "braverats", TOKEN),
    );
    plant(full.path(), &format!("{most}.yaml"), save);
    let s = server(full.path()).unwrap();
    let (opened, problems) = s.restore();
    assert_eq!(opened.len(), 1, "{problems:?}");
    let e = s.open(&braverats()).unwrap_err().to_string();
    assert!(e.contains("no table number is left"), "{e}");
    s.stop();
}

#[test]
fn what_an_interrupted_opening_left_is_removed_and_said() {
    let state = tempfile::tempdir().unwrap();
    let dir = state.path();
    plant(dir, ".tabula-tmpAbC123", "half a save");
    // Links with no save: an opening killed before it wrote the save.
    plant(dir, "4.table.json", &links("4", "braverats", TOKEN));
    plant(dir, "notes.txt", "the host's own");
    let s = server(dir).unwrap();
    let (opened, problems) = s.restore();
    assert!(opened.is_empty());
    let said = problems.join("\n");
    assert!(said.contains("removed 1 temporary file(s)"), "{said}");
    assert!(said.contains("removed the links of table(s) 4"), "{said}");
    assert_eq!(files(dir), ["notes.txt"]);
    // Said once: a second start finds nothing to say.
    let (_, problems) = server(dir).unwrap().restore();
    assert!(problems.is_empty(), "{problems:?}");
}

#[cfg(unix)]
#[test]
fn a_state_folder_that_cannot_be_made_private_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::tempdir().unwrap();
    // A shared folder of this user's is made private.
    let shared = root.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    server(&shared).unwrap();
    let mode = std::fs::metadata(&shared).unwrap().permissions().mode();
    assert_eq!(mode & 0o7777, 0o700);
    // Another user's: refused, saying whose and what to do. Only root
    // can give a folder away; elsewhere this part cannot be set up.
    let theirs = root.path().join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    if std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).is_ok() {
        let e = server(&theirs)
            .err()
            .expect("another user's folder refused");
        let text = e.render(false);
        assert!(
            text.contains("is not yours alone (owner uid 65534"),
            "{text}"
        );
        assert!(text.contains("give --state a folder of your own"), "{text}");
    }
}

/// A folder with games/braverats.yaml and its script, to edit.
fn braverats_copy() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::games_dir().parent().unwrap().to_path_buf();
    for d in ["games", "scripts"] {
        std::fs::create_dir(tmp.path().join(d)).unwrap();
    }
    for f in ["games/braverats.yaml", "scripts/braverats.rhai"] {
        std::fs::copy(root.join(f), tmp.path().join(f)).unwrap();
    }
    tmp
}

/// Wait until the server's only table shows its game over.
fn wait_over(s: &Server) {
    let h = s.tables().pop().unwrap();
    for _ in 0..3000 {
        let over = (h.published.borrow().screens.first())
            .is_some_and(|r| r.json.contains("\"over\":true"));
        if over {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the bots did not finish the game");
}

#[test]
fn a_finished_game_is_not_brought_back_under_edited_rules() {
    let games = braverats_copy();
    let dir = games.path().join("games");
    let state = tempfile::tempdir().unwrap();
    let server = || Server::new(crate::web::config(&dir, &[], state.path())).unwrap();
    let s = server();
    let bots = NewTable {
        seats: vec![
            ("red".into(), "random".into()),
            ("blue".into(), "random".into()),
        ],
        ..braverats()
    };
    let o = s.open(&bots).unwrap();
    wait_over(&s);
    s.stop();
    let links = std::fs::read_to_string(state.path().join(format!("{}.table.json", o.table)));
    assert!(links.unwrap().contains("\"over\": true"));
    // The same rules: back, over.
    let s = server();
    let (opened, problems) = s.restore();
    assert_eq!(opened.len(), 1, "{problems:?}");
    wait_over(&s);
    s.stop();
    // The rules edited: refused as the host's reload refuses, its files kept.
    let yaml = dir.join("braverats.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(&yaml, format!("{text}\n# edited\n")).unwrap();
    let before = files(state.path());
    let saved = std::fs::read(state.path().join("1.yaml")).unwrap();
    let s = server();
    let (opened, problems) = s.restore();
    assert!(opened.is_empty(), "{problems:?}");
    let said = problems.join("\n");
    assert!(
        said.contains("table 1 (braverats) not restored")
            && said.contains("its rules were edited since its last save")
            && said.contains(&tabula::serve::table::rules_may_change(true).unwrap_err()),
        "{said}"
    );
    assert_eq!(files(state.path()), before);
    assert_eq!(std::fs::read(state.path().join("1.yaml")).unwrap(), saved);
}

#[test]
fn a_save_whose_seats_do_not_match_its_links_is_not_brought_back() {
    let state = tempfile::tempdir().unwrap();
    let dir = state.path();
    let s = server(dir).unwrap();
    s.open(&braverats()).unwrap();
    s.stop();
    let save = std::fs::read_to_string(dir.join("1.yaml")).unwrap();
    let seats = "seats: {red: person, blue: random}\n";
    assert!(save.contains(seats), "{save}");
    let line = save.lines().position(|l| l.starts_with("seats:")).unwrap() + 1;
    let at = format!("1.yaml:{line}:");
    for (edit, said, has_line) in [
        // A bot's seat made a person's: no link leads to it.
        (
            "seats: {red: person, blue: person}\n",
            "seat `blue` is a person's in the save, but the table's links",
            true,
        ),
        (
            "seats: {red: random, blue: random}\n",
            "seat `red` is a bot's (`random`) in the save, but the table's links",
            true,
        ),
        (
            "seats: {red: person, blue: mcts:99999999}\n",
            "a bot at a table thinks at most",
            true,
        ),
        (
            "seats: {red: person, blue: wizard}\n",
            "seat `blue`: `wizard` is not a bot's kind",
            true,
        ),
        (
            "seats: {red: person, green: random}\n",
            "seat `green` in the save is not a player of this game",
            true,
        ),
        (
            "seats: {red: person}\n",
            "the save says nothing of seat `blue`",
            true,
        ),
        ("", "the save says no seat's player", false),
    ] {
        let edited = save.replace(seats, edit);
        std::fs::write(dir.join("1.yaml"), &edited).unwrap();
        let before = files(dir);
        let links = std::fs::read(dir.join("1.table.json")).unwrap();
        let s = server(dir).unwrap();
        let (opened, problems) = s.restore();
        assert!(opened.is_empty(), "{edit}: {problems:?}");
        let text = problems.join("\n");
        assert!(
            text.contains("table 1 (braverats) not restored") && text.contains(said),
            "{edit}: {text}"
        );
        assert!(text.contains("1.yaml"), "{edit}: {text}");
        assert_eq!(text.contains(&at), has_line, "{edit}: {text}");
        // Its files untouched.
        assert_eq!(files(dir), before);
        assert_eq!(std::fs::read_to_string(dir.join("1.yaml")).unwrap(), edited);
        assert_eq!(std::fs::read(dir.join("1.table.json")).unwrap(), links);
    }
    // As the server wrote it: back.
    std::fs::write(dir.join("1.yaml"), &save).unwrap();
    let s = server(dir).unwrap();
    let (opened, problems) = s.restore();
    assert_eq!(opened.len(), 1, "{problems:?}");
    s.stop();
}

#[test]
fn a_save_with_no_links_is_removed_and_said() {
    let state = tempfile::tempdir().unwrap();
    let dir = state.path();
    let save = "game: braverats\nseed: 1\nseats: {red: person, blue: random}\nmoves: []\n";
    // An opening killed between its save and its links: no one had them.
    plant(dir, "5.yaml", save);
    // Not a table's save: the host's own files stay.
    plant(dir, "05.yaml", save);
    plant(dir, "game.yaml", save);
    // A table with both files stays, brought back.
    plant(dir, "6.yaml", save);
    plant(dir, "6.table.json", &links("6", "braverats", TOKEN));
    let s = server(dir).unwrap();
    let (opened, problems) = s.restore();
    assert_eq!(opened.len(), 1, "{problems:?}");
    let said = problems.join("\n");
    assert!(
        said.contains("removed the save(s) of table(s) 5 in")
            && said.contains("no link leads to them"),
        "{said}"
    );
    assert_eq!(
        files(dir),
        ["05.yaml", "6.table.json", "6.yaml", "game.yaml"]
    );
    s.stop();
}
