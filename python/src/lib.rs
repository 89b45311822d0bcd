//! tabula's Python package, the extension module `tabula._tabula`: games
//! loaded from their files, bots, `sim`, `solve` and exploitability, all
//! returning plain Python data (dicts, lists, numbers, strings). Long work
//! runs with the GIL released. The Python side (python/tabula) wraps it.
//!
//! The OpenSpiel-shaped state API is `Spiel` and `State` (spiel.rs); the
//! adapters are Python modules over it (python/tabula/openspiel.py,
//! python/tabula/pettingzoo.py).

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

mod analysis;
mod game;
mod library;
mod spiel;

pyo3::create_exception!(
    tabula,
    TabulaError,
    PyException,
    "An error of tabula's: a game file that does not load (the message starts with FILE:LINE:COLUMN), \
a bad variant, parameter or bot kind, a rules error, or an analysis that refuses a game. \
Its attributes: `kind` (\"yaml\", \"invalid\", \"script\", \"usage\", \"refused\", ...), \
`at` (\"FILE:LINE:COLUMN\" or None), `notes` (a list of strings) and `refusal` (a dict saying \
why an analysis refused, or None)."
);

/// A tabula error as a `TabulaError`: its text (the position first), and
/// its parts as attributes.
pub fn err(py: Python<'_>, e: tabula::Error) -> PyErr {
    let made = PyErr::new::<TabulaError, _>(e.to_string());
    let json = e.to_json();
    let value = made.value(py);
    for key in ["kind", "at", "notes", "refusal"] {
        let v = json["error"].get(key).cloned().unwrap_or_default();
        if let Ok(v) = to_py(py, &v) {
            let _ = value.setattr(key, v);
        }
    }
    made
}

/// JSON as Python's plain data: dict, list, int, float, str, bool, None.
pub fn to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// Anything serialisable, as Python's plain data.
pub fn data<'py>(py: Python<'py>, v: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let v = serde_json::to_value(v)
        .map_err(|e| PyErr::new::<TabulaError, _>(format!("internal: {e}")))?;
    to_py(py, &v)
}

/// The ids of the games shipped with the package (and, with `games_dir`,
/// of the games in that folder too), sorted.
#[pyfunction]
#[pyo3(signature = (games_dir=None))]
fn games(py: Python<'_>, games_dir: Option<std::path::PathBuf>) -> PyResult<Vec<String>> {
    let shipped = library::games().map_err(|e| err(py, e))?;
    let mut ids = tabula::definition::source::list_ids(&shipped);
    if let Some(d) = games_dir {
        ids.extend(tabula::definition::source::list_ids(&d));
        ids.sort();
        ids.dedup();
    }
    Ok(ids)
}

/// The folder the shipped games are written to (their error positions
/// point there; an edit there is not played).
#[pyfunction]
fn library_dir(py: Python<'_>) -> PyResult<std::path::PathBuf> {
    library::games().map_err(|e| err(py, e))
}

#[pymodule]
fn _tabula(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // What the `tabula` program takes from its environment, the package
    // sets likewise: scripts' `print` to stderr, the cache of the best
    // bot's tables beside the program's.
    tabula::files::set_cache_dir(Some(library::cache_dir()));
    tabula::hooks::script::set_output(Some(std::sync::Arc::new(|line: &str| eprintln!("{line}"))));
    m.add("TabulaError", m.py().get_type::<TabulaError>())?;
    m.add("MAX_STATES", tabula::solve::MAX_STATES)?;
    m.add_class::<game::Game>()?;
    m.add_class::<spiel::Spiel>()?;
    m.add_class::<spiel::State>()?;
    m.add("DEFAULT_WALK", tabula::spiel::DEFAULT_WALK)?;
    m.add("CHANCE", spiel::CHANCE)?;
    m.add("SIMULTANEOUS", spiel::SIMULTANEOUS)?;
    m.add("TERMINAL", spiel::TERMINAL)?;
    m.add_function(wrap_pyfunction!(game::load_game, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(library_dir, m)?)?;
    Ok(())
}
