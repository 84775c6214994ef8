'use client';
/**
 * "Run with the real library": offered only for the libraries the server says it has installed (realLibraries) that
 * write the case's table format, with the library to run; where none is installed, a short note on how to install
 * the Python side instead.
 */
import { useQuery } from '@tanstack/react-query';
import { gql, type ResultOf } from '../../lib/gql';
import { REAL_LIBRARIES } from '../../lib/races';

type RealLibrary = ResultOf<typeof REAL_LIBRARIES>['realLibraries'][number];

export interface RealRun {
  real: boolean;
  /** The library's name as chosen; the first that fits when none fitting is chosen. */
  library: string;
}

/** The server's real libraries (undefined while loading), and of them those installed that write `format`. */
export function useRealLibraries(format: string | undefined) {
  const query = useQuery({ queryKey: ['real-libraries'], queryFn: () => gql(REAL_LIBRARIES) });
  const all = query.data?.realLibraries;
  const fitting = (all ?? []).filter((l) => l.installed && (format === undefined || l.tableFormat === format));
  return { all, fitting };
}

/** What startRace is sent for `choice`: nothing when it runs emulated, else the library shown as chosen. */
export function realRunInput(choice: RealRun, fitting: readonly RealLibrary[]): { real?: true; library?: string } {
  const first = fitting[0];
  if (!choice.real || first === undefined) return {};
  return { real: true, library: fitting.some((l) => l.name === choice.library) ? choice.library : first.name };
}

export function RealRunChoice({
  format,
  value,
  onChange,
}: {
  /** The table format of the case (delta, iceberg, postgres); undefined while it is not known. */
  format: string | undefined;
  value: RealRun;
  onChange: (v: RealRun) => void;
}) {
  const { all, fitting } = useRealLibraries(format);
  if (all === undefined) return null;
  if (!all.some((l) => l.installed)) {
    return (
      <p className="muted" data-testid="real-unavailable">
        The real libraries ({all.map((l) => l.name).join(', ')}) are not installed on this server:{' '}
        <code>npm run setup:python</code> installs them; a race can then run in them instead of the engine's emulation.
      </p>
    );
  }
  if (fitting.length === 0) {
    return (
      <p className="muted" data-testid="real-unavailable">
        No real library installed here runs {format} cases.
      </p>
    );
  }
  const sent = realRunInput({ ...value, real: true }, fitting).library;
  return (
    <div className="row" data-testid="real-run">
      <label className="row">
        <input
          id="real"
          type="checkbox"
          checked={value.real}
          onChange={(e) => onChange({ ...value, real: e.target.checked })}
        />{' '}
        Run with the real library
      </label>
      {value.real && (
        <label>
          Library
          <select id="library" value={sent} onChange={(e) => onChange({ ...value, library: e.target.value })}>
            {fitting.map((l) => (
              <option key={l.name} value={l.name}>
                {l.name} {l.version}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}
