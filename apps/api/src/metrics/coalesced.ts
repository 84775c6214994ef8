/**
 * At most one run of some work at a time, however many ask, and never a stale answer: whoever asks while a run is
 * under way gets the next run, started once that one ends and shared by everyone who asked meanwhile. So a flood
 * of scrapes costs one read of the database after another, never more at once, and a scrape that comes after a
 * change (a race ended) always sees it, with no cache to wait out.
 */
export function coalesced<T>(work: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | null = null;
  let next: Promise<T> | null = null;
  const run = (): Promise<T> => {
    const p: Promise<T> = work().finally(() => {
      if (current === p) current = null;
    });
    current = p;
    return p;
  };
  return () => {
    if (next !== null) return next;
    if (current === null) return run();
    const settled = () => {
      next = null;
      return run();
    };
    next = current.then(settled, settled);
    return next;
  };
}
