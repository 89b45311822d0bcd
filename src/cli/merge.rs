//! `tabula merge`: the report of a run split across machines, from the
//! JSON of its shards (`sim --shard K/N --json`).

use std::path::PathBuf;

use tabula::error::{Error, Result};
use tabula::sim::{self, Part, Report};

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The shards' JSON files (`sim --shard K/N --json > part-K.json`).
    #[arg(required = true, value_name = "PART.json")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub out: super::sim::OutputArgs,
}

/// The shares of a solve (`solve --shard K/N --json`), if every file is one;
/// None if none is; an error for a mix.
fn solve_shares(
    files: &[PathBuf],
    read: &[String],
) -> Result<Option<Vec<tabula::solve::SolvePart>>> {
    let mut texts = Vec::new();
    for (f, text) in files.iter().zip(read) {
        let is_share = serde_json::from_str::<serde_json::Value>(text)
            .is_ok_and(|v| v.get("solve_shard").is_some());
        texts.push((f, text, is_share));
    }
    let shares = texts.iter().filter(|t| t.2).count();
    if shares == 0 {
        return Ok(None);
    }
    if let Some((f, ..)) = texts.iter().find(|t| !t.2) {
        return Err(Error::usage(format!(
            "{}: not a share of a solve (`solve --shard K/N --json`), as {shares} of the files are: merge adds up the shares of one run",
            f.display()
        )));
    }
    let mut shares = Vec::new();
    for (f, text, _) in texts {
        match serde_json::from_str(text) {
            Ok(p) => shares.push(p),
            Err(e) => {
                return Err(Error::usage(format!(
                    "{}:{}:{}: not the JSON of `solve --shard K/N --json`: {e}",
                    f.display(),
                    e.line(),
                    e.column()
                )));
            }
        }
    }
    Ok(Some(shares))
}

pub fn run(a: MergeArgs) -> Result<i32> {
    // Each file read once, within the size a shard may have.
    let texts = a
        .files
        .iter()
        .map(|f| {
            tabula::files::read_utf8(f, tabula::files::MAX_FILE_BYTES, "a shard")
                .map_err(|e| Error::io(f, e))
        })
        .collect::<Result<Vec<String>>>()?;
    if let Some(shares) = solve_shares(&a.files, &texts)? {
        if a.out.chart.is_some() || a.out.csv {
            return Err(Error::usage(
                "merge: a solve's shares add up to one value: --json or text, no --chart or --csv",
            ));
        }
        let names: Vec<String> = a.files.iter().map(|f| f.display().to_string()).collect();
        let s = tabula::solve::merge_files(&shares, &names)?;
        super::solve::print_merged(&s, a.out.json);
        return Ok(0);
    }
    if let Some(c) = &a.out.chart {
        super::chart::check(c)?;
    }
    // columns[i]: every shard's part of column i, and its file.
    let mut columns: Vec<Vec<Part>> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for (f, text) in a.files.iter().zip(&texts) {
        // One report, or a list of columns (`--compare`).
        let parsed = if text.trim_start().starts_with('[') {
            serde_json::from_str::<Vec<Report>>(text)
        } else {
            serde_json::from_str::<Report>(text).map(|r| vec![r])
        };
        let reports = match parsed {
            Ok(rs) => rs,
            Err(e) => {
                return Err(Error::usage(format!(
                    "{}:{}:{}: not the JSON of `sim --json`: {e}",
                    f.display(),
                    e.line(),
                    e.column()
                )));
            }
        };
        if reports.is_empty() {
            return Err(Error::usage(format!(
                "{}: an empty list, not the JSON of `sim --shard K/N --json`",
                f.display()
            )));
        }
        if !columns.is_empty() && reports.len() != columns.len() {
            return Err(Error::usage(format!(
                "{}: {} column(s), the files before it {}",
                f.display(),
                reports.len(),
                columns.len()
            )));
        }
        columns.resize_with(reports.len(), Vec::new);
        for (col, r) in columns.iter_mut().zip(reports) {
            let Some(part) = r.part else {
                return Err(Error::usage(format!(
                    "{}: a whole run, not a shard (a shard is what `sim --shard K/N --json` writes)",
                    f.display()
                )));
            };
            col.push(part);
        }
        names.push(f.display().to_string());
    }
    let reports = columns
        .iter()
        .map(|parts| sim::merge_files(parts, &names))
        .collect::<Result<Vec<Report>>>()?;
    // The report first: a chart that cannot be written loses no run.
    super::sim::print(&reports, &a.out);
    if let Some(c) = &a.out.chart {
        super::chart::write(c, &tabula::chart::sim(&reports))?;
    }
    Ok(super::sim::failures(&reports))
}
