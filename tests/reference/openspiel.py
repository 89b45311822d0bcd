#!/usr/bin/env python3
"""Reference figures for the games in tests/reference/games, from OpenSpiel.

Run from anywhere:

    python3 tests/reference/openspiel.py            # writes tests/reference/openspiel.json
    python3 tests/reference/openspiel.py pig blotto # only these entries (merged into the file)

Needs the pip packages `open-spiel` (tested with 2.0.2), numpy and scipy
(scipy's HiGHS solves the linear programs: OpenSpiel's own lp_solver needs
cvxpy, which this script does not need). Every game tree is OpenSpiel's
(`pyspiel.load_game(...)` and its states); what this script adds is the
search over them (exact expectations, best responses, linear programs).
Light work: one core, about a few minutes in all (Liar's dice's CFR+ runs
are most of it). No timings are recorded.

The figures and their keys are described in tests/reference/README.md.
"""

import json
import os
import sys

import numpy as np
import pyspiel
from scipy import sparse
from scipy.optimize import linprog

from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import exploitability as exploitability_lib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "openspiel.json")

# Each entry: the tabula game (a file in games/, or a path from the
# repository's root), the parameters set on it
# (`--set K=V`; none: its defaults), the OpenSpiel game string it mirrors
# (every parameter spelt out) and how its figures are computed. The
# smaller settings are there for tests in a debug build.
TTT_GRID = "examples/tic-tac-toe/games/tic-tac-toe.yaml"
CONNECT_FOUR = "examples/connect-four/games/connect-four.yaml"
LIARS_CUP = "examples/liars-dice/games/liars-dice.yaml"

ENTRIES = {
    "kuhn-poker": ("kuhn-poker", {}, "kuhn_poker(players=2)", "poker+cfr"),
    "leduc-poker": ("leduc-poker", {}, "leduc_poker(players=2)", "poker+cfr"),
    "liars-dice": (
        "liars-dice",
        {},
        "liars_dice(players=2,numdice=1,dice_sides=6,bidding_rule=reset-face)",
        "poker+cfr",
    ),
    "liars-dice-sides3": (
        "liars-dice",
        {"sides": 3},
        "liars_dice(players=2,numdice=1,dice_sides=3,bidding_rule=reset-face)",
        "poker+cfr",
    ),
    "tic-tac-toe": ("tic-tac-toe", {}, "tic_tac_toe", "tic-tac-toe"),
    "blotto": ("blotto", {}, "blotto(players=2,coins=4,fields=3)", "matrix"),
    "goofspiel": (
        "goofspiel",
        {},
        "goofspiel(players=2,num_cards=4,points_order=descending,returns_type=win_loss)",
        "simultaneous",
    ),
    "pig": ("pig", {}, "pig(players=2,winscore=10,horizon=20,diceoutcomes=6)", "pig"),
    "pig-small": ("pig", {"target": 6, "horizon": 12}, "pig(players=2,winscore=6,horizon=12,diceoutcomes=6)", "pig"),
    # Grid boards (zones with `grid:`): the examples, by their path from the
    # repository's root.
    "tic-tac-toe-grid": (TTT_GRID, {}, "tic_tac_toe", "tic-tac-toe"),
    "connect-four-3x4": (
        CONNECT_FOUR,
        {"rows": 3, "columns": 4, "x_in_row": 3},
        "connect_four(rows=3,columns=4,x_in_row=3)",
        "tic-tac-toe",
    ),
    "connect-four-4x4": (
        CONNECT_FOUR,
        {"rows": 4, "columns": 4, "x_in_row": 3},
        "connect_four(rows=4,columns=4,x_in_row=3)",
        "tic-tac-toe",
    ),
    # Too big to search here: crosscheck.py plays it move for move.
    "connect-four": (CONNECT_FOUR, {}, "connect_four(rows=6,columns=7,x_in_row=4)", "none"),
    # Dice rolled into zones (`count:` and `roll_into`): the example's
    # Liar's dice, with a die under each cup, and with two (played move
    # for move by crosscheck.py).
    "liars-dice-cup-sides3": (
        LIARS_CUP,
        {"sides": 3},
        "liars_dice(players=2,numdice=1,dice_sides=3,bidding_rule=reset-face)",
        "poker+cfr",
    ),
    "liars-dice-cup-2dice": (
        LIARS_CUP,
        {"dice": 2},
        "liars_dice(players=2,numdice=2,dice_sides=6,bidding_rule=reset-face)",
        "none",
    ),
    # ---- Board games for issue #54's benchmarks (Othello, Breakthrough,
    # Hex), written as a newcomer writes them from the docs. Too big to
    # search here: crosscheck.py plays them move for move. The small
    # settings are there to check the rules on more games.
    "othello": ("othello", {}, "othello", "none"),
    "breakthrough": ("breakthrough", {}, "breakthrough(rows=8,columns=8)", "none"),
    "breakthrough-6x5": ("breakthrough", {"rows": 6, "columns": 5}, "breakthrough(rows=6,columns=5)", "none"),
    "breakthrough-4x3": ("breakthrough", {"rows": 4, "columns": 3}, "breakthrough(rows=4,columns=3)", "none"),
    "hex": ("hex", {}, "hex(board_size=11,swap=false)", "none"),
    "hex-5": ("hex", {"board_size": 5}, "hex(board_size=5,swap=false)", "none"),
    "hex-3": ("hex", {"board_size": 3}, "hex(board_size=3,swap=false)", "none"),
    # ---- end of the board games for issue #54.
}

