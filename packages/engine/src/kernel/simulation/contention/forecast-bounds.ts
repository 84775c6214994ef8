/**
 * Whether a sweep's forecast holds on a measured point: its success per attempt inside the measured proportion's
 * 95 % Wilson interval widened by FORECAST_SUCCESS_SLACK on each side, and its commits/s within
 * FORECAST_RATE_TOLERANCE of the measured. The Wilson interval, not the normal one, because a point's proportion
 * sits near 0 or 1 at its ends and its attempts can be few (a handful at N = 2).
 */

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;
/** How far beyond the Wilson interval a forecast may lie and still hold: 3 points. */
export const FORECAST_SUCCESS_SLACK = 0.03;
/** The largest relative commits/s error a forecast may have and still hold. */
export const FORECAST_RATE_TOLERANCE = 0.25;

/** The 95 % Wilson score interval of `successes` in `trials` (the whole [0, 1] when nothing was tried). */
export function wilsonInterval(successes: number, trials: number, z = Z95): { low: number; high: number } {
  if (trials <= 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface ForecastHold {
  writers: number;
  successPerAttempt: {
    forecast: number;
    measured: number;
    /** The Wilson interval widened by the slack, clipped to [0, 1]. */
    low: number;
    high: number;
    inside: boolean;
  };
  commitsPerSec: {
    forecast: number;
    measured: number;
    /** (forecast - measured) / measured: negative when the forecast is low; 0 when nothing was measured. */
    relError: number;
    within: boolean;
  };
  /** Both bounds hold. */
  holds: boolean;
}

/** One point's forecast against its measurement: `attempts` tries of which a `measured` share succeeded. */
export function forecastHold(
  writers: number,
  forecast: { successPerAttempt: number; commitsPerSec: number },
  measured: { successPerAttempt: number; attempts: number; commitsPerSec: number },
): ForecastHold {
  const w = wilsonInterval(Math.round(measured.successPerAttempt * measured.attempts), measured.attempts);
  const low = Math.max(0, w.low - FORECAST_SUCCESS_SLACK);
  const high = Math.min(1, w.high + FORECAST_SUCCESS_SLACK);
  const inside = forecast.successPerAttempt >= low && forecast.successPerAttempt <= high;
  const relError =
    measured.commitsPerSec > 0 ? (forecast.commitsPerSec - measured.commitsPerSec) / measured.commitsPerSec : 0;
  const within = Math.abs(relError) <= FORECAST_RATE_TOLERANCE;
  return {
    writers,
    successPerAttempt: {
      forecast: forecast.successPerAttempt,
      measured: measured.successPerAttempt,
      low,
      high,
      inside,
    },
    commitsPerSec: { forecast: forecast.commitsPerSec, measured: measured.commitsPerSec, relError, within },
    holds: inside && within,
  };
}
