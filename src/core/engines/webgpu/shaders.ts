import { BTILDE_EPS, type BinaryModel, type Channel, type NominalFlags } from '../../model/types';

/**
 * WGSL for the WebGPU engine. Every kernel is generated for one problem, with
 * Kmax, the flags and the buffer strides baked in as constants, so that the
 * compiler drops unused terms. Two kinds of kernel:
 *
 * - the item kernel: one workgroup per item. It computes b̃_i, then each thread
 *   takes a strided share of the item's cells (contiguous, item-major), computes
 *   the cell's cross-entropy and ∂CE/∂z, adds the item-parameter gradient terms
 *   to private sums and writes the LLM-parameter terms to a per-cell record. A
 *   shared-memory tree sums the private sums; thread 0 then backpropagates b̃
 *   into a and c and writes the item's row of the output (gradients, and the
 *   w0/κ/CE partial sums, which the CPU adds up in float64).
 * - the LLM kernel: one workgroup per LLM, summing the records of its cells
 *   (a CSR list built on upload) into the LLM gradient, added onto the previous
 *   chunk's sums when `accumulate` is set.
 *
 * No atomics: every output element has exactly one writer.
 *
 * Bindings of the item kernel (7 storage buffers, under the default limit of 8):
 *   0 params (uniform), 1 llm parameters, 2 item parameters, 3 item table,
 *   4 cell → LLM, 5 targets, 6 per-cell records, 7 per-item output.
 * Bindings of the LLM kernel: 0 params, 1 CSR, 2 records, 3 LLM output.
 */

/** Probabilities are kept this far from 0 and 1 in binary log-losses (as the fused engine). */
const P_FLOOR = '1e-12';

const f32 = (x: number) => {
  const s = String(x);
  return /[.e]/.test(s) ? s : `${s}.0`;
};

/** Uniform block shared by both kernels: 4 × u32. */
const PARAMS = /* wgsl */ `
struct Params {
  nItems: u32,
  needGrad: u32,
  accumulate: u32,
  pad: u32,
};
@group(0) @binding(0) var<uniform> P: Params;
`;

const SIGMOID = /* wgsl */ `
fn sigm(x: f32) -> f32 {
  if (x >= 0.0) {
    return 1.0 / (1.0 + exp(-x));
  }
  let e = exp(x);
  return e / (1.0 + e);
}
`;

/** Tree sum over the workgroup of NC private values per thread into red[c * WG]. */
const TREE = /* wgsl */ `
  for (var c = 0u; c < NC; c++) {
    red[c * WG + lid] = acc[c];
  }
  workgroupBarrier();
  for (var st = WG / 2u; st > 0u; st = st / 2u) {
    if (lid < st) {
      for (var c = 0u; c < NC; c++) {
        red[c * WG + lid] += red[c * WG + lid + st];
      }
    }
    workgroupBarrier();
  }
`;

/**
 * The end of every kernel: the tree sum (TREE), after which thread 0 runs
 * `store` for each c < NC (red[c * WG] holds sum c) and the other threads
 * return.
 */
const reduceThen = (store: string) => /* wgsl */ `${TREE}
  if (lid != 0u) {
    return;
  }
  for (var c = 0u; c < NC; c++) {
    ${store}
  }`;

/** Bindings 1–7 of an item kernel (see the header comment). */
const ITEM_BINDINGS = /* wgsl */ `
@group(0) @binding(1) var<storage, read> llm: array<f32>;
@group(0) @binding(2) var<storage, read> ip: array<f32>;
@group(0) @binding(3) var<storage, read> items: array<u32>;
@group(0) @binding(4) var<storage, read> cellJ: array<u32>;
@group(0) @binding(5) var<storage, read> tgt: array<f32>;
@group(0) @binding(6) var<storage, read_write> rec: array<f32>;
@group(0) @binding(7) var<storage, read_write> iout: array<f32>;
`;

/**
 * The prologue shared by all kernels: WG and NC, the kernel's own constants
 * (WGSL `const` lines), the uniform block, the kernel's bindings, the
 * workgroup memory of the reduction and the sigmoid.
 */
