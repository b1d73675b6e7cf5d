import { describe, expect, it } from "vitest";
import { INSTALL_COMMANDS, planChromium, type ChromiumFacts } from "./harness/chromium.ts";

// Which way the global setup goes when Chromium is missing, decided from the machine's facts
// (taken apart here so that no test has to uninstall the browser).

const missing = (): boolean => false;
const facts = (overrides: Partial<ChromiumFacts>): ChromiumFacts => ({
  chromePath: undefined,
  exists: missing,
  isRoot: true,
  hasAptGet: true,
  ...overrides,
});

describe("finding Chromium for the browser tests", () => {
  it("uses Debian's Chromium, or CHROME_PATH, when it is there", () => {
    const present = (path: string) => path === "/usr/bin/chromium" || path === "/opt/chrome";
    expect(planChromium(facts({ exists: present }))).toEqual({
      action: "use",
      path: "/usr/bin/chromium",
    });
    expect(planChromium(facts({ exists: present, chromePath: "/opt/chrome" }))).toEqual({
      action: "use",
      path: "/opt/chrome",
    });
  });

  it("installs Debian's chromium with apt-get when it is missing and we are root", () => {
    expect(planChromium(facts({}))).toEqual({
      action: "install",
      path: "/usr/bin/chromium",
      commands: [
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "chromium"],
      ],
    });
    expect(INSTALL_COMMANDS.at(-1)).toContain("-y"); // never waits for a question
  });

  it("says what to install when it may not install: not root, or no apt-get", () => {
    for (const plan of [
      planChromium(facts({ isRoot: false })),
      planChromium(facts({ hasAptGet: false })),
    ]) {
      expect(plan).toEqual({
        action: "fail",
        reason:
          "Chromium not found at /usr/bin/chromium: install it with `apt-get install -y chromium` (as root) or set CHROME_PATH to a Chromium binary",
      });
    }
  });

  it("installs nothing for a CHROME_PATH that is missing: that binary is the user's to provide", () => {
    expect(planChromium(facts({ chromePath: "/opt/none" }))).toEqual({
      action: "fail",
      reason:
        "Chromium not found at /opt/none: fix CHROME_PATH or unset it to use Debian's /usr/bin/chromium",
    });
  });
});
