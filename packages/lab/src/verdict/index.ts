/** The serial-replay oracle: did a run's table end as some serial order of its committed writers would leave it? */
export { type DeltaVerdictInput, deltaVerdict } from '../formats/delta/verdict';
export { type IcebergVerdictInput, icebergCommitOrder, icebergVerdict, racedIcebergState } from '../formats/iceberg/verdict';
export { MAX_REORDERED_WRITERS, otherOrders } from './orders';
export { commitOrderOf } from '../formats/delta/replay';
export { caseVerdict } from './summary-text';
