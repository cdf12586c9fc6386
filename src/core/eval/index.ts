/** Evaluation runs of the paper's tables and figures (Tables 1–3, Figs 2a/2b, 3b). */
export * from './common';
export * from './predict';
export * from './metrics';
export * from './folds';
export * from './cv';
export * from './names';
export * from './external';
export * from './wrong';
export * from './info';
export * from './calibrate';
