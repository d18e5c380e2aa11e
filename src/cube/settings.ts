/**
 * How long the semantic layer lets a query run and where its compiled models are cached, set once
 * at startup from the configuration (`CUBE_QUERY_TIMEOUT_SECONDS`, `CUBE_CONTINUE_WAIT_SECONDS`,
 * `CUBE_COMPILE_CACHE_DIR`); commands and tests that never configure it get the same defaults as
 * the configuration.
 */
export interface CubeSettings {
  /** PostgreSQL `statement_timeout` of every cube statement, in milliseconds. */
  queryTimeoutMs: number;
  /** After this long a REST `/load` answers Cube's `{"error": "Continue wait"}` and keeps the query running. */
  continueWaitMs: number;
  /** A directory for the models' transpiled YAML between starts (compiler.ts); null: none. */
  compileCacheDir: string | null;
}

export const DEFAULT_CUBE_SETTINGS: Readonly<CubeSettings> = Object.freeze({ queryTimeoutMs: 120_000, continueWaitMs: 5_000, compileCacheDir: null });

let current: Readonly<CubeSettings> = DEFAULT_CUBE_SETTINGS;

export function configureCube(settings: CubeSettings): void {
  current = Object.freeze({ ...settings });
}

export const cubeSettings = (): Readonly<CubeSettings> => current;
