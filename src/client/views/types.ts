import type { Dataset } from '../../core/data/types';
import type { FitJson } from '../../core/fit/types';

/** What every results view receives. */
export interface ViewProps {
  fit: FitJson;
  ds: Dataset;
  /** Selected item index (shared by the Items and Distractors views). */
  item: number;
  onItem: (i: number) => void;
}
