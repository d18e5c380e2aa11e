/** src/db/transaction.ts: a whole transaction sent as one simple query (the cube layer's reads). */
import { expect } from 'chai';
import type pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client.js';
import { transactionInOneQuery } from '../../src/db/transaction.js';
import { freshDatabase } from '../helpers/database.js';

describe('transactionInOneQuery', () => {
  let database: Database;
  before(async () => {
    // One connection: what a failed transaction leaves behind is what the next query gets.
    database = openDatabase(await freshDatabase(), { max: 1, unscoped: 'test-fixture' });
    await database.pool.query('create table one_query_probe (n int)');
  });
  after(() => database.close());

  it('returns each statement\'s result and commits', async () => {
    const results = await transactionInOneQuery(database.pool, { text: 'begin; insert into one_query_probe values (1), (2); select count(*)::int as n from one_query_probe; commit' });
    expect(results.map((r) => r.command)).to.deep.equal(['BEGIN', 'INSERT', 'SELECT', 'COMMIT']);
    expect(results[2]!.rows).to.deep.equal([{ n: 2 }]);
    expect((await database.pool.query('select count(*)::int as n from one_query_probe')).rows).to.deep.equal([{ n: 2 }]);
  });

  it('a failing statement rolls the transaction back and leaves the connection outside any transaction', async () => {
    const failed = await transactionInOneQuery(database.pool, { text: 'begin isolation level repeatable read read only; select 1; insert into one_query_probe values (3); commit' }).catch((error: unknown) => error);
    expect((failed as { code?: string }).code, 'read-only transaction').to.equal('25006');
    // The same (only) connection: not left in the aborted read-only transaction, and nothing written.
    const client = await database.pool.connect();
    try {
      expect((await client.query('select count(*)::int as n from one_query_probe')).rows).to.deep.equal([{ n: 2 }]);
      expect(((await client.query('select now() = statement_timestamp() as outside')) as pg.QueryResult).rows).to.deep.equal([{ outside: true }]);
      await client.query('insert into one_query_probe values (4)');
    } finally {
      client.release();
    }
  });
});
