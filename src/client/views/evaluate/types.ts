import type { Dataset } from '../../../core/data/types';
import type { EvalFitSettings } from '../../../boundary/evaluateProtocol';

/** What every evaluation section receives. */
export interface SectionProps {
  ds: Dataset;
  /** Settings for every fit the run makes (engine, optimiser, steps). */
  fitSettings: EvalFitSettings;
  /** A load or fit is running: Run waits for it. */
  busy: boolean;
}
