import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { AppError } from "../errors.js";
const UNREACHABLE = /* @__PURE__ */ new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "TimeoutError", "RequestTimeout"]);
const REFUSED = /* @__PURE__ */ new Set(["AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "Forbidden", "AllAccessDisabled"]);
class S3ObjectStore {
  constructor(config) {
    this.config = config;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      forcePathStyle: config.addressing === "path",
      // S3-compatible stores often lack the newer default checksums; send them only when required.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      // An unreachable store must answer a request quickly with a 503, not hang it.
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 3e3, requestTimeout: 3e4 }
    });
  }
  config;
  kind = "s3";
  client;
  get hint() {
    const how = this.config.addressingDerived ? "derived from S3_ENDPOINT" : "set by S3_ADDRESSING";
    return `S3_ADDRESSING is ${this.config.addressing} (${how}); a path/virtual-host mismatch looks like a missing bucket or a permissions error`;
  }
  /** The SDK's error as a 503 naming the cause; credentials never appear. */
  unavailable(error, doing) {
    const e = error;
    const name = e.Code ?? e.name ?? e.code ?? "Error";
    const status = e.$metadata?.httpStatusCode;
    const where = `bucket "${this.config.bucket}" at ${this.config.endpoint}`;
    let cause;
    if (name === "NoSuchBucket") cause = `the ${where} does not exist`;
    else if (name === "NoSuchKey") cause = `the transcript object is missing from the ${where}`;
    else if (REFUSED.has(name) || status === 403) cause = `the store refused access to the ${where} (${name}); check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`;
    else if (UNREACHABLE.has(name) || UNREACHABLE.has(e.code ?? "")) cause = `the store at ${this.config.endpoint} is unreachable (${e.code ?? name})`;
    else cause = `the store failed to ${doing} in the ${where} (${name}${status ? ` ${status}` : ""})`;
    return new AppError("unavailable", `Object store unavailable: ${cause}. ${this.hint}`);
  }
  async put(key, body, contentType) {
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.config.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }));
    } catch (error) {
      throw this.unavailable(error, "write");
    }
  }
  async get(key) {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return Buffer.from(await out.Body.transformToByteArray());
    } catch (error) {
      throw this.unavailable(error, "read");
    }
  }
  async delete(key) {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
    } catch (error) {
      throw this.unavailable(error, "delete");
    }
  }
}
export {
  S3ObjectStore
};
