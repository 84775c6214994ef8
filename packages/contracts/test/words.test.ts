/** Counts in words: the noun and what is said of it agree with the count, and large counts are grouped. */
import { describe, expect, it } from 'vitest';
import { agree, plural } from '../src/index';

describe('plural', () => {
  it('agrees at 0, 1 and 2, with a plural of its own where the s does not fit', () => {
    expect([0, 1, 2].map((n) => plural(n, 'row'))).toEqual(['0 rows', '1 row', '2 rows']);
    expect([1, 3].map((n) => plural(n, 'try', 'tries'))).toEqual(['1 try', '3 tries']);
    expect(plural(1, 'writer process', 'writer processes')).toBe('1 writer process');
  });
  it('groups thousands', () => expect(plural(7929, 'row')).toBe('7,929 rows'));
  it('agree picks the phrase for the count', () => {
    expect([1, 2].map((n) => agree(n, 'keeps its value', 'keep their values'))).toEqual([
      'keeps its value',
      'keep their values',
    ]);
  });
});
