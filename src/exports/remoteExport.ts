/**
 * An export command with --url: the same request to the server's export endpoint, with the stored
 * key, and the response's bytes written unchanged (to --out or standard output).
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import type { Env } from '../config/index.js';
import { UsageError, type Options } from '../cli/args.js';
import { keyRefused, remoteSession } from '../cliLogin/remote.js';
import { errorMessage, RemoteError, withKey } from '../cliLogin/serverClient.js';

/** True when the command is asked to go through the HTTP API. */
export const wantsRemote = (options: Options): boolean => options.url !== undefined;

/** `query`: the request's parameters as the user gave them (unset ones left out, so the server's defaults apply). */
export async function exportOverHttp(options: Options, env: Env, path: string, query: Record<string, string | undefined>): Promise<void> {
  if (options.tenant !== undefined) throw new UsageError('--tenant does not go with --url: the stored key belongs to one tenant');
  const session = await remoteSession(options, env);
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const res = await withKey(session.server, session.key.apiKey, search.size > 0 ? `${path}?${search}` : path);
  if (res.status === 401) throw keyRefused(session.server);
  if (!res.ok || !res.body) throw new RemoteError(`the server refused the export: ${await errorMessage(res)}`);
  const body = Readable.fromWeb(res.body as ReadableStream<Uint8Array>);
  const out = options.out;
  if (typeof out === 'string' && out !== '') await pipeline(body, createWriteStream(out));
  else await pipeline(body, process.stdout, { end: false });
}
