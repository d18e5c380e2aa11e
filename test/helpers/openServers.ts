/**
 * The test servers of this process not closed yet (testServer adds, its close removes). The root
 * hooks close what a test file left open: a server left running keeps its scheduler, job worker
 * and database pool busy for the rest of the worker's files, so the run's CPU grew with every file
 * that forgot one. Kept apart from server.ts so the root hooks load no server module.
 */
export const openServers = new Set<{ close(): Promise<void> }>();

/** Closes the servers a test file left open; returns how many there were. */
export async function closeLeftServers(): Promise<number> {
  const left = [...openServers];
  await Promise.all(left.map((server) => server.close().catch(() => {})));
  return left.length;
}
