import type { DocumentLoader } from "@fedify/fedify";
import { preloadedContexts } from "@fedify/vocab-runtime";
import type { Outgoing } from "./outgoing-types.ts";
import { signedGet, type Signer } from "./signing.ts";

// The document and JSON-LD context loader handed to Fedify (and to its signature checks): the
// contexts Fedify ships with are answered from memory; anything else goes out through our
// Outgoing like every other request, so Fedify never connects anywhere we did not check. Given a
// signer (the instance actor), documents are fetched signed, as every GET on our own account is.

const ACCEPT = "application/ld+json, application/activity+json;q=0.9, application/json;q=0.8";

export function createDocumentLoader(
  outgoing: Outgoing,
  signer: () => Promise<Signer | null> = async () => null,
): DocumentLoader {
  return async (url) => {
    const href = new URL(url).href;
    if (Object.hasOwn(preloadedContexts, href))
      return { contextUrl: null, document: preloadedContexts[href], documentUrl: href };
    const fetched = await signedGet(href, await signer(), { outgoing, accept: ACCEPT });
    if (!fetched.ok) throw new Error(fetched.reason);
    return { contextUrl: null, document: fetched.document, documentUrl: fetched.url };
  };
}
