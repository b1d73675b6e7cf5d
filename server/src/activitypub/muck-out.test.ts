import { describe, expect, it } from "vitest";
import fixtures from "./muck-out.fixtures.json" with { type: "json" };
import { normalizeData } from "./muck-out.ts";

// Each fixture's `parsed` is what muck_out 0.3.16 itself answered for its `raw`, as cattle_grid's
// extension calls it (receiving actor http://local.test/actor/me, @context dropped). Made with
//   python3.11 -m venv v && v/bin/pip install muck-out==0.3.16
//   normalize_data(raw, actor_id=…, drop_context=True).model_dump_json(by_alias=True, exclude_none=True)

describe("normalizeData, as muck_out 0.3.16", () => {
  it.each(fixtures.map((f, i) => [i, f.raw, f.parsed] as const))(
    "answers fixture %i key for key",
    (_, raw, parsed) => {
      expect(normalizeData(raw, "http://local.test/actor/me")).toEqual(parsed);
    },
  );
});
