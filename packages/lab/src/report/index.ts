/** The lesson's report checker (`npm run lab:report FILE`): shares only the results file's types with the lab. */
export { checkResults } from './check';
export { checkDocument, DEFAULT_CASES_DOC, derivedFigures, extractNumbers } from './document';
export { CASE_IDS, CASE_SPECS } from './expectations/index';
export * as messages from './expectations/messages';
export { conflictOf, FLAT_LAYOUT, updateCommit } from './expectations/retry';
export type { CaseReport, CheckOptions, DocumentReport, Figures, NamedFigure, Report } from './expectations/types';
export { UnusableInputError } from './expectations/types';
export { formatReport } from './format';
export { recount } from './recount';
export { validateResults } from './validate';
