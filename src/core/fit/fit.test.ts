import { describe, expect, it } from 'vitest';
import { fitDataset, fitDatasetFull } from './fit';
import { gateOf } from '../model/gate';
import { simulateNominal } from '../model/simulate';
import { allBtilde, nominalProbs } from '../model/nominal';
import { nominalFlags } from '../model/types';
import { meanSd } from '../model/math';
import { pearson, spearman } from '../stats/corr';
import { REFERENCE_PRIORS } from '../model/hprior';
import { GTOL, PAPER_ADAM, type FitJson } from './types';
import { STRENGTH_LIMITS } from './strength';

// Recovery floors of the LLM terms, set from a measured run (default fit at
// commit 1e97142: Spearman s 0.955, Pearson ρ 0.989, Pearson δ 0.749 after
// double-centring the truth, w0 −3.66, κ 1.10) with a margin for prior changes.
// w0 is biased low (truth −2): its tolerance says how far, it is not a claim of
// recovery. The truth's gate is eq. 10's (simulateNominal's) and the fit's the
// margin's, so w0 and κ are not the same parameters; the cell probabilities
// (meanAbsProbGap) are what is recovered. With a, c and log s at fixed priors
// (hprior.ts FIXED_PRIORS): default w0 −4.54, κ 1.48, gap 0.0115.
const S_MIN = 0.9;
const RHO_MIN = 0.95;
const DELTA_MIN = 0.6;
const W0_TOL = 3;
const KAPPA_TOL = 0.6;

