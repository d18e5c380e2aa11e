import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { randomBytes } from "node:crypto";
import { AppError } from "../errors.js";
class LocalObjectStore {
  kind = "local";
  root;
  constructor(dir) {
    this.root = resolve(dir);
  }
  pathOf(key) {
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new AppError("internal", "Invalid object key");
    return path;
  }
  unavailable(error, doing) {
    const code = error.code ?? "error";
    return new AppError("unavailable", `Object store unavailable: cannot ${doing} in LOCAL_OBJECT_STORE_DIR (${code})`);
  }
  async put(key, body) {
    const path = this.pathOf(key);
    const temporary = `${path}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporary, body);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => {
      });
      throw this.unavailable(error, "write");
    }
  }
  async get(key) {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if (error.code === "ENOENT") {
        throw new AppError("unavailable", "Object store unavailable: the transcript object is missing from LOCAL_OBJECT_STORE_DIR");
      }
      throw this.unavailable(error, "read");
    }
  }
  async delete(key) {
    try {
      await rm(this.pathOf(key), { force: true });
    } catch (error) {
      throw this.unavailable(error, "delete");
    }
  }
}
export {
  LocalObjectStore
};
