import { Link, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";

/**
 * What a page that needs an account shows while signed out: the words of docs/console-guide.md#layout,
 * and the way in.
 */
export function SignedOutNotice() {
  return (
    <>
      <Typography>Please login</Typography>
      <Link component={RouterLink} to="/signin">
        Sign In
      </Link>
    </>
  );
}
