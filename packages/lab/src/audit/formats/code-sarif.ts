/**
 * A code audit as SARIF 2.1.0, so code-scanning views put each finding on its line: one result per finding,
 * located at the file relative to the scanned root (uriBaseId SRCROOT) with the value's line and columns, the
 * other places it names as related locations, every code rule described whether it fired or not, and the files
 * the audit did not read as notifications of the run.
 */
import labPackage from '../../../package.json' with { type: 'json' };
import type { CodeAudit, CodeFinding, CodePlace } from '../code/setting';
import { CODE_RULE_HELP, codeRuleHelp } from './code-rule-help';
import { ruleDescriptor, SARIF_SCHEMA_URI, sentence } from './sarif';

export interface CodeSarifInput {
  audit: CodeAudit;
  /** Absolute URI of docs/jobs-audit.md; each rule's help is its anchor there. */
  docsUri: string;
  /** The scanned root as an absolute file: URI ending in '/', when there is one root: SRCROOT's value. */
  rootUri?: string;
}

/** A relative file name as a URI reference: each segment percent-encoded, '/' kept. */
export const fileUri = (file: string) => file.split('/').map(encodeURIComponent).join('/');

function location(place: CodePlace) {
  return {
    physicalLocation: {
      artifactLocation: { uri: fileUri(place.file), uriBaseId: 'SRCROOT' },
      region: {
        startLine: place.line,
        startColumn: place.column,
        ...(place.endColumn !== undefined && place.endColumn > place.column && { endColumn: place.endColumn }),
      },
    },
  };
}

export function toCodeSarif({ audit, docsUri, rootUri }: CodeSarifInput): object {
  const ruleIds = [...new Set([...Object.keys(CODE_RULE_HELP), ...audit.findings.map((f) => f.rule)])];
  const result = (f: CodeFinding) => ({
    ruleId: f.rule,
    ruleIndex: ruleIds.indexOf(f.rule),
    level: f.severity,
    message: { text: `${sentence(f.evidence)} Fix: ${sentence(f.fix)}` },
    locations: [location(f.at)],
    ...(f.related.length > 0 && {
      relatedLocations: f.related.map((p, i) => ({
        id: i + 1,
        ...location(p),
        message: { text: sentence(p.message ?? `${p.file}:${p.line}`) },
      })),
    }),
    ...(f.table !== undefined && { properties: { table: f.table } }),
  });
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'racelab code audit',
            version: labPackage.version,
            informationUri: docsUri,
            rules: ruleIds.map((id) => ruleDescriptor(id, codeRuleHelp(id), docsUri)),
          },
        },
        ...(rootUri !== undefined && { originalUriBaseIds: { SRCROOT: { uri: rootUri } } }),
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: audit.files.skipped.map((s) => ({
              level: 'note',
              descriptor: { id: 'file-skipped' },
              message: { text: sentence(`${s.file} was not read: ${s.reason}`) },
            })),
          },
        ],
        // Positions count UTF-16 code units, as JavaScript strings do.
        columnKind: 'utf16CodeUnits',
        results: audit.findings.map(result),
      },
    ],
  };
}
