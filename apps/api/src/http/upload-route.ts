/**
 * `POST /uploads/code`: an archive of code for `auditCode(upload: …)`, the one request whose body is not JSON.
 * The edge (http/edge.ts) has checked Host and Origin, that the body is `application/zip` or `application/gzip`
 * and that its Content-Length is at most the archive bound (50 MB) before anything is read; here a token or a
 * dashboard session is required, and the body is streamed to a file of its own under LAB_WORK_DIR/uploads,
 * counted as it comes (never more than it said). The answer is the upload's id (uploads/store.ts keeps it for an
 * hour: older ones are removed when a new one arrives, and `auditCode` removes the one it reads).
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ArchiveKind } from '@racelab/lab';
import type { CallerCheck } from '../auth/callers';
import { SESSION_NOT_RECOGNISED, TOKEN_NOT_RECOGNISED } from '../errors/client-errors';
import { removeStaleUploads, type UploadFiles, type UploadInfo, uploadFiles, uploadsDir } from '../uploads/store';

export const UPLOAD_PATH = '/uploads/code';
/** Each archive kind by the content type it is sent as. */
export const UPLOAD_TYPES: Readonly<Record<string, ArchiveKind>> = {
  'application/zip': 'zip',
  'application/gzip': 'tar.gz',
};
const MAX_NAME = 120;

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

const refuse = (req: IncomingMessage, res: ServerResponse, status: number, code: string, message: string) => {
  req.resume();
  answer(res, status, { errors: [{ message, extensions: { code } }] });
};

/** The file name from `?name=`, cleaned: no folders, no control characters, bounded; "archive" when none. */
function nameOf(req: IncomingMessage): string {
  const given = new URL(req.url ?? '/', 'http://api').searchParams.get('name') ?? '';
  const base = given.split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, MAX_NAME);
  return clean === '' ? 'archive' : clean;
}

export async function uploadRoute(
  req: IncomingMessage,
  res: ServerResponse,
  caller: CallerCheck,
  workDir: string,
): Promise<void> {
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    return refuse(req, res, 405, 'BAD_REQUEST', `${UPLOAD_PATH} takes POST`);
  }
  if (caller.kind === 'none')
    return refuse(req, res, 401, 'UNAUTHENTICATED', 'an upload needs an API token or a dashboard session');
  if (caller.kind === 'unrecognised') {
    const message = caller.scheme === 'Session' ? SESSION_NOT_RECOGNISED : TOKEN_NOT_RECOGNISED;
    return refuse(req, res, 401, 'UNAUTHENTICATED', message);
  }
  const kind = UPLOAD_TYPES[contentType(req)] as ArchiveKind;
  const length = Number(req.headers['content-length']);
  const dir = uploadsDir(workDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await removeStaleUploads(dir, Date.now());
  const id = randomUUID();
  const files = uploadFiles(workDir, id) as UploadFiles;
  let received = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.byteLength;
      done(received > length ? new Error('the body is longer than its Content-Length') : null, chunk);
    },
  });
  try {
    await pipeline(req, meter, createWriteStream(files.archive, { flags: 'wx', mode: 0o600 }));
  } catch {
    await rm(files.archive, { force: true });
    if (!res.headersSent) refuse(req, res, 400, 'BAD_REQUEST', 'the upload did not arrive whole');
    return;
  }
  if (received !== length) {
    await rm(files.archive, { force: true });
    return refuse(req, res, 400, 'BAD_REQUEST', `the upload is ${received} bytes, not the ${length} it said`);
  }
  const info: UploadInfo = { kind, name: nameOf(req) };
  await writeFile(files.info, JSON.stringify(info), { mode: 0o600 });
  answer(res, 201, { upload: id });
}

export function contentType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
