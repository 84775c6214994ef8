'use client';
/**
 * Starting a race from any page: the race list is marked stale (it now has one more race) and the
 * browser goes to the new race, whose page follows it live.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { gql } from '../../lib/gql';
import { START_RACE, type StartRaceInput } from '../../lib/races';

export function useStartRace() {
  const router = useRouter();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: StartRaceInput) => gql(START_RACE, { input }),
    onSuccess: async (d) => {
      await client.invalidateQueries({ queryKey: ['races'] });
      router.push(`/races/${d.startRace.id}`);
    },
  });
}
