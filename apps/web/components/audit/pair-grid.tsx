'use client';
/**
 * One table's ordered pairs of audited jobs as a grid, each cell SECOND's fate under every engine (its own engine
 * marked). A pair on a lab table can be raced with one click, to see the delta-rs forecast measured.
 */
import { type JobAuditResult, type JobPair, raceInput } from '../../lib/jobs';
import { EngineForecasts } from '../engine-forecasts';
import { useStartRace } from '../races/use-start-race';
import { Failed } from '../states';

export function PairGrid({ audit, table }: { audit: JobAuditResult; table: string }) {
  const race = useStartRace();
  const names = audit.jobs.filter((j) => j.table === table).map((j) => j.name);
  const cell = (first: string, second: string): JobPair | undefined =>
    audit.pairs.find((p) => p.table === table && p.first === first && p.second === second);
  return (
    <>
      <table className="data" data-testid="pair-matrix" data-table={table}>
        <caption>
          {table}: row = FIRST (commits first, written by its own engine), column = SECOND (both read the same version),
          judged by each engine&apos;s checker under the table properties the two jobs declare. Forecast by the
          engine&apos;s conflict simulation from the table&apos;s data; a race runs delta-rs writers.
        </caption>
        <thead>
          <tr>
            <th>FIRST \ SECOND</th>
            {names.map((n) => (
              <th key={n}>{n}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {names.map((first) => (
            <tr key={first}>
              <th>{first}</th>
              {names.map((second) => {
                const p = cell(first, second);
                if (!p)
                  return (
                    <td key={second} className="muted">
                      –
                    </td>
                  );
                const input = raceInput(p, audit.jobs);
                return (
                  <td
                    key={second}
                    data-first={first}
                    data-second={second}
                    data-commits={p.secondCommits === null ? 'unknown' : String(p.secondCommits)}
                    title={p.message ?? p.skipped ?? 'SECOND commits'}
                  >
                    {p.secondCommits === null ? (
                      <span className="muted">{p.skipped}</span>
                    ) : (
                      <EngineForecasts entries={p.byEngine} own={p.secondEngine} />
                    )}
                    {input && (
                      <div>
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => race.mutate(input)}
                          disabled={race.isPending}
                        >
                          Race {first} then {second}
                        </button>
                      </div>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {race.error && <Failed error={race.error} />}
    </>
  );
}
