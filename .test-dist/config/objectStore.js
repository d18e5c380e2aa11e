import { isIP } from "node:net";
import { parseHttpUrl } from "./reader.js";
function deriveAddressing(endpoint) {
  const host = new URL(endpoint).hostname;
  if (isIP(host) || host === "localhost") return "path";
  return /(^|\.)amazonaws\.com$/.test(host) ? "virtual-host" : "path";
}
function parseObjectStore(r, production) {
  const s3 = r.group("object store group (S3_BUCKET)", ["S3_BUCKET", "S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"], ["S3_REGION", "S3_ADDRESSING"]);
  const localDir = r.get("LOCAL_OBJECT_STORE_DIR");
  if (localDir !== null && production) {
    r.problems.push("LOCAL_OBJECT_STORE_DIR is refused when NODE_ENV is production (configure the S3_* group)");
  }
  const addressingRaw = r.get("S3_ADDRESSING");
  if (addressingRaw !== null && addressingRaw !== "path" && addressingRaw !== "virtual-host") {
    r.problems.push("S3_ADDRESSING must be path or virtual-host");
  }
  if (s3 === null) {
    if (localDir !== null && !production) return { kind: "local", dir: localDir };
    return { kind: "none" };
  }
  const endpoint = parseHttpUrl(r, "S3_ENDPOINT", s3.S3_ENDPOINT);
  if (endpoint === null) return { kind: "none" };
  const explicit = addressingRaw === "path" || addressingRaw === "virtual-host" ? addressingRaw : null;
  return {
    kind: "s3",
    bucket: s3.S3_BUCKET,
    endpoint: endpoint.origin,
    accessKeyId: s3.S3_ACCESS_KEY_ID,
    secretAccessKey: s3.S3_SECRET_ACCESS_KEY,
    region: r.get("S3_REGION") ?? "auto",
    addressing: explicit ?? deriveAddressing(endpoint.origin),
    addressingDerived: explicit === null
  };
}
export {
  deriveAddressing,
  parseObjectStore
};
