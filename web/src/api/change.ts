import { useState } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/** Everything a change may alter (UI.md, Data 4): query-key prefixes refetched after it succeeds. */
export const TOUCHES = {
  everything: [['api'], ['cube']],
} satisfies Record<string, QueryKey[]>;

/**
 * A change through the API: on success the answers it may alter (query-key prefixes) are
 * refetched, then `after` runs with the response.
 */
export function useChange<V, R = unknown>(request: (variables: V) => Promise<R>, touches: QueryKey[], after?: (response: R) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: request,
    // Pending until the touched queries have been fetched again: a control showing the submitted
    // value while pending then shows the server's, never the old value for a moment in between.
    onSuccess: async (response) => {
      await Promise.all(touches.map((queryKey) => qc.invalidateQueries({ queryKey })));
      after?.(response);
    },
  });
}

/**
 * A checkbox saved through the API: the click shows at once (state set in the handler, before
 * React puts the controlled box back) and stays until the saved value has been fetched again; a
 * refusal shows the stored value again, with the change's error.
 */
export function useToggle(stored: boolean, request: (value: boolean) => Promise<unknown>, touches: QueryKey[]) {
  const change = useChange(request, touches);
  const [wanted, setWanted] = useState<boolean | null>(null);
  return {
    checked: wanted ?? stored,
    pending: change.isPending,
    error: change.isError ? change.error : null,
    set: (value: boolean) => {
      setWanted(value);
      change.mutate(value, { onSettled: () => setWanted(null) });
    },
  };
}
