/**
 * Deciding what a file's values are when nothing declares it: any negative value
 * means log-probabilities (then all must be <= 0); all values in [0, 1] with row
 * sums at most 1.01 means probabilities; anything else is unnormalised weights.
 */
import { DataError, type ValueKind } from './types.ts';

interface Spot {
  line: number;
  column: string;
  value: number;
}

/** The chosen kind and why, as recorded in `SourceInfo`. */
export interface KindChoice {
  kind: ValueKind;
  reason: string;
}

/** Tolerance on row sums for calling values probabilities. */
const PROB_SUM_SLACK = 0.01;

/** Collects the statistics the detection rule needs while a file streams past. */
export class KindDetector {
  private firstNeg: Spot | null = null;
  private firstPos: Spot | null = null;
  private firstAbove1: Spot | null = null;
  private maxSum = 0;
  private maxSumLine = 0;

  /** Records one non-blank value. */
  value(v: number, line: number, column: string): void {
    if (v < 0) {
      if (!this.firstNeg) this.firstNeg = { line, column, value: v };
    } else if (v > 0) {
      if (!this.firstPos) this.firstPos = { line, column, value: v };
      if (v > 1 && !this.firstAbove1) this.firstAbove1 = { line, column, value: v };
    }
  }

  /** Records the sum of one row's non-blank values. */
  rowSum(sum: number, line: number): void {
    if (sum > this.maxSum) {
      this.maxSum = sum;
      this.maxSumLine = line;
    }
  }

  /** Applies the rule; throws when negative and positive values are mixed. */
  decide(file: string): KindChoice {
    const neg = this.firstNeg;
    if (neg) {
      const pos = this.firstPos;
      if (pos)
        throw new DataError(
          `value ${pos.value} is positive, but line ${neg.line} column ${neg.column} has the ` +
            `negative value ${neg.value}, so the file was read as log-probabilities`,
          file,
          pos.line,
          pos.column,
          'all values <= 0 (log-probabilities) or all >= 0 (probabilities or weights)',
        );
      return {
        kind: 'logprob',
        reason: `negative values (first at line ${neg.line}, column ${neg.column}): log-probabilities`,
      };
    }
    const above = this.firstAbove1;
    if (above)
      return {
        kind: 'weight',
        reason: `value ${above.value} above 1 at line ${above.line}: unnormalised weights`,
      };
    if (this.maxSum > 1 + PROB_SUM_SLACK)
      return {
        kind: 'weight',
        reason: `row sum ${this.maxSum.toPrecision(4)} above 1.01 at line ${this.maxSumLine}: unnormalised weights`,
      };
    return { kind: 'prob', reason: 'all values in [0, 1] and row sums <= 1.01: probabilities' };
  }
}
