/**
 * The lab's preset races as the one case list gives them (the lesson's, then the store cases), and any race's case,
 * each described in one sentence.
 */
import { caseGroup, formatOf, type LabCase, storeNeed } from '@racelab/lab';
import { builder } from './builder';

/** The case in one sentence, as its table format words it. */
export const describeCase = (c: LabCase): string => formatOf(c).describeCase(c);

export const RaceCase = builder.objectRef<LabCase>('RaceCase').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    description: t.string({ resolve: describeCase }),
    engine: t.string({ description: 'delta, iceberg or postgres', resolve: (c) => c.format }),
    writers: t.stringList({ resolve: (c) => formatOf(c).writerNames(c) }),
    group: t.string({
      description:
        "lesson: one of the lesson's cases; store: a case that shows what a store's answers do to a race (runs only when started by id)",
      resolve: caseGroup,
    }),
    store: t.string({
      nullable: true,
      description: 'a store case: the store it is about and where it runs, in words; null for a lesson case',
      resolve: (c) => storeNeed(c)?.says ?? null,
    }),
    needsS3TableRoot: t.boolean({
      description:
        'true: it needs a store the lab cannot make itself and runs only with tableRoot on S3 (else refused, STORE_NEEDED)',
      resolve: (c) => storeNeed(c)?.needsS3TableRoot ?? false,
    }),
    takesTableProperties: t.boolean({
      description:
        "whether the case's table takes table properties (a preset started with them, e.g. delta.isolationLevel)",
      resolve: (c) => formatOf(c).takesTableProperties,
    }),
  }),
});