# ---- Issue #54's benchmark games: Mancala, Dots and Boxes, Hearts. ----
# Board and card games written as a newcomer writes them, for timing
# (time_sim.py); too big to search here, crosscheck.py plays them move for
# move.
ENTRIES.update(
    {
        "mancala": ("mancala", {}, "mancala", "none"),
        "dots-and-boxes": (
            "dots-and-boxes",
            {},
            "dots_and_boxes(num_rows=2,num_cols=2,utility_margin=false)",
            "none",
        ),
        "dots-and-boxes-3x2": (
            "dots-and-boxes",
            {"num_rows": 3, "num_cols": 2},
            "dots_and_boxes(num_rows=3,num_cols=2,utility_margin=false)",
            "none",
        ),
        "dots-and-boxes-3x3": (
            "dots-and-boxes",
            {"num_rows": 3, "num_cols": 3},
            "dots_and_boxes(num_rows=3,num_cols=3,utility_margin=false)",
            "none",
        ),
        "dots-and-boxes-1x4": (
            "dots-and-boxes",
            {"num_rows": 1, "num_cols": 4},
            "dots_and_boxes(num_rows=1,num_cols=4,utility_margin=false)",
            "none",
        ),
        "hearts": (
            "hearts",
            {},
            "hearts(pass_cards=true,no_pts_on_first_trick=true,can_lead_any_club=false,"
            "jd_bonus=false,avoid_all_tricks_bonus=false,must_break_hearts=true,"
            "qs_breaks_hearts=true,can_lead_hearts_instead_of_qs=false)",
            "none",
        ),
        # Every option away from its default (no pass at all).
        "hearts-options": (
            "hearts",
            {
                "pass_cards": 0,
                "no_pts_on_first_trick": 0,
                "can_lead_any_club": 1,
                "jd_bonus": 1,
                "avoid_all_tricks_bonus": 1,
                "must_break_hearts": 0,
                "qs_breaks_hearts": 0,
                "can_lead_hearts_instead_of_qs": 1,
            },
            "hearts(pass_cards=false,no_pts_on_first_trick=false,can_lead_any_club=true,"
            "jd_bonus=true,avoid_all_tricks_bonus=true,must_break_hearts=false,"
            "qs_breaks_hearts=false,can_lead_hearts_instead_of_qs=true)",
            "none",
        ),
        # The pass kept, the other options away from their defaults.
        "hearts-options-pass": (
            "hearts",
            {
                "no_pts_on_first_trick": 0,
                "can_lead_any_club": 1,
                "jd_bonus": 1,
                "avoid_all_tricks_bonus": 1,
                "qs_breaks_hearts": 0,
                "can_lead_hearts_instead_of_qs": 1,
            },
            "hearts(pass_cards=true,no_pts_on_first_trick=false,can_lead_any_club=true,"
            "jd_bonus=true,avoid_all_tricks_bonus=true,must_break_hearts=true,"
            "qs_breaks_hearts=false,can_lead_hearts_instead_of_qs=true)",
            "none",
        ),
    }
)
# ---- End of issue #54's benchmark games. ----


CFR_CHECKPOINTS = [10, 30, 100, 300, 1000]


# --------------------------------------------------------------------------
# Walking OpenSpiel's trees.


