import { expect } from 'chai';
import { tenantMemberships, tenants, users } from '../../src/db/schema/index.js';
import { bootstrapFirstTenant } from '../../src/dev.js';
import { freshDatabase } from '../helpers/database.js';
import { dbFor } from '../helpers/factories.js';

describe('npm start on an empty database', () => {
  it('creates one first tenant with an owner to sign in with, once', async () => {
    const { db } = dbFor(await freshDatabase());
    expect(await bootstrapFirstTenant(db)).to.equal('owner@example.com');
    expect(await bootstrapFirstTenant(db)).to.equal(null);
    expect((await db.select().from(tenants)).map((t) => t.name)).to.deep.equal(['Local']);
    const [owner] = await db.select().from(users);
    expect(owner!.email).to.equal('owner@example.com');
    expect((await db.select().from(tenantMemberships)).map((m) => m.role)).to.deep.equal(['owner']);
  });
});
