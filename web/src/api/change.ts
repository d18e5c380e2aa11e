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
