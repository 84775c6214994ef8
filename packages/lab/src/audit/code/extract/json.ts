/**
 * The JSON extractor: Databricks Jobs API specs (`spark_conf` of `new_cluster`, `job_clusters`, `tasks`,
 * `clusters`; `--conf` in `spark_submit_task` parameters) and any JSON object keyed by Delta's Spark confs. JSON is
 * YAML 1.2: config-settings.ts reads it into the YAML parser's nodes (json-tree.ts), each value at its exact place.
 */
import type { Extractor } from '../setting';
import { configSettings } from './config-settings';

export const jsonExtractor: Extractor = {
  name: 'json',
  accepts: (file) => /\.json$/i.test(file),
  extract: async (file, text) => configSettings(file, text, 'json'),
};
