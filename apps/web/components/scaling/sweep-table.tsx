/**
 * One sweep's points as a table: the lab CLI's columns and cells, from the same results, the forecast at each N
 * beside the measured figures. A check that failed (versions not contiguous, a commit lost or duplicated, a replay
 * that is not serial) is flagged red on its point; a check's note is its cell's tooltip.
 */
import { FORECAST_COLUMNS, pointRows, type StoredSweep, sweepLabel, TABLE_COLUMNS } from '../../lib/sweeps';

/** The columns that hold a check, by index, with the check's name. */
const CHECK_COLUMNS: Record<number, 'contiguous' | 'exactlyOnce' | 'serial'> = {
  8: 'contiguous',
  9: 'exactlyOnce',
  10: 'serial',
};

export function SweepTable({ sweep }: { sweep: StoredSweep }) {
  const rows = pointRows(sweep.results);
  const columns = [...TABLE_COLUMNS, ...(sweep.results.forecast ? FORECAST_COLUMNS : [])];
  return (
    <div className="table-scroll">
      <table className="data" data-testid="sweep-table" data-sweep-id={sweep.id}>
        <caption>{sweepLabel(sweep)}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => {
            const bad = !r.checks.contiguous || !r.checks.exactlyOnce || !r.checks.serial;
            const note = sweep.results.points[i]?.checks.verdictNote;
            return (
              <tr
                key={r.writers}
                data-testid="sweep-point"
                data-writers={r.writers}
                data-checks={bad ? 'failed' : 'passed'}
                className={bad ? 'flagged' : undefined}
              >
                {r.cells.map((cell, col) => {
                  const check = CHECK_COLUMNS[col];
                  if (!check) return <td key={columns[col]}>{cell}</td>;
                  const ok = r.checks[check];
                  return (
                    <td key={columns[col]}>
                      <span
                        className={`badge ${ok ? 'ok' : 'bad'}`}
                        data-check={check}
                        data-ok={String(ok)}
                        title={check === 'serial' ? note : undefined}
                      >
                        {cell}
                      </span>
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
      {sweep.results.points.some((p) => p.failures.length > 0 || (p.compactor?.failures.length ?? 0) > 0) && (
        <ul className="failures" data-testid="sweep-failures">
          {sweep.results.points.flatMap((p) => [
            ...p.failures.map((f) => (
              <li key={`${p.writers}:${f.message}`}>
                N={p.writers}: {f.count}× <code>{f.message}</code>
              </li>
            )),
            ...(p.compactor?.failures ?? []).map((f) => (
              <li key={`${p.writers}:compactor:${f.message}`}>
                N={p.writers}, compactor: {f.count}× <code>{f.message}</code>
              </li>
            )),
          ])}
        </ul>
      )}
    </div>
  );
}
