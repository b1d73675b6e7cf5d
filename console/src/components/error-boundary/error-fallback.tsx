import { Alert } from "@mui/material";

export function ErrorFallback() {
  return <Alert severity="error">Something went wrong</Alert>;
}
