import { createMiddleware } from "hono/factory";

// The built console runs only its own scripts; MUI (emotion) injects <style> elements, hence
// 'unsafe-inline' for styles only. Actor icons may come from anywhere, so images allow http(s).
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** The headers every answer carries (a page may bring its own Content-Security-Policy). */
export const securityHeaderValues: Readonly<Record<string, string>> = {
  "Content-Security-Policy": contentSecurityPolicy,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
};

export const securityHeaders = createMiddleware(async (c, next) => {
  await next();
  const headers = c.res.headers;
  for (const [name, value] of Object.entries(securityHeaderValues))
    if (name !== "Content-Security-Policy" || !headers.has(name)) headers.set(name, value);
});
