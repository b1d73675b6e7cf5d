// The lint rule behind "there is no import cycle" (scripts/eslint-no-cycle.mjs): issue 25, item 16
// found two pairs of files importing each other with `import type` only, which
// eslint-plugin-import-x's no-cycle does not see. Real files on disk, linted as `npm run check` does.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { afterAll, describe, expect, it } from "vitest";
import cycles from "../../../scripts/eslint-no-cycle.mjs";

const dir = mkdtempSync(path.join(tmpdir(), "corral-no-cycle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string) {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function lint(file: string, text: string) {
  const config = {
    files: ["**/*.ts"],
    languageOptions: { parser: tseslint.parser },
    plugins: { corral: cycles },
    rules: { "corral/no-cycle": "error" },
  } as Linter.Config;
  return new Linter({ cwd: dir }).verify(text, config, file).map((message) => message.message);
}

describe("corral/no-cycle", () => {
  it("reports two files that import each other's types only", () => {
    const message =
      'import type { Store } from "./type-store.ts";\nexport type Message = { id: Store };\n';
    const store =
      'import type { Message } from "./type-message.ts";\nexport type Store = Message[];\n';
    const messageFile = write("type-message.ts", message);
    write("type-store.ts", store);
    expect(lint(messageFile, message)).toEqual([
      "Import cycle (type-only imports count too): type-message.ts -> type-store.ts -> type-message.ts",
    ]);
  });

  it("reports a longer cycle through `export type … from` and a value import", () => {
    const a = 'export type { B } from "./long-b.ts";\n';
    const b = 'import { c } from "./long-c.ts";\nexport type B = typeof c;\n';
    const c = 'import type { B } from "./long-a.ts";\nexport const c: B | null = null;\n';
    const aFile = write("long-a.ts", a);
    write("long-b.ts", b);
    write("long-c.ts", c);
    expect(lint(aFile, a)).toEqual([
      "Import cycle (type-only imports count too): long-a.ts -> long-b.ts -> long-c.ts -> long-a.ts",
    ]);
  });

  it("passes imports that point one way, and packages", () => {
    const shared = "export type Message = { id: string };\n";
    const search =
      'import type { Message } from "./one-way-shared.ts";\nexport const text = (m: Message) => m.id;\n';
    const store =
      'import type { Message } from "./one-way-shared.ts";\nimport { text } from "./one-way-search.ts";\nimport { z } from "zod";\nexport const all = (m: Message[]) => m.map(text).concat(String(z));\n';
    write("one-way-shared.ts", shared);
    write("one-way-search.ts", search);
    const storeFile = write("one-way-store.ts", store);
    expect(lint(storeFile, store)).toEqual([]);
  });
});