def children(state):
    """(probability under uniform play, child) for every move at a state."""
    if state.is_chance_node():
        return [(p, state.child(a)) for a, p in state.chance_outcomes()]
    if state.is_simultaneous_node():
        l0, l1 = state.legal_actions(0), state.legal_actions(1)
        w = 1.0 / (len(l0) * len(l1))
        out = []
        for a in l0:
            for b in l1:
                c = state.clone()
                c.apply_actions([a, b])
                out.append((w, c))
        return out
    legal = state.legal_actions()
    return [(1.0 / len(legal), state.child(a)) for a in legal]


def uniform_return(state, key=None, memo=None):
    """Player 0's exact expected return with both players uniform at random.

    `key(state)` (optional) names a position for memoization: two states
    with the same key must have the same future."""
    if state.is_terminal():
        return state.returns()[0]
    k = None
    if key is not None:
        k = key(state)
        if k in memo:
            return memo[k]
    v = sum(p * uniform_return(c, key, memo) for p, c in children(state))
    if key is not None:
        memo[k] = v
    return v


def count_infostates(game, key=None):
    """Distinct OpenSpiel information_state_string()s at each player's
    decisions (a simultaneous node is a decision of both)."""
    seen = [set(), set()]
    visited = set()

    def walk(state):
        if state.is_terminal():
            return
        if key is not None:
            k = key(state)
            if k in visited:
                return
            visited.add(k)
        if state.is_simultaneous_node():
            for p in (0, 1):
                seen[p].add(state.information_state_string(p))
        elif not state.is_chance_node():
            p = state.current_player()
            seen[p].add(state.information_state_string(p))
        for _, c in children(state):
            walk(c)

    walk(game.new_initial_state())
    return [len(s) for s in seen]


# --------------------------------------------------------------------------
# Two-player zero-sum solutions by linear programming (scipy's HiGHS).


def solve_matrix(a):
    """Value and maximin mix of the row player of payoff matrix `a`
    (rows maximize)."""
    a = np.asarray(a, dtype=float)
    m, n = a.shape
    # variables: x (m), v; maximize v s.t. v <= x^T a[:, j] for every j.
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    b_ub = np.zeros(n)
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0, None)] * m + [(None, None)]
    r = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    assert r.status == 0, r.message
    return r.x[-1], r.x[:m]


def sequence_form_value(game):
    """Player 0's equilibrium value of a two-player zero-sum sequential game
    with chance and hidden information: the sequence-form linear program
    (Koller, Megiddo and von Stengel 1994) over OpenSpiel's tree, its
    information sets named by information_state_string()."""
    seqs = [{(): 0}, {(): 0}]  # per player: sequence -> index; () the empty one
    infos = [{}, {}]  # per player: infostate -> (parent sequence, [actions])
    payoff = {}  # (seq0, seq1) -> chance-weighted return of player 0

    def seq_index(p, s):
        d = seqs[p]
        if s not in d:
            d[s] = len(d)
        return d[s]

    def walk(state, last, prob):
        # last[p]: player p's last sequence (infostate, action) or ().
        if state.is_terminal():
            k = (seq_index(0, last[0]), seq_index(1, last[1]))
            payoff[k] = payoff.get(k, 0.0) + prob * state.returns()[0]
            return
        if state.is_chance_node():
            for a, p in state.chance_outcomes():
                walk(state.child(a), last, prob * p)
            return
        p = state.current_player()
        info = state.information_state_string(p)
        legal = state.legal_actions()
        if info not in infos[p]:
            infos[p][info] = (last[p], legal)
        for a in legal:
            seq = (info, a)
            seq_index(p, seq)
            nl = list(last)
            nl[p] = seq
            walk(state.child(a), nl, prob)

    walk(game.new_initial_state(), [(), ()], 1.0)
    n0, n1 = len(seqs[0]), len(seqs[1])

    def constraints(p):
        rows, cols, vals = [0], [0], [1.0]  # x[()] = 1
        for r, (info, (parent, legal)) in enumerate(infos[p].items(), start=1):
            rows.append(r)
            cols.append(seqs[p][parent])
            vals.append(-1.0)
            for a in legal:
                rows.append(r)
                cols.append(seqs[p][(info, a)])
                vals.append(1.0)
        m = len(infos[p]) + 1
        e = sparse.csr_matrix((vals, (rows, cols)), shape=(m, len(seqs[p])))
        rhs = np.zeros(m)
        rhs[0] = 1.0
        return e, rhs

    e, ev = constraints(0)
    f, fv = constraints(1)
    ks = list(payoff)
    a = sparse.csr_matrix(
        ([payoff[k] for k in ks], ([k[0] for k in ks], [k[1] for k in ks])), shape=(n0, n1)
    )
    # max_x min_y x^T A y, Ex = e, Fy = f, x, y >= 0. Dual of the inner
    # problem: max_q f^T q s.t. F^T q <= A^T x. Variables [x, q].
    mq = f.shape[0]
    c = np.concatenate([np.zeros(n0), -fv])
    a_ub = sparse.hstack([-a.T, f.T]).tocsr()
    b_ub = np.zeros(n1)
    a_eq = sparse.hstack([e, sparse.csr_matrix((e.shape[0], mq))]).tocsr()
    bounds = [(0, None)] * n0 + [(None, None)] * mq
    r = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=ev, bounds=bounds, method="highs")
    assert r.status == 0, r.message
    return -r.fun, {"sequences": [n0, n1], "infosets": [len(infos[0]), len(infos[1])]}


