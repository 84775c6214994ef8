/** How many of a race's runs are done, as a bar and in words. */
export function RunsProgress({ done, total, label }: { done: number; total: number; label: string }) {
  return (
    <>
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <span style={{ width: `${(100 * done) / total}%` }} />
      </div>
      <span className="muted">
        {done} of {total} runs done
      </span>
    </>
  );
}
