/** The lab's data sets: the NYC TLC yellow-taxi files when present, else the deterministic synthetic month. */
export {
  type Dataset,
  type DatasetOptions,
  DONE_MARKER,
  type DoneMarker,
  datasetCacheDir,
  type LazyDataset,
  lazyDataset,
  prepareDataset,
} from './dataset';
export { DatasetError } from './errors';
export {
  FEBRUARY_DAYS,
  FEBRUARY_ID_OFFSET,
  type FebruaryDay,
  type Figures,
  FULL_SCALE,
  type LabDay,
  MAX_SCALE,
  MIN_SCALE,
  SERVED_SCALES,
  scaledFigures,
  VENDORS,
  type Vendor,
  type VendorCounts,
} from './figures';
export { DATASET_COLUMNS, TLC_COLUMNS, TRIP_ID } from './schema';
export { type FebruaryDetail, februaryDetail } from './synthetic';
export { checkTlcSchema, TLC_FEBRUARY, TLC_JANUARY } from './tlc';
