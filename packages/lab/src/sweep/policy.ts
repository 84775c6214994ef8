/**
 * The application loop's pauses, as a retry policy gives them: the engine's `backoffPause` (the forecast's model
 * pauses the same way) drawn from the writer's own seeded generator, so a sweep repeats its pauses.
 */
import { seededRandom } from '@racelab/engine';

/** One writer's generator: the sweep's seed mixed with the point and the writer, so no two writers draw alike. */
export const writerRandom = (seed: number, writers: number, writer: number) =>
  seededRandom((seed ^ Math.imul(writers, 0x9e3779b1) ^ Math.imul(writer + 1, 0x85ebca6b)) >>> 0);
