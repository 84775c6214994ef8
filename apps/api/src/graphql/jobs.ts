/**
 * Auditing a team's jobs: a manifest in (YAML or JSON), the lab's findings and pairwise forecasts
 * out, stored so the dashboard can show past audits.
 */

import {
  auditJobs,
  type Finding,
  ManifestError,
  type PairForecast,
  parseManifest,
  type SkippedWork,
} from '@racelab/lab';
import { storedActor } from '../actors/actor';
import type { JobAudit } from '../db/prisma';
import { InputError } from '../errors/client-errors';
import { ActorType, storedActorOf } from './actor-types';
import { auditFailed } from './audit-failed';
import { builder } from './builder';
import { callerOf } from './caller';
import { EngineForecastType } from './engine-forecast-types';
import { KeyValue, pairs } from './key-value-types';
import { RetryPolicyType } from './sweep-types';

const MAX_MANIFEST_CHARS = 256 * 1024;

const FindingType = builder.objectRef<Finding>('JobFinding').implement({
  fields: (t) => ({
    rule: t.exposeString('rule'),
    severity: t.exposeString('severity', { description: 'error, warning or info' }),
    jobs: t.exposeStringList('jobs'),
    table: t.exposeString('table'),
    evidence: t.exposeString('evidence'),
    fix: t.exposeString('fix'),
    fixPolicy: t.field({
      type: RetryPolicyType,
      nullable: true,
      description: 'retry-exhaustion-risk and compaction-starved: the first policy whose forecast clears the finding',
      resolve: (f) => f.fixPolicy ?? null,
    }),
    exhaustion: t.float({
      nullable: true,
      description: "contention findings: the forecast share of a named job's commits failing after all retries",
      resolve: (f) => f.exhaustion ?? null,
    }),
  }),
});

const PairType = builder.objectRef<PairForecast>('JobPairForecast').implement({
  description: 'Both jobs read one version; FIRST commits; does SECOND?',
  fields: (t) => ({
    table: t.exposeString('table'),
    first: t.exposeString('first'),
    second: t.exposeString('second'),
    secondCommits: t.exposeBoolean('secondCommits', { nullable: true }),
    failedCheck: t.exposeString('failedCheck', { nullable: true }),
    message: t.exposeString('message', { nullable: true }),
    byEngine: t.field({
      type: [EngineForecastType],
      description: "SECOND judged by each engine's checker, FIRST written by its own job's engine",
      // Audits stored before forecasts named their engine have none.
      resolve: (p) => p.byEngine ?? [],
    }),
    secondEngine: t.string({
      nullable: true,
      description: "the byEngine entry that is SECOND's own engine; null when its job names none of them",
      resolve: (p) => p.secondEngine ?? null,
    }),
    skipped: t.string({ nullable: true, resolve: (p) => p.skipped ?? null }),
  }),
});

const SkippedType = builder.objectRef<SkippedWork>('JobAuditSkipped').implement({
  description: 'A pairwise check that stopped at its limit (work grows with the square of the jobs on a table)',
  fields: (t) => ({
    check: t.exposeString('check', {
      description: 'pair-forecasts, shared-files, schedule-overlaps or contention-forecasts',
    }),
    checked: t.exposeInt('checked', { description: 'pairs checked' }),
    skipped: t.exposeInt('skipped', { description: 'pairs left out once the limit was reached' }),
    note: t.exposeString('note'),
  }),
});

interface JobShape {
  name: string;
  table: string;
  engine: string;
  operation: string;
  predicate: string | null;
  tableProperties?: Record<string, string>;
}
const JobType = builder.objectRef<JobShape>('AuditedJob').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    table: t.exposeString('table'),
    engine: t.exposeString('engine'),
    operation: t.exposeString('operation'),
    predicate: t.exposeString('predicate', { nullable: true }),
    tableProperties: t.field({
      type: [KeyValue],
      description: 'what the job sets on its table, e.g. delta.isolationLevel',
      resolve: (j) => pairs(j.tableProperties),
    }),
  }),
});

const JobAuditType = builder.objectRef<JobAudit>('JobAudit').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    auditedAt: t.string({ resolve: (a) => a.createdAt.toISOString() }),
    failed: t.exposeBoolean('failed', { description: 'some finding is an error' }),
    startedBy: t.field({ type: ActorType, nullable: true, resolve: (r) => storedActorOf(r.startedBy) }),
    jobs: t.field({
      type: [JobType],
      resolve: (a) =>
        ((a.manifest as unknown as { jobs: JobShape[] }).jobs ?? []).map((j) => ({
          ...j,
          predicate: j.predicate ?? null,
        })),
    }),
    findings: t.field({ type: [FindingType], resolve: (a) => a.findings as unknown as Finding[] }),
    pairs: t.field({ type: [PairType], resolve: (a) => a.pairs as unknown as PairForecast[] }),
    skipped: t.field({
      type: [SkippedType],
      description: 'what the audit did not check because of its limits; empty when it checked everything',
      resolve: (a) => a.skipped as unknown as SkippedWork[],
    }),
  }),
});

builder.queryFields((t) => ({
  jobAudits: t.field({
    type: [JobAuditType],
    args: { first: t.arg.int({ defaultValue: 10 }) },
    resolve: (_r, { first }, ctx) => {
      const take = first ?? 10;
      if (take < 1 || take > 50) throw new InputError('first must be from 1 to 50');
      return ctx.db.jobAudit.findMany({ orderBy: { createdAt: 'desc' }, take });
    },
  }),
  jobAudit: t.field({
    type: JobAuditType,
    nullable: true,
    description: 'one stored jobs audit; null when none has this id',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => ctx.db.jobAudit.findUnique({ where: { id: String(id) } }),
  }),
}));

builder.mutationFields((t) => ({
  auditJobs: t.field({
    type: JobAuditType,
    args: {
      manifest: t.arg.string({ required: true, description: 'the jobs manifest, YAML or JSON' }),
    },
    resolve: async (_r, { manifest }, ctx) => {
      if (manifest.length > MAX_MANIFEST_CHARS)
        throw new InputError(`manifest: at most ${MAX_MANIFEST_CHARS} characters`);
      let parsed: ReturnType<typeof parseManifest>;
      let audit: Awaited<ReturnType<typeof auditJobs>>;
      try {
        parsed = parseManifest(manifest);
        // A table the audit cannot read is a finding; a predicate that cannot run on its table is a manifest problem.
        audit = await auditJobs(parsed, ctx.locations);
      } catch (e) {
        if (e instanceof ManifestError) throw new InputError('the manifest is not usable', e.problems);
        throw auditFailed(e, ctx.locations, 'auditJobs');
      }
      return ctx.db.jobAudit.create({
        data: {
          manifest: parsed as unknown as object,
          findings: audit.findings as unknown as object[],
          pairs: audit.pairs as unknown as object[],
          failed: audit.failed,
          skipped: audit.skipped as unknown as object[],
          startedBy: storedActor(callerOf(ctx)),
        },
      });
    },
  }),
}));
