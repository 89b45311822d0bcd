//! Parameter sweeps: the same sim (and, where it applies, the exact
//! solver) at every setting of one or more parameters, so that a designer
//! reads a rule's effect as a curve instead of one run at a time.
//!
//! Each setting is a separate run with the sweep's seed, so a row equals
//! `sim --set P=V` with the same seed, games and bots.

use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use crate::analysis::sim::{self, Report, SimConfig};
use crate::analysis::solve::{self, Limits, Worth};
use crate::definition::Settings;
use crate::definition::format::ParamValue;
use crate::error::{Error, ErrorKind, Refusal, Result};
use crate::game::{Build, Game};

/// One parameter and the values it takes, in order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Axis {
    pub param: String,
    pub values: Vec<ParamValue>,
}

/// More settings than this is a typo (a step of 1 over a wide range).
pub const MAX_SETTINGS: usize = 1000;

impl Axis {
    /// `P=FROM..TO` (step 1), `P=FROM..TO:STEP`, or a list `P=A,B,C`
    /// (numbers or names).
    pub fn parse(s: &str) -> std::result::Result<Axis, String> {
        let (param, spec) = s
            .split_once('=')
            .ok_or_else(|| format!("`{s}`: expected PARAM=FROM..TO[:STEP] or PARAM=A,B,C"))?;
        let param = param.trim().to_string();
        if param.is_empty() {
            return Err(format!("`{s}`: no parameter name before `=`"));
        }
        let values = match spec.split_once("..") {
            Some((from, rest)) => {
                let (to, step) = rest.split_once(':').unwrap_or((rest, "1"));
                let num = |t: &str, what: &str| {
                    t.trim()
                        .parse::<i64>()
                        .map_err(|_| format!("`{s}`: {what} `{}` is not an integer", t.trim()))
                };
                let (from, to, step) = (num(from, "FROM")?, num(to, "TO")?, num(step, "STEP")?);
                if step <= 0 {
                    return Err(format!("`{s}`: STEP must be at least 1"));
                }
                if from > to {
                    return Err(format!("`{s}`: FROM ({from}) is above TO ({to})"));
                }
                let count = (i128::from(to) - i128::from(from)) / i128::from(step) + 1;
                if count > MAX_SETTINGS as i128 {
                    return Err(format!(
                        "`{s}`: {count} values, more than {MAX_SETTINGS}; use a larger STEP"
                    ));
                }
                (0..count as i64)
                    .map(|i| ParamValue::Int(from + i * step))
                    .collect()
            }
            None => spec
                .split(',')
                .map(str::trim)
                .map(|v| match v.parse::<i64>() {
                    Ok(i) => Ok(ParamValue::Int(i)),
                    Err(_) if v.is_empty() => Err(format!("`{s}`: an empty value in the list")),
                    Err(_) => Ok(ParamValue::Word(v.to_string())),
                })
                .collect::<std::result::Result<Vec<_>, _>>()?,
        };
        Ok(Axis { param, values })
    }
}

/// How many settings the axes make (the product of their lengths),
/// counted without building one; more than `MAX_SETTINGS` is refused
/// with the figure and what to do.
pub fn count(axes: &[Axis]) -> Result<usize> {
    let count = axes
        .iter()
        .try_fold(1usize, |n, a| n.checked_mul(a.values.len()));
    match count {
        Some(n) if n <= MAX_SETTINGS => Ok(n),
        _ => {
            let sizes: Vec<String> = axes.iter().map(|a| a.values.len().to_string()).collect();
            let total = count.map_or_else(|| "more than 10^19".to_string(), |n| n.to_string());
            Err(Error::usage(format!(
                "{} ({total}) settings, more than {MAX_SETTINGS} (the most a sweep runs): sweep fewer values, with a larger STEP or fewer parameters",
                sizes.join(" x ")
            )))
        }
    }
}

/// Every combination of the axes' values, the last axis varying fastest;
/// refused, before any is built, past `MAX_SETTINGS` (`count`).
pub fn grid(axes: &[Axis]) -> Result<Vec<Vec<(String, ParamValue)>>> {
    count(axes)?;
    let mut out: Vec<Vec<(String, ParamValue)>> = vec![Vec::new()];
    for axis in axes {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                axis.values.iter().map(move |v| {
                    let mut row = prefix.clone();
                    row.push((axis.param.clone(), v.clone()));
                    row
                })
            })
            .collect();
    }
    Ok(out)
}

/// What `--solve` found at one setting.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(untagged)]
pub enum Exact {
    Solved {
        worth: Worth,
        states: usize,
        seconds: f64,
    },
    /// Why not: solve refuses the game (chance, hidden cards) or it is
    /// bigger than the budget; the refusal's kind, as data (None for
    /// another error).
    NotSolved {
        not_solved: String,
        #[serde(skip)]
        refusal: Option<Refusal>,
    },
}

/// One setting's figures.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub setting: Vec<(String, ParamValue)>,
    pub report: Report,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<Exact>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Sweep {
    pub game: String,
    pub variants: Vec<String>,
    pub axes: Vec<Axis>,
    pub games: u64,
    pub seed: u64,
    pub rows: Vec<Row>,
}

/// How to sweep: the sim of every setting, and the solver's budget when
/// it runs too.
pub struct SweepConfig<'a> {
    pub path: &'a Path,
    pub dir: &'a Path,
    /// Variants, and parameters the sweep does not vary.
    pub base: Settings,
    pub axes: Vec<Axis>,
    pub sim: SimConfig,
    pub solve: Option<Limits>,
    pub build: Build,
}

