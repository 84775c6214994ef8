/**
 * A request body read with its size bounded before it is read: a declared Content-Length over the
 * limit is refused without reading a byte, and a body without one (chunked) is counted as it
 * streams and abandoned at the first chunk past the limit, so no client can make the server hold
 * more than the limit in memory.
 */

/** The body as text, or null when it is over `limit` bytes. */
export async function readCappedBody(request: Request, limit: number): Promise<string | null> {
  if (Number(request.headers.get('content-length')) > limit) return null;
  const reader = request.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
