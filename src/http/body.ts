import { gunzipSync } from 'node:zlib';
import type Koa from 'koa';
import { AppError } from '../errors.js';
import { checkJsonValue, INPUT_LIMITS } from '../shared/limits.js';

export type BodyKind = 'json' | 'text' | 'form' | 'raw';
/** What `readBody` returns for each kind (JSON is validated by the route's schema afterwards). */
export interface BodyOf {
  json: unknown;
  text: string;
  form: Record<string, string>;
  raw: Buffer;
}

const TYPES: Record<Exclude<BodyKind, 'raw'>, string[]> = {
  json: ['application/json', 'application/*+json'],
  text: ['text/csv', 'text/plain'],
  form: ['application/x-www-form-urlencoded'],
};

const invalid = (message: string) => new AppError('validation_failed', 'Invalid request body', [{ path: 'body', message }]);

/**
 * Reads the whole body up to `limitBytes` (413 beyond), gunzipping `Content-Encoding: gzip` up to
 * `inflatedLimitBytes` (413 beyond, so a small gzip bomb stops there).
 */
export async function readRawBody(ctx: Koa.Context, limitBytes: number, inflatedLimitBytes = limitBytes): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || '0');
  if (declared > limitBytes) throw new AppError('payload_too_large', `Request body is larger than ${limitBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new AppError('payload_too_large', `Request body is larger than ${limitBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks);
  const encoding = ctx.get('content-encoding').toLowerCase();
  if (encoding === '' || encoding === 'identity') return raw;
  if (encoding !== 'gzip') throw new AppError('unsupported_media_type', `Content-Encoding ${encoding} is not supported (use gzip or none)`);
  try {
    const inflated = gunzipSync(raw, { maxOutputLength: inflatedLimitBytes });
    return inflated;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw new AppError('payload_too_large', `Decompressed body is larger than ${inflatedLimitBytes} bytes`);
    }
    throw invalid('Body is not valid gzip');
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text; bytes that are not UTF-8 are a 400 rather than U+FFFD stored in their place. */
function decodeUtf8(raw: Buffer): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw invalid('Body is not valid UTF-8');
  }
}

/**
 * Parses the body as the route declares; a wrong content type or malformed JSON is a 400 with a
 * detail. Text and JSON must be valid UTF-8; a JSON body must not nest deeper than
 * `INPUT_LIMITS.jsonDepth` nor hold a string PostgreSQL cannot store (NUL, lone surrogates),
 * wherever it is: the detail names the field.
 */
export async function readBody<K extends BodyKind>(ctx: Koa.Context, kind: K, limitBytes: number): Promise<BodyOf[K]>;
export async function readBody(ctx: Koa.Context, kind: BodyKind, limitBytes: number): Promise<unknown> {
  if (kind !== 'raw' && !ctx.is(...TYPES[kind])) {
    throw invalid(`Content-Type must be ${TYPES[kind][0]}`);
  }
  const raw = await readRawBody(ctx, limitBytes);
  if (kind === 'raw') return raw;
  if (kind === 'form') {
    const form = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    const details = checkJsonValue(form, 1);
    if (details.length > 0) throw new AppError('validation_failed', 'Invalid request body', details);
    return form;
  }
  if (kind === 'text') return decodeUtf8(raw);
  return parseJsonBody(raw);
}

/**
 * A JSON body from its bytes, as every route reads one: UTF-8, not empty, parseable, and within the
 * input limits (no NUL, bounded depth), else 400. Also for the vendor webhooks that must read
 * their raw bytes first to check a signature. `message` is the error's top line.
 */
export function parseJsonBody(raw: Buffer, message = 'Invalid request body'): unknown {
  const refuse = (detail: string) => new AppError('validation_failed', message, [{ path: 'body', message: detail }]);
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw refuse('Body is not valid UTF-8');
  }
  if (text.trim() === '') throw refuse('Body is empty; a JSON object is expected');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse('Body is not valid JSON');
  }
  const details = checkJsonValue(value, INPUT_LIMITS.jsonDepth);
  if (details.length > 0) throw new AppError('validation_failed', message, details);
  return value;
}
