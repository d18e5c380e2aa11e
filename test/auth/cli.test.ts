import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { apiKeys, tenantMemberships, tenants, users } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/auth/secrets.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/database.js';
import { dbFor } from '../helpers/factories.js';
import { testServer } from '../helpers/server.js';

/** The one JSON object a command prints, checking it is exactly one line. */
function printed(result: CliResult): Record<string, string> {
  expect(result.stderr, result.stderr).to.equal('');
  expect(result.code).to.equal(0);
  const lines = result.stdout.trimEnd().split('\n');
  expect(lines).to.have.length(1);
  return JSON.parse(lines[0] as string);
}

describe('CLI: tenant:create and user:add', function () {
  this.timeout(60_000);
  let databaseUrl: string;
  let env: { DATABASE_URL: string };
  before(async () => {
    databaseUrl = await freshDatabase();
    env = { DATABASE_URL: databaseUrl };
  });

  it('tenant:create prints {tenantId, userId, apiKey} and the key works over HTTP', async () => {
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

    const api = await testServer({ databaseUrl });
    try {
      const me = await api.as(out.apiKey as string).get('/api/users/me');
      expect(me.status).to.equal(200);
      expect(me.body.data.activeTenant).to.deep.equal({ id: out.tenantId, name: 'Acme Corp', slug: 'acme-corp', role: 'owner' });
    } finally {
      await api.close();
    }
  });

  it('without --api-key prints {tenantId, userId} only; reuses an existing user; slugs stay unique', async () => {
    const [first, second] = await Promise.all([
      runCli(['tenant:create', '--name=Reuse Co', '--owner-email=shared@example.com'], env),
      runCli(['tenant:create', '--name=Other Co', '--owner-email=someone@example.com'], env),
    ]);
    const a = printed(first);
    printed(second);
    expect(Object.keys(a)).to.deep.equal(['tenantId', 'userId']);
    const again = printed(await runCli(['tenant:create', '--name=Reuse Co', '--owner-email=SHARED@example.com'], env));
    expect(again.userId).to.equal(a.userId);
    expect(again.tenantId).not.to.equal(a.tenantId);
    const [row] = await dbFor(databaseUrl).db.select().from(tenants).where(eq(tenants.id, again.tenantId as string));
    expect(row!.slug).to.equal('reuse-co-2');
    expect(await dbFor(databaseUrl).db.select().from(apiKeys).where(eq(apiKeys.tenantId, a.tenantId as string))).to.deep.equal([]);
  });

  it('user:add adds a member (new or existing user), with or without a key', async () => {
    const owner = printed(await runCli(['tenant:create', '--name=Finance Host', '--owner-email=boss@example.com'], env));
    const [finance, existing] = await Promise.all([
      runCli(['user:add', `--tenant=${owner.tenantId}`, '--email=finance@example.com', '--role=member', '--api-key'], env),
      runCli(['user:add', `--tenant=${owner.tenantId}`, '--email=shared@example.com', '--role=owner'], env),
    ]);
    const member = printed(finance);
    expect(Object.keys(member)).to.deep.equal(['tenantId', 'userId', 'apiKey']);
    expect(member.tenantId).to.equal(owner.tenantId);
    const second = printed(existing);
    expect(Object.keys(second)).to.deep.equal(['tenantId', 'userId']);
    const [shared] = await dbFor(databaseUrl).db.select().from(users).where(eq(users.email, 'shared@example.com'));
    expect(second.userId).to.equal(shared!.id);

    const roles = await dbFor(databaseUrl).db.select().from(tenantMemberships).where(eq(tenantMemberships.tenantId, owner.tenantId as string));
    expect(Object.fromEntries(roles.map((m) => [m.userId, m.role]))).to.deep.equal({ [owner.userId as string]: 'owner', [member.userId as string]: 'member', [second.userId as string]: 'owner' });
    const [key] = await dbFor(databaseUrl).db.select().from(apiKeys).where(eq(apiKeys.userId, member.userId as string));
    expect(key!.keyHash).to.equal(sha256(member.apiKey as string));
  });

  it('usage errors exit 2 with the usage line and print nothing on stdout', async () => {
    const cases: Array<[string[], string]> = [
      [['tenant:create', '--owner-email=a@example.com'], 'tenant:create: --name=<value> is required'],
      [['tenant:create', '--name=X', '--owner-email=a@example.com', 'stray'], 'tenant:create: unexpected argument "stray"'],
      [['user:add', '--tenant=00000000-0000-0000-0000-000000000000', '--email=a@example.com', '--role=admin'], 'user:add: --role must be owner or member'],
      [['user:add', '--tenant=acme', '--email=a@example.com', '--role=member'], 'user:add: --tenant must be a tenant id (UUID)'],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args, env)));
    results.forEach((result, i) => {
      const [args, message] = cases[i] as [string[], string];
      expect(result.code, args.join(' ')).to.equal(2);
      expect(result.stdout).to.equal('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines[0]).to.equal(message);
      expect(lines[1]).to.match(new RegExp(`^usage: delivery-analytics ${args[0]} `));
    });
  });

  it('failures exit 1 with a message: unknown tenant, invalid e-mail, no DATABASE_URL', async () => {
    const [unknownTenant, badEmail, noDatabase] = await Promise.all([
      runCli(['user:add', '--tenant=00000000-0000-0000-0000-000000000000', '--email=a@example.com', '--role=member'], env),
      runCli(['tenant:create', '--name=Bad Mail', '--owner-email=not-an-address'], env),
      runCli(['tenant:create', '--name=X', '--owner-email=a@example.com'], {}),
    ]);
    expect(unknownTenant).to.deep.equal({ code: 1, stdout: '', stderr: 'user:add: Tenant not found\n' });
    expect(badEmail).to.deep.equal({ code: 1, stdout: '', stderr: 'tenant:create: Invalid e-mail address\n' });
    expect(noDatabase).to.deep.equal({ code: 1, stdout: '', stderr: 'configuration problems:\n  DATABASE_URL is required\n' });
    // The failed tenant:create left nothing behind (one transaction).
    expect(await dbFor(databaseUrl).db.select().from(tenants).where(eq(tenants.name, 'Bad Mail'))).to.deep.equal([]);
  });
});
