/**
 * Stored error text as a client sees it. Workers store it safe already; rows written before they did
 * may quote SQL or server folders, so it is made safe again when read (that changes nothing otherwise).
 */
import { clientSafeMessage, namedRoots } from '@racelab/lab';
import type { ApiContext } from './builder';

export const clientSafeText = (text: string, ctx: ApiContext) =>
  clientSafeMessage(text, { roots: namedRoots(ctx.locations) });
export const clientSafeTextOrNull = (text: string | null, ctx: ApiContext) =>
  text === null ? null : clientSafeText(text, ctx);