function prologue(o: { wg: number; nc: number; consts: string; bindings: string }) {
  return /* wgsl */ `
const WG: u32 = ${o.wg}u;
const NC: u32 = ${o.nc}u;${o.consts}
${PARAMS}${o.bindings}
var<workgroup> red: array<f32, ${o.nc * o.wg}>;
${SIGMOID}`;
}

/**
 * Entry point: one workgroup per `index` (an item or an LLM), laid out over
 * two dimensions of workgroups; workgroups at or past `bound` return.
 */
const entry = (index: string, bound: string) => /* wgsl */ `
@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3<u32>,
  @builtin(num_workgroups) nwg: vec3<u32>,
  @builtin(local_invocation_index) lid: u32,
) {
  let ${index} = wid.x + wid.y * nwg.x;
  if (${index} >= ${bound}) {
    return;
  }`;

/** Per-cell record layout of the nominal family: θ, then s, δ[Kmax], ρ[Kmax] when present. */
export function nominalRecord(flags: NominalFlags, Kmax: number) {
  const s = 1;
  const delta = s + (flags.sharpness ? 1 : 0);
  const rho = delta + (flags.position ? Kmax : 0);
  const width = rho + (flags.fallback ? Kmax : 0);
  return { theta: 0, s, delta, rho, width };
}

/** Cell loss on the option distribution: softmax cross-entropy; e = ∂CE/∂z. */
const OPTION_LOSS = /* wgsl */ `
      var sum = 0.0;
      for (var k = 0u; k < Kc; k++) {
        e[k] = exp(z[k] - m);
        sum += e[k];
      }
      let lse = m + log(sum);
      var tsum = 0.0;
      for (var k = 0u; k < Kc; k++) {
        let t = tgt[q * KM + k];
        tsum += t;
        ce += t * (lse - z[k]);
      }
      for (var k = 0u; k < Kc; k++) {
        e[k] = tsum * e[k] / sum - tgt[q * KM + k];
      }`;

/** Cell loss on correctness: binary log-loss of P(key), floored as in the fused engine; e = ∂CE/∂z. */
const BINARY_LOSS = /* wgsl */ `
      var sum = 0.0;
      var sumD = 0.0;
      for (var k = 0u; k < Kc; k++) {
        e[k] = exp(z[k] - m);
        sum += e[k];
        if (k != g) {
          sumD += e[k];
        }
      }
      var pk = e[g] / sum;
      var qk = sumD / sum;
      var gP = 0.0;
      let y = tgt[q];
      let clamped = pk < FLOOR || qk < FLOOR;
      if (pk < FLOOR) {
        pk = FLOOR;
        qk = 1.0 - FLOOR;
      } else if (qk < FLOOR) {
        qk = FLOOR;
        pk = 1.0 - FLOOR;
      }
      ce -= y * log(pk) + (1.0 - y) * log(qk);
      if (!clamped) {
        gP = -y / pk + (1.0 - y) / qk;
      }
      for (var k = 0u; k < Kc; k++) {
        if (k == g) {
          e[k] = gP * pk * qk;
        } else {
          e[k] = -gP * pk * (e[k] / sum);
        }
      }`;

/** Cell loss on the wrong options only: cross-entropy over the distractors; e = ∂CE/∂z (0 at the key). */
const WRONG_LOSS = /* wgsl */ `
      var mw = -3.0e38;
      for (var k = 0u; k < Kc; k++) {
        if (k != g) {
          mw = max(mw, z[k]);
        }
      }
      var sum = 0.0;
      for (var k = 0u; k < Kc; k++) {
        if (k != g) {
          sum += exp(z[k] - mw);
        }
      }
      let lse = mw + log(sum);
      var tsum = 0.0;
      for (var k = 0u; k < Kc; k++) {
        if (k != g) {
          let t = tgt[q * KM + k];
          tsum += t;
          ce += t * (lse - z[k]);
        }
      }
      for (var k = 0u; k < Kc; k++) {
        if (k == g) {
          e[k] = 0.0;
        } else {
          e[k] = tsum * exp(z[k] - lse) - tgt[q * KM + k];
        }
      }`;

