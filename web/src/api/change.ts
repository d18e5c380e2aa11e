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
    onSuccess: (response) => {
      for (const queryKey of touches) void qc.invalidateQueries({ queryKey });
      after?.(response);
    },
  });
}
