export { describeFailure } from './calls';
export { PROBE_DEFAULTS, PROBE_LIMITS, ProbeInputError, type ProbeOptions, probeSettings, probeStore } from './probe';
export * from './report';
