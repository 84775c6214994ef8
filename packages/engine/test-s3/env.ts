/**
 * The S3 server the S3 tests run against: `npm run test:s3` starts Debian's radosgw on loopback
 * and exports its endpoint, keys and bucket. Without them these tests fail at once, saying so,
 * rather than skip: an S3 test that silently does not run proves nothing.
 */
export function s3Env(): { bucket: string; endpoint: string } {
  const bucket = process.env.LAB_S3_BUCKET;
  const endpoint = process.env.AWS_ENDPOINT_URL;
  if (!bucket || !endpoint) throw new Error('no S3 server: run these tests with `npm run test:s3`');
  return { bucket, endpoint };
}

/** A fresh prefix in the test bucket for one test file. */
export const s3Root = (name: string) => `s3://${s3Env().bucket}/${name}-${process.pid}-${Date.now()}`;
