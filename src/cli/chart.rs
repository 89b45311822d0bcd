//! Writing a chart to the file `--chart` names: SVG, or SVG in an HTML page.

use std::path::Path;

use tabula::chart::{self, Chart};
use tabula::error::{Error, Result};

/// Whether `--chart FILE` names a kind of file we write, in a folder that
/// takes it: checked before a run, not after it.
pub fn check(path: &Path) -> Result<()> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("svg" | "html" | "htm") => {}
        _ => {
            return Err(Error::usage(format!(
                "--chart {}: the file must end in .svg or .html",
                path.display()
            )));
        }
    }
    tabula::files::check_writable(path, "a chart")
        .map_err(|e| Error::usage(format!("--chart {}: {e}", path.display())))
}

pub fn write(path: &Path, c: &Chart) -> Result<()> {
    check(path)?;
    let svg = chart::svg(c)?;
    let text = if path.extension().is_some_and(|e| e == "svg") {
        svg
    } else {
        format!(
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{}</title></head>\n<body>\n{svg}\n</body></html>\n",
            escape(&c.title)
        )
    };
    tabula::files::write_atomic(path, text.as_bytes(), "a chart")
        .map_err(|e| Error::io(path, e))?;
    eprintln!("chart written to {}", path.display());
    Ok(())
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
