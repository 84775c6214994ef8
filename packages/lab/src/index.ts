/** @racelab/lab: the race lab. For now, the engine demo that `npm start` runs. */
export { type DemoReport, runDemo } from './demo';
