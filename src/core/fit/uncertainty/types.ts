/**
 * The Laplace standard errors' options and result (laplace.ts computes them,
 * out.ts fills the result in): a leaf, so the two need not import each other.
 */
import type { Mode } from '../../model/params';

export interface LaplaceOptions {
  mode: Mode;
  /** Diagonal prior precision, natural layout, local coordinates (0: no prior). */
  priorPrecision: Float64Array;
  estimator?: 'laplace' | 'sandwich';
  /** Operation budget of the exact dense path. */
  opLimit?: number;
  /** Force a path (tests). */
  force?: 'exact' | 'block';
}

export interface LaplaceResult {
  method: string;
  thetaSE: Float64Array;
  /** SE of s_j (NaN without sharpness). */
  sSE: Float64Array;
  /** Nominal: SE of a_ik, c_ik (I × Kmax, NaN padding) and b̃_i. Binary: b = −d/a. */
  aSE: Float64Array;
  cSE: Float64Array;
  bSE: Float64Array;
  slopeSE: Float64Array;
  dSE: Float64Array;
  gSE: Float64Array;
  uSE: Float64Array;
  w0SE: number;
  kappaSE: number;
  /** Person-side covariance (reduced coordinates, P × P), exact path only. */
  covPerson?: Float64Array;
  /** Item covariances in reduced coordinates (q_i × q_i). */
  itemCov: Float64Array[];
}
