/**
 * "Your table"'s files as a heatmap: the column to map them by, the table's version and size, and the picture
 * (lib/playground/your-table.ts's) drawn by the one Heatmap.
 */

import { plural } from '@racelab/contracts';
import type { SchemaColumn } from '../../lib/playground/schema-columns';
import type { YourHeatmap, YourLayout } from '../../lib/playground/your-table';
import { Empty, Loading } from '../states';
import { Heatmap } from './heatmap';

export function YourFilesMap({
  layout,
  columns,
  column,
  onPick,
  picture,
  counting,
}: {
  layout: YourLayout;
  columns: readonly SchemaColumn[];
  column: SchemaColumn | undefined;
  onPick: (column: string) => void;
  picture: YourHeatmap | null;
  /** The writers' matches are being counted. */
  counting: boolean;
}) {
  return (
    <div className="panel stack">
      <div className="row" style={{ alignItems: 'end' }}>
        <label htmlFor="your-column">
          Map its files by
          <select id="your-column" value={column?.name ?? ''} onChange={(e) => onPick(e.target.value)}>
            {columns.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} ({c.type}
                {c.partition ? ', partition column' : ''})
              </option>
            ))}
          </select>
        </label>
        <p className="muted" style={{ margin: 0 }} data-testid="your-version">
          {layout.location}, version {layout.version}: {plural(layout.files.length, 'data file')},{' '}
          {plural(
            layout.files.reduce((n, f) => n + f.rows, 0),
            'row',
          )}
          {layout.partitionColumns.length > 0 && `, partitioned by ${layout.partitionColumns.join(', ')}`}.
        </p>
      </div>
      {!picture || picture.columns.length === 0 ? (
        <Empty>This table has no data files.</Empty>
      ) : (
        <>
          <p className="muted" style={{ margin: 0 }}>
            One column per data file. A blue row is a band of {column?.name}&apos;s values: a file is coloured (by its
            rows) when its min/max stats{column?.partition ? ' (here: its partition value)' : ''} say it may hold one,
            as a reader of those values must read it. Orange rows are the rows each writer&apos;s predicate matches in
            the file, counted from the data.
          </p>
          <Heatmap
            picture={picture}
            testId="heatmap-yours"
            summary={picture.summary}
            column={picture.column.name}
            caption={`A file's min/max of ${picture.column.name} says which values it may hold; the matches say which rows a writer changes.`}
          />
        </>
      )}
      {counting && <Loading what="the rows each predicate matches" />}
    </div>
  );
}
