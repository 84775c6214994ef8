/**
 * A race's spec as stored and shown: the case's table format is the lab's `format`, but stored races and the `spec`
 * JSON clients read name it `engine`, in the same place among the case's fields. Stored specs read back as the lab
 * takes them.
 */
import { CASES, type LabCase } from '@racelab/lab';
import { describe, expect, it } from 'vitest';
import { type RaceSpec, specOf, storedSpec } from '../src/races/spec';

const caseById = (id: string) => CASES.find((c) => c.id === id) as LabCase;
const spec = (c: LabCase): RaceSpec => ({ case: c, runs: 2, scale: 0.01 });

describe('storedSpec and specOf', () => {
  it("stores the case's format as engine, where the field stands", () => {
    const stored = storedSpec(spec(caseById('F2'))) as { case: Record<string, unknown> };
    expect(Object.keys(stored.case)).toEqual(['id', 'title', 'engine', 'properties', 'writers']);
    expect(stored.case.engine).toBe('iceberg');
    expect(JSON.stringify(stored)).not.toContain('"format"');
  });

  it('reads every catalog case back as it was', () => {
    for (const c of CASES) expect(specOf(JSON.parse(JSON.stringify(storedSpec(spec(c)))))).toEqual(spec(c));
  });

  it('reads a spec stored with engine, as every stored race holds it', () => {
    const stored = {
      case: { id: 'P1', title: 't', engine: 'postgres', isolation: 'read committed', vendorA: 1, vendorB: 2 },
      runs: 1,
      scale: 1,
    };
    expect(specOf(stored).case).toEqual({
      id: 'P1',
      title: 't',
      format: 'postgres',
      isolation: 'read committed',
      vendorA: 1,
      vendorB: 2,
    });
  });
});