def simultaneous_backward_induction(game, key):
    """Player 0's value of a game of perfect information but for its
    simultaneous moves (goofspiel with imp_info=False, blotto): backward
    induction, each simultaneous node a matrix game solved by LP over the
    children's values; chance an expectation."""
    memo = {}

    def value(state):
        if state.is_terminal():
            return state.returns()[0]
        k = key(state)
        if k in memo:
            return memo[k]
        if state.is_chance_node():
            v = sum(p * value(state.child(a)) for a, p in state.chance_outcomes())
        elif state.is_simultaneous_node():
            l0, l1 = state.legal_actions(0), state.legal_actions(1)
            m = np.zeros((len(l0), len(l1)))
            for i, a in enumerate(l0):
                for j, b in enumerate(l1):
                    c = state.clone()
                    c.apply_actions([a, b])
                    m[i, j] = value(c)
            v, _ = solve_matrix(m)
        else:
            vals = [value(state.child(a)) for a in state.legal_actions()]
            v = max(vals) if state.current_player() == 0 else min(vals)
        memo[k] = v
        return v

    v = value(game.new_initial_state())
    return v, len(memo)


def uniform_best_responses(game, key):
    """For games without hidden state (but simultaneous moves): each seat's
    exact best-response return against the uniform random policy, in its
    own return, and the exploitability (their mean, NashConv / 2, as
    OpenSpiel's `exploitability` defines it for two-player zero-sum games).
    The responder maximizes at its decisions; at a simultaneous node it
    picks the action best on average over the other's uniform choice (it
    does not see that choice); the other player and chance average.
    `key(state)` names a position (same key, same future)."""
    out = []
    for p in (0, 1):
        memo = {}

        def br(state):
            if state.is_terminal():
                return state.returns()[p]
            k = key(state)
            if k in memo:
                return memo[k]
            if state.is_chance_node():
                v = sum(q * br(state.child(a)) for a, q in state.chance_outcomes())
            elif state.is_simultaneous_node():
                mine, theirs = state.legal_actions(p), state.legal_actions(1 - p)
                best = None
                for a in mine:
                    tot = 0.0
                    for b in theirs:
                        c = state.clone()
                        c.apply_actions([a, b] if p == 0 else [b, a])
                        tot += br(c)
                    best = tot / len(theirs) if best is None else max(best, tot / len(theirs))
                v = best
            else:
                vals = [br(state.child(a)) for a in state.legal_actions()]
                v = max(vals) if state.current_player() == p else sum(vals) / len(vals)
            memo[k] = v
            return v

        out.append(br(game.new_initial_state()))
    return {"uniform_best_response": out, "uniform_exploitability": (out[0] + out[1]) / 2}


# --------------------------------------------------------------------------
# Per-game figures.


def uniform_figures(game):
    """Exploitability of the uniform random policy and the best responses
    to it (OpenSpiel's python exploitability module)."""
    uniform = policy_lib.UniformRandomPolicy(game)
    br = [exploitability_lib.best_response(game, uniform, p) for p in (0, 1)]
    return {
        "uniform_exploitability": exploitability_lib.exploitability(game, uniform),
        "uniform_nash_conv": exploitability_lib.nash_conv(game, uniform),
        "uniform_best_response": [b["best_response_value"] for b in br],
        "uniform_on_policy": [b["on_policy_value"] for b in br],
    }


