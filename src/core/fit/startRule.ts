/**
 * Which of the final fit's two starts is kept (branch.ts), in a leaf so the
 * page shows the same rule and t without the fitting code.
 */
import { pairedT } from '../stats/paired';
import { CV_FOLDS } from './cellFolds';

/**
 * The open start's optimum is kept only where its fits on the folds predict
 * their held-out cells better than the shut start's with a paired t over the
 * folds above this: the gate opens on evidence, not on a tie. Scored by the
 * folds' own starts, the NAEP demos' open fits never did better (the open
 * start's t: economics −0.75 and −0.15 at two seeds' λ; the pooled demo worse
 * on every fold; reading 0.3125 against 0.3055 per cell), and with a plain
 * comparison the economics demo's fit flipped between its two optima over
 * fold seeds (θ by up to 1.98 SE); the simulated set with the gate open
 * (30 × 200, λ 16) gave t 29.
 */
export const OPEN_T = 2;

/**
 * The paired t of the open start's gain in held-out loss per fold over the
 * shut start's (the same folds, in order): positive where the open start
 * predicts better. With R draws of the folds (`foldLoss.length / CV_FOLDS`)
 * every cell is in R folds, so the t over the folds is divided by √R.
 */
export function openGainT(open: readonly number[], shut: readonly number[]): number {
  return pairedT(shut, open) / Math.sqrt(Math.max(1, open.length / CV_FOLDS));
}

/** Index of the start kept (0 open, 1 shut): the open start only where `openGainT` is above OPEN_T. */
export function keptStart(open: readonly number[], shut: readonly number[]): number {
  return openGainT(open, shut) > OPEN_T ? 0 : 1;
}
