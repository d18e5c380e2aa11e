import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { apiKeys, tenantMemberships, tenants, users } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/auth/secrets.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/database.js';
import { dbFor } from '../helpers/factories.js';
import { testServer } from '../helpers/server.js';

/** stderr without the runtime notice a dependency (oidc-provider) prints on Node 20 at import. */
function stderrOf(result: CliResult): string {
  return result.stderr.replace(/^oidc-provider WARNING: Unsupported runtime[^\n]*\n/m, '');
}

/** The one JSON object a command prints, checking it is exactly one line. */
function printed(result: CliResult): Record<string, string> {
  expect(stderrOf(result), result.stderr).to.equal('');
  expect(result.code).to.equal(0);
  const lines = result.stdout.trimEnd().split('\n');
  expect(lines).to.have.length(1);
  return JSON.parse(lines[0] as string);
}

// Each command is a child process (real CLI, real database): spawns run in parallel and are few.
describe('CLI: tenant:create and user:add', function () {
  this.timeout(240_000);
  let databaseUrl: string;
  let env: { DATABASE_URL: string };
  before(async () => {
    databaseUrl = await freshDatabase();
    env = { DATABASE_URL: databaseUrl };
  });

  it('tenant:create prints {tenantId, userId, apiKey?}, reuses an existing user, keeps slugs unique; the key works', async () => {
    const out = printed(await runCli(['tenant:create', '--name=Acme Corp', '--owner-email=Founder@Acme.example', '--api-key'], env));
    expect(Object.keys(out)).to.deep.equal(['tenantId', 'userId', 'apiKey']);
    expect(out.apiKey).to.match(/^gai_[A-Za-z0-9_-]{43}$/);
    const { db } = dbFor(databaseUrl);
    const [tenant] = await db.select().from(tenants).where(eq(tenants.id, out.tenantId as string));
    expect(tenant).to.include({ name: 'Acme Corp', slug: 'acme-corp' });
    const [user] = await db.select().from(users).where(eq(users.id, out.userId as string));
    expect(user!.email).to.equal('founder@acme.example');
    const memberships = await db.select().from(tenantMemberships).where(eq(tenantMemberships.tenantId, out.tenantId as string));
    expect(memberships.map((m) => [m.userId, m.role])).to.deep.equal([[out.userId, 'owner']]);
    const [key] = await db.select().from(apiKeys).where(eq(apiKeys.tenantId, out.tenantId as string));
    expect(key!.keyHash).to.equal(sha256(out.apiKey as string));

    // Same name, same person in another case, no key: a second tenant, the same user.
    const again = printed(await runCli(['tenant:create', '--name=Acme Corp', '--owner-email=FOUNDER@acme.example'], env));
    expect(Object.keys(again)).to.deep.equal(['tenantId', 'userId']);
    expect(again.userId).to.equal(out.userId);
    const [second] = await db.select().from(tenants).where(eq(tenants.id, again.tenantId as string));
    expect(second!.slug).to.equal('acme-corp-2');
    expect(await db.select().from(apiKeys).where(eq(apiKeys.tenantId, again.tenantId as string))).to.deep.equal([]);

    const api = await testServer({ databaseUrl });
    try {
      const me = await api.as(out.apiKey as string).get('/api/users/me');
      expect(me.status).to.equal(200);
      expect(me.body.data.activeTenant).to.deep.equal({ id: out.tenantId, name: 'Acme Corp', slug: 'acme-corp', role: 'owner' });
    } finally {
      await api.close();
    }
  });

  it('user:add adds a member (new or existing user), with or without a key', async () => {
    const { db } = dbFor(databaseUrl);
    const [host] = await db.select().from(tenants).where(eq(tenants.slug, 'acme-corp'));
    const [owner] = await db.select().from(users).where(eq(users.email, 'founder@acme.example'));
    await db.insert(users).values({ email: 'shared@example.com' });
    const [finance, existing] = await Promise.all([
      runCli(['user:add', `--tenant=${host!.id}`, '--email=finance@example.com', '--role=member', '--api-key'], env),
      runCli(['user:add', `--tenant=${host!.id}`, '--email=Shared@example.com', '--role=owner'], env),
    ]);
    const member = printed(finance);
    expect(Object.keys(member)).to.deep.equal(['tenantId', 'userId', 'apiKey']);
    expect(member.tenantId).to.equal(host!.id);
    const second = printed(existing);
    expect(Object.keys(second)).to.deep.equal(['tenantId', 'userId']);
    const [shared] = await db.select().from(users).where(eq(users.email, 'shared@example.com'));
    expect(second.userId).to.equal(shared!.id);

    const roles = await db.select().from(tenantMemberships).where(eq(tenantMemberships.tenantId, host!.id));
    expect(Object.fromEntries(roles.map((m) => [m.userId, m.role]))).to.deep.equal({ [owner!.id]: 'owner', [member.userId as string]: 'member', [second.userId as string]: 'owner' });
    const [key] = await db.select().from(apiKeys).where(eq(apiKeys.userId, member.userId as string));
    expect(key!.keyHash).to.equal(sha256(member.apiKey as string));
  });

  it('usage errors exit 2 with the usage line; failures exit 1 with one line; stdout stays empty', async () => {
    const cases: Array<[string[], Record<string, string>, number, string]> = [
      [['tenant:create', '--owner-email=a@example.com'], env, 2, 'tenant:create: --name=<value> is required\nusage: delivery-analytics tenant:create --name=<name> --owner-email=<email> [--api-key]\n'],
      [['user:add', '--tenant=00000000-0000-0000-0000-000000000000', '--email=a@example.com', '--role=admin'], env, 2, 'user:add: --role must be owner or member\nusage: delivery-analytics user:add --tenant=<id> --email=<email> --role=owner|member [--api-key]\n'],
      [['user:add', '--tenant=00000000-0000-0000-0000-000000000000', '--email=a@example.com', '--role=member'], env, 1, 'user:add: Tenant not found\n'],
      [['tenant:create', '--name=Bad Mail', '--owner-email=not-an-address'], env, 1, 'tenant:create: Invalid e-mail address\n'],
      [['tenant:create', '--name=X', '--owner-email=a@example.com'], {}, 1, 'configuration problems:\n  DATABASE_URL is required\n'],
    ];
    const results = await Promise.all(cases.map(([args, e]) => runCli(args, e)));
    results.forEach((result, i) => {
      const [args, , code, stderr] = cases[i]!;
      expect({ code: result.code, stdout: result.stdout, stderr: stderrOf(result) }, args.join(' ')).to.deep.equal({ code, stdout: '', stderr });
    });
    // The failed tenant:create left nothing behind (one transaction).
    expect(await dbFor(databaseUrl).db.select().from(tenants).where(eq(tenants.name, 'Bad Mail'))).to.deep.equal([]);
  });
});
