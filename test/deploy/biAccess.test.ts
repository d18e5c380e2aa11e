/**
 * The bundled database's client-authentication lines for BI access (deploy/bi.yaml), run by a real
 * PostgreSQL 17: from Traefik's address only BI roles get in (by password); the application's user,
 * a superuser and any other role are refused there, and still get in from anywhere else.
 * Traefik's address is 127.0.0.2 here: the clients bind to it, the server listens on 127.0.0.1.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgresServer } from '../../src/db/embedded.js';
import { composeModel } from './composeModel.js';
import { clusterParent } from '../helpers/database.js';

const PROXY = '127.0.0.2';
const ENV = { APP_URL: 'https://a.example.com', OAUTH_ENCRYPTION_KEY: 'ab'.repeat(32), S3_SECRET_ACCESS_KEY: 'cd'.repeat(24), BI_PORT: '5433', BI_PROXY_ADDRESS: PROXY };

/** The pg_hba.conf lines the postgres entrypoint of deploy/bi.yaml writes. */
function hbaLines(): string {
  const script = (composeModel(['compose.yaml', 'deploy/bi.yaml'], ENV).services.postgres!.entrypoint as string[]).at(-1) as string;
  const match = /<<'HBA'\n([\s\S]*?)\nHBA\n/.exec(script);
  if (!match) throw new Error('no pg_hba.conf heredoc in the postgres entrypoint');
  return `${match[1]}\n`;
}

describe('deploy/bi.yaml: who the bundled database admits through Traefik', function () {
  this.timeout(120_000);
  let server: EmbeddedPostgresServer;
  let dir: string;

  /** The error code of a connection as `user` from `from` (null when it gets in). */
  async function connectFrom(from: string, user: string, password: string): Promise<string | null> {
    const url = new URL(server.urlFor('postgres'));
    const socket = new net.Socket();
    const connect = socket.connect.bind(socket) as (options: net.TcpNetConnectOpts) => net.Socket;
    // pg calls stream.connect(port, host): bind the client side to `from`, as Traefik's address.
    (socket as unknown as { connect: (port: number, host: string) => net.Socket }).connect = (port, host) => connect({ port, host, localAddress: from });
    const client = new pg.Client({ host: url.hostname, port: Number(url.port), user, password, database: 'postgres', stream: () => socket });
    client.on('error', () => {});
    try {
      await client.connect();
      const { rows } = await client.query('select inet_client_addr()::text as addr');
      expect(rows[0].addr).to.equal(`${from}/32`);
      return null;
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    } finally {
      await client.end().catch(() => {});
    }
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'da-bi-hba-'));
    chmodSync(dir, 0o755);
    const hba = join(dir, 'pg_hba_bi.conf');
    writeFileSync(hba, hbaLines());
    chmodSync(hba, 0o644);
    server = await startEmbeddedPostgres({ password: 'owner-secret', tempPrefix: 'da-bi-hba-pg-', tempParent: clusterParent(), flags: ['-c', `hba_file=${hba}`] });
    const admin = new pg.Client({ connectionString: server.urlFor('postgres') });
    await admin.connect();
    await admin.query(`create role bi_0123abcd_metabase_deadbeef login password 'bi-secret'`);
    await admin.query(`create role reporting login password 'other-secret'`);
    await admin.query(`create role bi_admin login password 'other-secret'`);
    await admin.end();
  });

  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('admits a BI role from Traefik by its password, and refuses a wrong one', async () => {
    expect(await connectFrom(PROXY, 'bi_0123abcd_metabase_deadbeef', 'bi-secret')).to.equal(null);
    expect(await connectFrom(PROXY, 'bi_0123abcd_metabase_deadbeef', 'wrong')).to.equal('28P01');
  });

  it("refuses the database's own user and every other role from Traefik, even with the right password", async () => {
    expect(await connectFrom(PROXY, 'postgres', 'owner-secret')).to.equal('28000');
    expect(await connectFrom(PROXY, 'reporting', 'other-secret')).to.equal('28000');
    expect(await connectFrom(PROXY, 'bi_admin', 'other-secret')).to.equal('28000');
  });

  it('admits every role by password from any other address (the servers, the migration job)', async () => {
    expect(await connectFrom('127.0.0.1', 'postgres', 'owner-secret')).to.equal(null);
    expect(await connectFrom('127.0.0.1', 'reporting', 'other-secret')).to.equal(null);
    expect(await connectFrom('127.0.0.1', 'postgres', 'wrong')).to.equal('28P01');
  });
});
