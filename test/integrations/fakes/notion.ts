/**
 * A local server speaking the parts of Notion's API the app uses: the OAuth consent redirect and
 * `POST /v1/oauth/token` (Basic client credentials), `search`, pages (retrieve, create, update)
 * and blocks (list children, append children, delete), with Notion's error bodies
 * (`{object: 'error', status, code, message}`). Pages and their blocks live in memory.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { approveRedirect } from './http.js';

export interface FakePage {
  id: string;
  parentId: string | null;
  title: string;
  blocks: { id: string; block: any }[];
  archived: boolean;
}

export interface FakeNotion {
  url: string;
  clientId: string;
  clientSecret: string;
  workspace: { id: string; name: string };
  tokens: Set<string>;
  pages: Map<string, FakePage>;
  calls: { method: string; path: string }[];
  /** A page shared with the integration (a candidate parent). */
  addPage(title: string): FakePage;
  issueCode(): { code: string; token: string };
  childrenOf(parentId: string): FakePage[];
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<any> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return raw ? JSON.parse(raw) : {};
}

const plain = (rich: { text?: { content?: string } }[] = []) => rich.map((r) => r.text?.content ?? '').join('');

export async function fakeNotion(workspace = { id: randomUUID(), name: 'Acme Notion' }): Promise<FakeNotion> {
  const codes = new Map<string, string>();
  const fake = { clientId: 'notion-client-id', clientSecret: 'notion-client-secret', workspace, tokens: new Set<string>(), pages: new Map(), calls: [] } as unknown as FakeNotion;
  const pageObject = (p: FakePage) => ({
    object: 'page', id: p.id, archived: p.archived, in_trash: p.archived,
    parent: p.parentId ? { type: 'page_id', page_id: p.parentId } : { type: 'workspace', workspace: true },
    properties: { title: { id: 'title', type: 'title', title: [{ type: 'text', text: { content: p.title }, plain_text: p.title }] } },
  });

  const server: Server = createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, code: string, message: string) => reply(status, { object: 'error', status, code, message });
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    fake.calls.push({ method: req.method ?? '', path });
    if (req.method === 'GET' && path === '/v1/oauth/authorize') {
      return approveRedirect(res, url, fake.issueCode().code);
    }
    const body = req.method === 'GET' || req.method === 'DELETE' ? {} : await readJson(req);
    if (req.method === 'POST' && path === '/v1/oauth/token') {
      const basic = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      if (basic !== `${fake.clientId}:${fake.clientSecret}`) return error(401, 'unauthorized', 'Invalid client.');
      const token = codes.get(body.code);
      if (!token || body.grant_type !== 'authorization_code') return error(400, 'invalid_grant', 'Invalid code.');
      codes.delete(body.code);
      fake.tokens.add(token);
      return reply(200, { access_token: token, token_type: 'bearer', refresh_token: `nrt_${randomBytes(8).toString('hex')}`, bot_id: randomUUID(), workspace_id: workspace.id, workspace_name: workspace.name, workspace_icon: null, owner: { type: 'user', user: { object: 'user', id: randomUUID() } }, duplicated_template_id: null, request_id: randomUUID() });
    }
    const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!fake.tokens.has(token)) return error(401, 'unauthorized', 'API token is invalid.');
    let m: RegExpExecArray | null;
    const live = (id: string) => {
      const page = fake.pages.get(id.replace(/-/g, '')) ?? [...fake.pages.values()].find((p) => p.id === id);
      return page && !page.archived ? page : undefined;
    };
    if (req.method === 'POST' && path === '/v1/search') {
      const results = [...fake.pages.values()].filter((p) => !p.archived && p.parentId === null).map(pageObject);
      return reply(200, { object: 'list', results, next_cursor: null, has_more: false, type: 'page_or_database', page_or_database: {} });
    }
    if (req.method === 'POST' && path === '/v1/pages') {
      const parent = live(body.parent?.page_id ?? '');
      if (!parent) return error(404, 'object_not_found', 'Could not find page.');
      const page: FakePage = { id: randomUUID(), parentId: parent.id, title: plain(body.properties?.title?.title), blocks: [], archived: false };
      page.blocks = (body.children ?? []).map((block: any) => ({ id: randomUUID(), block }));
      fake.pages.set(page.id.replace(/-/g, ''), page);
      return reply(200, pageObject(page));
    }
    if ((m = /^\/v1\/pages\/([^/]+)$/.exec(path))) {
      const page = live(m[1] as string);
      if (!page) return error(404, 'object_not_found', 'Could not find page.');
      if (req.method === 'PATCH' && body.properties?.title) page.title = plain(body.properties.title.title);
      return reply(200, pageObject(page));
    }
    if ((m = /^\/v1\/blocks\/([^/]+)\/children$/.exec(path))) {
      const page = live(m[1] as string);
      if (!page) return error(404, 'object_not_found', 'Could not find block.');
      if (req.method === 'PATCH') {
        const added = (body.children ?? []).map((block: any) => ({ id: randomUUID(), block }));
        page.blocks.push(...added);
        return reply(200, { object: 'list', results: added.map((b: any) => ({ object: 'block', id: b.id, type: b.block.type })), next_cursor: null, has_more: false });
      }
      return reply(200, { object: 'list', results: page.blocks.map((b) => ({ object: 'block', id: b.id, type: b.block.type })), next_cursor: null, has_more: false });
    }
    if (req.method === 'DELETE' && (m = /^\/v1\/blocks\/([^/]+)$/.exec(path))) {
      for (const page of fake.pages.values()) {
        const index = page.blocks.findIndex((b) => b.id === m![1]);
        if (index >= 0) {
          page.blocks.splice(index, 1);
          return reply(200, { object: 'block', id: m[1], archived: true, in_trash: true });
        }
      }
      return error(404, 'object_not_found', 'Could not find block.');
    }
    return error(400, 'invalid_request_url', 'Invalid request URL.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.addPage = (title) => {
    const page: FakePage = { id: randomUUID(), parentId: null, title, blocks: [], archived: false };
    fake.pages.set(page.id.replace(/-/g, ''), page);
    return page;
  };
  fake.issueCode = () => {
    const code = randomBytes(8).toString('hex');
    const token = `ntn_${randomBytes(12).toString('hex')}`;
    codes.set(code, token);
    return { code, token };
  };
  fake.childrenOf = (parentId) => [...fake.pages.values()].filter((p) => p.parentId === parentId && !p.archived);
  fake.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return fake;
}
