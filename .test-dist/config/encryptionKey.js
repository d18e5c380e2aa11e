function decodeEncryptionKey(raw) {
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return Buffer.from(raw, "hex");
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(raw)) {
    const decoded = Buffer.from(raw.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (decoded.length === 32) return decoded;
  }
  const plain = Buffer.from(raw, "utf8");
  return plain.length === 32 ? plain : null;
}
function parseEncryptionKey(r) {
  const raw = r.required("OAUTH_ENCRYPTION_KEY");
  const key = raw === null ? null : decodeEncryptionKey(raw);
  if (raw !== null && key === null) {
    r.problems.push("OAUTH_ENCRYPTION_KEY must be exactly 32 bytes (64 hex characters, base64 of 32 bytes, or a 32-byte string)");
  }
  return key ?? Buffer.alloc(0);
}
export {
  decodeEncryptionKey,
  parseEncryptionKey
};
