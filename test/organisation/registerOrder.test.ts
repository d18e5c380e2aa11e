import { expect } from 'chai';
import pg from 'pg';
import { AppError } from '../../src/errors.js';
import { importRegister } from '../../src/organisation/registerImport.js';
import { systemActor } from '../../src/auth/principal.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { freshDatabase } from '../helpers/database.js';
import { REGISTER_HEADER } from './helpers.js';

describe('register import: validation under the tenant’s import lock', () => {
  let url: string;
  let a: BuiltTenant;
  before(async () => {
    url = await freshDatabase();
    a = await buildTenant(url);
  });

  const file = (...rows: string[]) => `${REGISTER_HEADER},codehost_usernames\n${rows.join('\n')}\n`;

  it('validates against what a concurrent change committed before the lock was released, not what was there before', async () => {
    const first = await importRegister(dbFor(url).db, systemActor(a.tenantId, a.owner.userId), file('P1,p1@example.com,One,employee,,,,alpha,Alpha,,,,', 'P2,p2@example.com,Two,employee,,,,alpha,Alpha,,,,'));
    expect(first.recorded).to.equal(true);

    // Another writer of the tenant holds the import lock and gives P1 a manual username…
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [`register:${a.tenantId}`]);
      await other.query(
        `insert into person_identities (tenant_id, person_id, kind, value, source)
         select tenant_id, id, 'codehost_username', 'octo-cat', 'manual' from people where tenant_id = $1 and external_ref = 'P1'`,
        [a.tenantId],
      );
      // …while an import giving the same username to P2 starts, and waits for the lock.
      const second = importRegister(dbFor(url).db, systemActor(a.tenantId, a.owner.userId), file('P1,p1@example.com,One,employee,,,,alpha,Alpha,,,,', 'P2,p2@example.com,Two,employee,,,,alpha,Alpha,,,,octo-cat')).then(
        () => null,
        (e: unknown) => e,
      );
      const waiting = async () => (await other.query(`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`)).rows[0].n;
      for (let i = 0; i < 100 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await waiting()).to.equal(1);
      await other.query('commit');

      const error = await second;
      expect(error).to.be.instanceOf(AppError);
      expect((error as AppError).details).to.deep.equal([{ line: 3, column: 'codehost_usernames', path: 'line 3, codehost_usernames', message: '"octo-cat" is a manual identity of person "P1"' }]);
    } finally {
      await other.end();
    }
    const { rows } = await dbFor(url).pool.query(`select p.external_ref, i.source from person_identities i join people p on p.id = i.person_id where i.tenant_id = $1 and i.value = 'octo-cat'`, [a.tenantId]);
    expect(rows).to.deep.equal([{ external_ref: 'P1', source: 'manual' }]);
  });
});
