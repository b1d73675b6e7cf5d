// The reference build for speed-guard.ts: the commit named in bench/speed-reference, its server
// unpacked once (git archive) into a git-ignored folder and reused by every later run. On a fresh
// clone (CI) the folder does not exist yet and is made; a shallow clone that lacks the commit
// fetches it first. Its packages: this checkout's node_modules when both lock files are the
// same (the usual case), else its own `npm ci`.

import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { join } from "node:path";

export const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const REFERENCE_FILE = join(ROOT, "bench/speed-reference");

/** The commit bench/speed-reference names (its first word: 7 to 40 hex digits). */
export function referenceCommit(): string {
  const text = readFileSync(REFERENCE_FILE, "utf8").trim();
  const commit = text.split(/\s/)[0] ?? "";
  if (!/^[0-9a-f]{7,40}$/.test(commit))
    throw new Error(`bench/speed-reference must name a commit (hex digits), not "${commit}"`);
  return commit;
}

const git = (args: string[]) =>
  spawnSync("git", args, { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 20 });

/** The full id of `commit`, fetching it from origin when this clone lacks it (a shallow one). */
function resolveCommit(commit: string): string {
  const known = git(["rev-parse", "--verify", "--quiet", `${commit}^{commit}`]);
  if (known.status === 0) return known.stdout.trim();
  const fetched = git(["fetch", "--quiet", "--depth=1", "origin", commit]);
  const again = git(["rev-parse", "--verify", "--quiet", `${commit}^{commit}`]);
  if (again.status === 0) return again.stdout.trim();
  throw new Error(
    `the reference commit ${commit} (bench/speed-reference) is not in this clone, and fetching it from origin failed: ${fetched.stderr.trim() || `exit ${fetched.status}`}`,
  );
}

/**
 * The reference's server/src/cli.ts (or another commit's, `named`), built if needed. The folder is CORRAL_SPEED_REFERENCE_DIR,
 * by default .cache/speed-reference/ in this checkout; one subfolder per commit.
 */
export function referenceCli(
  log: (line: string) => void,
  named?: string,
): { commit: string; cli: string } {
  const commit = resolveCommit(named ?? referenceCommit());
  const base = process.env.CORRAL_SPEED_REFERENCE_DIR ?? join(ROOT, ".cache/speed-reference");
  const dir = join(base, commit);
  const cli = join(dir, "server/src/cli.ts");
  if (!existsSync(cli)) {
    log(`speed guard: unpacking the reference ${commit.slice(0, 12)} into ${dir} (once)`);
    mkdirSync(base, { recursive: true });
    const building = `${dir}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building);
    const tar = execFileSync(
      "git",
      [
        "archive",
        "--format=tar",
        commit,
        "server",
        "package.json",
        "package-lock.json",
        "tsconfig.base.json",
        "console/package.json",
      ],
      { cwd: ROOT, maxBuffer: 1 << 30 },
    );
    execFileSync("tar", ["-x", "-C", building], { input: tar });
    rmSync(join(building, "server/test"), { recursive: true, force: true });
    renameSync(building, dir);
  }
  linkPackages(dir, log);
  return { commit, cli };
}

/** node_modules for the reference: this checkout's when the lock files agree, else its own. */
function linkPackages(dir: string, log: (line: string) => void) {
  const modules = join(dir, "node_modules");
  const sameLock =
    readFileSync(join(dir, "package-lock.json"), "utf8") ===
    readFileSync(join(ROOT, "package-lock.json"), "utf8");
  if (sameLock) {
    // Re-pointed each run: the folder may have been made by another checkout of this repository.
    const link = `${modules}.link-${process.pid}`;
    rmSync(link, { force: true });
    symlinkSync(join(ROOT, "node_modules"), link);
    if (existsSync(modules) && !isSymlink(modules)) rmSync(modules, { recursive: true });
    renameSync(link, modules);
    return;
  }
  if (existsSync(join(modules, ".package-lock.json")) && !isSymlink(modules)) return;
  log("speed guard: the reference's package-lock.json differs from this one: npm ci (once)");
  rmSync(modules, { recursive: true, force: true });
  // Only the server's packages (and the root's): the console is not run.
  const run = spawnSync(
    "npm",
    ["ci", "--workspace=server", "--include-workspace-root", "--ignore-scripts", "--no-audit"],
    { cwd: dir, encoding: "utf8", stdio: ["ignore", "inherit", "pipe"] },
  );
  if (run.status !== 0)
    throw new Error(`npm ci for the reference build failed: ${run.stderr.trim().slice(-500)}`);
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
