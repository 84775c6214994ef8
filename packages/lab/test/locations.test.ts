/**
 * The one resolver of table locations, on real folders and symbolic links in a temp directory, and the
 * lab alias building real base tables at scale 0.01.
 */
import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeltaTable } from '@racelab/engine';
import { describe, expect, it } from 'vitest';
import { prepareDataset } from '../src/data/index';
import { ensureBaseTables } from '../src/tables/base-tables';
import {
  type LocationConfig,
  LocationError,
  locationConfigFromEnv,
  MAX_LOCATION_LENGTH,
  resolveFolderLocation,
  resolveTableLocation,
} from '../src/tables/locations';
import { noTlcDir, SMALL_SCALE, tempDir } from './helpers/small-base';

const tmp = tempDir('locations');
const root = join(tmp, 'tables');
const second = join(tmp, 'more-tables');
const outside = join(tmp, 'outside');
for (const d of [join(root, 'team', 'trips'), second, outside, join(root, 'real')]) mkdirSync(d, { recursive: true });
symlinkSync(outside, join(root, 'escape'));
symlinkSync(join(root, 'real'), join(root, 'shortcut'));
symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
const workDir = join(tmp, 'work');
const cfg: LocationConfig = { roots: [root, second], workDir, dataDir: noTlcDir(tmp) };
const realRoot = realpathSync(root);

/** The LocationError a location is refused with (fails the test if it resolves or throws anything else). */
async function refusal(text: string): Promise<LocationError> {
  const e = await resolveTableLocation(text, cfg).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(LocationError);
  const err = e as LocationError;
  expect(err.name).toBe('LocationError');
  expect(err.message).not.toMatch(/\n\s+at /);
  return err;
}

describe('paths', () => {
  it('resolves a relative path against the first root, trimmed and normalised', async () => {
    expect(await resolveTableLocation('  team//trips/  ', cfg)).toEqual({
      kind: 'local',
      path: join(realRoot, 'team', 'trips'),
      display: 'team/trips',
    });
  });

  it('accepts a path that does not exist yet, below the existing part', async () => {
    expect((await resolveTableLocation('team/new/table', cfg)).path).toBe(join(realRoot, 'team', 'new', 'table'));
  });

  it('accepts an absolute path inside any root', async () => {
    expect((await resolveTableLocation(join(root, 'team', 'trips'), cfg)).path).toBe(join(realRoot, 'team', 'trips'));
    expect((await resolveTableLocation(join(second, 'x'), cfg)).path).toBe(join(realpathSync(second), 'x'));
  });

  it('refuses an absolute path outside the roots, naming the roots by their place in LAB_ROOTS', async () => {
    const e = await refusal('/etc/passwd');
    expect(e.message).toBe("'/etc/passwd' is not inside one of the 2 table roots (LAB_ROOTS)");
  });

  it('refuses a root itself', async () => {
    expect((await refusal(root)).message).toContain('is a table root itself');
    expect((await refusal('.')).message).toBe("'.' is a table root itself; give a table folder inside it");
  });

  it("refuses any '..' segment, even one that would stay inside a root", async () => {
    for (const text of ['../outside', 'team/../team/trips', `${root}/team/../x`, '..']) {
      expect((await refusal(text)).message).toContain("'..' is not allowed");
    }
  });

  it('refuses a symbolic link that leads outside a root, and follows one that stays inside', async () => {
    expect((await refusal('escape/table')).message).toContain('through a symbolic link');
    await refusal(join(root, 'escape'));
    expect((await resolveTableLocation('shortcut/t', cfg)).path).toBe(join(realRoot, 'real', 't'));
  });

  it('refuses a symbolic link loop, naming the location as given', async () => {
    expect((await refusal('loop-a/t')).message).toBe("cannot follow 'loop-a/t': ELOOP");
  });

  it('names no folder of the server in any refusal, only what the person wrote', async () => {
    // Each message reaches an API client: the roots' absolute paths are the server's business.
    const texts = ['/etc/passwd', '.', 'escape/table', 'loop-a/t', '..', '   ', 'lab:flat@0.3', 'gs://b/t', root];
    for (const text of texts) {
      const { message } = await refusal(text);
      for (const dir of [realRoot, second, tmp]) expect(message.replace(text, '<given>')).not.toContain(dir);
    }
  });

  it('refuses NUL and other control characters, empty text and overlong text', async () => {
    expect((await refusal('team/a\0b')).message).toContain('U+0000 at position 7');
    expect((await refusal('team/a\nb')).message).toContain('U+000A');
    expect((await refusal('   ')).message).toContain('a table location is required');
    expect((await refusal('a'.repeat(MAX_LOCATION_LENGTH + 1))).message).toContain(`at most ${MAX_LOCATION_LENGTH}`);
  });
});

