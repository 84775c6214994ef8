/** The schema, code-first: every module adds its fields to the one builder, then it is built once. */
import { builder } from './builder';
import './races';
import './real-libraries';
import './tables';
import './jobs';
import './code-audit';
import './history';
import './isolation-advice';
import './probe';
import './sweeps';
import './actor-types';

export const schema = builder.toSchema();
