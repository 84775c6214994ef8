/** The lesson's report checker (`npm run lab:report FILE`): shares only the results file's types with the lab. */
export { checkResults } from './check';
export { checkDocument, DEFAULT_CASES_DOC, derivedFigures, extractNumbers } from './document';
export { CASE_IDS, CASE_SPECS } from './expectations/index';
export { conflictOf, FLAT_LAYOUT, updateCommit } from './expectations/retry';
export { formatReport } from './format';
export * as messages from './messages';
export { recount } from './recount';
export type { CaseReport, CheckOptions, DocumentReport, Figures, NamedFigure, Report } from './types';
export { UnusableInputError } from './types';
export { validateResults } from './validate';
