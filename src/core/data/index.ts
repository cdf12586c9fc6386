/**
 * Data loading for the workbench: parsers for wide, long, items and
 * lm-evaluation-harness files, the Dataset builder, summaries and writers.
 * Browser- and worker-safe; Node disk loading lives in `./node.ts`.
 */
export * from './types.ts';
export { DatasetBuilder, type ItemRecord, type ItemsTable, type Where } from './builder.ts';
export { assembleDataset, DEFAULT_MAX_DENSE_BYTES } from './assemble.ts';
export type { ChunkParser, StreamOptions } from './csv.ts';
export { detectFormat, type FileFormat } from './detect.ts';
export { createWideParser, type ValueOptions } from './wide.ts';
export { createLongParser } from './long.ts';
export { createItemsParser } from './items.ts';
export { createHarnessParser, harnessTaskName, type HarnessOptions } from './harness.ts';
export {
  loadDataset,
  loadSources,
  type ByteSource,
  type LoadInput,
  type LoadOptions,
} from './load.ts';
export { itemHash, type SampleOptions } from './sample.ts';
export {
  estimateLoad,
  loadBytes,
  type EstimateInput,
  type EstimateOptions,
  type LoadEstimate,
  type LoadShape,
} from './estimate.ts';
export type { InvalidUtf8, SourceChunk } from './decode.ts';
export { datasetSummary, type DatasetSummary } from './summary.ts';
export { subsetDataset } from './subset.ts';
export { writeWideCsv, writeLongCsv, writeItemsCsv } from './write.ts';
