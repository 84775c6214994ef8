/**
 * The docs point somewhere: every relative link and every repository path named in README.md and docs/**\/*.md
 * exists, and every `#anchor` into a markdown file is a heading or an `<a id>` of that file. A miss is reported
 * as `file:line: what`, so the fix is one look away.
 *
 * What counts, in every line (fenced code included, since a command names paths too):
 * - a markdown link or image `[text](target)` whose target is no URL (no scheme, not `//…`): resolved against the
 *   document's folder; its `#anchor`, if any, checked in the markdown file it names (or in the document itself);
 * - a repository path: a word that starts with one of the repository's top-level folders (`apps/`, `packages/`,
 *   `docs/`, … as they are on disk) and is not part of a URL, a package name (`@prisma/adapter-pg`) or a longer
 *   path (`/data/docs/x`). Trailing punctuation is not part of it; `{a,b}` names both; `/…` or `/...` at the end
 *   means the folder itself; a `*` or a `<placeholder>` is checked up to the last folder before it; a
 *   `file.md#anchor` has its anchor checked;
 * - an inline code span naming a markdown file by itself (`api.md`, `DESIGN.md`): resolved against the document's
 *   folder, then the repository root.
 * Not checked: URLs, paths outside the repository (`/data/…`, `/tmp/…`), bare file names other than markdown ones
 * (`spec.ts`, named under a folder the sentence gives), and the folders the running product creates, which are
 * absent from a fresh clone: PRODUCT_CREATED below, the only exceptions.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** Top-level folders a fresh clone lacks: the product's data (LAB_WORK_DIR, the database, builds) and installs. */
const PRODUCT_CREATED = new Set(['var', 'node_modules']);

/** The repository's own top-level folders, as on disk. */
const TOP_FOLDERS = readdirSync(REPO, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('.') && !PRODUCT_CREATED.has(d.name))
  .map((d) => d.name);

/** README.md and every markdown file under docs/, relative to the repository root. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f))
    .sort(),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[`*_~[\]()]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a markdown file: its headings' slugs (repeated ones numbered, as GitHub does) and `<a id|name>`. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading?.[1] !== undefined) {
      const slug = headingSlug(heading[1]);
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      anchors.add(n === 0 ? slug : `${slug}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) if (m[1]) anchors.add(m[1]);
  }
  return anchors;
}

/** `a/{b,c}.md` as `a/b.md` and `a/c.md`. */
function expandBraces(path: string): string[] {
  const m = /\{([^{}]*)\}/.exec(path);
  if (!m) return [path];
  return (m[1] ?? '').split(',').flatMap((alt) => expandBraces(path.replace(m[0], alt)));
}

interface Reference {
  line: number;
  /** As written, for the report. */
  text: string;
  /** Repository-relative path, or null for the document itself (`#anchor`). */
  path: string | null;
  anchor?: string;
}

const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** What `doc` (repository-relative) points at, by the rules in this file's header. */
function referencesOf(doc: string, markdown: string, topFolders: readonly string[]): Reference[] {
  const out: Reference[] = [];
  const folder = dirname(doc);
  const repoPath = new RegExp(`(?<![\\w./:@~-])((?:${topFolders.join('|')})/[\\w.@/*<>{},…#-]*)`, 'g');
  markdown.split('\n').forEach((raw, i) => {
    const line = i + 1;
    for (const m of raw.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1] ?? '';
      if (URL_LIKE.test(target)) continue;
      const [path = '', anchor] = target.split('#');
      out.push({
        line,
        text: target,
        path: path === '' ? null : join(folder, decodeURIComponent(path)),
        ...(anchor !== undefined && { anchor }),
      });
    }
    // URLs and link targets are gone before paths are looked for: `s3://bucket/docs/x` names no repository file.
    const prose = raw.replace(/\]\([^)]*\)/g, '] ').replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ');
    for (const m of prose.matchAll(repoPath)) {
      const text = (m[1] ?? '').replace(/[.,;:)]+$/, '');
      const [path = '', anchor] = text.split('#');
      for (const p of expandBraces(path)) {
        const literal = p.split('/');
        const cut = literal.findIndex((seg) => /[*<>]/.test(seg) || seg === '…' || seg === '...');
        const kept = (cut === -1 ? literal : literal.slice(0, cut)).join('/').replace(/\/$/, '');
        out.push({ line, text, path: kept, ...(anchor !== undefined && anchor !== '' && { anchor }) });
      }
    }
    for (const m of raw.matchAll(/`([\w.-]+\.md)(?:#([\w-]+))?`/g)) {
      const name = m[1] ?? '';
      const path = existsSync(join(REPO, folder, name)) ? join(folder, name) : name;
      out.push({ line, text: m[0].slice(1, -1), path, ...(m[2] !== undefined && { anchor: m[2] }) });
    }
  });
  return out;
}

