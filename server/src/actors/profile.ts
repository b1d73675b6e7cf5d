// The public part of an actor that update_actor edits, stored as JSON in actors.profile with
// ActivityPub property names so a `profile` from the API merges in directly. serializeActor reads
// exactly these fields; anything else stored is kept but not published.

export type ImageRef = string | { url: string; mediaType?: string | null; type?: string };

export interface PropertyValueJson {
  type?: "PropertyValue";
  name: string;
  value: string;
}

export interface UrlJson {
  href: string;
  mediaType?: string | null;
  rel?: string | null;
}

export interface ActorProfile {
  /** Person unless set. */
  type?: "Person" | "Service" | "Application" | "Group" | "Organization";
  name?: string | null;
  summary?: string | null;
  icon?: ImageRef | null;
  image?: ImageRef | null;
  /** PropertyValues (update_property_value / remove_property_value). */
  attachment?: PropertyValueJson[];
  /** Links (add_url / remove_url): a plain string is a profile page. */
  url?: Array<UrlJson | string>;
  alsoKnownAs?: string[];
  [other: string]: unknown;
}
