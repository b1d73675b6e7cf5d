import { Link, Typography } from "@mui/material";
import { Link as RouterLink, useLocation } from "react-router";

/** Any address the route table does not know: say so inside the layout, with a way back. */
export function UnknownPage() {
  const { pathname } = useLocation();
  return (
    <>
      <Typography>
        There is no page at <code>{pathname}</code>.
      </Typography>
      <Link component={RouterLink} to="/">
        Go to Info
      </Link>
    </>
  );
}
