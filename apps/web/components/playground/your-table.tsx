'use client';
/**
 * "Your table": the playground on any location the API may read (a path under its roots, or s3://…). The
 * table's files as a heatmap by a column the user picks (bands of its values from each file's stats, or its
 * partition value), the rows two writers' predicates match in each file (counted from the data), and the
 * API's forecast of the pair by engine. Whatever the API refuses is shown next to the field it is about.
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { gql } from '../../lib/gql';
import { placeProblems } from '../../lib/playground/field-problems';
import { defaultColumn, schemaColumns } from '../../lib/playground/schema-columns';
import {
  layoutPredicates,
  loadWarnings,
  type PlaygroundWriter,
  type Who,
  YOUR_FORECAST_QUERY,
  YOUR_LAYOUT_QUERY,
  yourHeatmap,
  yourWriterInput,
} from '../../lib/playground/your-table';
import { Empty, Failed, Loading } from '../states';
import { SubmitButton } from '../submit-button';
import { ForecastView } from './prediction';
import { YourFilesMap } from './your-files-map';
import { FieldProblems, YourWriters } from './your-writers';

type Writers = Record<Who, PlaygroundWriter>;
const START: Writers = {
  first: { operation: 'update', predicate: '', set: '' },
  second: { operation: 'update', predicate: '', set: '' },
};

const errorOf = (e: unknown) => e as { message: string; problems?: string[] };

export function YourTable() {
  const id = useId();
  const [draft, setDraft] = useState('');
  const [location, setLocation] = useState('');
  const [picked, setPicked] = useState('');
  const [writers, setWriters] = useState<Writers>(START);
  const [submitted, setSubmitted] = useState<Writers | null>(null);

  // User input is refused at once: asking again would only repeat the refusal.
  const layout = useQuery({
    queryKey: ['your-table', 'layout', location],
    queryFn: () => gql(YOUR_LAYOUT_QUERY, { location }).then((d) => d.tableLayout),
    enabled: location !== '',
    retry: false,
  });
  const counted = submitted ? layoutPredicates(submitted) : [];
  const matches = useQuery({
    queryKey: ['your-table', 'matches', location, counted],
    queryFn: () =>
      gql(YOUR_LAYOUT_QUERY, { location, predicates: counted.map((c) => c.predicate) }).then((d) => d.tableLayout),
    enabled: layout.isSuccess && counted.length > 0,
    retry: false,
  });
  const forecast = useQuery({
    queryKey: ['your-table', 'forecast', location, submitted],
    queryFn: () =>
      gql(YOUR_FORECAST_QUERY, {
        input: {
          table: location,
          first: yourWriterInput('first', (submitted as Writers).first),
          second: yourWriterInput('second', (submitted as Writers).second),
        },
      }).then((d) => d.predictConflict),
    enabled: layout.isSuccess && submitted !== null,
    retry: false,
  });

  const open = (e: FormEvent) => {
    e.preventDefault();
    setLocation(draft.trim());
    setPicked('');
    setSubmitted(null);
  };
  const setWriter = (who: Who, patch: Partial<PlaygroundWriter>) =>
    setWriters((w) => ({ ...w, [who]: { ...w[who], ...patch } }));
  const problems = placeProblems([matches.error, forecast.error].filter((e) => e != null).map(errorOf), counted);

  const shown = matches.data ?? layout.data;
  const columns = layout.data ? schemaColumns(layout.data.schema, layout.data.partitionColumns) : [];
  const column = columns.find((c) => c.name === picked) ?? columns.find((c) => c.name === defaultColumn(columns));
  const picture = shown && column ? yourHeatmap(shown, column, matches.data ? counted : []) : null;
  const warned = layout.data ? loadWarnings(layout.data) : null;

  return (
    <section className="stack" aria-labelledby={`${id}-title`} data-testid="your-table">
      <h2 id={`${id}-title`}>Your table</h2>
      <p>
        Any Delta table the API may read: a path under its table roots, or an <code>s3://</code> location in its
        buckets. Map its files by any column, enter what two of your jobs do, and see which files each one's rows live
        in and whether the second commit survives the first, by engine.
      </p>
      <form className="panel stack" onSubmit={open} aria-label="Open your table">
        <div className="row" style={{ alignItems: 'end' }}>
          <label htmlFor="your-location" style={{ flex: 1 }}>
            Table location
            <input
              id="your-location"
              value={draft}
              placeholder="e.g. sales/orders or s3://bucket/tables/orders"
              onChange={(e) => setDraft(e.target.value)}
              aria-invalid={layout.isError}
            />
          </label>
          <SubmitButton why={draft.trim() === '' ? 'name a table first' : null}>Open</SubmitButton>
        </div>
        <FieldProblems testId="location-problem" messages={layout.isError ? [errorOf(layout.error).message] : []} />
      </form>

      {location !== '' && layout.isPending && <Loading what={`the layout of ${location}`} />}
      {layout.data && (
        <>
          {warned && (
            <div className="flag" role="note" data-testid="your-table-warnings">
              <strong>{warned.title}</strong>
              <ul>
                {warned.items.map((w) => (
                  <li key={w} className="error-text">
                    {w}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <YourFilesMap
            layout={layout.data}
            columns={columns}
            column={column}
            onPick={setPicked}
            picture={picture}
            counting={matches.isFetching}
          />

          <YourWriters
            writers={writers}
            problems={problems}
            onChange={setWriter}
            onSubmit={() => setSubmitted(writers)}
          />

          <section className="panel" aria-labelledby={`${id}-forecast`}>
            <h3 id={`${id}-forecast`}>Forecast</h3>
            {submitted === null ? (
              <Empty>Enter two writers and press “Count and forecast”.</Empty>
            ) : forecast.isPending ? (
              <Loading what="the forecast" />
            ) : forecast.isError ? (
              problems.other.length > 0 ? (
                <Failed error={{ problems: problems.other }} />
              ) : (
                <p className="muted">Not forecast: fix the fields marked above.</p>
              )
            ) : (
              <ForecastView
                forecast={forecast.data}
                operations={{ first: submitted.first.operation, second: submitted.second.operation }}
              />
            )}
            {forecast.isSuccess && problems.other.length > 0 && <Failed error={{ problems: problems.other }} />}
          </section>
        </>
      )}
    </section>
  );
}
