/** The started sweep's progress as it streams, until the sweep ends; the list of sweeps is re-read then. */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { subscribe } from '../../lib/gql';
import { SWEEP_PROGRESS, SWEEPS_KEY } from '../../lib/sweeps';

interface Progress {
  id: string;
  status: string;
  done: number;
  total: number;
  writers: number | null;
  reason: string | null;
}

/** The started sweep's progress until it ends; the list is re-read when it does. */
export function useSweepProgress(id: string | null, onEnded: (id: string) => void) {
  const client = useQueryClient();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [streamError, setStreamError] = useState<string | null>(null);
  useEffect(() => {
    if (id === null) return;
    setProgress(null);
    setStreamError(null);
    return subscribe(
      SWEEP_PROGRESS,
      { id },
      (d) => setProgress(d.sweepProgress),
      (error) => {
        if (error) setStreamError(error);
        void client.invalidateQueries({ queryKey: [SWEEPS_KEY] });
        onEnded(id);
      },
    );
  }, [id, client, onEnded]);
  return { progress, streamError };
}