describe('recovery on data simulated from LLM-NRM (60 LLMs × 400 items, mixed K, 10% missing)', () => {
  const sim = simulateNominal({ J: 60, I: 400, seed: 5, missing: 0.1, concentration: 200 });
  const { data, truth, layout: L } = sim;
  const figuresOf = (fit: FitJson) => {
    const thetaTrue = Array.from(truth.subarray(L.theta, L.theta + data.J));
    const thetaHat = fit.llms.map((l) => l.theta);
    const rTheta = spearman(thetaHat, thetaTrue);
    // Option parameters are compared after putting θ on the true scale: the
    // well-posed fit standardises θ, so a scales by sd(θ_true) and c shifts.
    const { sd } = meanSd(thetaTrue);
    const aT: number[] = [];
    const aH: number[] = [];
    const cT: number[] = [];
    const cH: number[] = [];
    fit.items.forEach((it, i) => {
      it.a!.forEach((v, k) => {
        aH.push(v);
        aT.push(truth[L.a + i * L.Kmax + k] * sd);
        cH.push(it.c![k]);
        cT.push(truth[L.c + i * L.Kmax + k]);
      });
    });
    const sT = Array.from(truth.subarray(L.s, L.s + data.J));
    const rhoT: number[] = [];
    const rhoH: number[] = [];
    fit.llms.forEach((l, j) =>
      l.rho.forEach((v, k) => (rhoH.push(v), rhoT.push(truth[L.rho + j * L.Kmax + k]))),
    );
    // Mean absolute gap between fitted and true cell probabilities.
    // The truth's gate is eq. 10's (simulateNominal's default); the fit's is its own.
    const flags = nominalFlags('llmnrm', 'eq10');
    const fitFlags = nominalFlags('llmnrm', gateOf(fit));
    const btT = allBtilde(truth, L, data.nOptions, data.key);
    const pT = new Float64Array(L.Kmax);
    let gap = 0;
    let n = 0;
    const nat = new Float64Array(L.size);
    fit.llms.forEach((l, j) => {
      nat[L.theta + j] = l.theta;
      nat[L.s + j] = l.s;
      l.delta.forEach((v, k) => (nat[L.delta + j * L.Kmax + k] = v));
      l.rho.forEach((v, k) => (nat[L.rho + j * L.Kmax + k] = v));
    });
    fit.items.forEach((it, i) =>
      it.a!.forEach(
        (v, k) => ((nat[L.a + i * L.Kmax + k] = v), (nat[L.c + i * L.Kmax + k] = it.c![k])),
      ),
    );
    nat[L.w0] = fit.global.w0;
    nat[L.kappa] = fit.global.kappa;
    const btH = allBtilde(nat, L, data.nOptions, data.key);
    const pH = new Float64Array(L.Kmax);
    for (let j = 0; j < data.J; j++)
      for (let i = 0; i < data.I; i++) {
        if (!data.observed[j * data.I + i]) continue;
        const K = data.nOptions[i];
        nominalProbs(truth, L, flags, j, i, K, data.key[i], btT[i], pT);
        nominalProbs(nat, L, fitFlags, j, i, K, data.key[i], btH[i], pH);
        for (let k = 0; k < K; k++) gap += Math.abs(pT[k] - pH[k]);
        n += K;
      }
    // δ: the default double-centres δ (over positions and over LLMs); centre the truth the same way.
    const K = L.Kmax;
    const dT = Array.from(truth.subarray(L.delta, L.delta + data.J * K));
    for (let k = 0; k < K; k++) {
      let m = 0;
      for (let j = 0; j < data.J; j++) m += dT[j * K + k] / data.J;
      for (let j = 0; j < data.J; j++) dT[j * K + k] -= m;
    }
    const dH = fit.llms.flatMap((l) => l.delta);
    return {
      spearmanTheta: rTheta,
      pearsonA: pearson(aH, aT),
      pearsonC: pearson(cH, cT),
      spearmanS: spearman(
        fit.llms.map((l) => l.s),
        sT,
      ),
      pearsonRho: pearson(rhoH, rhoT),
      pearsonDelta: pearson(dH, dT),
      w0: fit.global.w0,
      kappa: fit.global.kappa,
      meanAbsProbGap: gap / n,
    };
  };

  it('the default recovers θ, item parameters, sharpness and the cell probabilities, converged', async () => {
    const fit = await fitDataset(data, { model: 'llmnrm' });
    expect(fit.converged).toBe(true);
    const figures = figuresOf(fit);
    console.log('recovery figures (default)', JSON.stringify(figures));
    // Of the two starts (branch.ts) the documented one, gate open, predicts the
    // search's held-out cells better here, as the truth's gate is open.
    expect(fit.priorSelection?.starts?.map((t) => [t.start, t.kept])).toEqual([
      ['open', true],
      ['shut', false],
    ]);
    expect(figures.spearmanTheta).toBeGreaterThan(0.95);
    expect(figures.meanAbsProbGap).toBeLessThan(0.025);
    // Since the final fit starts from the documented start (issue 27; λ is at
    // the ladder's top or above, so path.ts adds no rung) the default keeps this set's gate open, as simulated, and
    // recovers ρ and δ too (measured: ρ 0.960, δ 0.834). λ scales δ and ρ
    // only; a, c and log s sit at fixed priors, which pin them better than
    // the search's weakest λ did for every group (measured a 0.942, c 0.925,
    // s 0.989; before, at λ 16 for all groups: a 0.802, c 0.731, s 0.847).
    expect(figures.pearsonA).toBeGreaterThan(0.9);
    expect(figures.pearsonC).toBeGreaterThan(0.88);
    expect(figures.spearmanS).toBeGreaterThan(0.95);
    expect(figures.pearsonRho).toBeGreaterThan(RHO_MIN);
    expect(figures.pearsonDelta).toBeGreaterThan(DELTA_MIN);
    expect(Math.abs(figures.w0 - -2)).toBeLessThan(W0_TOL);
    expect(Math.abs(figures.kappa - 1)).toBeLessThan(KAPPA_TOL);
  });

  // A fixed prior strength λ = 4 from the documented start (no strength
  // search), as the paper fits: every parameter group recovered more tightly.
  it('with the gate open, recovers ρ, δ, w0 and κ', async () => {
    const fit = await fitDataset(data, { model: 'llmnrm', priorStrength: 4 });
    const figures = figuresOf(fit);
    console.log('recovery figures (λ = 4)', JSON.stringify(figures), fit.stopReason, fit.gradNorm);
    expect(figures.spearmanS).toBeGreaterThan(S_MIN);
    expect(figures.pearsonRho).toBeGreaterThan(RHO_MIN);
    expect(figures.pearsonDelta).toBeGreaterThan(DELTA_MIN);
    // Truth w0 = −2, κ = 1 on θ ~ N(0, 1); the fit standardises θ (sd ≈ 1 here).
    expect(Math.abs(figures.w0 - -2)).toBeLessThan(W0_TOL);
    expect(Math.abs(figures.kappa - 1)).toBeLessThan(KAPPA_TOL);
  }, 300_000);
});

