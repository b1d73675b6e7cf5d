import { describe, expect, it } from "vitest";
import { generateRsaKeyPair } from "../actors/key-columns.ts";
import { prepareBody } from "./draft-signing.ts";
import type { Answer, GetAnswer, Outgoing } from "./outgoing-types.ts";
import { signedGet, signedPost, type Signer } from "./signing.ts";

// A redirect from a public host to a private one cannot be played on loopback (the first hop
// would be refused already), so the way out is scripted here: it answers without any network
// and records what was sent.

function scriptedOutgoing(answers: Record<string, Response>) {
  const sent: string[] = [];
  const outgoing: Outgoing = {
    allowPrivate: false,
    userAgent: () => "Corral/test",
    get: async (url) => {
      sent.push(url.href);
      const answer = answers[url.href];
      if (!answer) throw new Error(`unexpected request to ${url.href}`);
      return getAnswerOf(answer);
    },
    post: async (url) => {
      throw new Error(`unexpected POST to ${url.href}`);
    },
    close: async () => {},
  };
  return { sent, outgoing };
}

/** A fetch Response as the way out answers a GET. */
function getAnswerOf(response: Response): GetAnswer {
  const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  return {
    status: response.status,
    statusText: response.statusText,
    headers: Object.fromEntries(response.headers),
    body: body as AsyncIterable<Uint8Array>,
    discard: () => body.cancel(),
  };
}

describe("signedGet's redirects", () => {
  it("checks every hop: a redirect to a private address is refused without being requested", async () => {
    const { sent, outgoing } = scriptedOutgoing({
      "https://public.example/a": new Response(null, {
        status: 302,
        headers: { Location: "http://169.254.169.254/latest/meta-data" },
      }),
    });
    expect(await signedGet("https://public.example/a", null, { outgoing })).toEqual({
      ok: false,
      reason: expect.stringMatching(/refused private address 169\.254\.169\.254/),
    });
    expect(sent).toEqual(["https://public.example/a"]);
  });

  it("follows a redirect between public hosts to the document", async () => {
    const { sent, outgoing } = scriptedOutgoing({
      "https://public.example/a": new Response(null, {
        status: 301,
        headers: { Location: "https://other.example/b" },
      }),
      "https://other.example/b": Response.json({ id: "https://other.example/b" }),
    });
    expect(await signedGet("https://public.example/a", null, { outgoing })).toMatchObject({
      ok: true,
      document: { id: "https://other.example/b" },
    });
    expect(sent).toEqual(["https://public.example/a", "https://other.example/b"]);
  });

  it("stops reading a document past 5 MiB, however much the server would send", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const { outgoing } = scriptedOutgoing({
      "https://public.example/huge": new Response(endless, { status: 200 }),
    });
    expect(await signedGet("https://public.example/huge", null, { outgoing })).toMatchObject({
      ok: false,
      reason: "https://public.example/huge: the body is larger than 5 MiB",
    });
    expect(pulled).toBeLessThan(100);
  });
});

describe("signedPost's time limit", () => {
  const signer = async (): Promise<Signer> => {
    const { privateKey } = await generateRsaKeyPair();
    return { keyId: new URL("https://corral.example/actor#main-key"), privateKey };
  };
  const posting = (answer: (signal: AbortSignal) => Promise<Answer>) => {
    const signals: AbortSignal[] = [];
    const outgoing: Outgoing = {
      allowPrivate: false,
      userAgent: () => "Corral/test",
      get: async (url) => {
        throw new Error(`unexpected request to ${url.href}`);
      },
      post: async (_url, _headers, _body, signal) => {
        signals.push(signal);
        return answer(signal);
      },
      close: async () => {},
    };
    return { signals, outgoing };
  };

  it("stops its timer once answered: the signal of a delivery done is never aborted later", async () => {
    const { signals, outgoing } = posting(async () => ({
      status: 202,
      statusText: "Accepted",
      detail: "",
    }));
    const result = await signedPost(
      "https://remote.example/inbox",
      prepareBody('{"type":"Create"}'),
      await signer(),
      { outgoing, timeoutMs: 20 },
    );
    expect(result).toEqual({ ok: true, status: 202 });
    // Past the time limit: a timer left running would abort it now (and build a DOMException).
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(signals[0]!.aborted).toBe(false);
  });

  it("still gives up on an inbox that does not answer in time, saying so", async () => {
    const { outgoing } = posting(
      (signal) =>
        new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
    );
    const result = await signedPost(
      "https://remote.example/inbox",
      prepareBody('{"type":"Create"}'),
      await signer(),
      { outgoing, timeoutMs: 20 },
    );
    expect(result).toEqual({
      ok: false,
      reason: "https://remote.example/inbox did not answer within 20 ms",
    });
  });
});
