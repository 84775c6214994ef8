/**
 * Where uploaded archives wait for their audit: LAB_WORK_DIR/uploads/<id> (the bytes) and <id>.json (what kind
 * of archive, and the name the client gave it), for an hour at most. The id is a random UUID, and a client's id
 * is checked to be one before it names any file.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveKind } from '@racelab/lab';

/** How long an upload waits for its audit. */
export const UPLOAD_KEEP_MS = 60 * 60 * 1000;
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What is kept beside an upload's bytes. */
export interface UploadInfo {
  kind: ArchiveKind;
  /** The file name the client gave, for the audit's `source`. */
  name: string;
}

export interface UploadFiles {
  archive: string;
  info: string;
}

export const uploadsDir = (workDir: string) => join(workDir, 'uploads');

/** The files of upload `id`, or null when `id` (a client's text) is not an upload id at all. */
export function uploadFiles(workDir: string, id: string): UploadFiles | null {
  if (!ID.test(id)) return null;
  return { archive: join(uploadsDir(workDir), id), info: join(uploadsDir(workDir), `${id}.json`) };
}

/** An upload's info, or null when it is not there (never made, used, or removed after an hour). */
export async function readUpload(files: UploadFiles): Promise<UploadInfo | null> {
  try {
    return JSON.parse(await readFile(files.info, 'utf8')) as UploadInfo;
  } catch {
    return null;
  }
}

export async function removeUpload(files: UploadFiles): Promise<void> {
  await rm(files.archive, { force: true });
  await rm(files.info, { force: true });
}

/** Removes uploads older than UPLOAD_KEEP_MS from `dir`. */
export async function removeStaleUploads(dir: string, now: number): Promise<void> {
  for (const entry of await readdir(dir)) {
    const path = join(dir, entry);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > UPLOAD_KEEP_MS) await rm(path, { force: true, recursive: true });
  }
}
