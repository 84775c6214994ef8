/** delta-rs's default `max_commit_retries`; OPTIMIZE always commits with it, whatever the caller asked. */
export const DEFAULT_MAX_RETRIES = 15;
