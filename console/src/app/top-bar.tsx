import { Link as RouterLink, useNavigate } from "react-router";
import { AppBar, Box, Button, Toolbar, Typography } from "@mui/material";
import { useUserStore } from "../lib/user-store.ts";
import { ActorMenu } from "./actor-menu.tsx";
import { DRAWER_WIDTH } from "./navigation-drawer.tsx";

export function TopBar() {
  const signedIn = useUserStore((state) => state.token !== null);
  const navigate = useNavigate();
  return (
    <AppBar
      position="fixed"
      sx={{ width: `calc(100% - ${DRAWER_WIDTH}px)`, ml: `${DRAWER_WIDTH}px` }}
    >
      <Toolbar>
        <Typography
          variant="h6"
          component={RouterLink}
          to="/"
          sx={{ color: "inherit", textDecoration: "none" }}
        >
          {window.location.host}
        </Typography>
        <Box sx={{ flexGrow: 1 }} />
        {signedIn ? (
          <ActorMenu />
        ) : (
          // A button, as console.md names it (a screen reader announces it as one), that navigates.
          <Button color="inherit" onClick={() => void navigate("/signin")}>
            Sign In
          </Button>
        )}
      </Toolbar>
    </AppBar>
  );
}
