import { plural } from '@racelab/contracts';
import { ProgressBar } from '../progress-bar';

/** How many of a race's runs are done, as a bar and in words. */
export function RunsProgress({ done, total, label }: { done: number; total: number; label: string }) {
  return (
    <>
      <ProgressBar done={done} total={total} label={label} />
      <span className="muted">
        {done} of {plural(total, 'run')} done
      </span>
    </>
  );
}
