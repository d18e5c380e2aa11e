/**
 * Configuration of the official Cube image for the optional `cube` compose profile (issue 21,
 * docs/bi.md "Full Cube"). Cube reads the same models as this server (schema/, mounted as
 * `model`), and each request gets the same tenant security context the server builds: the tenant
 * of an API key of this application (`gai_…`), checked against the same table, hash and rules
 * (not revoked, its creator still a member). Cube's REST API takes the key as the Authorization
 * header; its SQL API takes it as the password (any user name).
 *
 * Loaded by Cube with require(); `pg` comes with Cube's PostgreSQL driver in the image.
 */
const { createHash } = require('node:crypto');
const { Pool } = require('pg');

const API_KEY_PREFIX = 'gai_';

let pool = null;
/** The application's database (DATABASE_URL), where the API keys are; one small pool per process. */
function database() {
  pool ??= new Pool({ connectionString: process.env.DATABASE_URL, max: 2, connectionTimeoutMillis: 5000 });
  return pool;
}

/** The tenant of a live API key, or null. The key itself is never logged nor stored. */
async function tenantOfApiKey(key) {
  if (typeof key !== 'string' || !key.startsWith(API_KEY_PREFIX) || key.length > 200) return null;
  const hash = createHash('sha256').update(key).digest('hex');
  const { rows } = await database().query(
    `SELECT k.tenant_id FROM api_keys k
     JOIN tenant_memberships m ON m.tenant_id = k.tenant_id AND m.user_id = k.user_id
     WHERE k.key_hash = $1 AND k.revoked_at IS NULL LIMIT 1`,
    [hash],
  );
  return rows[0] ? rows[0].tenant_id : null;
}

/** `Bearer gai_…` or the bare key, as the server accepts it. */
const bearer = (authorization) => (typeof authorization === 'string' ? authorization.replace(/^Bearer\s+/i, '').trim() : '');

module.exports = {
  schemaPath: 'model',

  /** REST: the tenant of the key becomes the security context the models' requiredFilter reads. */
  checkAuth: async (req, authorization) => {
    const tenantId = await tenantOfApiKey(bearer(authorization));
    if (!tenantId) throw new Error('Invalid API key');
    req.securityContext = { tenant_id: tenantId };
  },

  /** SQL API: the password is the API key; Cube compares the password it returns with the one sent. */
  checkSqlAuth: async (req, user, password) => {
    const tenantId = await tenantOfApiKey(password);
    if (!tenantId) throw new Error('Invalid API key');
    return { password, superuser: false, securityContext: { tenant_id: tenantId } };
  },

  // Caches and query queues per tenant: one tenant's cached result is never another's. A context
  // without a tenant (none is expected: the models have no pre-aggregations to refresh) gets its own.
  contextToAppId: ({ securityContext }) => `tenant_${(securityContext && securityContext.tenant_id) || 'none'}`,
  contextToOrchestratorId: ({ securityContext }) => `tenant_${(securityContext && securityContext.tenant_id) || 'none'}`,

  /** For tests and clean shutdown. */
  closeDatabase: async () => {
    if (pool) await pool.end();
    pool = null;
  },
};
