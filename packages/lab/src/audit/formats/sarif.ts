/**
 * A jobs audit as SARIF 2.1.0, the format code-scanning CIs read: one result per finding, located at
 * the line of the job it is about in the manifest (the other jobs of a finding as related
 * locations), every rule described in `tool.driver.rules` whether it fired or not, and the checks
 * the audit's limits cut short as notifications of the run, so a CI sees what was not checked.
 */
import labPackage from '../../../package.json' with { type: 'json' };
import type { JobAudit } from '../index';
import type { Finding, Severity } from '../types';
import type { TextPosition } from './job-lines';
import { RULE_HELP, ruleHelp } from './rule-help';

export const SARIF_SCHEMA_URI =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/** A rule as SARIF describes it in `tool.driver.rules`: its help, and its anchor in the docs (`docsUri`). */
export function ruleDescriptor(id: string, help: { summary: string; description: string }, docsUri: string) {
  return {
    id,
    shortDescription: { text: help.summary },
    fullDescription: { text: help.description },
    helpUri: `${docsUri}#${id}`,
  };
}

export interface SarifInput {
  audit: JobAudit;
  /** The manifest as the results name it: a path relative to where the command ran, or a file: URI. */
  manifestUri: string;
  /** Each job's place in the manifest (jobLines); a job missing here is located at the file alone. */
  jobPositions: Map<string, TextPosition>;
  /** Absolute URI of docs/jobs-audit.md; each rule's help is its anchor there. */
  docsUri: string;
}

export function toSarif({ audit, manifestUri, jobPositions, docsUri }: SarifInput): object {
  const ruleIds = [...new Set([...Object.keys(RULE_HELP), ...audit.findings.map((f) => f.rule)])];
  const location = (job: string) => {
    const at = jobPositions.get(job);
    return {
      physicalLocation: {
        artifactLocation: { uri: manifestUri },
        ...(at && { region: { startLine: at.line, startColumn: at.column } }),
      },
      logicalLocations: [{ name: job, kind: 'object' }],
    };
  };
  const result = (f: Finding) => {
    const [first, ...others] = f.jobs;
    return {
      ruleId: f.rule,
      ruleIndex: ruleIds.indexOf(f.rule),
      level: LEVEL[f.severity],
      message: { text: `${sentence(f.evidence)} Fix: ${sentence(f.fix)}` },
      locations: [
        first === undefined ? { physicalLocation: { artifactLocation: { uri: manifestUri } } } : location(first),
      ],
      ...(others.length > 0 && {
        relatedLocations: others.map((job, i) => ({ id: i + 1, ...location(job), message: { text: `job '${job}'` } })),
      }),
      properties: { jobs: f.jobs, table: f.table },
    };
  };
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'racelab jobs audit',
            version: labPackage.version,
            informationUri: docsUri,
            rules: ruleIds.map((id) => {
              const help = ruleHelp(id);
              return { ...ruleDescriptor(id, help, docsUri), properties: { reads: help.reads } };
            }),
          },
        },
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: audit.skipped.map((s) => ({
              level: 'warning',
              descriptor: { id: s.check },
              message: { text: sentence(s.note) },
            })),
          },
        ],
        // The job positions count UTF-16 code units, as JavaScript strings do.
        columnKind: 'utf16CodeUnits',
        results: audit.findings.map(result),
      },
    ],
  };
}

/** SARIF messages are sentences (the spec asks for the final period, and viewers join them). */
export function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