describe('optimisers and posing', () => {
  const { data } = simulateNominal({ J: 30, I: 120, seed: 9, missing: 0.05, concentration: 100 });

  it('the default: search, two starts and their refits converge in fewer passes than two paper Adam-2500 fits', async () => {
    // Cross-entropies are not comparable: the default's data-chosen priors give
    // up training fit for held-out likelihood by design (docs/priors.md).
    // Since λ is chosen by 5-fold cross-validation (issue 27) the search costs
    // about five times the old single hold-out (here 2,453 passes; the final fit
    // 1,995 at λ 16, 4900.10, where one start from the folds' mean had
    // taken 848 to a worse optimum, 4940.79): the speed issue is where it is to
    // be won back, not this bound. Since the final fit runs from two starts
    // and refits both on the folds (branch.ts) and the search's inner fits take
    // exact curvature blocks: search 755, fit 3,220 with the refits (3,975 in
    // all, was 4,448).
    const fast = await fitDataset(data, { model: 'llmnrm' });
    const search = fast.priorSelection?.passes ?? 0;
    console.log('default vs adam-2500 passes', { fit: fast.passes, search });
    expect(fast.converged).toBe(true);
    expect(fast.priorSelection?.starts?.length).toBe(2);
    expect(search).toBeGreaterThan(0);
    expect(search).toBeLessThan(PAPER_ADAM.steps);
    expect(fast.passes + search).toBeLessThan(2 * PAPER_ADAM.steps);
  });

  it('under the well-posed default a fit twice as long changes nothing; in paper mode θ keeps shrinking', async () => {
    const a = await fitDatasetFull(data, { model: 'nrm-soft', optimizer: 'adam', steps: 1500 });
    const b = await fitDatasetFull(data, { model: 'nrm-soft', optimizer: 'adam', steps: 3000 });
    const sdA = (f: typeof a) => meanSd(f.json.items.flatMap((it) => it.a!)).sd;
    expect(Math.abs(sdA(a) - sdA(b)) / sdA(a)).toBeLessThan(0.01);
    expect(Math.abs(a.json.objective - b.json.objective) / a.json.objective).toBeLessThan(1e-4);
    const p1 = await fitDataset(data, {
      model: 'nrm-soft',
      mode: 'paper',
      optimizer: 'adam',
      steps: 1500,
    });
    const p2 = await fitDataset(data, {
      model: 'nrm-soft',
      mode: 'paper',
      optimizer: 'adam',
      steps: 3000,
    });
    const sdT = (f: typeof p1) => meanSd(f.llms.map((l) => l.theta)).sd;
    expect(sdT(p2)).toBeLessThan(sdT(p1) * 0.97);
  }, 300_000);

  it('the default converges on its gradient test and reports why it stopped', async () => {
    const fit = await fitDataset(data, { model: 'llmnrm' });
    expect(fit.converged).toBe(true);
    expect(fit.stopReason).toBe('gradient');
    expect(fit.gradNorm!).toBeLessThanOrEqual(GTOL);
    // Steps of every run of the final fit together (runFast: the ladder's rungs,
    // path.ts, then λ), all within settings.steps.
    expect(fit.steps).toBeLessThan(fit.settings.steps);
    // The chosen strength is one of the candidates: the one with the lowest
    // held-out loss, kept within STRENGTH_LIMITS (a candidate beyond, 32, is a
    // neighbour only: where it is best, λ is the range's end, 16).
    const sel = fit.priorSelection!;
    const best = sel.trials.reduce((m, t) => (t.heldOutLoss < m.heldOutLoss ? t : m));
    const [lo, hi] = STRENGTH_LIMITS;
    expect(sel.lambda).toBe(Math.min(hi, Math.max(lo, best.lambda)));
    expect(sel.trials.map((t) => t.lambda)).toContain(sel.lambda);
    expect(fit.settings.priorStrength).toBe(sel.lambda);
    // λ scales the positional bias and fallback; a, c and log s sit at their fixed sds.
    const fixed: Record<string, number> = { a: 2, c: 6, logS: 0.3 };
    for (const p of fit.priors!) {
      const sd = fixed[p.group] ?? REFERENCE_PRIORS[p.group].sd * sel.lambda;
      expect(p.sd).toBeCloseTo(sd, 12);
      expect(p.learned).toBe(fixed[p.group] === undefined);
    }
  });

  it('a converged fast fit restarted from its own end stays put', async () => {
    const first = await fitDatasetFull(data, { model: 'llmnrm' });
    const again = await fitDatasetFull(data, { model: 'llmnrm', warmup: 0 }, { start: first.x });
    expect(
      Math.abs(again.json.objective - first.json.objective) / first.json.objective,
    ).toBeLessThan(1e-5);
    const dTheta = Math.max(
      ...first.json.llms.map((l, j) => Math.abs(l.theta - again.json.llms[j].theta)),
    );
    expect(dTheta).toBeLessThan(0.02);
  });

  it('cancelling rejects with AbortError', async () => {
    const ac = new AbortController();
    const p = fitDataset(
      data,
      { model: 'llmnrm', optimizer: 'adam', steps: 100000 },
      {
        signal: ac.signal,
        onProgress: (s) => s.step > 5 && ac.abort(),
      },
    );
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('every model type fits to finite numbers', async () => {
    for (const model of [
      'no-sharpness',
      'no-position',
      'no-fallback',
      'nrm-soft',
      'nrm-hard',
      '1pl',
      '2pl',
      '3pl',
      '4pl',
    ] as const) {
      const f = await fitDataset(data, { model, steps: 300 });
      expect(Number.isFinite(f.objective)).toBe(true);
      expect(f.llms.every((l) => Number.isFinite(l.theta) && Number.isFinite(l.thetaSE))).toBe(
        true,
      );
      expect(
        spearman(
          f.llms.map((l) => l.theta),
          f.llms.map((l) => l.accuracy),
        ),
      ).toBeGreaterThan(0.5);
    }
  });
});
