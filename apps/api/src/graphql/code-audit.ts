/**
 * Auditing a team's code: `auditCode(path | upload)` reads the settings that decide concurrency from a folder
 * under LAB_ROOTS or from an archive uploaded to `/uploads/code`, judges them, stores the result with who ran
 * it, and answers it in the contract's shape with each finding's code line; `codeAudits` and `codeAudit` read
 * the stored ones back.
 */
import { GraphQLError } from 'graphql';
import { storedActor } from '../actors/actor';
import { runCodeAudit } from '../code-audit/run';
import { InputError } from '../errors/client-errors';
import { auditFailed } from './audit-failed';
import { builder } from './builder';
import { callerOf } from './caller';
import { CodeAuditResultType } from './code-audit-types';

builder.queryFields((t) => ({
  codeAudits: t.field({
    type: [CodeAuditResultType],
    description: 'stored code audits, newest first',
    args: { first: t.arg.int({ defaultValue: 10 }) },
    resolve: (_r, { first }, ctx) => {
      const take = first ?? 10;
      if (take < 1 || take > 50) throw new InputError('first must be from 1 to 50');
      return ctx.db.codeAudit.findMany({ orderBy: { createdAt: 'desc' }, take });
    },
  }),
  codeAudit: t.field({
    type: CodeAuditResultType,
    nullable: true,
    description: 'one stored code audit; null when none has this id',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => ctx.db.codeAudit.findUnique({ where: { id: String(id) } }),
  }),
}));

builder.mutationFields((t) => ({
  auditCode: t.field({
    type: CodeAuditResultType,
    description: 'audits the code in a folder under LAB_ROOTS (path) or in an archive sent to /uploads/code (upload)',
    args: {
      path: t.arg.string({ description: 'a folder under LAB_ROOTS, relative to the first root or absolute' }),
      upload: t.arg.id({ description: 'the id /uploads/code answered; an upload is audited once' }),
    },
    resolve: async (_r, { path, upload }, ctx) => {
      const startedBy = storedActor(callerOf(ctx));
      let run: Awaited<ReturnType<typeof runCodeAudit>>;
      try {
        run = await runCodeAudit(
          { path, upload: upload === null || upload === undefined ? null : String(upload) },
          ctx.locations,
        );
      } catch (e) {
        if (e instanceof GraphQLError) throw e;
        throw auditFailed(e, ctx.locations, 'auditCode');
      }
      return ctx.db.codeAudit.create({
        data: {
          source: run.source,
          result: run.result as unknown as object,
          failed: run.result.failed,
          startedBy,
        },
      });
    },
  }),
}));
