// The README stays a newcomer's page whose map names every folder a newcomer opens (issue 37:
// the map had fallen behind the code, leaving out five folders).

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const map = /## Where things are\n+```\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";

function folders(under: string): string[] {
  return readdirSync(path.join(root, under), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/**
 * The paths the map's first column names: `server/src/accounts/, actors/` names
 * server/src/accounts/ and server/src/actors/.
 */
function mappedPaths(): Set<string> {
  const paths = new Set<string>();
  for (const line of map.split("\n")) {
    const [first = "", ...rest] = line.split(/\s{2,}/)[0]!.split(/,\s*/);
    const base = first.slice(
      0,
      first.lastIndexOf("/", first.endsWith("/") ? first.length - 2 : undefined) + 1,
    );
    paths.add(first);
    for (const part of rest) paths.add(base + part);
  }
  return paths;
}

describe("the README", () => {
  it("is a page a newcomer reads: at most 160 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(160);
  });

  it("maps every top-level folder of server/src and console/src, and every console feature", () => {
    expect(map).not.toBe("");
    const paths = mappedPaths();
    const missing = [
      ...["server/src", "console/src"].flatMap((under) =>
        folders(under)
          .map((name) => `${under}/${name}/`)
          .filter((folder) => !paths.has(folder)),
      ),
      ...folders("console/src/features")
        .filter((name) => !map.includes(name))
        .map((name) => `console/src/features/${name}`),
    ];
    expect(missing).toEqual([]);
  });
});
