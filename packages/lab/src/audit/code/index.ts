/**
 * The code audit's entry (a stand-in with the orchestrator's signature, replaced when it is merged): reads the
 * settings that decide concurrency from the files under `paths`, judges them, and says what it found.
 */
import type { CodeAudit } from './setting';

export interface CodeAuditOptions {
  /** Called as files are read. */
  onProgress?: (progress: { files: number }) => void;
  /** Stops the walk. */
  signal?: AbortSignal;
}

export async function auditCode(_paths: string[], _options: CodeAuditOptions = {}): Promise<CodeAudit> {
  return { settings: [], findings: [], files: { scanned: 0, skipped: [], unparseable: [] }, failed: false };
}
