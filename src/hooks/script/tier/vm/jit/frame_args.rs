//! API calls on registers (api_regs.rs) whose other arguments are read
//! in the frame: a local there, or `xs[i]` of a list there by a constant
//! number (`offset(c, d[0], d[1])`). Native code reads each into the
//! call's array by the `frame_arg` helper, which neither counts nor
//! fails. Where every one is of its parameter's kind, the items are
//! counted in native code and the form is called on registers alone.
//! Else the call is made as before: by the helper that reads them
//! itself (`read_regs`), or by its way for any value.

use cranelift_codegen::ir::{BlockArg, InstBuilder, MemFlagsData, Value, types::I64};
use rhai::Position;

use super::super::api_regs::{Kind, Regs, held};
use super::super::lists;
use super::super::value::V;
use super::emit::Emit;
use super::helpers::vm_parts;
use super::types::Ty;
use super::{ApiUnit, Arg, CTX_ERR, Ctx};

const FLAGS: MemFlagsData = MemFlagsData::trusted();

/// `frame_arg`'s code: a symbol is read (else a number)...
const SYM: i64 = 1;
/// ...an item of the list in the slot (else the local itself).
const ITEM: i64 = 2;

/// An argument read in the frame: its place in the call, its slot, its
/// item (None: the local itself) and its parameter's kind.
pub(super) struct Read {
    i: usize,
    slot: usize,
    item: Option<i64>,
    kind: Kind,
}

/// The reads of a call's arguments on form `r`, where each argument
/// not in a register is a local or an item in the frame (of a number or
/// symbol parameter); None where there is none or another.
pub(super) fn reads(tags: &[Arg], r: &Regs) -> Option<Vec<Read>> {
    let mut out = Vec::new();
    for (i, (tag, kind)) in tags.iter().zip(r.params).enumerate() {
        let (slot, item) = match *tag {
            Arg::Reg(_) => continue,
            Arg::Frame(s) => (s, None),
            Arg::Item(s, at) => (s, Some(at)),
            _ => return None,
        };
        if !matches!(kind, Kind::Int | Kind::Sym) {
            return None;
        }
        out.push(Read {
            i,
            slot,
            item,
            kind,
        });
    }
    (!out.is_empty()).then_some(out)
}

impl Emit<'_, '_> {
    /// API call `unit` on form `r`, its arguments in registers in the
    /// array at `argp` but for `reads`: those read into the array, then
    /// the form called on registers (the items counted first, as
    /// `read_regs` counts them), or, where one is not of its kind, the
    /// call by `unit` as it is.
    pub(super) fn frame_args(
        &mut self,
        unit: ApiUnit,
        r: &'static Regs,
        reads: &[Read],
        argp: Value,
    ) -> Value {
        let mut all = None;
        for rd in reads {
            let out = self.b.ins().iadd_imm_s(argp, 8 * rd.i as i64);
            let code = if rd.kind == Kind::Sym { SYM } else { 0 } | rd.item.map_or(0, |_| ITEM);
            let (k, at, code) = (
                self.b.ins().iconst(I64, rd.slot as i64),
                self.b.ins().iconst(I64, rd.item.unwrap_or(0)),
                self.b.ins().iconst(I64, code),
            );
            let call = (self.b.ins()).call(self.refs.frame_arg, &[self.ctx, k, at, code, out]);
            let ok = self.b.inst_results(call)[0];
            all = Some(match all {
                Some(a) => self.b.ins().band(a, ok),
                None => ok,
            });
        }
        let Some(all) = all else {
            unreachable!("`reads` gives at least one read")
        };
        let (fast, slow, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let value = self.b.append_block_param(join, I64);
        self.b.ins().brif(all, fast, &[], slow, &[]);
        self.go(fast);
        for _ in reads.iter().filter(|rd| rd.item.is_some()) {
            self.track(Position::NONE);
        }
        let args = (unit.args.iter().zip(r.params))
            .map(|(tag, kind)| match (tag, kind) {
                (Arg::Reg(t), _) => Arg::Reg(*t),
                (_, Kind::Sym) => Arg::Reg(Ty::Sym),
                _ => Arg::Reg(Ty::Int),
            })
            .collect();
        let on_regs = ApiUnit {
            x: unit.x,
            args,
            ret: unit.ret,
            plain: true,
            first: unit.first,
            regs: Some(r),
            in_regs: true,
            pos: unit.pos,
        };
        let v = self.api_unit(on_regs, argp);
        self.b.ins().jump(join, &[BlockArg::from(v)]);
        self.b.set_cold_block(slow);
        self.go(slow);
        let v = self.api_unit(unit, argp);
        self.b.ins().jump(join, &[BlockArg::from(v)]);
        self.go(join);
        value
    }

    /// API call `unit` on the arguments at `argp` by the `api_regs`
    /// helper (where it has a form on registers) or the `api` helper.
    pub(super) fn api_unit(&mut self, unit: ApiUnit, argp: Value) -> Value {
        let helper = if unit.regs.is_some() {
            self.refs.api_regs
        } else {
            self.refs.api
        };
        self.units.apis.push(unit);
        let u = self.b.ins().iconst(I64, (self.units.apis.len() - 1) as i64);
        let r = self.helper(helper, &[u, argp]);
        let e = self.b.ins().load(I64, FLAGS, self.ctx, CTX_ERR);
        self.fail_to_err(e);
        r
    }
}

/// Local `k` of the frame (or item `at` of the list there, where `code`
/// has `ITEM`) as a register of the kind `code` says, written to `out`:
/// 1, or 0 where it is not there or not of that kind (nothing counted or
/// written).
pub(super) extern "C" fn frame_arg(
    ctx: *mut Ctx,
    k: i64,
    at: i64,
    code: i64,
    out: *mut i64,
) -> i64 {
    // SAFETY: called only by native code, with its context.
    let (_, vm) = unsafe { vm_parts(ctx) };
    let kind = if code & SYM != 0 {
        Kind::Sym
    } else {
        Kind::Int
    };
    let v = vm.local(k as usize);
    let v = if code & ITEM == 0 {
        v
    } else {
        let V::List(l) = v else { return 0 };
        match lists::at(l.len(), at).and_then(|i| l.get(i)) {
            Some(v) => v,
            None => return 0,
        }
    };
    let Some(n) = held(kind, v) else { return 0 };
    super::note_frame_arg();
    // SAFETY: `out` is the call's array in native code's frame, one
    // value for each argument, `i` among them (`frame_args`).
    unsafe { *out = n };
    1
}
