/**
 * Removes the probe's scratch prefix: every object under it and every multipart upload left open
 * there, then lists it again to say what is left. Only keys under `scratch` (which ends in '/') are
 * ever deleted, so the probe writes and removes nothing outside its own folder.
 */
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import { describeFailure } from './calls';
import type { LatencyLog } from './report';

async function keysUnder(client: S3Client, bucket: string, scratch: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const r = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: scratch, ...(token && { ContinuationToken: token }) }),
    );
    for (const o of r.Contents ?? []) if (o.Key?.startsWith(scratch)) keys.push(o.Key);
    token = r.IsTruncated ? r.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/** Deletes in a few parallel lanes: one request per key works on every S3 (no multi-delete checksum rules). */
async function inLanes<T>(items: T[], lanes: number, run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, items.length) }, async () => {
      while (next < items.length) await run(items[next++] as T);
    }),
  );
}

export async function removeScratch(
  client: S3Client,
  bucket: string,
  scratch: string,
  endpoint: string,
  latency: LatencyLog,
): Promise<{ removed: number; leftover: number; error?: string }> {
  let removed = 0;
  try {
    const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: scratch }));
    for (const u of uploads.Uploads ?? []) {
      if (u.Key?.startsWith(scratch) && u.UploadId) {
        await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: u.Key, UploadId: u.UploadId }));
      }
    }
    await inLanes(await keysUnder(client, bucket, scratch), 8, async (key) => {
      const t0 = performance.now();
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      latency.add('delete', performance.now() - t0);
      removed++;
    });
    return { removed, leftover: (await keysUnder(client, bucket, scratch)).length };
  } catch (e) {
    return { removed, leftover: -1, error: describeFailure(e, bucket, endpoint) };
  } finally {
    client.destroy();
  }
}