/// Run the sweep. `progress(done, total)` counts games over all settings.
pub fn run(cfg: &SweepConfig, progress: &(dyn Fn(u64, u64) + Sync)) -> Result<Sweep> {
    let settings = grid(&cfg.axes)?;
    let mut seen = Vec::new();
    for a in &cfg.axes {
        if seen.contains(&&a.param) {
            return Err(Error::usage(format!("`{}` is swept twice", a.param)));
        }
        seen.push(&a.param);
    }
    let load = |setting: &[(String, ParamValue)]| {
        let mut s = cfg.base.clone();
        s.sets.retain(|(k, _)| !setting.iter().any(|(p, _)| p == k));
        s.sets.extend(setting.iter().cloned());
        Game::load_path(cfg.path, cfg.dir, &s, cfg.build).map_err(|e| {
            let at: Vec<String> = setting.iter().map(|(k, v)| format!("{k}={v}")).collect();
            e.note(format!("at the setting {}", at.join(" ")))
        })
    };
    // Every setting's rules load before any runs: a value out of range
    // is reported at once, not after an hour of sims. Each is dropped
    // after its check and loaded again for its run, so that one game at a
    // time is in memory.
    for setting in &settings {
        load(setting)?;
    }
    let total = cfg.sim.games * settings.len() as u64;
    let mut rows = Vec::new();
    let mut head = None;
    for (i, setting) in settings.into_iter().enumerate() {
        let game = &load(&setting)?;
        let before = cfg.sim.games * i as u64;
        // A sweep of the number of players seats random bots on the
        // seats the configuration does not name.
        let mut sim_cfg = cfg.sim.clone();
        sim_cfg.bots.resize(game.def().nplayers(), "random".into());
        let tally = sim::run(game, &sim_cfg, &|n| progress(before + n, total))?;
        let exact = cfg.solve.map(|limits| exact(game, &sim_cfg, limits));
        rows.push(Row {
            setting,
            report: sim::report(game, &sim_cfg, &tally),
            exact,
        });
        let def = game.def();
        head.get_or_insert_with(|| (def.id.clone(), def.applied.clone()));
    }
    let (game, variants) = head.unwrap_or_default();
    Ok(Sweep {
        game,
        variants,
        axes: cfg.axes.clone(),
        games: cfg.sim.games,
        seed: cfg.sim.seed,
        rows,
    })
}

/// The exact value at a setting, or why there is none. Only a refusal or
/// the budget is an answer; any other error stops the sweep's row with
/// its message too (the sim beside it still stands).
fn exact(game: &Game, cfg: &SimConfig, limits: Limits) -> Exact {
    let started = Instant::now();
    match solve::solve_within(game, None, cfg.jobs, limits, &|_| {}) {
        Ok(s) => Exact::Solved {
            worth: s.worth,
            states: s.states,
            seconds: started.elapsed().as_secs_f64(),
        },
        Err(e) => Exact::NotSolved {
            refusal: e.refusal(),
            not_solved: match e.kind {
                ErrorKind::Refused(_) => e.message,
                _ => e.to_string(),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(s: &str) -> Axis {
        Axis::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }

    fn ints(a: &Axis) -> Vec<i64> {
        a.values
            .iter()
            .map(|v| match v {
                ParamValue::Int(i) => *i,
                ParamValue::Word(_) => panic!("a word"),
            })
            .collect()
    }

    #[test]
    fn ranges_lists_and_mistakes() {
        assert_eq!(ints(&axis("w=20..100:20")), [20, 40, 60, 80, 100]);
        assert_eq!(ints(&axis("w=3..5")), [3, 4, 5]);
        // The last step may fall short of TO.
        assert_eq!(ints(&axis("w=1..10:4")), [1, 5, 9]);
        assert_eq!(ints(&axis("w = -2..2:2")), [-2, 0, 2]);
        let list = axis("mode=fast, slow,3");
        assert_eq!(list.param, "mode");
        assert_eq!(
            list.values,
            [
                ParamValue::Word("fast".into()),
                ParamValue::Word("slow".into()),
                ParamValue::Int(3)
            ]
        );
        for (bad, says) in [
            ("w", "expected PARAM"),
            ("=1..2", "no parameter name"),
            ("w=5..1", "FROM (5) is above TO (1)"),
            ("w=1..5:0", "STEP must be at least 1"),
            ("w=1..x", "TO `x` is not an integer"),
            ("w=0..100000", "more than 1000"),
            ("w=a,,b", "an empty value"),
        ] {
            let Err(e) = Axis::parse(bad) else {
                panic!("{bad} parsed");
            };
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn too_many_settings_are_refused_before_the_grid_is_built() {
        // A billion settings: refused from the axes' sizes, before the grid
        // (or any game) is made.
        let cfg = SweepConfig {
            path: Path::new("no-such-game.yaml"),
            dir: Path::new("."),
            base: Settings::default(),
            axes: vec![axis("a=1..1000"), axis("b=1..1000"), axis("c=1..1000")],
            sim: SimConfig {
                games: 1,
                seed: 0,
                bots: vec![],
                jobs: 1,
                max_decisions: 1,
                shard: None,
            },
            solve: None,
            build: Build::default(),
        };
        let Err(e) = run(&cfg, &|_, _| {}) else {
            panic!("a billion settings ran");
        };
        assert!(
            e.message
                .contains("1000 x 1000 x 1000 (1000000000) settings, more than 1000"),
            "{e}"
        );
    }

    #[test]
    fn a_grid_is_every_combination_last_axis_fastest() {
        let g = grid(&[axis("a=1..2"), axis("b=x,y,z")]).unwrap_or_else(|e| panic!("{e}"));
        let text: Vec<String> = g
            .iter()
            .map(|row| {
                row.iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(
            text,
            [
                "a=1 b=x", "a=1 b=y", "a=1 b=z", "a=2 b=x", "a=2 b=y", "a=2 b=z"
            ]
        );
    }
}
