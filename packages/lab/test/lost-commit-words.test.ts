/**
 * The verdict's words for commits that writers report and the log does not hold (a store whose put-if-absent
 * lies: two writers told they own one version), and H1, the race that shows it, kept out of the default lab.
 */
import { describe, expect, it } from 'vitest';
import { CASES } from '../src/cases/catalog';
import { selectCases } from '../src/formats/registry';
import { lostCommitWords } from '../src/oracle/summary-text';

describe('lostCommitWords', () => {
  it('names the writer whose commit the log does not hold, and who holds the version', () => {
    const reported = [
      { name: 'feb01', version: 1 },
      { name: 'feb02', version: 1 },
    ];
    expect(lostCommitWords(reported, ['feb02'])).toEqual([
      "feb01's commit lost: feb01 and feb02 both report version 1, the log holds feb02's",
    ]);
  });

  it('says nothing when every reported version is its writer’s in the log', () => {
    const reported = [
      { name: 'feb01', version: 2 },
      { name: 'feb02', version: 1 },
    ];
    expect(lostCommitWords(reported, ['feb02', 'feb01'])).toEqual([]);
    // A writer that committed twice (its answer lost, its retry moved on) owns both versions: nothing lost.
    expect(lostCommitWords([{ name: 'job', version: 2 }], ['job', 'job'])).toEqual([]);
  });

  it('counts every lost commit of a version, and versions the log gives to no writer of the run', () => {
    const reported = ['a', 'b', 'c'].map((name) => ({ name, version: 1 }));
    expect(lostCommitWords(reported, ['c'])).toEqual([
      "the commits of a and b lost: a, b and c all report version 1, the log holds c's",
    ]);
    expect(lostCommitWords([{ name: 'a', version: 1 }], ['v1'])).toEqual([
      "a's commit lost: a reports version 1, the log holds another commit there",
    ]);
    expect(lostCommitWords([{ name: 'a', version: 3 }], ['a'])).toEqual([
      "a's commit lost: a reports version 3, the log has no such version",
    ]);
  });
});

describe('H1: runs only when named', () => {
  it('is left out of the default lab and found by its id', () => {
    expect(CASES.map((c) => c.id)).toContain('H1');
    expect(selectCases([]).map((c) => c.id)).not.toContain('H1');
    expect(selectCases(['h1']).map((c) => c.id)).toEqual(['H1']);
  });
});
