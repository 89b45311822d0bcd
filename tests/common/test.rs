//! `Test`: the program run as a user runs it, written like a spec
//! (casey/just's builder): its arguments, stdin, environment, folder and
//! home, then what must come out (exit code, stdout, stderr, files).
//!
//! Every run is kept from the developer's own setup: `TABULA_*` settings
//! and colour are cleared, HOME is a fresh temporary folder (history and
//! anything else a run writes there land in it), and the cache
//! (`XDG_CACHE_HOME`) is one folder shared by the test process, as a
//! user's runs share theirs, unless a test gives its own. A run that has
//! not ended in its time limit is killed and fails the test, so a hang
//! fails instead of stalling CI.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::LazyLock;
use std::time::Duration;

use tempfile::TempDir;

/// The test process's cache, shared by its runs (a solved equilibrium is
/// worked out once, as on a user's machine).
static CACHE: LazyLock<TempDir> = LazyLock::new(|| tempfile::tempdir().unwrap());

/// The repository: where a run starts unless told otherwise.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[must_use]
pub struct Test {
    args: Vec<OsString>,
    dir: PathBuf,
    env: Vec<(OsString, OsString)>,
    stdin: Option<Vec<u8>>,
    home: Option<PathBuf>,
    cache: Option<PathBuf>,
    timeout: Duration,
    status: Option<i32>,
    stdout: Option<String>,
    stderr: Option<String>,
    stdout_has: Vec<String>,
    stderr_has: Vec<String>,
    files: Vec<(PathBuf, String)>,
}

impl Default for Test {
    fn default() -> Self {
        Self::new()
    }
}

impl Test {
    /// `tabula` with no arguments yet, in the repository.
    pub fn new() -> Test {
        Test {
            args: Vec::new(),
            dir: root(),
            env: Vec::new(),
            stdin: None,
            home: None,
            cache: None,
            timeout: Duration::from_secs(600),
            status: None,
            stdout: None,
            stderr: None,
            stdout_has: Vec::new(),
            stderr_has: Vec::new(),
            files: Vec::new(),
        }
    }

