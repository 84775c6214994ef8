/** @racelab/contracts: the public shapes users and checks rely on, one schema each, browser-safe. */
export {};
