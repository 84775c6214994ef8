/**
 * One scrape of /metrics: the figures read from the database (figures.ts) and written out by prom-client
 * (registry.ts), one scrape's read at a time per API process (coalesced.ts).
 */
import type { Db } from '../db/prisma';
import { coalesced } from './coalesced';
import { readFigures } from './figures';
import { ProductMetrics } from './registry';

export interface Scraped {
  contentType: string;
  text: string;
}

export function metricsScraper(db: Db): () => Promise<Scraped> {
  const metrics = new ProductMetrics();
  return coalesced(async () => ({
    contentType: metrics.contentType,
    text: await metrics.render(await readFigures(db)),
  }));
}
