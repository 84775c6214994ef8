'use client';
/**
 * The conflict playground: where each vendor's trips live in the lab's two tables, and, for two
 * writers that read the same version, whether the second one's commit survives the first one's.
 * The prediction runs in the browser with the engine's own checker (lib/playground/prediction.ts); the lab's
 * measured runs of the same pair in the same commit order sit beside it, with a button that races it so.
 * "Your table" (components/playground/your-table.tsx) does the same for any table the API may read.
 */
import { useQuery } from '@tanstack/react-query';
import { use, useId, useState } from 'react';
import { LabHeatmap } from '../../components/playground/lab-heatmap';
import { MeasuredOutcome } from '../../components/playground/measured-outcome';
import { Prediction } from '../../components/playground/prediction';
import { RacePairButton } from '../../components/playground/race-pair-button';
import { YourTable } from '../../components/playground/your-table';
import { Failed, Loading } from '../../components/states';
import { gql } from '../../lib/gql';
import {
  DEFAULT_SCALE,
  labLocation,
  layoutVariables,
  type PlaygroundLayout,
  SCALES,
  TABLE_KINDS,
  TABLE_LAYOUT_QUERY,
  type TableKind,
} from '../../lib/playground/lab-tables';
import { raceProperties } from '../../lib/playground/measured';
import { LAYOUT_PREDICATES, type MenuWriter, WRITER_MENU, type WriterKey } from '../../lib/playground/writer-menu';

const TABLE_TITLE: Record<TableKind, string> = { flat: 'Flat table', partitioned: 'Partitioned by VendorID' };

const MENU_GROUPS: { label: string; operation: MenuWriter['operation'] }[] = [
  { label: 'Updates', operation: 'update' },
  { label: 'Deletes', operation: 'delete' },
  { label: 'Appends', operation: 'append' },
  { label: 'Compaction', operation: 'optimize' },
];