def cfr_plus_curve(game, checkpoints):
    solver = pyspiel.CFRPlusSolver(game)
    out = {}
    done = 0
    for n in checkpoints:
        while done < n:
            solver.evaluate_and_update_policy()
            done += 1
        out[str(n)] = pyspiel.exploitability(game, solver.average_policy())
        print(f"  CFR+ {n}: {out[str(n)]}", file=sys.stderr)
    return out


def poker_like(gs, with_cfr=False):
    game = pyspiel.load_game(gs)
    r = {"openspiel_game": gs}
    v, size = sequence_form_value(game)
    r["value"] = v
    r["value_method"] = "sequence-form LP (scipy HiGHS) over OpenSpiel's tree"
    r["lp_size"] = size
    r.update(uniform_figures(game))
    r["uniform_returns"] = uniform_return(game.new_initial_state())
    r["information_states"] = count_infostates(game)
    if with_cfr:
        r["cfr_plus_exploitability"] = cfr_plus_curve(game, CFR_CHECKPOINTS)
    return r


def tic_tac_toe(gs):
    """Any deterministic two-player game whose board says who moves
    (tic-tac-toe, Connect Four)."""
    game = pyspiel.load_game(gs)
    key = str  # the board and the player to move (str shows the board)
    v, n = simultaneous_backward_induction(game, key)
    memo = {}
    r = {
        "openspiel_game": gs,
        "value": v,
        "value_method": "minimax over OpenSpiel's states (memoized by board)",
        "nonterminal_states": n,
        "uniform_returns": uniform_return(game.new_initial_state(), key, memo),
    }
    # Outcome shares under uniform play (exact).
    r["uniform_outcomes"] = outcome_shares(game, key)
    r.update(uniform_best_responses(game, key))
    return r


def outcome_shares(game, key):
    """Exact chance of a win for player 0, a draw, a win for player 1, with
    both uniform at random."""
    memo = {}

    def walk(state):
        if state.is_terminal():
            x = state.returns()[0]
            return np.array([x > 0, x == 0, x < 0], dtype=float)
        k = key(state)
        if k in memo:
            return memo[k]
        v = sum(p * walk(c) for p, c in children(state))
        memo[k] = v
        return v

    w, d, l = walk(game.new_initial_state())
    return {"first_wins": w, "draws": d, "second_wins": l}


def blotto(gs):
    game = pyspiel.load_game(gs)
    s = game.new_initial_state()
    l0, l1 = s.legal_actions(0), s.legal_actions(1)
    m = np.zeros((len(l0), len(l1)))
    for i, a in enumerate(l0):
        for j, b in enumerate(l1):
            c = s.clone()
            c.apply_actions([a, b])
            m[i, j] = c.returns()[0]
    v, mix = solve_matrix(m)
    return {
        "openspiel_game": gs,
        "value": v,
        "value_method": "LP over the payoff matrix (scipy HiGHS)",
        "actions": [len(l0), len(l1)],
        "action_names": [s.action_to_string(0, a) for a in l0],
        "payoff_matrix": m.tolist(),
        "equilibrium_row_mix": {s.action_to_string(0, a): round(float(x), 9) for a, x in zip(l0, mix) if x > 1e-9},
        "uniform_returns": float(m.mean()),
        "uniform_outcomes": {
            "first_wins": float((m > 0).mean()),
            "draws": float((m == 0).mean()),
            "second_wins": float((m < 0).mean()),
        },
        "information_states": [1, 1],
        "uniform_best_response": [float(m.mean(axis=1).max()), float((-m).mean(axis=0).max())],
        "uniform_exploitability": float((m.mean(axis=1).max() + (-m).mean(axis=0).max()) / 2),
    }


def goofspiel(gs):
    game = pyspiel.load_game(gs)
    key = str  # hands, prizes so far and points: all of the future (imp_info=False)
    v, n = simultaneous_backward_induction(game, key)
    # A check by the sequence-form LP over the turn-based conversion.
    tb = pyspiel.convert_to_turn_based(game)
    v2, size = sequence_form_value(tb)
    return {
        "openspiel_game": gs,
        "value": v,
        "value_method": "backward induction, each simultaneous stage an LP (scipy HiGHS)",
        "value_check_sequence_form_lp_turn_based": v2,
        "nonterminal_states": n,
        "uniform_returns": uniform_return(game.new_initial_state(), key, {}),
        "uniform_outcomes": outcome_shares(game, key),
        "information_states": count_infostates(game),
        **uniform_best_responses(game, key),
    }


