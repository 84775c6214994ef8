'use client';
/**
 * Starting a race: a preset of the lesson, or writers of one's own, on a lab table or on copies of a
 * table of one's own (tableLocation), emulated by the engine or, where the server has it installed, in the real
 * library (real-run-choice.tsx). The race input's schema
 * (@racelab/contracts) checks it here before it is sent, in the API's words; the API checks it again
 * with the same schema and also parses the expressions against the table's schema. Either's
 * problems are listed here.
 */
import { checkStartRace, type LAB_TABLES, MAX_RUNS, SERVED_SCALES, type StartRaceInput } from '@racelab/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { gql } from '../../lib/gql';
import { CASES } from '../../lib/races';
import { type DraftWriter, newWriter, toWriterInput } from '../../lib/writer-draft';
import { Failed } from '../states';
import { type RealRun, RealRunChoice, realRunInput, useRealLibraries } from './real-run-choice';
import { useStartRace } from './use-start-race';
import { WriterEditor } from './writer-editor';

/** The one case list's groups, in its order. */
const CASE_GROUPS = [
  ['lesson', "The lesson's cases"],
  ['store', 'Store cases: what a store’s answers do to a race'],
] as const;

export function StartRaceForm() {
  const cases = useQuery({ queryKey: ['cases'], queryFn: () => gql(CASES) });
  const [mode, setMode] = useState<'preset' | 'custom'>('preset');
  const [caseId, setCaseId] = useState('B1');
  const [runs, setRuns] = useState(3);
  const [scale, setScale] = useState(0.1);
  const [isolation, setIsolation] = useState('');
  const [table, setTable] = useState<(typeof LAB_TABLES)[number]>('flat');
  // Custom writers race on one of the lab's tables, or on copies of a table of the user's own.
  const [own, setOwn] = useState(false);
  const [tableLocation, setTableLocation] = useState('');
  const [writers, setWriters] = useState<DraftWriter[]>([
    newWriter('first', 'update-1'),
    newWriter('second', 'update-2'),
  ]);
  const [problems, setProblems] = useState<string[]>([]);
  const [realRun, setRealRun] = useState<RealRun>({ real: false, library: '' });
  const start = useStartRace();
  const chosen = cases.data?.cases.find((c) => c.id === caseId);
  // Custom writers write Delta tables; a preset names its own format.
  const format = mode === 'preset' ? chosen?.engine : 'delta';
  const { fitting } = useRealLibraries(format);
  // A preset on a table format without table properties (Iceberg, Postgres) takes no isolation level: the field says so.
  const noProperties = mode === 'preset' && chosen !== undefined && !chosen.takesTableProperties;
  const noPropertiesId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const tableProperties = isolation.trim() === '' ? [] : [{ key: 'delta.isolationLevel', value: isolation.trim() }];
    const ownTable = mode === 'custom' && own;
    // The scale is the lab month's: a table of one's own is raced as it is.
    const common = {
      runs,
      ...(!ownTable && { scale }),
      ...(tableProperties.length > 0 && { tableProperties }),
      ...realRunInput(realRun, fitting),
    };
    const where = ownTable ? { tableLocation: tableLocation.trim() } : { table };
    const input: StartRaceInput =
      mode === 'preset'
        ? { caseId, ...common }
        : { ...common, ...where, writers: writers.map((w) => toWriterInput(w, ownTable)) };
    const checked = checkStartRace(input);
    setProblems(checked.ok ? [] : checked.problems);
    if (checked.ok) start.mutate(input);
  };

  return (
    <form className="stack" onSubmit={submit} aria-label="Start a race">
      <div className="row" role="radiogroup" aria-label="Kind of race">
        <label className="row">
          <input type="radio" name="mode" checked={mode === 'preset'} onChange={() => setMode('preset')} /> A preset of
          the lesson
        </label>
        <label className="row">
          <input type="radio" name="mode" checked={mode === 'custom'} onChange={() => setMode('custom')} /> My own
          writers
        </label>
      </div>
      {mode === 'preset' ? (
        <label>
          Case
          <select id="case" value={caseId} onChange={(e) => setCaseId(e.target.value)} disabled={!cases.data}>
            {cases.data ? (
              CASE_GROUPS.map(([group, label]) => (
                <optgroup key={group} label={label} data-group={group}>
                  {cases.data.cases
                    .filter((c) => c.group === group)
                    .map((c) => (
                      // This form sets no table root: a case that needs one on S3 is shown, not started, here.
                      <option key={c.id} value={c.id} disabled={c.needsS3TableRoot}>
                        {c.id} — {c.title}
                        {c.needsS3TableRoot ? ' (needs a table root on S3: start it from the API or the CLI)' : ''}
                      </option>
                    ))}
                </optgroup>
              ))
            ) : (
              <option value="B1">B1 — loading…</option>
            )}
          </select>
          {chosen && <span className="muted">{chosen.description}</span>}
          {chosen?.store && (
            <span className="muted" data-testid="case-store">
              {chosen.store}
            </span>
          )}
        </label>
      ) : (
        <>
          <div className="row" role="radiogroup" aria-label="Table">
            <label className="row">
              <input type="radio" name="table-source" checked={!own} onChange={() => setOwn(false)} /> A lab table
            </label>
            <label className="row">
              <input type="radio" name="table-source" checked={own} onChange={() => setOwn(true)} /> A table of your own
            </label>
          </div>
          {own ? (
            <label>
              Table location
              <input
                id="table-location"
                value={tableLocation}
                placeholder="a path under the API's table roots, or s3://bucket/path"
                onChange={(e) => setTableLocation(e.target.value)}
              />
              <span className="muted">
                Each run races a fresh copy of it; the table itself is never written. Appends add the rows of a Parquet
                file or a sample of the table.
              </span>
            </label>
          ) : (
            <label>
              Table
              <select
                id="custom-table"
                value={table}
                onChange={(e) => setTable(e.target.value as (typeof LAB_TABLES)[number])}
              >
                <option value="flat">flat (9 files, as the lesson had it)</option>
                <option value="partitioned">partitioned by VendorID</option>
              </select>
            </label>
          )}
          <WriterEditor writers={writers} onChange={setWriters} ownTable={own} />
        </>
      )}
      <div className="row">
        <label>
          Runs
          <input
            id="runs"
            type="number"
            min={1}
            max={MAX_RUNS}
            value={runs}
            onChange={(e) => setRuns(Number(e.target.value))}
          />
        </label>
        {!(mode === 'custom' && own) && (
          <label>
            Scale of the month
            <select id="scale" value={scale} onChange={(e) => setScale(Number(e.target.value))}>
              {SERVED_SCALES.map((s) => (
                <option key={s} value={s}>
                  {s === 1 ? '1 (3.5 million trips)' : s}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          delta.isolationLevel (optional)
          <input
            id="isolation"
            value={isolation}
            placeholder="e.g. writeSerializable"
            onChange={(e) => setIsolation(e.target.value)}
            disabled={noProperties}
            aria-describedby={noProperties ? noPropertiesId : undefined}
          />
        </label>
        {noProperties && (
          <span id={noPropertiesId} className="muted" data-testid="disabled-why">
            {chosen?.id} is not a Delta case: table properties do not apply
          </span>
        )}
      </div>
      <RealRunChoice format={format} value={realRun} onChange={setRealRun} />
      <div className="row">
        <button type="submit" disabled={start.isPending}>
          {start.isPending ? 'Starting…' : 'Start race'}
        </button>
      </div>
      {problems.length > 0 ? <Failed error={{ problems }} /> : start.error && <Failed error={start.error} />}
    </form>
  );
}
