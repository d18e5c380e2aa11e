import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const WEB = join(ROOT, "web");
const MANIFEST = join(WEB, "dist", ".vite", "manifest.json");
function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}
function webBuildReason() {
  if (!existsSync(join(WEB, "index.html"))) return null;
  if (!existsSync(MANIFEST)) return "web/dist is missing";
  const sources = Math.max(
    newestMtime(join(WEB, "src")),
    newestMtime(join(WEB, "index.html")),
    newestMtime(join(WEB, "vite.config.ts")),
    newestMtime(join(ROOT, "package-lock.json"))
  );
  return sources > statSync(MANIFEST).mtimeMs ? "web/dist is older than web/src" : null;
}
function ensureWebBuilt(log = (line) => process.stdout.write(`${line}
`)) {
  const reason = webBuildReason();
  if (reason === null) return;
  log(`Building the web app (${reason})\u2026`);
  const result = spawnSync(process.execPath, [join(ROOT, "node_modules", "vite", "bin", "vite.js"), "build", "web", "--logLevel", "warn"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`the web app did not build (vite exited ${result.status ?? result.signal}); run npm run build:web to see why`);
  const budget = spawnSync(process.execPath, [join(WEB, "scripts", "budget.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (budget.status !== 0) throw new Error("the web app is over its size budget (web/scripts/budget.mjs)");
}
export {
  ensureWebBuilt,
  webBuildReason
};