/** Why `ref` of `doc` points nowhere, or null when it points somewhere. */
function missing(doc: string, ref: Reference, anchorCache: Map<string, Set<string>>): string | null {
  const path = ref.path ?? doc;
  const full = join(REPO, path);
  if (!full.startsWith(REPO) || !existsSync(full)) return `${ref.text}: no ${path} in the repository`;
  if (ref.anchor === undefined || !path.endsWith('.md') || statSync(full).isDirectory()) return null;
  let anchors = anchorCache.get(path);
  if (anchors === undefined) {
    anchors = anchorsOf(readFileSync(full, 'utf8'));
    anchorCache.set(path, anchors);
  }
  return anchors.has(ref.anchor) ? null : `${ref.text}: ${path} has no anchor #${ref.anchor}`;
}

describe('the docs point somewhere', () => {
  it('reads README.md and the docs, and finds the repository folders they name', () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'docs/history.md']));
    expect(TOP_FOLDERS).toEqual(expect.arrayContaining(['apps', 'packages', 'docs', 'contracts', 'fixtures']));
    expect(TOP_FOLDERS).not.toContain('var');
  });

  it('every relative link, repository path and anchor in them exists', () => {
    const anchorCache = new Map<string, Set<string>>();
    const problems = DOCUMENTS.flatMap((doc) =>
      referencesOf(doc, readFileSync(join(REPO, doc), 'utf8'), TOP_FOLDERS).flatMap((ref) => {
        const why = missing(doc, ref, anchorCache);
        return why === null ? [] : [`${doc}:${ref.line}: ${why}`];
      }),
    );
    expect(problems).toEqual([]);
  });
});

describe('the rules, on a made-up document', () => {
  const doc = 'docs/made-up.md';
  const refs = (text: string) =>
    referencesOf(doc, text, ['apps', 'docs', 'packages']).map((r) => [r.path, r.anchor ?? null]);

  it('finds links, repository paths and markdown names, and leaves URLs and outside paths alone', () => {
    expect(
      refs(
        [
          'See [the API](api.md#tokens) and [below](#rules), `apps/api/schema.graphql` and packages/lab/src/...;',
          'not https://example.com/docs/x.md, s3://bucket/apps/x, /data/docs/y, @prisma/adapter-pg or `spec.ts`;',
          '`DESIGN.md`, `docs/lab-results.{json,txt}`, `prisma/x` and `apps/*/src`.',
        ].join('\n'),
      ),
    ).toEqual([
      ['docs/api.md', 'tokens'],
      [null, 'rules'],
      ['apps/api/schema.graphql', null],
      ['packages/lab/src', null],
      ['docs/lab-results.json', null],
      ['docs/lab-results.txt', null],
      ['apps', null],
      ['DESIGN.md', null],
    ]);
  });

  it('slugs headings as GitHub does, and counts an <a id> as an anchor', () => {
    expect([...anchorsOf('# The `race` API: tokens & roles\n## Notes\n## Notes\n<a id="rule-x"></a>')]).toEqual([
      'the-race-api-tokens--roles',
      'notes',
      'notes-1',
      'rule-x',
    ]);
  });

  it('a path that is not in the repository is reported with its document and line', () => {
    const ref = referencesOf(doc, 'one\nthe schema is `contracts/api.graphql`', ['contracts'])[0];
    expect(ref && missing(doc, ref, new Map())).toBe(
      'contracts/api.graphql: no contracts/api.graphql in the repository',
    );
    expect(ref?.line).toBe(2);
  });
});
