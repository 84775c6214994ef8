/**
 * Counts in words, for every text a person reads (reports, verdicts, API messages, the dashboard): a count and
 * its noun agree in number ("1 row", "2 rows"), and so does what is said of them ("is"/"are"). One helper, so no
 * text builds its own plural and a count of 1 reads as well as a count of 2.
 */

/** "1 row", "2 rows", "7,929 rows"; `many` for nouns that do not take an s ("1 try", "3 tries"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${agree(n, one, many)}`;
}

/** The word or phrase agreeing with a count: `agree(n, 'keeps its value', 'keep their values')`. */
export function agree(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}
