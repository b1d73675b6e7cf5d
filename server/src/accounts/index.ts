export * from "./accounts.store.ts";
export { hashPassword, verifyPassword, decoyHash } from "./passwords.ts";
export {
  checkToken,
  deleteExpiredTokens,
  issueToken,
  revokeToken,
  revokeTokens,
  type TokenCheck,
} from "./tokens.store.ts";
export { announceTokensEnded, tokenWatchOf, type TokenWatch } from "./token-watch.ts";
export {
  createSignInThrottle,
  defaultThrottle,
  type SignInThrottle,
  type ThrottleOptions,
} from "./throttle.ts";
