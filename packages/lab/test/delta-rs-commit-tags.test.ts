/**
 * The commit order names a real delta-rs writer's commits: test/fixtures/delta-rs-tagged is a table deltalake 1.6.6
 * wrote (a create, an append tagged w1, a delete that matched nothing and so committed nothing, a delete tagged w3),
 * whose commitInfo carries the custom_metadata keys at its top level.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitOrder, writerTag } from '../src/formats/delta/commit-order';

const TABLE = join(import.meta.dirname, 'fixtures/delta-rs-tagged');

describe("a real delta-rs writer's tag", () => {
  it('is where the commit order reads it', async () => {
    const info = JSON.parse(
      readFileSync(join(TABLE, '_delta_log/00000000000000000001.json'), 'utf8').split('\n')[0] as string,
    ).commitInfo;
    expect(info.engineInfo).toBe('delta-rs:py-1.6.6');
    expect(writerTag(info)).toBe('w1');
    expect(await commitOrder(TABLE)).toEqual(['w1', 'w3']);
  });

  it('is absent from an untagged commit, which the order names by its version', () => {
    expect(writerTag({ operation: 'WRITE', engineInfo: 'delta-rs:py-1.6.6' })).toBeUndefined();
    expect(writerTag({ writer: 3 })).toBeUndefined();
  });

  it("is Delta Spark's userMetadata, where the Spark host puts each writer's name", () => {
    const spark = { operation: 'UPDATE', userMetadata: 'vendor1', engineInfo: 'Apache-Spark/4.2.0 Delta-Lake/4.4.0' };
    expect(writerTag(spark)).toBe('vendor1');
    expect(writerTag({ ...spark, userMetadata: '' })).toBeUndefined();
    expect(writerTag({ writer: 'w1', userMetadata: 'other' })).toBe('w1');
  });
});
