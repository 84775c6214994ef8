/**
 * The serial-replay oracle's shared steps: did a run's table end as some serial order of its committed writers
 * would leave it? Each format supplies its replays and comparisons (formats/<format>/verdict.ts).
 */
export { MAX_REORDERED_WRITERS, otherOrders } from './orders';
export { caseVerdict } from './summary-text';
