// An ESLint rule: no import cycle among the project's own modules, type-only imports included.
// eslint-plugin-import-x's no-cycle skips `import type` (it has no option not to), and two pairs of
// files that imported each other only for types went unnoticed (issue 25, item 16). A type cycle
// is still two modules that cannot be understood, moved or split one without the other.
//
// Each relative import (static, `import type`, `export … from`, dynamic `import()`) is an edge;
// the files an import reaches are read with TypeScript's preProcessFile (no type checking), once
// per lint run. The rule reports an import of the linted file whose target leads back to it.

import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const extensions = [".ts", ".tsx", ".mts", ".js", ".mjs"];

/** file -> the files its relative imports resolve to, in source order. */
const edges = new Map();

function isFile(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The file a relative specifier names, or null for a package or a file that is not there. */
function resolveImport(from, specifier) {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return null;
  const base = path.resolve(path.dirname(from), specifier.split("?")[0]);
  const candidates = [
    base,
    ...extensions.map((extension) => base + extension),
    ...extensions.map((extension) => path.join(base, `index${extension}`)),
  ];
  return (
    candidates.find(
      (candidate) => extensions.includes(path.extname(candidate)) && isFile(candidate),
    ) ?? null
  );
}

function importsOf(file, text) {
  if (text === undefined && edges.has(file)) return edges.get(file);
  let source = text;
  if (source === undefined) {
    try {
      source = readFileSync(file, "utf8");
    } catch {
      source = "";
    }
  }
  const targets = ts
    .preProcessFile(source, true, true)
    .importedFiles.map((imported) => resolveImport(file, imported.fileName))
    .filter((target) => target !== null);
  edges.set(file, targets);
  return targets;
}

/** The shortest chain of files from `start` back to `goal`, or null. */
function pathBack(start, goal) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of importsOf(file)) {
      if (next === goal) {
        const chain = [file];
        for (let at = cameFrom.get(file); at !== null; at = cameFrom.get(at)) chain.unshift(at);
        return chain;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

const rule = {
  meta: {
    type: "problem",
    docs: {
      description: "Forbid import cycles among the project's modules, type imports included.",
    },
    schema: [],
    messages: { cycle: "Import cycle (type-only imports count too): {{chain}}" },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!path.isAbsolute(file)) return {};
    // The linted text may be newer than the file on disk (an editor): read its imports from it.
    importsOf(file, context.sourceCode.text);
    const check = (node, source) => {
      if (source?.type !== "Literal" || typeof source.value !== "string") return;
      const target = resolveImport(file, source.value);
      if (target === null) return;
      const chain = target === file ? [] : pathBack(target, file);
      if (chain === null) return;
      const names = [file, ...chain, file].map((f) => path.relative(path.dirname(file), f) || ".");
      context.report({ node, messageId: "cycle", data: { chain: names.join(" -> ") } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportEqualsDeclaration: (node) =>
        check(
          node,
          node.moduleReference?.type === "TSExternalModuleReference"
            ? node.moduleReference.expression
            : null,
        ),
    };
  },
};

export default { rules: { "no-cycle": rule } };
