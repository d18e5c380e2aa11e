import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { UsageError } from "./args.js";
import { keyRefused, remoteSession } from "./remote.js";
import { errorMessage, RemoteError, withKey } from "./server.js";
const wantsRemote = (options) => options.url !== void 0;
async function exportOverHttp(options, env, path, query) {
  if (options.tenant !== void 0) throw new UsageError("--tenant does not go with --url: the stored key belongs to one tenant");
  const session = await remoteSession(options, env);
  const search = new URLSearchParams(Object.entries(query).filter((entry) => entry[1] !== void 0));
  const res = await withKey(session.server, session.key.apiKey, search.size > 0 ? `${path}?${search}` : path);
  if (res.status === 401) throw keyRefused(session.server);
  if (!res.ok || !res.body) throw new RemoteError(`the server refused the export: ${await errorMessage(res)}`);
  const body = Readable.fromWeb(res.body);
  const out = options.out;
  if (typeof out === "string" && out !== "") await pipeline(body, createWriteStream(out));
  else await pipeline(body, process.stdout, { end: false });
}
export {
  exportOverHttp,
  wantsRemote
};
