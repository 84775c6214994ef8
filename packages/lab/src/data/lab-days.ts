/** The days whose trips a table check counts: the Iceberg seed's 2025-01-15 and the February days writers add. */
export const LAB_DAYS = ['2025-01-15', '2025-02-01', '2025-02-02', '2025-02-14'];