/** b̃ of an item and what its backward pass needs (paper eq. 10–11, smooth guard). */
const BTILDE = /* wgsl */ `struct Bt {
  value: f32,
  num: f32,
  den: f32,
  abar: f32,
  m: f32,
  zs: f32,
};

// b̃ of the item whose a, c start at ip[base], ip[base + KM] (paper eq. 10-11, smooth guard).
fn btilde(base: u32, Kc: u32, g: u32) -> Bt {
  var m = -3.0e38;
  for (var k = 0u; k < Kc; k++) {
    if (k != g) {
      m = max(m, ip[base + KM + k]);
    }
  }
  var zs = 0.0;
  var abar = 0.0;
  for (var k = 0u; k < Kc; k++) {
    if (k != g) {
      let w = exp(ip[base + KM + k] - m);
      zs += w;
      abar += w * ip[base + k];
    }
  }
  abar = abar / zs;
  let num = m + log(zs) - ip[base + KM + g];
  let den = ip[base + g] - abar;
  let h = den / (den * den + EPS2);
  return Bt(num * h, num, den, abar, m, zs);
}`;

/** Item output width of the nominal family: ga[Kmax], gc[Kmax], Σgt, Σgt·d (d = θ − b̃ or f_i(θ)), CE. */
export const nominalItemOut = (Kmax: number) => 2 * Kmax + 3;