/** One tableLayout query per table and scale, fetched once: every prediction reuses it. */
function useLayout(kind: TableKind, scale: number) {
  return useQuery({
    queryKey: ['playground', 'layout', kind, scale],
    queryFn: async (): Promise<PlaygroundLayout> => {
      const d = await gql(TABLE_LAYOUT_QUERY, layoutVariables(kind, scale));
      return { ...d.tableLayout, predicates: LAYOUT_PREDICATES };
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

function WriterSelect({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: WriterKey;
  onChange: (key: WriterKey) => void;
}) {
  return (
    <label htmlFor={id}>
      {label}
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as WriterKey)}>
        {MENU_GROUPS.map((g) => (
          <optgroup key={g.operation} label={g.label}>
            {WRITER_MENU.filter((w) => w.operation === g.operation).map((w) => (
              <option key={w.key} value={w.key}>
                {w.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}

/** `?scale=0.01` opens the page at that scale (a link to share, and no full-size layout asked first). */
function scaleFrom(param: string | undefined): number {
  const n = Number(param);
  return SCALES.includes(n) ? n : DEFAULT_SCALE;
}

export default function PlaygroundPage({ searchParams }: { searchParams: Promise<{ scale?: string }> }) {
  const params = use(searchParams);
  const [scale, setScaleState] = useState(() => scaleFrom(params.scale));
  const setScale = (s: number) => {
    setScaleState(s);
    window.history.replaceState(null, '', `?scale=${s}`);
  };
  const [kind, setKind] = useState<TableKind>('flat');
  const [firstKey, setFirstKey] = useState<WriterKey>('update-1');
  const [secondKey, setSecondKey] = useState<WriterKey>('update-2');
  const layouts: Record<TableKind, ReturnType<typeof useLayout>> = {
    flat: useLayout('flat', scale),
    partitioned: useLayout('partitioned', scale),
  };
  const chosen = layouts[kind];
  // A race of the pair runs on the chosen table as it is: its properties go with the race and pick its runs.
  const properties = chosen.data ? raceProperties(chosen.data) : [];
  const hint = useId();

  return (
    <>
      <h1>Playground</h1>
      <p className="lead">
        Two jobs open the same version of a table and change it at the same moment. The first one commits; will the
        second? The maps below show which data files hold each taxi vendor's trips in the lab's two copies of the
        January table. Pick two writers and the page works out, in your browser and with the same conflict rules as
        delta-rs, whether the second commit goes through, and shows what the lab saw when it raced the same pair for
        real, in the same order: race it from here to measure it.
      </p>

      <div className="row">
        <label htmlFor="scale">
          Table size (scale)
          <select id="scale" value={String(scale)} onChange={(e) => setScale(Number(e.target.value))}>
            {SCALES.map((s) => (
              <option key={s} value={String(s)}>
                {s === 1 ? '1 (the lesson’s full table)' : String(s)}
              </option>
            ))}
          </select>
        </label>
      </div>

      <h2>Where each vendor's trips live</h2>
      <p className="muted">
        One column per data file, one row per VendorID; the deeper the blue, the more trips. Hover a cell for its count.
      </p>
      <div className="grid-2">
        {TABLE_KINDS.map((k) => {
          const q = layouts[k];
          return (
            <section key={k} className="panel" aria-labelledby={`${hint}-${k}`}>
              <h3 id={`${hint}-${k}`}>
                {TABLE_TITLE[k]} <code className="muted">{labLocation(k, scale)}</code>
              </h3>
              {q.isPending ? (
                <Loading what={`the layout of ${labLocation(k, scale)}`} />
              ) : q.isError ? (
                <Failed error={q.error} />
              ) : (
                <LabHeatmap kind={k} layout={q.data} />
              )}
            </section>
          );
        })}
      </div>

      <h2>Predict a race</h2>
      <form className="panel stack" aria-label="Choose the table and two writers" onSubmit={(e) => e.preventDefault()}>
        <div className="row" style={{ alignItems: 'end' }}>
          <label htmlFor="table-kind">
            Table
            <select id="table-kind" value={kind} onChange={(e) => setKind(e.target.value as TableKind)}>
              {TABLE_KINDS.map((k) => (
                <option key={k} value={k}>
                  {TABLE_TITLE[k]}
                </option>
              ))}
            </select>
          </label>
          <WriterSelect
            id="first-writer"
            label="FIRST writer (commits first)"
            value={firstKey}
            onChange={setFirstKey}
          />
          <WriterSelect
            id="second-writer"
            label="SECOND writer (commits after)"
            value={secondKey}
            onChange={setSecondKey}
          />
        </div>
        <p className="muted" style={{ margin: 0 }}>
          Both writers read version {chosen.data?.version ?? 0} of {labLocation(kind, scale)}. Updates add 1 to
          tip_amount.
        </p>
      </form>

      <div className="grid-2">
        <section className="panel" aria-labelledby={`${hint}-prediction`}>
          <h3 id={`${hint}-prediction`}>Prediction</h3>
          {chosen.isPending ? (
            <Loading what="the table layout" />
          ) : chosen.isError ? (
            <Failed error={chosen.error} />
          ) : (
            <Prediction layout={chosen.data} firstKey={firstKey} secondKey={secondKey} />
          )}
        </section>
        <section className="panel" aria-labelledby={`${hint}-measured`}>
          <h3 id={`${hint}-measured`}>Measured in the lab</h3>
          {chosen.isPending ? (
            <Loading what="the table layout" />
          ) : chosen.isError ? (
            <Failed error={chosen.error} />
          ) : (
            <>
              <MeasuredOutcome kind={kind} firstKey={firstKey} secondKey={secondKey} tableProperties={properties} />
              <RacePairButton
                kind={kind}
                scale={scale}
                firstKey={firstKey}
                secondKey={secondKey}
                tableProperties={properties}
              />
            </>
          )}
        </section>
      </div>

      <h2>Why</h2>
      <p>
        An update or delete rewrites every file holding at least one row it changes, and commits one new file whose
        statistics span the files it replaced. The second writer's predicate is then checked against that new file ("a
        concurrent transaction added new data") and against the files the first one removed that it had read ("… deleted
        data this operation read"). Min/max statistics alone cannot tell which files an update rewrites: every flat
        file's VendorID spans 1 to 6 or 1 to 7, yet VendorID 6 lives only in files 8–9 and VendorID 7 only in files 1–7.
        So the prediction counts the matching rows per file from the data.
      </p>

      <YourTable />
    </>
  );
}
