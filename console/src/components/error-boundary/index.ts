export { ErrorBoundary } from "./error-boundary.tsx";
export { ErrorFallback } from "./error-fallback.tsx";
