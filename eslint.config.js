import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";
import cycles from "./scripts/eslint-no-cycle.mjs";

// The server's layers (docs/adr/0005-server-layers.md): edge -> domain -> db, one way.
const edge = [
  "./fe",
  "./federation",
  "./web",
  "./mqtt",
  "./amqp",
  "./app.ts",
  "./main.ts",
  "./cli.ts",
  "./background.ts",
];
// The domain's order, bottom to top (docs/adr/0005-server-layers.md): a folder imports only
// folders on lower lines, never one on its own line or above. Lower parts that must act for a
// higher one are handed a callback (the receiver the delivery worker is given, the work an event
// is appended with).
const domainOrder = [
  ["actors", "broker"],
  ["activitypub"],
  ["events", "follows"],
  ["objects", "metrics"],
  ["delivery", "lookup"],
  ["receive", "methods"],
  ["triggers", "accounts"],
  ["cattle-drive", "recording"],
];
const domain = domainOrder.flat();
const orderZones = domainOrder.flatMap((line, rank) =>
  line.map((folder) => ({
    target: `./${folder}`,
    from: domainOrder
      .slice(rank)
      .flat()
      .filter((other) => other !== folder)
      .map((other) => `./${other}`),
    message: `The domain's order: ${folder}/ imports only ${
      domainOrder
        .slice(0, rank)
        .flat()
        .map((below) => `${below}/`)
        .join(", ") || "db/"
    } (and db/); hand a lower part a callback instead (docs/adr/0005-server-layers.md).`,
  })),
);
const layerZones = [
  { target: "./fe", from: "./federation", message: "fe/ and federation/ never import each other." },
  { target: "./federation", from: "./fe", message: "fe/ and federation/ never import each other." },
  ...domain.map((folder) => ({
    target: `./${folder}`,
    from: edge,
    message: "Domain modules never import the edge (fe/, federation/, web/, app, main, cli).",
  })),
  {
    target: "./db",
    from: ".",
    except: ["./db"],
    message: "db/ imports no domain or edge module.",
  },
];
// SQL and dialect checks belong to db/ and to store modules (`*.store.ts`) alone.
const sqlOutsideStores = [
  {
    selector:
      "TemplateLiteral[quasis.0.value.raw=/^\\s*(SELECT|INSERT INTO|UPDATE \\w+ SET|DELETE FROM)\\s/]",
    message: "SQL belongs in db/ or a *.store.ts module.",
  },
  {
    selector: "Literal[value=/^\\s*(SELECT|INSERT INTO|UPDATE \\w+ SET|DELETE FROM)\\s/]",
    message: "SQL belongs in db/ or a *.store.ts module.",
  },
  {
    selector: "MemberExpression[property.name='dialect']",
    message: "Only db/ knows SQLite from PostgreSQL.",
  },
];

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "console/dist/**",
      "console/dist-bench/**",
      "data/**",
      "e2e/artifacts/**",
      ".cache/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Scripts run by Node directly (start, demo, bench runner): Node's globals, no browser.
    files: ["**/*.mjs"],
    languageOptions: {
      globals: Object.fromEntries(
        [
          "process",
          "console",
          "setTimeout",
          "clearTimeout",
          "setInterval",
          "clearInterval",
          "URL",
          "fetch",
        ].map((name) => [name, "readonly"]),
      ),
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    // No import cycle anywhere, type-only imports included (import-x's no-cycle skips those).
    files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
    plugins: { corral: cycles },
    rules: { "corral/no-cycle": "error" },
  },
  {
    files: ["server/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      // The code imports with explicit .ts extensions; the node resolver finds those files as they are.
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
      "import-x/extensions": [".ts", ".js", ".mjs"],
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".js", ".mjs"] })],
    },
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        { basePath: `${import.meta.dirname}/server/src`, zones: layerZones },
      ],
    },
  },
  {
    // The domain's order holds for the server's code; a test may set up with any part (an
    // account to own its actors, say).
    files: ["server/src/**/*.ts"],
    ignores: ["server/src/**/*.test.ts"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        { basePath: `${import.meta.dirname}/server/src`, zones: [...layerZones, ...orderZones] },
      ],
    },
  },
  {
    files: ["server/src/**/*.ts"],
    ignores: ["server/src/db/**", "server/src/**/*.store.ts", "server/src/**/*.test.ts"],
    rules: { "no-restricted-syntax": ["error", ...sqlOutsideStores] },
  },
  {
    // Every log line goes through LogTape (--log-format json included), never console.error with
    // a stack. Only the command line prints: its output, and its one-line errors.
    files: ["server/src/**/*.ts"],
    ignores: [
      "server/src/**/*.test.ts",
      "server/src/cli.ts",
      "server/src/cli/**",
      "server/src/main.ts",
      "server/src/accounts/accounts.cli.ts",
    ],
    rules: { "no-console": "error" },
  },
);