describe('other kinds', () => {
  it('refuses s3:// outside the configured buckets, naming the bucket asked for', async () => {
    const e = await refusal('s3://team-bucket/tables/trips');
    expect(e.message).toBe(
      'no S3 bucket is configured: set LAB_S3_BUCKETS to the buckets the lab may use (LAB_S3_BUCKETS=team-bucket for this location)',
    );
    expect((await refusal('s3:///x')).message).toContain('names no bucket');
  });

  it('accepts s3://bucket/path in a configured bucket, normalised, and refuses tricks inside it', async () => {
    const s3 = { ...cfg, buckets: ['lake'] };
    expect(await resolveTableLocation('s3://lake/team/trips/', s3)).toEqual({
      kind: 's3',
      path: 's3://lake/team/trips',
      display: 's3://lake/team/trips',
    });
    await expect(resolveTableLocation('s3://other/t', s3)).rejects.toThrow(
      "bucket 'other' is not configured; the configured buckets are lake",
    );
    await expect(resolveTableLocation('s3://lake/a/../b', s3)).rejects.toThrow(/'\.\.' segment/);
    await expect(resolveTableLocation('s3://lake', s3)).rejects.toThrow(/is a bucket itself/);
  });

  it('refuses other URL schemes', async () => {
    expect((await refusal('gs://b/t')).message).toContain("'gs://' locations are not supported");
  });

  it('resolves lab:flat@0.01 and lab:partitioned@0.01 to base tables built on demand', async () => {
    const [flat, again, partitioned] = await Promise.all([
      resolveTableLocation('lab:flat@0.01', cfg),
      resolveTableLocation('lab:flat@0.010', cfg),
      resolveTableLocation('lab:partitioned@0.01', cfg),
    ]);
    expect(flat.display).toBe('lab:flat@0.01');
    expect(again).toEqual(flat);
    expect(partitioned.display).toBe('lab:partitioned@0.01');
    const dataset = await prepareDataset({ scale: SMALL_SCALE, cacheDir: join(workDir, 'data'), dataDir: cfg.dataDir });
    const tables = await ensureBaseTables(workDir, dataset);
    expect(flat.path).toBe(realpathSync(tables.flat));
    expect(partitioned.path).toBe(realpathSync(tables.partitioned));
    expect((await DeltaTable.open(flat.path)).activeFiles()).toHaveLength(dataset.figures.flatFiles);
    expect((await DeltaTable.open(partitioned.path)).partitionColumns).toEqual(['VendorID']);
  });

  it('refuses a scale outside the served ones, or not a number, before building anything', async () => {
    // Each scale is a data set kept under the work folder (~265 MB near 1): any number in range used to
    // build one, so ~270 requests for lab:flat@0.0101, 0.0102… filled the disk.
    const fresh: LocationConfig = { ...cfg, workDir: join(tmp, 'fresh-work') };
    const texts = ['lab:flat@0.0101', 'lab:partitioned@0.3', 'lab:flat@0', 'lab:flat@2', 'lab:flat@abc', 'lab:flat@'];
    for (const text of [...texts, 'lab:flat@1e-2']) {
      const e = await resolveTableLocation(text, fresh).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(LocationError);
      expect((e as Error).message).toBe(`the scale in '${text}' must be one of 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1`);
    }
    expect(existsSync(fresh.workDir)).toBe(false);
    expect((await refusal('lab:flat')).message).toContain('is not a lab alias');
  });

  it("names no folder of the server when the alias's data set cannot exist", async () => {
    // TLC files present: only scale 1 exists, and the data set's own message names the data folder.
    const tlcDir = join(tmp, 'tlc-data');
    mkdirSync(tlcDir);
    for (const f of ['yellow_tripdata_2025-01.parquet', 'yellow_tripdata_2025-02.parquet']) {
      writeFileSync(join(tlcDir, f), '');
    }
    const e = await resolveTableLocation('lab:flat@0.5', { ...cfg, dataDir: tlcDir }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(LocationError);
    expect((e as Error).message).toMatch(/^lab:flat@0\.5: TLC files found in …\/tlc-data, but scaling real data/);
    expect((e as Error).message).not.toContain(tmp);
  });

  it('refuses an unknown alias kind', async () => {
    expect((await refusal('lab:iceberg@1')).message).toContain("unknown lab table 'iceberg'");
  });
});

describe('folders (code to audit)', () => {
  const folderRefusal = async (text: string) => {
    const e = await resolveFolderLocation(text, cfg).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(LocationError);
    return (e as LocationError).message;
  };

  it('resolves an existing folder inside a root, shown as given, and a root itself', async () => {
    expect(await resolveFolderLocation(' team/trips/ ', cfg)).toEqual({
      path: join(realRoot, 'team', 'trips'),
      display: 'team/trips',
    });
    expect((await resolveFolderLocation(second, cfg)).path).toBe(realpathSync(second));
  });

  it('refuses .., a path outside the roots, NUL, a file and a missing folder', async () => {
    expect(await folderRefusal('team/../team')).toContain("'..' is not allowed");
    expect(await folderRefusal(outside)).toContain('is not inside');
    expect(await folderRefusal('team\0x')).toContain('U+0000');
    writeFileSync(join(root, 'team', 'file.sql'), 'select 1');
    expect(await folderRefusal('team/file.sql')).toBe("'team/file.sql' is not a folder, or does not exist");
    expect(await folderRefusal('team/nothing/here')).toBe("'team/nothing/here' does not exist");
  });

  it('refuses a symbolic link on the way, even one that stays inside a root', async () => {
    expect(await folderRefusal('shortcut')).toBe("'shortcut' passes through a symbolic link; give the real path");
    expect(await folderRefusal('escape')).toContain('symbolic link');
    for (const text of ['shortcut', 'escape']) {
      expect(await folderRefusal(text)).not.toContain(tmp);
    }
  });
});

describe('configuration from the environment', () => {
  it('defaults to var/tables and var/lab in the repository', () => {
    expect(locationConfigFromEnv('/repo', {})).toEqual({
      roots: ['/repo/var/tables'],
      workDir: '/repo/var/lab',
      buckets: [],
      jobRoots: [],
    });
  });

  it('reads LAB_ROOTS (comma-separated, relative to the repository), LAB_WORK_DIR, LAB_DATA_DIR, LAB_S3_BUCKETS and LAB_JOB_ROOTS (colon-separated)', () => {
    expect(
      locationConfigFromEnv('/repo', {
        LAB_ROOTS: ' /data/a , b,, ',
        LAB_WORK_DIR: '/w',
        LAB_DATA_DIR: '/d',
        LAB_S3_BUCKETS: 'lake, archive',
        LAB_JOB_ROOTS: '/jobs/etl: team ::',
      }),
    ).toEqual({
      roots: ['/data/a', '/repo/b'],
      workDir: '/w',
      dataDir: '/d',
      buckets: ['lake', 'archive'],
      jobRoots: ['/jobs/etl', '/repo/team'],
    });
  });
});
