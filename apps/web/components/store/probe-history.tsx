'use client';
/** The kept probes, newest first; opening one draws it whole. */
import { useQuery } from '@tanstack/react-query';
import { gql } from '../../lib/gql';
import { STORE_PROBES_KEY, STORE_PROBES_QUERY, type StoreProbeView, VERDICT_WORDS } from '../../lib/store-probe';
import { CheckedAt, useNow } from '../audit/checked-at';
import { listed } from '../states';

/** The API's most per request. */
const SHOWN = 50;

export function ProbeHistory({ open, onOpen }: { open: string | null; onOpen: (probe: StoreProbeView) => void }) {
  const probes = useQuery({
    queryKey: [STORE_PROBES_KEY, SHOWN],
    queryFn: async () => (await gql(STORE_PROBES_QUERY, { first: SHOWN })).storeProbes,
  });
  const now = useNow(30_000);
  const list = listed(probes, 'store probes', [
    'No store probed yet',
    'Probe a location above and its report is kept here.',
  ]);
  if ('state' in list) return list.state;
  return (
    <table className="data" data-testid="store-probes">
      <thead>
        <tr>
          <th scope="col">Probed</th>
          <th scope="col">Location</th>
          <th scope="col">Verdict</th>
          <th scope="col">Details</th>
        </tr>
      </thead>
      <tbody>
        {list.items.map((p) => {
          const verdict = VERDICT_WORDS[p.verdict] ?? { text: p.verdict, tone: 'warn' as const };
          return (
            <tr key={p.id} data-testid="store-probe-row" data-probe-id={p.id} data-verdict={p.verdict}>
              <td>
                <CheckedAt iso={p.probedAt} now={now} by={p.startedBy} />
              </td>
              <td>
                <code>{p.location}</code>
              </td>
              <td>
                <span className={`badge ${verdict.tone}`}>{verdict.text}</span>
              </td>
              <td>
                <button type="button" className="secondary" onClick={() => onOpen(p)} disabled={open === p.id}>
                  {open === p.id ? 'Shown above' : 'Open'}
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
