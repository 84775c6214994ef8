/** The lean S3 sender's reading of a ListObjectsV2 answer (src/storage/s3-lean.ts): what it cannot read is null. */
import { describe, expect, it } from 'vitest';
import { parseListPage } from '../src/storage/s3-lean';

const page = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${inner}</ListBucketResult>`;

describe('parseListPage', () => {
  it('reads keys with their XML escapes undone, sizes, and the token of a truncated page', () => {
    const xml = page(
      '<IsTruncated>true</IsTruncated><Contents><Key>t/a&amp;b &lt;c&gt;&#233;.json</Key><Size>12</Size></Contents>' +
        '<Contents><Key>t/d.json</Key><Size>0</Size></Contents><NextContinuationToken>x&amp;y</NextContinuationToken>',
    );
    expect(parseListPage(xml)).toEqual({
      contents: [
        { key: 't/a&b <c>é.json', size: 12 },
        { key: 't/d.json', size: 0 },
      ],
      nextToken: 'x&y',
    });
    expect(parseListPage(page('<IsTruncated>false</IsTruncated>'))).toEqual({ contents: [] });
  });

  it('gives up on what it does not know: another document, a truncated page without a token, a key-less entry', () => {
    expect(parseListPage('<Error><Code>AccessDenied</Code></Error>')).toBeNull();
    expect(parseListPage(page('<IsTruncated>true</IsTruncated>'))).toBeNull();
    expect(parseListPage(page('<Contents><Size>1</Size></Contents>'))).toBeNull();
  });
});
