/**
 * Running a code audit for the API: a folder under LAB_ROOTS (through the lab's one location resolver, shown by
 * the path as given), or an uploaded archive unpacked into a scratch folder under LAB_WORK_DIR/code-audits that
 * is removed when the audit is done, with the upload itself. Entries the archive held but that were not unpacked
 * (links, devices) are listed with the files the audit skipped.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ArchiveRefusedError,
  auditCode,
  type LocationConfig,
  LocationError,
  resolveFolderLocation,
  unpackArchive,
} from '@racelab/lab';
import { GraphQLError } from 'graphql';
import { InputError } from '../errors/client-errors';
import { readUpload, removeUpload, uploadFiles } from '../uploads/store';
import { type StoredCodeAudit, withSnippets } from './snippets';

/** What to audit: exactly one of a path and an upload id, as the client gave them. */
export interface CodeSource {
  path?: string | null;
  upload?: string | null;
}

export interface CodeAuditRun {
  /** The source as a client may see it: the path as given, or "upload <name>". */
  source: string;
  result: StoredCodeAudit;
}

/** An archive over a bound, with an entry that would leave its folder, or not an archive of its kind. */
export class ArchiveRefusedGraphQLError extends GraphQLError {
  constructor(e: ArchiveRefusedError) {
    super(e.message, { extensions: { code: 'ARCHIVE_REFUSED', refusal: e.refusal } });
  }
}

async function auditFolder(dir: string): Promise<StoredCodeAudit> {
  return withSnippets(await auditCode([dir]), dir);
}

/**
 * Audits `source`; a bad path or upload id is an InputError, a refused archive an ArchiveRefusedGraphQLError,
 * and anything the audit itself throws is passed on for the caller to word.
 */
export async function runCodeAudit(source: CodeSource, cfg: LocationConfig): Promise<CodeAuditRun> {
  const hasPath = source.path != null;
  const hasUpload = source.upload != null;
  if (hasPath === hasUpload) throw new InputError('give exactly one of path and upload');
  if (hasPath) {
    let folder: Awaited<ReturnType<typeof resolveFolderLocation>>;
    try {
      folder = await resolveFolderLocation(source.path as string, cfg);
    } catch (e) {
      if (e instanceof LocationError) throw new InputError(`path: ${e.message}`);
      throw e;
    }
    return { source: folder.display, result: await auditFolder(folder.path) };
  }
  const id = String(source.upload);
  const files = uploadFiles(cfg.workDir, id);
  const info = files && (await readUpload(files));
  if (!files || !info)
    throw new InputError(
      `upload: no upload ${JSON.stringify(id.slice(0, 64))} (an upload is audited once, within the hour)`,
    );
  let unpacked: Awaited<ReturnType<typeof unpackArchive>>;
  try {
    unpacked = await unpackArchive(files.archive, info.kind, join(cfg.workDir, 'code-audits'));
  } catch (e) {
    if (e instanceof ArchiveRefusedError) throw new ArchiveRefusedGraphQLError(e);
    throw e;
  } finally {
    await removeUpload(files);
  }
  try {
    const result = await auditFolder(unpacked.dir);
    const notUnpacked = unpacked.skipped.map((s) => ({ file: s.entry, reason: `in the archive, ${s.reason}` }));
    result.files = { ...result.files, skipped: [...result.files.skipped, ...notUnpacked] };
    return { source: `upload ${info.name}`, result };
  } finally {
    await rm(unpacked.dir, { recursive: true, force: true });
  }
}
