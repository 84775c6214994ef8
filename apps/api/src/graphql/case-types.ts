/** The lab's preset races as the catalog lists them, and any race's case, each described in one sentence. */
import { formatOf, type LabCase } from '@racelab/lab';
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
    takesTableProperties: t.boolean({
      description:
        "whether the case's table takes table properties (a preset started with them, e.g. delta.isolationLevel)",
      resolve: (c) => formatOf(c).takesTableProperties,
    }),
  }),
});
