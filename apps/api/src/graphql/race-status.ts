/** A race's status, which each of its runs has too. */
import { builder } from './builder';

export const RaceStatusEnum = builder.enumType('RaceStatus', {
  values: ['QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED'] as const,
});
