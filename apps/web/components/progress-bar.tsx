/** Work done of a total, as the dashboard's one bar: a race's runs, a sweep's commits. */
export function ProgressBar({ done, total, label }: { done: number; total: number; label: string }) {
  return (
    <span
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={done}
    >
      <span style={{ width: `${(100 * done) / Math.max(total, 1)}%` }} />
    </span>
  );
}
