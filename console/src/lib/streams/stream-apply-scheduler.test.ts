import { afterEach, describe, expect, it, vi } from "vitest";
import { createApplyScheduler } from "./stream-apply-scheduler.ts";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function createCountingScheduler() {
  let applies = 0;
  const scheduler = createApplyScheduler(() => {
    scheduler.markApplied();
    applies++;
  });
  return { scheduler, applies: () => applies };
}

describe("createApplyScheduler", () => {
  it("applies once on the next animation frame however often it is asked", () => {
    vi.useFakeTimers({
      toFake: [
        "setTimeout",
        "clearTimeout",
        "requestAnimationFrame",
        "cancelAnimationFrame",
        "performance",
      ],
    });
    const { scheduler, applies } = createCountingScheduler();
    for (let i = 0; i < 20; i++) scheduler.schedule();
    vi.advanceTimersByTime(20);
    expect(applies()).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(applies()).toBe(1);
  });

  it("leaves at least 100 ms between applies", () => {
    vi.useFakeTimers({
      toFake: [
        "setTimeout",
        "clearTimeout",
        "requestAnimationFrame",
        "cancelAnimationFrame",
        "performance",
      ],
    });
    const { scheduler, applies } = createCountingScheduler();
    scheduler.schedule();
    vi.advanceTimersByTime(20);
    scheduler.schedule();
    vi.advanceTimersByTime(60);
    expect(applies()).toBe(1);
    vi.advanceTimersByTime(60);
    expect(applies()).toBe(2);
  });

  it("still applies within 250 ms when no animation frames come (a hidden tab)", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    vi.stubGlobal("requestAnimationFrame", () => 0);
    const { scheduler, applies } = createCountingScheduler();
    scheduler.schedule();
    vi.advanceTimersByTime(249);
    expect(applies()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(applies()).toBe(1);
  });
});