def pig_walk(game):
    """Exact expectiminimax value (player 0 maximizes, player 1 minimizes,
    zero-sum) and exact uniform-play return, memoized by (state string,
    player actions so far)."""
    vmemo, umemo, omemo = {}, {}, {}

    def key(state, moves):
        return (str(state), moves)

    def value(state, moves):
        if state.is_terminal():
            return state.returns()[0]
        k = key(state, moves)
        if k in vmemo:
            return vmemo[k]
        if state.is_chance_node():
            v = sum(p * value(state.child(a), moves) for a, p in state.chance_outcomes())
        else:
            vals = [value(state.child(a), moves + 1) for a in state.legal_actions()]
            v = max(vals) if state.current_player() == 0 else min(vals)
        vmemo[k] = v
        return v

    def uniform(state, moves):
        if state.is_terminal():
            x = state.returns()[0]
            return np.array([x, x > 0, x == 0, x < 0], dtype=float)
        k = key(state, moves)
        if k in umemo:
            return umemo[k]
        if state.is_chance_node():
            v = sum(p * uniform(state.child(a), moves) for a, p in state.chance_outcomes())
        else:
            legal = state.legal_actions()
            v = sum(uniform(state.child(a), moves + 1) for a in legal) / len(legal)
        umemo[k] = v
        return v

    root = game.new_initial_state()
    v = value(root, 0)
    decisions = sum(1 for (s, m) in vmemo if "rolling" not in s)
    u = uniform(root, 0)
    return v, decisions, len(vmemo), u


def pig(gs):
    game = pyspiel.load_game(gs)
    v, decisions, positions, u = pig_walk(game)
    return {
        "openspiel_game": gs,
        "value": v,
        "value_method": "expectiminimax over OpenSpiel's states, memoized by (state string, player moves made)",
        "decision_states": decisions,
        "nonterminal_states": positions,
        "uniform_returns": float(u[0]),
        "uniform_outcomes": {"first_wins": float(u[1]), "draws": float(u[2]), "second_wins": float(u[3])},
        **uniform_best_responses(game, pig_key),
    }


def pig_key(state):
    """A pig position: its state string and the player moves made so far
    (the horizon counts them; chance outcomes do not count)."""
    moves = sum(1 for h in state.full_history() if h.player != pyspiel.PlayerId.CHANCE)
    return (str(state), moves)


BUILD = {
    "poker": lambda gs: poker_like(gs),
    "poker+cfr": lambda gs: poker_like(gs, with_cfr=True),
    "tic-tac-toe": tic_tac_toe,
    "matrix": blotto,
    "simultaneous": goofspiel,
    "pig": pig,
    "none": lambda gs: {"openspiel_game": gs},
}


def clean(x):
    """-0.0 as 0.0, rounding noise below 1e-12 as 0.0, numpy numbers as Python's."""
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [clean(v) for v in x]
    if isinstance(x, (float, np.floating)):
        return 0.0 if abs(x) < 1e-12 else float(x)
    if isinstance(x, np.integer):
        return int(x)
    return x


def main(argv):
    wanted = argv or list(ENTRIES)
    data = {}
    if argv and os.path.exists(OUT):
        with open(OUT) as f:
            data = json.load(f)
    data["_about"] = {
        "generator": "tests/reference/openspiel.py",
        "open_spiel": getattr(pyspiel, "__version__", "?"),
        "doc": "see tests/reference/README.md",
    }
    for key in wanted:
        tid, params, gs, kind = ENTRIES[key]
        print(f"{key} ({gs})", file=sys.stderr)
        r = {"tabula_game": tid, "tabula_set": params}
        r.update(BUILD[kind](gs))
        if key == "kuhn-poker":
            r["value_exact"] = "-1/18"
        data[key] = r
        print(f"  value {r.get('value', '-')}", file=sys.stderr)
    ordered = {"_about": data["_about"]}
    data = clean(data)
    for tid in ENTRIES:
        if tid in data:
            ordered[tid] = data[tid]
    with open(OUT, "w") as f:
        json.dump(ordered, f, indent=2, sort_keys=False)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
