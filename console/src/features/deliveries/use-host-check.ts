import { useState } from "react";
import type { HostCheckStep } from "../../lib/wire-types.ts";
import { checkHost } from "./host-client.ts";

export type HostCheckRun = {
  /** The step under way ("starting" before the first), or null when no check runs. */
  running: HostCheckStep["step"] | "starting" | null;
  steps: HostCheckStep[];
  verdict: string | null;
  problem: string | null;
  run: () => Promise<void>;
};

/** "Check host": the server streams the diagnosis; each step is kept as it completes. */
export function useHostCheck(host: string): HostCheckRun {
  const [running, setRunning] = useState<HostCheckRun["running"]>(null);
  const [steps, setSteps] = useState<HostCheckStep[]>([]);
  const [verdict, setVerdict] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const run = async () => {
    setRunning("starting");
    setSteps([]);
    setVerdict(null);
    setProblem(null);
    const answer = await checkHost(host, (line) => {
      if ("verdict" in line) return;
      if ("running" in line) setRunning(line.running);
      else setSteps((done) => [...done, line]);
    });
    setRunning(null);
    if (answer.ok) {
      // A server that does not stream answers once: its steps arrive here.
      setSteps(answer.check.steps);
      setVerdict(answer.check.verdict);
    } else setProblem(answer.reason);
  };

  return { running, steps, verdict, problem, run };
}
