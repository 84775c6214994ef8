/**
 * A heatmap's numbers as a table, for reading and for screen readers: per file, what its stats say of the
 * column, its rows, and each row's count in it.
 */
import { formatCount, type HeatmapColumn, type HeatmapRow, statsRange } from '../../lib/playground/heatmap';

export function HeatmapNumbers({
  columns,
  rows,
  column,
  caption,
  unit,
}: {
  columns: HeatmapColumn[];
  rows: HeatmapRow[];
  column: string;
  caption: string;
  unit: string;
}) {
  return (
    <div style={{ overflowX: 'auto' }}>
      <table className="data">
        <caption className="muted" style={{ textAlign: 'left', padding: '0.3rem 0' }}>
          {caption}
        </caption>
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              File
            </th>
            <th scope="col" rowSpan={2}>
              {column} in stats
            </th>
            <th scope="col" rowSpan={2} className="num">
              Rows
            </th>
            <th scope="colgroup" colSpan={rows.length} className="num">
              {unit[0]?.toUpperCase()}
              {unit.slice(1)} of
            </th>
          </tr>
          <tr>
            {rows.map((r) => (
              <th key={r.key} scope="col" className="num">
                {r.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {columns.map((c, i) => (
            <tr key={c.path}>
              <th scope="row" title={c.path}>
                {c.number}
              </th>
              <td>{statsRange(c, column)}</td>
              <td className="num">{formatCount(c.rows)}</td>
              {rows.map((r) => (
                <td key={r.key} className="num">
                  {formatCount(r.cells[i] ?? 0)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