    pub fn arg(mut self, a: impl AsRef<OsStr>) -> Test {
        self.args.push(a.as_ref().to_owned());
        self
    }

    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut self, args: I) -> Test {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// `--games-dir DIR` before the command: the games folder.
    pub fn games_dir(self, dir: impl AsRef<Path>) -> Test {
        self.arg("--games-dir").arg(dir.as_ref())
    }

    /// The folder the run starts in.
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Test {
        self.dir = dir.as_ref().to_owned();
        self
    }

    pub fn env(mut self, k: impl AsRef<OsStr>, v: impl AsRef<OsStr>) -> Test {
        self.env
            .push((k.as_ref().to_owned(), v.as_ref().to_owned()));
        self
    }

    /// What the run reads on stdin (then closed); none: stdin is empty.
    pub fn stdin(mut self, input: impl AsRef<[u8]>) -> Test {
        self.stdin = Some(input.as_ref().to_vec());
        self
    }

    /// HOME (a fresh temporary folder unless given).
    pub fn home(mut self, dir: impl AsRef<Path>) -> Test {
        self.home = Some(dir.as_ref().to_owned());
        self
    }

    /// `XDG_CACHE_HOME` (the test process's shared one unless given).
    pub fn cache(mut self, dir: impl AsRef<Path>) -> Test {
        self.cache = Some(dir.as_ref().to_owned());
        self
    }

    /// How long the run may take before it is killed and the test fails.
    pub fn timeout(mut self, secs: u64) -> Test {
        self.timeout = Duration::from_secs(secs);
        self
    }

    /// The exit code the run must end with.
    pub fn status(mut self, code: i32) -> Test {
        self.status = Some(code);
        self
    }

    /// All of stdout, exactly.
    pub fn stdout(mut self, s: impl Into<String>) -> Test {
        self.stdout = Some(s.into());
        self
    }

    /// All of stderr, exactly.
    pub fn stderr(mut self, s: impl Into<String>) -> Test {
        self.stderr = Some(s.into());
        self
    }

    /// Text stdout must hold somewhere.
    pub fn stdout_has(mut self, s: impl Into<String>) -> Test {
        self.stdout_has.push(s.into());
        self
    }

    /// Text stderr must hold somewhere.
    pub fn stderr_has(mut self, s: impl Into<String>) -> Test {
        self.stderr_has.push(s.into());
        self
    }

    /// A file (relative to the run's folder) the run must leave, holding
    /// `text` somewhere.
    pub fn file_has(mut self, path: impl AsRef<Path>, text: impl Into<String>) -> Test {
        self.files.push((path.as_ref().to_owned(), text.into()));
        self
    }

    /// The command as configured, with the temporary home it uses (keep
    /// it while the command runs): for a test that talks to the program
    /// as it runs (a pipe read line by line, a pseudo-terminal).
    pub fn command(&self) -> (Command, Option<TempDir>) {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tabula"));
        cmd.args(&self.args).current_dir(&self.dir);
        for k in [
            "TABULA_GAMES",
            "TABULA_BOT",
            "TABULA_HISTORY",
            "TABULA_LIBRARY",
            "CLICOLOR_FORCE",
        ] {
            cmd.env_remove(k);
        }
        cmd.env("NO_COLOR", "1");
        let temp = match &self.home {
            Some(_) => None,
            None => Some(tempfile::tempdir().unwrap()),
        };
        let home = self
            .home
            .as_deref()
            .or(temp.as_ref().map(TempDir::path))
            .unwrap();
        cmd.env("HOME", home)
            .env("XDG_STATE_HOME", home.join(".local/state"))
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env(
                "XDG_CACHE_HOME",
                self.cache.as_deref().unwrap_or(CACHE.path()),
            );
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        (cmd, temp)
    }

    /// Start the program; stdin, stdout and stderr are pipes.
    pub fn spawn(&self) -> Running {
        let (mut cmd, home) = self.command();
        let child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start tabula");
        Running { child, _home: home }
    }

    /// Run to the end and check every expectation given; what it wrote.
    pub fn run(self) -> Ran {
        let (mut cmd, home) = self.command();
        let mut child = cmd
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start tabula");
        if let Some(input) = self.stdin.clone() {
            let mut pipe = child.stdin.take().unwrap();
            // A program that stops reading early closes the pipe: not an
            // error of the test's.
            std::thread::spawn(move || {
                let _ = pipe.write_all(&input);
            });
        }
        let output = wait(child, self.timeout, &self.args);
        let ran = Ran {
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            output,
            _home: home,
        };
        self.check(&ran);
        ran
    }

    fn check(&self, ran: &Ran) {
        let what = format!("tabula {:?}", self.args);
        if let Some(code) = self.status {
            assert_eq!(
                ran.code(),
                Some(code),
                "{what}: exit code\nstdout:\n{}\nstderr:\n{}",
                ran.stdout,
                ran.stderr
            );
        }
        if let Some(s) = &self.stdout {
            assert_eq!(&ran.stdout, s, "{what}: stdout");
        }
        if let Some(s) = &self.stderr {
            assert_eq!(&ran.stderr, s, "{what}: stderr");
        }
        for s in &self.stdout_has {
            assert!(
                ran.stdout.contains(s),
                "{what}: no `{s}` in stdout:\n{}",
                ran.stdout
            );
        }
        for s in &self.stderr_has {
            assert!(
                ran.stderr.contains(s),
                "{what}: no `{s}` in stderr:\n{}",
                ran.stderr
            );
        }
        for (path, text) in &self.files {
            let p = self.dir.join(path);
            let got = std::fs::read_to_string(&p)
                .unwrap_or_else(|e| panic!("{what}: {} not readable: {e}", p.display()));
            assert!(
                got.contains(text),
                "{what}: no `{text}` in {}:\n{got}",
                p.display()
            );
        }
    }

    /// Run, check it exits with 0 and every expectation given; its stdout.
    pub fn ok(self) -> String {
        self.status(0).run().stdout
    }
}

/// What a run wrote, and how it ended.
pub struct Ran {
    pub stdout: String,
    pub stderr: String,
    pub output: Output,
    _home: Option<TempDir>,
}

impl Ran {
    pub fn code(&self) -> Option<i32> {
        self.output.status.code()
    }
}

/// A program started by `Test::spawn`, with the home it runs in.
pub struct Running {
    pub child: Child,
    _home: Option<TempDir>,
}

/// The child's output once it ends; killed, and the test failed, past
/// `limit`.
fn wait(child: Child, limit: Duration, args: &[OsString]) -> Output {
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(limit) {
        Ok(o) => o.expect("wait for tabula"),
        Err(_) => {
            // SAFETY: the child is ours and not yet reaped (its waiter
            // still waits), so the pid is still its.
            unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
            panic!("tabula {args:?} did not end in {} s", limit.as_secs());
        }
    }
}
