/** The API's refusals of "your table"'s queries, each put next to the field it is about. */
import { WHO, type Who } from './your-table';

export interface FieldProblems {
  location: string[];
  predicate: Record<Who, string[]>;
  set: Record<Who, string[]>;
  /** Whatever names no field: shown with the forecast. */
  other: string[];
}

export const noProblems = (): FieldProblems => ({
  location: [],
  predicate: { first: [], second: [] },
  set: { first: [], second: [] },
  other: [],
});

/**
 * Puts each message where it belongs: "writer first: predicate: …" (predictConflict), "predicates[1]: …"
 * (tableLayout, `counted` saying whose predicate is at each index), "writer second: set x: …". A message
 * already shown for a field is not shown twice.
 */
export function placeProblems(
  errors: readonly { message: string; problems?: readonly string[] }[],
  counted: readonly { who: Who }[],
): FieldProblems {
  const out = noProblems();
  const add = (list: string[], message: string) => {
    if (!list.includes(message)) list.push(message);
  };
  for (const e of errors) {
    const messages = e.problems && e.problems.length > 0 ? e.problems : [e.message];
    for (const m of messages) {
      const writer = /^writer (first|second): (predicate|set)\b:? ?(.*)$/s.exec(m);
      const indexed = /^predicates\[(\d+)\]: (.*)$/s.exec(m);
      if (writer) {
        const who = writer[1] as Who;
        const field = writer[2] === 'set' ? out.set : out.predicate;
        add(field[who], writer[2] === 'set' ? m.slice(`writer ${who}: `.length) : (writer[3] ?? m));
      } else if (indexed) {
        const who = counted[Number(indexed[1])]?.who;
        if (who) add(out.predicate[who], indexed[2] ?? m);
        else add(out.other, m);
      } else add(out.other, m);
    }
  }
  // The same predicate refused by both queries, in slightly different words: keep the first.
  for (const who of WHO) out.predicate[who] = out.predicate[who].slice(0, 1);
  return out;
}
