import { readdirSync } from "node:fs";
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
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
// The console's layers (docs/adr/0015-console-boundaries-in-lint.md): app -> features -> components
// and lib, one way. Every folder of features/ is a feature; none imports another.
const consoleSrc = `${import.meta.dirname}/console/src`;
const features = readdirSync(`${consoleSrc}/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const consoleZones = [
  ...features.map((feature) => ({
    target: `./features/${feature}`,
    from: "./features",
    except: [`./${feature}`],
    message: "Features never import each other; share through lib/ or components/.",
  })),
  ...["./lib", "./components"].map((target) => ({
    target,
    from: ["./features", "./app"],
    message: "lib/ and components/ never import features/ or app/.",
  })),
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
    files: ["console/src/**/*.ts", "console/src/**/*.tsx"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/extensions": [".ts", ".tsx"],
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx"] })],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { basePath: consoleSrc, zones: consoleZones }],
    },
  },
  {
    // The rules of hooks. The plugin's React Compiler rules (refs, set-state-in-effect,
    // immutability …) stay off: the console is not compiled by the React Compiler, and they judge
    // patterns it uses on purpose (a ref kept current during render); see the ADR above.
    files: ["console/src/**/*.ts", "console/src/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
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
