//! A zero-sum matrix game solved by linear programming (microlp): what
//! each simultaneous decision of the exact solver is.

use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// Optimal mixed strategies of a zero-sum matrix game (row player
/// maximises) and its value: a saddle point when there is one, else two
/// LPs (the value is the mean of their optima, equal up to tolerance).
pub fn solve_matrix(m: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>, f64) {
    let (r, c) = (m.len(), m.first().map_or(0, Vec::len));
    let row_min: Vec<f64> = m
        .iter()
        .map(|row| row.iter().copied().fold(f64::INFINITY, f64::min))
        .collect();
    let col_max: Vec<f64> = (0..c)
        .map(|j| (0..r).map(|i| m[i][j]).fold(f64::NEG_INFINITY, f64::max))
        .collect();
    let (bi, maximin) =
        row_min
            .iter()
            .copied()
            .enumerate()
            .fold(
                (0, f64::NEG_INFINITY),
                |a, (i, v)| if v > a.1 { (i, v) } else { a },
            );
    let (bj, minimax) =
        col_max
            .iter()
            .copied()
            .enumerate()
            .fold(
                (0, f64::INFINITY),
                |a, (j, v)| if v < a.1 { (j, v) } else { a },
            );
    if (maximin - minimax).abs() < 1e-12 {
        let mut x = vec![0.0; r];
        let mut y = vec![0.0; c];
        x[bi] = 1.0;
        y[bj] = 1.0;
        return (x, y, maximin);
    }
    let (x, vx) = lp_strategy(m, r, c, false);
    let (y, vy) = lp_strategy(m, r, c, true);
    (x, y, (vx + vy) / 2.0)
}

/// The row player's maximin strategy (or, `column`, the column player's
/// minimax one) and the game's value, by the classic positive form: with
/// every payoff shifted above 0, minimise the sum of u under M^T u >= 1;
/// then the value is 1 / sum(u) and the strategy u times the value.
fn lp_strategy(m: &[Vec<f64>], r: usize, c: usize, column: bool) -> (Vec<f64>, f64) {
    // The column player of M is the row player of -M^T.
    let (n, k) = if column { (c, r) } else { (r, c) };
    let at = |i: usize, j: usize| if column { -m[j][i] } else { m[i][j] };
    let low = (0..n)
        .flat_map(|i| (0..k).map(move |j| (i, j)))
        .map(|(i, j)| at(i, j))
        .fold(f64::INFINITY, f64::min);
    let shift = 1.0 - low;
    let mut p = Problem::new(OptimizationDirection::Minimize);
    let us: Vec<_> = (0..n)
        .map(|_| p.add_var(1.0, (0.0, f64::INFINITY)))
        .collect();
    for j in 0..k {
        let e: Vec<(microlp::Variable, f64)> = us
            .iter()
            .enumerate()
            .map(|(i, &u)| (u, at(i, j) + shift))
            .collect();
        p.add_constraint(e.as_slice(), ComparisonOp::Ge, 1.0);
    }
    match p.solve().ok().and_then(|o| o.into_solution().ok()) {
        Some(s) => {
            let raw: Vec<f64> = us.iter().map(|&u| s.var_value(u).max(0.0)).collect();
            let total: f64 = raw.iter().sum();
            let v = 1.0 / total - shift;
            let x = raw.iter().map(|u| u / total).collect();
            (x, if column { -v } else { v })
        }
        None => (vec![1.0 / n as f64; n], f64::NAN),
    }
}
