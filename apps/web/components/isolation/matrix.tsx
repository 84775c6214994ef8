import Link from 'next/link';
import { committedTone, type IsolationCell, matrixRows } from '../../lib/isolation';
import { Empty } from '../states';
import { FlagMark } from './outcome-badge';
import { ValueLabel } from './value-label';

/**
 * What stored races measured: for each value of the property, and an append marked blind or not,
 * how often the update that read the version before the append still committed.
 */
export function IsolationMatrix({
  cells,
  flaggedValues,
}: {
  cells: IsolationCell[];
  flaggedValues: ReadonlySet<string>;
}) {
  if (cells.length === 0) return <EmptyMatrix />;
  return (
    <>
      <table className="data" data-testid="isolation-matrix">
        <caption className="muted" style={{ textAlign: 'left' }}>
          An append commits, then an update that read the table before it tries to commit: did the update commit?
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <code>delta.isolationLevel</code>
            </th>
            <th scope="col">Append not blind</th>
            <th scope="col">Append marked blind</th>
          </tr>
        </thead>
        <tbody>
          {matrixRows(cells).map((row) => (
            <tr key={row.key} data-matrix-value={row.value ?? undefined}>
              <td>
                <ValueLabel value={row.value} /> {row.value !== null && flaggedValues.has(row.value) && <FlagMark />}
              </td>
              <MatrixCell cell={row.notBlind} blindAppend={false} />
              <MatrixCell cell={row.blind} blindAppend />
            </tr>
          ))}
        </tbody>
      </table>
      <p className="legend">
        <span>
          <span className="badge ok">all</span> the update always committed
        </span>
        <span>
          <span className="badge warn">some</span> it depended on the run
        </span>
        <span>
          <span className="badge bad">none</span> it always failed
        </span>
      </p>
    </>
  );
}

function MatrixCell({ cell, blindAppend }: { cell: IsolationCell | undefined; blindAppend: boolean }) {
  if (!cell) {
    return (
      <td data-blind-append={String(blindAppend)} data-runs={0}>
        <span className="muted">no runs yet</span>
      </td>
    );
  }
  return (
    <td data-blind-append={String(blindAppend)} data-runs={cell.runs} data-committed={cell.updateCommitted}>
      <span className={`badge ${committedTone(cell.updateCommitted, cell.runs)}`}>
        update committed in {cell.updateCommitted} of {cell.runs} {cell.runs === 1 ? 'run' : 'runs'}
      </span>
    </td>
  );
}

function EmptyMatrix() {
  return (
    <Empty>
      <p>No measurements yet.</p>
      <p>
        This table fills from the stored runs of cases I1–I6 (an append commits, then an update that read the table
        before it tries to commit) and of custom races of the same shape. Run them on <Link href="/races">Races</Link>,
        with and without a blind append and with different values of <code>delta.isolationLevel</code>.
      </p>
    </Empty>
  );
}
