/**
 * The YAML extractor: Databricks asset bundles (`databricks.yml`, `resources/*.yml`) and job specs, dbt's
 * `dbt_project.yml` and schema files, and any YAML map keyed by Delta's Spark confs (config-settings.ts reads them).
 */
import type { Extractor } from '../setting';
import { configSettings } from './config-settings';

export const yamlExtractor: Extractor = {
  name: 'yaml',
  accepts: (file) => /\.ya?ml$/i.test(file),
  extract: async (file, text) => configSettings(file, text, 'yaml'),
};