export function nominalItemShader(o: {
  J: number;
  Kmax: number;
  flags: NominalFlags;
  channel: Channel;
  wg: number;
}): string {
  const { J, Kmax: K, flags, channel, wg } = o;
  const rec = nominalRecord(flags, K);
  const NC = nominalItemOut(K);
  const cellLoss = { option: OPTION_LOSS, binary: BINARY_LOSS, wrong: WRONG_LOSS }[channel];
  const consts = /* wgsl */ `
const KM: u32 = ${K}u;
const J: u32 = ${J}u;
const R: u32 = ${rec.width}u;
const REC_S: u32 = ${rec.s}u;
const REC_D: u32 = ${rec.delta}u;
const REC_RHO: u32 = ${rec.rho}u;
const SHARP: bool = ${flags.sharpness};
const POS: bool = ${flags.position};
const FALLBACK: bool = ${flags.fallback};
const MARGIN: bool = ${flags.gate === 'margin'};
const OFF_S: u32 = J;
const OFF_D: u32 = 2u * J;
const OFF_RHO: u32 = 2u * J + J * KM;
const OFF_W0: u32 = 2u * J + 2u * J * KM;
const EPS2: f32 = ${f32(BTILDE_EPS * BTILDE_EPS)};
const FLOOR: f32 = ${P_FLOOR};`;
  return /* wgsl */ `${prologue({ wg, nc: NC, consts, bindings: ITEM_BINDINGS })}
${BTILDE}

${entry('it', 'P.nItems')}
  let grad = P.needGrad != 0u;
  let s0 = items[it];
  let s1 = items[it + 1u];
  let kg = items[P.nItems + 1u + it];
  let Kc = kg & 255u;
  let g = kg >> 8u;
  let base = it * 2u * KM;
  var bt = Bt(0.0, 0.0, 0.0, 0.0, 0.0, 1.0);
  var w0 = 0.0;
  var kappa = 0.0;
  if (FALLBACK) {
    if (!MARGIN) {
      bt = btilde(base, Kc, g);
    }
    w0 = llm[OFF_W0];
    kappa = llm[OFF_W0 + 1u];
  }
  var acc: array<f32, NC>;
  var v: array<f32, KM>;
  var u: array<f32, KM>;
  var z: array<f32, KM>;
  var e: array<f32, KM>;
  for (var q = s0 + lid; q < s1; q += WG) {
    let j = cellJ[q];
    let theta = llm[j];
    var s = 1.0;
    if (SHARP) {
      s = llm[OFF_S + j];
    }
    var G = 0.0;
    // The gate's distance d (θ − b̃, or the margin f_i(θ) of eq. 8) and dd/dθ;
    // the margin's distractor max and normaliser, for its gradient.
    var dist = 0.0;
    var dslope = 1.0;
    var mr = 0.0;
    var zr = 1.0;
    if (FALLBACK) {
      if (MARGIN) {
        mr = -3.0e38;
        for (var k = 0u; k < Kc; k++) {
          if (k != g) {
            mr = max(mr, ip[base + k] * theta + ip[base + KM + k]);
          }
        }
        zr = 0.0;
        var ar = 0.0;
        for (var k = 0u; k < Kc; k++) {
          if (k != g) {
            let wr = exp(ip[base + k] * theta + ip[base + KM + k] - mr);
            zr += wr;
            ar += wr * ip[base + k];
          }
        }
        dist = ip[base + g] * theta + ip[base + KM + g] - mr - log(zr);
        dslope = ip[base + g] - ar / zr;
      } else {
        dist = theta - bt.value;
      }
      G = sigm(w0 - kappa * dist);
    }
    var m = -3.0e38;
    for (var k = 0u; k < Kc; k++) {
      var vk = ip[base + k] * theta + ip[base + KM + k];
      if (POS) {
        vk += llm[OFF_D + j * KM + k];
      }
      v[k] = vk;
      u[k] = s * vk;
      if (FALLBACK) {
        z[k] = (1.0 - G) * u[k] + G * llm[OFF_RHO + j * KM + k];
      } else {
        z[k] = u[k];
      }
      m = max(m, z[k]);
    }
    var ce = 0.0;
    ${cellLoss}
    acc[NC - 1u] += ce;
    if (!grad) {
      continue;
    }
    let rb = q * R;
    var gG = 0.0;
    var gs = 0.0;
    var gth = 0.0;
    for (var k = 0u; k < Kc; k++) {
      var gu = e[k];
      if (FALLBACK) {
        gu = e[k] * (1.0 - G);
        gG += e[k] * (llm[OFF_RHO + j * KM + k] - u[k]);
        rec[rb + REC_RHO + k] = e[k] * G;
      }
      gs += gu * v[k];
      let gv = gu * s;
      acc[k] += gv * theta;
      acc[KM + k] += gv;
      if (POS) {
        rec[rb + REC_D + k] = gv;
      }
      gth += gv * ip[base + k];
    }
    for (var k = Kc; k < KM; k++) {
      if (POS) {
        rec[rb + REC_D + k] = 0.0;
      }
      if (FALLBACK) {
        rec[rb + REC_RHO + k] = 0.0;
      }
    }
    if (FALLBACK) {
      let gt = gG * G * (1.0 - G);
      acc[2u * KM] += gt;
      acc[2u * KM + 1u] += gt * dist;
      gth -= gt * kappa * dslope;
      if (MARGIN) {
        // ∂f/∂a_k = e_k θ, ∂f/∂c_k = e_k: e_key = 1, e_k = −w_k (distractor softmax at θ).
        let gf = -gt * kappa;
        for (var k = 0u; k < Kc; k++) {
          var ek = 1.0;
          if (k != g) {
            ek = -exp(ip[base + k] * theta + ip[base + KM + k] - mr) / zr;
          }
          acc[k] += gf * ek * theta;
          acc[KM + k] += gf * ek;
        }
      }
    }
    rec[rb] = gth;
    if (SHARP) {
      rec[rb + REC_S] = gs;
    }
  }
${reduceThen('iout[it * NC + c] = red[c * WG];')}
  let ob = it * NC;
  // b̃ backward: ∂CE/∂b̃ = κ Σ gt, into a and c of this item.
  let gb = kappa * red[2u * KM * WG];
  if (FALLBACK && !MARGIN && grad && gb != 0.0) {
    let d2 = bt.den * bt.den;
    let qq = d2 + EPS2;
    let gnum = gb * bt.den / qq;
    let gden = gb * bt.num * (EPS2 - d2) / (qq * qq);
    for (var k = 0u; k < Kc; k++) {
      if (k == g) {
        iout[ob + KM + k] -= gnum;
        iout[ob + k] += gden;
      } else {
        let wk = exp(ip[base + KM + k] - bt.m) / bt.zs;
        iout[ob + KM + k] += gnum * wk - gden * wk * (ip[base + k] - bt.abar);
        iout[ob + k] -= gden * wk;
      }
    }
  }
}
`;
}

