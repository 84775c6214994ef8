/**
 * `isolationAdvice`: the one spelling of `delta.isolationLevel` to write for each level, with each
 * engine's reading of it, and each engine's default when the property is unset. Pure, no I/O.
 */
import {
  type IsolationAdviceShape,
  isolationAdvice,
  type SpellingShape,
  type UnsetShape,
} from '../tables/isolation-spellings';
import { builder } from './builder';
import { EngineInterpretation } from './tables';

const IsolationSpelling = builder.objectRef<SpellingShape>('IsolationSpelling').implement({
  description:
    'The spelling to write for one level: the camelCase one, when every engine reads it as that level at commit',
  fields: (t) => ({
    level: t.exposeString('level', { description: 'the level meant' }),
    value: t.exposeString('value', {
      nullable: true,
      description: 'the spelling to write; null when some engine does not read `candidate` as `level` at commit',
    }),
    candidate: t.exposeString('candidate', { description: 'the camelCase spelling judged' }),
    advice: t.exposeString('advice', { description: 'the recommendation in one sentence, with its notes' }),
    readings: t.field({
      type: [EngineInterpretation],
      description: 'how each engine reads `candidate`; none is flagged when `value` is set',
      resolve: (s) => s.readings,
    }),
    readDifferentlyBy: t.exposeStringList('readDifferentlyBy', {
      description: 'the engines that commit at another level with `candidate`, or not at all',
    }),
  }),
});

const UnsetIsolation = builder.objectRef<UnsetShape>('UnsetIsolation').implement({
  description: 'delta.isolationLevel unset: the default of each engine',
  fields: (t) => ({
    defaults: t.field({ type: [EngineInterpretation], resolve: (u) => u.defaults }),
    flagged: t.exposeBoolean('flagged', { description: 'the defaults of the engines differ' }),
    summary: t.exposeString('summary'),
    fix: t.exposeString('fix', {
      nullable: true,
      description: 'when the defaults differ: the spellings to choose from',
    }),
  }),
});

const IsolationAdvice = builder.objectRef<IsolationAdviceShape>('IsolationAdvice').implement({
  fields: (t) => ({
    spellings: t.field({ type: [IsolationSpelling], resolve: (a) => a.spellings }),
    unset: t.field({ type: UnsetIsolation, resolve: (a) => a.unset }),
  }),
});

builder.queryFields((t) => ({
  isolationAdvice: t.field({
    type: IsolationAdvice,
    description: 'The one spelling of delta.isolationLevel to write for each level, for every engine read for',
    resolve: () => isolationAdvice(),
  }),
}));
