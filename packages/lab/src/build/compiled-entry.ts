/**
 * Entry points compiled once, so a process we start runs plain JavaScript instead of loading the
 * TypeScript compiler (`--import tsx` costs about a second per process on 2 cores). An entry is bundled
 * with esbuild: this repository's own packages are compiled into it, everything from node_modules stays
 * an import. The bundle is named by a hash of every source it was built from and rebuilt when any of
 * them changes, so a stale bundle never runs.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import type { Plugin } from 'esbuild';

import { REPO_ROOT as REPO } from './repo-root';

/** Where bundles live: beside the lab's other generated files, outside every table and source folder. */
export const DEFAULT_BUILD_DIR = join(REPO, 'var/build');

interface Manifest {
  /** The bundle's file name in the build folder. */
  bundle: string;
  /** Repo-relative source paths and the sha256 of their bytes when the bundle was built. */
  inputs: Record<string, string>;
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * Dependencies compiled into the bundle although they are not ours: dt-sql-parser's published ESM imports
 * folders (`./parser`), which Node's own loader refuses, so it runs only once a bundler has resolved them.
 */
const BUNDLED_DEPENDENCIES = ['dt-sql-parser'];

/** Bare imports that are not ours stay imports: native modules (DuckDB) and big SDKs load from node_modules. */
const externalDependencies: Plugin = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@racelab/') ||
      BUNDLED_DEPENDENCIES.some((d) => args.path === d || args.path.startsWith(`${d}/`))
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

async function upToDate(manifest: Manifest): Promise<boolean> {
  for (const [file, hash] of Object.entries(manifest.inputs)) {
    const bytes = await readFile(join(REPO, file)).catch(() => null);
    if (!bytes || sha256(bytes) !== hash) return false;
  }
  return true;
}

/** A file's size and modification time: cheap to ask, and what changes when the file is written. */
const stampOf = (file: string) =>
  stat(file, { bigint: true }).then(
    (st) => `${st.size}:${st.mtimeNs}`,
    () => 'missing',
  );

interface Built {
  bundle: string;
  /** Every input's stamp when it was hashed: while none changes, the bundle needs no second look. */
  stamps: Map<string, string>;
}

/** What this process built or found, per build folder and entry; checked by stamps on every later call. */
const built = new Map<string, Built>();
const building = new Map<string, Promise<string>>();

async function unchanged(b: Built): Promise<boolean> {
  for (const [file, stamp] of b.stamps) if ((await stampOf(file)) !== stamp) return false;
  return true;
}

/**
 * The path of a runnable `.mjs` for the TypeScript entry `source`, built now if no bundle of its
 * current sources exists. Later calls in one process look at the inputs' sizes and modification times
 * (about a millisecond) and hash and rebuild only when one changed; concurrent callers share one build;
 * builds in two processes each write their own temporary file and rename it, so a reader never sees half
 * a bundle.
 */
export async function compiledEntry(source: string, buildDir = DEFAULT_BUILD_DIR): Promise<string> {
  const key = `${buildDir}\0${source}`;
  const known = built.get(key);
  if (known && (await unchanged(known))) return known.bundle;
  let pending = building.get(key);
  if (!pending) {
    pending = compile(source, buildDir).then(({ bundle, stamps }) => {
      built.set(key, { bundle, stamps });
      return bundle;
    });
    building.set(key, pending);
    // Done or failed, the next caller looks again (a failed build is tried again, not remembered).
    void pending.then(
      () => building.delete(key),
      () => building.delete(key),
    );
  }
  return pending;
}

/** Stamps of every input, taken before the inputs are hashed (a write after that shows as a change next time). */
async function stampsOf(files: string[]): Promise<Map<string, string>> {
  return new Map(await Promise.all(files.map(async (f) => [f, await stampOf(f)] as const)));
}

async function compile(source: string, buildDir: string): Promise<Built> {
  const name = basename(source).replace(/\.ts$/, '');
  const manifestFile = join(buildDir, `${name}-${sha256(relative(REPO, source)).slice(0, 12)}.json`);
  const known = await readFile(manifestFile, 'utf8')
    .then((t) => JSON.parse(t) as Manifest)
    .catch(() => null);
  if (known) {
    const stamps = await stampsOf(Object.keys(known.inputs).map((f) => join(REPO, f)));
    const bundle = join(buildDir, known.bundle);
    // The bundle itself is stamped too: one removed from the build folder is built again, not forked.
    stamps.set(bundle, await stampOf(bundle));
    if (stamps.get(bundle) !== 'missing' && (await upToDate(known))) return { bundle, stamps };
  }

  await mkdir(buildDir, { recursive: true });
  // Loaded only to build: a bundle that imports this module (the writer's, through the lab) never loads esbuild.
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [source],
    absWorkingDir: REPO,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    metafile: true,
    sourcemap: 'inline',
    logLevel: 'silent',
    plugins: [externalDependencies],
    // Bundled CommonJS helpers may still call require(); ESM has none unless we make one.
    banner: {
      js: "import { createRequire as __racelabRequire } from 'node:module'; const require = __racelabRequire(import.meta.url);",
    },
  });
  const code = out.outputFiles[0]?.contents;
  if (!code) throw new Error(`esbuild produced no output for ${relative(REPO, source)}`);
  const inputs: Record<string, string> = {};
  const stamps = await stampsOf(Object.keys(out.metafile.inputs).map((input) => resolve(REPO, input)));
  for (const input of Object.keys(out.metafile.inputs)) {
    const file = resolve(REPO, input);
    inputs[relative(REPO, file)] = sha256(await readFile(file));
  }
  const bundle = `${name}-${sha256(Buffer.from(code)).slice(0, 12)}.mjs`;
  const temp = join(buildDir, `.${bundle}.${process.pid}.tmp`);
  await writeFile(temp, code);
  await rename(temp, join(buildDir, bundle));
  const tempManifest = `${manifestFile}.${process.pid}.tmp`;
  await writeFile(tempManifest, JSON.stringify({ bundle, inputs } satisfies Manifest));
  await rename(tempManifest, manifestFile);
  stamps.set(join(buildDir, bundle), await stampOf(join(buildDir, bundle)));
  return { bundle: join(buildDir, bundle), stamps };
}