/** Item output width of the binary family: ga, gd, gg, gu, CE. */
export const BINARY_ITEM_OUT = 5;

/** Item kernel of the binary family (P = g + (u − g) σ(aθ + d) on correctness). */
export function binaryItemShader(o: { model: BinaryModel; wg: number }): string {
  const useG = o.model === '3pl' || o.model === '4pl';
  const useU = o.model === '4pl';
  const consts = /* wgsl */ `
const USE_G: bool = ${useG};
const USE_U: bool = ${useU};
const FLOOR: f32 = ${P_FLOOR};`;
  return /* wgsl */ `${prologue({ wg: o.wg, nc: BINARY_ITEM_OUT, consts, bindings: ITEM_BINDINGS })}
${entry('it', 'P.nItems')}
  let grad = P.needGrad != 0u;
  let s0 = items[it];
  let s1 = items[it + 1u];
  let a = ip[it * 4u];
  let d = ip[it * 4u + 1u];
  var gl = 0.0;
  var gu = 1.0;
  if (USE_G) {
    gl = ip[it * 4u + 2u];
  }
  if (USE_U) {
    gu = ip[it * 4u + 3u];
  }
  var acc: array<f32, NC>;
  for (var q = s0 + lid; q < s1; q += WG) {
    let theta = llm[cellJ[q]];
    let y = tgt[q];
    let x = a * theta + d;
    let sg = sigm(x);
    let sc = sigm(-x);
    // P and 1 − P, each in a form without cancellation.
    var p = gl + (gu - gl) * sg;
    var r = (1.0 - gu) + (gu - gl) * sc;
    let clamped = p < FLOOR || r < FLOOR;
    if (p < FLOOR) {
      p = FLOOR;
      r = 1.0 - FLOOR;
    } else if (r < FLOOR) {
      r = FLOOR;
      p = 1.0 - FLOOR;
    }
    acc[4] -= y * log(p) + (1.0 - y) * log(r);
    if (!grad) {
      continue;
    }
    var gx = 0.0;
    if (!clamped) {
      let gP = -y / p + (1.0 - y) / r;
      gx = gP * (gu - gl) * sg * sc;
      acc[0] += gx * theta;
      acc[1] += gx;
      if (USE_G) {
        acc[2] += gP * sc;
      }
      if (USE_U) {
        acc[3] += gP * sg;
      }
    }
    rec[q] = gx * a;
  }
${reduceThen('iout[it * NC + c] = red[c * WG];')}
}
`;
}

/** LLM kernel: sums the `width`-float records of each LLM's cells. */
export function llmShader(o: { J: number; width: number; wg: number }): string {
  const bindings = /* wgsl */ `
@group(0) @binding(1) var<storage, read> csr: array<u32>;
@group(0) @binding(2) var<storage, read> rec: array<f32>;
@group(0) @binding(3) var<storage, read_write> lout: array<f32>;
`;
  const consts = /* wgsl */ `
const J: u32 = ${o.J}u;`;
  return /* wgsl */ `${prologue({ wg: o.wg, nc: o.width, consts, bindings })}
${entry('j', 'J')}
  var acc: array<f32, NC>;
  let p1 = csr[j + 1u];
  for (var p = csr[j] + lid; p < p1; p += WG) {
    let rb = csr[J + 1u + p] * NC;
    for (var c = 0u; c < NC; c++) {
      acc[c] += rec[rb + c];
    }
  }
${reduceThen(`var prev = 0.0;
    if (P.accumulate != 0u) {
      prev = lout[j * NC + c];
    }
    lout[j * NC + c] = prev + red[c * WG];`)}
}
`;
}
