export * from "./accounts.store.ts";
export { hashPassword, verifyPassword, decoyHash } from "./passwords.ts";
export {
  checkToken,
  deleteExpiredTokens,
  issueToken,
  revokeTokens,
  type TokenCheck,
} from "./tokens.store.ts";
export { createSignInThrottle, type SignInThrottle, type ThrottleOptions } from "./throttle.ts";
