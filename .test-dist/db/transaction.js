const broken = /* @__PURE__ */ new WeakSet();
async function transactionOn(client, work, begin = "begin") {
  await client.query(begin);
  try {
    const result = await work(client);
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback").catch(() => broken.add(client));
    throw error;
  }
}
async function inTransaction(pool, work, begin = "begin") {
  const client = await pool.connect();
  try {
    return await transactionOn(client, work, begin);
  } finally {
    client.release(broken.has(client) ? new Error("rollback failed; connection discarded") : void 0);
  }
}
export {
  inTransaction,
  transactionOn
};
