// `npm start`: builds the console when its build is missing or older than its sources, then
// serves everything with the defaults (http://localhost:3000, sqlite:./data/corral.sqlite).
// Extra arguments go to `corral serve`: npm start -- --port 8080

import { spawn, spawnSync } from "node:child_process";
import console from "node:console";
import process from "node:process";
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const consoleDir = join(root, "console");
const builtIndex = join(consoleDir, "dist", "index.html");

function newestChange(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

function needsBuild() {
  const built = newestChange(builtIndex);
  if (built === 0) return "the console has not been built yet";
  const sources = ["src", "index.html", "vite.config.ts", "package.json", "public"].map((p) =>
    newestChange(join(consoleDir, p)),
  );
  return Math.max(...sources) > built ? "the console sources changed since the last build" : null;
}

const reason = needsBuild();
if (reason) {
  console.log(`Building the console (${reason})…`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const build = spawnSync(npm, ["run", "build", "-w", "console"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) {
    console.error(
      "corral: the console build failed; serving the API anyway (the console page will say it is missing)",
    );
  }
}

const server = spawn(
  process.execPath,
  [join(root, "server", "src", "cli.ts"), "serve", ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: "inherit",
  },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// `npm start` runs this script through a shell, and on SIGTERM npm signals only that shell, which
// dies without passing it on: this script would be left behind with the server still serving (a
// container's stop would wait for its SIGKILL). So the server is stopped as for SIGTERM once this
// script's parent is gone (it was handed to another parent).
const parent = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphaned);
  server.kill("SIGTERM");
}, 500);
orphaned.unref();
