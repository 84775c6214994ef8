/**
 * A store that loses the answer to a commit on purpose: for the lab's ambiguous-commit cases (G1–G3) and tests
 * only. The engine never builds one; a lab writer is given one only when its WriterSpec asks for the fault.
 *
 * The first conditional put of a log entry that lands has its answer lost. What the caller sees next is what
 * delta-rs 1.6.x's S3 client, object_store 0.13.2 (delta-rs python-v1.6.3 Cargo.toml L42), makes of that loss:
 *
 * - `connection-closed`: the server (or a proxy) closed the connection before the first byte of the answer.
 *   hyper calls that an incomplete message, which object_store files as `HttpErrorKind::Request`
 *   (src/client/http/connection.rs L104-108) and resends whatever the method, as if the request had never left
 *   (src/client/retry.rs L435-441: "Request not sent, can retry"). The resent PUT still carries
 *   `If-None-Match: *`, finds the key taken and gets 412, which becomes `Error::Precondition` (retry.rs L167) and
 *   then `Error::AlreadyExists` (src/aws/mod.rs L188-197). So the caller is told "already exists": putIfAbsent
 *   returns false. (A 5xx answered after the write landed, e.g. a gateway's 503 or 504, is resent the same way
 *   whatever the method: retry.rs L405-412.)
 * - `timeout`: no answer came in time, or the connection was reset. Those kinds (`Timeout`, `Interrupted`) are
 *   resent only for an idempotent request, and a `PutMode::Create` PUT is not marked idempotent (aws/mod.rs L182
 *   marks only `Overwrite`; a request starts non-idempotent, aws/client.rs L481). The error reaches the caller:
 *   putIfAbsent throws AnswerLostError, and delta-rs's commit loop returns it to the application
 *   (kernel/transaction/mod.rs L957-967).
 *
 * Line numbers are object_store v0.13.2's and delta-rs python-v1.6.3's; object_store v0.12.5 has the same code.
 */

import type { ListedObject, ListOptions, ObjectMeta, ObjectStore } from '../../../storage/object-store';
import { StorageError } from '../../../storage/object-store';
import { LOG_DIR } from './listing';

/** How the answer to the landed put is lost (see the module comment for what each does to the caller). */
export type LostAnswer = 'connection-closed' | 'timeout';

export const LOST_ANSWERS: readonly LostAnswer[] = ['connection-closed', 'timeout'];

/** The put landed, but the caller never learned it: object_store did not resend, so the error reaches the writer. */
export class AnswerLostError extends StorageError {
  override name = 'AnswerLostError';
}

/** What the store did, in words a run's record can carry. */
export interface LostAnswerEvent {
  key: string;
  how: LostAnswer;
  /** What the caller was told ('created' only by a store that let the resend overwrite its own entry). */
  told: 'already exists' | 'error' | 'created';
}

const LOG_ENTRY = new RegExp(`^${LOG_DIR}\\d{20}\\.json$`);

export class LostAnswerStore implements ObjectStore {
  /** The one loss, once it happened. */
  readonly events: LostAnswerEvent[] = [];

  constructor(
    readonly inner: ObjectStore,
    readonly how: LostAnswer,
  ) {}

  get location(): string {
    return this.inner.location;
  }
  get latestBy(): ObjectStore['latestBy'] {
    return this.inner.latestBy;
  }

  async putIfAbsent(key: string, body: Uint8Array): Promise<boolean> {
    const landed = await this.inner.putIfAbsent(key, body);
    // Only a put that lands can lose its answer in the way that matters: a refused one is answered as usual.
    if (!landed || this.events.length > 0 || !LOG_ENTRY.test(key)) return landed;
    if (this.how === 'timeout') {
      this.events.push({ key, how: this.how, told: 'error' });
      throw new AnswerLostError(
        `the answer to the conditional PUT of ${key} was lost (timed out); a conditional PUT is not resent, so whether it landed is unknown to the writer`,
      );
    }
    // object_store resends the same request: the server answers it as it answers any put on a taken key.
    const resent = await this.inner.putIfAbsent(key, body);
    this.events.push({ key, how: this.how, told: resent ? 'created' : 'already exists' });
    return resent;
  }

  get(key: string): Promise<Uint8Array> {
    return this.inner.get(key);
  }
  head(key: string): Promise<ObjectMeta | null> {
    return this.inner.head(key);
  }
  put(key: string, body: Uint8Array): Promise<void> {
    return this.inner.put(key, body);
  }
  putFile(key: string, localPath: string): Promise<void> {
    return this.inner.putFile(key, localPath);
  }
  list(prefix: string, options?: ListOptions): Promise<ListedObject[]> {
    return this.inner.list(prefix, options);
  }
  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }
  localPath(key: string): Promise<string> {
    return this.inner.localPath(key);
  }
  putBytes(key: string, body: Uint8Array): Promise<void> {
    return this.inner.putBytes(key, body);
  }
  sweepStaging(): Promise<void> {
    return this.inner.sweepStaging();
  }
  stagingDir(): Promise<string> {
    return this.inner.stagingDir();
  }
  copyIn(source: ObjectStore, key: string): Promise<void> {
    return this.inner.copyIn(source, key);
  }
}
