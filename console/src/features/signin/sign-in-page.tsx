import { useState, type FormEvent } from "react";
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useSignIn } from "./use-sign-in.ts";

export function SignInPage() {
  const { signIn, pending, refusal } = useSignIn();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");

  function submit(event: FormEvent) {
    event.preventDefault();
    void signIn({ name, password });
  }

  return (
    <Card sx={{ maxWidth: 400 }} data-testid="sign-in-card">
      <CardContent>
        <Typography id="signin-title" variant="h5" component="h1" gutterBottom>
          Sign In
        </Typography>
        {/* Named by the title: the top bar has a Sign In button of its own while signed out. */}
        <Box component="form" aria-labelledby="signin-title" onSubmit={submit}>
          <Stack spacing={2}>
            <TextField
              id="signin-name"
              label="Name"
              autoComplete="username"
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
            <TextField
              id="signin-password"
              label="Password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            {refusal && <Alert severity="error">{refusal}</Alert>}
            {pending && <LinearProgress aria-label="Signing in" />}
            <Button type="submit" variant="contained" disabled={pending}>
              Sign In
            </Button>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}
