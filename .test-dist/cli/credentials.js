import { chmod, mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { z } from "zod";
const StoredKey = z.object({
  apiKey: z.string().startsWith("gai_"),
  keyId: z.string(),
  keyName: z.string(),
  tenantId: z.string(),
  createdAt: z.string()
});
const CredentialsFile = z.object({ servers: z.record(z.string(), StoredKey) });
class CredentialsStore {
  dir;
  path;
  constructor(configHome) {
    this.dir = join(configHome, "delivery-analytics");
    this.path = join(this.dir, "credentials.json");
  }
  async read() {
    let text;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if (error.code === "ENOENT") return { servers: {} };
      throw error;
    }
    const parsed = CredentialsFile.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${this.path} is not a credentials file of this CLI; move it away and log in again`);
    return parsed.data;
  }
  async write(file) {
    await mkdir(this.dir, { recursive: true, mode: 448 });
    await chmod(this.dir, 448);
    const temporary = `${this.path}.${randomBytes(6).toString("hex")}.tmp`;
    const handle = await open(temporary, "wx", 384);
    try {
      await handle.writeFile(`${JSON.stringify(file, null, 2)}
`);
      await handle.chmod(384);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.path);
  }
  async get(server) {
    return (await this.read()).servers[server] ?? null;
  }
  /** The servers this machine is logged in to. */
  async servers() {
    return Object.keys((await this.read()).servers);
  }
  async put(server, key) {
    const file = await this.read();
    file.servers[server] = key;
    await this.write(file);
  }
  async remove(server) {
    const file = await this.read();
    delete file.servers[server];
    if (Object.keys(file.servers).length === 0) await rm(this.path, { force: true });
    else await this.write(file);
  }
}
export {
  CredentialsStore,
  StoredKey
};
