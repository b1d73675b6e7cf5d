// The shape of `actor_info` alone, so that the wire contract (and the console through it) names
// it without importing what computes it (actor-info.ts).

export interface ActorInfo {
  id: string;
  /** `@preferredUsername@host`, or null when unknown. */
  handle: string | null;
  name: string | null;
}
