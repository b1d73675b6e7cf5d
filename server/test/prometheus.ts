// A small reader of Prometheus' text exposition format (version 0.0.4), for tests: every sample
// with its labels, and the TYPE of every family, so a test can find a series and its value.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  types: Map<string, string>;
  /** The value of the one sample named `name` whose labels include `labels`; fails otherwise. */
  value(name: string, labels?: Record<string, string>): number;
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const labelPair = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/y;

export function parsePrometheus(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    if (line.startsWith("#")) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) types.set(type[1]!, type[2]!);
      else if (!line.startsWith("# HELP ")) throw new Error(`not a comment line: ${line}`);
      continue;
    }
    const match = sampleLine.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    samples.push({ name: match[1]!, labels: parseLabels(match[2] ?? ""), value: Number(match[3]) });
  }
  return {
    samples,
    types,
    value(name, labels = {}) {
      const found = samples.filter(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      );
      if (found.length !== 1)
        throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
      return found[0]!.value;
    },
  };
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  labelPair.lastIndex = 0;
  while (labelPair.lastIndex < text.length) {
    const pair = labelPair.exec(text);
    if (!pair) throw new Error(`bad labels: {${text}}`);
    labels[pair[1]!] = pair[2]!.replace(/\\n/g, "\n").replace(/\\(.)/g, "$1");
  }
  return labels;
}
